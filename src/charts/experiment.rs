//! Drawing an experiment's charts: from a curves table, and the summary's
//! charts from its runs' points.

use std::path::Path;

use menace_core::experiment::charts::{safe_quantile, safe_trends, short_game, SafePoint, CHARTS, FEW_SEEDS};
use menace_core::experiment::curves::{ArmCurves, CurveTable, Metric, Stat};
use menace_core::experiment::error::{ChartError, OutputError};
use menace_core::fsutil::create_dir;
use menace_core::machine::words::Setting;

use super::chart::{Chart, Series, MAX_SERIES};
use super::write::draw;

/// The 10th and 90th percentiles of an arm's seeds for a metric between 0
/// and 1, where the seeds end split to the two ends (say, half the machines
/// never lose and half resign every game) and the mean alone would mislead;
/// empty where they do not.
fn split_seeds(arm: &ArmCurves, metric: Metric) -> Vec<(f64, f64, f64)> {
    let (Some(mean), Some(p10), Some(p90)) = (
        arm.column(metric, Stat::Mean),
        arm.column(metric, Stat::P10),
        arm.column(metric, Stat::P90),
    ) else {
        return Vec::new();
    };
    let bounded = metric.is_probability();
    // Split at the end of the run: early games split by chance in a short window.
    let last = (0..mean.len()).rev().find(|&i| !mean[i].is_nan());
    let split = last.is_some_and(|i| p10[i] <= 0.05 && p90[i] >= 0.95 && (0.2..=0.8).contains(&mean[i]));
    if !bounded || !split {
        return Vec::new();
    }
    (0..arm.games.len())
        .filter(|&i| !p10[i].is_nan() && !p90[i].is_nan())
        .map(|i| (arm.games[i], p10[i], p90[i]))
        .collect()
}

/// Draw the named charts from a curves table into `dir` (PNG and SVG);
/// charts with no data (e.g. exact results never recorded) are skipped.
/// With more arms than fit on one chart (a sweep), each chart is drawn in
/// pages of [`MAX_SERIES`] arms: `loss_rate.png`, `loss_rate_2.png`, ...
pub fn draw_charts(table: &CurveTable, names: &[String], dir: &Path) -> Result<Vec<String>, OutputError> {
    create_dir(dir)?;
    let pages = table.arms.len().div_ceil(MAX_SERIES);
    let mut written = Vec::new();
    for (p, arms) in table.arms.chunks(MAX_SERIES).enumerate() {
        let page = CurveTable {
            arms: arms.to_vec(),
            ..table.clone()
        };
        let (suffix, title) = if pages > 1 {
            let first = p * MAX_SERIES + 1;
            (
                if p == 0 { String::new() } else { format!("_{}", p + 1) },
                format!("{} (arms {first} to {})", table.title, first + arms.len() - 1),
            )
        } else {
            (String::new(), table.title.clone())
        };
        let page = CurveTable { title, ..page };
        written.extend(draw_page(&page, names, dir, &suffix)?);
    }
    Ok(written)
}

/// A part of a curves file's settings (as the summary words it) in plain
/// words, read back by the settings' own parsers; text that is no part as it is.
fn plain_part(part: &str) -> String {
    Setting::parse(part).map_or_else(|| part.to_string(), |s| s.plain())
}

fn draw_page(table: &CurveTable, names: &[String], dir: &Path, suffix: &str) -> Result<Vec<String>, OutputError> {
    let distinct = |f: fn(&ArmCurves) -> &str| {
        let mut v: Vec<&str> = table.arms.iter().map(f).collect();
        v.dedup();
        v
    };
    let settings = distinct(|a| &a.settings);
    // Settings parts shared by every arm go in the subtitle, the rest in the legend.
    let common_settings: Vec<&str> = table.arms[0]
        .settings
        .split(", ")
        .filter(|part| table.arms.iter().all(|a| a.settings.split(", ").any(|p| p == *part)))
        .collect();
    let opponents = distinct(|a| &a.opponent);
    let sides = distinct(|a| &a.side);
    let mut games = distinct(|a| &a.game_spec);
    games.sort_unstable();
    games.dedup();
    // A game that cannot be drawn gets no chart or words of draws.
    let draws = games
        .iter()
        .any(|g| menace_core::registry::parse_spec(g).map_or(true, |g| g.can_draw()));
    let window: f64 = table.window.parse().unwrap_or(1.0);
    // A run shorter than its window has no full window: its rates are each
    // over the games so far, and are drawn from the first game.
    let last_game = table
        .arms
        .iter()
        .filter_map(|a| a.games.last().copied())
        .fold(0.0, f64::max);
    let full_window = window <= last_game;
    let mut written = Vec::new();
    for name in names {
        let kind = CHARTS
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| OutputError::Chart {
                path: dir.join(name),
                error: ChartError::Unknown(name.to_string()),
            })?;
        if kind.metric == Metric::DrawRate && !draws {
            continue;
        }
        // A rolling rate is drawn from its first full window: before it, a
        // "share of the last 5 games" would be over fewer.
        let from = if kind.metric.is_rate() && full_window {
            window
        } else {
            0.0
        };
        let mut series = Vec::new();
        for arm in &table.arms {
            let (Some(mean), Some(low), Some(high)) = (
                arm.column(kind.metric, Stat::Mean),
                arm.column(kind.metric, Stat::Low),
                arm.column(kind.metric, Stat::High),
            ) else {
                continue;
            };
            let points: Vec<_> = (0..arm.games.len())
                .filter(|&i| !mean[i].is_nan() && arm.games[i] >= from)
                .map(|i| (arm.games[i], mean[i], low[i], high[i]))
                .collect();
            if points.is_empty() {
                continue;
            }
            let mut spread = split_seeds(arm, kind.metric);
            spread.retain(|p| p.0 >= from);
            let mut label = arm.name.clone();
            let mut extra = Vec::new();
            if games.len() > 1 && !label.contains(&arm.game_spec) {
                extra.push(arm.game_spec.clone());
            }
            if opponents.len() > 1 && !label.to_lowercase().contains(&arm.opponent.to_lowercase()) {
                extra.push(format!("vs {}", arm.opponent));
            }
            // Only the settings that tell this arm from the others.
            extra.extend(
                arm.settings
                    .split(", ")
                    .filter(|part| !common_settings.contains(part) && !label.contains(*part))
                    .map(plain_part),
            );
            if !extra.is_empty() {
                label = format!("{label} ({})", extra.join("; "));
            }
            // The exact expectation, where the curves file has it.
            let exact = arm
                .column(kind.metric, Stat::Exact)
                .map(|e| {
                    (0..arm.games.len())
                        .filter(|&i| e[i].is_finite() && arm.games[i] >= from)
                        .map(|i| (arm.games[i], e[i]))
                        .collect()
                })
                .unwrap_or_default();
            series.push(Series {
                label,
                points,
                spread,
                exact,
            });
        }
        if series.is_empty() {
            continue;
        }
        let mut sub = Vec::new();
        if games.len() == 1 {
            sub.push(games[0].to_string());
        }
        if sides.len() == 1 {
            sub.push(format!("machine plays {}", sides[0]));
        }
        if opponents.len() == 1 {
            sub.push(format!("vs {}", opponents[0]));
        }
        let plain = |parts: Vec<&str>| parts.into_iter().map(plain_part).collect::<Vec<_>>().join(", ");
        if settings.len() == 1 {
            sub.push(plain(settings[0].split(", ").collect()));
        } else if !common_settings.is_empty() {
            sub.push(plain(common_settings.clone()));
        }
        let seeds: u64 = table.seeds.parse().unwrap_or(0);
        sub.push(if seeds < FEW_SEEDS {
            format!(
                "mean and 95% band over {} seeds (too few for a trustworthy band)",
                table.seeds
            )
        } else {
            format!("mean and 95% band over {} seeds", table.seeds)
        });
        let y_label = match (kind.metric.is_rate(), full_window) {
            (true, true) => format!("share of the last {} games {}", table.window, kind.y_label),
            (true, false) => format!("share of the games so far {}", kind.y_label),
            (false, _) => kind.y_label.to_string(),
        };
        if kind.metric.is_rate() && window > 1.0 {
            sub.push(if full_window {
                format!("from game {}, the first full window", table.window)
            } else {
                format!(
                    "over the games so far: the run is shorter than its window of {}",
                    table.window
                )
            });
        }
        let title = if kind.metric == Metric::MichieScore && !draws {
            "Score so far: +3 a win, −1 a loss"
        } else {
            kind.title
        };
        // Probabilities and shares from 0 to 1, counts from 0.
        let (y_floor, y_ceiling) = {
            let (lo, hi) = kind.metric.bounds(0);
            (Some(lo).filter(|_| lo == 0.0), Some(hi).filter(|&h| h == 1.0))
        };
        let chart = Chart {
            title: format!("{}: {title}", table.title),
            subtitle: sub.join(" · "),
            x_label: "game number".to_string(),
            y_label,
            series,
            y_floor,
            y_ceiling,
            log_x: false,
            log_y: false,
            whole_y: kind.metric.is_whole(),
            markers: false,
            notes: Vec::new(),
            trends: Vec::new(),
        };
        let stem = dir.join(format!("{}{suffix}", kind.name));
        written.extend(draw_files(&chart, &stem)?);
    }
    Ok(written)
}

/// Draw `safe_vs_boxes.png` and `.svg` into `dir`: per file arm, the median
/// over seeds of the games until safe against the arm's boxes, a bar from
/// the 10th to the 90th percentile (up to the last game where a seed never
/// got there); arms whose median seed was never safe within `games` games
/// are drawn at `games`, in a series of their own. Nothing is drawn where no
/// arm has exact results against perfect play.
pub fn draw_safe_vs_boxes(
    title: &str,
    points: &[SafePoint],
    games: u64,
    dir: &Path,
) -> Result<Vec<String>, OutputError> {
    let groups = file_arms(points);
    // Per file arm, the arms safe in most seeds, then (a series of their
    // own, drawn at the last game) those whose median seed never was.
    let mut safe_series = Vec::new();
    let mut unsafe_series = Vec::new();
    let mut notes: Vec<(f64, f64, String)> = Vec::new();
    for &(group, name) in groups.iter().take(MAX_SERIES / 2) {
        let mine = of_file_arm(points, group);
        let (mut safe, mut not) = (Vec::new(), Vec::new());
        for p in mine.iter().filter(|p| !p.safe.is_empty()) {
            let at = |q: f64| safe_quantile(&p.safe, q).unwrap_or(games) as f64;
            let median = safe_quantile(&p.safe, 0.5);
            let point = (p.boxes, median.map_or(games as f64, |m| m as f64), at(0.1), at(0.9));
            name_game(&mut notes, p, point.3);
            if median.is_some() {
                safe.push(point);
            } else {
                not.push(point);
            }
        }
        if !safe.is_empty() {
            safe_series.push(Series {
                label: name.to_string(),
                points: safe,
                spread: Vec::new(),
                exact: Vec::new(),
            });
        }
        if !not.is_empty() {
            unsafe_series.push(Series {
                label: format!("{name}: most seeds not safe by game {games} (drawn there)"),
                points: not,
                spread: Vec::new(),
                exact: Vec::new(),
            });
        }
    }
    let series: Vec<Series> = safe_series.into_iter().chain(unsafe_series).collect();
    if series.is_empty() {
        return Ok(Vec::new());
    }
    let trends = safe_trends(points)
        .into_iter()
        .map(|t| {
            let (lo, hi) = t
                .ratios
                .iter()
                .fold((f64::INFINITY, 0.0f64), |(lo, hi), r| (lo.min(r.1), hi.max(r.1)));
            let label = format!(
                "{}, fitted: games ≈ {:.2} × boxes^{:.2} (power {:.2} to {:.2}, 95%)",
                t.group_name,
                t.scale,
                t.slope,
                t.slope - t.slope_within,
                t.slope + t.slope_within
            );
            (label, vec![(lo, t.at(lo)), (hi, t.at(hi))])
        })
        .collect();
    let subtitle = format!(
        "WxH: Hexapawn on W files and H ranks; median over seeds, bars from the 10th to the 90th percentile (at {games} where seeds never were)"
    );
    let chart = Chart {
        title: format!("{title}: games until safe against perfect play"),
        subtitle,
        x_label: "boxes (log scale)".to_string(),
        y_label: "games until the exact chance of losing is 0 (log scale)".to_string(),
        series,
        y_floor: None,
        y_ceiling: None,
        log_x: true,
        log_y: true,
        whole_y: false,
        markers: true,
        notes,
        trends,
    };
    create_dir(dir)?;
    draw_files(&chart, &dir.join("safe_vs_boxes"))
}

/// Draw `loss_vs_boxes.png` and `.svg` into `dir`: per file arm, the exact
/// chance of losing to perfect play after the last game (mean and 95% band
/// over seeds) against the arm's boxes, both on logarithmic axes (so an
/// arm safe in every seed, at 0, is left out). Nothing is drawn where no arm has
/// exact results against perfect play.
pub fn draw_loss_vs_boxes(
    title: &str,
    points: &[SafePoint],
    games: u64,
    dir: &Path,
) -> Result<Vec<String>, OutputError> {
    use menace_core::experiment::curves::Band;
    let groups = file_arms(points);
    let mut series = Vec::new();
    let mut notes: Vec<(f64, f64, String)> = Vec::new();
    for &(group, name) in groups.iter().take(MAX_SERIES) {
        let mine = of_file_arm(points, group);
        let drawn: Vec<(f64, f64, f64, f64)> = mine
            .iter()
            .filter_map(|p| {
                let b = Band::of(p.final_loss.iter().copied())?.within(0.0, 1.0);
                if b.mean > 0.0 {
                    name_game(&mut notes, p, b.high);
                }
                Some((p.boxes, b.mean, b.low, b.high))
            })
            .collect();
        if !drawn.is_empty() {
            series.push(Series {
                label: name.to_string(),
                points: drawn,
                spread: Vec::new(),
                exact: Vec::new(),
            });
        }
    }
    if series.is_empty() {
        return Ok(Vec::new());
    }
    let chart = Chart {
        title: format!("{title}: chance of losing to perfect play after {games} games"),
        subtitle: "WxH: Hexapawn on W files and H ranks; mean and 95% band over seeds; a mean of 0 (safe in every seed) has no place on the scale".to_string(),
        x_label: "boxes (log scale)".to_string(),
        y_label: "probability (log scale)".to_string(),
        series,
        y_floor: None,
        y_ceiling: None,
        log_x: true,
        log_y: true,
        whole_y: false,
        markers: true,
        notes,
        trends: Vec::new(),
    };
    create_dir(dir)?;
    draw_files(&chart, &dir.join("loss_vs_boxes"))
}

/// Draw a chart to `stem`.png and `stem`.svg; the two files' names.
fn draw_files(chart: &Chart, stem: &Path) -> Result<Vec<String>, OutputError> {
    draw(chart, stem)?;
    Ok(vec![
        format!("{}.png", stem.display()),
        format!("{}.svg", stem.display()),
    ])
}

/// The arms of the experiment file that the points come from, each once, in order.
fn file_arms(points: &[SafePoint]) -> Vec<(usize, &str)> {
    let mut groups: Vec<(usize, &str)> = points.iter().map(|p| (p.group, p.group_name.as_str())).collect();
    groups.sort_unstable();
    groups.dedup();
    groups
}

/// The points of one arm of the file, by their boxes.
fn of_file_arm(points: &[SafePoint], group: usize) -> Vec<&SafePoint> {
    let mut mine: Vec<&SafePoint> = points.iter().filter(|p| p.group == group).collect();
    mine.sort_by(|a, b| a.boxes.total_cmp(&b.boxes));
    mine
}

/// Name a point's game on the chart once, above the highest of its bars.
fn name_game(notes: &mut Vec<(f64, f64, String)>, p: &SafePoint, top: f64) {
    let game = short_game(&p.game);
    match notes.iter_mut().find(|n| n.2 == game) {
        Some(n) => n.1 = n.1.max(top),
        None => notes.push((p.boxes, top, game)),
    }
}
