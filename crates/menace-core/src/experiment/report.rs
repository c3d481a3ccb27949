//! What an experiment writes: per-game curves (CSV), a summary (JSON) and charts.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::{json, Value as Json};

use super::charts::{safe_trends, SafePoint, SafeTrend, SUMMARY_CHARTS};
use super::curves::{quantile, Band, Metric, MetricRow, RunningCurves, SeedRun, Stat};
use super::error::OutputError;
use super::file::{Arm, Experiment};
use crate::fsutil::{create_dir, write_atomic, FileError};
use crate::machine::settings::EmptyBox;
use crate::machine::{GameResult, Machine};
use crate::training::exact::Expected;
use crate::training::lifetime::{life_against, only_takes_beads, Life, LifeError, LifeLimits};
use crate::training::trainer::{ExactPair, Tally, LEARNED_MIN_GAMES};

/// What [`write_outputs`] wrote: the files, and per arm the band of its
/// losses per seed (for a report on the terminal).
pub struct Written {
    /// The files written.
    pub files: Vec<String>,
    /// Per arm, the band of its losses over seeds, where it has one.
    pub losses: Vec<Option<Band>>,
    /// Per arm, its exact expected losses over the run's games, where
    /// exact learning applies (see [`crate::training::lifetime`]).
    pub exact_losses: Vec<Option<f64>>,
}

/// Draws an experiment's charts into a folder, as [`write_outputs`] asks:
/// the core writes the curves and the summary, a front end that can draw
/// (the `menace` package's `charts`) draws. [`NoCharts`] draws none.
pub trait ChartWriter {
    /// Draw the named charts (of [`super::charts::CHARTS`]) from the curves
    /// file at `csv` into `dir`; the paths of the files written.
    fn draw_from_curves(&self, csv: &Path, names: &[String], dir: &Path) -> Result<Vec<String>, OutputError>;

    /// Draw the summary chart `name` (one of [`SUMMARY_CHARTS`]) of an
    /// experiment titled `title` of `games` games from its arms' points.
    fn draw_from_runs(
        &self,
        name: &str,
        title: &str,
        points: &[SafePoint],
        games: u64,
        dir: &Path,
    ) -> Result<Vec<String>, OutputError>;
}

/// Draws no chart: curves and summary only.
pub struct NoCharts;

impl ChartWriter for NoCharts {
    fn draw_from_curves(&self, _: &Path, _: &[String], _: &Path) -> Result<Vec<String>, OutputError> {
        Ok(Vec::new())
    }

    fn draw_from_runs(&self, _: &str, _: &str, _: &[SafePoint], _: u64, _: &Path) -> Result<Vec<String>, OutputError> {
        Ok(Vec::new())
    }
}

/// Write `curves.csv`, `summary.json` and the charts `charts` draws into
/// `dir`, from runs in memory, each arm's let go once its rows and summary
/// are written.
pub fn write_outputs(
    exp: &Experiment,
    mut results: Vec<Vec<SeedRun>>,
    dir: &Path,
    charts: &dyn ChartWriter,
) -> Result<Written, OutputError> {
    write_outputs_with(exp, dir, charts, &mut |a| {
        Ok(Cow::Owned(results.get_mut(a).map(std::mem::take).unwrap_or_default()))
    })
}

/// Write `curves.csv`, `summary.json` and the charts `charts` draws into
/// `dir`, taking the runs one arm at a time from `arm_runs` (arm index to
/// its runs, seed by seed), so that no more than one arm's runs are held at
/// once: a merge of many shards reads each arm's units from disk when it
/// comes to it.
///
/// The whole set is made in a temporary folder inside `dir` first and moved
/// into place only once every file of it is made: a run that fails leaves
/// the old set untouched, never new curves beside old charts, and a folder
/// it had to make is removed again.
pub fn write_outputs_with<'r>(
    exp: &Experiment,
    dir: &Path,
    charts: &dyn ChartWriter,
    arm_runs: &mut dyn FnMut(usize) -> Result<Cow<'r, [SeedRun]>, OutputError>,
) -> Result<Written, OutputError> {
    let existed = dir.exists();
    let result = write_set(exp, dir, charts, arm_runs);
    if result.is_err() && !existed {
        // Empty by now: the temporary folder inside it is gone with its guard.
        let _ = std::fs::remove_dir(dir);
    }
    result
}

fn write_set<'r>(
    exp: &Experiment,
    dir: &Path,
    charts: &dyn ChartWriter,
    arm_runs: &mut dyn FnMut(usize) -> Result<Cow<'r, [SeedRun]>, OutputError>,
) -> Result<Written, OutputError> {
    create_dir(dir)?;
    let tmp = tempfile::Builder::new()
        .prefix(".menace-outputs.")
        .tempdir_in(dir)
        .map_err(|io| FileError::Io {
            action: "create folder",
            path: dir.to_path_buf(),
            io,
        })?;
    let mut made = Vec::new();
    // One pass over the arms: each arm's curve rows and summary, then its runs are let go.
    let csv_path = tmp.path().join("curves.csv");
    let fail = |io: std::io::Error| FileError::Io {
        action: "write",
        path: csv_path.clone(),
        io,
    };
    let file = std::fs::File::create(&csv_path).map_err(fail)?;
    // Streamed to the file: a million rows are never held in memory.
    let mut csv = curves_header(std::io::BufWriter::new(file))?;
    let mut arms = Vec::with_capacity(exp.arms.len());
    let mut losses = Vec::with_capacity(exp.arms.len());
    let mut exact_losses = Vec::with_capacity(exp.arms.len());
    let mut safe_points = Vec::new();
    for (a, arm) in exp.arms.iter().enumerate() {
        let runs = arm_runs(a)?;
        safe_points.push(SafePoint {
            group: arm.file_arm,
            group_name: arm.file_arm_name.clone(),
            game: arm.game_spec.clone(),
            boxes: Band::of(
                runs.iter()
                    .map(|r| r.games.last().map_or(r.start.boxes, |g| g.boxes) as f64),
            )
            .map_or(0.0, |b| b.mean),
            safe: runs.iter().map(games_until_safe).collect(),
            final_loss: runs
                .iter()
                .filter_map(|r| {
                    let last = r.games.exact().rev().find_map(|(_, e)| e.perfect);
                    last.or(r.start.exact.and_then(|e| e.perfect)).map(|e| e.loss)
                })
                .collect(),
        });
        let life = arm_life(exp, arm);
        let loss_at = life
            .as_ref()
            .and_then(|l| l.as_ref().ok())
            .map(|l| l.loss_at.as_slice());
        arm_rows(&mut csv, exp, arm, &runs, loss_at)?;
        let mut part = arm_summary(exp, arm, &runs);
        if let (Some(life), Some(map)) = (&life, part.as_object_mut()) {
            map.insert("exact_life".into(), life_json(life));
        }
        arms.push(part);
        exact_losses.push(loss_at.map(|l| l.iter().sum()));
        losses.push(Band::of(runs.iter().map(|r| {
            r.games.iter().filter(|g| g.result == GameResult::Loss).count() as f64
        })));
    }
    let file = csv.into_inner().map_err(|e| fail(e.into_error()))?;
    let file = file.into_inner().map_err(|e| fail(e.into_error()))?;
    file.sync_all().map_err(fail)?;
    drop(file);
    made.push(csv_path.clone());
    let summary_path = tmp.path().join("summary.json");
    let summary = serde_json::to_string_pretty(&summary(exp, arms, &safe_trends(&safe_points)))? + "\n";
    write_atomic(&summary_path, summary.as_bytes())?;
    made.push(summary_path);
    let (from_runs, from_curves): (Vec<String>, Vec<String>) = exp
        .charts
        .iter()
        .cloned()
        .partition(|c| SUMMARY_CHARTS.contains(&c.as_str()));
    // Drawn from the file as `menace plot` draws them.
    made.extend(
        charts
            .draw_from_curves(&csv_path, &from_curves, tmp.path())?
            .into_iter()
            .map(PathBuf::from),
    );
    for name in &from_runs {
        made.extend(
            charts
                .draw_from_runs(name, &exp.title, &safe_points, exp.games, tmp.path())?
                .into_iter()
                .map(PathBuf::from),
        );
    }
    // Every destination must take its file before any is moved.
    let moves: Vec<(PathBuf, PathBuf)> = made
        .into_iter()
        .filter_map(|from| Some((dir.join(from.file_name()?), from)))
        .collect();
    for (to, _) in &moves {
        if to.metadata().is_ok_and(|m| !m.is_file()) {
            return Err(FileError::NotAFile { path: to.clone() }.into());
        }
    }
    let mut written = Vec::new();
    for (to, from) in moves {
        std::fs::rename(&from, &to).map_err(|io| FileError::Io {
            action: "write",
            path: to.clone(),
            io,
        })?;
        written.push(to.display().to_string());
    }
    Ok(Written {
        files: written,
        losses,
        exact_losses,
    })
}

/// The quantiles of seeds drawn as thin lines beside each mean: where seeds
/// diverge (a machine that learns or resigns for ever), they show the split.
pub const SPREAD: (f64, f64) = (0.1, 0.9);

/// The columns of a curves file (`menace run`'s `curves.csv`, and the
/// page's curves download), in order.
pub fn curve_columns() -> Vec<String> {
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
    for m in Metric::ALL {
        header.extend(Stat::ALL.map(|s| s.column(m)));
    }
    header.push(Stat::Exact.column(Metric::LossRate));
    header.push(Stat::Exact.column(Metric::Losses));
    header
}

/// A curves file's writer, its header written.
fn curves_header<W: std::io::Write>(out: W) -> Result<csv::Writer<W>, OutputError> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(curve_columns())?;
    Ok(w)
}

/// The cells of one row of a curves file after its game column, each given
/// to `put`: every curve's mean, band and spread over the seeds' `rows` at
/// game `g`, then the exact expected loss rate over the window and the
/// exact expected losses so far (each empty where unknown).
/// `sorted` and `cell` are scratch space, kept between rows.
pub fn curve_cells<E>(
    g: u64,
    rows: &[MetricRow],
    exact: [Option<f64>; 2],
    sorted: &mut Vec<f64>,
    cell: &mut String,
    put: &mut impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    use std::fmt::Write as _;
    for m in Metric::ALL {
        let values = rows.iter().map(|row| row[m]);
        match Band::of(values.clone()) {
            Some(b) => {
                // A band never reaches past what is possible (a rate below 0, say).
                let (lo, hi) = m.bounds(g);
                sorted.clear();
                sorted.extend(values.filter(|x| !x.is_nan()));
                sorted.sort_by(f64::total_cmp);
                let cells = [
                    b.mean,
                    b.low.clamp(lo, hi),
                    b.high.clamp(lo, hi),
                    quantile(sorted, SPREAD.0),
                    quantile(sorted, SPREAD.1),
                ];
                for x in cells {
                    cell.clear();
                    let _ = write!(cell, "{x:.6}");
                    put(cell)?;
                }
            }
            None => {
                for _ in 0..5 {
                    put("")?;
                }
            }
        }
    }
    for value in exact {
        match value {
            Some(x) => {
                cell.clear();
                let _ = write!(cell, "{x:.6}");
                put(cell)?;
            }
            None => put("")?,
        }
    }
    Ok(())
}

/// One arm's rows of the curves file: for every game, each curve's mean,
/// band and spread over the seeds. The seeds' curves are followed game by
/// game side by side, so memory is a row a seed, however long the runs.
fn arm_rows<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    exp: &Experiment,
    arm: &Arm,
    runs: &[SeedRun],
    loss_at: Option<&[f64]>,
) -> Result<(), OutputError> {
    let words = [
        exp.name.clone(),
        exp.title.clone(),
        arm.game_spec.clone(),
        arm.name.clone(),
        arm.side_name.clone(),
        arm.opponent.to_string(),
        arm.settings.describe(),
        runs.len().to_string(),
        exp.window.to_string(),
    ];
    let mut following: Vec<RunningCurves> = runs.iter().map(|_| RunningCurves::new(exp.window)).collect();
    let mut now: Vec<MetricRow> = runs.iter().map(|r| MetricRow::start(&r.start)).collect();
    let every = exp.curves_every as usize;
    let last = exp.games as usize;
    let mut cell = String::new();
    let mut sorted = Vec::with_capacity(runs.len());
    for g in 0..=last {
        if g > 0 {
            for ((row, curves), run) in now.iter_mut().zip(&mut following).zip(runs) {
                // Every run holds the experiment's games (a unit file is checked for it).
                if let Some(r) = run.games.get(g - 1) {
                    *row = curves.push(&r);
                }
            }
        }
        if g % every != 0 && g != last {
            continue;
        }
        for word in &words {
            w.write_field(word)?;
        }
        w.write_field(g.to_string())?;
        // The exact expected loss rate over the same window as the seeds'.
        let exact_rate = loss_at.filter(|l| g >= 1 && g <= l.len()).map(|l| {
            let window = (exp.window as usize).clamp(1, g);
            l[g - window..g].iter().sum::<f64>() / window as f64
        });
        // The expected losses so far: the chances of losing each game, added
        // from +0 (an empty f64 sum is -0, printed "-0.000000" at game 0).
        let exact_losses = loss_at
            .filter(|l| g <= l.len())
            .map(|l| l[..g].iter().fold(0.0, |sum, p| sum + p));
        let exact = [exact_rate, exact_losses];
        curve_cells(g as u64, &now, exact, &mut sorted, &mut cell, &mut |c: &str| {
            w.write_field(c)
        })?;
        w.write_record(None::<&[u8]>)?;
    }
    Ok(())
}

/// Games an arm's exact learning curve follows at most.
const LIFE_CURVE_GAMES: u64 = 100_000;

/// The exact learning life of an arm's fresh machine against its opponent,
/// where it applies (a scheme that only takes beads away, a random or
/// perfect opponent); `None` elsewhere, so that the summary of an arm under
/// Michie's scheme has no `exact_life`.
fn arm_life(exp: &Experiment, arm: &Arm) -> Option<Result<Life, LifeError>> {
    if !only_takes_beads(&arm.settings) {
        return None;
    }
    let games = usize::try_from(exp.games.min(LIFE_CURVE_GAMES)).unwrap_or(0);
    let limits = LifeLimits {
        states: 500_000,
        nodes: 200_000_000,
        bytes: 256 << 20,
    };
    with_game!(arm.game.clone(), g => {
        let machine = Machine::new(g, arm.side, arm.settings.clone());
        match machine {
            Ok(m) => life_against(&m, &arm.opponent, games, limits, &mut |_| {}),
            Err(e) => Some(Err(LifeError::Boxes(e.to_string()))),
        }
    })
}

/// An arm's exact learning life in the summary.
fn life_json(life: &Result<Life, LifeError>) -> Json {
    let finite = |x: f64| x.is_finite().then(|| round6(x));
    match life {
        Ok(l) => json!({
            "about": "the machine's learning life computed exactly over every machine it can become (no sampling): the expected losses over the run's games and over its whole life, their distribution (index: losses), the expected games until safe for good, and the chance of being safe by the run's last game; null: without end",
            "machines": l.states,
            "expected_losses_in_run": round6(l.loss_at.iter().sum()),
            "expected_losses": finite(l.expected_losses),
            "losses": l.losses.iter().map(|&p| round6(p)).collect::<Vec<_>>(),
            "expected_games_until_safe": finite(l.expected_games_until_safe),
            "safe_by_last_game": round6(l.safe_by.last().copied().unwrap_or(l.safe_at_start)),
        }),
        Err(e) => json!({ "refused": e.to_string() }),
    }
}

/// A run's totals: its wins, draws and losses, its last loss, whether it learned.
fn tally(run: &SeedRun) -> Tally {
    let mut t = Tally::default();
    run.games.iter().for_each(|g| t.add(&g));
    t
}

/// Per seed, the game from which the first move's boxes stay empty to the
/// end (under the resign rule the machine then resigns every game).
fn first_boxes_empty_from(run: &SeedRun) -> Option<u64> {
    let last_nonempty = run.games.iter().rposition(|g| g.first_box_beads > 0);
    match last_nonempty {
        None if run.games.is_empty() => None,
        None => Some(if run.start.first_box_beads == 0 { 0 } else { 1 }),
        Some(i) => run.games.get(i + 1).map(|g| g.game),
    }
}

/// The first recorded game from which the exact chance of losing to
/// perfect play stays 0 (None: not there at the end, or never recorded).
pub fn games_until_safe(r: &SeedRun) -> Option<u64> {
    let start = r.start.exact.and_then(|e| e.perfect).map(|p| (0, p.loss));
    let recorded: Vec<(u64, f64)> = start
        .into_iter()
        .chain(
            r.games
                .exact()
                .filter_map(|(game, e)| e.perfect.map(|p| (game, p.loss))),
        )
        .collect();
    let first_bad = recorded.iter().rposition(|&(_, loss)| loss > 0.0);
    match first_bad {
        None => recorded.first().map(|&(g, _)| g),
        Some(i) => recorded.get(i + 1).map(|&(g, _)| g),
    }
}

/// One arm's part of the summary.
fn arm_summary(exp: &Experiment, arm: &Arm, runs: &[SeedRun]) -> Json {
    {
        {
            let total = |res: GameResult| {
                Band::of(
                    runs.iter()
                        .map(|r| r.games.iter().filter(|g| g.result == res).count() as f64),
                )
                .map(|b| b.within(0.0, exp.games as f64).json())
            };
            let learned: Vec<Option<u64>> = runs.iter().map(|r| tally(r).learned()).collect();
            let last_losses: Vec<Option<u64>> = runs.iter().map(|r| tally(r).last_loss).collect();
            let empty_from: Vec<Option<u64>> = runs.iter().map(first_boxes_empty_from).collect();
            let last_exact = |which: fn(&ExactPair) -> Option<Expected>| {
                let finals: Vec<Expected> = runs
                    .iter()
                    .filter_map(|r| r.games.exact().rev().find_map(|(_, e)| which(&e)))
                    .collect();
                if finals.is_empty() {
                    return Json::Null;
                }
                let band = |f: fn(&Expected) -> f64| Band::of(finals.iter().map(f)).map(|b| b.within(0.0, 1.0).json());
                json!({"win": band(|e| e.win), "draw": band(|e| e.draw), "loss": band(|e| e.loss)})
            };
            // The loss rate over each seed's last window: where seeds split
            // (some never lose, some always do) the mean alone misleads.
            let final_loss: Vec<f64> = runs
                .iter()
                .filter_map(|r| {
                    let results = r.games.results();
                    let n = (exp.window as usize).min(results.len());
                    let last = &results[results.len() - n..];
                    (n > 0).then(|| last.iter().filter(|&&g| g == GameResult::Loss).count() as f64 / n as f64)
                })
                .collect();
            let share = |f: &dyn Fn(f64) -> bool| {
                let k = final_loss.iter().filter(|&&x| f(x)).count();
                round6(k as f64 / final_loss.len().max(1) as f64)
            };
            let safe: Vec<Option<u64>> = runs.iter().map(games_until_safe).collect();
            let resign_note = match (empty_from.iter().flatten().count(), arm.settings.empty_box) {
                (0, _) => Json::Null,
                (n, EmptyBox::Resign) => json!(format!(
                    "in {n} of {} seeds the first move's boxes emptied: the machine resigned every game from then on",
                    runs.len()
                )),
                (n, _) => json!(format!(
                    "in {n} of {} seeds the first move's boxes emptied by the end",
                    runs.len()
                )),
            };
            let mut part = json!({
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
                    &format!(
                        "the game after which the machine never lost again (0: never lost), counted only when at least {LEARNED_MIN_GAMES} games and at least as many as came before it follow without a loss; null: not learned"
                    ),
                    &learned,
                ),
                "last_loss": distribution("the game of the machine's last loss; null: it never lost", &last_losses),
                "final_loss_rate": {
                    "about": "the share of games lost in each seed's last window, and the shares of seeds that lost none or all of them there",
                    "mean": Band::of(final_loss.iter().copied()).map(|b| b.within(0.0, 1.0).json()),
                    "seeds_losing_none": share(&|x| x == 0.0),
                    "seeds_losing_all": share(&|x| x == 1.0),
                },
                "first_boxes_empty": distribution(
                    "the game from which the boxes of the machine's first move stay empty to the end; null: they never did",
                    &empty_from,
                ),
                "note": resign_note,
                "games_until_safe": distribution(
                    "the first recorded game (0: untrained) from which the exact probability of losing to perfect play stays 0; null: not 0 at the end (or not recorded)",
                    &safe,
                ),
                "final_exact": {
                    "perfect": last_exact(|p| p.perfect),
                    "random": last_exact(|p| p.random),
                },
            });
            // An experiment comparing games says each arm's game and boxes.
            if let (true, Some(map)) = (exp.several_games(), part.as_object_mut()) {
                map.insert("game".into(), json!(arm.game_spec));
                let boxes = |at: fn(&SeedRun) -> usize| Band::of(runs.iter().map(|r| at(r) as f64)).map(Band::json);
                map.insert(
                    "boxes".into(),
                    json!({
                        "about": "the machine's boxes before its first game and after its last, mean over seeds",
                        "start": boxes(|r| r.start.boxes),
                        "end": boxes(|r| r.games.last().map_or(r.start.boxes, |g| g.boxes)),
                    }),
                );
            }
            part
        }
    }
}

/// The summary: the experiment, then each arm's part (and, where the arms
/// play games of different sizes, the trend of games until safe).
fn summary(exp: &Experiment, arms: Vec<Json>, trends: &[SafeTrend]) -> Json {
    let mut top = json!({
        "experiment": exp.name,
        "title": exp.title,
        "description": exp.description,
        "game": exp.game_spec,
        "games": exp.games,
        "seeds": exp.seeds,
        "window": exp.window,
        "exact_every": exp.exact_every,
        "band": "95% band: mean ± 1.96 standard errors over seeds, clipped to the possible range; p10/p90: 10th and 90th percentiles of seeds",
        "arms": arms,
    });
    // Only where it is not the default, so that older summaries stay as they were.
    if let (true, Some(map)) = (exp.curves_every != 1, top.as_object_mut()) {
        map.insert("curves_every".into(), json!(exp.curves_every));
    }
    if let (false, Some(map)) = (trends.is_empty(), top.as_object_mut()) {
        let trends: Vec<Json> = trends
            .iter()
            .map(|t| {
                json!({
                    "arm": t.group_name,
                    "power": round6(t.slope),
                    "power_95": [round6(t.slope - t.slope_within), round6(t.slope + t.slope_within)],
                    "games_at_one_box": round6(t.scale),
                    "median_over_trend": t.ratios.iter().map(|(game, boxes, r)| json!({"game": game, "boxes": round6(*boxes), "ratio": round6(*r)})).collect::<Vec<_>>(),
                })
            })
            .collect();
        map.insert(
            "safe_trend".into(),
            json!({
                "about": "per arm of the file whose median seed got safe on every game: games until safe ≈ games_at_one_box × boxes^power, fitted by least squares to the logarithms of the seeds' medians (each game once); power_95: its 95% confidence interval (Student's t); median_over_trend: each game's median over the line's value (above 1: slower than the trend)",
                "arms": trends,
            }),
        );
    }
    top
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
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
        "mean": Band::of(done.iter().map(|&g| g as f64)).map(|b| b.within(0.0, f64::INFINITY).json()),
        "median": median,
        "min": done.first(),
        "max": done.last(),
    })
}
