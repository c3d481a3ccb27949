//! `menace.run_experiment`: every arm of an experiment over every seed, as
//! `menace run` runs it, its curves and summary written by the core's own
//! writer (so the values are those of `curves.csv` and `summary.json`).

use std::path::PathBuf;

use pyo3::prelude::*;

use menace_core::experiment::report::{write_outputs, NoCharts};
use menace_core::experiment::Experiment;

use crate::value_error;

/// The most worker threads a run starts, as `menace run --threads` allows.
const MAX_THREADS: usize = 256;

/// Run the experiment of the file at `path`, or of the JSON `text`, on
/// `threads` threads (the results do not depend on it): the text of its
/// `curves.csv` and `summary.json`, and the files written into `out` (a
/// temporary folder, removed again, when `out` is None). No charts are
/// drawn.
#[pyfunction]
#[pyo3(signature = (path=None, text=None, out=None, threads=None))]
pub fn run_experiment(
    py: Python<'_>,
    path: Option<PathBuf>,
    text: Option<String>,
    out: Option<PathBuf>,
    threads: Option<usize>,
) -> PyResult<(String, String, Vec<String>)> {
    let threads = match threads {
        Some(n) if n == 0 || n > MAX_THREADS => {
            return Err(value_error(format!(
                "threads {n}: expected 1 to {MAX_THREADS} (the results are the same on any number)"
            )))
        }
        Some(n) => n,
        None => std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_THREADS),
    };
    let (exp, named) = match (path, text) {
        (Some(p), None) => (Experiment::load(&p).map_err(value_error)?, p.display().to_string()),
        (None, Some(t)) => (
            Experiment::parse(&t).map_err(|e| value_error(format!("experiment: {e}")))?,
            "the experiment".to_string(),
        ),
        _ => return Err(value_error("give an experiment file's path or its JSON, not both")),
    };
    py.allow_threads(|| {
        exp.preflight().map_err(|e| format!("experiment file '{named}': {e}"))?;
        let results = exp.run(threads, &|_| {}).map_err(|e| e.to_string())?;
        let temp;
        let dir = match &out {
            Some(dir) => dir.clone(),
            None => {
                temp = tempfile::tempdir().map_err(|e| format!("a temporary folder: {e}"))?;
                temp.path().join(&exp.name)
            }
        };
        let written = write_outputs(&exp, results, &dir, &NoCharts).map_err(|e| e.to_string())?;
        let read = |name: &str| {
            std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{}: {e}", dir.join(name).display()))
        };
        let curves = read("curves.csv")?;
        let summary = read("summary.json")?;
        let files = if out.is_some() { written.files } else { Vec::new() };
        Ok::<_, String>((curves, summary, files))
    })
    .map_err(value_error)
}
