//! What an experiment writes: per-game curves (CSV), a summary (JSON) and
//! charts; and charts redrawn from a curves file.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value as Json};

use crate::chart::{self, Chart, Series};
use crate::experiment::Experiment;
use crate::fsutil::{create_dir, write_atomic};
use crate::machine::GameResult;
use crate::train::{games_until_learned, GameRecord};

/// The curves recorded per game, in CSV column order.
pub const METRICS: [&str; 14] = [
    "win_rate",
    "draw_rate",
    "loss_rate",
    "wins_minus_losses",
    "michie_score",
    "beads",
    "first_box_beads",
    "boxes",
    "exact_perfect_win",
    "exact_perfect_draw",
    "exact_perfect_loss",
    "exact_random_win",
    "exact_random_draw",
    "exact_random_loss",
];

/// A chart that can be drawn from a curves file.
pub struct ChartKind {
    pub name: &'static str,
    pub metric: &'static str,
    pub title: &'static str,
    pub y_label: &'static str,
}

/// Every chart there is.
pub const CHARTS: [ChartKind; 12] = [
    ChartKind {
        name: "loss_rate",
        metric: "loss_rate",
        title: "Games lost",
        y_label: "share of games lost (rolling window)",
    },
    ChartKind {
        name: "win_rate",
        metric: "win_rate",
        title: "Games won",
        y_label: "share of games won (rolling window)",
    },
    ChartKind {
        name: "draw_rate",
        metric: "draw_rate",
        title: "Games drawn",
        y_label: "share of games drawn (rolling window)",
    },
    ChartKind {
        name: "wins_minus_losses",
        metric: "wins_minus_losses",
        title: "Cumulative wins minus losses",
        y_label: "wins − losses (games)",
    },
    ChartKind {
        name: "michie_score",
        metric: "michie_score",
        title: "Cumulative score, +3 win / +1 draw / −1 loss",
        y_label: "score (points)",
    },
    ChartKind {
        name: "beads",
        metric: "beads",
        title: "Beads in all boxes",
        y_label: "beads",
    },
    ChartKind {
        name: "first_box_beads",
        metric: "first_box_beads",
        title: "Beads in the first move's boxes",
        y_label: "beads",
    },
    ChartKind {
        name: "boxes",
        metric: "boxes",
        title: "Boxes opened",
        y_label: "boxes",
    },
    ChartKind {
        name: "exact_perfect_loss",
        metric: "exact_perfect_loss",
        title: "Exact probability of losing to a perfect opponent",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_perfect_win",
        metric: "exact_perfect_win",
        title: "Exact probability of beating a perfect opponent",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_random_win",
        metric: "exact_random_win",
        title: "Exact probability of beating a random opponent",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_random_loss",
        metric: "exact_random_loss",
        title: "Exact probability of losing to a random opponent",
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

/// A mean over seeds with its 95% band (mean ± 1.96 standard errors).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    pub n: usize,
}

impl Band {
    /// The band of the values that are not NaN; `None` if there are none.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Band> {
        let v: Vec<f64> = values.into_iter().filter(|x| !x.is_nan()).collect();
        if v.is_empty() {
            return None;
        }
        let n = v.len();
        let mean = v.iter().sum::<f64>() / n as f64;
        let half = if n > 1 {
            let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            1.96 * (var / n as f64).sqrt()
        } else {
            0.0
        };
        Some(Band {
            mean,
            low: mean - half,
            high: mean + half,
            n,
        })
    }

    fn json(self) -> Json {
        json!({"mean": round(self.mean), "low": round(self.low), "high": round(self.high)})
    }
}

fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The curves of one run, one row of [`METRICS`] per game (NaN: not recorded).
pub fn run_curves(records: &[GameRecord], window: u64) -> Vec<[f64; METRICS.len()]> {
    let mut out = Vec::with_capacity(records.len());
    let (mut wml, mut score) = (0i64, 0i64);
    for (i, r) in records.iter().enumerate() {
        match r.result {
            GameResult::Win => {
                wml += 1;
                score += 3;
            }
            GameResult::Draw => score += 1,
            GameResult::Loss => {
                wml -= 1;
                score -= 1;
            }
        }
        let from = (i + 1).saturating_sub(window as usize);
        let recent = &records[from..=i];
        let share = |res: GameResult| recent.iter().filter(|g| g.result == res).count() as f64 / recent.len() as f64;
        let pick = |side: Option<crate::exact::Expected>| -> [f64; 3] {
            side.map_or([f64::NAN; 3], |e| [e.win, e.draw, e.loss])
        };
        let perfect = pick(r.exact.and_then(|e| e.perfect));
        let random = pick(r.exact.and_then(|e| e.random));
        out.push([
            share(GameResult::Win),
            share(GameResult::Draw),
            share(GameResult::Loss),
            wml as f64,
            score as f64,
            r.total_beads as f64,
            r.first_box_beads as f64,
            r.boxes as f64,
            perfect[0],
            perfect[1],
            perfect[2],
            random[0],
            random[1],
            random[2],
        ]);
    }
    out
}

/// Write `curves.csv`, `summary.json` and the charts into `dir`. Returns the files written.
pub fn write_outputs(exp: &Experiment, results: &[Vec<Vec<GameRecord>>], dir: &Path) -> Result<Vec<String>, String> {
    create_dir(dir)?;
    let mut written = Vec::new();
    let csv_path = dir.join("curves.csv");
    write_atomic(&csv_path, curves_csv(exp, results)?.as_bytes())?;
    written.push(csv_path.display().to_string());
    let summary_path = dir.join("summary.json");
    let summary = serde_json::to_string_pretty(&summary(exp, results)).map_err(|e| e.to_string())? + "\n";
    write_atomic(&summary_path, summary.as_bytes())?;
    written.push(summary_path.display().to_string());
    let table = CurveTable::read(&csv_path)?;
    written.extend(draw_charts(&table, &exp.charts, dir)?);
    Ok(written)
}

fn curves_csv(exp: &Experiment, results: &[Vec<Vec<GameRecord>>]) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = [
        "experiment",
        "title",
        "game_spec",
        "arm",
        "side",
        "opponent",
        "settings",
        "seeds",
        "window",
        "game",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for m in METRICS {
        header.extend([format!("{m}_mean"), format!("{m}_low"), format!("{m}_high")]);
    }
    w.write_record(&header).map_err(|e| e.to_string())?;
    for (arm, runs) in exp.arms.iter().zip(results) {
        let curves: Vec<_> = runs.iter().map(|r| run_curves(r, exp.window)).collect();
        for g in 0..exp.games as usize {
            let mut row = vec![
                exp.name.clone(),
                exp.title.clone(),
                exp.game_spec.clone(),
                arm.name.clone(),
                arm.side_name.clone(),
                arm.opponent.to_string(),
                arm.settings.describe(),
                runs.len().to_string(),
                exp.window.to_string(),
                (g + 1).to_string(),
            ];
            for m in 0..METRICS.len() {
                match Band::of(curves.iter().map(|c| c[g][m])) {
                    Some(b) => row.extend([b.mean, b.low, b.high].map(|x| format!("{:.6}", x))),
                    None => row.extend([String::new(), String::new(), String::new()]),
                }
            }
            w.write_record(&row).map_err(|e| e.to_string())?;
        }
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

fn summary(exp: &Experiment, results: &[Vec<Vec<GameRecord>>]) -> Json {
    let arms: Vec<Json> = exp
        .arms
        .iter()
        .zip(results)
        .map(|(arm, runs)| {
            let total = |res: GameResult| {
                Band::of(runs.iter().map(|r| r.iter().filter(|g| g.result == res).count() as f64)).map(Band::json)
            };
            let learned: Vec<Option<u64>> = runs.iter().map(|r| games_until_learned(r)).collect();
            let last_exact = |which: fn(&crate::train::ExactPair) -> Option<crate::exact::Expected>| {
                let finals: Vec<crate::exact::Expected> =
                    runs.iter().filter_map(|r| r.iter().rev().find_map(|g| g.exact.as_ref().and_then(which))).collect();
                if finals.is_empty() {
                    return Json::Null;
                }
                let band = |f: fn(&crate::exact::Expected) -> f64| Band::of(finals.iter().map(f)).map(Band::json);
                json!({"win": band(|e| e.win), "draw": band(|e| e.draw), "loss": band(|e| e.loss)})
            };
            // The first recorded game from which the exact chance of losing to
            // perfect play stays 0 (None: not there at the end, or never recorded).
            let safe: Vec<Option<u64>> = runs
                .iter()
                .map(|r| {
                    let recorded: Vec<(u64, f64)> = r
                        .iter()
                        .filter_map(|g| g.exact.and_then(|e| e.perfect).map(|p| (g.game, p.loss)))
                        .collect();
                    let first_bad = recorded.iter().rposition(|&(_, loss)| loss > 0.0);
                    match first_bad {
                        None => recorded.first().map(|&(g, _)| g),
                        Some(i) => recorded.get(i + 1).map(|&(g, _)| g),
                    }
                })
                .collect();
            json!({
                "name": arm.name,
                "side": arm.side_name,
                "opponent": arm.opponent.to_string(),
                "settings": arm.settings,
                "settings_text": arm.settings.describe(),
                "seeds": runs.len(),
                "wins": total(GameResult::Win),
                "draws": total(GameResult::Draw),
                "losses": total(GameResult::Loss),
                "games_until_learned": distribution(
                    "the game after which the machine never lost again (0: never lost); null: lost its last game",
                    &learned,
                ),
                "games_until_safe": distribution(
                    "the first recorded game from which the exact probability of losing to perfect play stays 0; null: not 0 at the end (or not recorded)",
                    &safe,
                ),
                "final_exact": {
                    "perfect": last_exact(|p| p.perfect),
                    "random": last_exact(|p| p.random),
                },
            })
        })
        .collect();
    json!({
        "experiment": exp.name,
        "title": exp.title,
        "description": exp.description,
        "game": exp.game_spec,
        "games": exp.games,
        "seeds": exp.seeds,
        "window": exp.window,
        "exact_every": exp.exact_every,
        "band": "95% band: mean ± 1.96 standard errors over seeds",
        "arms": arms,
    })
}

/// A per-seed distribution of game numbers (None: did not happen), summarised.
fn distribution(about: &str, per_seed: &[Option<u64>]) -> Json {
    let mut done: Vec<u64> = per_seed.iter().flatten().copied().collect();
    done.sort_unstable();
    let n = done.len();
    let median = (n > 0).then(|| {
        if n % 2 == 1 {
            done[n / 2] as f64
        } else {
            (done[n / 2 - 1] + done[n / 2]) as f64 / 2.0
        }
    });
    json!({
        "about": about,
        "per_seed": per_seed,
        "reached": n,
        "not_reached": per_seed.len() - n,
        "mean": Band::of(done.iter().map(|&g| g as f64)).map(Band::json),
        "median": median,
        "min": done.first(),
        "max": done.last(),
    })
}

/// A curves file read back: per arm, its descriptive fields and metric columns.
pub struct CurveTable {
    pub title: String,
    pub game_spec: String,
    pub seeds: String,
    pub window: String,
    /// Arm name → (side, opponent, settings, rows of (game, column → value)).
    pub arms: Vec<ArmCurves>,
}

/// One arm's curves.
pub struct ArmCurves {
    pub name: String,
    pub side: String,
    pub opponent: String,
    pub settings: String,
    pub games: Vec<f64>,
    pub columns: BTreeMap<String, Vec<f64>>,
}

impl CurveTable {
    /// Read a curves CSV written by `menace run`. Errors name the file, line and column.
    pub fn read(path: &Path) -> Result<CurveTable, String> {
        let text = crate::fsutil::read_text(path)?;
        Self::parse(&text).map_err(|e| format!("curves file '{}': {e}", path.display()))
    }

    fn parse(text: &str) -> Result<CurveTable, String> {
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = r
            .headers()
            .map_err(|e| e.to_string())?
            .iter()
            .map(str::to_string)
            .collect();
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| format!("missing column '{name}'"))
        };
        let (title_c, spec_c, arm_c, side_c, opp_c, set_c, seeds_c, win_c, game_c) = (
            col("title")?,
            col("game_spec")?,
            col("arm")?,
            col("side")?,
            col("opponent")?,
            col("settings")?,
            col("seeds")?,
            col("window")?,
            col("game")?,
        );
        let mut table = CurveTable {
            title: String::new(),
            game_spec: String::new(),
            seeds: String::new(),
            window: String::new(),
            arms: Vec::new(),
        };
        for (i, rec) in r.records().enumerate() {
            let rec = rec.map_err(|e| format!("line {}: {e}", i + 2))?;
            let get = |c: usize| rec.get(c).unwrap_or("").to_string();
            table.title = get(title_c);
            table.game_spec = get(spec_c);
            table.seeds = get(seeds_c);
            table.window = get(win_c);
            let name = get(arm_c);
            if table.arms.last().is_none_or(|a| a.name != name) {
                table.arms.push(ArmCurves {
                    name: name.clone(),
                    side: get(side_c),
                    opponent: get(opp_c),
                    settings: get(set_c),
                    games: Vec::new(),
                    columns: BTreeMap::new(),
                });
            }
            let Some(arm) = table.arms.last_mut() else { continue };
            let game: f64 = get(game_c)
                .parse()
                .map_err(|_| format!("line {}: column 'game': '{}' is not a number", i + 2, get(game_c)))?;
            arm.games.push(game);
            for (c, h) in header.iter().enumerate() {
                if METRICS.iter().any(|m| h.starts_with(m)) {
                    let cell = get(c);
                    let v = if cell.is_empty() {
                        f64::NAN
                    } else {
                        cell.parse()
                            .map_err(|_| format!("line {}: column '{h}': '{cell}' is not a number", i + 2))?
                    };
                    arm.columns.entry(h.clone()).or_default().push(v);
                }
            }
        }
        if table.arms.is_empty() {
            return Err("no rows".into());
        }
        Ok(table)
    }
}

/// Draw the named charts from a curves table into `dir` (PNG and SVG);
/// charts with no data (e.g. exact results never recorded) are skipped.
pub fn draw_charts(table: &CurveTable, names: &[String], dir: &Path) -> Result<Vec<String>, String> {
    create_dir(dir)?;
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
            .ok_or_else(|| format!("unknown chart '{name}'"))?;
        let mut series = Vec::new();
        for arm in &table.arms {
            let (Some(mean), Some(low), Some(high)) = (
                arm.columns.get(&format!("{}_mean", kind.metric)),
                arm.columns.get(&format!("{}_low", kind.metric)),
                arm.columns.get(&format!("{}_high", kind.metric)),
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
                    .map(str::to_string),
            );
            if !extra.is_empty() {
                label = format!("{label} ({})", extra.join("; "));
            }
            series.push(Series { label, points });
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
        if settings.len() == 1 {
            sub.push(settings[0].to_string());
        } else if !common_settings.is_empty() {
            sub.push(common_settings.join(", "));
        }
        sub.push(format!("mean and 95% band over {} seeds", table.seeds));
        let y_label = if kind.metric.ends_with("_rate") {
            format!(
                "{} of {} games",
                kind.y_label.trim_end_matches(" (rolling window)"),
                table.window
            )
        } else {
            kind.y_label.to_string()
        };
        let chart = Chart {
            title: format!("{}: {}", table.title, kind.title),
            subtitle: sub.join(" · "),
            x_label: "game number".to_string(),
            y_label,
            series,
        };
        let stem = dir.join(kind.name);
        chart::draw(&chart, &stem)?;
        written.push(format!("{}.png", stem.display()));
        written.push(format!("{}.svg", stem.display()));
    }
    Ok(written)
}
