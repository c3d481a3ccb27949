//! Learning-curve charts, PNG and SVG, drawn with plotters using a font
//! that ships inside the program. What an experiment's charts show is
//! worked out in `experiment`; a chart (`chart`) is planned once (`plan`), then
//! rendered (`render`) in the house style (`style`); this file writes the
//! files, and [`Plotters`] is the chart writer an experiment's outputs use.

mod chart;
mod experiment;
mod plan;
mod render;
mod style;
mod write;

use std::path::Path;

pub use crate::font::FONT_BYTES;
pub use chart::{Chart, Series, MAX_SERIES, SPREAD_LEGEND};
pub use experiment::{draw_charts, draw_loss_vs_boxes, draw_safe_vs_boxes};
pub use write::draw;

use menace_core::experiment::charts::{SafePoint, CHARTS};
use menace_core::experiment::curves::{CurveTable, Metric, ReadLimits};
use menace_core::experiment::error::OutputError;
use menace_core::experiment::report::ChartWriter;

/// Draw the named charts from the curves file `path` into `dir` (see
/// [`draw_charts`]), a chart at a time with only its metric's columns read:
/// memory stays a few columns of the curves, however many rows.
pub fn draw_from_curves(path: &Path, names: &[String], dir: &Path) -> Result<Vec<String>, OutputError> {
    let mut written = Vec::new();
    for name in names {
        let metrics: Vec<Metric> = CHARTS.iter().filter(|k| k.name == name).map(|k| k.metric).collect();
        let table = CurveTable::read_metrics(path, Some(&metrics), ReadLimits::default())?;
        written.extend(draw_charts(&table, std::slice::from_ref(name), dir)?);
    }
    Ok(written)
}

/// Draws an experiment's charts with plotters, PNG and SVG.
pub struct Plotters;

impl ChartWriter for Plotters {
    fn draw_from_curves(&self, csv: &Path, names: &[String], dir: &Path) -> Result<Vec<String>, OutputError> {
        draw_from_curves(csv, names, dir)
    }

    fn draw_from_runs(
        &self,
        name: &str,
        title: &str,
        points: &[SafePoint],
        games: u64,
        dir: &Path,
    ) -> Result<Vec<String>, OutputError> {
        let draw = if name == "safe_vs_boxes" {
            draw_safe_vs_boxes
        } else {
            draw_loss_vs_boxes
        };
        draw(title, points, games, dir)
    }
}

#[cfg(test)]
mod tests;
