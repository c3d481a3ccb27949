//! Experiment files: a game, arms (machine settings and opponents), games
//! and seeds, read and checked with errors that name the field.

use std::path::Path;

use serde::Deserialize;

use super::charts::{CHARTS, DEFAULT_CHARTS, SUMMARY_CHARTS};
use super::curves::{MAX_FILE_ROWS, MAX_ROW_BYTES};
use super::error::ExperimentError;
use crate::error::FieldError;
use crate::game::Player;
use crate::machine::settings::MachineSettings;
use crate::machine_spec::MachineSpec;
use crate::registry::{default_side, parse_spec, AnyGame};
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
    curves_every: Option<u64>,
    #[serde(default)]
    window: Option<u64>,
    #[serde(default)]
    charts: Option<Vec<String>>,
    arms: Vec<ArmFile>,
}

#[derive(Debug, Deserialize)]
#[serde(
    untagged,
    expecting = "expected a number of seeds from 1 up, or a list of seeds (whole numbers from 0 to 18446744073709551615)"
)]
enum Seeds {
    Count(u64),
    List(Vec<u64>),
}

/// A bead schedule as written: `1`, `[4, 3, 2, 1]` or `"4,3,2,1"`.
#[derive(Clone, Debug, Deserialize)]
#[serde(
    untagged,
    expecting = "expected a bead count, a list of counts like [4, 3, 2, 1], text like \"4,3,2,1\", or a list of those to sweep"
)]
enum Beads {
    One(u32),
    List(Vec<u32>),
    Text(String),
}

impl Beads {
    fn text(&self) -> String {
        match self {
            Beads::One(n) => n.to_string(),
            Beads::List(l) => l.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
            Beads::Text(t) => t.clone(),
        }
    }
}

/// A setting given once, or a list of values to sweep over.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged, expecting = "expected a value, or a list of values to sweep over")]
enum Sweep<T> {
    One(T),
    Many(Vec<T>),
}

impl<T: Clone> Sweep<T> {
    fn values(&self) -> Vec<T> {
        match self {
            Sweep::One(v) => vec![v.clone()],
            Sweep::Many(v) => v.clone(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmFile {
    name: String,
    /// The arm's own game, or games to sweep (the experiment's `game` when left out).
    #[serde(default)]
    game: Option<Sweep<String>>,
    opponent: Sweep<String>,
    #[serde(default)]
    side: Option<Sweep<String>>,
    #[serde(default)]
    preset: Option<Sweep<String>>,
    #[serde(default)]
    beads: Option<Sweep<Beads>>,
    #[serde(default)]
    reinforcement: Option<Sweep<String>>,
    #[serde(default)]
    empty_box: Option<Sweep<String>>,
    #[serde(default)]
    box_set: Option<Sweep<String>>,
    #[serde(default)]
    box_mode: Option<Sweep<String>>,
    #[serde(default)]
    symmetry: Option<Sweep<bool>>,
}

/// One arm of the cross product a (possibly swept) arm of the file stands for.
#[derive(Clone, Debug, Default)]
struct ArmChoice {
    name: String,
    game: Option<String>,
    opponent: String,
    side: Option<String>,
    preset: Option<String>,
    beads: Option<Beads>,
    reinforcement: Option<String>,
    empty_box: Option<String>,
    box_set: Option<String>,
    box_mode: Option<String>,
    symmetry: Option<bool>,
}

/// The most arms an experiment (after sweeps are expanded) may have.
pub const MAX_ARMS: usize = 200;

/// The arms an arm of the file stands for: the cross product of its swept
/// settings, each named after the base name and the values that vary
/// (e.g. `HER (beads 3, reinforcement michie)`).
fn expand(a: &ArmFile) -> Result<Vec<ArmChoice>, FieldError> {
    type Set = fn(&mut ArmChoice, Option<String>);
    type Values = Option<Vec<Option<String>>>;
    let text = |s: &Option<Sweep<String>>| s.as_ref().map(|s| s.values().into_iter().map(Some).collect::<Vec<_>>());
    let beads = a
        .beads
        .as_ref()
        .map(|b| b.values().into_iter().map(Some).collect::<Vec<_>>());
    let symmetry = a
        .symmetry
        .as_ref()
        .map(|b| b.values().into_iter().map(Some).collect::<Vec<_>>());
    let mut out = vec![(
        ArmChoice {
            name: a.name.clone(),
            ..ArmChoice::default()
        },
        Vec::<String>::new(),
    )];
    let mut cross = |field: &str, values: Vec<Option<String>>, set: Set, shown: &dyn Fn(&str) -> String| {
        if values.is_empty() {
            return Err(FieldError::new(field, "an empty list: give at least one value"));
        }
        let many = values.len() > 1;
        let mut next = Vec::with_capacity(out.len() * values.len());
        for (choice, parts) in &out {
            for v in &values {
                let (mut c, mut p) = (choice.clone(), parts.clone());
                if many {
                    p.push(shown(v.as_deref().unwrap_or("")));
                }
                set(&mut c, v.clone());
                next.push((c, p));
            }
        }
        out = next;
        Ok(())
    };
    // The game first, so that a swept arm reads `HER (hexapawn:4x4, vs perfect)`.
    if let Some(games) = text(&a.game) {
        cross("game", games, |c, v| c.game = v, &|v| v.to_string())?;
    }
    let opponents: Vec<Option<String>> = a.opponent.values().into_iter().map(Some).collect();
    cross("opponent", opponents, |c, v| c.opponent = v.unwrap_or_default(), &|v| {
        format!("vs {v}")
    })?;
    let fields: [(&str, Values, Set); 6] = [
        ("side", text(&a.side), |c, v| c.side = v),
        ("preset", text(&a.preset), |c, v| c.preset = v),
        ("reinforcement", text(&a.reinforcement), |c, v| c.reinforcement = v),
        ("empty_box", text(&a.empty_box), |c, v| c.empty_box = v),
        ("box_set", text(&a.box_set), |c, v| c.box_set = v),
        ("box_mode", text(&a.box_mode), |c, v| c.box_mode = v),
    ];
    for (field, values, set) in fields {
        if let Some(values) = values {
            let label = field.replace('_', " ");
            cross(field, values, set, &|v| format!("{label} {v}"))?;
        }
    }
    // Bead schedules and symmetry are not text: swept the same way, through their text.
    if let Some(values) = beads {
        let texts = values.iter().map(|b| b.as_ref().map(Beads::text)).collect();
        cross("beads", texts, |c, v| c.beads = v.map(Beads::Text), &|v| {
            format!("beads {v}")
        })?;
    }
    if let Some(values) = symmetry {
        let texts = values.iter().map(|b| b.map(|b| b.to_string())).collect();
        let set: Set = |c, v| c.symmetry = v.map(|v| v == "true");
        cross("symmetry", texts, set, &|v| {
            format!("symmetry {}", if v == "true" { "on" } else { "off" })
        })?;
    }
    Ok(out
        .into_iter()
        .map(|(mut c, parts)| {
            if !parts.is_empty() {
                c.name = format!("{} ({})", c.name, parts.join(", "));
            }
            c
        })
        .collect())
}

/// One arm: a machine's side and settings against one opponent.
#[derive(Clone, Debug)]
pub struct Arm {
    /// The arm's name, with any values a sweep varies.
    pub name: String,
    /// The game this arm plays: its own, or the experiment's.
    pub game: AnyGame,
    /// That game's spec string (as [`AnyGame::spec`] writes it).
    pub game_spec: String,
    /// The arm of the file it comes from (an index into `arms`), the same
    /// for every arm a sweep expands it to.
    pub file_arm: usize,
    /// That arm's name in the file (before a sweep adds the values it varies).
    pub file_arm_name: String,
    /// The side the machine plays.
    pub side: Player,
    /// That side's name in the file (`first`, `second`).
    pub side_name: String,
    /// The opponent the machine trains against.
    pub opponent: OpponentSpec,
    /// The machine's settings: beads, reinforcement, empty box, box set.
    pub settings: MachineSettings,
}

/// A checked experiment, ready to run.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// The experiment's name, its file's stem.
    pub name: String,
    /// The title on its charts.
    pub title: String,
    /// What it shows, in a sentence or two.
    pub description: String,
    /// The experiment's game: every arm's that names none of its own.
    pub game: AnyGame,
    /// That game's spec string.
    pub game_spec: String,
    /// Games each seed of each arm plays.
    pub games: u64,
    /// The seeds each arm runs, one machine a seed.
    pub seeds: Vec<u64>,
    /// Record the exact expected result every this many games (and after the last).
    pub exact_every: Option<u64>,
    /// Write a row of curves every this many games (and game 0 and the last): 1, every game.
    pub curves_every: u64,
    /// Games in the rolling window of the win/draw/loss rates.
    pub window: u64,
    /// Chart names to draw (see [`CHARTS`]).
    pub charts: Vec<String>,
    /// The arms, sweeps expanded.
    pub arms: Vec<Arm>,
    /// The experiment file's text, kept beside shards so that they can be merged.
    pub source: String,
    /// A hash of that text, naming the experiment in unit files and shards.
    pub hash: String,
}

/// FNV-1a, 64 bits, as 16 hex digits: a content hash to tell experiment files apart.
pub fn content_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The most rows a curves file may have (arms × games), to keep it and memory bounded.
pub const MAX_CURVE_ROWS: u64 = 1_000_000;

// A curves file a run writes is one it can read back: each arm adds its game 0 and last game.
const _: () = assert!(MAX_CURVE_ROWS + 2 * MAX_ARMS as u64 <= MAX_FILE_ROWS);

/// The most a curves row's numbers take: 70 of at most 24 characters and a
/// comma (2^53 beads with six decimals), the seeds, window and game, and
/// the commas and quotes between the words.
const ROW_NUMBERS_BYTES: u64 = 70 * 25 + 3 * 21 + 64;

/// The most games times seeds an experiment may ask for: every game's record
/// is kept (25 bytes, [`Records`](super::records::Records)), so this keeps
/// a run's records under a gigabyte and a half.
pub const MAX_GAME_RECORDS: u64 = 60_000_000;

/// The most exact results an experiment may record (games ÷ `exact_every`
/// × seeds × arms): each is kept (72 bytes), so this keeps them under a gigabyte.
pub const MAX_EXACT_RECORDS: u64 = 12_000_000;

/// The most seeds an experiment may list or count.
pub const MAX_SEEDS: u64 = 1_000_000;

impl Experiment {
    /// Whether some arm plays a game other than the experiment's.
    pub fn several_games(&self) -> bool {
        self.arms.iter().any(|a| a.game_spec != self.game_spec)
    }

    /// The games the arms play, each once, in the arms' order (`hexapawn, octopawn`).
    pub fn games_text(&self) -> String {
        let mut specs: Vec<&str> = Vec::new();
        for a in &self.arms {
            if !specs.contains(&a.game_spec.as_str()) {
                specs.push(&a.game_spec);
            }
        }
        specs.join(", ")
    }

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
        let mut exp = Experiment::check(file)?;
        exp.source = text.to_string();
        exp.hash = content_hash(text.as_bytes());
        Ok(exp)
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
            Seeds::Count(n) if n > MAX_SEEDS => {
                return Err(FieldError::new(
                    "seeds",
                    format!("{n} seeds: at most {MAX_SEEDS} (shard a larger study over several experiment files)"),
                ))
            }
            Seeds::Count(n) => (0..n).collect(),
            Seeds::List(l) if l.len() as u64 > MAX_SEEDS => {
                return Err(FieldError::new(
                    "seeds",
                    format!("{} seeds: at most {MAX_SEEDS}", l.len()),
                ))
            }
            Seeds::List(l) if l.is_empty() => return Err(FieldError::new("seeds", "the list of seeds is empty")),
            Seeds::List(l) => l,
        };
        if file.arms.is_empty() {
            return Err(FieldError::new("arms", "expected at least one arm"));
        }
        // Sweeps expand to the cross product of their values, arm by arm.
        let mut choices = Vec::new();
        for (i, a) in file.arms.iter().enumerate() {
            let expanded = expand(a).map_err(|e| e.within(&format!("arms[{i}]")))?;
            choices.extend(expanded.into_iter().map(|c| (i, a.name.clone(), c)));
            if choices.len() > MAX_ARMS {
                return Err(FieldError::new(
                    "arms",
                    format!("more than {MAX_ARMS} arms once sweeps are expanded: split the experiment"),
                ));
            }
        }
        let records = file
            .games
            .saturating_mul(seeds.len() as u64)
            .saturating_mul(choices.len() as u64);
        if records > MAX_GAME_RECORDS {
            return Err(FieldError::new(
                "",
                format!("games × seeds × arms is {records}: at most {MAX_GAME_RECORDS} games can be recorded in one experiment"),
            ));
        }
        if let Some(k) = file.exact_every.filter(|&k| k > 0) {
            let exact = (file.games / k + 1)
                .saturating_mul(seeds.len() as u64)
                .saturating_mul(choices.len() as u64);
            if exact > MAX_EXACT_RECORDS {
                return Err(FieldError::new(
                    "exact_every",
                    format!("(games ÷ exact_every + 1) × seeds × arms is {exact}: at most {MAX_EXACT_RECORDS} exact results can be recorded in one experiment (a larger exact_every records fewer)"),
                ));
            }
        }
        let curves_every = file.curves_every.unwrap_or(1);
        if curves_every == 0 {
            return Err(FieldError::new(
                "curves_every",
                "expected a number of games from 1 up (leave it out for a row every game)",
            ));
        }
        if (file.games / curves_every).saturating_mul(choices.len() as u64) > MAX_CURVE_ROWS {
            return Err(FieldError::new(
                "games",
                format!(
                    "{} games × {} arms make more than {MAX_CURVE_ROWS} rows of curves (curves_every writes fewer)",
                    file.games,
                    choices.len()
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
            if !CHARTS.iter().any(|k| k.name == c) && !SUMMARY_CHARTS.contains(&c.as_str()) {
                let names: Vec<&str> = CHARTS.iter().map(|k| k.name).chain(SUMMARY_CHARTS).collect();
                return Err(FieldError::new(
                    format!("charts[{i}]"),
                    format!("unknown chart '{c}': expected one of {}", names.join(", ")),
                ));
            }
        }
        let mut arms = Vec::new();
        let mut names = std::collections::HashSet::new();
        for (i, file_name, a) in choices {
            let arm = check_arm(&game, (i, file_name), a).map_err(|e| e.within(&format!("arms[{i}]")))?;
            if !names.insert(arm.name.clone()) {
                return Err(FieldError::new(
                    format!("arms[{i}].name"),
                    format!("'{}' is used by an earlier arm", arm.name),
                ));
            }
            arms.push(arm);
        }
        let game_spec = game.spec();
        let title = file.title.unwrap_or_else(|| file.name.clone());
        // Every row of the curves names its arm in full: it must fit a row
        // that the curves file is read back with (quotes may double it).
        for (i, arm) in arms.iter().enumerate() {
            let words = [
                file.name.len(),
                title.len(),
                arm.game_spec.len(),
                arm.name.len(),
                arm.side_name.len(),
                arm.opponent.to_string().len(),
                arm.settings.describe().len(),
            ];
            let row = 2 * words.iter().sum::<usize>() as u64 + ROW_NUMBERS_BYTES;
            if row > MAX_ROW_BYTES {
                return Err(FieldError::new(
                    if title.len() > arm.name.len() { "title".to_string() } else { format!("arms[{i}].name") },
                    format!(
                        "too long: each row of the curves names the experiment and arm, and would take {row} bytes: at most {MAX_ROW_BYTES}"
                    ),
                ));
            }
        }
        Ok(Experiment {
            title,
            name: file.name,
            description: file.description.unwrap_or_default(),
            game,
            game_spec,
            games: file.games,
            seeds,
            exact_every: file.exact_every,
            curves_every,
            window,
            charts,
            arms,
            source: String::new(),
            hash: String::new(),
        })
    }
}

fn check_arm(
    default_game: &AnyGame,
    (file_arm, file_arm_name): (usize, String),
    a: ArmChoice,
) -> Result<Arm, FieldError> {
    if a.name.trim().is_empty() {
        return Err(FieldError::new("name", "an arm needs a name"));
    }
    let game = match &a.game {
        None => default_game.clone(),
        Some(spec) => parse_spec(spec).map_err(|e| FieldError::new("game", format!("arm '{}': {e}", a.name)))?,
    };
    let game = &game;
    let opponent = OpponentSpec::parse_program(&a.opponent).map_err(|e| FieldError::new("opponent", e))?;
    let side = match &a.side {
        None => default_side(game),
        Some(s) => game.parse_player(s).map_err(|e| FieldError::new("side", e))?,
    };
    let side_name = game.player_name(side).to_string();
    let mut spec = MachineSpec::default();
    for (field, text) in [
        ("preset", a.preset),
        ("beads", a.beads.map(|b| b.text())),
        ("reinforcement", a.reinforcement),
        ("empty_box", a.empty_box),
        ("box_set", a.box_set),
        ("box_mode", a.box_mode),
    ] {
        if let Some(text) = text {
            spec.set(field, &text)?;
        }
    }
    spec.symmetry = a.symmetry;
    let settings = spec.resolve(game);
    Ok(Arm {
        name: a.name,
        game: game.clone(),
        game_spec: game.spec(),
        file_arm,
        file_arm_name,
        side,
        side_name,
        opponent,
        settings,
    })
}
