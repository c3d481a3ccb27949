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
    cache: FxHashMap<HexPosition, Known>,
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
        let mut known = self.known(pos);
        let verdict = known.verdict(self.solver());
        self.remember(*pos, known);
        verdict
    }

    fn solver(&mut self) -> &Solver {
        let n = u32::from(self.game.size());
        let swap = self.game.swap_allowed();
        self.solver
            .get_or_insert_with(|| Box::new(Solver::new(n, swap, table_bits(n))))
    }

    /// What the cache holds of `pos` (taken out of it), or a first look.
    fn known(&mut self, pos: &HexPosition) -> Known {
        if let Some(known) = self.cache.remove(pos) {
            return known;
        }
        let solver = self.solver();
        solver.set_budget(None, None);
        Known::look(solver, pos).expect("an unbounded search finishes")
    }

    fn remember(&mut self, pos: HexPosition, known: Known) {
        if self.cache.len() >= CACHE {
            self.cache.clear();
        }
        self.cache.insert(pos, known);
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
    solver.set_budget(max_searched, deadline);
    Known::look(&solver, pos)?.verdict_within(&solver)
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
    /// set on `solver` runs out first.
    fn look(solver: &Solver, pos: &HexPosition) -> Option<Known> {
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

    /// The verdict, every candidate proved (no budget).
    fn verdict(&mut self, solver: &Solver) -> Verdict {
        solver.set_budget(None, None);
        self.verdict_within(solver).expect("an unbounded search finishes")
    }

    /// The verdict, every candidate proved within the budget set on `solver`.
    fn verdict_within(&mut self, solver: &Solver) -> Option<Verdict> {
        match self {
            Known::Lost(moves) => Some(Verdict {
                wins: false,
                moves: moves.clone(),
            }),
            Known::Won { .. } => {
                let n = self.candidates();
                for i in 0..n {
                    self.proves(solver, i)?;
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
    fn proves(&mut self, solver: &Solver, i: usize) -> Option<bool> {
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
        let mut w = solver.worker();
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
    fn choose(&mut self, solver: &Solver, rng: &mut dyn rand::RngCore) -> HexMove {
        use rand::Rng;
        if let Known::Lost(moves) = self {
            return moves[rng.random_range(0..moves.len())];
        }
        let n = self.candidates();
        let mut order: Vec<usize> = (0..n).collect();
        for k in 0..n {
            let j = rng.random_range(k..n);
            order.swap(k, j);
            if self.proves(solver, order[k]) == Some(true) {
                let Known::Won { moves, .. } = self else { unreachable!() };
                return moves[order[k]].0;
            }
        }
        // Not reached: a won position has a winning move among its candidates.
        let verdict = self.verdict(solver);
        verdict.moves[rng.random_range(0..verdict.moves.len())]
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
        self.verdict(pos).moves
    }

    fn choose_best(&mut self, pos: &HexPosition, rng: &mut dyn rand::RngCore) -> HexMove {
        let mut known = self.known(pos);
        let mv = known.choose(self.solver(), rng);
        self.remember(*pos, known);
        mv
    }
}
