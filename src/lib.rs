//! `menace`: matchbox learning machines (Michie's MENACE, Gardner's HER) and
//! the games they learn, with their front ends: the `menace` command, the
//! classroom page's server, learning-curve charts and printable labels.
//!
//! The engine is the `menace-core` crate (games, search, the machine,
//! training, exact learning, experiments), which builds for any target, a
//! browser's WebAssembly among them; this crate re-exports its modules, so
//! `menace::machine` is `menace_core::machine`. Here HER, Gardner's Hexapawn
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
//! What this crate adds to the core, each a feature (all on by default):
//! - `charts` ([`charts`]): drawing learning-curve charts (plotters), the
//!   chart writer an experiment's outputs use;
//! - `web` ([`web`]): SVG pictures of boards and boxes, label sheets (PDF),
//!   and the classroom page's server (axum, tokio);
//! - `cli` (the `menace` binary, `src/cli/`; it brings `web` and `charts`):
//!   clap, indicatif, anyhow, and the process's memory policy ([`memory`]).
//!
//! The compiler keeps the core from all of them (it is another crate), and
//! `.ci/run` builds each feature alone, so that one front end cannot name
//! another.

#![warn(missing_docs)]

pub use menace_core::{
    error, experiment, fsutil, game, game_table, games, machine, machine_spec, parse_spec, picture, prelude, registry,
    search, symmetry, training, with_game, About, AnyGame, Boxes, Chessapawn, Game, Hex, Hexapawn, MiniHexchess,
    MoveError, Notation, Outcome, Player, PositionError, PositionErrorKind, PositionSolver, Rules, SearchLimits,
    SpecError, Symmetric, TicTacToe,
};

#[cfg(feature = "charts")]
pub mod charts;
#[cfg(any(feature = "web", feature = "charts"))]
pub use menace_web::font;
#[cfg(feature = "cli")]
pub mod memory;
#[cfg(feature = "web")]
pub mod web;
