//! The library's tests: the games and their rules, the solvers, the
//! matchbox machine and its training, and the layers of the code. They need
//! no feature (`cargo test --no-default-features` runs them alone) and
//! nothing but Rust.

#[path = "../common/mod.rs"]
mod common;

mod architecture;
mod chess_tables;
mod chessapawn;
mod compiled;
mod hex;
mod hexapawn;
mod lifetime;
mod machine;
mod mcts;
mod minihexchess;
mod page_file;
mod records;
mod rules;
mod solver;
