//! A game in progress for an environment: the position, its legal moves as
//! numbered actions, and what each player observes, for any game of the
//! registry. Actions and observations are made from the game's picture
//! (its cells and the cells a move joins), so nothing here knows a game by
//! name.

use std::any::Any;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use menace_core::game::{Game, Outcome, Player};
use menace_core::picture::{Look, Picture};
use menace_core::{with_game, AnyGame};

use crate::value_error;

/// Actions a pair of cells may stand for: a pawn reaching the far rank of
/// Mini Hexchess may become one of three pieces by the same two cells.
const SAME_CELLS: usize = 4;

/// The chess letters, one observation channel each (per side).
const LETTERS: [char; 6] = ['K', 'Q', 'R', 'B', 'N', 'P'];

/// How a game's moves are numbered and its positions observed.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Cells of the board.
    cells: usize,
    /// Every move places a stone on one cell (noughts and crosses, Hex):
    /// an action is a cell. Otherwise an action is a pair of cells.
    placing: bool,
    /// Kinds of piece observed apart: 1, or the six chess letters.
    kinds: usize,
}

impl Layout {
    fn of<G: Picture>(game: &G) -> Layout {
        let start = game.start();
        let placing = game
            .moves(&start)
            .into_iter()
            .all(|mv| game.move_cells(&start, mv).from.is_none());
        let lettered = game.pieces(&start).iter().any(|p| matches!(p.look, Look::Letter(_)));
        Layout {
            cells: game.board().cells.len(),
            placing,
            kinds: if lettered { LETTERS.len() } else { 1 },
        }
    }

    /// Actions in all: the numbered moves, then one for a move that joins no
    /// cell (Hex's swap).
    fn actions(&self) -> usize {
        if self.placing {
            self.cells + 1
        } else {
            (self.cells * self.cells + 1) * SAME_CELLS
        }
    }

    /// The first action of the moves joining `from` and `to`.
    fn base(&self, from: Option<usize>, to: Option<usize>) -> usize {
        match (self.placing, from, to) {
            (true, _, Some(to)) => to,
            (false, from, Some(to)) => (from.unwrap_or(to) * self.cells + to) * SAME_CELLS,
            (true, _, None) => self.cells,
            (false, _, None) => self.cells * self.cells * SAME_CELLS,
        }
    }

    fn channel(&self, look: Look) -> usize {
        match look {
            Look::Letter(c) => LETTERS.iter().position(|&l| l == c.to_ascii_uppercase()).unwrap_or(0),
            _ => 0,
        }
    }
}

/// A game and its position, with the position's legal moves numbered.
pub(crate) struct Play<G: Game> {
    pub(crate) game: G,
    pub(crate) pos: G::Position,
    /// Plies played since the start (a machine's move number is plies / 2 + 1).
    pub(crate) plies: u32,
    layout: Layout,
    /// The legal moves of `pos` with their actions, in action order.
    legal: Vec<(usize, G::Move)>,
}

impl<G: Game + Picture> Play<G> {
    fn new(game: G) -> Play<G> {
        let layout = Layout::of(&game);
        let pos = game.start();
        let mut play = Play {
            game,
            pos,
            plies: 0,
            layout,
            legal: Vec::new(),
        };
        play.number_moves();
        play
    }

    fn number_moves(&mut self) {
        self.legal.clear();
        if self.game.outcome(&self.pos).is_over() {
            return;
        }
        let mut moves = self.game.moves(&self.pos);
        moves.sort();
        let mut taken = std::collections::HashMap::<usize, usize>::new();
        for mv in moves {
            let cells = self.game.move_cells(&self.pos, mv);
            let base = self.layout.base(cells.from, cells.to);
            let slot = taken.entry(base).or_insert(0);
            let per = if self.layout.placing { 1 } else { SAME_CELLS };
            // Never reached by the games of the table; a game that joins the
            // same cells in more ways gets its extra moves unnumbered.
            if *slot < per {
                self.legal.push((base + *slot, mv));
            }
            *slot += 1;
        }
        self.legal.sort_by_key(|&(a, _)| a);
    }

    /// The action of a legal move.
    pub(crate) fn action_of(&self, mv: G::Move) -> Option<usize> {
        self.legal.iter().find(|&&(_, m)| m == mv).map(|&(a, _)| a)
    }

    fn move_of(&self, action: usize) -> Option<G::Move> {
        self.legal.iter().find(|&&(a, _)| a == action).map(|&(_, m)| m)
    }

    fn apply(&mut self, mv: G::Move) {
        self.pos = self.game.play(&self.pos, mv);
        self.plies += 1;
        self.number_moves();
    }
}

/// What the Python class asks of a game in progress, whatever the game.
pub(crate) trait Erased: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn boxed_clone(&self) -> Box<dyn Erased>;
    fn spec(&self) -> String;
    fn player_name(&self, p: Player) -> &'static str;
    fn actions(&self) -> usize;
    fn shape(&self) -> (usize, usize);
    fn cell_names(&self) -> Vec<String>;
    fn legal(&self) -> Vec<usize>;
    fn move_name(&self, action: usize) -> Option<String>;
    fn play(&mut self, action: usize) -> Result<(), String>;
    fn play_text(&mut self, text: &str) -> Result<usize, String>;
    fn turn(&self) -> Player;
    fn outcome(&self) -> Outcome;
    fn observation(&self, player: Player) -> Vec<u8>;
    fn diagram(&self) -> String;
    fn position_string(&self) -> String;
    fn set_position(&mut self, text: &str) -> Result<(), String>;
    fn reset(&mut self, seed: u64);
    fn plies(&self) -> u32;
}

impl<G: Game + Picture> Erased for Play<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn boxed_clone(&self) -> Box<dyn Erased> {
        Box::new(Play {
            game: self.game.clone(),
            pos: self.pos.clone(),
            plies: self.plies,
            layout: self.layout,
            legal: self.legal.clone(),
        })
    }

    fn spec(&self) -> String {
        self.game.spec()
    }

    fn player_name(&self, p: Player) -> &'static str {
        self.game.player_name(p)
    }

    fn actions(&self) -> usize {
        self.layout.actions()
    }

    fn shape(&self) -> (usize, usize) {
        (self.layout.cells, 2 * self.layout.kinds)
    }

    fn cell_names(&self) -> Vec<String> {
        self.game.board().cells.into_iter().map(|c| c.name).collect()
    }

    fn legal(&self) -> Vec<usize> {
        self.legal.iter().map(|&(a, _)| a).collect()
    }

    fn move_name(&self, action: usize) -> Option<String> {
        self.move_of(action).map(|mv| self.game.move_name(&self.pos, mv))
    }

    fn play(&mut self, action: usize) -> Result<(), String> {
        match self.move_of(action) {
            Some(mv) => {
                self.apply(mv);
                Ok(())
            }
            None if self.game.outcome(&self.pos).is_over() => Err(format!("action {action}: the game is over")),
            None => Err(format!(
                "action {action} is not a legal move in '{}': expected one of {:?}",
                self.game.position_string(&self.pos),
                self.legal()
            )),
        }
    }

    fn play_text(&mut self, text: &str) -> Result<usize, String> {
        let mv = self.game.parse_move(&self.pos, text).map_err(|e| e.to_string())?;
        let action = self
            .action_of(mv)
            .ok_or_else(|| format!("move '{text}' has no action here"))?;
        self.apply(mv);
        Ok(action)
    }

    fn turn(&self) -> Player {
        self.game.turn(&self.pos)
    }

    fn outcome(&self) -> Outcome {
        self.game.outcome(&self.pos)
    }

    fn observation(&self, player: Player) -> Vec<u8> {
        let (cells, channels) = self.shape();
        let mut planes = vec![0u8; cells * channels];
        for piece in self.game.pieces(&self.pos) {
            let side = usize::from(piece.owner != player);
            let channel = side * self.layout.kinds + self.layout.channel(piece.look);
            if piece.cell < cells {
                planes[piece.cell * channels + channel] = 1;
            }
        }
        planes
    }

    fn diagram(&self) -> String {
        self.game.diagram(&self.pos)
    }

    fn position_string(&self) -> String {
        self.game.position_string(&self.pos)
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        self.pos = self.game.parse_position(text).map_err(|e| e.to_string())?;
        self.plies = 0;
        self.number_moves();
        Ok(())
    }

    fn reset(&mut self, seed: u64) {
        self.pos = if self.game.starts().len() > 1 {
            self.game.seeded_start(seed)
        } else {
            self.game.start()
        };
        self.plies = 0;
        self.number_moves();
    }

    fn plies(&self) -> u32 {
        self.plies
    }
}

/// The game of a spec string, or the registry's message.
pub(crate) fn parse_game(spec: &str) -> PyResult<AnyGame> {
    menace_core::parse_spec(spec).map_err(value_error)
}

fn player(index: usize) -> PyResult<Player> {
    match index {
        0 => Ok(Player::One),
        1 => Ok(Player::Two),
        _ => Err(value_error(format!(
            "player {index}: expected 0 (who moves first) or 1"
        ))),
    }
}

pub(crate) fn player_index(p: Player) -> usize {
    match p {
        Player::One => 0,
        Player::Two => 1,
    }
}

/// A game in progress, for any game spec: its legal moves as numbered
/// actions and each player's view of the board as an array. The engine
/// under `menace.env`.
#[pyclass(module = "menace._menace")]
pub struct Table {
    pub(crate) inner: Box<dyn Erased>,
}

#[pymethods]
impl Table {
    /// The start of the game `spec` (e.g. `"hexapawn:4x4,pawn=berolina"`).
    #[new]
    fn new(spec: &str) -> PyResult<Table> {
        let game = parse_game(spec)?;
        Ok(Table {
            inner: with_game!(game, g => Box::new(Play::new(g)) as Box<dyn Erased>),
        })
    }

    /// The game's spec string.
    #[getter]
    fn spec(&self) -> String {
        self.inner.spec()
    }

    /// The players' names, the first to move first.
    #[getter]
    fn players(&self) -> (String, String) {
        (
            self.inner.player_name(Player::One).to_string(),
            self.inner.player_name(Player::Two).to_string(),
        )
    }

    /// How many actions there are (legal or not) in every position.
    #[getter]
    fn action_count(&self) -> usize {
        self.inner.actions()
    }

    /// The shape of an observation: (cells, channels).
    #[getter]
    fn observation_shape(&self) -> (usize, usize) {
        self.inner.shape()
    }

    /// The board's cell names, in the order of an observation's rows.
    #[getter]
    fn cells(&self) -> Vec<String> {
        self.inner.cell_names()
    }

    /// The legal actions, in increasing order (none once the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal()
    }

    /// The move an action plays, in the game's notation (None if not legal).
    fn move_name(&self, action: usize) -> Option<String> {
        self.inner.move_name(action)
    }

    /// Play a legal action.
    fn play(&mut self, action: usize) -> PyResult<()> {
        self.inner.play(action).map_err(value_error)
    }

    /// Play a move given in the game's notation; its action.
    fn play_move(&mut self, text: &str) -> PyResult<usize> {
        self.inner.play_text(text).map_err(value_error)
    }

    /// The player to move: 0 or 1.
    #[getter]
    fn turn(&self) -> usize {
        player_index(self.inner.turn())
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.outcome().is_over()
    }

    /// The winner (0 or 1) of a finished game; None while it goes on or after a draw.
    #[getter]
    fn winner(&self) -> Option<usize> {
        match self.inner.outcome() {
            Outcome::Win(p) => Some(player_index(p)),
            _ => None,
        }
    }

    /// Player `player`'s view: a flat byte string of (cells × channels),
    /// their own pieces in the first half of the channels.
    fn observation<'py>(&self, py: Python<'py>, player_: usize) -> PyResult<Bound<'py, PyBytes>> {
        let p = player(player_)?;
        Ok(PyBytes::new(py, &self.inner.observation(p)))
    }

    /// The position as a text diagram.
    fn diagram(&self) -> String {
        self.inner.diagram()
    }

    /// The position's compact string (it reads back with `set_position`).
    #[getter]
    fn position(&self) -> String {
        self.inner.position_string()
    }

    /// Set the position from its compact string.
    fn set_position(&mut self, text: &str) -> PyResult<()> {
        self.inner.set_position(text).map_err(value_error)
    }

    /// Back to the start (a game whose start is drawn by a seed, Hex's
    /// first player, draws it from `seed`).
    #[pyo3(signature = (seed=0))]
    fn reset(&mut self, seed: u64) {
        self.inner.reset(seed)
    }

    /// Plies played since the start.
    #[getter]
    fn plies(&self) -> u32 {
        self.inner.plies()
    }

    /// A copy of the game in progress.
    fn copy(&self) -> Table {
        Table {
            inner: self.inner.boxed_clone(),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Table('{}', position='{}')",
            self.inner.spec(),
            self.inner.position_string()
        )
    }
}
