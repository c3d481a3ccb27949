//! `menace bench`'s merge row: the shards of a sweep put together.

use std::time::Instant;

use anyhow::Context;

use menace::charts::Plotters;
use menace::experiment::report::write_outputs_with;
use menace::experiment::units::{self, all_units, Shard};

use super::row::Row;

/// The shards of a sweep of 5 arms × `seeds` seeds × 100 games of Hexapawn
/// (10 000 units at 2 000 seeds), saved as 100 `run --shard K/100` would,
/// then put together as `menace merge` does, which is what is timed.
pub fn merge_row(seeds: usize) -> anyhow::Result<Row> {
    const SHARDS: usize = 100;
    let text = format!(
        r#"{{"name": "merge-bench", "game": "hexapawn", "games": 100, "seeds": {seeds}, "exact_every": 10,
            "arms": [{{"name": "HER", "opponent": ["perfect", "random"], "beads": ["1", "4"]}},
                     {{"name": "M", "opponent": "random", "preset": "michie"}}]}}"#
    );
    let exp = menace::experiment::Experiment::parse(&text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let scratch = tempfile::tempdir().context("a scratch folder for the shards")?;
    let every = all_units(&exp);
    let mut dirs = Vec::with_capacity(SHARDS);
    for k in 1..=SHARDS {
        let shard = Shard { k, n: SHARDS };
        let dir = scratch.path().join(k.to_string());
        units::save_source(&dir, &exp)?;
        let mine = shard.select(&every);
        exp.run_units(&mine, 1, &|_| {}, &|unit, run| {
            units::save_unit(&dir, &exp, unit, run).map_err(Into::into)
        })?;
        units::save_shard(&dir, &exp, shard, mine.len())?;
        dirs.push(dir);
    }
    let out = scratch.path().join("merged");
    let t = Instant::now();
    let merged = units::merge(&dirs)?;
    write_outputs_with(&merged.exp, &out, &Plotters, &mut |a| {
        Ok(std::borrow::Cow::Owned(merged.arm(a)?))
    })?;
    let seconds = t.elapsed().as_secs_f64();
    Ok(Row {
        what: format!("merge {} units from {SHARDS} shards, charts included", every.len()),
        work: format!("{} units", every.len()),
        rate: every.len() as f64 / seconds,
        unit: "units/s",
        seconds,
        note: format!("{} games, read an arm at a time", every.len() * 100),
    })
}
