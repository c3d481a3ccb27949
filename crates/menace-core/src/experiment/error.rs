//! What can go wrong reading, running and writing an experiment.

use std::path::PathBuf;

use crate::error::FieldError;
use crate::fsutil::FileError;
use crate::training::trainer::TrainError;

/// An experiment that could not be read or run.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// The file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// A field of the file is wrong.
    #[error("experiment file '{}': {error}", path.display())]
    InFile {
        /// The experiment file.
        path: PathBuf,
        /// What is wrong in it.
        error: FieldError,
    },
    /// An arm cannot be set up (say, `perfect` on a game too large to solve).
    #[error("arms[{index}] ('{name}'): {error}")]
    Arm {
        /// The arm's place in `arms`, from 0.
        index: usize,
        /// The arm's name.
        name: String,
        /// Why its machine or opponent cannot be made.
        error: TrainError,
    },
    /// A unit of work could not be saved, read back or merged.
    #[error(transparent)]
    Unit(#[from] UnitError),
    /// A run's games could not be kept (more than a run may hold).
    #[error("a run's games: {0}")]
    Records(String),
    /// The worker threads could not be started.
    #[error("could not start {threads} worker threads: {reason}")]
    Threads {
        /// How many threads were asked for.
        threads: usize,
        /// Why they could not start.
        reason: String,
    },
}

/// Curves, a summary or a chart that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A curves file is not as `menace run` writes it.
    #[error("curves file '{}': {error}", path.display())]
    Curves {
        /// The curves file.
        path: PathBuf,
        /// What is wrong in it.
        error: FieldError,
    },
    /// A chart could not be drawn.
    #[error("cannot draw '{}': {error}", path.display())]
    Chart {
        /// The chart's file.
        path: PathBuf,
        /// Why it could not be drawn.
        error: ChartError,
    },
    /// The curves could not be encoded as CSV.
    #[error("curves: {0}")]
    Csv(#[from] csv::Error),
    /// The summary could not be encoded as JSON.
    #[error("summary: {0}")]
    Json(#[from] serde_json::Error),
    /// A unit of a merge could not be read.
    #[error(transparent)]
    Unit(#[from] UnitError),
}

/// Units that could not be saved, loaded or merged.
#[derive(Debug, thiserror::Error)]
pub enum UnitError {
    /// A unit's file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A unit or shard file that is not what `menace run` writes.
    #[error("'{}': {error}", path.display())]
    Bad {
        /// The unit or shard file.
        path: PathBuf,
        /// What is wrong in it.
        error: FieldError,
    },
    /// Files of another experiment (the experiment file changed, or shards were mixed).
    #[error("{0}")]
    Mismatch(String),
    /// Some units are in no folder given.
    #[error("{0}")]
    Missing(String),
    /// A unit is in two folders given.
    #[error("unit arm {arm} seed {seed} is in both '{}' and '{}': give each shard once", first.display(), second.display())]
    Duplicate {
        /// The unit's arm, from 0.
        arm: usize,
        /// The unit's seed, from 0.
        seed: usize,
        /// One folder it is in.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
}

/// Why a chart could not be drawn.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ChartError {
    /// No chart of that name.
    #[error("unknown chart '{0}'")]
    Unknown(String),
    /// Nothing to draw.
    #[error("chart '{0}' has no series")]
    NoSeries(String),
    /// More series than one chart has colours for.
    #[error("chart '{title}' has {series} series: at most {most} fit on one chart (split the arms over several experiments)")]
    TooManySeries {
        /// The chart's title.
        title: String,
        /// How many series it has.
        series: usize,
        /// How many fit on one chart.
        most: usize,
    },
    /// A series with no points.
    #[error("chart '{title}': series '{label}' has no points")]
    EmptySeries {
        /// The chart's title.
        title: String,
        /// The empty series' label.
        label: String,
    },
    /// Every point is NaN or infinite.
    #[error("chart '{0}' has no finite points to draw")]
    NoFinitePoints(String),
    /// The values span more than a float can hold.
    #[error("chart '{0}' has values too large to draw")]
    TooLarge(String),
    /// The font shipped in the program could not be loaded.
    #[error("the embedded chart font (DejaVuSans.ttf) cannot be loaded")]
    Font,
    /// The drawing library failed (its message).
    #[error("drawing failed: {0}")]
    Drawing(String),
    /// The PNG could not be encoded (its message).
    #[error("encoding the PNG failed: {0}")]
    Png(String),
}
