//! Experiment files: arms (machine settings and opponents) run over many
//! seeds, in parallel, with results independent of the thread count.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::Deserialize;

use crate::boxes::BoxSet;
use crate::game::{Game, Player};
use crate::opponent::OpponentSpec;
use crate::registry::{default_settings, default_side, parse_spec, AnyGame};
use crate::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement};
use crate::train::{GameRecord, Trainer};

/// An experiment file as written (JSON, in `experiments/`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExperimentFile {
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    game: String,
    games: u64,
    seeds: Seeds,
    #[serde(default)]
    exact_every: Option<u64>,
    #[serde(default)]
    window: Option<u64>,
    #[serde(default)]
    charts: Option<Vec<String>>,
    arms: Vec<ArmFile>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Seeds {
    Count(u64),
    List(Vec<u64>),
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Beads {
    One(u32),
    List(Vec<u32>),
    Text(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmFile {
    name: String,
    opponent: String,
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    preset: Option<String>,
    #[serde(default)]
    beads: Option<Beads>,
    #[serde(default)]
    reinforcement: Option<String>,
    #[serde(default)]
    empty_box: Option<String>,
    #[serde(default)]
    box_set: Option<String>,
    #[serde(default)]
    box_mode: Option<String>,
    #[serde(default)]
    symmetry: Option<bool>,
}

/// One arm: a machine's side and settings against one opponent.
#[derive(Clone, Debug)]
pub struct Arm {
    pub name: String,
    pub side: Player,
    pub side_name: String,
    pub opponent: OpponentSpec,
    pub settings: MachineSettings,
}

/// A checked experiment, ready to run.
#[derive(Clone, Debug)]
pub struct Experiment {
    pub name: String,
    pub title: String,
    pub description: String,
    pub game: AnyGame,
    pub game_spec: String,
    pub games: u64,
    pub seeds: Vec<u64>,
    /// Record the exact expected result every this many games (and after the last).
    pub exact_every: Option<u64>,
    /// Games in the rolling window of the win/draw/loss rates.
    pub window: u64,
    /// Chart names to draw (see [`crate::report::CHARTS`]).
    pub charts: Vec<String>,
    pub arms: Vec<Arm>,
}

/// One run's records, or why it failed.
type RunResult = Result<Vec<GameRecord>, String>;

/// The most rows a curves file may have (arms × games), to keep it and memory bounded.
pub const MAX_CURVE_ROWS: u64 = 1_000_000;

/// The most games times seeds an experiment may ask for, to keep memory bounded.
pub const MAX_GAME_RECORDS: u64 = 50_000_000;

impl Experiment {
    /// Read and check an experiment file. Errors name the file and the field path.
    pub fn load(path: &Path) -> Result<Experiment, String> {
        let text = crate::fsutil::read_text(path)?;
        Experiment::parse(&text).map_err(|e| format!("experiment file '{}': {e}", path.display()))
    }

    /// Check experiment text; errors name the field path (e.g. `arms[1].opponent`).
    pub fn parse(text: &str) -> Result<Experiment, String> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let file: ExperimentFile = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            if path == "." || path.is_empty() {
                format!("{inner}")
            } else {
                format!("{path}: {inner}")
            }
        })?;
        Experiment::check(file)
    }

    fn check(file: ExperimentFile) -> Result<Experiment, String> {
        if file.name.is_empty()
            || !file
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "name: '{}' must be letters, digits, - or _ (it names the output folder)",
                file.name
            ));
        }
        let game = parse_spec(&file.game).map_err(|e| format!("game: {e}"))?;
        if file.games == 0 {
            return Err("games: expected a number of games from 1 up".into());
        }
        let seeds = match file.seeds {
            Seeds::Count(0) => return Err("seeds: expected a number of seeds from 1 up, or a list of seeds".into()),
            Seeds::Count(n) => (0..n).collect(),
            Seeds::List(l) if l.is_empty() => return Err("seeds: the list of seeds is empty".into()),
            Seeds::List(l) => l,
        };
        if file.arms.is_empty() {
            return Err("arms: expected at least one arm".into());
        }
        let records = file
            .games
            .saturating_mul(seeds.len() as u64)
            .saturating_mul(file.arms.len() as u64);
        if records > MAX_GAME_RECORDS {
            return Err(format!(
                "games × seeds × arms is {records}: at most {MAX_GAME_RECORDS} games can be recorded in one experiment"
            ));
        }
        if file.arms.len() > crate::chart::MAX_SERIES {
            return Err(format!(
                "arms: {} arms, but at most {} fit on one chart",
                file.arms.len(),
                crate::chart::MAX_SERIES
            ));
        }
        if file.games.saturating_mul(file.arms.len() as u64) > MAX_CURVE_ROWS {
            return Err(format!(
                "games: {} games × {} arms make more than {MAX_CURVE_ROWS} rows of curves",
                file.games,
                file.arms.len()
            ));
        }
        if file.exact_every == Some(0) {
            return Err("exact_every: expected a number of games from 1 up (leave it out to skip)".into());
        }
        let window = file.window.unwrap_or(10);
        if window == 0 {
            return Err("window: expected a number of games from 1 up".into());
        }
        let charts = file
            .charts
            .unwrap_or_else(|| crate::report::DEFAULT_CHARTS.iter().map(|s| s.to_string()).collect());
        for (i, c) in charts.iter().enumerate() {
            if !crate::report::CHARTS.iter().any(|k| k.name == c) {
                let names: Vec<&str> = crate::report::CHARTS.iter().map(|k| k.name).collect();
                return Err(format!(
                    "charts[{i}]: unknown chart '{c}': expected one of {}",
                    names.join(", ")
                ));
            }
        }
        let mut arms = Vec::new();
        let mut names = std::collections::HashSet::new();
        for (i, a) in file.arms.into_iter().enumerate() {
            let arm = check_arm(&game, a).map_err(|e| format!("arms[{i}].{e}"))?;
            if !names.insert(arm.name.clone()) {
                return Err(format!("arms[{i}].name: '{}' is used by an earlier arm", arm.name));
            }
            arms.push(arm);
        }
        let game_spec = crate::with_game!(game.clone(), g => g.spec());
        Ok(Experiment {
            title: file.title.unwrap_or_else(|| file.name.clone()),
            name: file.name,
            description: file.description.unwrap_or_default(),
            game,
            game_spec,
            games: file.games,
            seeds,
            exact_every: file.exact_every,
            window,
            charts,
            arms,
        })
    }

    /// Build every arm's first trainer once, so a bad arm (say, `perfect` on
    /// a game too large to solve) is reported before anything runs.
    pub fn preflight<G: Game>(&self, game: &G) -> Result<(), String> {
        for (i, arm) in self.arms.iter().enumerate() {
            Trainer::new(game.clone(), arm.side, arm.settings.clone(), arm.opponent.clone(), 0)
                .map_err(|e| format!("arms[{i}] ('{}'): {e}", arm.name))?;
        }
        Ok(())
    }

    /// Run every arm over every seed on `threads` threads. `progress` is
    /// called with the number of games just played. The records come back
    /// indexed `[arm][seed][game]`, the same whatever the thread count.
    pub fn run<G: Game>(
        &self,
        game: &G,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<Vec<Vec<GameRecord>>>, String> {
        let jobs: Vec<(usize, usize)> = (0..self.arms.len())
            .flat_map(|a| (0..self.seeds.len()).map(move |s| (a, s)))
            .collect();
        let results: Vec<Mutex<Option<RunResult>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1).min(jobs.len()) {
                scope.spawn(|| loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(a, s)) = jobs.get(j) else { break };
                    let out = self.run_one(game, a, self.seeds[s], progress);
                    if let Ok(mut slot) = results[j].lock() {
                        *slot = Some(out);
                    }
                });
            }
        });
        let mut by_arm: Vec<Vec<Vec<GameRecord>>> = vec![Vec::new(); self.arms.len()];
        for (j, slot) in results.into_iter().enumerate() {
            let (a, _) = jobs[j];
            let records = slot
                .into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err("a worker thread stopped unexpectedly".to_string()))?;
            by_arm[a].push(records);
        }
        Ok(by_arm)
    }

    fn run_one<G: Game>(
        &self,
        game: &G,
        arm: usize,
        seed: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<GameRecord>, String> {
        let a = &self.arms[arm];
        let mut trainer = Trainer::new(game.clone(), a.side, a.settings.clone(), a.opponent.clone(), seed)
            .map_err(|e| format!("arm '{}': {e}", a.name))?;
        let mut records = Vec::with_capacity(self.games as usize);
        let mut pending = 0;
        for g in 1..=self.games {
            let exact = self.exact_every.is_some_and(|k| g % k == 0 || g == self.games);
            records.push(trainer.play_game(exact));
            pending += 1;
            if pending == 256 {
                progress(pending);
                pending = 0;
            }
        }
        progress(pending);
        Ok(records)
    }
}

fn check_arm(game: &AnyGame, a: ArmFile) -> Result<Arm, String> {
    if a.name.trim().is_empty() {
        return Err("name: an arm needs a name".into());
    }
    let opponent = OpponentSpec::parse(&a.opponent).map_err(|e| format!("opponent: {e}"))?;
    let side = match &a.side {
        None => default_side(game),
        Some(s) => crate::with_game!(game.clone(), g => g.parse_player(s)).map_err(|e| format!("side: {e}"))?,
    };
    let side_name = crate::with_game!(game.clone(), g => g.player_name(side).to_string());
    let mut settings = match a.preset.as_deref() {
        None => default_settings(game),
        Some("gardner") => MachineSettings::gardner(),
        Some("michie") => MachineSettings::michie(),
        Some(other) => return Err(format!("preset: '{other}': expected gardner or michie")),
    };
    if let Some(b) = a.beads {
        settings.beads = match b {
            Beads::One(n) => BeadSchedule::parse(&n.to_string()),
            Beads::List(l) => BeadSchedule::parse(&l.iter().map(u32::to_string).collect::<Vec<_>>().join(",")),
            Beads::Text(t) => BeadSchedule::parse(&t),
        }
        .map_err(|e| format!("beads: {e}"))?;
    }
    if let Some(r) = a.reinforcement {
        settings.reinforcement = Reinforcement::parse(&r).map_err(|e| format!("reinforcement: {e}"))?;
    }
    if let Some(e) = a.empty_box {
        settings.empty_box = EmptyBox::parse(&e).map_err(|e| format!("empty_box: {e}"))?;
    }
    if let Some(b) = a.box_set {
        settings.box_set = BoxSet::parse(&b).map_err(|e| format!("box_set: {e}"))?;
    }
    if let Some(m) = a.box_mode {
        settings.box_mode = BoxMode::parse(&m).map_err(|e| format!("box_mode: {e}"))?;
    }
    if let Some(s) = a.symmetry {
        settings.symmetry = s;
    }
    Ok(Arm {
        name: a.name,
        side,
        side_name,
        opponent,
        settings,
    })
}
