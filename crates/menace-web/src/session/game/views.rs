//! What the page is shown of a game session, as typed records: the session
//! keeps these (the box last drawn from, the beads a game changed, the
//! curves' points, a watched game's boards), and its view is made of them
//! and the machine when it is read. Each serializes to the JSON the page
//! reads, field for field.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value as Json;

use menace_core::training::trainer::ExactPair;

/// A record as JSON (a plain tree of strings, numbers and lists: it always serializes).
pub(super) fn to_json(record: &impl Serialize) -> Json {
    serde_json::to_value(record).unwrap_or(Json::Null)
}

/// Wins, draws and losses of the machine.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(super) struct Score {
    pub(super) wins: u64,
    pub(super) draws: u64,
    pub(super) losses: u64,
}

/// A bead colour of a box the machine drew from, on the real board.
#[derive(Clone, Debug, Serialize)]
pub(super) struct DrawnBead {
    #[serde(rename = "move")]
    pub(super) mv: String,
    pub(super) beads: u32,
    pub(super) colour: String,
    pub(super) css: &'static str,
    pub(super) drawn: bool,
}

/// The box the machine drew a move from, as it stood on the board.
#[derive(Clone, Debug, Serialize)]
pub(super) struct BoxDrawn {
    /// From 1.
    #[serde(rename = "box")]
    pub(super) number: u32,
    pub(super) own_move: u32,
    pub(super) moment: String,
    #[serde(rename = "move")]
    pub(super) mv: String,
    pub(super) mirrored: bool,
    pub(super) mirror_note: Option<String>,
    pub(super) position: String,
    pub(super) svg: String,
    pub(super) beads: Vec<DrawnBead>,
}

/// A move of the machine's: from a box, or without one.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub(super) enum Draw {
    Boxed(BoxDrawn),
    Boxless {
        /// Always none: no box.
        #[serde(rename = "box")]
        number: Option<u32>,
        #[serde(rename = "move")]
        mv: String,
        note: String,
    },
}

/// Beads a game added to or took from one colour of one box.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Change {
    /// From 1.
    #[serde(rename = "box")]
    pub(super) number: u32,
    pub(super) own_move: u32,
    pub(super) moment: Option<String>,
    pub(super) position: String,
    #[serde(rename = "move")]
    pub(super) mv: String,
    pub(super) mirrored: bool,
    pub(super) mirror_note: Option<String>,
    pub(super) colour: String,
    pub(super) css: &'static str,
    pub(super) before: u32,
    pub(super) after: u32,
    pub(super) svg: String,
}

/// A point of the curves: the game, and each metric known there.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Point {
    pub(super) game: u64,
    /// Whom the machine played that game (`human`, `random`, `perfect`...);
    /// empty at game 0, before any.
    pub(super) opponent: String,
    #[serde(flatten)]
    pub(super) metrics: BTreeMap<&'static str, f64>,
}

/// The curves so far.
#[derive(Debug, Serialize)]
pub(super) struct Curves<'a> {
    pub(super) window: usize,
    pub(super) games_played: u64,
    /// The machine's wins, draws and losses so far, for the counters a
    /// page shows while training runs.
    pub(super) score: Score,
    pub(super) points: &'a [Point],
}

/// A move of a watched game, with the board after it.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Frame {
    pub(super) mover: String,
    #[serde(rename = "move")]
    pub(super) mv: String,
    pub(super) ply: usize,
    pub(super) board: String,
    pub(super) draw: Option<Draw>,
}

/// A watched game over (or stopped): its moves and its result.
#[derive(Debug, Serialize)]
pub(super) struct WatchedGame {
    pub(super) steps: Vec<Frame>,
    pub(super) result: String,
    pub(super) plies: usize,
    /// Said only of a game stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) stopped: Option<bool>,
}

/// A move the person may make, and its cells on the board.
#[derive(Debug, Serialize)]
pub(super) struct MoveShown {
    pub(super) name: String,
    pub(super) from: Option<usize>,
    pub(super) to: Option<usize>,
}

/// The board the person plays on.
#[derive(Debug, Serialize)]
pub(super) struct BoardView<'a> {
    pub(super) svg: String,
    pub(super) position: String,
    pub(super) moves: Vec<MoveShown>,
    pub(super) to_move: &'static str,
    pub(super) over: bool,
    pub(super) result: Option<String>,
    pub(super) history: &'a [String],
    pub(super) person_moves: usize,
    pub(super) turned: bool,
}

/// Everything the page shows of a session.
#[derive(Debug, Serialize)]
pub(super) struct SessionView<'a> {
    pub(super) game: String,
    pub(super) machine: &'static str,
    pub(super) machine_side: &'static str,
    pub(super) person_side: &'static str,
    pub(super) players: [&'static str; 2],
    /// Whether the game can end in a draw (Hexapawn cannot): the page
    /// charts and scores no draws for one that cannot.
    pub(super) can_draw: bool,
    pub(super) colours: [&'static str; 2],
    pub(super) settings: String,
    #[serde(serialize_with = "crate::session::seed::serialize")]
    pub(super) seed: Option<u64>,
    pub(super) games_played: u64,
    pub(super) score: Score,
    pub(super) against_person: Score,
    pub(super) boxes: usize,
    pub(super) beads: u64,
    pub(super) exact: Option<ExactPair>,
    pub(super) trained_against: Option<String>,
    pub(super) board: BoardView<'a>,
    pub(super) symmetry_note: Option<String>,
    /// The boxes of the second machine it trained against, if any.
    /// Referee for a real machine: its beads are given by a person.
    pub(super) referee: bool,
    /// The box a person is to draw the machine's bead from, if one is waited for.
    pub(super) awaiting_bead: Option<BoxDrawn>,
    pub(super) second_machine_boxes: Option<usize>,
    pub(super) rules: RulesView,
    pub(super) last_draw: Option<&'a Draw>,
    pub(super) last_changes: &'a [Change],
    pub(super) message: Option<&'a str>,
}

/// The game's rules and what the machine does, in words for the page.
#[derive(Debug, Serialize)]
pub(super) struct RulesView {
    pub(super) title: String,
    pub(super) rules: Vec<String>,
    /// Written from the machine's own settings.
    pub(super) machine: Vec<String>,
}

/// A bead colour of a box listed.
#[derive(Debug, Serialize)]
pub(super) struct ListedBead {
    #[serde(rename = "move")]
    pub(super) mv: String,
    pub(super) beads: u32,
    pub(super) colour: String,
    pub(super) css: &'static str,
}

/// A box listed, drawn with its beads.
#[derive(Debug, Serialize)]
pub(super) struct BoxCard {
    /// From 1.
    #[serde(rename = "box")]
    pub(super) number: usize,
    pub(super) own_move: u32,
    pub(super) position: String,
    pub(super) svg: String,
    pub(super) beads: Vec<ListedBead>,
    pub(super) in_last_game: bool,
    pub(super) changed: bool,
}

/// How many boxes serve one of the machine's moves.
#[derive(Debug, Serialize)]
pub(super) struct MoveBoxes {
    pub(super) own_move: u32,
    pub(super) boxes: usize,
}

/// A page of the machine's boxes, and those of the last game.
#[derive(Debug, Serialize)]
pub(super) struct BoxesPage {
    pub(super) game: String,
    pub(super) machine: String,
    pub(super) side: &'static str,
    pub(super) total: usize,
    pub(super) matched: usize,
    pub(super) page: usize,
    pub(super) pages: usize,
    pub(super) per_page: usize,
    pub(super) moves: Vec<MoveBoxes>,
    pub(super) last_game: Vec<BoxCard>,
    pub(super) boxes: Vec<BoxCard>,
}
