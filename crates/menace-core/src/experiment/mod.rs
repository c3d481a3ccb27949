//! Experiments: experiment files, the runner, per-game curves, the summary,
//! and which charts there are (a front end draws them).

pub mod charts;
pub mod curves;
pub mod error;
pub mod file;
pub mod records;
pub mod report;
pub mod runner;
pub mod units;

pub use error::{ExperimentError, OutputError};
pub use file::{Arm, Experiment};
