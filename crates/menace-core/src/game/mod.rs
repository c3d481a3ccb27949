//! What every game is to the rest of the program: its players and
//! outcomes, the parts it is made of ([`Rules`], [`Notation`],
//! [`Symmetric`], [`Boxes`], [`About`], [`SearchLimits`]), the errors reading its moves
//! and positions, and how a spec string makes it ([`GameSpec`]).

mod error;
pub mod limits;
mod parts;
mod players;
mod provided;
mod spec;

pub use error::{MoveError, PositionError, PositionErrorKind};
pub use limits::{OverBudget, PositionSolver, SearchBudget, SearchLimits, Spent, TooLarge};
pub use parts::{About, Boxes, Notation, Rules, Symmetric};
pub use players::{Outcome, Player};
pub use provided::Game;
pub use spec::{no_size_or_options, unknown_option, GameSpec, MachinePreset};
