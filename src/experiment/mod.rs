//! Experiments: experiment files, the parallel runner, per-game curves, the
//! summary, and charts.

pub mod charts;
pub mod curves;
pub mod error;
pub mod file;
#[cfg(feature = "charts")]
pub mod plot;
pub mod records;
pub mod report;
pub mod runner;
pub mod units;

pub use error::{ExperimentError, OutputError};
pub use file::{Arm, Experiment};
