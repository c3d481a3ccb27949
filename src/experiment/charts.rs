//! Which charts there are, and drawing them from a curves table (the
//! drawing with the `charts` feature only).

#[cfg(feature = "charts")]
use std::path::Path;

#[cfg(feature = "charts")]
use super::curves::{ArmCurves, CurveTable, Stat};
#[cfg(feature = "charts")]
use super::error::{ChartError, OutputError};
#[cfg(feature = "charts")]
use super::plot::{self, Chart, Series, MAX_SERIES};
#[cfg(feature = "charts")]
use crate::fsutil::create_dir;

use super::curves::Metric;

/// A chart that can be drawn from a curves file.
pub struct ChartKind {
    pub name: &'static str,
    pub metric: Metric,
    pub title: &'static str,
    pub y_label: &'static str,
}

/// Every chart there is.
pub const CHARTS: [ChartKind; 12] = [
    ChartKind {
        name: "loss_rate",
        metric: Metric::LossRate,
        title: "Games lost",
        y_label: "lost",
    },
    ChartKind {
        name: "win_rate",
        metric: Metric::WinRate,
        title: "Games won",
        y_label: "won",
    },
    ChartKind {
        name: "draw_rate",
        metric: Metric::DrawRate,
        title: "Games drawn",
        y_label: "drawn",
    },
    ChartKind {
        name: "wins_minus_losses",
        metric: Metric::WinsMinusLosses,
        title: "Wins minus losses so far",
        y_label: "wins − losses (games)",
    },
    ChartKind {
        name: "michie_score",
        metric: Metric::MichieScore,
        title: "Score so far: +3 a win, +1 a draw, −1 a loss",
        y_label: "score (points)",
    },
    ChartKind {
        name: "beads",
        metric: Metric::Beads,
        title: "Beads in all boxes",
        y_label: "beads",
    },
    ChartKind {
        name: "first_box_beads",
        metric: Metric::FirstBoxBeads,
        title: "Beads in the boxes of the machine's first move",
        y_label: "beads",
    },
    ChartKind {
        name: "boxes",
        metric: Metric::Boxes,
        title: "Boxes opened",
        y_label: "boxes",
    },
    ChartKind {
        name: "exact_perfect_loss",
        metric: Metric::ExactPerfectLoss,
        title: "Chance of losing to a perfect opponent (worked out exactly)",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_perfect_win",
        metric: Metric::ExactPerfectWin,
        title: "Chance of beating a perfect opponent (worked out exactly)",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_random_win",
        metric: Metric::ExactRandomWin,
        title: "Chance of beating a random opponent (worked out exactly)",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_random_loss",
        metric: Metric::ExactRandomLoss,
        title: "Chance of losing to a random opponent (worked out exactly)",
        y_label: "probability",
    },
];

/// Charts drawn when an experiment names none (those without data are skipped).
pub const DEFAULT_CHARTS: [&str; 5] = [
    "loss_rate",
    "wins_minus_losses",
    "beads",
    "exact_perfect_loss",
    "exact_random_win",
];

/// One part of a machine's settings as [`MachineSettings::describe`] words
/// it (`beads 1`, `reinforcement gardner`), in plain words for a chart.
///
/// [`MachineSettings::describe`]: crate::machine::settings::MachineSettings::describe
pub fn plain_setting(part: &str) -> String {
    let (key, value) = part.rsplit_once(' ').unwrap_or((part, ""));
    match (key, value) {
        ("beads", "1") => "one bead a move".to_string(),
        ("beads", v) if !v.contains('/') => format!("{v} beads a move"),
        ("beads", v) => format!("beads by move {}", v.replace('/', ", ")),
        ("reinforcement", "gardner") => "Gardner's rule".to_string(),
        ("reinforcement", "michie") => "Michie's rule, +3/+1/−1".to_string(),
        ("reinforcement", v) => {
            let (deltas, last) = match v.strip_suffix(":last") {
                Some(d) => (d, " on the last move"),
                None => (v, ""),
            };
            let d: Vec<&str> = deltas.split('/').collect();
            match d.as_slice() {
                [w, dr, l] => format!("{w} a win, {dr} a draw, {} a loss{last}", l.replace('-', "−")),
                _ => part.to_string(),
            }
        }
        ("empty box", "resign") => "resigns at an empty box".to_string(),
        ("empty box", "restock") => "an empty box is refilled".to_string(),
        ("empty box", v) if v.starts_with("floor:") => format!("never fewer than {} beads", &v[6..]),
        ("boxes", "all") => "a box for every position".to_string(),
        ("boxes", "choices") => "boxes only where there is a choice".to_string(),
        ("boxes", "michie") => "Michie's boxes".to_string(),
        ("no", "symmetry") => "mirror images in boxes of their own".to_string(),
        _ => part.to_string(),
    }
}

/// Below this many seeds a chart says its band is rough.
pub const FEW_SEEDS: u64 = 5;

/// The 10th and 90th percentiles of an arm's seeds for a metric between 0
/// and 1, where the seeds end split to the two ends (say, half the machines
/// never lose and half resign every game) and the mean alone would mislead;
/// empty where they do not.
#[cfg(feature = "charts")]
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
#[cfg(feature = "charts")]
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

#[cfg(feature = "charts")]
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
    let mut written = Vec::new();
    for name in names {
        let kind = CHARTS
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| OutputError::Chart {
                path: dir.join(name),
                error: ChartError::Unknown(name.to_string()),
            })?;
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
                .filter(|&i| !mean[i].is_nan())
                .map(|i| (arm.games[i], mean[i], low[i], high[i]))
                .collect();
            if points.is_empty() {
                continue;
            }
            let spread = split_seeds(arm, kind.metric);
            let mut label = arm.name.clone();
            let mut extra = Vec::new();
            if opponents.len() > 1 && !label.to_lowercase().contains(&arm.opponent.to_lowercase()) {
                extra.push(format!("vs {}", arm.opponent));
            }
            // Only the settings that tell this arm from the others.
            extra.extend(
                arm.settings
                    .split(", ")
                    .filter(|part| !common_settings.contains(part) && !label.contains(*part))
                    .map(plain_setting),
            );
            if !extra.is_empty() {
                label = format!("{label} ({})", extra.join("; "));
            }
            series.push(Series { label, points, spread });
        }
        if series.is_empty() {
            continue;
        }
        let mut sub = vec![format!("{}", table.game_spec)];
        if sides.len() == 1 {
            sub.push(format!("machine plays {}", sides[0]));
        }
        if opponents.len() == 1 {
            sub.push(format!("vs {}", opponents[0]));
        }
        let plain = |parts: Vec<&str>| parts.into_iter().map(plain_setting).collect::<Vec<_>>().join(", ");
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
        let y_label = if kind.metric.is_rate() {
            format!("share of the last {} games {}", table.window, kind.y_label)
        } else {
            kind.y_label.to_string()
        };
        // Probabilities and shares from 0 to 1, counts from 0.
        let (y_floor, y_ceiling) = {
            let (lo, hi) = kind.metric.bounds(0);
            (Some(lo).filter(|_| lo == 0.0), Some(hi).filter(|&h| h == 1.0))
        };
        let chart = Chart {
            title: format!("{}: {}", table.title, kind.title),
            subtitle: sub.join(" · "),
            x_label: "game number".to_string(),
            y_label,
            series,
            y_floor,
            y_ceiling,
        };
        let stem = dir.join(format!("{}{suffix}", kind.name));
        plot::draw(&chart, &stem)?;
        written.push(format!("{}.png", stem.display()));
        written.push(format!("{}.svg", stem.display()));
    }
    Ok(written)
}
