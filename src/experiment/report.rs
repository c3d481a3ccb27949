//! What an experiment writes: per-game curves (CSV), a summary (JSON) and charts.

use std::path::Path;

use serde_json::{json, Value as Json};

use super::charts::draw_charts;
use super::curves::{run_curves, Band, CurveTable, METRICS};
use super::error::OutputError;
use super::file::Experiment;
use crate::fsutil::{create_dir, write_atomic};
use crate::machine::GameResult;
use crate::training::trainer::{games_until_learned, GameRecord};

/// Write `curves.csv`, `summary.json` and the charts into `dir`. Returns the files written.
pub fn write_outputs(
    exp: &Experiment,
    results: &[Vec<Vec<GameRecord>>],
    dir: &Path,
) -> Result<Vec<String>, OutputError> {
    create_dir(dir)?;
    let mut written = Vec::new();
    let csv_path = dir.join("curves.csv");
    write_atomic(&csv_path, &curves_csv(exp, results)?)?;
    written.push(csv_path.display().to_string());
    let summary_path = dir.join("summary.json");
    let summary = serde_json::to_string_pretty(&summary(exp, results))? + "\n";
    write_atomic(&summary_path, summary.as_bytes())?;
    written.push(summary_path.display().to_string());
    let table = CurveTable::read(&csv_path)?;
    written.extend(draw_charts(&table, &exp.charts, dir)?);
    Ok(written)
}

fn curves_csv(exp: &Experiment, results: &[Vec<Vec<GameRecord>>]) -> Result<Vec<u8>, OutputError> {
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
    w.write_record(&header)?;
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
            w.write_record(&row)?;
        }
    }
    w.into_inner().map_err(|e| OutputError::Csv(e.into_error().into()))
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
            let last_exact = |which: fn(&crate::training::trainer::ExactPair) -> Option<crate::training::exact::Expected>| {
                let finals: Vec<crate::training::exact::Expected> =
                    runs.iter().filter_map(|r| r.iter().rev().find_map(|g| g.exact.as_ref().and_then(which))).collect();
                if finals.is_empty() {
                    return Json::Null;
                }
                let band = |f: fn(&crate::training::exact::Expected) -> f64| Band::of(finals.iter().map(f)).map(Band::json);
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
