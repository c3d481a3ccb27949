//! What a page asks of a session, as the JSON bodies and queries it sends.

use serde::Deserialize;

/// What a page asks for to make a machine: a game spec, the machine's side,
/// a preset, and settings that change it; all optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewMachine {
    pub game: Option<String>,
    pub side: Option<String>,
    pub preset: Option<String>,
    pub beads: Option<String>,
    pub reinforcement: Option<String>,
    pub empty_box: Option<String>,
    pub box_set: Option<String>,
    pub seed: Option<u64>,
}

/// A training request: an opponent and a number of games; `discard` says
/// the person's game in progress may be dropped.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainRequest {
    pub opponent: String,
    pub games: u64,
    #[serde(default)]
    pub discard: bool,
}

/// A request to watch one game against an opponent: `frames` asks for the
/// board after every move (a slow watch shows them one by one); `discard`
/// as for training.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchRequest {
    pub opponent: String,
    #[serde(default)]
    pub frames: bool,
    #[serde(default)]
    pub discard: bool,
}

/// Which boxes a page lists: a page of them, of one move of the machine's,
/// or those whose position string contains some text.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxQuery {
    /// From 1.
    pub page: Option<usize>,
    pub per_page: Option<usize>,
    /// The machine's own move number (1 = its first move).
    pub own_move: Option<u32>,
    /// Text the box's position string contains.
    pub find: Option<String>,
}

/// A move the person plays, in notation.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    pub text: String,
}
