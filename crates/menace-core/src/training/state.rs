//! A machine's whole state as JSON: settings, game spec, every box with its
//! beads, games played, the random stream, and a learning opponent's boxes.

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::game::Game;
use crate::machine::settings::MachineSettings;
use crate::machine::Machine;
use crate::training::opponent::{Opponent, OpponentSpec};
use crate::training::trainer::Trainer;

mod read;

use read::{over_box_limit, BoxFile};
pub use read::{ReadLimits, StateError};

/// The format tag written into every state file.
pub const FORMAT: &str = "menace-state/1";

/// The file as written ([`read`] reads it back, checking as it goes).
#[derive(Serialize)]
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

#[derive(Serialize)]
struct MachineFile {
    side: String,
    settings: MachineSettings,
    enumerated: bool,
    boxes: Vec<BoxFile>,
}

/// Only the fields needed to tell which game a state file is for.
#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    game: Option<String>,
}

/// The game spec a state file is for, read before the rest (to pick the game type).
pub fn peek_game(text: &str) -> Result<String, StateError> {
    header_game(serde_json::from_str(text)?)
}

fn header_game(header: Header) -> Result<String, StateError> {
    if header.format.as_deref() != Some(FORMAT) {
        return Err(FieldError::new("format", format!("expected \"{FORMAT}\"")).into());
    }
    header.game.ok_or_else(|| FieldError::new("game", "missing").into())
}

fn machine_file<G: Game>(m: &Machine<G>) -> MachineFile {
    let (game, settings) = (m.game(), m.settings());
    MachineFile {
        side: game.player_name(m.side()).to_ascii_lowercase(),
        settings: settings.clone(),
        enumerated: m.is_enumerated(),
        boxes: m
            .boxes()
            .iter()
            .map(|b| {
                let position = b.position(game);
                BoxFile {
                    position: game.position_string(&position),
                    own_move: b.own_move,
                    beads: b
                        .moves(game, settings.symmetry)
                        .into_iter()
                        .zip(b.beads.iter())
                        .map(|(mv, n)| (game.move_name(&position, mv), n))
                        .collect(),
                }
            })
            .collect(),
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

/// A machine as it stood, to be written apart: a copy of it (its boxes
/// are three runs of memory, copied in one go each).
struct FrozenMachine<G: Game>(Machine<G>);

impl<G: Game> FrozenMachine<G> {
    fn of(m: &Machine<G>) -> FrozenMachine<G> {
        FrozenMachine(m.clone())
    }

    fn file(&self) -> MachineFile {
        machine_file(&self.0)
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
            game: self.machine.0.game().spec(),
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
    check_spec(game, peek_game(text)?)?;
    if limits.boxes < usize::MAX {
        count_boxes(text, limits.boxes)?;
    }
    trainer_of(
        read::read(game, limits, serde_json::Deserializer::from_str(text))?,
        limits,
    )
}

/// [`from_json_within`] of a state file read from `reader` as a stream,
/// never held whole: the header is read first (which game), then from the
/// start again the machines, each box checked as it arrives, so a file
/// is refused at its first bad box, and a file read costs about the
/// machine it holds (the command line's `--resume` and `--state`).
pub fn from_reader_within<G: Game, R: std::io::Read + std::io::Seek>(
    game: &G,
    mut reader: R,
    limits: ReadLimits,
) -> Result<Trainer<G>, StateError> {
    let header: Header = serde_json::from_reader(std::io::BufReader::new(&mut reader))?;
    check_spec(game, header_game(header)?)?;
    reader
        .seek(std::io::SeekFrom::Start(0))
        .map_err(serde_json::Error::io)?;
    if limits.boxes < usize::MAX {
        check_boxes_in(&mut reader, limits.boxes)?;
        reader
            .seek(std::io::SeekFrom::Start(0))
            .map_err(serde_json::Error::io)?;
    }
    let de = serde_json::Deserializer::from_reader(std::io::BufReader::new(reader));
    trainer_of(read::read(game, limits, de)?, limits)
}

fn check_spec<G: Game>(game: &G, spec: String) -> Result<(), StateError> {
    if spec != game.spec() {
        let reason = format!("the file is for '{spec}', not '{}'", game.spec());
        return Err(FieldError::new("game", reason).into());
    }
    Ok(())
}

/// The trainer a state file read by [`read::read`] makes.
fn trainer_of<G: Game>(file: read::Read<G>, limits: ReadLimits) -> Result<Trainer<G>, StateError> {
    let opponent_spec = OpponentSpec::parse(&file.opponent).map_err(|e| FieldError::new("opponent", e))?;
    let machine = file.machine;
    // The opponent as saved, or `None` for one made afresh from its name.
    let saved = match (file.opponent_machine, &opponent_spec) {
        (Some(Some(opponent)), OpponentSpec::Menace(_)) => Some(Opponent::Menace(Box::new(opponent))),
        (None | Some(None), OpponentSpec::Menace(_)) => {
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
