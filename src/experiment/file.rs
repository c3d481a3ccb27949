//! Experiment files: a game, arms (machine settings and opponents), games
//! and seeds, read and checked with errors that name the field.

use std::path::Path;

use serde::Deserialize;

use super::charts::{CHARTS, DEFAULT_CHARTS};
use super::error::ExperimentError;
use super::plot::MAX_SERIES;
use crate::error::FieldError;
use crate::game::Player;
use crate::machine::boxes::BoxSet;
use crate::machine::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement};
use crate::registry::{default_settings, default_side, parse_spec, AnyGame};
use crate::training::opponent::OpponentSpec;

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
    /// Chart names to draw (see [`CHARTS`]).
    pub charts: Vec<String>,
    pub arms: Vec<Arm>,
}

/// The most rows a curves file may have (arms × games), to keep it and memory bounded.
pub const MAX_CURVE_ROWS: u64 = 1_000_000;

/// The most games times seeds an experiment may ask for, to keep memory bounded.
pub const MAX_GAME_RECORDS: u64 = 50_000_000;

impl Experiment {
    /// Read and check an experiment file. Errors name the file and the field path.
    pub fn load(path: &Path) -> Result<Experiment, ExperimentError> {
        let text = crate::fsutil::read_text(path)?;
        Experiment::parse(&text).map_err(|error| ExperimentError::InFile {
            path: path.to_path_buf(),
            error,
        })
    }

    /// Check experiment text; errors name the field path (e.g. `arms[1].opponent`).
    pub fn parse(text: &str) -> Result<Experiment, FieldError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let file: ExperimentFile = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let field = if path == "." { String::new() } else { path };
            FieldError::new(field, inner)
        })?;
        Experiment::check(file)
    }

    fn check(file: ExperimentFile) -> Result<Experiment, FieldError> {
        if file.name.is_empty()
            || !file
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(FieldError::new(
                "name",
                format!(
                    "'{}' must be letters, digits, - or _ (it names the output folder)",
                    file.name
                ),
            ));
        }
        let game = parse_spec(&file.game).map_err(|e| FieldError::new("game", e))?;
        if file.games == 0 {
            return Err(FieldError::new("games", "expected a number of games from 1 up"));
        }
        let seeds = match file.seeds {
            Seeds::Count(0) => {
                return Err(FieldError::new(
                    "seeds",
                    "expected a number of seeds from 1 up, or a list of seeds",
                ))
            }
            Seeds::Count(n) => (0..n).collect(),
            Seeds::List(l) if l.is_empty() => return Err(FieldError::new("seeds", "the list of seeds is empty")),
            Seeds::List(l) => l,
        };
        if file.arms.is_empty() {
            return Err(FieldError::new("arms", "expected at least one arm"));
        }
        let records = file
            .games
            .saturating_mul(seeds.len() as u64)
            .saturating_mul(file.arms.len() as u64);
        if records > MAX_GAME_RECORDS {
            return Err(FieldError::new(
                "",
                format!("games × seeds × arms is {records}: at most {MAX_GAME_RECORDS} games can be recorded in one experiment"),
            ));
        }
        if file.arms.len() > MAX_SERIES {
            return Err(FieldError::new(
                "arms",
                format!("{} arms, but at most {MAX_SERIES} fit on one chart", file.arms.len()),
            ));
        }
        if file.games.saturating_mul(file.arms.len() as u64) > MAX_CURVE_ROWS {
            return Err(FieldError::new(
                "games",
                format!(
                    "{} games × {} arms make more than {MAX_CURVE_ROWS} rows of curves",
                    file.games,
                    file.arms.len()
                ),
            ));
        }
        if file.exact_every == Some(0) {
            return Err(FieldError::new(
                "exact_every",
                "expected a number of games from 1 up (leave it out to skip)",
            ));
        }
        let window = file.window.unwrap_or(10);
        if window == 0 {
            return Err(FieldError::new("window", "expected a number of games from 1 up"));
        }
        let charts = file
            .charts
            .unwrap_or_else(|| DEFAULT_CHARTS.iter().map(|s| s.to_string()).collect());
        for (i, c) in charts.iter().enumerate() {
            if !CHARTS.iter().any(|k| k.name == c) {
                let names: Vec<&str> = CHARTS.iter().map(|k| k.name).collect();
                return Err(FieldError::new(
                    format!("charts[{i}]"),
                    format!("unknown chart '{c}': expected one of {}", names.join(", ")),
                ));
            }
        }
        let mut arms = Vec::new();
        let mut names = std::collections::HashSet::new();
        for (i, a) in file.arms.into_iter().enumerate() {
            let arm = check_arm(&game, a).map_err(|e| e.within(&format!("arms[{i}]")))?;
            if !names.insert(arm.name.clone()) {
                return Err(FieldError::new(
                    format!("arms[{i}].name"),
                    format!("'{}' is used by an earlier arm", arm.name),
                ));
            }
            arms.push(arm);
        }
        let game_spec = game.spec();
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
}

fn check_arm(game: &AnyGame, a: ArmFile) -> Result<Arm, FieldError> {
    if a.name.trim().is_empty() {
        return Err(FieldError::new("name", "an arm needs a name"));
    }
    let opponent = OpponentSpec::parse(&a.opponent).map_err(|e| FieldError::new("opponent", e))?;
    if opponent == OpponentSpec::Human {
        return Err(FieldError::new(
            "opponent",
            "'human' is a person at the terminal (menace play); an experiment needs a program opponent",
        ));
    }
    let side = match &a.side {
        None => default_side(game),
        Some(s) => game.parse_player(s).map_err(|e| FieldError::new("side", e))?,
    };
    let side_name = game.player_name(side).to_string();
    let mut settings = match a.preset.as_deref() {
        None => default_settings(game),
        Some(name) => MachineSettings::preset(name).map_err(|e| FieldError::new("preset", e))?,
    };
    if let Some(b) = a.beads {
        settings.beads = match b {
            Beads::One(n) => BeadSchedule::parse(&n.to_string()),
            Beads::List(l) => BeadSchedule::parse(&l.iter().map(u32::to_string).collect::<Vec<_>>().join(",")),
            Beads::Text(t) => BeadSchedule::parse(&t),
        }
        .map_err(|e| FieldError::new("beads", e))?;
    }
    if let Some(r) = a.reinforcement {
        settings.reinforcement = Reinforcement::parse(&r).map_err(|e| FieldError::new("reinforcement", e))?;
    }
    if let Some(e) = a.empty_box {
        settings.empty_box = EmptyBox::parse(&e).map_err(|e| FieldError::new("empty_box", e))?;
    }
    if let Some(b) = a.box_set {
        settings.box_set = BoxSet::parse(&b).map_err(|e| FieldError::new("box_set", e))?;
    }
    if let Some(m) = a.box_mode {
        settings.box_mode = BoxMode::parse(&m).map_err(|e| FieldError::new("box_mode", e))?;
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
