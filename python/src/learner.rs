//! `menace.Machine`: a matchbox machine with its opponent and random stream
//! (the core's trainer), for any game: trained in Rust, saved and loaded in
//! the state file of `menace train --save`, and played as an agent in an
//! environment, learning as it plays.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use menace_core::fsutil::{read_text, write_atomic};
use menace_core::game::{Game, Player};
use menace_core::machine::{Choice, GameResult};
use menace_core::picture::Picture;
use menace_core::training::lifetime::{life_against, Life, LifeError, LifeLimits};
use menace_core::training::opponent::OpponentSpec;
use menace_core::training::run::TrainingRun;
use menace_core::training::state;
use menace_core::training::trainer::{ExactPair, Tally, Trainer};
use menace_core::with_game;

use crate::table::{player_index, Play, Table};
use crate::value_error;

/// One box as Python reads it.
pub(crate) struct BoxView {
    position: String,
    diagram: String,
    own_move: u32,
    moves: Vec<String>,
    beads: Vec<u32>,
}

/// A run's results for Python: each game's result code as a byte (+1,
/// 0, −1), wins, draws, losses, the game of the last loss, and the game
/// after which the machine had learned.
pub(crate) type Tallied = (Py<PyBytes>, u64, u64, u64, Option<u64>, Option<u64>);

/// A run's results as Python receives them.
pub(crate) fn tallied(py: Python<'_>, outcomes: &[i8], tally: &Tally) -> Tallied {
    let bytes: Vec<u8> = outcomes.iter().map(|&x| x as u8).collect();
    (
        PyBytes::new(py, &bytes).unbind(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.last_loss,
        tally.learned(),
    )
}

/// A game's result for the machine as a number: +1 win, 0 draw, −1 loss.
pub(crate) fn result_code(r: GameResult) -> i8 {
    match r {
        GameResult::Win => 1,
        GameResult::Draw => 0,
        GameResult::Loss => -1,
    }
}

/// What the Python class asks of a trainer, whatever its game.
pub(crate) trait Learner: Send {
    fn spec(&self) -> String;
    fn side(&self) -> Player;
    fn side_name(&self) -> &'static str;
    fn settings_text(&self) -> String;
    fn settings_json(&self) -> String;
    fn opponent(&self) -> String;
    fn seed(&self) -> Option<u64>;
    fn games_played(&self) -> u64;
    fn total_beads(&self) -> u64;
    fn initial_total(&self) -> u64;
    fn box_count(&self) -> usize;
    fn boxes(&self) -> Vec<BoxView>;
    fn state_json(&self) -> String;
    fn exact(&mut self) -> ExactPair;
    /// Play `games` games against the opponent: each game's result code, and the totals.
    fn train(&mut self, games: u64) -> (Vec<i8>, Tally);
    fn life(&self, games: usize, opponent: &OpponentSpec, limits: LifeLimits) -> Option<Result<Life, LifeError>>;
    /// Draw a bead for the position of `table` (`None`: an empty box, resign).
    fn choose(&mut self, table: &Table, rng: &mut ChaCha8Rng) -> Result<Option<usize>, String>;
    fn reinforce(&mut self, result: GameResult) -> Vec<(usize, usize, u32, u32)>;
    fn abandon(&mut self);
}

impl<G: Game + Picture> Learner for Trainer<G>
where
    Trainer<G>: Send,
{
    fn spec(&self) -> String {
        self.machine().game().spec()
    }

    fn side(&self) -> Player {
        self.machine().side()
    }

    fn side_name(&self) -> &'static str {
        self.machine().game().player_name(self.machine().side())
    }

    fn settings_text(&self) -> String {
        self.machine().settings().describe()
    }

    fn settings_json(&self) -> String {
        serde_json::to_string(self.machine().settings()).unwrap_or_default()
    }

    fn opponent(&self) -> String {
        self.opponent_spec().to_string()
    }

    fn seed(&self) -> Option<u64> {
        Trainer::seed(self)
    }

    fn games_played(&self) -> u64 {
        Trainer::games_played(self)
    }

    fn total_beads(&self) -> u64 {
        self.machine().total_beads()
    }

    fn initial_total(&self) -> u64 {
        self.machine().initial_total()
    }

    fn box_count(&self) -> usize {
        self.machine().boxes().len()
    }

    fn boxes(&self) -> Vec<BoxView> {
        let m = self.machine();
        let game = m.game();
        m.boxes()
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let pos = b.position(game);
                BoxView {
                    position: game.position_string(&pos),
                    diagram: game.diagram(&pos),
                    own_move: b.own_move,
                    moves: m
                        .box_moves(i as u32)
                        .into_iter()
                        .map(|mv| game.move_name(&pos, mv))
                        .collect(),
                    beads: b.beads.to_vec(),
                }
            })
            .collect()
    }

    fn state_json(&self) -> String {
        state::to_json(self)
    }

    fn exact(&mut self) -> ExactPair {
        Trainer::exact(self)
    }

    fn train(&mut self, games: u64) -> (Vec<i8>, Tally) {
        let mut run = TrainingRun::new(games, None);
        let mut outcomes = Vec::with_capacity(usize::try_from(games).unwrap_or(0));
        for _ in 0..games {
            outcomes.push(result_code(run.play_next(self).result));
        }
        (outcomes, *run.tally())
    }

    fn life(&self, games: usize, opponent: &OpponentSpec, limits: LifeLimits) -> Option<Result<Life, LifeError>> {
        life_against(self.machine(), opponent, games, limits, &mut |_| {})
    }

    fn choose(&mut self, table: &Table, rng: &mut ChaCha8Rng) -> Result<Option<usize>, String> {
        let Some(play) = table.inner.as_any().downcast_ref::<Play<G>>() else {
            return Err(format!(
                "the machine plays {}, the environment {}",
                self.spec(),
                table.inner.spec()
            ));
        };
        if play.game.spec() != self.spec() {
            return Err(format!(
                "the machine plays {}, the environment {}",
                self.spec(),
                play.game.spec()
            ));
        }
        if play.game.turn(&play.pos) != self.machine().side() {
            return Err(format!(
                "it is {}'s turn, and the machine plays {}",
                play.game.player_name(play.game.turn(&play.pos)),
                self.side_name()
            ));
        }
        let own_move = play.plies / 2 + 1;
        match self.machine_mut().choose(&play.pos, own_move, rng) {
            Choice::Play(mv) => Ok(Some(
                play.action_of(mv)
                    .ok_or_else(|| "the machine's move has no action".to_string())?,
            )),
            Choice::Resign => Ok(None),
        }
    }

    fn reinforce(&mut self, result: GameResult) -> Vec<(usize, usize, u32, u32)> {
        self.machine_mut()
            .reinforce(result)
            .into_iter()
            .map(|c| (c.box_index as usize, c.colour as usize, c.before, c.after))
            .collect()
    }

    fn abandon(&mut self) {
        self.machine_mut().abandon();
    }
}

/// A trainer of any game, boxed.
pub(crate) fn boxed<G: Game + Picture>(t: Trainer<G>) -> Box<dyn Learner>
where
    Trainer<G>: Send,
{
    Box::new(t)
}

/// The exact expected results as a dict: {"perfect": {...} or None, "random": ...}.
pub(crate) fn exact_dict<'py>(py: Python<'py>, e: &ExactPair) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, x) in [("perfect", e.perfect), ("random", e.random)] {
        match x {
            Some(x) => {
                let inner = PyDict::new(py);
                inner.set_item("win", x.win)?;
                inner.set_item("draw", x.draw)?;
                inner.set_item("loss", x.loss)?;
                d.set_item(name, inner)?;
            }
            None => d.set_item(name, py.None())?,
        }
    }
    Ok(d)
}

/// A matchbox machine: its boxes and beads, its settings, the opponent it
/// trains against and its random stream (the whole state of
/// `menace train --save`).
///
/// Make one with `Machine(game, ...)` (the settings of `menace.train`),
/// `menace.train(...)` or `Machine.load(path)`;
/// train it further with `train(games)`; play it in an environment as an
/// agent with `menace.MachineAgent`.
#[pyclass(module = "menace._menace")]
pub struct Machine {
    /// Behind a lock for Python's threads; held for one call at a time.
    inner: Mutex<Box<dyn Learner>>,
    /// The random stream of its draws as an agent in an environment (apart
    /// from its training stream, which `save` keeps).
    agent_rng: ChaCha8Rng,
}

impl Machine {
    pub(crate) fn new(inner: Box<dyn Learner>) -> Machine {
        let seed = inner.seed().unwrap_or(0);
        Machine {
            inner: Mutex::new(inner),
            agent_rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The trainer, for a call that only reads it.
    pub(crate) fn learner(&self) -> MutexGuard<'_, Box<dyn Learner>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The trainer, to change.
    pub(crate) fn learner_mut(&mut self) -> &mut Box<dyn Learner> {
        self.inner.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}

#[pymethods]
impl Machine {
    /// A fresh machine of `game`, with the settings of `menace.train` (the
    /// flags of `menace train`): it has played no game yet.
    #[new]
    #[pyo3(signature = (game, *, side=None, opponent=None, seed=0, preset=None, beads=None, reinforcement=None, empty_box=None, box_set=None, box_mode=None, symmetry=None))]
    #[allow(clippy::too_many_arguments)]
    fn fresh(
        py: Python<'_>,
        game: &str,
        side: Option<&str>,
        opponent: Option<&str>,
        seed: u64,
        preset: Option<&str>,
        beads: Option<&str>,
        reinforcement: Option<&str>,
        empty_box: Option<&str>,
        box_set: Option<&str>,
        box_mode: Option<&str>,
        symmetry: Option<bool>,
    ) -> PyResult<Machine> {
        let (machine, _) = crate::train::train(
            py,
            game,
            side,
            opponent,
            0,
            seed,
            preset,
            beads,
            reinforcement,
            empty_box,
            box_set,
            box_mode,
            symmetry,
        )?;
        Ok(machine)
    }

    /// Read a state file written by `save` or `menace train --save`.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Machine> {
        let text = read_text(&path).map_err(value_error)?;
        Machine::from_json_text(py, &text).map_err(|e| value_error(format!("state file '{}': {e}", path.display())))
    }

    /// Read a state as JSON text (the contents of a state file).
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Machine> {
        Machine::from_json_text(py, text).map_err(value_error)
    }

    /// Write the whole state (machine, opponent, random stream) to `path`,
    /// as `menace train --save` does; `menace train --resume` continues it.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        write_atomic(&path, self.learner().state_json().as_bytes()).map_err(value_error)
    }

    /// The whole state as JSON text.
    fn to_json(&self) -> String {
        self.learner().state_json()
    }

    /// Play `games` more games against its opponent, learning; the results
    /// as a `TrainResult` (as `menace train --resume` would play them).
    fn train(&mut self, py: Python<'_>, games: u64) -> Tallied {
        let inner = self.learner_mut();
        let (outcomes, tally) = py.allow_threads(|| inner.train(games));
        tallied(py, &outcomes, &tally)
    }

    /// The game's spec string.
    #[getter]
    fn game(&self) -> String {
        self.learner().spec()
    }

    /// The side it plays, by the game's name for it (`black`).
    #[getter]
    fn side(&self) -> &'static str {
        self.learner().side_name()
    }

    /// The side it plays as a player index: 0 moves first.
    #[getter]
    fn player(&self) -> usize {
        player_index(self.learner().side())
    }

    /// Its settings in words.
    #[getter]
    fn settings(&self) -> String {
        self.learner().settings_text()
    }

    /// Its settings as the state file writes them (JSON text).
    fn settings_json(&self) -> String {
        self.learner().settings_json()
    }

    /// The opponent it trains against (`random`, `perfect`, `mcts:100` ...).
    #[getter]
    fn opponent(&self) -> String {
        self.learner().opponent()
    }

    /// The seed its training started from, if known.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.learner().seed()
    }

    /// Games played over its life.
    #[getter]
    fn games_played(&self) -> u64 {
        self.learner().games_played()
    }

    /// Beads in all its boxes.
    #[getter]
    fn total_beads(&self) -> u64 {
        self.learner().total_beads()
    }

    /// Beads it started with.
    #[getter]
    fn initial_beads(&self) -> u64 {
        self.learner().initial_total()
    }

    fn __len__(&self) -> usize {
        self.learner().box_count()
    }

    /// Every box: a list of dicts with the box's `position` (compact
    /// string), `diagram`, `own_move` (the machine's move number), `moves`
    /// (one per bead colour, in notation) and `beads` (counts, by colour).
    fn boxes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for b in self.learner().boxes() {
            let d = PyDict::new(py);
            d.set_item("position", b.position)?;
            d.set_item("diagram", b.diagram)?;
            d.set_item("own_move", b.own_move)?;
            d.set_item("moves", b.moves)?;
            d.set_item("beads", b.beads)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Its exact expected result now against a perfect and a random
    /// opponent, from its bead counts, without sampling: a dict
    /// {"perfect": {"win", "draw", "loss"} or None, "random": ...}
    /// (None where the game is too large).
    fn exact<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let inner = self.learner_mut();
        let e = py.allow_threads(|| inner.exact());
        exact_dict(py, &e)
    }

    /// Set the seed of its draws as an agent in an environment.
    fn seed_agent(&mut self, seed: u64) {
        self.agent_rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Draw a bead for the position of `table` (the machine's turn): the
    /// action of its move, or None when its box is empty and it resigns.
    /// The draw is remembered for `reinforce`.
    fn choose(&mut self, table: &Table) -> PyResult<Option<usize>> {
        let rng = &mut self.agent_rng;
        self.inner
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .choose(table, rng)
            .map_err(value_error)
    }

    /// After a game played with `choose`: reinforce its draws by the
    /// result for the machine (+1 win, 0 draw, −1 loss), by its scheme.
    /// The bead counts that changed: (box index, colour, before, after).
    fn reinforce(&mut self, result: i32) -> PyResult<Vec<(usize, usize, u32, u32)>> {
        let r = match result {
            1 => GameResult::Win,
            0 => GameResult::Draw,
            -1 => GameResult::Loss,
            _ => {
                return Err(value_error(format!(
                    "result {result}: expected 1 (win), 0 (draw) or -1 (loss)"
                )))
            }
        };
        Ok(self.learner_mut().reinforce(r))
    }

    /// Forget the draws of an unfinished game without reinforcing.
    fn abandon(&mut self) {
        self.learner_mut().abandon()
    }

    fn __repr__(&self) -> String {
        let m = self.learner();
        format!(
            "Machine('{}', side='{}', opponent='{}', boxes={}, beads={}, games_played={})",
            m.spec(),
            m.side_name(),
            m.opponent(),
            m.box_count(),
            m.total_beads(),
            m.games_played()
        )
    }
}

impl Machine {
    fn from_json_text(py: Python<'_>, text: &str) -> Result<Machine, String> {
        let spec = state::peek_game(text).map_err(|e| e.to_string())?;
        let game = menace_core::parse_spec(&spec).map_err(|e| e.to_string())?;
        let inner = py.allow_threads(
            || with_game!(game, g => state::from_json(&g, text).map(boxed).map_err(|e| e.to_string())),
        )?;
        Ok(Machine::new(inner))
    }
}
