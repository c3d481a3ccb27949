//! What the server asks of a tab's machine, whatever its game, in parts:
//! what the page is shown, the person's game, copies to finish off the
//! lock, opponents, training, and a watched game. [`Session`] is all of
//! them; each caller needs one or two.

use menace_core::clock::Instant;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde_json::Value as Json;

use crate::session::apart::{Deferred, Made, Pending, Signals, Trained, Watched};
use crate::session::error::SessionError;
use crate::session::requests::BoxQuery;
use menace_core::training::opponent::OpponentSpec;

/// What the page is shown of a machine, and the counts the server checks.
pub trait Shown {
    /// The spec of the game the machine plays.
    fn game_spec(&self) -> String;
    /// Everything the page shows, as JSON.
    fn view(&self) -> Json;
    /// The curves so far.
    fn curves(&self) -> Json;
    /// Moves the person has made in the game in progress (0: none, or no game).
    fn person_moves(&self) -> usize;
    /// Games the machine has played over its life.
    fn games_played(&self) -> u64;
    /// Boxes the machine has.
    fn box_count(&self) -> usize;
    /// The machine's move each box is for (its first, second...), by the
    /// box's label number: the first for box 1, and so on.
    fn box_moves(&self) -> Vec<u32>;
}

/// The person's game against the machine.
pub trait Played {
    /// Start the next game against the person (the machine moves first if it is to).
    fn new_game(&mut self) -> Result<(), SessionError>;
    /// The person's move, in notation; the machine answers.
    fn play(&mut self, text: &str) -> Result<(), SessionError>;
    /// The person resigns the game in progress.
    fn resign(&mut self) -> Result<(), SessionError>;
    /// Referee for a real machine: the bead a person drew from the
    /// machine's box, by colour (`None`: the box was empty).
    fn bead(&mut self, colour: Option<&str>) -> Result<(), SessionError>;
    /// Referee: the machine draws the bead a person would have drawn from
    /// its box, at random as it draws in training (a class that is the
    /// machine, with no real cups: the pupil holding the box presses Draw).
    fn draw_bead(&mut self) -> Result<(), SessionError>;
    /// Referee for a real machine (the machine's beads given by a person), or not.
    fn set_referee(&mut self, on: bool);
}

/// Copies taken under the session's lock, finished by [`Deferred::run`] without it.
pub trait Copied {
    /// The boxes the query asks for (at most `limit` a page), the boxes of
    /// the last game first, each with its position drawn and its beads.
    fn boxes(&self, query: &BoxQuery, limit: usize) -> Result<Deferred<Json>, SessionError>;
    /// The state file, as `menace train --save` writes it.
    fn state(&mut self) -> Deferred<String>;
}

/// The opponents a machine trains or plays a watched game against.
pub trait Opponents {
    /// Refuse an opponent the page cannot make, by estimate (before any solve).
    fn check_opponent(&self, opponent: &OpponentSpec) -> Result<(), SessionError>;
    /// The opponent `spec` names, made by [`Deferred::run`] without the
    /// session's lock (a perfect player's solve takes up to a second);
    /// `None` when the session holds it already.
    fn opponent_maker(&self, spec: &OpponentSpec) -> Option<Deferred<Result<Made, SessionError>>>;
    /// A move chosen apart ([`Trained::pending`], [`Watched::Pending`]),
    /// played in the game it was taken from.
    fn resume(&mut self, pending: Pending);
}

/// Training, a slice at a time.
pub trait Trains {
    /// Get ready to train a run of `games` games against `opponent`
    /// (`made` apart, or held by the session): the game in progress is
    /// dropped. A search opponent stops searching once `cancel` is set.
    fn begin_training(
        &mut self,
        opponent: &OpponentSpec,
        made: Option<Made>,
        cancel: Arc<AtomicBool>,
        games: u64,
    ) -> Result<(), SessionError>;
    /// Train for one slice: finish at most `games` games of the run,
    /// stopping after the move after which `signals` say to let go (past
    /// `deadline`, or a request waits), or to stop, or when the machine has
    /// `max_boxes` boxes. A game cut off is resumed by the next slice.
    fn train(&mut self, games: u64, deadline: Instant, signals: &Signals) -> Trained;
    /// Training is over: a game left unfinished is dropped (no beads
    /// change), the person is the opponent again, and a new game starts.
    fn end_training(&mut self);
}

/// A game against an opponent played for the page to watch.
pub trait Watches {
    /// Start a game against `opponent` (`made` apart, or held by the
    /// session) for the page to watch: the person's game in progress is
    /// dropped. It is played by [`Watches::watch_step`]; a search opponent
    /// stops searching once `cancel` is set.
    fn begin_watch(
        &mut self,
        opponent: &OpponentSpec,
        made: Option<Made>,
        frames: bool,
        cancel: Arc<AtomicBool>,
    ) -> Result<(), SessionError>;
    /// Play the watched game on, until the move after which `signals` say
    /// to let go (past `deadline`, or a request waits), an opponent's move
    /// to be chosen apart, or its end: then the game's moves (with the
    /// board after each when `frames`) and its result. Once `signals` say
    /// to stop, the game ends unfinished: no beads change, no game counted.
    fn watch_step(&mut self, deadline: Instant, signals: &Signals) -> Watched;
}

/// One tab's machine, whatever its game: every part.
pub trait Session: Shown + Played + Copied + Opponents + Trains + Watches + Send {}

impl<T: Shown + Played + Copied + Opponents + Trains + Watches + Send> Session for T {}

/// For tests: a session made of another, every part but [`Trains`] the
/// inner one's, so that a fake of training is that part alone.
#[doc(hidden)]
pub trait Wraps: Send {
    fn inner(&self) -> &dyn Session;
    fn inner_mut(&mut self) -> &mut dyn Session;
}

mod wrapped {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use menace_core::clock::Instant;
    use menace_core::training::opponent::OpponentSpec;
    use serde_json::Value as Json;

    use crate::session::apart::{Deferred, Made, Pending, Signals, Watched};
    use crate::session::error::SessionError;
    use crate::session::requests::BoxQuery;
    use crate::session::traits::{Copied, Opponents, Played, Shown, Watches, Wraps};

    impl<W: Wraps> Shown for W {
        fn game_spec(&self) -> String {
            self.inner().game_spec()
        }
        fn view(&self) -> Json {
            self.inner().view()
        }
        fn curves(&self) -> Json {
            self.inner().curves()
        }
        fn person_moves(&self) -> usize {
            self.inner().person_moves()
        }
        fn games_played(&self) -> u64 {
            self.inner().games_played()
        }
        fn box_count(&self) -> usize {
            self.inner().box_count()
        }
        fn box_moves(&self) -> Vec<u32> {
            self.inner().box_moves()
        }
    }

    impl<W: Wraps> Played for W {
        fn new_game(&mut self) -> Result<(), SessionError> {
            self.inner_mut().new_game()
        }
        fn play(&mut self, text: &str) -> Result<(), SessionError> {
            self.inner_mut().play(text)
        }
        fn resign(&mut self) -> Result<(), SessionError> {
            self.inner_mut().resign()
        }
        fn bead(&mut self, colour: Option<&str>) -> Result<(), SessionError> {
            self.inner_mut().bead(colour)
        }
        fn draw_bead(&mut self) -> Result<(), SessionError> {
            self.inner_mut().draw_bead()
        }
        fn set_referee(&mut self, on: bool) {
            self.inner_mut().set_referee(on)
        }
    }

    impl<W: Wraps> Copied for W {
        fn boxes(&self, query: &BoxQuery, limit: usize) -> Result<Deferred<Json>, SessionError> {
            self.inner().boxes(query, limit)
        }
        fn state(&mut self) -> Deferred<String> {
            self.inner_mut().state()
        }
    }

    impl<W: Wraps> Opponents for W {
        fn check_opponent(&self, opponent: &OpponentSpec) -> Result<(), SessionError> {
            self.inner().check_opponent(opponent)
        }
        fn opponent_maker(&self, spec: &OpponentSpec) -> Option<Deferred<Result<Made, SessionError>>> {
            self.inner().opponent_maker(spec)
        }
        fn resume(&mut self, pending: Pending) {
            self.inner_mut().resume(pending)
        }
    }

    impl<W: Wraps> Watches for W {
        fn begin_watch(
            &mut self,
            opponent: &OpponentSpec,
            made: Option<Made>,
            frames: bool,
            cancel: Arc<AtomicBool>,
        ) -> Result<(), SessionError> {
            self.inner_mut().begin_watch(opponent, made, frames, cancel)
        }
        fn watch_step(&mut self, deadline: Instant, signals: &Signals) -> Watched {
            self.inner_mut().watch_step(deadline, signals)
        }
    }
}
