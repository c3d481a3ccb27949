//! `menace`: matchbox learning machines (Michie's MENACE, Gardner's HER) and
//! the games they learn.
//!
//! Games implement [`Game`]; the matchbox machine, the opponents, the solver
//! and the trainer are written against it and know no game by name. The
//! [`registry`] maps game spec strings to games.

pub mod boxes;
pub mod chart;
pub mod exact;
pub mod experiment;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod machine;
pub mod mcts;
pub mod opponent;
pub mod registry;
pub mod report;
pub mod settings;
pub mod solver;
pub mod state;
pub mod train;

pub use game::{Game, MoveError, Outcome, Player, PositionError};
pub use games::chessapawn::Chessapawn;
pub use games::hex::Hex;
pub use games::hexapawn::Hexapawn;
pub use games::minihexchess::MiniHexchess;
pub use games::tictactoe::TicTacToe;
pub use registry::{parse_spec, AnyGame, SpecError};
