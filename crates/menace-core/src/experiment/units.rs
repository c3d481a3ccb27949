//! Units of work: one (arm, seed) run each, saved the moment it finishes.
//! A killed run restarted on the same folder redoes only the units it lacks;
//! `--shard K/N` runs one slice of them; `merge` puts slices together into
//! exactly the output of one unsharded run.
//!
//! A run's folder holds `experiment.json` (the experiment file's text) and
//! `units/arm{A}-seed{S}.json`, one per finished unit; a shard also writes
//! `shard.json`. An unsharded run removes them once its outputs are written.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::curves::SeedRun;
pub use super::error::UnitError;
use super::file::{content_hash, Experiment};
use super::records::Records;
use crate::error::FieldError;
use crate::fsutil::{create_dir, read_regular_text, write_atomic, write_atomic_with};
use crate::training::trainer::{ExactPair, GameRecord, Snapshot};

/// The format tag of a unit file.
pub const UNIT_FORMAT: &str = "menace-unit/1";

/// A unit: (arm index, seed index) into the experiment's arms and seeds.
pub type Unit = (usize, usize);

/// Every unit of an experiment, in order: arm by arm, seed by seed.
pub fn all_units(exp: &Experiment) -> Vec<Unit> {
    (0..exp.arms.len())
        .flat_map(|a| (0..exp.seeds.len()).map(move |s| (a, s)))
        .collect()
}

/// The K-th of N slices (K from 1), dealt round-robin so each gets every arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, from 1.
    pub k: usize,
    /// How many slices.
    pub n: usize,
}

impl Shard {
    /// Read `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, crate::error::InvalidValue> {
        let bad = || crate::error::InvalidValue::new("shard", text, "expected K/N with 1 <= K <= N, like 2/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// The shard a Slurm array task runs, from the variables Slurm sets for it
    /// (`env` looks one up): K is `SLURM_ARRAY_TASK_ID`. N is `n` where given
    /// (`--shard slurm/N`, as the committed script does, so that rerunning one
    /// task with `sbatch --array=5` still runs shard 5 of 8); otherwise the
    /// array must be the whole 1-N (`SLURM_ARRAY_TASK_MIN` 1, `_MAX` N and
    /// `_COUNT` N), since a partial array's bounds do not say N.
    pub fn from_slurm(env: impl Fn(&str) -> Option<String>, n: Option<usize>) -> Result<Shard, SlurmError> {
        let var = |name: &'static str| -> Result<usize, SlurmError> {
            let text = env(name).ok_or(SlurmError::Missing(name))?;
            text.trim().parse().map_err(|_| SlurmError::NotANumber { name, text })
        };
        let k = var("SLURM_ARRAY_TASK_ID")?;
        let n = match n {
            Some(n) => n,
            None => {
                let (min, max, count) = (
                    var("SLURM_ARRAY_TASK_MIN")?,
                    var("SLURM_ARRAY_TASK_MAX")?,
                    var("SLURM_ARRAY_TASK_COUNT")?,
                );
                if min != 1 || count != max {
                    return Err(SlurmError::Partial { min, max, count });
                }
                max
            }
        };
        if k == 0 || k > n {
            return Err(SlurmError::OutOfRange { k, n });
        }
        Ok(Shard { k, n })
    }

    /// This shard's units among `units`.
    pub fn select(self, units: &[Unit]) -> Vec<Unit> {
        units
            .iter()
            .enumerate()
            .filter(|(i, _)| i % self.n == self.k - 1)
            .map(|(_, &u)| u)
            .collect()
    }
}

/// What `--shard slurm` found wrong in Slurm's environment.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SlurmError {
    #[error(
        "--shard slurm: {0} is not set: run it inside a Slurm array task (sbatch --array=1-N), or give --shard K/N"
    )]
    /// A variable Slurm sets for an array task is not set.
    Missing(&'static str),
    #[error("--shard slurm: {name} is '{text}', not a whole number")]
    /// A variable Slurm sets is not a whole number.
    NotANumber {
        /// The variable.
        name: &'static str,
        /// Its value.
        text: String,
    },
    #[error(
        "--shard slurm: the array runs tasks {min}-{max} ({count} tasks), so it does not say how many shards there are: give --shard slurm/N (N the shard count of the whole array)"
    )]
    /// The array runs only some of its tasks, so its size is not the shard count.
    Partial {
        /// The array's first task.
        min: usize,
        /// Its last task.
        max: usize,
        /// How many tasks it runs.
        count: usize,
    },
    #[error("--shard slurm: SLURM_ARRAY_TASK_ID is {k}, outside shards 1 to {n}")]
    /// The task's number is not a shard of the count given.
    OutOfRange {
        /// The task's number.
        k: usize,
        /// The shard count.
        n: usize,
    },
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitFile {
    format: String,
    experiment: String,
    arm: usize,
    arm_name: String,
    seed_index: usize,
    seed: u64,
    start: Snapshot,
    games: Vec<GameRecord>,
}

/// A [`UnitFile`] as written: the same fields, borrowed from the run.
#[derive(Serialize)]
struct UnitFileOut<'a> {
    format: &'a str,
    experiment: &'a str,
    arm: usize,
    arm_name: &'a str,
    seed_index: usize,
    seed: u64,
    start: Snapshot,
    games: &'a Records,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShardFile {
    format: String,
    experiment: String,
    shard: Shard,
    units: usize,
}

fn units_dir(dir: &Path) -> PathBuf {
    dir.join("units")
}

fn unit_path(dir: &Path, (a, s): Unit) -> PathBuf {
    units_dir(dir).join(format!("arm{a}-seed{s}.json"))
}

/// Keep the experiment's text in `dir`, so that shards can be merged from it alone.
pub fn save_source(dir: &Path, exp: &Experiment) -> Result<(), UnitError> {
    create_dir(dir)?;
    create_dir(&units_dir(dir))?;
    write_atomic(&dir.join("experiment.json"), exp.source.as_bytes())?;
    Ok(())
}

/// Save one finished unit (atomically: a kill leaves it whole or absent).
pub fn save_unit(dir: &Path, exp: &Experiment, unit: Unit, run: &SeedRun) -> Result<(), UnitError> {
    let file = UnitFileOut {
        format: UNIT_FORMAT,
        experiment: &exp.hash,
        arm: unit.0,
        arm_name: &exp.arms[unit.0].name,
        seed_index: unit.1,
        seed: exp.seeds[unit.1],
        start: run.start,
        games: &run.games,
    };
    // Streamed into the file: a million games are not copied, nor held as text.
    write_atomic_with(&unit_path(dir, unit), &mut |w| {
        serde_json::to_writer(w, &file).map_err(std::io::Error::from)
    })?;
    Ok(())
}

/// Record that `dir` holds shard `shard` of `exp` once all its units are saved.
pub fn save_shard(dir: &Path, exp: &Experiment, shard: Shard, units: usize) -> Result<(), UnitError> {
    let file = ShardFile {
        format: UNIT_FORMAT.to_string(),
        experiment: exp.hash.clone(),
        shard,
        units,
    };
    let text = serde_json::to_string_pretty(&file).unwrap_or_default() + "\n";
    write_atomic(&dir.join("shard.json"), text.as_bytes())?;
    Ok(())
}

/// The unit files in `dir`, by the unit their name gives (`arm{A}-seed{S}.json`),
/// in order, without reading them; a temporary file of an interrupted write,
/// or anything else, is passed over.
fn unit_files(dir: &Path) -> Vec<(Unit, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(units_dir(dir)) else {
        return Vec::new();
    };
    let mut found: Vec<(Unit, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let (a, s) = name
                .to_str()?
                .strip_prefix("arm")?
                .strip_suffix(".json")?
                .split_once("-seed")?;
            Some(((a.parse().ok()?, s.parse().ok()?), e.path()))
        })
        .collect();
    found.sort();
    found
}

/// The units already saved in `dir` for `exp` (none if the folder has none).
/// Units of another experiment are an error, not silently reused.
pub fn load_units(dir: &Path, exp: &Experiment) -> Result<BTreeMap<Unit, SeedRun>, UnitError> {
    unit_files(dir)
        .into_iter()
        .map(|(unit, path)| Ok((unit, read_unit_as(&path, exp, unit)?)))
        .collect()
}

/// Read the unit file `path`, which must hold `unit`, as its name says.
fn read_unit_as(path: &Path, exp: &Experiment, unit: Unit) -> Result<SeedRun, UnitError> {
    let (held, run) = read_unit(path, exp)?;
    if held != unit {
        return Err(UnitError::Bad {
            path: path.to_path_buf(),
            error: FieldError::new(
                "arm",
                format!(
                    "holds arm {} seed index {}, not the arm {} seed index {} its name gives",
                    held.0, held.1, unit.0, unit.1
                ),
            ),
        });
    }
    Ok(run)
}

fn read_unit(path: &Path, exp: &Experiment) -> Result<(Unit, SeedRun), UnitError> {
    let bad = |error: FieldError| UnitError::Bad {
        path: path.to_path_buf(),
        error,
    };
    let text = read_regular_text(path)?;
    let file: UnitFile = serde_json::from_str(&text).map_err(|e| bad(FieldError::new("", e)))?;
    if file.format != UNIT_FORMAT {
        return Err(bad(FieldError::new("format", format!("expected \"{UNIT_FORMAT}\""))));
    }
    if file.experiment != exp.hash {
        return Err(UnitError::Mismatch(format!(
            "'{}' is a unit of another experiment file (hash {}, not {}): use another --out folder, or remove its units",
            path.display(),
            file.experiment,
            exp.hash
        )));
    }
    let arm = exp.arms.get(file.arm).filter(|a| a.name == file.arm_name);
    if arm.is_none() || exp.seeds.get(file.seed_index) != Some(&file.seed) {
        return Err(bad(FieldError::new("arm", "no such arm and seed in the experiment")));
    }
    if file.games.len() as u64 != exp.games {
        return Err(bad(FieldError::new(
            "games",
            format!("{} games, but the experiment has {}", file.games.len(), exp.games),
        )));
    }
    for (i, g) in file.games.iter().enumerate() {
        if g.game != i as u64 + 1 {
            return Err(bad(FieldError::new(
                format!("games[{i}].game"),
                format!("{}: expected game {}", g.game, i + 1),
            )));
        }
    }
    let run = SeedRun {
        start: file.start,
        games: Records::of(&file.games).map_err(|e| bad(FieldError::new("games", e)))?,
    };
    check_run(&run).map_err(bad)?;
    Ok(((file.arm, file.seed_index), run))
}

/// The most beads a unit file may say a machine holds: 2^53, past which a
/// count is no longer exact in the curves (and no machine gets near it).
pub const MAX_BEADS: u64 = 1 << 53;

/// How far past 0 or 1 rounding may carry an exact probability that a run wrote.
const ROUNDING: f64 = 1e-9;

/// Refuse values no run can have written (a file edited or corrupted): a
/// probability outside 0 to 1 or not summing to 1, more beads in the first
/// boxes than in all, bead counts past [`MAX_BEADS`], games out of order.
fn check_run(run: &SeedRun) -> Result<(), FieldError> {
    let check = |field: String, total: u64, first: u64, exact: Option<ExactPair>| -> Result<(), FieldError> {
        if total > MAX_BEADS {
            return Err(FieldError::new(
                format!("{field}.total_beads"),
                format!("{total} beads: expected at most {MAX_BEADS}"),
            ));
        }
        if first > total {
            return Err(FieldError::new(
                format!("{field}.first_box_beads"),
                format!("{first} beads, more than the {total} in all the boxes"),
            ));
        }
        let sides = exact.map_or([None, None], |e| [e.perfect, e.random]);
        for (name, e) in ["perfect", "random"].into_iter().zip(sides) {
            let Some(e) = e else { continue };
            for (what, p) in [("win", e.win), ("draw", e.draw), ("loss", e.loss)] {
                // A sum of products of bead shares may round a hair past 1 (1.0000000000000002).
                if !(-ROUNDING..=1.0 + ROUNDING).contains(&p) {
                    return Err(FieldError::new(
                        format!("{field}.exact.{name}.{what}"),
                        format!("{p}: expected a probability from 0 to 1"),
                    ));
                }
            }
            let sum = e.win + e.draw + e.loss;
            if (sum - 1.0).abs() > 1e-6 {
                return Err(FieldError::new(
                    format!("{field}.exact.{name}"),
                    format!("win, draw and loss add up to {sum}: expected 1"),
                ));
            }
        }
        Ok(())
    };
    let s = &run.start;
    check("start".to_string(), s.total_beads, s.first_box_beads, s.exact)?;
    for (i, g) in run.games.iter().enumerate() {
        check(format!("games[{i}]"), g.total_beads, g.first_box_beads, g.exact)?;
    }
    Ok(())
}

/// Once an unsharded run's outputs are written, its units are no longer needed.
pub fn clear(dir: &Path) {
    let _ = std::fs::remove_dir_all(units_dir(dir));
    let _ = std::fs::remove_file(dir.join("experiment.json"));
}

/// Put every unit in its place, `[arm][seed]`; an error names the missing ones.
pub fn assemble(exp: &Experiment, mut runs: BTreeMap<Unit, SeedRun>) -> Result<Vec<Vec<SeedRun>>, UnitError> {
    if let Some(m) = missing_units(exp, |u| runs.contains_key(u)) {
        return Err(UnitError::Missing(m));
    }
    Ok((0..exp.arms.len())
        .map(|a| (0..exp.seeds.len()).filter_map(|s| runs.remove(&(a, s))).collect())
        .collect())
}

/// How many of `exp`'s units `has` lacks, and the first of them; `None` if none.
fn missing_units(exp: &Experiment, has: impl Fn(&Unit) -> bool) -> Option<String> {
    let every = all_units(exp);
    let missing: Vec<&Unit> = every.iter().filter(|u| !has(u)).collect();
    let &&(a, s) = missing.first()?;
    Some(format!(
        "{} of {} units are missing, the first arm '{}' seed {}",
        missing.len(),
        every.len(),
        exp.arms[a].name,
        exp.seeds[s]
    ))
}

/// The paths among `paths` that are shard folders (folders holding an
/// `experiment.json`), and the others, which a merge passes over: Slurm's
/// logs or anything else a shell pattern like `results/sweep-shards/*` takes in.
pub fn shard_folders(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    paths
        .iter()
        .cloned()
        .partition(|p| p.is_dir() && p.join("experiment.json").is_file())
}

/// Find the shards in `dirs` (each written by `menace run --shard`): the
/// experiment they are of and every unit's file, refusing shards of different
/// experiment files, a unit given twice, or units missing; a refusal for
/// missing units names each folder that holds fewer than its shard's units
/// and each shard no folder holds.
pub fn merge(dirs: &[PathBuf]) -> Result<Merged, UnitError> {
    let mut exp: Option<(Experiment, PathBuf)> = None;
    for dir in dirs {
        let path = dir.join("experiment.json");
        let text = read_regular_text(&path)?;
        match &exp {
            None => {
                let parsed = Experiment::parse(&text).map_err(|error| UnitError::Bad {
                    path: path.clone(),
                    error,
                })?;
                exp = Some((parsed, dir.clone()));
            }
            Some((e, first)) if content_hash(text.as_bytes()) != e.hash => {
                return Err(UnitError::Mismatch(format!(
                    "'{}' and '{}' are shards of different experiment files (hash {} and {})",
                    first.display(),
                    dir.display(),
                    e.hash,
                    content_hash(text.as_bytes())
                )))
            }
            Some(_) => {}
        }
    }
    let Some((exp, _)) = exp else {
        return Err(UnitError::Missing("no shard folders to merge".into()));
    };
    let mut index: BTreeMap<Unit, (PathBuf, &PathBuf)> = BTreeMap::new();
    let mut held = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let found = unit_files(dir);
        held.push(found.len());
        for (unit, path) in found {
            if unit.0 >= exp.arms.len() || unit.1 >= exp.seeds.len() {
                return Err(UnitError::Bad {
                    path,
                    error: FieldError::new("arm", "no such arm and seed in the experiment"),
                });
            }
            if let Some((_, first)) = index.get(&unit) {
                return Err(UnitError::Duplicate {
                    arm: unit.0,
                    seed: exp.seeds[unit.1] as usize,
                    first: first.to_path_buf(),
                    second: dir.clone(),
                });
            }
            index.insert(unit, (path, dir));
        }
    }
    if let Some(m) = missing_units(&exp, |u| index.contains_key(u)) {
        return Err(UnitError::Missing(format!("{m}; {}", incomplete(&exp, dirs, &held))));
    }
    let files = (0..exp.arms.len())
        .map(|a| (0..exp.seeds.len()).map(|s| index.remove(&(a, s)).unwrap().0).collect())
        .collect();
    Ok(Merged { exp, files })
}

/// Shards put together: the experiment, and where each unit's file is. The
/// units are read an arm at a time ([`Merged::arm`]), so a merge holds one
/// arm's runs at most, however many units the sweep has.
pub struct Merged {
    /// The experiment the shards ran.
    pub exp: Experiment,
    /// `[arm][seed index]`: the unit's file.
    files: Vec<Vec<PathBuf>>,
}

impl Merged {
    /// Every run of arm `arm`, seed by seed, read from its file.
    pub fn arm(&self, arm: usize) -> Result<Vec<SeedRun>, UnitError> {
        self.files[arm]
            .iter()
            .enumerate()
            .map(|(s, path)| read_unit_as(path, &self.exp, (arm, s)))
            .collect()
    }
}

/// Which folders and shards lack units: each folder with fewer units than
/// its shard has (or with no `shard.json`: its run did not finish), and each
/// shard of N that no folder given holds.
fn incomplete(exp: &Experiment, dirs: &[PathBuf], held: &[usize]) -> String {
    let every = all_units(exp);
    let mut problems = Vec::new();
    let mut given = Vec::new();
    for (dir, &held) in dirs.iter().zip(held) {
        let shard = read_regular_text(&dir.join("shard.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<ShardFile>(&t).ok())
            .map(|f| f.shard);
        match shard {
            Some(shard) => {
                given.push(shard);
                let expected = shard.select(&every).len();
                if held < expected {
                    problems.push(format!(
                        "'{}' (shard {shard}) holds {held} of its {expected} units",
                        dir.display()
                    ));
                }
            }
            None => problems.push(format!(
                "'{}' holds {held} units and no shard.json: its run did not finish",
                dir.display()
            )),
        }
    }
    if let Some(n) = given.first().map(|s| s.n) {
        let absent: Vec<String> = (1..=n)
            .filter(|&k| !given.iter().any(|s| s.n == n && s.k == k))
            .map(|k| format!("{k}/{n}"))
            .collect();
        if !absent.is_empty() {
            problems.push(format!("no folder given holds shard {}", absent.join(", ")));
        }
    }
    if problems.is_empty() {
        "give every shard's folder".to_string()
    } else {
        format!(
            "{}: rerun those shards with --shard K/N on the same --out folder",
            problems.join("; ")
        )
    }
}
