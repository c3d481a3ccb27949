//! An exact solver written against [`Game`]: game values with the distance
//! to the end, memoised on canonical positions.

use std::cmp::Ordering;
use std::fmt;

use rustc_hash::FxHashMap;

pub use crate::game::limits::TooLarge;
use crate::game::{Game, Outcome};

/// The game-theoretic value of a position for the player to move, with the
/// number of plies to the end under best play (the winner hurries, the loser
/// holds out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "result", content = "plies", rename_all = "lowercase")]
pub enum Value {
    /// The player to move wins, in this many plies.
    Win(u32),
    /// Drawn with best play.
    Draw,
    /// The player to move loses, in this many plies.
    Loss(u32),
}

const MATE: i32 = 100_000;

impl Value {
    /// A number that orders values from the mover's point of view: any win
    /// beats a draw beats any loss; quicker wins and slower losses are better.
    pub fn score(self) -> i32 {
        match self {
            Value::Win(n) => MATE - n as i32,
            Value::Draw => 0,
            Value::Loss(n) => -(MATE - n as i32),
        }
    }

    fn from_score(s: i32) -> Value {
        match s.cmp(&0) {
            Ordering::Greater => Value::Win((MATE - s) as u32),
            Ordering::Equal => Value::Draw,
            Ordering::Less => Value::Loss((MATE + s) as u32),
        }
    }

    /// The value for the player who moved into a position of value `self`.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Draw => Value::Draw,
            Value::Loss(n) => Value::Win(n + 1),
        }
    }

    /// The value of a finished position for the player to move.
    pub fn of_outcome<G: Game>(game: &G, pos: &G::Position, outcome: Outcome) -> Option<Value> {
        match outcome {
            Outcome::Ongoing => None,
            Outcome::Draw => Some(Value::Draw),
            Outcome::Win(p) if p == game.turn(pos) => Some(Value::Win(0)),
            Outcome::Win(_) => Some(Value::Loss(0)),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n} {}", plies(*n)),
            Value::Draw => write!(f, "draw"),
            Value::Loss(n) => write!(f, "loss in {n} {}", plies(*n)),
        }
    }
}

/// The score ([`Value::score`]) of a position for the player who moved
/// into it, from its score for the player to move there.
pub(crate) fn parent_score(score: i32) -> i32 {
    Value::from_score(score).parent().score()
}

/// "ply" or "plies".
pub fn plies(n: u32) -> &'static str {
    if n == 1 {
        "ply"
    } else {
        "plies"
    }
}

/// A limit on stored positions lowered so that a table of them stays under
/// a gigabyte at its peak, whatever the limit asked for: `solve --table
/// --max-positions 1000000000` reached 3.2 GB, and 20 million Hexapawn
/// positions 1.6 GB, where each cost 81 bytes.
///
/// An entry of a hash table from positions to a value costs the pair and a
/// control byte, times about 3 at the worst moment: a table at most 7/8 full,
/// sized to a power of two, and old and new tables both alive while it grows.
///
/// ```
/// use menace_core::search::solver::memory_bounded;
/// // A 24-byte position: a pair of 32 bytes and a control byte, 99 at the peak.
/// assert_eq!(memory_bounded::<[u64; 3]>(usize::MAX), (1 << 30) / 99);
/// assert_eq!(memory_bounded::<[u64; 3]>(1000), 1000);
/// ```
pub fn memory_bounded<P>(limit: usize) -> usize {
    const BUDGET: usize = 1 << 30;
    limit.min(BUDGET / (3 * (std::mem::size_of::<(P, u64)>() + 1)))
}

/// How often, in positions stored, a search reports its progress.
pub const PROGRESS_EVERY: usize = 1 << 16;

/// The default limit on stored positions: about a gigabyte at most.
pub const DEFAULT_LIMIT: usize = 20_000_000;

/// Exact values with distance, memoised on canonical positions.
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::Hexapawn;
/// use menace_core::search::solver::{Solver, Value};
/// let game = Hexapawn::new(3, 3).unwrap();
/// let mut solver = Solver::new(game.clone());
/// assert_eq!(solver.value(&game.start()).unwrap(), Value::Loss(6));
/// ```
pub struct Solver<G: Game> {
    game: G,
    memo: FxHashMap<G::Position, i32>,
    limit: usize,
    nodes: u64,
    /// A game far too large for exhaustive search: refused at once.
    refused: bool,
    /// Told the positions stored every [`PROGRESS_EVERY`] (a long solve's spinner).
    progress: Option<Box<dyn FnMut(usize) + Send + Sync>>,
}

impl<G: Game> Solver<G> {
    /// A solver with the default position limit.
    pub fn new(game: G) -> Self {
        Self::with_limit(game, DEFAULT_LIMIT)
    }

    /// A solver that gives up with [`TooLarge`] past `limit` stored positions.
    pub fn with_limit(game: G, limit: usize) -> Self {
        let limit = memory_bounded::<G::Position>(limit);
        Solver {
            refused: game.too_large_for_exhaustive_search(),
            game,
            memo: FxHashMap::default(),
            limit,
            nodes: 0,
            progress: None,
        }
    }

    /// Call `report` with the positions stored every [`PROGRESS_EVERY`] of them.
    pub fn on_progress(&mut self, report: impl FnMut(usize) + Send + Sync + 'static) {
        self.progress = Some(Box::new(report));
    }

    /// The limit on stored positions, as lowered by [`memory_bounded`].
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Positions stored so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// Positions searched so far (including revisits answered from memory).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `pos` for the player to move.
    pub fn value(&mut self, pos: &G::Position) -> Result<Value, TooLarge> {
        self.score(pos).map(Value::from_score)
    }

    fn score(&mut self, pos: &G::Position) -> Result<i32, TooLarge> {
        if self.refused {
            return Err(TooLarge {
                game: self.game.spec(),
                limit: self.limit,
            });
        }
        self.nodes += 1;
        let outcome = self.game.outcome(pos);
        if let Some(v) = Value::of_outcome(&self.game, pos, outcome) {
            return Ok(v.score());
        }
        let (key, _) = self.game.canonical(pos);
        if let Some(&s) = self.memo.get(&key) {
            return Ok(s);
        }
        if self.memo.len() >= self.limit {
            return Err(TooLarge {
                game: self.game.spec(),
                limit: self.limit,
            });
        }
        let moves = self.game.moves(pos);
        let mut best = i32::MIN;
        for mv in moves {
            let child = self.game.play(pos, mv);
            let s = parent_score(self.score(&child)?);
            best = best.max(s);
        }
        self.memo.insert(key, best);
        if self.memo.len().is_multiple_of(PROGRESS_EVERY) {
            if let Some(report) = self.progress.as_mut() {
                report(self.memo.len());
            }
        }
        Ok(best)
    }

    /// Every legal move with its value for the player making it.
    pub fn move_values(&mut self, pos: &G::Position) -> Result<Vec<(G::Move, Value)>, TooLarge> {
        let moves = self.game.moves(pos);
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let child = self.game.play(pos, mv);
            out.push((mv, self.value(&child)?.parent()));
        }
        Ok(out)
    }

    /// The moves that keep the best value (fastest win, slowest loss).
    pub fn best_moves(&mut self, pos: &G::Position) -> Result<Vec<G::Move>, TooLarge> {
        let values = self.move_values(pos)?;
        let best = values.iter().map(|(_, v)| v.score()).max();
        Ok(values
            .into_iter()
            .filter(|(_, v)| Some(v.score()) == best)
            .map(|(m, _)| m)
            .collect())
    }

    /// One line of best play from `pos` to the end (the first best move each time).
    pub fn principal_line(&mut self, pos: &G::Position) -> Result<Vec<G::Move>, TooLarge> {
        let mut line = Vec::new();
        let mut here = pos.clone();
        while let Some(&mv) = self.best_moves(&here)?.first() {
            line.push(mv);
            here = self.game.play(&here, mv);
        }
        Ok(line)
    }
}

/// Who wins `pos` with best play, without distances: stops at the first
/// winning move, so it reaches larger games than [`Solver`]. Returns the
/// outcome under best play and the number of positions stored.
pub fn winner<G: Game>(game: &G, pos: &G::Position, limit: usize) -> Result<(Outcome, usize), TooLarge> {
    winner_reporting(game, pos, limit, &mut |_| {})
}

/// [`winner`], calling `progress` with the positions stored every
/// [`PROGRESS_EVERY`] of them. The limit is lowered by [`memory_bounded`].
pub fn winner_reporting<G: Game>(
    game: &G,
    pos: &G::Position,
    limit: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<(Outcome, usize), TooLarge> {
    if let Some(answer) = game.winner_oracle(std::slice::from_ref(pos), limit) {
        return answer.map(|o| (o.first().copied().unwrap_or(Outcome::Ongoing), 0));
    }
    generic_winner(game, pos, limit, progress)
}

/// [`winner_reporting`] by the generic search alone, even for a game with a
/// dedicated solver of its own (to check one against the other).
pub fn generic_winner<G: Game>(
    game: &G,
    pos: &G::Position,
    limit: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<(Outcome, usize), TooLarge> {
    let limit = memory_bounded::<G::Position>(limit);
    let mut memo: FxHashMap<G::Position, i8> = FxHashMap::default();
    let mut buffers: Vec<Vec<G::Move>> = Vec::new();
    let s = win_draw_loss(game, pos, &mut memo, limit, &mut buffers, 0, progress)?;
    let mover = game.turn(pos);
    let outcome = match s {
        1 => Outcome::Win(mover),
        -1 => Outcome::Win(mover.other()),
        _ => Outcome::Draw,
    };
    Ok((outcome, memo.len()))
}

fn win_draw_loss<G: Game>(
    game: &G,
    pos: &G::Position,
    memo: &mut FxHashMap<G::Position, i8>,
    limit: usize,
    buffers: &mut Vec<Vec<G::Move>>,
    depth: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<i8, TooLarge> {
    match game.outcome(pos) {
        Outcome::Ongoing => {}
        Outcome::Draw => return Ok(0),
        Outcome::Win(p) => return Ok(if p == game.turn(pos) { 1 } else { -1 }),
    }
    let (key, _) = game.canonical(pos);
    if let Some(&s) = memo.get(&key) {
        return Ok(s);
    }
    if memo.len() >= limit {
        return Err(TooLarge {
            game: game.spec(),
            limit,
        });
    }
    if buffers.len() <= depth {
        buffers.push(Vec::new());
    }
    let mut moves = std::mem::take(&mut buffers[depth]);
    game.legal_moves(pos, &mut moves);
    let mut best = -1i8;
    let mut result = Ok(());
    // A move that wins at once settles the position without searching the rest.
    let mover = game.turn(pos);
    if moves
        .iter()
        .any(|&mv| game.outcome(&game.play(pos, mv)) == Outcome::Win(mover))
    {
        buffers[depth] = moves;
        return Ok(1);
    }
    for &mv in &moves {
        let child = game.play(pos, mv);
        match win_draw_loss(game, &child, memo, limit, buffers, depth + 1, progress) {
            Ok(s) => best = best.max(-s),
            Err(e) => {
                result = Err(e);
                break;
            }
        }
        if best == 1 {
            break;
        }
    }
    buffers[depth] = moves;
    result?;
    memo.insert(key, best);
    if memo.len().is_multiple_of(PROGRESS_EVERY) {
        progress(memo.len());
    }
    Ok(best)
}
