//! The games, one file each, or a folder for a big one (one job a file);
//! `chesslike` holds what the two chess variants share.

pub mod board;
pub mod chessapawn;
pub mod chesslike;
pub mod hex;
pub mod hexapawn;
pub mod minihexchess;
pub mod tictactoe;
