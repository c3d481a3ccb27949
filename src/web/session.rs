//! One browser tab's machine: a trainer, the game a person is playing
//! against it through the match driver, the opponent it last trained
//! against, its curves, and what it last did (the box it drew from, the
//! beads a game added or removed), as JSON for the page.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::experiment::curves::{MetricRow, RunningCurves};
use crate::game::{Game, Player};
use crate::machine::boxes::BoxSet;
use crate::machine::settings::{BeadSchedule, EmptyBox, MachineSettings, Reinforcement};
use crate::machine::{BeadChange, GameResult, MatchBox};
use crate::picture::Picture;
use crate::registry::{default_settings, default_side, machine_name, parse_spec, AnyGame};
use crate::symmetry::Symmetry;
use crate::training::driver::{Ending, Match, Mover, Step, Thinking};
use crate::training::opponent::{Opponent, OpponentSpec, PerfectPlayer};
use crate::training::state;
use crate::training::trainer::{make_opponent, GameRecord, Snapshot, Trainer};
use crate::web::svg::{bead_colour, board_svg, box_svg_as, BeadMark, Options};

/// A request a session (or the server) cannot carry out, by kind: the kind
/// decides the HTTP status, the text says what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The request asks for something impossible: an unknown game, an
    /// illegal move, a bad setting (HTTP 400).
    #[error("{0}")]
    Invalid(String),
    /// Not now: no game in progress, or the machine is training (HTTP 409).
    #[error("{0}")]
    NotNow(String),
    /// Well formed, but beyond what this server does for a page: a machine
    /// with too many boxes, a game too large to solve (HTTP 422).
    #[error("{0}")]
    OverLimit(String),
    /// The request is larger than the server reads (HTTP 413).
    #[error("{0}")]
    TooLarge(String),
    /// No such session (HTTP 404).
    #[error("{0}")]
    NotFound(String),
    /// The server is full or stopping: try again later (HTTP 429 or 503).
    #[error("{0}")]
    Busy(String),
    /// A fault of the server's own (HTTP 500).
    #[error("{0}")]
    Internal(String),
}

impl SessionError {
    /// The HTTP status code of this kind of refusal.
    pub fn status(&self) -> u16 {
        match self {
            SessionError::Invalid(_) => 400,
            SessionError::NotNow(_) => 409,
            SessionError::OverLimit(_) => 422,
            SessionError::TooLarge(_) => 413,
            SessionError::NotFound(_) => 404,
            SessionError::Busy(_) => 503,
            SessionError::Internal(_) => 500,
        }
    }

    /// What was wrong, for the page.
    pub fn message(&self) -> &str {
        match self {
            SessionError::Invalid(m)
            | SessionError::NotNow(m)
            | SessionError::OverLimit(m)
            | SessionError::TooLarge(m)
            | SessionError::NotFound(m)
            | SessionError::Busy(m)
            | SessionError::Internal(m) => m,
        }
    }
}

fn invalid(e: impl std::fmt::Display) -> SessionError {
    SessionError::Invalid(e.to_string())
}

fn over_limit(e: impl std::fmt::Display) -> SessionError {
    SessionError::OverLimit(e.to_string())
}

/// Bounds on what one session may hold.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Games one training request may ask for.
    pub max_games: u64,
    /// Boxes a machine may open before training stops (memory).
    pub max_boxes: usize,
    /// Points kept per curve (older ones are thinned out).
    pub curve_points: usize,
    /// Games in the rolling win/draw/loss rates.
    pub window: u64,
    /// The most MCTS playouts a move an opponent may use (time).
    pub max_playouts: u32,
    /// The most positions a perfect opponent's solve may store (time and
    /// memory: about a second and 100 MB at a million).
    pub max_perfect_positions: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_games: 1_000_000,
            max_boxes: 50_000,
            curve_points: 1000,
            window: 20,
            max_playouts: 10_000,
            max_perfect_positions: 1_000_000,
        }
    }
}

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

/// What a slice of training did.
#[derive(Debug)]
pub struct Trained {
    /// Games finished.
    pub games: u64,
    /// Training cannot go on: the machine has all the boxes a page's machine may.
    pub halted: bool,
    /// The opponent's next move, to be chosen apart (a search): think it
    /// without the session's lock, then give it back through [`Session::resume`].
    pub pending: Option<Pending>,
    /// A game is left unfinished, to be resumed by the next slice.
    pub mid_game: bool,
}

/// An opponent's move taken out of a session to be chosen without holding
/// it (a search of many playouts): it owns the opponent and the random
/// stream, so that a session changed or closed meanwhile is never written
/// into (the server checks the session's generation before
/// [`Session::resume`]), and the moves are those played in place.
pub struct Pending(Box<dyn Think>);

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pending")
    }
}

impl Pending {
    /// Choose the move: the slow part, touching nothing of the session's.
    pub fn think(&mut self) {
        self.0.think();
    }

    /// [`Pending::think`] unless `deadline` passes first: whether the move
    /// is chosen. A perfect player's search cut short goes on from where
    /// it was when asked again, and chooses as it would have at once.
    pub fn think_before(&mut self, deadline: Instant) -> bool {
        self.0.think_before(deadline)
    }
}

trait Think: Send {
    fn think(&mut self);
    fn think_before(&mut self, deadline: Instant) -> bool;
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any>;
}

impl<G: Game + 'static> Think for Thinking<G>
where
    Thinking<G>: Send,
{
    fn think(&mut self) {
        Thinking::think(self);
    }
    fn think_before(&mut self, deadline: Instant) -> bool {
        Thinking::think_before(self, deadline)
    }
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

/// Work taken out of a session to be done without its lock: what it needs
/// was copied under the lock (the boxes to draw, the state to write out),
/// and the slow part (drawing, naming, writing, solving) runs after.
pub struct Deferred<T>(Box<dyn FnOnce() -> T + Send>);

impl<T> Deferred<T> {
    fn new(f: impl FnOnce() -> T + Send + 'static) -> Deferred<T> {
        Deferred(Box::new(f))
    }

    /// Do the work.
    pub fn run(self) -> T {
        (self.0)()
    }
}

impl<T> std::fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Deferred")
    }
}

/// An opponent made apart from its session ([`Session::opponent_maker`]),
/// to be handed to [`Session::begin_training`] or [`Session::begin_watch`].
pub struct Made(Box<dyn std::any::Any + Send>);

impl std::fmt::Debug for Made {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Made")
    }
}

/// What the one playing a session's games under its lock (a training
/// run, a watched game) is told: stop, or let go because a request waits
/// for the session; and the moves it played, counted.
#[derive(Debug, Default)]
pub struct Signals {
    /// Set to stop the run or the watched game: checked every move and
    /// every MCTS playout.
    pub cancel: Arc<AtomicBool>,
    /// Requests waiting for the session's lock: the player lets go after
    /// the move it is playing.
    pub waiting: AtomicUsize,
    /// Moves played under the lock by training and watched games, over the
    /// session's life (a game the compiled table plays whole counts one).
    pub moves: AtomicU64,
}

impl Signals {
    /// Whether the run or the watched game is to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Whether to let go of the session now: past `deadline`, or wanted by a request.
    pub fn let_go(&self, deadline: Instant) -> bool {
        self.waiting.load(Ordering::Relaxed) > 0 || Instant::now() >= deadline
    }

    /// A move was played under the lock.
    pub fn moved(&self) {
        self.moves.fetch_add(1, Ordering::Relaxed);
    }
}

/// Whether an opponent's choice is slow enough to make apart from its session.
fn slow(opponent: &Opponent<impl Game>) -> bool {
    match opponent {
        Opponent::Mcts(_) => true,
        Opponent::Perfect { player, .. } => !player.is_exhaustive(),
        _ => false,
    }
}

/// What a step of a watched game did.
#[derive(Debug)]
pub enum Watched {
    /// Moves played; the game goes on.
    More,
    /// The opponent's move is to be chosen apart (see [`Trained::pending`]).
    Pending(Pending),
    /// The game is over: its moves (with boards if asked) and its result.
    Over(Json),
}

/// One tab's machine, whatever its game.
pub trait Session: Send {
    /// The spec of the game the machine plays.
    fn game_spec(&self) -> String;
    /// Everything the page shows, as JSON.
    fn view(&self) -> Json;
    /// Start the next game against the person (the machine moves first if it is to).
    fn new_game(&mut self) -> Result<(), SessionError>;
    /// The person's move, in notation; the machine answers.
    fn play(&mut self, text: &str) -> Result<(), SessionError>;
    /// The person resigns the game in progress.
    fn resign(&mut self) -> Result<(), SessionError>;
    /// The boxes the query asks for (at most `limit` a page), the boxes of
    /// the last game first, each with its position drawn and its beads:
    /// copied now, drawn by [`Deferred::run`] (without the session's lock).
    fn boxes(&self, query: &BoxQuery, limit: usize) -> Deferred<Json>;
    /// Moves the person has made in the game in progress (0: none, or no game).
    fn person_moves(&self) -> usize;
    /// The opponent `spec` names, made by [`Deferred::run`] without the
    /// session's lock (a perfect player's solve takes up to a second);
    /// `None` when the session holds it already.
    fn opponent_maker(&self, spec: &OpponentSpec) -> Option<Deferred<Result<Made, SessionError>>>;
    /// Start a game against `opponent` (`made` apart, or held by the
    /// session) for the page to watch: the person's game in progress is
    /// dropped. It is played by [`Session::watch_step`]; a search opponent
    /// stops searching once `cancel` is set.
    fn begin_watch(
        &mut self,
        opponent: &OpponentSpec,
        made: Option<Made>,
        frames: bool,
        cancel: Arc<AtomicBool>,
    ) -> Result<(), SessionError>;
    /// Play the watched game on, until the move after which `signals` say
    /// to let go (past `deadline`, or a request waits), an opponent's move
    /// to be chosen apart, or its end: then the game's moves (with the
    /// board after each when `frames`) and its result. Once `signals` say
    /// to stop, the game ends unfinished: no beads change, no game counted.
    fn watch_step(&mut self, deadline: Instant, signals: &Signals) -> Watched;
    /// A move chosen apart ([`Trained::pending`], [`Watched::Pending`]),
    /// played in the game it was taken from.
    fn resume(&mut self, pending: Pending);
    /// The curves so far.
    fn curves(&self) -> Json;
    /// The state file, as `menace train --save` writes it: copied now,
    /// written out by [`Deferred::run`].
    fn state(&mut self) -> Deferred<String>;
    /// Refuse an opponent the page cannot make, by estimate (before any solve).
    fn check_opponent(&self, opponent: &OpponentSpec) -> Result<(), SessionError>;
    /// Get ready to train against `opponent` (`made` apart, or held by the
    /// session): the game in progress is dropped. A search opponent stops
    /// searching once `cancel` is set.
    fn begin_training(
        &mut self,
        opponent: &OpponentSpec,
        made: Option<Made>,
        cancel: Arc<AtomicBool>,
    ) -> Result<(), SessionError>;
    /// Train for one slice: finish at most `games` games (of a run of
    /// `total`), stopping after the move after which `signals` say to let
    /// go (past `deadline`, or a request waits), or to stop, or when the
    /// machine has `max_boxes` boxes. A game cut off is resumed by the next slice.
    fn train(&mut self, games: u64, total: u64, deadline: Instant, signals: &Signals) -> Trained;
    /// Training is over: a game left unfinished is dropped (no beads
    /// change), the person is the opponent again, and a new game starts.
    fn end_training(&mut self);
    /// Boxes the machine has.
    fn box_count(&self) -> usize;
    /// Games the machine has played over its life.
    fn games_played(&self) -> u64;
}

/// Make a fresh machine as asked.
pub fn new_session(ask: &NewMachine, limits: Limits) -> Result<Box<dyn Session>, SessionError> {
    let spec = ask.game.as_deref().unwrap_or("hexapawn");
    let any = parse_spec(spec).map_err(invalid)?;
    let settings = settings_for(&any, ask)?;
    let side_default = default_side(&any);
    let name = machine_name(&any);
    let seed = ask.seed.unwrap_or_else(rand::random);
    with_game!(any, g => {
        let side = match ask.side.as_deref() {
            Some(s) => g.parse_player(s).map_err(invalid)?,
            None => side_default,
        };
        let trainer = Trainer::new(g, side, settings, OpponentSpec::Human, seed).map_err(invalid)?;
        Ok(Box::new(GameSession::new(trainer, None, name, limits)) as Box<dyn Session>)
    })
}

/// A machine from a state file's text (as `menace train --save` writes it).
pub fn load_session(text: &str, limits: Limits) -> Result<Box<dyn Session>, SessionError> {
    let spec = state::peek_game(text).map_err(|e| invalid(format!("state file: {e}")))?;
    let any = parse_spec(&spec).map_err(|e| invalid(format!("state file: game: {e}")))?;
    let name = machine_name(&any);
    let read = state::ReadLimits {
        enumerate: limits.max_boxes.saturating_mul(40),
        // Training stops at `max_boxes`, after a game that may have opened a
        // few more: what a page's machine downloads as, it uploads as.
        boxes: limits.max_boxes.saturating_add(limits.max_boxes / 10),
        // A perfect opponent is solved when the machine trains against it, within the page's limits.
        make_opponent: false,
    };
    with_game!(any, g => {
        let mut trainer = state::from_json_within(&g, text, read).map_err(|e| match e {
            state::StateError::OverLimit(f) => over_limit(format!("state file: {f}")),
            e => invalid(format!("state file: {e}")),
        })?;
        let parked = match trainer.opponent_spec() {
            OpponentSpec::Human => None,
            _ => {
                let (spec, opponent) = trainer.set_opponent(OpponentSpec::Human, Opponent::Human);
                Some((spec, (!matches!(opponent, Opponent::Human)).then_some(opponent)))
            }
        };
        Ok(Box::new(GameSession::new(trainer, parked, name, limits)) as Box<dyn Session>)
    })
}

fn settings_for(any: &AnyGame, ask: &NewMachine) -> Result<MachineSettings, SessionError> {
    let mut s = match ask.preset.as_deref() {
        None | Some("") => default_settings(any),
        Some(name) => {
            let mut s = MachineSettings::preset(name).map_err(invalid)?;
            s.box_mode = default_settings(any).box_mode;
            s
        }
    };
    let given = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    };
    if let Some(b) = given(&ask.beads) {
        s.beads = BeadSchedule::parse(&b).map_err(invalid)?;
    }
    if let Some(r) = given(&ask.reinforcement) {
        s.reinforcement = Reinforcement::parse(&r).map_err(invalid)?;
    }
    if let Some(e) = given(&ask.empty_box) {
        s.empty_box = EmptyBox::parse(&e).map_err(invalid)?;
    }
    if let Some(b) = given(&ask.box_set) {
        s.box_set = BoxSet::parse(&b).map_err(invalid)?;
    }
    Ok(s)
}

/// Read an opponent for the page: `human` is the page itself, and MCTS is
/// kept to a number of playouts that answers quickly.
pub fn parse_opponent(text: &str, limits: Limits) -> Result<OpponentSpec, SessionError> {
    let spec = OpponentSpec::parse(text).map_err(invalid)?;
    match spec {
        OpponentSpec::Human => Err(invalid(format!(
            "opponent '{text}': you are the human opponent; train against random, perfect, perfect:P, menace or mcts:N"
        ))),
        OpponentSpec::Mcts { playouts, .. } if playouts > limits.max_playouts => Err(invalid(format!(
            "opponent '{text}': at most {} playouts a move on this page",
            limits.max_playouts
        ))),
        spec => Ok(spec),
    }
}

fn perfect_too_large(spec: &OpponentSpec, e: impl std::fmt::Display) -> SessionError {
    over_limit(format!(
        "opponent '{spec}' needs the game solved, but {e} on this page: train against mcts:N instead"
    ))
}

/// The opponent `spec` names for a machine of `game` playing `side` with
/// `settings`, within the page's `limits`: a perfect player's solve stores
/// at most `max_perfect_positions` positions.
fn opponent_for<G: Game>(
    game: &G,
    side: Player,
    settings: &MachineSettings,
    limits: Limits,
    spec: &OpponentSpec,
) -> Result<Opponent<G>, SessionError> {
    match spec {
        OpponentSpec::Perfect(p) => {
            // The whole game solved where it fits, else the game's shared
            // position solver (Hex up to 6×6): its searches stop on the
            // session's cancel and are thought a slice at a time off the
            // lock, and its table is one for all tabs playing the game. Not
            // a game's own position solver (Hexapawn's table is 128 MiB an
            // opponent).
            let player = match PerfectPlayer::exhaustive_with_limit(game.clone(), limits.max_perfect_positions) {
                Ok(player) => player,
                Err(e) => PerfectPlayer::on_demand(
                    game.shared_position_solver()
                        .ok_or_else(|| perfect_too_large(spec, e))?,
                ),
            };
            Ok(Opponent::Perfect {
                p: *p,
                player: Box::new(player),
            })
        }
        spec => make_opponent(game, spec, side, settings).map_err(over_limit),
    }
}

/// A box copied out of a machine to be drawn for the boxes list.
struct Listed<G: Game> {
    index: usize,
    b: MatchBox<G>,
    in_last_game: bool,
    changed: bool,
}

/// A box the machine drew from in the game last played: the real position,
/// the symmetry that maps it to the box, and the ply of the game (from 1).
struct Drawn<G: Game> {
    index: u32,
    pos: G::Position,
    sym: G::Symmetry,
    ply: usize,
}

/// A finished game shown until the next starts.
struct Finished<G: Game> {
    pos: G::Position,
    last: Option<G::Move>,
    result: String,
}

/// Wins, draws and losses of the machine.
#[derive(Clone, Copy, Default)]
struct Score {
    wins: u64,
    draws: u64,
    losses: u64,
}

impl Score {
    fn add(&mut self, r: GameResult) {
        match r {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    fn json(self) -> Json {
        json!({"wins": self.wins, "draws": self.draws, "losses": self.losses})
    }
}

struct GameSession<G: Picture> {
    trainer: Trainer<G>,
    /// The opponent the machine last trained against (or came with in a
    /// state file: made only when it trains), kept while the person plays.
    parked: Option<(OpponentSpec, Option<Opponent<G>>)>,
    name: &'static str,
    limits: Limits,
    current: Option<Match<G>>,
    finished: Option<Finished<G>>,
    /// Moves of the game in progress, in notation.
    history: Vec<String>,
    /// The box the machine last drew from, with its beads as they were then.
    last_draw: Option<Json>,
    /// Every box drawn from in the game in progress or last played, as drawn.
    drawn: Vec<Drawn<G>>,
    /// The boxes (by index) the machine drew from in the last finished game.
    last_game: Vec<u32>,
    /// Moves the person made in the game in progress.
    person_moves: usize,
    /// Pictures are turned half round: the person plays the side drawn at the top.
    turned: bool,
    /// The beads the last game added or took away.
    last_changes: Json,
    /// A note for the page (why training stopped early).
    message: Option<String>,
    /// The machine's results in this session, and against the person only.
    score: Score,
    against_person: Score,
    curves: RunningCurves,
    /// Points of the curves, one every `stride` games (thinned as they grow).
    points: Vec<Json>,
    stride: u64,
    /// The latest exact expected results, where the game is small.
    exact: Option<Json>,
    /// Whether the machine is training (its opponent is not the person).
    training: bool,
    /// A training game left unfinished at the end of a slice, resumed in the next.
    training_match: Option<Match<G>>,
    /// The game being watched, played a step at a time.
    watching: Option<Watching<G>>,
}

/// A watched game in progress: the match, its opponent's spec, and the
/// boards kept for the page.
struct Watching<G: Game> {
    m: Match<G>,
    spec: OpponentSpec,
    frames: bool,
    steps: Vec<Json>,
}

impl<G: Picture> GameSession<G> {
    fn new(
        trainer: Trainer<G>,
        parked: Option<(OpponentSpec, Option<Opponent<G>>)>,
        name: &'static str,
        limits: Limits,
    ) -> GameSession<G> {
        let mut s = GameSession {
            trainer,
            parked,
            name,
            limits,
            current: None,
            finished: None,
            history: Vec::new(),
            last_draw: None,
            drawn: Vec::new(),
            last_game: Vec::new(),
            person_moves: 0,
            turned: false,
            last_changes: json!([]),
            message: None,
            score: Score::default(),
            against_person: Score::default(),
            curves: RunningCurves::new(limits.window),
            points: Vec::new(),
            stride: 1,
            exact: None,
            training: false,
            training_match: None,
            watching: None,
        };
        let exact = s.small().then(|| s.trainer.exact());
        if let Some(e) = &exact {
            s.exact = Some(exact_json(e));
        }
        s.turned = s.person_at_top();
        s.start_point(exact);
        let _ = s.new_game();
        s
    }

    /// Whether the person's side is the one drawn at the top of the board:
    /// in a game that starts with both sides' pieces on the board, the side
    /// that moves second.
    fn person_at_top(&self) -> bool {
        let game = self.game();
        let pieces = game.pieces(&game.start());
        let both = [Player::One, Player::Two]
            .iter()
            .all(|&p| pieces.iter().any(|x| x.owner == p));
        both && self.trainer.machine().side() == Player::One
    }

    /// The curves' first point, the machine as it is now (game 0 for a
    /// fresh machine): one game already draws a line.
    fn start_point(&mut self, exact: Option<crate::training::trainer::ExactPair>) {
        let machine = self.trainer.machine();
        let mut point = serde_json::Map::new();
        point.insert("game".into(), json!(self.trainer.games_played()));
        let row = MetricRow::start(&Snapshot {
            total_beads: machine.total_beads(),
            first_box_beads: machine.first_move_beads(),
            boxes: machine.boxes().len(),
            exact,
        });
        for (metric, v) in row.iter() {
            if v.is_finite() {
                point.insert(metric.name().into(), json!(v));
            }
        }
        self.points.push(Json::Object(point));
    }

    /// Where symmetry merges: the first box (of the first few) whose moves
    /// share bead colours, counted, or none.
    fn symmetry_note(&self) -> Option<String> {
        let game = self.game();
        let machine = self.trainer.machine();
        if !machine.settings().symmetry || <G::Symmetry as Symmetry>::ALL.len() < 2 {
            return None;
        }
        let merged = format!(
            "A position and the same board {} share one box, and in a position that is its own image that way, moves that are images of each other share one bead colour.",
            game.symmetry_words().unwrap_or("under a symmetry")
        );
        let found = machine.boxes().iter().enumerate().take(50).find_map(|(i, b)| {
            let legal = game.moves(&b.position(game)).len();
            (b.moves.len() < legal).then_some((i, b.moves.len(), legal))
        });
        Some(match found {
            Some((i, colours, legal)) => format!(
                "{merged} So box {} holds beads of {colours} colours for its {legal} legal moves.",
                i + 1
            ),
            None => merged,
        })
    }

    /// "HER's move 2 (move 4 of the game)": the machine's own move count,
    /// then the game's ply.
    fn moment(&self, own_move: u32, ply: usize) -> String {
        format!("{}'s move {own_move} (move {ply} of the game)", self.name)
    }

    /// Said once wherever a box drawn from a mirror image is shown.
    fn mirror_note(&self, box_number: u32) -> String {
        format!(
            "Box {box_number} holds the mirror image of this position (one box serves both); it is drawn here as it stood on the board, its moves mirrored to match."
        )
    }

    /// The opponent `spec` names, within the page's limits (see [`opponent_for`]).
    fn make_opponent(&self, spec: &OpponentSpec) -> Result<Opponent<G>, SessionError> {
        let machine = self.trainer.machine();
        opponent_for(machine.game(), machine.side(), machine.settings(), self.limits, spec)
    }

    /// The opponent to play against `spec`: the one parked if it is that,
    /// else the one `made` apart, else one made now. Refused, the parked
    /// one stays.
    fn take_opponent(&mut self, spec: &OpponentSpec, made: Option<Made>) -> Result<Opponent<G>, SessionError> {
        match self.parked.take() {
            Some((parked, Some(opponent))) if parked == *spec => Ok(opponent),
            other => {
                let made = made.and_then(|m| m.0.downcast::<Opponent<G>>().ok());
                match made.map_or_else(|| self.make_opponent(spec), |o| Ok(*o)) {
                    Ok(o) => Ok(o),
                    Err(e) => {
                        self.parked = other;
                        Err(e)
                    }
                }
            }
        }
    }

    /// The person's game dropped (no beads change) and what the page
    /// shows of it cleared, for a game against a program.
    fn drop_person_game(&mut self) {
        if let Some(m) = self.current.take() {
            m.abandon(&mut self.trainer);
        }
        self.finished = None;
        self.history.clear();
        self.drawn.clear();
        self.person_moves = 0;
        self.last_draw = None;
        self.last_changes = json!([]);
        self.message = None;
    }

    /// A watched game stopped: left unfinished (no beads change, no game
    /// counted), its opponent parked, and its moves so far for the page.
    fn stop_watching(&mut self) -> Json {
        let Some(w) = self.watching.take() else {
            return json!({"steps": [], "result": "", "plies": 0, "stopped": true});
        };
        let pos = w.m.position().clone();
        let last = w.m.last_move();
        w.m.abandon(&mut self.trainer);
        let text = "Stopped: the game was left unfinished, and no beads changed.".to_string();
        self.end_watch(pos, last, text.clone());
        json!({"steps": w.steps, "result": text, "plies": self.history.len(), "stopped": true})
    }

    /// A watched game over or stopped: the page shows its last board with
    /// `result`, and its opponent is parked until the next one.
    fn end_watch(&mut self, pos: G::Position, last: Option<G::Move>, result: String) {
        self.finished = Some(Finished { pos, last, result });
        let (spec, opponent) = self.trainer.set_opponent(OpponentSpec::Human, Opponent::Human);
        self.parked = Some((spec, Some(opponent)));
    }

    /// Whether exact results are worth computing after games: the machine's
    /// boxes were all made up front, so the game is small.
    fn small(&self) -> bool {
        self.trainer.machine().is_enumerated()
    }

    fn game(&self) -> &G {
        self.trainer.machine().game()
    }

    fn side_name(&self, p: Player) -> &'static str {
        self.game().player_name(p)
    }

    /// Let the machine move until the person is to move or the game ends.
    fn advance(&mut self) {
        loop {
            let Some(m) = self.current.as_mut() else { return };
            let before = m.position().clone();
            let machine_to_move = m.mover(&self.trainer) == Mover::Machine;
            match m.step(&mut self.trainer) {
                Step::Machine(mv) => {
                    let name = self.game().move_name(&before, mv);
                    self.history.push(name);
                    if machine_to_move {
                        let ply = self.history.len();
                        self.last_draw = Some(self.note_draw(&before, mv, ply));
                    }
                }
                Step::Opponent(mv) => {
                    let name = self.game().move_name(&before, mv);
                    self.history.push(name);
                }
                Step::AwaitingPerson => return,
                Step::Over(result, ending) => {
                    self.finish_person_game(result, ending);
                    return;
                }
            }
        }
    }

    fn finish_person_game(&mut self, result: GameResult, ending: Ending) {
        let Some(m) = self.current.take() else { return };
        let pos = m.position().clone();
        let last = m.last_move();
        let small = self.small();
        let (record, changes) = m.finish(&mut self.trainer, small);
        let name = self.name;
        let text = match (result, ending) {
            (GameResult::Loss, Ending::MachineResigned) => format!("{name}'s box is empty: {name} resigns. You win."),
            (GameResult::Win, Ending::OpponentResigned) => format!("You resign. {name} wins."),
            (GameResult::Win, _) => format!("{name} wins."),
            (GameResult::Loss, _) => "You win.".to_string(),
            (GameResult::Draw, _) => "A draw.".to_string(),
        };
        self.against_person.add(result);
        self.last_changes = self.changes_json(&changes);
        self.last_game = self.drawn.iter().map(|d| d.index).collect();
        self.record(&record);
        self.finished = Some(Finished {
            pos,
            last,
            result: text,
        });
    }

    /// Count a finished game, and keep its point of the curves.
    fn record(&mut self, record: &GameRecord) {
        self.score.add(record.result);
        let row = self.curves.push(record);
        if let Some(e) = record.exact {
            self.exact = Some(exact_json(&e));
        }
        if record.game.is_multiple_of(self.stride) || record.exact.is_some() {
            let mut point = serde_json::Map::new();
            point.insert("game".into(), json!(record.game));
            for (metric, v) in row.iter() {
                if v.is_finite() {
                    point.insert(metric.name().into(), json!(v));
                }
            }
            self.points.push(Json::Object(point));
            if self.points.len() > self.limits.curve_points {
                // Thin out: keep every other point, and record half as often from now on.
                let mut keep = false;
                self.points.retain(|_| {
                    keep = !keep;
                    keep
                });
                self.stride = self.stride.saturating_mul(2);
            }
        }
    }

    /// Note a step of the watched game (played from `before`): its move,
    /// the box drawn from, the board; at its end, the game reinforced and
    /// counted, the opponent parked, and what the page is told.
    fn watched_step(&mut self, before: G::Position, step: Step<G::Move>) -> Option<Json> {
        let game = self.game().clone();
        let w = self.watching.as_mut()?;
        match step {
            Step::Machine(mv) | Step::Opponent(mv) => {
                let machine_to_move = matches!(step, Step::Machine(_));
                let (frames, spec) = (w.frames, w.spec.to_string());
                let after = w.m.position().clone();
                self.history.push(game.move_name(&before, mv));
                let ply = self.history.len();
                let draw = machine_to_move.then(|| self.note_draw(&before, mv, ply));
                if let Some(d) = &draw {
                    self.last_draw = Some(d.clone());
                }
                if frames {
                    let options = Options {
                        unit: 64.0,
                        last: Some(game.move_cells(&before, mv)),
                        names: true,
                        turned: self.turned,
                        ..Options::default()
                    };
                    let frame = json!({
                        "mover": if machine_to_move { self.name.to_string() } else { spec },
                        "move": game.move_name(&before, mv),
                        "ply": ply,
                        "board": board_svg(&game, &after, &options),
                        "draw": draw,
                    });
                    if let Some(w) = self.watching.as_mut() {
                        w.steps.push(frame);
                    }
                }
                None
            }
            // Never: the opponent is a program; were it so, it resigns.
            Step::AwaitingPerson => {
                w.m.opponent_resigns();
                None
            }
            Step::Over(result, ending) => {
                let w = self.watching.take()?;
                let spec = w.spec;
                let m = w.m;
                let pos = m.position().clone();
                let last = m.last_move();
                let small = self.small();
                let (record, changes) = m.finish(&mut self.trainer, small);
                let name = self.name;
                let text = match (result, ending) {
                    (GameResult::Loss, Ending::MachineResigned) => {
                        format!("{name}'s box is empty: {name} resigns; {spec} wins.")
                    }
                    (GameResult::Win, Ending::OpponentResigned) => format!("{spec} resigns. {name} wins."),
                    (GameResult::Win, _) => format!("{name} wins."),
                    (GameResult::Loss, _) => format!("{spec} wins."),
                    (GameResult::Draw, _) => "A draw.".to_string(),
                };
                self.last_changes = self.changes_json(&changes);
                self.last_game = self.drawn.iter().map(|d| d.index).collect();
                self.record(&record);
                self.end_watch(pos, last, text.clone());
                Some(json!({"steps": w.steps, "result": text, "plies": self.history.len()}))
            }
        }
    }

    /// The machine drew `mv` at `pos` (the position before it, at `ply`):
    /// keep the box as drawn, for the after-game changes, and show it.
    fn note_draw(&mut self, pos: &G::Position, mv: G::Move, ply: usize) -> Json {
        if let Some((index, sym)) = self.trainer.machine().box_for(pos) {
            self.drawn.push(Drawn {
                index,
                pos: pos.clone(),
                sym,
                ply,
            });
        }
        self.draw_json(pos, mv, ply)
    }

    /// The beads of box `index` as marks on the real board that `sym` maps
    /// the box's position to, `drawn` marking colours.
    fn real_marks(
        &self,
        index: u32,
        sym: G::Symmetry,
        drawn: impl Fn(G::Move, usize) -> bool,
    ) -> Vec<BeadMark<G::Move>> {
        let game = self.game();
        let b = &self.trainer.machine().boxes()[index as usize];
        let inverse = sym.inverse();
        b.moves
            .iter()
            .zip(b.beads.iter())
            .enumerate()
            .map(|(c, (&m, beads))| {
                let real = game.map_move(m, inverse);
                BeadMark {
                    mv: real,
                    beads,
                    colour: c,
                    drawn: drawn(real, c),
                }
            })
            .collect()
    }

    /// The box a machine drew from at `pos` (the position before its move
    /// `mv`), drawn on the real board with the drawn bead marked.
    fn draw_json(&self, pos: &G::Position, mv: G::Move, ply: usize) -> Json {
        let game = self.game();
        let machine = self.trainer.machine();
        let Some((index, sym)) = machine.box_for(pos) else {
            return json!({
                "box": null,
                "move": game.move_name(pos, mv),
                "note": format!("{} has no box for this position and plays without one.", self.name),
            });
        };
        let b = &machine.boxes()[index as usize];
        let marks = self.real_marks(index, sym, |real, _| real == mv);
        let beads: Vec<Json> = marks
            .iter()
            .map(|m| {
                let (colour, css) = bead_colour(m.colour);
                json!({"move": game.move_name(pos, m.mv), "beads": m.beads, "colour": colour, "css": css, "drawn": m.drawn})
            })
            .collect();
        json!({
            "box": index + 1,
            "own_move": b.own_move,
            "moment": self.moment(b.own_move, ply),
            "move": game.move_name(pos, mv),
            "mirrored": !sym.is_identity(),
            "mirror_note": (!sym.is_identity()).then(|| self.mirror_note(index + 1)),
            "position": game.position_string(&b.position(game)),
            "svg": box_svg_as(game, pos, &marks, 44.0, self.turned),
            "beads": beads,
        })
    }

    /// The beads the game changed, each box drawn exactly as it was shown
    /// while the game was played (the real board, the same move names).
    fn changes_json(&self, changes: &[BeadChange]) -> Json {
        let game = self.game();
        let boxes = self.trainer.machine().boxes();
        let list: Vec<Json> = changes
            .iter()
            .map(|c| {
                let b = &boxes[c.box_index as usize];
                let colour_index = c.colour as usize;
                let (colour, css) = bead_colour(colour_index);
                let seen = self.drawn.iter().rev().find(|d| d.index == c.box_index);
                let (pos, sym, moment) = match seen {
                    Some(d) => (d.pos.clone(), d.sym, Some(self.moment(b.own_move, d.ply))),
                    None => (b.position(game), G::Symmetry::identity(), None),
                };
                let marks = self.real_marks(c.box_index, sym, |_, k| k == colour_index);
                let mv = marks[colour_index].mv;
                json!({
                    "box": c.box_index + 1,
                    "own_move": b.own_move,
                    "moment": moment,
                    "position": game.position_string(&b.position(game)),
                    "move": game.move_name(&pos, mv),
                    "mirrored": !sym.is_identity(),
                    "mirror_note": (!sym.is_identity()).then(|| self.mirror_note(c.box_index + 1)),
                    "colour": colour,
                    "css": css,
                    "before": c.before,
                    "after": c.after,
                    "svg": box_svg_as(game, &pos, &marks, 44.0, self.turned),
                })
            })
            .collect();
        Json::Array(list)
    }

    fn board_json(&self) -> Json {
        let game = self.game();
        let person = self.trainer.machine().side().other();
        let (pos, last, over, result) = match (&self.current, &self.finished) {
            (Some(m), _) => (m.position().clone(), m.last_move(), false, None),
            (None, Some(f)) => (f.pos.clone(), f.last, true, Some(f.result.clone())),
            (None, None) => (game.start(), None, true, None),
        };
        let options = Options {
            unit: 64.0,
            interactive: true,
            // The cells of a move do not depend on the position (for every game so far).
            last: last.map(|mv| game.move_cells(&pos, mv)),
            names: true,
            turned: self.turned,
            ..Options::default()
        };
        let moves: Vec<Json> = if over || game.turn(&pos) != person {
            Vec::new()
        } else {
            game.moves(&pos)
                .into_iter()
                .map(|mv| {
                    let cells = game.move_cells(&pos, mv);
                    json!({"name": game.move_name(&pos, mv), "from": cells.from, "to": cells.to})
                })
                .collect()
        };
        json!({
            "svg": board_svg(game, &pos, &options),
            "position": game.position_string(&pos),
            "moves": moves,
            "to_move": game.player_name(game.turn(&pos)),
            "over": over,
            "result": result,
            "history": self.history,
            "person_moves": self.person_moves,
            "turned": self.turned,
        })
    }
}

fn exact_json(e: &crate::training::trainer::ExactPair) -> Json {
    json!({
        "perfect": e.perfect.map(|x| json!({"win": x.win, "draw": x.draw, "loss": x.loss})),
        "random": e.random.map(|x| json!({"win": x.win, "draw": x.draw, "loss": x.loss})),
    })
}

impl<G: Picture> Session for GameSession<G> {
    fn game_spec(&self) -> String {
        self.game().spec()
    }

    fn view(&self) -> Json {
        let game = self.game();
        let side = self.trainer.machine().side();
        let board = game.board();
        json!({
            "game": game.spec(),
            "machine": self.name,
            "machine_side": self.side_name(side),
            "person_side": self.side_name(side.other()),
            "players": [self.side_name(Player::One), self.side_name(Player::Two)],
            "colours": board.colours,
            "settings": self.trainer.machine().settings().describe(),
            "seed": self.trainer.seed(),
            "games_played": self.trainer.games_played(),
            "score": self.score.json(),
            "against_person": self.against_person.json(),
            "boxes": self.trainer.machine().boxes().len(),
            "beads": self.trainer.machine().total_beads(),
            "exact": self.exact,
            "trained_against": self.parked.as_ref().map(|(spec, _)| spec.to_string()),
            "board": self.board_json(),
            "symmetry_note": self.symmetry_note(),
            "rules": {
                "title": game.title(),
                "rules": game.rules(),
                "machine": self.trainer.machine().settings().what_it_does(self.name, game.can_draw()),
            },
            "last_draw": self.last_draw,
            "last_changes": self.last_changes,
            "message": self.message,
        })
    }

    fn new_game(&mut self) -> Result<(), SessionError> {
        // A game left unfinished is dropped: no beads change.
        self.drop_person_game();
        self.current = Some(Match::start(&mut self.trainer));
        self.advance();
        Ok(())
    }

    fn play(&mut self, text: &str) -> Result<(), SessionError> {
        let game = self.game().clone();
        let Some(m) = self.current.as_mut() else {
            return Err(SessionError::NotNow(
                "no game in progress: start a new game".to_string(),
            ));
        };
        if m.mover(&self.trainer) != Mover::Opponent {
            return Err(SessionError::NotNow(format!("it is {}'s turn", self.name)));
        }
        let pos = m.position().clone();
        let mv = game.parse_move(&pos, text).map_err(invalid)?;
        self.history.push(game.move_name(&pos, mv));
        m.play_person(&self.trainer, mv);
        self.person_moves += 1;
        self.message = None;
        self.advance();
        Ok(())
    }

    fn resign(&mut self) -> Result<(), SessionError> {
        let Some(m) = self.current.as_mut() else {
            return Err(SessionError::NotNow("no game in progress to resign".to_string()));
        };
        m.opponent_resigns();
        self.advance();
        Ok(())
    }

    fn boxes(&self, query: &BoxQuery, limit: usize) -> Deferred<Json> {
        let game = self.game();
        let machine = self.trainer.machine();
        let all = machine.boxes();
        let find = query.find.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let changed: Vec<u64> = self
            .last_changes
            .as_array()
            .map(|a| a.iter().filter_map(|c| c["box"].as_u64()).collect())
            .unwrap_or_default();
        let per_page = query.per_page.unwrap_or(24).clamp(1, limit.max(1));
        let mut last: Vec<usize> = self
            .last_game
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| i < all.len())
            .collect();
        last.dedup();
        let mut matched: Vec<usize> = (0..all.len())
            .filter(|&i| query.own_move.is_none_or(|m| all[i].own_move == m))
            .filter(|&i| find.is_none_or(|f| game.position_string(&all[i].position(game)).contains(f)))
            .collect();
        matched.sort_by_key(|&i| (all[i].own_move, i));
        let pages = matched.len().div_ceil(per_page).max(1);
        let page = query.page.unwrap_or(1).clamp(1, pages);
        let mut moves: Vec<(u32, usize)> = Vec::new();
        for b in all {
            match moves.iter_mut().find(|(m, _)| *m == b.own_move) {
                Some((_, n)) => *n += 1,
                None => moves.push((b.own_move, 1)),
            }
        }
        moves.sort();
        // Only the boxes shown are copied; they are drawn after the lock is let go.
        let copy = |&i: &usize| Listed {
            index: i,
            b: all[i].clone(),
            in_last_game: self.last_game.contains(&(i as u32)),
            changed: changed.contains(&(i as u64 + 1)),
        };
        let list: Vec<Listed<G>> = matched
            .iter()
            .skip((page - 1) * per_page)
            .take(per_page)
            .map(copy)
            .collect();
        let last: Vec<Listed<G>> = last.iter().map(copy).collect();
        let head = json!({
            "game": game.spec(),
            "machine": self.name,
            "side": self.side_name(machine.side()),
            "total": all.len(),
            "matched": matched.len(),
            "page": page,
            "pages": pages,
            "per_page": per_page,
            "moves": moves.iter().map(|&(m, n)| json!({"own_move": m, "boxes": n})).collect::<Vec<_>>(),
        });
        let (game, turned) = (game.clone(), self.turned);
        Deferred::new(move || {
            let card = |l: &Listed<G>| {
                let b = &l.b;
                let pos = b.position(&game);
                let marks: Vec<BeadMark<G::Move>> = b
                    .moves
                    .iter()
                    .zip(b.beads.iter())
                    .enumerate()
                    .map(|(c, (&mv, beads))| BeadMark {
                        mv,
                        beads,
                        colour: c,
                        drawn: false,
                    })
                    .collect();
                let beads: Vec<Json> = marks
                    .iter()
                    .map(|m| {
                        let (colour, css) = bead_colour(m.colour);
                        json!({"move": game.move_name(&pos, m.mv), "beads": m.beads, "colour": colour, "css": css})
                    })
                    .collect();
                json!({
                    "box": l.index + 1,
                    "own_move": b.own_move,
                    "position": game.position_string(&pos),
                    "svg": box_svg_as(&game, &pos, &marks, 30.0, turned),
                    "beads": beads,
                    "in_last_game": l.in_last_game,
                    "changed": l.changed,
                })
            };
            let mut answer = head;
            answer["last_game"] = json!(last.iter().map(card).collect::<Vec<_>>());
            answer["boxes"] = json!(list.iter().map(card).collect::<Vec<_>>());
            answer
        })
    }

    fn person_moves(&self) -> usize {
        if self.current.is_some() {
            self.person_moves
        } else {
            0
        }
    }

    fn opponent_maker(&self, spec: &OpponentSpec) -> Option<Deferred<Result<Made, SessionError>>> {
        if matches!(&self.parked, Some((parked, Some(_))) if parked == spec) {
            return None;
        }
        let machine = self.trainer.machine();
        let (game, side, settings) = (machine.game().clone(), machine.side(), machine.settings().clone());
        let (limits, spec) = (self.limits, spec.clone());
        Some(Deferred::new(move || {
            opponent_for(&game, side, &settings, limits, &spec).map(|o| Made(Box::new(o)))
        }))
    }

    fn begin_watch(
        &mut self,
        spec: &OpponentSpec,
        made: Option<Made>,
        frames: bool,
        cancel: Arc<AtomicBool>,
    ) -> Result<(), SessionError> {
        let mut opponent = self.take_opponent(spec, made)?;
        opponent.set_interrupt(cancel);
        self.drop_person_game();
        self.trainer.set_opponent(spec.clone(), opponent);
        let m = Match::start(&mut self.trainer);
        self.watching = Some(Watching {
            m,
            spec: spec.clone(),
            frames,
            steps: Vec::new(),
        });
        Ok(())
    }

    fn watch_step(&mut self, deadline: Instant, signals: &Signals) -> Watched {
        loop {
            if signals.cancelled() {
                return Watched::Over(self.stop_watching());
            }
            let Some(w) = self.watching.as_mut() else {
                return Watched::Over(json!({"steps": [], "result": "", "plies": 0}));
            };
            if let Some(thinking) = w.m.detach_opponent(&mut self.trainer, slow) {
                return Watched::Pending(Pending(Box::new(thinking)));
            }
            let before = w.m.position().clone();
            let step = w.m.step(&mut self.trainer);
            signals.moved();
            if let Some(over) = self.watched_step(before, step) {
                return Watched::Over(over);
            }
            if signals.let_go(deadline) {
                return Watched::More;
            }
        }
    }

    fn resume(&mut self, pending: Pending) {
        let Ok(thinking) = pending.0.into_any().downcast::<Thinking<G>>() else {
            return;
        };
        if let Some(w) = self.watching.as_mut() {
            let before = w.m.position().clone();
            // An end (the opponent resigned) is found again by the next step.
            if let step @ Step::Opponent(_) = w.m.resume(&mut self.trainer, *thinking) {
                self.watched_step(before, step);
            }
        } else if let Some(m) = self.training_match.as_mut() {
            m.resume(&mut self.trainer, *thinking);
        }
    }

    fn curves(&self) -> Json {
        json!({
            "window": self.curves.window(),
            "games_played": self.trainer.games_played(),
            "points": self.points,
        })
    }

    fn state(&mut self) -> Deferred<String> {
        // The file names the opponent the machine last trained against, as
        // `train --save` would; a machine only ever played by hand says human.
        let frozen = match self.parked.as_mut().filter(|_| !self.training) {
            Some((spec, parked)) => {
                // An opponent not made yet (from a state file) has no boxes to save.
                let opponent = parked.take().unwrap_or(Opponent::Human);
                let person = self.trainer.set_opponent(spec.clone(), opponent);
                let frozen = state::freeze(&self.trainer);
                let (_, opponent) = self.trainer.set_opponent(person.0, person.1);
                *parked = (!matches!(opponent, Opponent::Human)).then_some(opponent);
                frozen
            }
            None => state::freeze(&self.trainer),
        };
        Deferred::new(move || frozen.to_json())
    }

    fn check_opponent(&self, spec: &OpponentSpec) -> Result<(), SessionError> {
        if let OpponentSpec::Perfect(_) = spec {
            // The page's perfect player solves the whole game first, or
            // asks the game's shared position solver (see [`opponent_for`]).
            let game = self.game();
            if let Err(e) = game.check_exhaustive(self.limits.max_perfect_positions) {
                if game.shared_position_solver().is_none() {
                    return Err(perfect_too_large(spec, e));
                }
            }
        }
        Ok(())
    }

    fn begin_training(
        &mut self,
        spec: &OpponentSpec,
        made: Option<Made>,
        cancel: Arc<AtomicBool>,
    ) -> Result<(), SessionError> {
        let mut opponent = self.take_opponent(spec, made)?;
        opponent.set_interrupt(cancel);
        self.drop_person_game();
        self.trainer.set_opponent(spec.clone(), opponent);
        self.training = true;
        Ok(())
    }

    fn train(&mut self, games: u64, total: u64, deadline: Instant, signals: &Signals) -> Trained {
        // About a hundred exact evaluations a run, however long.
        let exact_every = (total / 100).max(1);
        let mut played = 0;
        let mut halted = false;
        // One move at a time (a whole game where the compiled table plays it),
        // so that a slow opponent holds the session for one move at most.
        while !signals.cancelled() {
            let exact = self.small()
                && self
                    .trainer
                    .games_played()
                    .saturating_add(1)
                    .is_multiple_of(exact_every);
            match self.training_match.as_mut() {
                None => {
                    if played >= games {
                        break;
                    }
                    if self.trainer.machine().boxes().len() >= self.limits.max_boxes {
                        self.message = Some(format!(
                            "Training stopped: {} has {} boxes, the most a page's machine may open.",
                            self.name,
                            self.trainer.machine().boxes().len()
                        ));
                        halted = true;
                        break;
                    }
                    if let Some(record) = self.trainer.play_compiled(exact) {
                        played += 1;
                        self.record(&record);
                    } else {
                        self.training_match = Some(Match::start(&mut self.trainer));
                    }
                }
                Some(m) => match m.detach_opponent(&mut self.trainer, slow) {
                    Some(thinking) => {
                        return Trained {
                            games: played,
                            halted,
                            pending: Some(Pending(Box::new(thinking))),
                            mid_game: true,
                        };
                    }
                    None => match m.step(&mut self.trainer) {
                        Step::Over(..) => {
                            if let Some(m) = self.training_match.take() {
                                let (record, _) = m.finish(&mut self.trainer, exact);
                                played += 1;
                                self.record(&record);
                            }
                        }
                        // Never while training (the opponent is a program); were it
                        // so, the game would end as if the person had resigned.
                        Step::AwaitingPerson => m.opponent_resigns(),
                        Step::Machine(_) | Step::Opponent(_) => {}
                    },
                },
            }
            signals.moved();
            if signals.let_go(deadline) {
                break;
            }
        }
        Trained {
            games: played,
            halted,
            pending: None,
            mid_game: self.training_match.is_some(),
        }
    }

    fn end_training(&mut self) {
        if let Some(m) = self.training_match.take() {
            m.abandon(&mut self.trainer);
        }
        if std::mem::take(&mut self.training) {
            let (spec, opponent) = self.trainer.set_opponent(OpponentSpec::Human, Opponent::Human);
            self.parked = Some((spec, Some(opponent)));
        }
        if self.small() {
            let exact = self.trainer.exact();
            self.exact = Some(exact_json(&exact));
        }
        let message = self.message.take();
        let _ = self.new_game();
        self.message = message;
    }

    fn box_count(&self) -> usize {
        self.trainer.machine().boxes().len()
    }

    fn games_played(&self) -> u64 {
        self.trainer.games_played()
    }
}
