//! Learning-curve charts, PNG and SVG, drawn with plotters using a font
//! that ships inside the program.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use image::ImageEncoder;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontStyle;

use super::error::{ChartError, OutputError};
use crate::fsutil::write_atomic;

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
}

/// A chart: title, axis labels (with units), and its series.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub title: String,
    /// A second, smaller title line (settings), may be empty.
    pub subtitle: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    /// The quantity's natural range (a probability's 0 to 1, a count's 0
    /// up): the y axis starts at the floor and stops at the ceiling, so that
    /// a change is drawn at its true size.
    pub y_floor: Option<f64>,
    pub y_ceiling: Option<f64>,
    /// Logarithmic axes (values at or below 0 are left out of them).
    pub log_x: bool,
    pub log_y: bool,
    /// Points, not curves: each point marked, its band an error bar, and
    /// the points of a series joined by a thin line.
    pub markers: bool,
    /// Words written on the plot: (x, y, text), centred above the point.
    pub notes: Vec<(f64, f64, String)>,
}

/// The legend's words for the percentile lines (drawn thin and solid, a
/// style no arm's mean line has).
pub const SPREAD_LEGEND: &str = "thin lines: 10th and 90th percentiles of the seeds, where they split";

/// Image size in pixels (PNG) and user units (SVG).
const WIDTH: u32 = 1000;
const HEIGHT: u32 = 600;

/// The one font family used for all text; it is the embedded DejaVu Sans.
const FAMILY: &str = "sans-serif";
pub use crate::font::FONT_BYTES;

/// tab10, the matplotlib default palette, less its yellow and cyan: one colour a series.
const PALETTE: [RGBColor; MAX_SERIES] = [
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

/// The most series one chart draws, each in a colour of its own, with a legend that fits.
pub const MAX_SERIES: usize = 10;

/// A dash pattern a series (dash, gap in pixels; `None`: solid), so that
/// arms whose lines coincide stay told apart; the legend shows each.
const DASHES: [Option<(u32, u32)>; MAX_SERIES] = [
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

const TITLE_SIZE: f64 = 26.0;
const SUBTITLE_SIZE: f64 = 16.0;
const AXIS_DESC_SIZE: f64 = 18.0;
const TICK_LABEL_SIZE: f64 = 14.0;
const LEGEND_SIZE: f64 = 15.0;
/// Height of one legend row under the plot, in pixels.
const LEGEND_ROW: u32 = 22;

/// Register the embedded font under [`FAMILY`] (once per process).
fn ensure_font() -> Result<(), ChartError> {
    static REGISTERED: OnceLock<Result<(), ChartError>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(FAMILY, FontStyle::Normal, FONT_BYTES).map_err(|_| ChartError::Font)
        })
        .clone()
}

/// `stem` with `ext` appended (not replacing any dot already in the name).
fn with_suffix(stem: &Path, ext: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

fn finite(v: f64) -> bool {
    v.is_finite()
}

/// Runs of consecutive points for which `keep` holds; a point failing it
/// (NaN, infinite) breaks the run, so missing values leave a gap.
fn runs<T: Copy>(points: &[(f64, f64, f64, f64)], keep: impl Fn(&(f64, f64, f64, f64)) -> Option<T>) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = Vec::new();
    let mut cur: Vec<T> = Vec::new();
    for p in points {
        match keep(p) {
            Some(v) => cur.push(v),
            None => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The mean line of one point, if drawable.
fn mean_point(p: &(f64, f64, f64, f64)) -> Option<(f64, f64)> {
    (finite(p.0) && finite(p.1)).then_some((p.0, p.1))
}

/// The band of one point as (x, low, high), if drawable.
fn band_point(p: &(f64, f64, f64, f64)) -> Option<(f64, f64, f64)> {
    (finite(p.0) && finite(p.2) && finite(p.3)).then(|| (p.0, p.2.min(p.3), p.2.max(p.3)))
}

/// Everything needed to draw, computed once and validated.
struct Plan {
    /// The chart, with values a logarithmic axis cannot show made NaN.
    chart: Chart,
    x_range: (f64, f64),
    y_range: (f64, f64),
}

/// `v`, or NaN where a logarithmic axis (`log`) cannot show it.
fn on_axis(v: f64, log: bool) -> f64 {
    if log && v <= 0.0 {
        f64::NAN
    } else {
        v
    }
}

/// `chart` with every value a logarithmic axis of it cannot show made NaN.
fn for_axes(chart: &Chart) -> Chart {
    let (lx, ly) = (chart.log_x, chart.log_y);
    let mut c = chart.clone();
    for s in &mut c.series {
        for p in &mut s.points {
            *p = (on_axis(p.0, lx), on_axis(p.1, ly), on_axis(p.2, ly), on_axis(p.3, ly));
        }
        for p in &mut s.spread {
            *p = (on_axis(p.0, lx), on_axis(p.1, ly), on_axis(p.2, ly));
        }
    }
    c.notes.retain(|n| finite(on_axis(n.0, lx)) && finite(on_axis(n.1, ly)));
    c
}

impl Plan {
    fn new(chart: &Chart) -> Result<Self, ChartError> {
        let chart = for_axes(chart);
        if chart.series.is_empty() {
            return Err(ChartError::NoSeries(chart.title.clone()));
        }
        if chart.series.len() > MAX_SERIES {
            return Err(ChartError::TooManySeries {
                title: chart.title.clone(),
                series: chart.series.len(),
                most: MAX_SERIES,
            });
        }
        if let Some(s) = chart.series.iter().find(|s| s.points.is_empty()) {
            return Err(ChartError::EmptySeries {
                title: chart.title.clone(),
                label: s.label.clone(),
            });
        }
        let mut xs = (f64::INFINITY, f64::NEG_INFINITY);
        let mut ys = (f64::INFINITY, f64::NEG_INFINITY);
        let widen = |r: &mut (f64, f64), v: f64| {
            r.0 = r.0.min(v);
            r.1 = r.1.max(v);
        };
        for &(x, lo, hi) in chart.series.iter().flat_map(|s| s.spread.iter()) {
            if finite(x) && finite(lo) && finite(hi) {
                widen(&mut xs, x);
                widen(&mut ys, lo);
                widen(&mut ys, hi);
            }
        }
        for &(x, y, _) in &chart.notes {
            widen(&mut xs, x);
            widen(&mut ys, y);
        }
        for p in chart.series.iter().flat_map(|s| s.points.iter()) {
            if let Some((x, y)) = mean_point(p) {
                widen(&mut xs, x);
                widen(&mut ys, y);
            }
            if let Some((x, lo, hi)) = band_point(p) {
                widen(&mut xs, x);
                widen(&mut ys, lo);
                widen(&mut ys, hi);
            }
        }
        if !(xs.0 <= xs.1 && ys.0 <= ys.1) {
            return Err(ChartError::NoFinitePoints(chart.title.clone()));
        }
        // A logarithmic axis gets its margin as a factor (a tenth of its decades).
        let log_margin = |r: (f64, f64)| {
            let f = (r.1 / r.0).powf(0.1).max(1.5);
            (r.0 / f, r.1 * f)
        };
        let x_range = if chart.log_x {
            log_margin(xs)
        } else if xs.1 - xs.0 > 0.0 {
            xs
        } else {
            (xs.0 - 1.0, xs.1 + 1.0)
        };
        let mut y_range = if chart.log_y {
            let (lo, hi) = log_margin(ys);
            // Room above the highest point for its notes, a line or two.
            (
                lo,
                if chart.notes.is_empty() {
                    hi
                } else {
                    hi * (ys.1 / ys.0).powf(0.2).max(2.0)
                },
            )
        } else if ys.1 - ys.0 > 0.0 {
            let m = 0.05 * (ys.1 - ys.0);
            (ys.0 - m, ys.1 + m)
        } else {
            (ys.0 - 1.0, ys.1 + 1.0)
        };
        if let Some(floor) = chart.y_floor.filter(|&f| f <= ys.0 && !chart.log_y) {
            y_range.0 = floor;
        }
        if let Some(ceiling) = chart.y_ceiling.filter(|&c| c >= ys.1 && !chart.log_y) {
            y_range.1 = ceiling;
        }
        if !(x_range.1 - x_range.0).is_finite() || !(y_range.1 - y_range.0).is_finite() {
            return Err(ChartError::TooLarge(chart.title.clone()));
        }
        Ok(Plan {
            chart,
            x_range,
            y_range,
        })
    }
}

/// A text style in the embedded font, shrunk (down to 60%) until `text` fits `max_w` pixels.
fn fitting_style<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    size: f64,
    max_w: u32,
    color: RGBColor,
) -> TextStyle<'a> {
    let mut s = size;
    while s > size * 0.6 {
        let style = TextStyle::from((FAMILY, s).into_font());
        match area.estimate_text_size(text, &style) {
            Ok((w, _)) if w > max_w => s -= 1.0,
            _ => break,
        }
    }
    (FAMILY, s).into_font().color(&color)
}

/// A tick label for `v` on an axis spanning `span`: as many decimals as the
/// tick spacing needs, no trailing zeros ("100", "0.25", never "100.0").
fn tick_label(v: f64, span: f64) -> String {
    let decimals = if span > 0.0 && span.is_finite() {
        (-(span / 100.0).log10()).ceil().clamp(0.0, 8.0) as usize
    } else {
        3
    };
    let mut s = format!("{v:.decimals$}");
    if s.contains('.') {
        s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if s == "-0" {
        s = "0".to_string();
    }
    s
}

/// The plot itself on `ctx` (linear or logarithmic axes): the mesh, then
/// the bands, the spread of seeds, the means, and the notes.
fn plot_area<DB, X, Y>(mut ctx: ChartContext<'_, DB, Cartesian2d<X, Y>>, plan: &Plan) -> Result<(), ChartError>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| ChartError::Drawing(e.to_string());
    let chart = &plan.chart;

    // On a logarithmic axis a tick's label needs the decimals of its own size.
    let span = |r: (f64, f64), log: bool| move |v: f64| if log { v.abs() } else { r.1 - r.0 };
    let (x_span, y_span) = (span(plan.x_range, chart.log_x), span(plan.y_range, chart.log_y));
    let x_fmt = move |v: &f64| tick_label(*v, x_span(*v));
    let y_fmt = move |v: &f64| tick_label(*v, y_span(*v));
    ctx.configure_mesh()
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .axis_desc_style((FAMILY, AXIS_DESC_SIZE))
        .label_style((FAMILY, TICK_LABEL_SIZE))
        .bold_line_style(RGBColor(215, 215, 215))
        .light_line_style(RGBColor(240, 240, 240))
        .axis_style(RGBColor(90, 90, 90))
        .max_light_lines(4)
        .draw()
        .map_err(err)?;

    // Bands first, so every mean line sits on top of every band.
    for (i, s) in chart.series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        if chart.markers {
            // Each point's band as an error bar.
            for (x, lo, hi) in s.points.iter().filter_map(band_point) {
                ctx.draw_series(std::iter::once(PathElement::new(
                    vec![(x, lo), (x, hi)],
                    colour.mix(0.6).stroke_width(2),
                )))
                .map_err(err)?;
            }
            continue;
        }
        for run in runs(&s.points, band_point) {
            if run.iter().all(|&(_, lo, hi)| lo == hi) {
                continue;
            }
            let mut poly: Vec<(f64, f64)> = run.iter().map(|&(x, _, hi)| (x, hi)).collect();
            poly.extend(run.iter().rev().map(|&(x, lo, _)| (x, lo)));
            ctx.draw_series(std::iter::once(Polygon::new(poly, colour.mix(0.2).filled())))
                .map_err(err)?;
        }
    }

    // The spread of seeds: thin solid lines (every mean is thicker), under the means.
    for (i, s) in chart.series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let spread: Vec<(f64, f64, f64, f64)> = s.spread.iter().map(|&(x, lo, hi)| (x, lo, hi, f64::NAN)).collect();
        for quantile in [0, 1] {
            let pick = |p: &(f64, f64, f64, f64)| {
                let y = if quantile == 0 { p.1 } else { p.2 };
                (finite(p.0) && finite(y)).then_some((p.0, y))
            };
            for line in runs(&spread, pick) {
                if line.len() > 1 {
                    ctx.draw_series(LineSeries::new(line, colour.mix(0.8).stroke_width(1)))
                        .map_err(err)?;
                }
            }
        }
    }

    for (i, s) in chart.series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        if chart.markers {
            // Points joined by a thin line in the series' dash pattern.
            for line in runs(&s.points, mean_point) {
                match DASHES[i % DASHES.len()] {
                    Some((dash, gap)) => ctx.draw_series(DashedLineSeries::new(
                        line.clone(),
                        dash,
                        gap,
                        colour.mix(0.7).stroke_width(1),
                    )),
                    None => ctx.draw_series(LineSeries::new(line.clone(), colour.mix(0.7).stroke_width(1))),
                }
                .map_err(err)?;
                ctx.draw_series(line.into_iter().map(|p| Circle::new(p, 5, colour.filled())))
                    .map_err(err)?;
            }
            continue;
        }
        for line in runs(&s.points, mean_point) {
            if line.len() == 1 {
                // A lone point has no line: mark it.
                ctx.draw_series(std::iter::once(Circle::new(line[0], 3, colour.filled())))
                    .map_err(err)?;
            } else if let Some((dash, gap)) = DASHES[i % DASHES.len()] {
                ctx.draw_series(DashedLineSeries::new(line, dash, gap, colour.stroke_width(2)))
                    .map_err(err)?;
            } else {
                ctx.draw_series(LineSeries::new(line, colour.stroke_width(2)))
                    .map_err(err)?;
            }
        }
    }

    // Notes just above their points, raised a line where they would
    // overlap a note already placed (left to right).
    let mut placed: Vec<(i32, i32, i32)> = Vec::new();
    let mut notes: Vec<&(f64, f64, String)> = chart.notes.iter().collect();
    notes.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (x, y, text) in notes {
        let style = TextStyle::from((FAMILY, LEGEND_SIZE - 2.0).into_font())
            .color(&RGBColor(60, 60, 60))
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        let (px, py) = ctx.backend_coord(&(*x, *y));
        let half = (text.chars().count() as i32 * 7) / 2 + 3;
        let mut level = 0;
        while placed
            .iter()
            .any(|&(l, r, at)| at == py - 16 * level && px - half < r && px + half > l)
        {
            level += 1;
        }
        placed.push((px - half, px + half, py - 16 * level));
        let note = EmptyElement::at((*x, *y)) + Text::new(text.clone(), (0, -8 - 16 * level), style);
        ctx.draw_series(std::iter::once(note)).map_err(err)?;
    }
    Ok(())
}

/// Draw the whole chart onto `root`.
fn render<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, plan: &Plan) -> Result<(), ChartError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| ChartError::Drawing(e.to_string());
    let chart = &plan.chart;
    root.fill(&WHITE).map_err(err)?;

    // Title block.
    let max_w = WIDTH - 40;
    let centre = (WIDTH / 2) as i32;
    let title_style =
        fitting_style(root, &chart.title, TITLE_SIZE, max_w, BLACK).pos(Pos::new(HPos::Center, VPos::Top));
    root.draw(&Text::new(chart.title.as_str(), (centre, 12), title_style))
        .map_err(err)?;
    let mut top = 12 + TITLE_SIZE as u32 + 6;
    if !chart.subtitle.is_empty() {
        let sub_style = fitting_style(root, &chart.subtitle, SUBTITLE_SIZE, max_w, RGBColor(80, 80, 80))
            .pos(Pos::new(HPos::Center, VPos::Top));
        root.draw(&Text::new(chart.subtitle.as_str(), (centre, top as i32), sub_style))
            .map_err(err)?;
        top += SUBTITLE_SIZE as u32 + 6;
    }
    let (_, body) = root.split_vertically(top);
    // The legend sits in a strip under the plot, so it never hides a curve.
    let longest = chart.series.iter().map(|s| s.label.chars().count()).max().unwrap_or(0);
    let columns = if longest * 9 + 40 < (WIDTH as usize - 100) / 2 {
        2
    } else {
        1
    };
    let spread = chart.series.iter().any(|s| s.spread.len() > 1);
    let entries = chart.series.len() + usize::from(spread);
    let rows = entries.div_ceil(columns) as u32;
    let legend_h = rows * LEGEND_ROW + 8;
    let (body, legend_strip) = body.split_vertically(HEIGHT.saturating_sub(top + legend_h).max(HEIGHT / 3));

    let mut builder = ChartBuilder::on(&body);
    builder
        .margin(12)
        .margin_right(28)
        .x_label_area_size(50)
        .y_label_area_size(70);
    let ((x0, x1), (y0, y1)) = (plan.x_range, plan.y_range);
    match (chart.log_x, chart.log_y) {
        (false, false) => plot_area(builder.build_cartesian_2d(x0..x1, y0..y1).map_err(err)?, plan)?,
        (true, false) => plot_area(
            builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1).map_err(err)?,
            plan,
        )?,
        (false, true) => plot_area(
            builder.build_cartesian_2d(x0..x1, (y0..y1).log_scale()).map_err(err)?,
            plan,
        )?,
        (true, true) => plot_area(
            builder
                .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
                .map_err(err)?,
            plan,
        )?,
    }

    let col_w = (WIDTH as i32 - 100) / columns as i32;
    for (i, s) in chart.series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let (row, col) = ((i / columns) as i32, (i % columns) as i32);
        let x = 90 + col * col_w;
        let y = 4 + row * LEGEND_ROW as i32 + LEGEND_ROW as i32 / 2;
        legend_strip
            .draw(&Rectangle::new([(x, y - 6), (x + 26, y + 6)], colour.mix(0.2).filled()))
            .map_err(err)?;
        // The line sample in the series' own dash pattern.
        let (dash, gap) = DASHES[i % DASHES.len()].map_or((26, 0), |(d, g)| (d as i32, g as i32));
        let mut from = x;
        while from < x + 26 {
            let to = (from + dash).min(x + 26);
            legend_strip
                .draw(&PathElement::new(vec![(from, y), (to, y)], colour.stroke_width(2)))
                .map_err(err)?;
            from = to + gap.max(1);
        }
        let style = TextStyle::from((FAMILY, LEGEND_SIZE).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        legend_strip
            .draw(&Text::new(s.label.as_str(), (x + 34, y), style))
            .map_err(err)?;
    }

    if spread {
        let i = chart.series.len() as i32;
        let (row, col) = (i / columns as i32, i % columns as i32);
        let x = 90 + col * col_w;
        let y = 4 + row * LEGEND_ROW as i32 + LEGEND_ROW as i32 / 2;
        for dy in [-4, 4] {
            legend_strip
                .draw(&PathElement::new(
                    vec![(x, y + dy), (x + 26, y + dy)],
                    RGBColor(90, 90, 90).stroke_width(1),
                ))
                .map_err(err)?;
        }
        let style = TextStyle::from((FAMILY, LEGEND_SIZE).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        legend_strip
            .draw(&Text::new(SPREAD_LEGEND, (x + 34, y), style))
            .map_err(err)?;
    }

    root.present().map_err(err)?;
    Ok(())
}

/// The PNG, rendered and encoded in memory (written atomically like every other output).
fn render_png(plan: &Plan) -> Result<Vec<u8>, ChartError> {
    let mut pixels = vec![0u8; (WIDTH * HEIGHT * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (WIDTH, HEIGHT)).into_drawing_area();
        render(&root, plan)?;
    }
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(&pixels, WIDTH, HEIGHT, image::ColorType::Rgb8)
        .map_err(|e| ChartError::Png(e.to_string()))?;
    Ok(png)
}

/// The SVG, rendered to a string.
fn render_svg(plan: &Plan) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        render(&root, plan)?;
    }
    Ok(svg)
}

/// Draw `chart` to `stem.png` and `stem.svg` (each written atomically).
/// Errors name the file.
pub fn draw(chart: &Chart, stem: &Path) -> Result<(), OutputError> {
    let png = with_suffix(stem, "png");
    let svg = with_suffix(stem, "svg");
    let fail = |path: &Path| {
        let path = path.to_path_buf();
        move |error: ChartError| OutputError::Chart { path, error }
    };
    let plan = Plan::new(chart).map_err(fail(&png))?;
    ensure_font().map_err(fail(&png))?;
    write_atomic(&png, &render_png(&plan).map_err(fail(&png))?)?;
    write_atomic(&svg, render_svg(&plan).map_err(fail(&svg))?.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn temp_dir(tag: &str) -> PathBuf {
        static N: AtomicU64 = AtomicU64::new(0);
        let d = std::env::temp_dir().join(format!(
            "menace-chart-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn sample() -> Chart {
        let a = (0..=50)
            .map(|i| {
                let x = i as f64 * 20.0;
                let m = 1.0 / (1.0 + x / 200.0);
                (x, m, m - 0.08, m + 0.08)
            })
            .collect();
        let b = (0..=50)
            .map(|i| {
                let x = i as f64 * 20.0;
                let m = 0.2 + 0.5 / (1.0 + x / 100.0);
                (x, m, m - 0.03 - x / 20000.0, m + 0.05)
            })
            .collect();
        Chart {
            title: "MENACE losses against a random player".into(),
            subtitle: "20 runs, 3 beads per move, reward +3/+1/-1".into(),
            x_label: "games played".into(),
            y_label: "loss rate".into(),
            series: vec![
                Series {
                    label: "MENACE (first)".into(),
                    points: a,
                    spread: Vec::new(),
                },
                Series {
                    label: "HER (second)".into(),
                    points: b,
                    spread: Vec::new(),
                },
            ],
            y_floor: None,
            y_ceiling: None,
            log_x: false,
            log_y: false,
            markers: false,
            notes: Vec::new(),
        }
    }

    fn count_non_white(buf: &[u8], rows: std::ops::Range<u32>, cols: std::ops::Range<u32>) -> (usize, usize) {
        let (mut non_white, mut dark) = (0, 0);
        for y in rows {
            for x in cols.clone() {
                let i = ((y * WIDTH + x) * 3) as usize;
                let px = &buf[i..i + 3];
                if px != [255, 255, 255] {
                    non_white += 1;
                }
                if px.iter().all(|&c| c < 100) {
                    dark += 1;
                }
            }
        }
        (non_white, dark)
    }

    #[test]
    fn chart_writes_png_and_svg() {
        let dir = temp_dir("files");
        let stem = dir.join("losses");
        let chart = sample();
        draw(&chart, &stem).unwrap();

        let png = std::fs::read(dir.join("losses.png")).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[12..16], b"IHDR");
        let w = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
        let h = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
        assert_eq!((w, h), (WIDTH, HEIGHT));
        assert!(png.len() > 10_000, "PNG suspiciously small: {} bytes", png.len());

        let svg = std::fs::read_to_string(dir.join("losses.svg")).unwrap();
        assert!(svg.contains("<svg"));
        assert!(svg.contains(&chart.title));
        assert!(svg.contains(&chart.subtitle));
        assert!(svg.contains("MENACE (first)"));
        assert!(svg.contains("HER (second)"));
        assert!(svg.contains("games played"));

        // No temporary files are left behind.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chart_stem_with_dot_keeps_its_name() {
        let dir = temp_dir("dot");
        draw(&sample(), &dir.join("run.v2")).unwrap();
        assert!(dir.join("run.v2.png").is_file());
        assert!(dir.join("run.v2.svg").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chart_embedded_font_draws_text() {
        ensure_font().unwrap();
        let chart = sample();
        let plan = Plan::new(&chart).unwrap();
        let mut buf = vec![0u8; (WIDTH * HEIGHT * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut buf, (WIDTH, HEIGHT)).into_drawing_area();
            render(&root, &plan).unwrap();
        }
        let (non_white, _) = count_non_white(&buf, 0..HEIGHT, 0..WIDTH);
        assert!(non_white > 20_000, "only {non_white} non-white pixels");
        // The title band holds nothing but the title text.
        let (_, dark) = count_non_white(&buf, 0..45, 200..800);
        assert!(dark > 300, "only {dark} dark pixels in the title area");
        // The corners outside the plot stay white.
        let (corner, _) = count_non_white(&buf, 0..8, 0..8);
        assert_eq!(corner, 0);
    }

    #[test]
    fn chart_empty_is_an_error() {
        let dir = temp_dir("empty");
        let mut chart = sample();
        chart.series.clear();
        let e = draw(&chart, &dir.join("empty")).unwrap_err().to_string();
        assert!(e.contains("no series"), "{e}");
        assert!(e.contains("empty.png"), "{e}");

        let mut chart = sample();
        chart.series[1].points.clear();
        let e = draw(&chart, &dir.join("empty")).unwrap_err().to_string();
        assert!(e.contains("HER (second)"), "{e}");

        let mut chart = sample();
        for s in &mut chart.series {
            s.points = vec![(f64::NAN, 1.0, 0.0, 2.0), (1.0, f64::NAN, f64::NAN, f64::INFINITY)];
        }
        let e = draw(&chart, &dir.join("empty")).unwrap_err().to_string();
        assert!(e.contains("no finite points"), "{e}");

        assert!(!dir.join("empty.png").exists());
        assert!(!dir.join("empty.svg").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chart_nan_points_do_not_panic() {
        let dir = temp_dir("nan");
        let mut chart = sample();
        chart.series[0].points[3].1 = f64::NAN;
        chart.series[0].points[10] = (f64::NAN, f64::NAN, f64::NAN, f64::NAN);
        chart.series[0].points[20].2 = f64::NAN;
        chart.series[1].points[0].3 = f64::INFINITY;
        chart.series[1].points[5].0 = f64::NEG_INFINITY;
        chart.series.push(Series {
            label: "all missing".into(),
            points: vec![(f64::NAN, f64::NAN, f64::NAN, f64::NAN)],
            spread: Vec::new(),
        });
        draw(&chart, &dir.join("nan")).unwrap();
        assert!(dir.join("nan.png").is_file());
        assert!(std::fs::read_to_string(dir.join("nan.svg"))
            .unwrap()
            .contains("all missing"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chart_log_axes_leave_out_what_they_cannot_show() {
        let dir = temp_dir("log");
        let mut chart = sample();
        chart.log_x = true;
        chart.log_y = true;
        chart.markers = true;
        // x = 0 and y = 0 have no place on a logarithmic axis: left out, not drawn at -inf.
        chart.series[0].points = vec![(0.0, 5.0, 4.0, 6.0), (10.0, 0.0, 0.0, 1.0), (100.0, 50.0, 20.0, 80.0)];
        chart.series[1].points = vec![(1000.0, 500.0, 400.0, 600.0)];
        chart.notes = vec![(100.0, 80.0, "hexapawn".into()), (-1.0, 1.0, "nowhere".into())];
        let plan = Plan::new(&chart).unwrap();
        // The points at x = 0 and at y = 0 drop out (the latter's bar with its
        // low end): x from 100 to 1000, y from 20 to 600, each axis widened
        // by a factor of 1.5 (a tenth of its decades, at least 1.5); y's top
        // by another 2 for the notes (a fifth of its decades, at least 2).
        assert_eq!(plan.x_range, (100.0 / 1.5, 1000.0 * 1.5));
        assert_eq!(plan.y_range, (20.0 / 1.5, 600.0 * 1.5 * 2.0));
        assert_eq!(plan.chart.notes.len(), 1);
        draw(&chart, &dir.join("log")).unwrap();
        let svg = std::fs::read_to_string(dir.join("log.svg")).unwrap();
        assert!(svg.contains("hexapawn") && !svg.contains("nowhere"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chart_tick_labels_are_short() {
        assert_eq!(tick_label(100.0, 1000.0), "100");
        assert_eq!(tick_label(0.25, 1.0), "0.25");
        assert_eq!(tick_label(0.30000000000000004, 1.1), "0.3");
        assert_eq!(tick_label(-0.0001, 1.0), "0");
        assert_eq!(tick_label(2.5, f64::NAN), "2.5");
    }

    #[test]
    fn chart_degenerate_ranges() {
        let dir = temp_dir("flat");
        let chart = Chart {
            title: "flat".into(),
            subtitle: String::new(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series {
                label: "one point".into(),
                points: vec![(5.0, 0.5, 0.5, 0.5)],
                spread: Vec::new(),
            }],
            y_floor: None,
            y_ceiling: None,
            log_x: false,
            log_y: false,
            markers: false,
            notes: Vec::new(),
        };
        let plan = Plan::new(&chart).unwrap();
        assert_eq!(plan.x_range, (4.0, 6.0));
        assert_eq!(plan.y_range, (-0.5, 1.5));
        draw(&chart, &dir.join("flat")).unwrap();
        assert!(dir.join("flat.png").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chart_ranges_have_margin() {
        let chart = sample();
        let plan = Plan::new(&chart).unwrap();
        assert_eq!(plan.x_range, (0.0, 1000.0));
        // Band extremes are 1.08 at x = 0 and the lowest band edge at x = 1000.
        let (lo, hi) = chart
            .series
            .iter()
            .flat_map(|s| s.points.iter())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.2), b.max(p.3)));
        let m = 0.05 * (hi - lo);
        assert!((plan.y_range.0 - (lo - m)).abs() < 1e-12);
        assert!((plan.y_range.1 - (hi + m)).abs() < 1e-12);
    }

    #[test]
    fn chart_unwritable_target_names_the_file() {
        let dir = temp_dir("bad");
        let stem = dir.join("missing-sub").join("x");
        let e = draw(&sample(), &stem).unwrap_err();
        // The operating system's error keeps its kind and the file its name.
        match &e {
            OutputError::File(f) => {
                assert_eq!(f.kind(), std::io::ErrorKind::NotFound);
                assert!(f.path().ends_with("x.png"), "{e}");
            }
            other => panic!("expected a file error, got {other}"),
        }
        assert!(e.to_string().contains("x.png"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
