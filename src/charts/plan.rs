//! A chart made ready to draw, once: the values its axes cannot show left
//! out, the ranges of its axes with their margins, and what makes it
//! undrawable found before a file is touched.

use super::chart::{Chart, MAX_SERIES};
use menace_core::experiment::error::ChartError;

pub(super) fn finite(v: f64) -> bool {
    v.is_finite()
}

/// Runs of consecutive points for which `keep` holds; a point failing it
/// (NaN, infinite) breaks the run, so missing values leave a gap.
pub(super) fn runs<T: Copy>(
    points: &[(f64, f64, f64, f64)],
    keep: impl Fn(&(f64, f64, f64, f64)) -> Option<T>,
) -> Vec<Vec<T>> {
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
pub(super) fn mean_point(p: &(f64, f64, f64, f64)) -> Option<(f64, f64)> {
    (finite(p.0) && finite(p.1)).then_some((p.0, p.1))
}

/// The band of one point as (x, low, high), if drawable.
pub(super) fn band_point(p: &(f64, f64, f64, f64)) -> Option<(f64, f64, f64)> {
    (finite(p.0) && finite(p.2) && finite(p.3)).then(|| (p.0, p.2.min(p.3), p.2.max(p.3)))
}

/// Everything needed to draw, computed once and validated.
pub(super) struct Plan {
    /// The chart, with values a logarithmic axis cannot show made NaN.
    pub(super) chart: Chart,
    pub(super) x_range: (f64, f64),
    pub(super) y_range: (f64, f64),
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
    pub(super) fn new(chart: &Chart) -> Result<Self, ChartError> {
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
