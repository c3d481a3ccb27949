//! Experiments: experiment files, the parallel runner, per-game curves, the
//! summary, and charts.

pub mod charts;
pub mod curves;
pub mod file;
pub mod plot;
pub mod report;
pub mod runner;

pub use file::{Arm, Experiment};
