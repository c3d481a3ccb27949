//! Reading a state file's machines as the file is parsed: each box is
//! checked as it arrives and goes straight into the machine, so a file is
//! refused at its first bad or repeated box, and no list of the file's raw
//! boxes (nor the file's text, for a reader) is held beside the machine.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use rand_chacha::ChaCha8Rng;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::error::FieldError;
use crate::game::{Game, Player};
use crate::machine::beads::Beads;
use crate::machine::settings::MachineSettings;
use crate::machine::{bead_colours, Machine, MatchBox};
use crate::symmetry::Symmetry;
use crate::training::opponent::OpponentSpec;
use serde::{Deserialize, Serialize};

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

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BoxFile {
    pub(super) position: String,
    pub(super) own_move: u32,
    pub(super) beads: Vec<(String, u32)>,
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
    /// Make the opponent the file names (false:
    /// [`Opponent::Human`](crate::training::opponent::Opponent::Human)
    /// stands in for any but a learning one, whose boxes are in the file).
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

pub(super) fn over_box_limit(field: &str, boxes: usize, limit: usize) -> FieldError {
    FieldError::new(
        format!("{field}.boxes"),
        format!("{boxes} boxes, more than the {limit} accepted here"),
    )
}

/// What a state file holds, its machines read and checked.
pub(super) struct Read<G: Game> {
    pub games_played: u64,
    pub opponent: String,
    pub seed: Option<u64>,
    pub rng: ChaCha8Rng,
    pub machine: Machine<G>,
    /// The learning opponent's boxes: `Some(None)` when the file has them
    /// but its opponent is not a learning one (they were skipped unread).
    pub opponent_machine: Option<Option<Machine<G>>>,
}

/// The game, the limits, and the first refusal met (serde's own error
/// only stops the parse; this is the error the reader gives).
struct Ctx<'a, G: Game> {
    game: &'a G,
    limits: ReadLimits,
    failed: RefCell<Option<StateError>>,
}

impl<G: Game> Ctx<'_, G> {
    fn fail<E: de::Error>(&self, e: impl Into<StateError>) -> E {
        *self.failed.borrow_mut() = Some(e.into());
        E::custom("refused")
    }
}

/// Read a whole state file from `de` for `game` within `limits`.
pub(super) fn read<'de, G: Game, R: serde_json::de::Read<'de>>(
    game: &G,
    limits: ReadLimits,
    mut de: serde_json::Deserializer<R>,
) -> Result<Read<G>, StateError> {
    let ctx = Ctx {
        game,
        limits,
        failed: RefCell::new(None),
    };
    let read = StateSeed(&ctx).deserialize(&mut de).and_then(|r| de.end().map(|()| r));
    read.map_err(|e| ctx.failed.take().unwrap_or(StateError::Json(e)))
}

const STATE_FIELDS: &[&str] = &[
    "format",
    "game",
    "games_played",
    "opponent",
    "seed",
    "rng",
    "machine",
    "opponent_machine",
];
const MACHINE_FIELDS: &[&str] = &["side", "settings", "enumerated", "boxes"];

fn once<T, E: de::Error>(slot: &mut Option<T>, field: &'static str, value: T) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(field));
    }
    *slot = Some(value);
    Ok(())
}

struct StateSeed<'c, 'a, G: Game>(&'c Ctx<'a, G>);

impl<'de, G: Game> DeserializeSeed<'de> for StateSeed<'_, '_, G> {
    type Value = Read<G>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Read<G>, D::Error> {
        d.deserialize_struct("StateFile", STATE_FIELDS, self)
    }
}

impl<'de, G: Game> Visitor<'de> for StateSeed<'_, '_, G> {
    type Value = Read<G>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct StateFile")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read<G>, A::Error> {
        let (mut format, mut game, mut games_played, mut opponent) = (None, None, None, None::<String>);
        let (mut seed, mut rng, mut machine, mut opponent_machine) = (None, None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "format" => once(&mut format, "format", map.next_value::<String>()?)?,
                "game" => once(&mut game, "game", map.next_value::<String>()?)?,
                "games_played" => once(&mut games_played, "games_played", map.next_value::<u64>()?)?,
                "opponent" => once(&mut opponent, "opponent", map.next_value::<String>()?)?,
                "seed" => once(&mut seed, "seed", map.next_value::<Option<u64>>()?)?,
                "rng" => once(&mut rng, "rng", map.next_value::<ChaCha8Rng>()?)?,
                "machine" => {
                    let m = map.next_value_seed(MachineSeed(self.0, "machine"))?;
                    once(&mut machine, "machine", m)?
                }
                "opponent_machine" => {
                    // The boxes of an opponent that does not learn are an
                    // error of their own, whatever they hold: not read.
                    let learns = opponent.as_deref().map(OpponentSpec::parse);
                    let m = match learns {
                        Some(Ok(OpponentSpec::Menace(_))) | None | Some(Err(_)) => {
                            map.next_value_seed(Optional(MachineSeed(self.0, "opponent_machine")))?
                        }
                        Some(Ok(_)) => map.next_value::<Option<IgnoredAny>>()?.map(|_| None),
                    };
                    once(&mut opponent_machine, "opponent_machine", m)?
                }
                other => return Err(de::Error::unknown_field(other, STATE_FIELDS)),
            }
        }
        // Both read by the header first, checked there.
        format.ok_or_else(|| de::Error::missing_field("format"))?;
        game.ok_or_else(|| de::Error::missing_field("game"))?;
        Ok(Read {
            games_played: games_played.ok_or_else(|| de::Error::missing_field("games_played"))?,
            opponent: opponent.ok_or_else(|| de::Error::missing_field("opponent"))?,
            seed: seed.flatten(),
            rng: rng.ok_or_else(|| de::Error::missing_field("rng"))?,
            machine: machine.ok_or_else(|| de::Error::missing_field("machine"))?,
            opponent_machine: opponent_machine.flatten(),
        })
    }
}

/// A machine's value or `null`.
struct Optional<'c, 'a, G: Game>(MachineSeed<'c, 'a, G>);

impl<'de, G: Game> DeserializeSeed<'de> for Optional<'_, '_, G> {
    type Value = Option<Option<Machine<G>>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de, G: Game> Visitor<'de> for Optional<'_, '_, G> {
    type Value = Option<Option<Machine<G>>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("option")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(d).map(|m| Some(Some(m)))
    }
}

struct MachineSeed<'c, 'a, G: Game>(&'c Ctx<'a, G>, &'static str);

impl<'de, G: Game> DeserializeSeed<'de> for MachineSeed<'_, '_, G> {
    type Value = Machine<G>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Machine<G>, D::Error> {
        d.deserialize_struct("MachineFile", MACHINE_FIELDS, self)
    }
}

/// A machine's boxes as the file gave them: checked as they came, or, in a
/// file that names the side or settings only after them, kept to check then.
enum Boxes<G: Game> {
    Checked(Vec<MatchBox<G>>),
    Raw(Vec<BoxFile>),
}

impl<'de, G: Game> Visitor<'de> for MachineSeed<'_, '_, G> {
    type Value = Machine<G>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct MachineFile")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Machine<G>, A::Error> {
        let (ctx, field) = (self.0, self.1);
        let (mut side, mut settings, mut enumerated, mut boxes) = (None::<String>, None::<MachineSettings>, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "side" => once(&mut side, "side", map.next_value()?)?,
                "settings" => once(&mut settings, "settings", map.next_value()?)?,
                "enumerated" => once(&mut enumerated, "enumerated", map.next_value::<bool>()?)?,
                "boxes" => {
                    if boxes.is_some() {
                        return Err(de::Error::duplicate_field("boxes"));
                    }
                    boxes = Some(match (&side, &settings) {
                        (Some(side), Some(settings)) => {
                            let checker = Checker::new(ctx.game, side, settings, field).map_err(|e| ctx.fail(e))?;
                            Boxes::Checked(map.next_value_seed(BoxesSeed(ctx, checker))?)
                        }
                        _ => Boxes::Raw(map.next_value()?),
                    });
                }
                other => return Err(de::Error::unknown_field(other, MACHINE_FIELDS)),
            }
        }
        let side = side.ok_or_else(|| de::Error::missing_field("side"))?;
        let settings = settings.ok_or_else(|| de::Error::missing_field("settings"))?;
        let enumerated = enumerated.ok_or_else(|| de::Error::missing_field("enumerated"))?;
        let boxes = match boxes.ok_or_else(|| de::Error::missing_field("boxes"))? {
            Boxes::Checked(boxes) => boxes,
            Boxes::Raw(raw) => {
                let mut checker = Checker::new(ctx.game, &side, &settings, field).map_err(|e| ctx.fail(e))?;
                for (i, b) in raw.into_iter().enumerate() {
                    checker.add(i, b).map_err(|e| ctx.fail(e))?;
                }
                checker.boxes
            }
        };
        let (game, side) = (ctx.game, game_side(ctx.game, &side));
        let machine = Machine::from_boxes(game.clone(), side, settings, enumerated, boxes);
        check_machine(&machine, field, ctx.limits).map_err(|e| ctx.fail(e))?;
        Ok(machine)
    }
}

/// The side a machine plays, already checked by [`Checker::new`].
fn game_side<G: Game>(game: &G, side: &str) -> Player {
    game.parse_player(side).unwrap_or(Player::One)
}

struct BoxesSeed<'c, 'a, G: Game>(&'c Ctx<'a, G>, Checker<'a, G>);

impl<'de, G: Game> DeserializeSeed<'de> for BoxesSeed<'_, '_, G> {
    type Value = Vec<MatchBox<G>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<MatchBox<G>>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, G: Game> Visitor<'de> for BoxesSeed<'_, '_, G> {
    type Value = Vec<MatchBox<G>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<MatchBox<G>>, A::Error> {
        let (ctx, mut checker) = (self.0, self.1);
        let mut i = 0;
        while let Some(b) = seq.next_element::<BoxFile>()? {
            checker.add(i, b).map_err(|e| ctx.fail(e))?;
            i += 1;
        }
        Ok(checker.boxes)
    }
}

/// The checks of a machine as a whole, once its boxes are in: not more
/// boxes than `limits` take, and an enumerated machine's boxes exactly its
/// box set's.
fn check_machine<G: Game>(machine: &Machine<G>, field: &str, limits: ReadLimits) -> Result<(), StateError> {
    let boxes = machine.boxes();
    if boxes.len() > limits.boxes {
        return Err(StateError::OverLimit(over_box_limit(field, boxes.len(), limits.boxes)));
    }
    if machine.is_enumerated() {
        let game = machine.game();
        let side = machine.side();
        let settings = machine.settings();
        let symmetry = settings.symmetry;
        let seen: HashSet<&G::BoxKey> = boxes.iter().map(|b| b.key).collect();
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
    Ok(())
}

/// The boxes of one machine, each checked as it is added: a valid position
/// for the machine's side, not over, canonical if the machine folds
/// symmetries, not seen before, and a bead colour for every move.
struct Checker<'a, G: Game> {
    game: &'a G,
    field: &'static str,
    side: Player,
    side_name: String,
    symmetry: bool,
    seen: HashSet<G::Position>,
    boxes: Vec<MatchBox<G>>,
}

impl<'a, G: Game> Checker<'a, G> {
    fn new(
        game: &'a G,
        side_name: &str,
        settings: &MachineSettings,
        field: &'static str,
    ) -> Result<Checker<'a, G>, FieldError> {
        let side = game
            .parse_player(side_name)
            .map_err(|e| FieldError::new(format!("{field}.side"), e))?;
        settings
            .validate()
            .map_err(|e| e.within(&format!("{field}.settings")))?;
        Ok(Checker {
            game,
            field,
            side,
            side_name: side_name.to_string(),
            symmetry: settings.symmetry,
            seen: HashSet::new(),
            boxes: Vec::new(),
        })
    }

    fn add(&mut self, i: usize, b: BoxFile) -> Result<(), FieldError> {
        let game = self.game;
        let at = format!("{}.boxes[{i}]", self.field);
        let position = game
            .parse_position(&b.position)
            .map_err(|e| FieldError::new(format!("{at}.position"), e))?;
        // A box is keyed by board and side to move (history a file may carry is dropped).
        let key = game.box_key(&position);
        let position = game.key_position(&key);
        if game.turn(&position) != self.side {
            return Err(FieldError::new(
                format!("{at}.position"),
                format!("it is not {}'s turn there", self.side_name),
            ));
        }
        if game.outcome(&position).is_over() {
            return Err(FieldError::new(format!("{at}.position"), "the game is over there"));
        }
        if self.symmetry && game.canonical(&position).0 != position {
            return Err(FieldError::new(
                format!("{at}.position"),
                format!(
                    "not in canonical form (expected '{}')",
                    game.position_string(&game.canonical(&position).0)
                ),
            ));
        }
        if self.seen.contains(&position) {
            return Err(FieldError::new(
                format!("{at}.position"),
                "a second box for the same position",
            ));
        }
        // A box holds a colour for every legal move (one per class of moves a
        // symmetry of the position merges), and no other: a missing colour
        // could never be played again. The colours are sorted, so each
        // move of the file is found among them by halving.
        let colours = bead_colours(game, &position, self.symmetry);
        let mut beads: Vec<Option<u32>> = vec![None; colours.len()];
        if b.beads.is_empty() {
            return Err(FieldError::new(
                format!("{at}.beads"),
                "a box needs at least one bead colour",
            ));
        }
        for (j, (name, n)) in b.beads.into_iter().enumerate() {
            let mv = game
                .parse_move(&position, &name)
                .map_err(|e| FieldError::new(format!("{at}.beads[{j}]"), e))?;
            let Ok(c) = colours.binary_search(&mv) else {
                return Err(FieldError::new(
                    format!("{at}.beads[{j}]"),
                    format!(
                        "move '{}' is not a bead colour of this box (its colours: {})",
                        game.move_name(&position, mv),
                        colours
                            .iter()
                            .map(|&m| game.move_name(&position, m))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                ));
            };
            if beads[c].replace(n).is_some() {
                return Err(FieldError::new(
                    format!("{at}.beads[{j}]"),
                    format!("a second colour for move '{name}'"),
                ));
            }
        }
        if let Some(c) = beads.iter().position(Option::is_none) {
            return Err(FieldError::new(
                format!("{at}.beads"),
                format!(
                    "no colour for the legal move '{}': a box holds one for every move",
                    game.move_name(&position, colours[c])
                ),
            ));
        }
        self.seen.insert(position);
        // The beads in the order of the box's colours, whatever the file's.
        let beads: Vec<u32> = beads.into_iter().flatten().collect();
        self.boxes.push(MatchBox {
            key,
            own_move: b.own_move.max(1),
            beads: Beads::from(beads),
        });
        Ok(())
    }
}
