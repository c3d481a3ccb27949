//! `menace`: matchbox learning machines (Michie's MENACE, Gardner's HER) and
//! the games they learn.
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
//! them, used by any: `error`, `fsutil`, and `font` (the embedded font).
//!
//! Cargo features keep the front ends out of the core, so that the compiler
//! refuses an arrow pointing up to them (the arrows within the core are
//! checked by `tests/architecture.rs`):
//! - no features: the core, every layer above but `web` and chart drawing;
//!   it depends on neither clap, indicatif, axum, tokio nor plotters;
//! - `charts`: drawing charts (`experiment::plot`, `experiment::charts::draw_charts`;
//!   plotters); without it, an experiment writes its curves and summary only;
//! - `web`: the `web` layer (axum, tokio);
//! - `cli` (the binary; it brings `web` and `charts`): clap, indicatif, anyhow.
//!
//! All three are on by default.

// The name `with_game!` expands to, inside the library as outside it.
extern crate self as menace;

pub mod error;
#[cfg(any(feature = "web", feature = "charts"))]
pub mod font;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod machine;
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
pub use registry::{parse_spec, AnyGame, SpecError};
pub use search::{PositionSolver, SearchLimits};
