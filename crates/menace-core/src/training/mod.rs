//! Training: opponents, the match driver that plays one game between two
//! agents, the compiled fast path for small games, the seeded trainer, a
//! training run, exact evaluation, and state files.

pub mod compiled;
pub mod driver;
pub mod exact;
pub mod lifetime;
pub mod opponent;
pub mod run;
pub mod state;
pub mod trainer;
