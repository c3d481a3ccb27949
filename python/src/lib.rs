//! `menace._menace`: the engine of `menace` (the `menace-core` crate) for
//! Python. Each file translates one part of the core into Python's terms
//! and back; the work stays in Rust, with the GIL released while it runs:
//! - [`table`]: a game in progress with numbered actions and array
//!   observations, under the environments of `menace.env`;
//! - [`learner`]: a matchbox machine with its opponent and random stream
//!   (`menace.Machine`), trained, saved, loaded and played as an agent;
//! - [`train`]: `menace.train`, exact learning and the solver's values;
//! - [`experiment`]: whole experiments, for `menace.run_experiment`.

use pyo3::prelude::*;

mod experiment;
mod learner;
mod table;
mod train;

/// A failure of the engine as Python's `ValueError`, with the engine's
/// message (the command line's words).
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(e.to_string())
}

#[pymodule]
fn _menace(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<table::Table>()?;
    m.add_class::<learner::Machine>()?;
    m.add_function(wrap_pyfunction!(train::train, m)?)?;
    m.add_function(wrap_pyfunction!(train::exact_life, m)?)?;
    m.add_function(wrap_pyfunction!(train::solve, m)?)?;
    m.add_function(wrap_pyfunction!(train::games, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::run_experiment, m)?)?;
    Ok(())
}
