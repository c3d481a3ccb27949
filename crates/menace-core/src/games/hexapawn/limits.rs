//! How much an exhaustive computation of Hexapawn would store (from
//! [`pushes_only`]), and the winner-only solver offered as the perfect
//! opponent where it would not fit.

use super::solver::{OnDemand, Unsolved, WinnerSearch};
use super::{pushes_only, Hexapawn, HexapawnPosition, Pawn};
use crate::game::Rules;
use crate::game::{Outcome, OverBudget, SearchBudget, Spent};
use crate::search::SearchLimits;

impl SearchLimits for Hexapawn {
    /// For normal pawns, an estimate from below of the positions an
    /// exhaustive computation stores: those reached by pushes alone
    /// ([`pushes_only`], a true lower bound), times 2^(W−1) for what captures
    /// add, and 2.2 times more on boards of 4×4 and up (where the solver
    /// stores at least 7.3 times the estimate without it; 7×4 comes to
    /// 2.2 million and is refused at once by limits of 2 million). Not a
    /// proof: checked below the exact solver's count on every board it
    /// stores in 6 million positions or fewer (tests/hexapawn.rs), at least
    /// 3 times below on each, so a board it refuses at once would have been
    /// refused after filling memory anyway.
    fn position_bound(&self) -> Option<f64> {
        let wide = if self.width >= 4 && self.height >= 4 { 2.2 } else { 1.0 };
        (self.pawn == Pawn::Normal)
            .then(|| (pushes_only(self.width, self.height) * f64::from(1u32 << (self.width - 1)) * wide).floor())
    }

    /// An enumeration visits every position, mirror images apart, where the
    /// solver stores one of each pair: six times the [`Self::position_bound`]
    /// (which is at least three times below the solver's count on every
    /// board measured; checked below a count of every position reachable,
    /// made by the test itself, in tests/hexapawn.rs: at least 1.88 times
    /// below on the boards counted there). 7×4 comes to 13
    /// million, refused at once by the 10.8 million positions an
    /// enumeration may store, which it would fill before giving up.
    fn reachable_estimate(&self) -> Option<f64> {
        self.position_bound().map(|b| 6.0 * b)
    }

    /// The exact solver stores at least 3 times the [`Self::position_bound`]
    /// on every board measured (tests/hexapawn.rs): where that is over the
    /// limit, the perfect opponent takes the position solver at once
    /// (6×5 and 7×4 against 5 million positions) instead of filling memory first.
    fn expects_to_exceed(&self, limit: usize) -> bool {
        self.exceeds(limit) || self.position_bound().is_some_and(|b| 3.0 * b > limit as f64)
    }

    /// The winner-only search where the exact solve is too large: who wins
    /// each position, within the budget's positions searched in all (by
    /// default 4 000 million; `menace solve hexapawn:8x5` takes it) and
    /// its deadline. Its table is 256 MiB, or less where the budget could
    /// not fill it.
    fn winner_fallback(
        &self,
        positions: &[HexapawnPosition],
        budget: SearchBudget,
        decided: &mut dyn FnMut(usize),
    ) -> Option<Result<Vec<Outcome>, OverBudget>> {
        if positions.is_empty() {
            return Some(Ok(Vec::new()));
        }
        let nodes = budget.positions.unwrap_or(ORACLE_NODES);
        // Four positions a bucket: no more buckets than the budget could fill.
        let bits = (u64::BITS - (nodes / 4).max(1).leading_zeros()).min(ORACLE_TABLE_BITS);
        let mut search = WinnerSearch::new(self.clone(), bits).with_work_budget(nodes);
        if let Some(at) = budget.deadline {
            let left = at.duration_since(crate::clock::Instant::now());
            search = search.with_time_budget(left.as_secs_f64());
        }
        Some(
            positions
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    let won = search.winner(p).map(Outcome::Win).map_err(|why| OverBudget {
                        game: self.spec(),
                        spent: match why {
                            Unsolved::Time(s) => Spent::Seconds(s),
                            Unsolved::Work(n) => Spent::Positions(n),
                        },
                    });
                    decided(k + 1);
                    won
                })
                .collect(),
        )
    }

    /// The winner-only search with a table of 128 MiB kept across games, on
    /// boards of up to 36 cells (6×6), where it decides the start within
    /// seconds.
    fn position_solver(&self) -> Option<Box<dyn crate::game::PositionSolver<Self>>> {
        (u32::from(self.width) * u32::from(self.height) <= ON_DEMAND_CELLS)
            .then(|| Box::new(OnDemand::new(self.clone(), ON_DEMAND_TABLE_BITS)) as _)
    }
}

/// Positions the winner-only search of `solve` may search in all, by default.
const ORACLE_NODES: u64 = 4_000_000_000;

/// Its table: 2^22 buckets of 64 bytes (256 MiB).
const ORACLE_TABLE_BITS: u32 = 22;

/// The largest board (in cells) offered the on-demand perfect opponent.
const ON_DEMAND_CELLS: u32 = 36;

/// Its table: 2^21 buckets of 64 bytes (128 MiB, eight million positions).
const ON_DEMAND_TABLE_BITS: u32 = 21;
