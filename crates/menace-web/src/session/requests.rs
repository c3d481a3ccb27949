//! What a page asks of a session, as the JSON bodies and queries it sends.

use serde::Deserialize;

/// What a page asks for to make a machine: a game spec, the machine's side,
/// a preset, and settings that change it; all optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewMachine {
    /// The game spec (`hexapawn`), or the default game.
    pub game: Option<String>,
    /// The side the machine plays (`first` or `second`).
    pub side: Option<String>,
    /// A preset machine (`her`, `menace`).
    pub preset: Option<String>,
    /// The bead schedule, overriding the preset's.
    pub beads: Option<String>,
    /// The reinforcement scheme, overriding the preset's.
    pub reinforcement: Option<String>,
    /// The empty-box rule, overriding the preset's.
    pub empty_box: Option<String>,
    /// The box set, overriding the preset's.
    pub box_set: Option<String>,
    /// The seed of the machine's random stream (a number, or a string of
    /// digits: a page's numbers round those above 2^53).
    #[serde(default, with = "crate::session::seed")]
    pub seed: Option<u64>,
}

/// A training request: an opponent and a number of games; `discard` says
/// the person's game in progress may be dropped.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainRequest {
    /// The opponent to train against (`random`, `perfect`, ...).
    pub opponent: String,
    /// How many games to train.
    pub games: u64,
    #[serde(default)]
    /// Whether the person's game in progress may be dropped.
    pub discard: bool,
}

/// A request to watch one game against an opponent: `frames` asks for the
/// board after every move (a slow watch shows them one by one); `discard`
/// as for training.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchRequest {
    /// The opponent to watch the machine play.
    pub opponent: String,
    #[serde(default)]
    /// Whether to send the board after every move.
    pub frames: bool,
    #[serde(default)]
    /// Whether the person's game in progress may be dropped.
    pub discard: bool,
}

/// Which boxes a page lists: a page of them, of one move of the machine's,
/// or those whose position string contains some text.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxQuery {
    /// From 1.
    pub page: Option<usize>,
    /// Boxes a page.
    pub per_page: Option<usize>,
    /// The machine's own move number (1 = its first move).
    pub own_move: Option<u32>,
    /// Text the box's position string contains.
    pub find: Option<String>,
    /// Whose boxes: `first` (the tab's machine, the default) or `second`
    /// (the second machine it trained against).
    pub machine: Option<String>,
}

/// A move the person plays, in notation.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    /// The move, in the game's notation.
    pub text: String,
}

/// The bead drawn from a real box: its colour's name, or null for an
/// empty box (said outright: a request without `colour` is refused).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeadRequest {
    #[serde(deserialize_with = "said_outright")]
    /// The colour's name, or none: the box was empty.
    pub colour: Option<String>,
}

/// An `Option` that must be given, `null` or not.
fn said_outright<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Deserialize::deserialize(d)
}

/// Refereeing on or off.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefereeRequest {
    /// On (the person gives the machine's beads) or off.
    pub on: bool,
}
