//! What tests may set that a served page never does: training's pace, and
//! counts of how requests waited. Kept apart from [`Config`](super::config::Config),
//! and given to the server only by [`start_with`](super::serve::start_with) and
//! [`serve_with`](super::serve::serve_with).

use std::sync::Arc;

use tokio::sync::Semaphore;

/// The server's test hooks: none set by default.
#[derive(Clone, Debug, Default)]
pub struct TestHooks {
    /// Training plays a game only for each one [`Gate::allow`]s.
    pub gate: Option<Gate>,
    /// `GET /api/stats` answers how requests waited for sessions.
    pub stats: bool,
    /// A label sheet is drawn only once this gate lets one through (it
    /// holds its place on the render pool meanwhile).
    pub renders: Option<Gate>,
    /// A large answer (a download, a long box listing) is written only
    /// once this gate lets one through (it holds its place on the writers'
    /// pool meanwhile).
    pub writes: Option<Gate>,
}

/// Training's pace set from outside, for tests that must know where a run
/// is: a run plays one game for each game allowed, and waits (or stops when
/// told) in between.
#[derive(Clone, Debug)]
pub struct Gate(pub(super) Arc<Semaphore>);

impl Gate {
    /// A gate that lets no game through yet.
    pub fn new() -> Gate {
        Gate(Arc::new(Semaphore::new(0)))
    }

    /// Let `games` more games be played (by whichever runs ask first).
    pub fn allow(&self, games: usize) {
        self.0.add_permits(games);
    }
}

impl Default for Gate {
    fn default() -> Gate {
        Gate::new()
    }
}
