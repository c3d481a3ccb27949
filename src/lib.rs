//! `menace`: matchbox learning machines (Michie's MENACE, Gardner's HER) and
//! the games they learn.
//!
//! A machine is a set of matchboxes, one per position it may face, each
//! holding beads of one colour per legal move; it moves by drawing a bead
//! and learns by losing beads after a defeat (and, in Michie's scheme,
//! gaining beads after a win or a draw). Here HER, Gardner's Hexapawn
//! Educable Robot, plays Black against a perfect White for 50 games; then
//! her exact chance of losing to perfect play is worked out from her beads
//! over the whole game tree:
//!
//! ```
//! use menace::machine::settings::MachineSettings;
//! use menace::machine::GameResult;
//! use menace::training::opponent::OpponentSpec;
//! use menace::training::trainer::Trainer;
//! use menace::{Hexapawn, Player};
//!
//! let hexapawn = Hexapawn::new(3, 3)?;
//! // Black moves second; one bead a move, and a loss takes the bead of her last move.
//! let her = MachineSettings::gardner();
//! let mut trainer = Trainer::new(hexapawn, Player::Two, her, OpponentSpec::Perfect(1.0), 7)?;
//! let losses = (0..50)
//!     .filter(|_| trainer.play_game(false).result == GameResult::Loss)
//!     .count();
//! let chance = trainer.exact().perfect.expect("3×3 Hexapawn is solved").loss;
//! println!("{losses} losses in 50 games; her chance of losing to perfect play now: {chance:.4}");
//! assert_eq!(losses, 3); // against perfect play, every seed loses exactly 3
//! assert_eq!(chance, 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The `menace` command (feature `cli`) runs such machines from the command
//! line and experiment files, and serves a classroom page; its guides are
//! in the repository's `docs/` folder.
//!
//! The layers, each using only those above it in this list:
//! - [`game`]: the [`Game`] abstraction every game implements, with its symmetry group;
//! - [`picture`]: how a game's board is drawn: cells, pieces, the cells a move joins;
//! - [`games`]: the games, one file (or folder, with its own solver) each;
//! - [`search`]: the exact solver and Monte Carlo tree search;
//! - [`machine`]: the matchbox machine: settings, box sets, boxes, beads, reinforcement;
//! - [`training`]: opponents, the match driver, the trainer, exact evaluation, state files;
//! - [`registry`]: the one table of games, by spec string;
//! - [`experiment`]: experiment files, the parallel runner, curves, summary, charts;
//! - `web`: SVG pictures of boards and boxes, and the classroom web page's server.
//!
//! The command line (`src/cli/`, the binary) sits on top of them all. Beside
//! them, used by any: `error`, `fsutil`, `memory` (cache and page hints),
//! and `font` (the embedded font).
//!
//! Cargo features keep the front ends out of the core, so that the compiler
//! refuses an arrow pointing up to them (the arrows within the core are
//! checked by `tests/library/architecture.rs`):
//! - no features: the core, every layer above but `web` and chart drawing;
//!   it depends on neither clap, indicatif, axum, tokio nor plotters;
//! - `charts`: drawing charts (`experiment::plot`, `experiment::charts::draw_charts`;
//!   plotters); without it, an experiment writes its curves and summary only;
//! - `web`: the `web` layer (axum, tokio);
//! - `cli` (the binary; it brings `web` and `charts`): clap, indicatif, anyhow.
//!
//! All three are on by default.

#![warn(missing_docs)]
// The name `with_game!` expands to, inside the library as outside it.
extern crate self as menace;

pub mod error;
#[cfg(any(feature = "web", feature = "charts"))]
pub mod font;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod machine;
mod memory;
pub mod picture;
/// The traits a game is made of, to bring their methods into scope at once:
/// `use menace::prelude::*;`.
pub mod prelude {
    pub use crate::game::{About, Boxes, Game, GameSpec, Notation, Rules, Symmetric};
    pub use crate::search::SearchLimits;
    pub use crate::symmetry::Symmetry;
}
// `#[macro_use]`: `with_game!` for the layers after the registry (the web server).
#[macro_use]
pub mod registry;
// After the registry: experiments run each arm on its own game through `with_game!`.
pub mod experiment;
pub mod search;
pub mod symmetry;
pub mod training;
#[cfg(feature = "web")]
pub mod web;

pub use game::{
    About, Boxes, Game, MoveError, Notation, Outcome, Player, PositionError, PositionErrorKind, Rules, Symmetric,
};
pub use games::chessapawn::Chessapawn;
pub use games::hex::Hex;
pub use games::hexapawn::Hexapawn;
pub use games::minihexchess::MiniHexchess;
pub use games::tictactoe::TicTacToe;
pub use memory::{give_back_freed_memory, keep_freed_memory};
pub use registry::{parse_spec, AnyGame, SpecError};
pub use search::{PositionSolver, SearchLimits};
