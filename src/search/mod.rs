//! Search over a game's tree: the exact solver, Monte Carlo tree search and perft.

pub mod mcts;
pub mod perft;
pub mod solver;
