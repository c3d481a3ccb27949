//! Search over a game's tree: the exact solver, Monte Carlo tree search and perft.

pub mod mcts;
pub mod perft;
pub mod solver;

/// The limits of exhaustive search, which a game gives beside its rules.
pub use crate::game::limits::{PositionSolver, SearchLimits, TooLarge};
