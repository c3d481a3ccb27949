//! What a chart shows: its titles, axes and series, as the experiment's
//! charts describe them.

/// One line on a chart: a mean with a shaded band around it, and thin dotted
/// lines where the spread of seeds lies (their 10th and 90th percentiles).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// (x, mean, band low, band high) per point, x increasing. A band equal
    /// to the mean draws no shading.
    pub points: Vec<(f64, f64, f64, f64)>,
    /// (x, low quantile, high quantile) per point; empty: none drawn.
    pub spread: Vec<(f64, f64, f64)>,
    /// (x, exact expectation) per point, computed without sampling, drawn
    /// as a thin black line over the mean; empty: none drawn.
    pub exact: Vec<(f64, f64)>,
}

/// A chart: title, axis labels (with units), and its series.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The title line.
    pub title: String,
    /// A second, smaller title line (settings), may be empty.
    pub subtitle: String,
    /// The x axis's label, with units.
    pub x_label: String,
    /// The y axis's label, with units.
    pub y_label: String,
    /// The curves drawn, one a series.
    pub series: Vec<Series>,
    /// The quantity's natural range (a probability's 0 to 1, a count's 0
    /// up): the y axis starts at the floor and stops at the ceiling, so that
    /// a change is drawn at its true size.
    pub y_floor: Option<f64>,
    /// The top of the quantity's natural range, where it has one.
    pub y_ceiling: Option<f64>,
    /// Whether the x axis is logarithmic (values at or below 0 are left out).
    pub log_x: bool,
    /// Whether the y axis is logarithmic (values at or below 0 are left out).
    pub log_y: bool,
    /// Whether the y axis counts whole things (games, beads): its ticks are
    /// labelled at whole numbers only.
    pub whole_y: bool,
    /// Points, not curves: each point marked, its band an error bar, and
    /// the points of a series joined by a thin line.
    pub markers: bool,
    /// Words written on the plot: (x, y, text), centred above the point.
    pub notes: Vec<(f64, f64, String)>,
    /// Fitted lines: (their words in the legend, their points), drawn thin,
    /// dashed and dark grey over everything else.
    pub trends: Vec<(String, Vec<(f64, f64)>)>,
}

/// The legend's words for the percentile lines (drawn thin and solid, a
/// style no arm's mean line has).
pub const SPREAD_LEGEND: &str = "thin lines: 10th and 90th percentiles of the seeds, where they split";

/// The legend's words for the exact lines.
pub const EXACT_LEGEND: &str = "black line: the exact expectation, computed without sampling";

/// The most series one chart draws, each in a colour of its own, with a legend that fits.
pub const MAX_SERIES: usize = 10;
