//! A machine's whole state as JSON: settings, game spec, every box with its
//! beads, games played, the random stream, and a learning opponent's boxes.

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::game::{Game, Player};
use crate::machine::beads::Beads;
use crate::machine::settings::MachineSettings;
use crate::machine::{bead_colours, Machine, MatchBox};
use crate::symmetry::Symmetry;
use crate::training::opponent::{Opponent, OpponentSpec};
use crate::training::trainer::Trainer;

/// A state file that could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Not JSON, or not shaped like a state file.
    #[error("not a valid state file: {}", crate::error::shown_to(&.0.to_string(), crate::error::REASON_CHARS))]
    Json(#[from] serde_json::Error),
    /// A field holds something impossible for this game.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// A field is beyond the reader's [`ReadLimits`] (too many boxes, a box
    /// set too large to check).
    #[error("{0}")]
    OverLimit(FieldError),
}

/// The format tag written into every state file.
pub const FORMAT: &str = "menace-state/1";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    format: String,
    game: String,
    games_played: u64,
    opponent: String,
    /// The seed the run started from, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    rng: ChaCha8Rng,
    machine: MachineFile,
    /// The boxes of a learning opponent (`menace`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opponent_machine: Option<MachineFile>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MachineFile {
    side: String,
    settings: MachineSettings,
    enumerated: bool,
    boxes: Vec<BoxFile>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoxFile {
    position: String,
    own_move: u32,
    beads: Vec<(String, u32)>,
}

/// Only the fields needed to tell which game a state file is for.
#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    game: Option<String>,
}

/// The game spec a state file is for, read before the rest (to pick the game type).
pub fn peek_game(text: &str) -> Result<String, StateError> {
    let header: Header = serde_json::from_str(text)?;
    if header.format.as_deref() != Some(FORMAT) {
        return Err(FieldError::new("format", format!("expected \"{FORMAT}\"")).into());
    }
    header.game.ok_or_else(|| FieldError::new("game", "missing").into())
}

fn machine_file<G: Game>(m: &Machine<G>) -> MachineFile {
    machine_file_of(m.game(), m.side(), m.settings(), m.is_enumerated(), m.boxes())
}

fn machine_file_of<G: Game>(
    game: &G,
    side: Player,
    settings: &MachineSettings,
    enumerated: bool,
    boxes: &[MatchBox<G>],
) -> MachineFile {
    MachineFile {
        side: game.player_name(side).to_ascii_lowercase(),
        settings: settings.clone(),
        enumerated,
        boxes: boxes
            .iter()
            .map(|b| {
                let position = b.position(game);
                BoxFile {
                    position: game.position_string(&position),
                    own_move: b.own_move,
                    beads: b
                        .moves
                        .iter()
                        .zip(b.beads.iter())
                        .map(|(&mv, n)| (game.move_name(&position, mv), n))
                        .collect(),
                }
            })
            .collect(),
    }
}

/// How far reading a state file may go: the most positions enumerating
/// an `enumerated` machine's box set may store, and whether a program
/// opponent (a perfect player: a solve) is made now or left to the caller.
#[derive(Clone, Copy, Debug)]
pub struct ReadLimits {
    /// Positions the check of an enumerated box set may store.
    pub enumerate: usize,
    /// The most boxes a machine in the file may have.
    pub boxes: usize,
    /// Make the opponent the file names (false: [`Opponent::Human`] stands
    /// in for any but a learning one, whose boxes are in the file).
    pub make_opponent: bool,
}

impl Default for ReadLimits {
    fn default() -> ReadLimits {
        ReadLimits {
            enumerate: crate::search::solver::DEFAULT_LIMIT,
            boxes: usize::MAX,
            make_opponent: true,
        }
    }
}

/// How many boxes each machine of a state file holds, counted without
/// keeping any: a file of too many boxes is refused before it is read into
/// memory (a 100 MB file of half a million boxes would take about a
/// gigabyte to read whole).
#[derive(Deserialize)]
struct Census {
    format: Option<String>,
    machine: Option<MachineCensus>,
    opponent_machine: Option<MachineCensus>,
}

#[derive(Deserialize)]
struct MachineCensus {
    boxes: Option<Counted>,
}

/// The length of a JSON array, its elements skipped as they are read.
struct Counted(usize);

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Counted, D::Error> {
        struct Count;
        impl<'de> serde::de::Visitor<'de> for Count {
            type Value = Counted;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of boxes")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Counted, A::Error> {
                let mut n = 0usize;
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Counted(n))
            }
        }
        d.deserialize_seq(Count)
    }
}

/// Refuse a file one of whose machines has more boxes than `limit`, having
/// counted them without reading them in.
fn count_boxes(text: &str, limit: usize) -> Result<(), StateError> {
    check_census(serde_json::from_str(text)?, limit)
}

/// Refuse a state file read from `reader` one of whose machines has more
/// boxes than `limit`, counting them as it is read and keeping none of it:
/// a caller holding a file, not its text (`menace serve --state`), calls
/// this before reading the file whole, as an upload's text is counted
/// before its boxes are read in, with the error [`from_json_within`] would
/// give. A file it cannot tell about (not JSON, not a state file) passes:
/// reading it whole says what is wrong with it.
pub fn check_boxes_in(reader: impl std::io::Read, limit: usize) -> Result<(), StateError> {
    let census: Census = match serde_json::from_reader(std::io::BufReader::new(reader)) {
        Ok(census) => census,
        Err(_) => return Ok(()),
    };
    if census.format.as_deref() != Some(FORMAT) {
        return Ok(());
    }
    check_census(census, limit)
}

/// [`check_boxes_in`] of the state file at `path`, read no further than
/// [`crate::fsutil::MAX_FILE_BYTES`]; a file that cannot be opened, or is
/// not a regular file, passes (reading it whole says why).
pub fn check_boxes_in_file(path: &std::path::Path, limit: usize) -> Result<(), StateError> {
    match crate::fsutil::open_regular(path) {
        Ok(file) => check_boxes_in(std::io::Read::take(file, crate::fsutil::MAX_FILE_BYTES + 1), limit),
        Err(_) => Ok(()),
    }
}

fn check_census(census: Census, limit: usize) -> Result<(), StateError> {
    let machines = [
        ("machine", census.machine),
        ("opponent_machine", census.opponent_machine),
    ];
    for (field, machine) in machines {
        if let Some(Counted(n)) = machine.and_then(|m| m.boxes) {
            if n > limit {
                return Err(StateError::OverLimit(over_box_limit(field, n, limit)));
            }
        }
    }
    Ok(())
}

fn over_box_limit(field: &str, boxes: usize, limit: usize) -> FieldError {
    FieldError::new(
        format!("{field}.boxes"),
        format!("{boxes} boxes, more than the {limit} accepted here"),
    )
}

fn read_machine<G: Game>(
    game: &G,
    file: MachineFile,
    field: &str,
    limits: ReadLimits,
) -> Result<Machine<G>, StateError> {
    if file.boxes.len() > limits.boxes {
        return Err(StateError::OverLimit(over_box_limit(
            field,
            file.boxes.len(),
            limits.boxes,
        )));
    }
    let machine = read_boxes(game, file, field)?;
    if machine.is_enumerated() {
        let boxes = machine.boxes();
        let side = machine.side();
        let settings = machine.settings();
        let symmetry = settings.symmetry;
        let seen: std::collections::HashSet<&G::BoxKey> = boxes.iter().map(|b| &b.key).collect();
        // A machine made up front must hold exactly the boxes of its box set;
        // a set many times larger than the file's boxes cannot match, so the
        // enumeration stops long before it would fill memory.
        let sized = boxes
            .len()
            .saturating_mul(4 * G::Symmetry::ALL.len())
            .saturating_add(10_000);
        let expected =
            crate::machine::boxes::enumerate(game, side, settings.box_set, symmetry, sized.min(limits.enumerate))
                .map_err(|e| StateError::OverLimit(FieldError::new(format!("{field}.enumerated"), e)))?;
        if expected.len() != boxes.len() || expected.iter().any(|b| !seen.contains(&game.box_key(&b.position))) {
            return Err(FieldError::new(format!("{field}.boxes"), format!("{} boxes, but the '{}' box set of this game has {} (set enumerated to false for boxes opened on first visit)",
                boxes.len(),
                settings.box_set.name(),
                expected.len()
            )).into());
        }
    }
    Ok(machine)
}

fn read_boxes<G: Game>(game: &G, file: MachineFile, field: &str) -> Result<Machine<G>, FieldError> {
    let side = game
        .parse_player(&file.side)
        .map_err(|e| FieldError::new(format!("{field}.side"), e))?;
    file.settings
        .validate()
        .map_err(|e| e.within(&format!("{field}.settings")))?;
    let symmetry = file.settings.symmetry;
    let mut seen = std::collections::HashSet::new();
    let mut boxes = Vec::with_capacity(file.boxes.len());
    for (i, b) in file.boxes.into_iter().enumerate() {
        let at = format!("{field}.boxes[{i}]");
        let position = game
            .parse_position(&b.position)
            .map_err(|e| FieldError::new(format!("{at}.position"), e))?;
        // A box is keyed by board and side to move (history a file may carry is dropped).
        let key = game.box_key(&position);
        let position = game.key_position(&key);
        if game.turn(&position) != side {
            return Err(FieldError::new(
                format!("{at}.position"),
                format!("it is not {}'s turn there", file.side),
            ));
        }
        if game.outcome(&position).is_over() {
            return Err(FieldError::new(format!("{at}.position"), "the game is over there"));
        }
        if symmetry && game.canonical(&position).0 != position {
            return Err(FieldError::new(
                format!("{at}.position"),
                format!(
                    "not in canonical form (expected '{}')",
                    game.position_string(&game.canonical(&position).0)
                ),
            ));
        }
        if !seen.insert(position.clone()) {
            return Err(FieldError::new(
                format!("{at}.position"),
                "a second box for the same position",
            ));
        }
        let mut moves = Vec::new();
        let mut beads = Vec::new();
        for (j, (name, n)) in b.beads.into_iter().enumerate() {
            let mv = game
                .parse_move(&position, &name)
                .map_err(|e| FieldError::new(format!("{at}.beads[{j}]"), e))?;
            if moves.contains(&mv) {
                return Err(FieldError::new(
                    format!("{at}.beads[{j}]"),
                    format!("a second colour for move '{name}'"),
                ));
            }
            moves.push(mv);
            beads.push(n);
        }
        if moves.is_empty() {
            return Err(FieldError::new(
                format!("{at}.beads"),
                "a box needs at least one bead colour",
            ));
        }
        // A box holds a colour for every legal move (one per class of moves a
        // symmetry of the position merges), and no other: a missing colour
        // could never be played again.
        let colours = bead_colours(game, &position, symmetry);
        if let Some(j) = moves.iter().position(|m| !colours.contains(m)) {
            return Err(FieldError::new(
                format!("{at}.beads[{j}]"),
                format!(
                    "move '{}' is not a bead colour of this box (its colours: {})",
                    game.move_name(&position, moves[j]),
                    colours
                        .iter()
                        .map(|&m| game.move_name(&position, m))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            ));
        }
        if let Some(&missing) = colours.iter().find(|m| !moves.contains(m)) {
            return Err(FieldError::new(
                format!("{at}.beads"),
                format!(
                    "no colour for the legal move '{}': a box holds one for every move",
                    game.move_name(&position, missing)
                ),
            ));
        }
        boxes.push(MatchBox {
            key,
            own_move: b.own_move.max(1),
            moves: moves.into_boxed_slice(),
            beads: Beads::from(beads),
        });
    }
    Ok(Machine::from_boxes(
        game.clone(),
        side,
        file.settings,
        file.enumerated,
        boxes,
    ))
}

/// The JSON text of a trainer's whole state.
pub fn to_json<G: Game>(t: &Trainer<G>) -> String {
    let file = StateFile {
        format: FORMAT.to_string(),
        game: t.machine().game().spec(),
        games_played: t.games_played(),
        opponent: t.opponent_spec().to_string(),
        seed: t.seed(),
        rng: t.rng().clone(),
        machine: machine_file(t.machine()),
        opponent_machine: t.opponent().machine().map(machine_file),
    };
    file.text()
}

impl StateFile {
    fn text(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// A copy of what a trainer's state file says, taken quickly (the boxes
/// copied, nothing named or written out), to write out as [`to_json`]
/// would later, holding nothing of the trainer's: a server takes it under
/// a session's lock and writes the text after letting go.
pub struct Frozen<G: Game> {
    games_played: u64,
    opponent: String,
    seed: Option<u64>,
    rng: ChaCha8Rng,
    machine: FrozenMachine<G>,
    opponent_machine: Option<FrozenMachine<G>>,
}

struct FrozenMachine<G: Game> {
    game: G,
    side: Player,
    settings: MachineSettings,
    enumerated: bool,
    boxes: Vec<MatchBox<G>>,
}

impl<G: Game> FrozenMachine<G> {
    fn of(m: &Machine<G>) -> FrozenMachine<G> {
        FrozenMachine {
            game: m.game().clone(),
            side: m.side(),
            settings: m.settings().clone(),
            enumerated: m.is_enumerated(),
            boxes: m.boxes().to_vec(),
        }
    }

    fn file(&self) -> MachineFile {
        machine_file_of(&self.game, self.side, &self.settings, self.enumerated, &self.boxes)
    }
}

/// The trainer's state as it is now, to write out later ([`Frozen::to_json`]).
pub fn freeze<G: Game>(t: &Trainer<G>) -> Frozen<G> {
    Frozen {
        games_played: t.games_played(),
        opponent: t.opponent_spec().to_string(),
        seed: t.seed(),
        rng: t.rng().clone(),
        machine: FrozenMachine::of(t.machine()),
        opponent_machine: t.opponent().machine().map(FrozenMachine::of),
    }
}

impl<G: Game> Frozen<G> {
    /// The text [`to_json`] gave for the trainer when it was frozen.
    pub fn to_json(&self) -> String {
        StateFile {
            format: FORMAT.to_string(),
            game: self.machine.game.spec(),
            games_played: self.games_played,
            opponent: self.opponent.clone(),
            seed: self.seed,
            rng: self.rng.clone(),
            machine: self.machine.file(),
            opponent_machine: self.opponent_machine.as_ref().map(FrozenMachine::file),
        }
        .text()
    }
}

/// Rebuild a trainer from state-file text for `game`. Errors name the field.
pub fn from_json<G: Game>(game: &G, text: &str) -> Result<Trainer<G>, StateError> {
    from_json_within(game, text, ReadLimits::default())
}

/// [`from_json`] within `limits` (a server's, for files from anyone).
pub fn from_json_within<G: Game>(game: &G, text: &str, limits: ReadLimits) -> Result<Trainer<G>, StateError> {
    let spec = peek_game(text)?;
    if spec != game.spec() {
        let reason = format!("the file is for '{spec}', not '{}'", game.spec());
        return Err(FieldError::new("game", reason).into());
    }
    if limits.boxes < usize::MAX {
        count_boxes(text, limits.boxes)?;
    }
    let file: StateFile = serde_json::from_str(text)?;
    let opponent_spec = OpponentSpec::parse(&file.opponent).map_err(|e| FieldError::new("opponent", e))?;
    let machine = read_machine(game, file.machine, "machine", limits)?;
    // The opponent as saved, or `None` for one made afresh from its name.
    let saved = match (file.opponent_machine, &opponent_spec) {
        (Some(m), OpponentSpec::Menace(_)) => {
            let opponent = read_machine(game, m, "opponent_machine", limits)?;
            Some(Opponent::Menace(Box::new(opponent)))
        }
        (None, OpponentSpec::Menace(_)) => {
            return Err(FieldError::new("opponent_machine", "missing for opponent menace").into())
        }
        (Some(_), _) => {
            let reason = format!("only for opponent menace, not {opponent_spec}");
            return Err(FieldError::new("opponent_machine", reason).into());
        }
        (None, _) if !limits.make_opponent => Some(Opponent::Human),
        (None, _) => None,
    };
    let mut trainer = match saved {
        Some(opponent) => Trainer::resume(machine, opponent, opponent_spec, file.rng, file.games_played),
        None => Trainer::against(machine, opponent_spec, file.rng, file.games_played)
            .map_err(|e| FieldError::new("opponent", e))?,
    };
    trainer.set_seed(file.seed);
    Ok(trainer)
}
