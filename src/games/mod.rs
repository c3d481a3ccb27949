//! The games, one file each.

pub mod board;
pub mod hexapawn;
pub mod tictactoe;
