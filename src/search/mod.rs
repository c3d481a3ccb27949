//! Search over a game's tree: the exact solver and Monte Carlo tree search.

pub mod mcts;
pub mod solver;
