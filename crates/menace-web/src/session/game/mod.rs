//! The game session: one tab's machine of one game, the game a person is
//! playing against it through the match driver, the opponent it last
//! trained against, its curves, and what it last did (the box it drew from,
//! the beads a game added or removed).

mod api;
mod render;
mod views;

use serde_json::Value as Json;

use crate::session::apart::Made;
use crate::session::error::SessionError;
use crate::session::game::views::{to_json, Change, Draw, Frame, Point, Score, WatchedGame};
use crate::session::limits::Limits;
use crate::session::opponents::opponent_for;
use crate::session::traits::Played;
use crate::svg::{board_svg, Options};
use menace_core::experiment::curves::{MetricRow, RunningCurves};
use menace_core::game::{Game, Player};
use menace_core::machine::GameResult;
use menace_core::machine::MatchBox;
use menace_core::picture::Picture;
use menace_core::symmetry::Symmetry;
use menace_core::training::driver::{Ending, Match, Mover, Step};
use menace_core::training::opponent::{Opponent, OpponentSpec};
use menace_core::training::run::TrainingRun;
use menace_core::training::trainer::{ExactPair, GameRecord, Snapshot, Trainer};

/// A box copied out of a machine to be drawn for the boxes list.
pub(super) struct Listed<G: Game> {
    /// Its number on the labels.
    number: u32,
    b: MatchBox<G>,
    in_last_game: bool,
    changed: bool,
}

/// A box the machine drew from in the game last played: the real position,
/// the symmetry that maps it to the box, and the ply of the game (from 1).
pub(super) struct Drawn<G: Game> {
    index: u32,
    pos: G::Position,
    sym: G::Symmetry,
    ply: usize,
}

/// A finished game shown until the next starts.
pub(super) struct Finished<G: Game> {
    pos: G::Position,
    last: Option<G::Move>,
    result: String,
}

impl Score {
    fn add(&mut self, r: GameResult) {
        match r {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }
}

pub(crate) struct GameSession<G: Picture> {
    trainer: Trainer<G>,
    /// The opponent the machine last trained against (or came with in a
    /// state file: made only when it trains), kept while the person plays.
    parked: Option<(OpponentSpec, Option<Opponent<G>>)>,
    name: &'static str,
    limits: Limits,
    /// What the session is doing: the person's game, a training run or a
    /// watched game, one at a time.
    mode: Mode<G>,
    finished: Option<Finished<G>>,
    /// Moves of the game in progress, in notation.
    history: Vec<String>,
    /// The box the machine last drew from, with its beads as they were then.
    last_draw: Option<Draw>,
    /// Every box drawn from in the game in progress or last played, as drawn.
    drawn: Vec<Drawn<G>>,
    /// The boxes (by index) the machine drew from in the last finished game.
    last_game: Vec<u32>,
    /// Moves the person made in the game in progress.
    person_moves: usize,
    /// Pictures are turned half round: the person plays the side drawn at the top.
    turned: bool,
    /// The beads the last game added or took away.
    last_changes: Vec<Change>,
    /// A note for the page (why training stopped early).
    message: Option<String>,
    /// The machine's results in this session, and against the person only.
    score: Score,
    against_person: Score,
    curves: RunningCurves,
    /// Points of the curves, one every `stride` games (thinned as they grow).
    points: Vec<Point>,
    stride: u64,
    /// The latest exact expected results, where the game is small.
    exact: Option<ExactPair>,
    /// Referee for a real machine: the machine's beads are drawn by a
    /// person from its matchboxes and given here, not drawn at random.
    referee: bool,
}

/// What a session is doing, one thing at a time.
pub(super) enum Mode<G: Game> {
    /// The person plays the machine: the game in progress, if one is.
    Person(Option<Match<G>>),
    /// A training run, and a game of it left unfinished at the end of a
    /// slice, resumed in the next.
    Training(TrainingRun, Option<Match<G>>),
    /// A game watched a step at a time.
    Watching(Watching<G>),
}

impl<G: Game> Mode<G> {
    /// The person's game in progress.
    pub(super) fn person_game(&self) -> Option<&Match<G>> {
        match self {
            Mode::Person(m) => m.as_ref(),
            _ => None,
        }
    }

    /// The person's game in progress, to play on.
    pub(super) fn person_game_mut(&mut self) -> Option<&mut Match<G>> {
        match self {
            Mode::Person(m) => m.as_mut(),
            _ => None,
        }
    }

    /// The person's game in progress, taken out (the person's turn goes on).
    pub(super) fn take_person_game(&mut self) -> Option<Match<G>> {
        match self {
            Mode::Person(m) => m.take(),
            _ => None,
        }
    }

    /// The training run under way.
    pub(super) fn run(&self) -> Option<&TrainingRun> {
        match self {
            Mode::Training(run, _) => Some(run),
            _ => None,
        }
    }

    /// The training run under way, to count its games.
    pub(super) fn run_mut(&mut self) -> Option<&mut TrainingRun> {
        match self {
            Mode::Training(run, _) => Some(run),
            _ => None,
        }
    }

    /// The training game left unfinished by the last slice.
    pub(super) fn training_game(&self) -> Option<&Match<G>> {
        match self {
            Mode::Training(_, m) => m.as_ref(),
            _ => None,
        }
    }

    /// The training game under way, to play on.
    pub(super) fn training_game_mut(&mut self) -> Option<&mut Match<G>> {
        match self {
            Mode::Training(_, m) => m.as_mut(),
            _ => None,
        }
    }

    /// A training game begun (only while training).
    pub(super) fn set_training_game(&mut self, game: Match<G>) {
        if let Mode::Training(_, m) = self {
            *m = Some(game);
        }
    }

    /// The training game under way, taken out to finish or drop.
    pub(super) fn take_training_game(&mut self) -> Option<Match<G>> {
        match self {
            Mode::Training(_, m) => m.take(),
            _ => None,
        }
    }

    /// The game being watched.
    pub(super) fn watching_mut(&mut self) -> Option<&mut Watching<G>> {
        match self {
            Mode::Watching(w) => Some(w),
            _ => None,
        }
    }

    /// The game being watched, taken out: the person's turn again.
    pub(super) fn take_watching(&mut self) -> Option<Watching<G>> {
        match std::mem::replace(self, Mode::Person(None)) {
            Mode::Watching(w) => Some(w),
            other => {
                *self = other;
                None
            }
        }
    }
}

/// A watched game in progress: the match, its opponent's spec, and the
/// boards kept for the page.
pub(super) struct Watching<G: Game> {
    m: Match<G>,
    spec: OpponentSpec,
    frames: bool,
    steps: Vec<Frame>,
}

impl<G: Picture> GameSession<G> {
    pub(crate) fn new(
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
            mode: Mode::Person(None),
            finished: None,
            history: Vec::new(),
            last_draw: None,
            drawn: Vec::new(),
            last_game: Vec::new(),
            person_moves: 0,
            turned: false,
            last_changes: Vec::new(),
            message: None,
            score: Score::default(),
            against_person: Score::default(),
            curves: RunningCurves::new(limits.window),
            points: Vec::new(),
            stride: 1,
            exact: None,
            referee: false,
        };
        let exact = s.small().then(|| s.trainer.exact());
        s.exact = exact;
        s.turned = s.person_at_top();
        s.start_point(exact);
        s.open_board();
        s
    }

    /// Set out the board for the person's next game, as New game does; but
    /// a game that may be over before the person's first move (over at the
    /// start, or by a first move of the machine's: Hex 1×1, Hexapawn 1×3)
    /// is left for the person to ask for, so that loading a machine or
    /// ending a training run never plays and counts one more game.
    fn open_board(&mut self) {
        if self.may_end_before_the_person_moves() {
            self.drop_person_game();
            self.message = Some(
                "On this board a game may be over before your first move: press New game to play one.".to_string(),
            );
            return;
        }
        let _ = self.new_game();
    }

    fn may_end_before_the_person_moves(&self) -> bool {
        let game = self.game();
        let side = self.trainer.machine().side();
        let mut moves = Vec::new();
        game.starts().iter().any(|(start, _)| {
            if game.outcome(start).is_over() {
                return true;
            }
            if game.turn(start) != side {
                return false;
            }
            game.legal_moves(start, &mut moves);
            moves.iter().any(|&m| game.outcome(&game.play(start, m)).is_over())
        })
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
    fn start_point(&mut self, exact: Option<ExactPair>) {
        let machine = self.trainer.machine();
        let row = MetricRow::start(&Snapshot {
            total_beads: machine.total_beads(),
            first_box_beads: machine.first_move_beads(),
            boxes: machine.boxes().len(),
            exact,
        });
        self.points
            .push(point(self.trainer.games_played(), String::new(), &row));
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
            (b.beads.len() < legal).then_some((i, b.beads.len(), legal))
        });
        Some(match found {
            Some((i, colours, legal)) => format!(
                "{merged} So box {} holds beads of {colours} colours for its {legal} legal moves.",
                crate::labels::label_number(machine, i as u32)
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
        if let Some(m) = self.mode.take_person_game() {
            m.abandon(&mut self.trainer);
        }
        self.finished = None;
        self.history.clear();
        self.drawn.clear();
        self.person_moves = 0;
        self.last_draw = None;
        self.last_changes = Vec::new();
        self.message = None;
    }

    /// A watched game stopped: left unfinished (no beads change, no game
    /// counted), its opponent parked, and its moves so far for the page.
    fn stop_watching(&mut self) -> Json {
        let Some(w) = self.mode.take_watching() else {
            return to_json(&WatchedGame {
                steps: Vec::new(),
                result: String::new(),
                plies: 0,
                stopped: Some(true),
            });
        };
        let pos = w.m.position().clone();
        let last = w.m.last_move();
        w.m.abandon(&mut self.trainer);
        let text = "Stopped: the game was left unfinished, and no beads changed.".to_string();
        self.end_watch(pos, last, text.clone());
        to_json(&WatchedGame {
            steps: w.steps,
            result: text,
            plies: self.history.len(),
            stopped: Some(true),
        })
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
    /// Say why training stopped at the box cap.
    fn say_box_cap(&mut self) {
        self.message = Some(format!(
            "Training stopped: {} has {} boxes, the most a page's machine may open.",
            self.name,
            self.trainer.machine().boxes().len()
        ));
    }

    fn advance(&mut self) {
        while !self.awaits_bead() && self.step_once() {}
    }

    /// Play the game on by one move (the machine's or a computer
    /// opponent's): whether it goes on without a person.
    fn step_once(&mut self) -> bool {
        let Some(m) = self.mode.person_game_mut() else {
            return false;
        };
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
                true
            }
            Step::Opponent(mv) => {
                let name = self.game().move_name(&before, mv);
                self.history.push(name);
                true
            }
            Step::AwaitingPerson => false,
            Step::Over(result, ending) => {
                self.finish_person_game(result, ending);
                false
            }
        }
    }

    /// Referee: the bead awaited, drawn by the machine itself at random
    /// (see [`Played::draw_bead`](crate::session::traits::Played::draw_bead)).
    pub(super) fn drawn_bead(&mut self) -> Result<(), SessionError> {
        if !self.awaits_bead() {
            return Err(SessionError::NotNow(format!(
                "no bead is waited for: it is not {}'s turn to draw",
                self.name
            )));
        }
        if self.step_once() {
            self.advance();
        }
        Ok(())
    }

    /// Whether the game waits for a person to draw the machine's bead from
    /// its real box: refereeing, the machine to move in a game not over, in
    /// a position it has a box for.
    fn awaits_bead(&self) -> bool {
        let Some(m) = self.mode.person_game().filter(|_| self.referee) else {
            return false;
        };
        m.mover(&self.trainer) == Mover::Machine
            && m.ending().is_none()
            && self.game().outcome(m.position()) == menace_core::game::Outcome::Ongoing
            && self.trainer.machine().box_for(m.position()).is_some()
    }

    /// Referee: the bead a person drew from the machine's box, by its
    /// colour's name as the page and the labels name it (`None`: the box
    /// was empty); the machine plays it, and the game goes on.
    pub(super) fn given_bead(&mut self, colour: Option<&str>) -> Result<(), SessionError> {
        if !self.awaits_bead() {
            return Err(SessionError::NotNow(format!(
                "no bead is waited for: it is not {}'s turn to draw",
                self.name
            )));
        }
        let game = self.game().clone();
        let machine = self.trainer.machine();
        let Some(m) = self.mode.person_game_mut() else {
            return Ok(());
        };
        let before = m.position().clone();
        let (index, _) = machine
            .box_for(&before)
            .ok_or_else(|| SessionError::NotNow("no box".to_string()))?;
        let b = machine.boxes().get(index as usize);
        let names: Vec<String> = crate::svg::box_colours(&game, &b.position(&game), &machine.box_moves(index))
            .into_iter()
            .map(|c| c.name())
            .collect();
        let asked = match colour {
            None => None,
            Some(name) => Some(
                names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name.trim()))
                    .ok_or_else(|| {
                        SessionError::Invalid(format!(
                            "box {} has no colour '{}': its colours are {}",
                            crate::labels::label_number(machine, index),
                            name.trim(),
                            names.join(", ")
                        ))
                    })? as u32,
            ),
        };
        match m
            .step_given(&mut self.trainer, asked)
            .map_err(|e| SessionError::NotNow(e.to_string()))?
        {
            Step::Machine(mv) => {
                self.history.push(game.move_name(&before, mv));
                let ply = self.history.len();
                self.last_draw = Some(self.note_draw(&before, mv, ply));
            }
            Step::Over(result, ending) => {
                self.finish_person_game(result, ending);
                return Ok(());
            }
            Step::Opponent(_) | Step::AwaitingPerson => {}
        }
        self.advance();
        Ok(())
    }

    /// Referee for a real machine, or not; a bead waited for is drawn at
    /// random once refereeing stops.
    pub(super) fn set_referee(&mut self, on: bool) {
        self.referee = on;
        if !on {
            self.advance();
        }
    }

    fn finish_person_game(&mut self, result: GameResult, ending: Ending) {
        let Some(m) = self.mode.take_person_game() else { return };
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
        self.last_changes = self.changes(&changes);
        self.last_game = self.drawn.iter().map(|d| d.index).collect();
        self.record(&record);
        self.finished = Some(Finished {
            pos,
            last,
            result: text,
        });
    }

    /// A training game played: counted in the run and recorded.
    fn count_training(&mut self, record: &GameRecord) {
        if let Some(run) = self.mode.run_mut() {
            run.count(record);
        }
        self.record(record);
    }

    /// Count a finished game, and keep its point of the curves.
    fn record(&mut self, record: &GameRecord) {
        self.score.add(record.result);
        let row = self.curves.push(record);
        if let Some(e) = record.exact {
            self.exact = Some(e);
        }
        if record.game.is_multiple_of(self.stride) || record.exact.is_some() {
            self.points
                .push(point(record.game, self.trainer.opponent_spec().to_string(), &row));
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
        let w = self.mode.watching_mut()?;
        match step {
            Step::Machine(mv) | Step::Opponent(mv) => {
                let machine_to_move = matches!(step, Step::Machine(_));
                let (frames, spec) = (w.frames, opponent_words(&w.spec, self.name));
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
                    let frame = Frame {
                        mover: if machine_to_move { self.name.to_string() } else { spec },
                        mv: game.move_name(&before, mv),
                        ply,
                        board: board_svg(&game, &after, &options),
                        draw,
                    };
                    if let Some(w) = self.mode.watching_mut() {
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
                let w = self.mode.take_watching()?;
                let spec = opponent_words(&w.spec, self.name);
                let who = capitalised(&spec);
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
                    (GameResult::Win, Ending::OpponentResigned) => format!("{who} resigns. {name} wins."),
                    (GameResult::Win, _) => format!("{name} wins."),
                    (GameResult::Loss, _) => format!("{who} wins."),
                    (GameResult::Draw, _) => "A draw.".to_string(),
                };
                self.last_changes = self.changes(&changes);
                self.last_game = self.drawn.iter().map(|d| d.index).collect();
                self.record(&record);
                self.end_watch(pos, last, text.clone());
                Some(to_json(&WatchedGame {
                    steps: w.steps,
                    result: text,
                    plies: self.history.len(),
                    stopped: None,
                }))
            }
        }
    }

    /// The machine drew `mv` at `pos` (the position before it, at `ply`):
    /// keep the box as drawn, for the after-game changes, and show it.
    fn note_draw(&mut self, pos: &G::Position, mv: G::Move, ply: usize) -> Draw {
        if let Some((index, sym)) = self.trainer.machine().box_for(pos) {
            self.drawn.push(Drawn {
                index,
                pos: pos.clone(),
                sym,
                ply,
            });
        }
        self.draw(pos, mv, ply)
    }
}

/// An opponent as the page names it beside the machine `name`: a second
/// machine is "a second HER", not "menace".
fn opponent_words(spec: &OpponentSpec, name: &str) -> String {
    match spec {
        OpponentSpec::Menace(_) => format!("a second {name}"),
        other => other.to_string(),
    }
}

/// `text` with its first letter a capital, to begin a sentence.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// A point of the curves at `game`: the metrics of `row` that are numbers.
fn point(game: u64, opponent: String, row: &MetricRow) -> Point {
    let metrics = row
        .iter()
        .filter(|(_, v)| v.is_finite())
        .map(|(m, v)| (m.name(), v))
        .collect();
    Point {
        game,
        opponent,
        metrics,
    }
}
