//! The work done off a session's lock, and the signals between a player
//! under the lock and the requests waiting for it: a move to be chosen
//! apart ([`Pending`]), work copied out to be done after ([`Deferred`]), an
//! opponent made apart ([`Made`]), and what a slice of training or a step of
//! a watched game did.

use menace_core::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::Value as Json;

use menace_core::game::Game;
use menace_core::training::driver::Thinking;

/// What a slice of training did.
#[derive(Debug)]
pub struct Trained {
    /// Games finished.
    pub games: u64,
    /// Training cannot go on: the machine has all the boxes a page's machine may.
    pub halted: bool,
    /// The opponent's next move, to be chosen apart (a search): think it
    /// without the session's lock, then give it back through [`Opponents::resume`](crate::session::traits::Opponents::resume).
    pub pending: Option<Pending>,
    /// A game is left unfinished, to be resumed by the next slice.
    pub mid_game: bool,
}

/// An opponent's move taken out of a session to be chosen without holding
/// it (a search of many playouts): it owns the opponent and the random
/// stream, so that a session changed or closed meanwhile is never written
/// into (the server checks the session's generation before
/// [`Opponents::resume`](crate::session::traits::Opponents::resume)), and the moves are those played in place.
pub struct Pending(pub(crate) Box<dyn Think>);

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pending")
    }
}

impl Pending {
    /// Choose the move: the slow part, touching nothing of the session's.
    pub fn think(&mut self) {
        self.0.think();
    }

    /// [`Pending::think`] unless `deadline` passes first: whether the move
    /// is chosen. A perfect player's search cut short goes on from where
    /// it was when asked again, and chooses as it would have at once.
    pub fn think_before(&mut self, deadline: Instant) -> bool {
        self.0.think_before(deadline)
    }
}

pub(crate) trait Think: Send {
    fn think(&mut self);
    fn think_before(&mut self, deadline: Instant) -> bool;
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any>;
}

impl<G: Game + 'static> Think for Thinking<G>
where
    Thinking<G>: Send,
{
    fn think(&mut self) {
        Thinking::think(self);
    }
    fn think_before(&mut self, deadline: Instant) -> bool {
        Thinking::think_before(self, deadline)
    }
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

/// Work taken out of a session to be done without its lock: what it needs
/// was copied under the lock (the boxes to draw, the state to write out),
/// and the slow part (drawing, naming, writing, solving) runs after.
pub struct Deferred<T>(Box<dyn FnOnce() -> T + Send>);

impl<T> Deferred<T> {
    pub(crate) fn new(f: impl FnOnce() -> T + Send + 'static) -> Deferred<T> {
        Deferred(Box::new(f))
    }

    /// Do the work.
    pub fn run(self) -> T {
        (self.0)()
    }
}

impl<T> std::fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Deferred")
    }
}

/// An opponent made apart from its session ([`Opponents::opponent_maker`](crate::session::traits::Opponents::opponent_maker)),
/// to be handed to [`Trains::begin_training`](crate::session::traits::Trains::begin_training) or
/// [`Watches::begin_watch`](crate::session::traits::Watches::begin_watch).
pub struct Made(pub(crate) Box<dyn std::any::Any + Send>);

impl std::fmt::Debug for Made {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Made")
    }
}

/// What the one playing a session's games under its lock (a training
/// run, a watched game) is told: stop, or let go because a request waits
/// for the session; and the moves it played, counted.
#[derive(Debug, Default)]
pub struct Signals {
    /// Set to stop the run or the watched game: checked every move and
    /// every MCTS playout.
    pub cancel: Arc<AtomicBool>,
    /// Requests waiting for the session's lock: the player lets go after
    /// the move it is playing.
    pub waiting: AtomicUsize,
    /// Moves played under the lock by training and watched games, over the
    /// session's life (a game the compiled table plays whole counts one).
    pub moves: AtomicU64,
}

impl Signals {
    /// Whether the run or the watched game is to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Whether to let go of the session now: past `deadline`, or wanted by a request.
    pub fn let_go(&self, deadline: Instant) -> bool {
        self.waiting.load(Ordering::Relaxed) > 0 || Instant::now() >= deadline
    }

    /// A move was played under the lock.
    pub fn moved(&self) {
        self.moves.fetch_add(1, Ordering::Relaxed);
    }
}

/// What a step of a watched game did.
#[derive(Debug)]
pub enum Watched {
    /// Moves played; the game goes on.
    More,
    /// The opponent's move is to be chosen apart (see [`Trained::pending`]).
    Pending(Pending),
    /// The game is over: its moves (with boards if asked) and its result.
    Over(Json),
}
