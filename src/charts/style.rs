//! How every chart looks: its size, the one embedded font, the colours and
//! dash patterns of its series, and the sizes of its text.

use std::sync::OnceLock;

use plotters::style::{FontStyle, RGBColor};

use super::chart::MAX_SERIES;
use crate::font::FONT_BYTES;
use menace_core::experiment::error::ChartError;

/// Image size in pixels (PNG) and user units (SVG).
pub(super) const WIDTH: u32 = 1000;
pub(super) const HEIGHT: u32 = 600;

/// The one font family used for all text; it is the embedded DejaVu Sans.
pub(super) const FAMILY: &str = "sans-serif";

/// tab10, the matplotlib default palette, less its yellow and cyan: one colour a series.
pub(super) const PALETTE: [RGBColor; MAX_SERIES] = [
    RGBColor(31, 119, 180),  // blue
    RGBColor(255, 127, 14),  // orange
    RGBColor(44, 160, 44),   // green
    RGBColor(214, 39, 40),   // red
    RGBColor(148, 103, 189), // purple
    RGBColor(140, 86, 75),   // brown
    RGBColor(227, 119, 194), // pink
    RGBColor(127, 127, 127), // grey
    RGBColor(188, 189, 34),  // olive
    RGBColor(23, 190, 207),  // cyan
];

/// A dash pattern a series (dash, gap in pixels; `None`: solid), so that
/// arms whose lines coincide stay told apart; the legend shows each.
pub(super) const DASHES: [Option<(u32, u32)>; MAX_SERIES] = [
    None,
    Some((12, 6)),
    Some((4, 4)),
    Some((18, 5)),
    Some((8, 3)),
    Some((2, 6)),
    Some((24, 8)),
    Some((6, 10)),
    Some((14, 3)),
    Some((3, 3)),
];

pub(super) const TITLE_SIZE: f64 = 26.0;
pub(super) const SUBTITLE_SIZE: f64 = 16.0;
pub(super) const AXIS_DESC_SIZE: f64 = 18.0;
pub(super) const TICK_LABEL_SIZE: f64 = 14.0;
pub(super) const LEGEND_SIZE: f64 = 15.0;
/// Height of one legend row under the plot, in pixels.
pub(super) const LEGEND_ROW: u32 = 22;

/// Register the embedded font under [`FAMILY`] (once per process).
pub(super) fn ensure_font() -> Result<(), ChartError> {
    static REGISTERED: OnceLock<Result<(), ChartError>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(FAMILY, FontStyle::Normal, FONT_BYTES).map_err(|_| ChartError::Font)
        })
        .clone()
}
