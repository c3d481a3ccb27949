//! The perfect Hex opponent: positions solved one at a time as games reach
//! them, by the proof-number search of [`super::dfpn`], with what it proved
//! kept across moves and games in its transposition table (of fixed size)
//! and the answers in a cache of at most [`CACHE`] positions.
//!
//! In a won position it gives every winning move that is not an inferior
//! cell (dead, or in a captured pair: [`super::inferior`]), each checked by
//! solving the position after it; the caller chooses among them at random
//! with its own seeded generator. In a lost position, where a proof carries
//! no distance, it resists by this rule: it gives the cells of the
//! must-play region (those that keep every virtual connection of the
//! opponent's between its edges from being completed next, after fill-in),
//! the swap too where it is pending; and where there is no such cell (the
//! opponent is already connected virtually), every empty cell left after
//! fill-in.

use rustc_hash::FxHashMap;

use super::board::{Hex, HexMove, HexPosition};
use super::dfpn::{Look, Solver, State, Step};
use super::solver::{state, table_bits};
use crate::game::{PositionSolver, Rules};

/// The largest board the perfect opponent plays (6×6: one opening's
/// replies take seconds to prove; 7×7's would take minutes).
pub const MAX_SIZE: u8 = 6;

/// The most positions whose answers are cached; the cache starts afresh when full.
pub const CACHE: usize = 1 << 16;

/// The perfect opponent of an N×N board.
pub struct HexPerfect {
    game: Hex,
    /// Made on the first question (its table is tens of megabytes at 6×6).
    solver: Option<Box<Solver>>,
    cache: FxHashMap<HexPosition, Vec<HexMove>>,
}

/// The perfect opponent, for boards up to [`MAX_SIZE`].
pub fn position_solver(game: &Hex) -> Option<Box<dyn PositionSolver<Hex>>> {
    (game.size() <= MAX_SIZE).then(|| {
        Box::new(HexPerfect {
            game: game.clone(),
            solver: None,
            cache: FxHashMap::default(),
        }) as Box<dyn PositionSolver<Hex>>
    })
}

/// What the perfect opponent makes of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the side to move wins.
    pub wins: bool,
    /// The winning moves (all but inferior ones), or the resisting moves when lost.
    pub moves: Vec<HexMove>,
}

impl HexPerfect {
    /// Who wins `pos` (not over), with the moves as the module describes.
    pub fn verdict(&mut self, pos: &HexPosition) -> Verdict {
        let n = u32::from(self.game.size());
        let swap = self.game.swap_allowed();
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(Solver::new(n, swap, table_bits(n))));
        verdict(solver, pos, None, None).expect("an unbounded search finishes")
    }
}

/// Who wins `pos` (not over) on `game`'s board (at most 8×8), with the
/// moves as the module describes; `None` if not found within `max_searched`
/// positions searched or by `deadline`.
pub fn solve_position(
    game: &Hex,
    pos: &HexPosition,
    max_searched: Option<u64>,
    deadline: Option<std::time::Instant>,
) -> Option<Verdict> {
    let n = u32::from(game.size());
    if game.size() > super::solver::MAX_SIZE || game.outcome(pos).is_over() {
        return None;
    }
    let solver = Solver::new(n, game.swap_allowed(), table_bits(n));
    verdict(&solver, pos, max_searched, deadline)
}

/// [`HexPerfect::verdict`] on `solver`'s board, `None` when the budget
/// runs out first (`max_searched` positions from now, `deadline`).
fn verdict(
    solver: &Solver,
    pos: &HexPosition,
    max_searched: Option<u64>,
    deadline: Option<std::time::Instant>,
) -> Option<Verdict> {
    solver.set_budget(max_searched, deadline);
    let mut w = solver.worker();
    let st = state(pos);
    let wins = w.solve(st).ok()?;
    let (filled, cells, swap) = match w.look(&st) {
        Look::Moves { filled, cells, swap } => (filled, cells, swap),
        // Won by a connection, or lost: every empty cell left is a candidate.
        _ => {
            let filled = solver.fill(&st);
            (filled, solver.geometry().full & !(filled[0] | filled[1]), false)
        }
    };
    let to_move = |step: Step| match step {
        Step::Cell(c) => HexMove::Place(c as u16),
        Step::Swap => HexMove::Swap,
    };
    let mut moves: Vec<HexMove> = if wins {
        // A winning move is in the must-play region, or wins at once.
        let g = solver.geometry();
        let side = st.side;
        let empty = g.full & !(filled[0] | filled[1]);
        let at_once = (0..g.n * g.n)
            .filter(|&c| empty >> c & 1 == 1 && g.connects(filled[side] | 1 << c, side))
            .fold(0u64, |m, c| m | 1 << c);
        let mut out = Vec::new();
        for step in w.steps(cells | at_once, swap) {
            let child: State = w.child(&st, filled, step);
            if !w.solve(child).ok()? {
                out.push(to_move(step));
            }
        }
        out
    } else {
        w.steps(cells, swap).into_iter().map(to_move).collect()
    };
    if moves.is_empty() {
        // Lost with nothing to guard: any cell left after fill-in, else any cell.
        let g = solver.geometry();
        let left = g.full & !(filled[0] | filled[1]);
        let all = g.full & !(st.stones[0] | st.stones[1]);
        let cells = if left != 0 { left } else { all };
        moves = (0..g.n * g.n)
            .filter(|&c| cells >> c & 1 == 1)
            .map(|c| HexMove::Place(c as u16))
            .collect();
    }
    moves.sort();
    Some(Verdict { wins, moves })
}

impl PositionSolver<Hex> for HexPerfect {
    fn best_moves(&mut self, pos: &HexPosition) -> Vec<HexMove> {
        if let Some(m) = self.cache.get(pos) {
            return m.clone();
        }
        let moves = if self.game.outcome(pos).is_over() {
            Vec::new()
        } else {
            self.verdict(pos).moves
        };
        if self.cache.len() >= CACHE {
            self.cache.clear();
        }
        self.cache.insert(*pos, moves.clone());
        moves
    }
}
