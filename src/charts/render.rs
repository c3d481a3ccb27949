//! Drawing a planned chart with plotters: the titles, the plot (mesh,
//! bands, spread of seeds, means, notes) and the legend, to PNG or SVG.

use image::ImageEncoder;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{EXACT_LEGEND, SPREAD_LEGEND};
use super::plan::{band_point, finite, mean_point, runs, Plan};
use super::style::{
    AXIS_DESC_SIZE, DASHES, FAMILY, HEIGHT, LEGEND_ROW, LEGEND_SIZE, PALETTE, SUBTITLE_SIZE, TICK_LABEL_SIZE,
    TITLE_SIZE, WIDTH,
};
use menace_core::experiment::error::ChartError;

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
pub(super) fn tick_label(v: f64, span: f64) -> String {
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
    // Games on a linear x axis, and counts on a whole y axis, are whole:
    // a tick between two whole numbers is left unlabelled.
    let whole = |v: f64| (v - v.round()).abs() < 1e-9;
    let (linear_x, whole_y) = (!chart.log_x, chart.whole_y);
    let x_fmt = move |v: &f64| {
        if linear_x && !whole(*v) {
            String::new()
        } else {
            tick_label(*v, x_span(*v))
        }
    };
    let y_fmt = move |v: &f64| {
        if whole_y && !whole(*v) {
            String::new()
        } else {
            tick_label(*v, y_span(*v))
        }
    };
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

    // The exact expectations: thin black lines over the means.
    for s in &chart.series {
        let exact: Vec<(f64, f64, f64, f64)> = s.exact.iter().map(|&(x, y)| (x, y, f64::NAN, f64::NAN)).collect();
        for line in runs(&exact, mean_point) {
            if line.len() > 1 {
                ctx.draw_series(LineSeries::new(line, BLACK.stroke_width(1)))
                    .map_err(err)?;
            }
        }
    }

    // Fitted lines: thin, dashed, dark grey.
    for (_, line) in &chart.trends {
        let line: Vec<(f64, f64)> = line.iter().copied().filter(|&(x, y)| finite(x) && finite(y)).collect();
        if line.len() > 1 {
            ctx.draw_series(DashedLineSeries::new(line, 8, 5, TREND_GREY.stroke_width(2)))
                .map_err(err)?;
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
pub(super) fn render<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, plan: &Plan) -> Result<(), ChartError> {
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
    let exact = chart.series.iter().any(|s| s.exact.len() > 1);
    let entries = chart.series.len() + usize::from(spread) + usize::from(exact) + chart.trends.len();
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

    if exact {
        let i = chart.series.len() as i32 + i32::from(spread);
        let (row, col) = (i / columns as i32, i % columns as i32);
        let x = 90 + col * col_w;
        let y = 4 + row * LEGEND_ROW as i32 + LEGEND_ROW as i32 / 2;
        legend_strip
            .draw(&PathElement::new(vec![(x, y), (x + 26, y)], BLACK.stroke_width(1)))
            .map_err(err)?;
        let style = TextStyle::from((FAMILY, LEGEND_SIZE).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        legend_strip
            .draw(&Text::new(EXACT_LEGEND, (x + 34, y), style))
            .map_err(err)?;
    }

    for (k, (label, _)) in chart.trends.iter().enumerate() {
        let i = chart.series.len() as i32 + i32::from(spread) + i32::from(exact) + k as i32;
        let (row, col) = (i / columns as i32, i % columns as i32);
        let x = 90 + col * col_w;
        let y = 4 + row * LEGEND_ROW as i32 + LEGEND_ROW as i32 / 2;
        for from in [x, x + 13] {
            legend_strip
                .draw(&PathElement::new(
                    vec![(from, y), (from + 8, y)],
                    TREND_GREY.stroke_width(2),
                ))
                .map_err(err)?;
        }
        let style = TextStyle::from((FAMILY, LEGEND_SIZE).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        legend_strip
            .draw(&Text::new(label.as_str(), (x + 34, y), style))
            .map_err(err)?;
    }

    root.present().map_err(err)?;
    Ok(())
}

/// The colour of fitted lines: no series' colour, darker than the grid.
const TREND_GREY: RGBColor = RGBColor(70, 70, 70);

/// The PNG, rendered and encoded in memory (written atomically like every other output).
pub(super) fn render_png(plan: &Plan) -> Result<Vec<u8>, ChartError> {
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
pub(super) fn render_svg(plan: &Plan) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        render(&root, plan)?;
    }
    Ok(svg)
}
