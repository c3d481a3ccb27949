//! `menace-core`: matchbox learning machines (Michie's MENACE, Gardner's
//! HER) and the games they learn, with nothing that names a terminal, a
//! socket, a chart library or the operating system: the engine under the
//! `menace` command, a page in a browser (WebAssembly) and a Python module.
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
//! use menace_core::machine::settings::MachineSettings;
//! use menace_core::machine::GameResult;
//! use menace_core::training::opponent::OpponentSpec;
//! use menace_core::training::trainer::Trainer;
//! use menace_core::{Hexapawn, Player};
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
//! The layers, each using only those above it in this list:
//! - [`game`]: the [`Game`] abstraction every game implements, with its symmetry group;
//! - [`picture`]: how a game's board is drawn: cells, pieces, the cells a move joins;
//! - [`games`]: the games, one file (or folder, with its own solver) each;
//! - [`search`]: the exact solver and Monte Carlo tree search;
//! - [`machine`]: the matchbox machine: settings, the machine spec, box sets, boxes, beads, reinforcement;
//! - [`training`]: opponents, the match driver, the trainer, exact evaluation, state files;
//! - [`registry`]: the one table of games, by spec string;
//! - [`machine_spec`]: what a machine is as every front end says it (a
//!   preset and the settings that change it), resolved on a game of the table;
//! - [`experiment`]: experiment files, the runner, curves and the summary (the
//!   charts themselves are drawn by a front end, through
//!   [`experiment::report::ChartWriter`]).
//!
//! Beside them, used by any: [`error`], [`fsutil`] and [`memory`] (cache
//! hints, and the page hints a program may install).
//!
//! One feature, `parallel` (off by default; the `menace` command turns it
//! on), runs an experiment's seeds and a compiled table's build on rayon's
//! threads. Without it everything runs on the caller's thread, with the
//! same results.

#![warn(missing_docs)]
// The name `with_game!` expands to, inside the crate as outside it.
extern crate self as menace_core;

pub mod clock;
pub mod error;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod machine;
pub mod memory;
mod par;
pub mod picture;
/// The traits a game is made of, to bring their methods into scope at once:
/// `use menace_core::prelude::*;`.
pub mod prelude {
    pub use crate::game::{About, Boxes, Game, GameSpec, Notation, Rules, Symmetric};
    pub use crate::search::SearchLimits;
    pub use crate::symmetry::Symmetry;
}
// `#[macro_use]`: `with_game!` for the layers after the registry.
#[macro_use]
pub mod registry;
// After the registry: experiments run each arm on its own game through `with_game!`.
pub mod experiment;
pub mod machine_spec;
pub mod search;
pub mod symmetry;
pub mod training;

pub use game::{
    About, Boxes, Game, MoveError, Notation, Outcome, Player, PositionError, PositionErrorKind, Rules, Symmetric,
};
pub use games::chessapawn::Chessapawn;
pub use games::hex::Hex;
pub use games::hexapawn::Hexapawn;
pub use games::minihexchess::MiniHexchess;
pub use games::tictactoe::TicTacToe;
pub use registry::{parse_spec, AnyGame, SpecError};
pub use search::{PositionSolver, SearchLimits};
