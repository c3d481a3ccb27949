//! The perfect Hex opponent: positions solved one at a time as games reach
//! them, by the proof-number search of `dfpn.rs`, with what it proved
//! kept across moves and games in its transposition table (of fixed size)
//! and the answers in a cache of at most [`CACHE`] positions.
//!
//! In a won position it gives every winning move that is not an inferior
//! cell (dead, or in a captured pair: `inferior.rs`), each checked by
//! solving the position after it; the caller chooses among them at random
//! with its own seeded generator. In a lost position, where a proof carries
//! no distance, it resists by this rule: it gives the cells of the
//! must-play region (those that keep every virtual connection of the
//! opponent's between its edges from being completed next, after fill-in),
//! the swap too where it is pending; and where there is no such cell (the
//! opponent is already connected virtually), every empty cell left after
//! fill-in.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

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

/// The most positions cached by each perfect opponent that shares its
/// table ([`shared_position_solver`]): what one more opponent costs (under
/// a megabyte).
pub const SHARED_CACHE: usize = 1 << 10;

/// The perfect opponent of an N×N board.
pub struct HexPerfect {
    game: Hex,
    /// Made on the first question (its table is tens of megabytes at 6×6).
    solver: Option<Arc<Solver>>,
    /// Whether the solver is the one every shared opponent of this board uses.
    shared: bool,
    cache: FxHashMap<HexPosition, Known>,
    /// The most positions `cache` holds.
    cache_size: usize,
    /// Set from another thread to stop a search (see [`PositionSolver::set_interrupt`]).
    interrupt: Option<Arc<AtomicBool>>,
}

/// The perfect opponent, for boards up to [`MAX_SIZE`], with a table of its own.
pub fn position_solver(game: &Hex) -> Option<Box<dyn PositionSolver<Hex>>> {
    (game.size() <= MAX_SIZE).then(|| Box::new(HexPerfect::new(game, false, CACHE)) as Box<dyn PositionSolver<Hex>>)
}

/// The perfect opponent, for boards up to [`MAX_SIZE`], with one table for
/// every such opponent of the same board (size and swap) in the process,
/// however many there are: a server's memory stays bounded (the table is
/// let go with the last of them). Each caches at most [`SHARED_CACHE`]
/// positions' answers.
pub fn shared_position_solver(game: &Hex) -> Option<Box<dyn PositionSolver<Hex>>> {
    (game.size() <= MAX_SIZE)
        .then(|| Box::new(HexPerfect::new(game, true, SHARED_CACHE)) as Box<dyn PositionSolver<Hex>>)
}

/// The solvers shared by the perfect opponents of each board, by size and swap.
type Shared = Vec<((u32, bool), Weak<Solver>)>;

static SHARED: Mutex<Shared> = Mutex::new(Vec::new());

/// The shared solver of an N×N board, made if no opponent holds it.
fn shared_solver(n: u32, swap: bool) -> Arc<Solver> {
    let mut all = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    all.retain(|(_, s)| s.strong_count() > 0);
    if let Some(s) = all.iter().find(|(k, _)| *k == (n, swap)).and_then(|(_, s)| s.upgrade()) {
        return s;
    }
    let s = Arc::new(Solver::new(n, swap, table_bits(n)));
    all.push(((n, swap), Arc::downgrade(&s)));
    s
}

/// What the perfect opponent makes of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the side to move wins.
    pub wins: bool,
    /// The winning moves (all but inferior ones), or the resisting moves when lost.
    pub moves: Vec<HexMove>,
}

/// What bounds one question's searches: an interrupt and a deadline.
#[derive(Clone, Copy)]
struct Within<'a> {
    stop: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
}

impl<'a> Within<'a> {
    /// No interrupt and no deadline: only the solver's own budget.
    const UNBOUNDED: Within<'static> = Within {
        stop: None,
        deadline: None,
    };

    fn worker(self, solver: &'a Solver) -> super::dfpn::Worker<'a> {
        solver.worker_within(self.stop, self.deadline)
    }
}

impl HexPerfect {
    fn new(game: &Hex, shared: bool, cache_size: usize) -> HexPerfect {
        HexPerfect {
            game: game.clone(),
            solver: None,
            shared,
            cache: FxHashMap::default(),
            cache_size,
            interrupt: None,
        }
    }

    /// Who wins `pos` (not over), with the moves as the module describes.
    pub fn verdict(&mut self, pos: &HexPosition) -> Verdict {
        let solver = self.solver();
        self.verdict_within(&solver, Within::UNBOUNDED, pos)
            .expect("a search without limits finishes")
    }

    /// [`Self::verdict`], `None` if stopped first.
    fn verdict_within(&mut self, solver: &Solver, within: Within, pos: &HexPosition) -> Option<Verdict> {
        let mut known = self.known(solver, within, pos)?;
        let verdict = known.verdict_within(solver, within);
        self.remember(*pos, known);
        verdict
    }

    fn solver(&mut self) -> Arc<Solver> {
        let n = u32::from(self.game.size());
        let swap = self.game.swap_allowed();
        let shared = self.shared;
        self.solver
            .get_or_insert_with(|| {
                if shared {
                    shared_solver(n, swap)
                } else {
                    Arc::new(Solver::new(n, swap, table_bits(n)))
                }
            })
            .clone()
    }

    /// What the cache holds of `pos` (taken out of it), or a first look;
    /// `None` if stopped first.
    fn known(&mut self, solver: &Solver, within: Within, pos: &HexPosition) -> Option<Known> {
        if let Some(known) = self.cache.remove(pos) {
            return Some(known);
        }
        Known::look(solver, within, pos)
    }

    fn remember(&mut self, pos: HexPosition, known: Known) {
        if self.cache.len() >= self.cache_size {
            self.cache.clear();
        }
        self.cache.insert(pos, known);
    }

    /// One of the winning (or resisting) moves, drawn from `rng`, searched
    /// until the interrupt or `deadline`: `None` if either came first.
    fn choose_within(
        &mut self,
        pos: &HexPosition,
        rng: &mut dyn rand::RngCore,
        deadline: Option<Instant>,
    ) -> Option<HexMove> {
        let solver = self.solver();
        let interrupt = self.interrupt.clone();
        let within = Within {
            stop: interrupt.as_deref(),
            deadline,
        };
        let mut known = self.known(&solver, within, pos)?;
        let mv = known.choose(&solver, within, rng);
        self.remember(*pos, known);
        mv
    }

    fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|i| i.load(Ordering::Relaxed))
    }

    /// A legal move of `pos`, for a search stopped by the interrupt: its
    /// game is about to be dropped.
    fn any_move(&self, pos: &HexPosition) -> HexMove {
        let mut moves = Vec::new();
        self.game.legal_moves(pos, &mut moves);
        moves[0]
    }
}

/// Who wins `pos` (not over) on `game`'s board (at most 8×8), with the
/// moves as the module describes; `None` if not found within `max_searched`
/// positions searched or by `deadline`.
pub fn solve_position(
    game: &Hex,
    pos: &HexPosition,
    max_searched: Option<u64>,
    deadline: Option<crate::clock::Instant>,
) -> Option<Verdict> {
    let n = u32::from(game.size());
    if game.size() > super::solver::MAX_SIZE || game.outcome(pos).is_over() {
        return None;
    }
    let solver = Solver::new(n, game.swap_allowed(), table_bits(n));
    solver.set_budget(max_searched, deadline);
    let within = Within::UNBOUNDED;
    Known::look(&solver, within, pos)?.verdict_within(&solver, within)
}

/// What is known of one position (not over).
enum Known {
    /// The side to move loses: the moves that resist, sorted.
    Lost(Vec<HexMove>),
    /// The side to move wins. The moves that may win (the must-play region
    /// and the cells that connect at once, inferior cells aside), sorted,
    /// each with whether it was proved to win (`None`: not yet looked at),
    /// on the board after fill-in.
    Won {
        st: State,
        filled: [u64; 2],
        moves: Vec<(HexMove, Option<bool>)>,
    },
}

impl Known {
    /// Solve `pos` and list its candidate moves; `None` when the budget
    /// set on `solver` runs out first, or `within`'s limits.
    fn look(solver: &Solver, within: Within, pos: &HexPosition) -> Option<Known> {
        let mut w = within.worker(solver);
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
        let g = solver.geometry();
        let mut moves: Vec<HexMove> = if wins {
            // A winning move is in the must-play region, or wins at once.
            let side = st.side;
            let empty = g.full & !(filled[0] | filled[1]);
            let at_once = (0..g.n * g.n)
                .filter(|&c| empty >> c & 1 == 1 && g.connects(filled[side] | 1 << c, side))
                .fold(0u64, |m, c| m | 1 << c);
            w.steps(cells | at_once, swap).into_iter().map(to_move).collect()
        } else {
            w.steps(cells, swap).into_iter().map(to_move).collect()
        };
        moves.sort();
        if !wins {
            if moves.is_empty() {
                // Lost with nothing to guard: any cell left after fill-in, else any cell.
                moves = any_cell(solver, &st, filled);
            }
            return Some(Known::Lost(moves));
        }
        Some(Known::Won {
            st,
            filled,
            moves: moves.into_iter().map(|m| (m, None)).collect(),
        })
    }

    /// The verdict, every candidate proved within the budget set on
    /// `solver` and `within`'s limits.
    fn verdict_within(&mut self, solver: &Solver, within: Within) -> Option<Verdict> {
        match self {
            Known::Lost(moves) => Some(Verdict {
                wins: false,
                moves: moves.clone(),
            }),
            Known::Won { .. } => {
                let n = self.candidates();
                for i in 0..n {
                    self.proves(solver, within, i)?;
                }
                let Known::Won { st, filled, moves } = self else {
                    unreachable!()
                };
                let mut winning: Vec<HexMove> = moves
                    .iter()
                    .filter(|(_, w)| *w == Some(true))
                    .map(|(m, _)| *m)
                    .collect();
                if winning.is_empty() {
                    winning = any_cell(solver, st, *filled);
                }
                Some(Verdict {
                    wins: true,
                    moves: winning,
                })
            }
        }
    }

    fn candidates(&self) -> usize {
        match self {
            Known::Lost(moves) => moves.len(),
            Known::Won { moves, .. } => moves.len(),
        }
    }

    /// Whether the `i`-th candidate of a won position wins, proved once.
    fn proves(&mut self, solver: &Solver, within: Within, i: usize) -> Option<bool> {
        let Known::Won { st, filled, moves } = self else {
            return Some(false);
        };
        if let Some(wins) = moves[i].1 {
            return Some(wins);
        }
        let step = match moves[i].0 {
            HexMove::Place(c) => Step::Cell(u32::from(c)),
            HexMove::Swap => Step::Swap,
        };
        let mut w = within.worker(solver);
        let child = w.child(st, *filled, step);
        let wins = !w.solve(child).ok()?;
        moves[i].1 = Some(wins);
        Some(wins)
    }

    /// One of the winning moves (or, lost, of the resisting ones),
    /// uniformly at random: the candidates are taken in a random order,
    /// each drawn from `rng` as it is needed, and the first that wins is
    /// the move (the first winner in a uniformly random order is uniform
    /// among the winners). A lost position draws once among its moves.
    /// `None` if `within`'s limits stop a proof first: what was proved is
    /// kept, and asked again with `rng` as it was, it draws the same.
    fn choose(&mut self, solver: &Solver, within: Within, rng: &mut dyn rand::RngCore) -> Option<HexMove> {
        use rand::Rng;
        if let Known::Lost(moves) = self {
            return Some(moves[rng.random_range(0..moves.len())]);
        }
        let n = self.candidates();
        let mut order: Vec<usize> = (0..n).collect();
        for k in 0..n {
            let j = rng.random_range(k..n);
            order.swap(k, j);
            if self.proves(solver, within, order[k])? {
                let Known::Won { moves, .. } = self else { unreachable!() };
                return Some(moves[order[k]].0);
            }
        }
        // Not reached: a won position has a winning move among its candidates.
        let verdict = self.verdict_within(solver, within)?;
        Some(verdict.moves[rng.random_range(0..verdict.moves.len())])
    }
}

fn to_move(step: Step) -> HexMove {
    match step {
        Step::Cell(c) => HexMove::Place(c as u16),
        Step::Swap => HexMove::Swap,
    }
}

/// Every empty cell left after fill-in (`filled`), else every empty cell.
fn any_cell(solver: &Solver, st: &State, filled: [u64; 2]) -> Vec<HexMove> {
    let g = solver.geometry();
    let left = g.full & !(filled[0] | filled[1]);
    let all = g.full & !(st.stones[0] | st.stones[1]);
    let cells = if left != 0 { left } else { all };
    (0..g.n * g.n)
        .filter(|&c| cells >> c & 1 == 1)
        .map(|c| HexMove::Place(c as u16))
        .collect()
}

impl PositionSolver<Hex> for HexPerfect {
    fn best_moves(&mut self, pos: &HexPosition) -> Vec<HexMove> {
        if self.game.outcome(pos).is_over() {
            return Vec::new();
        }
        let solver = self.solver();
        let interrupt = self.interrupt.clone();
        let within = Within {
            stop: interrupt.as_deref(),
            deadline: None,
        };
        match self.verdict_within(&solver, within, pos) {
            Some(verdict) => verdict.moves,
            None => vec![self.any_move(pos)],
        }
    }

    fn choose_best(&mut self, pos: &HexPosition, rng: &mut dyn rand::RngCore) -> HexMove {
        self.choose_within(pos, rng, None).unwrap_or_else(|| self.any_move(pos))
    }

    fn set_interrupt(&mut self, stop: Arc<AtomicBool>) {
        self.interrupt = Some(stop);
    }

    fn choose_before(&mut self, pos: &HexPosition, rng: &mut dyn rand::RngCore, deadline: Instant) -> Option<HexMove> {
        match self.choose_within(pos, rng, Some(deadline)) {
            Some(mv) => Some(mv),
            None if self.interrupted() => Some(self.any_move(pos)),
            None => None,
        }
    }
}
