//! The games, one file each.

pub mod board;
pub mod chessapawn;
pub mod hex;
pub mod hexapawn;
pub mod minihexchess;
pub mod tictactoe;
