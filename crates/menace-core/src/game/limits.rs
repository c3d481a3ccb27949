//! What bounds exhaustive search on a game: how large it may be, a bound
//! on its positions, and the game's own solvers where it has them. A game
//! gives these beside its rules ([`crate::game::Rules`]); the solver, the
//! perfect opponent and the exact evaluations ask them before storing
//! positions.

use super::parts::Rules;
use super::players::Outcome;
use crate::clock::Instant;

/// What a game's own winner search may spend ([`SearchLimits::winner_fallback`]):
/// positions searched in all, and a moment to stop by. `None`: the search's
/// own default for positions, no deadline.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchBudget {
    /// Positions the search may search in all.
    pub positions: Option<u64>,
    /// When it gives up.
    pub deadline: Option<Instant>,
}

/// Which budget a game's own winner search spent ([`OverBudget`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spent {
    /// Its deadline passed; the seconds it was given.
    Seconds(f64),
    /// It searched this many positions, all it was given.
    Positions(u64),
}

impl std::fmt::Display for Spent {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Spent::Seconds(s) => write!(f, "{s} seconds"),
            Spent::Positions(n) => write!(f, "{n} positions searched"),
        }
    }
}

/// A game's own winner search gave up, its budget spent, before deciding
/// every position it was asked about.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{game}: not decided within {spent}")]
pub struct OverBudget {
    /// The game's spec string.
    pub game: String,
    /// The budget that stopped it.
    pub spent: Spent,
}

/// An exhaustive computation (solving, enumerating boxes, an exact
/// evaluation) would need to store more positions than its limit allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} has too many positions to handle exactly (more than {limit})")]
pub struct TooLarge {
    /// The game's spec string.
    pub game: String,
    /// The limit on stored positions that was reached.
    pub limit: usize,
}

/// A solver of a game's own that decides positions one at a time, keeping
/// what it proved across calls within a bounded memory: the perfect
/// opponent's engine where the whole game cannot be stored.
pub trait PositionSolver<G: Rules>: Send {
    /// The moves a perfect player may choose in `pos` (not over): every
    /// winning move when the side to move wins, else moves that resist by
    /// the rule the game states. Never empty.
    fn best_moves(&mut self, pos: &G::Position) -> Vec<G::Move>;

    /// One of [`PositionSolver::best_moves`], uniformly at random, drawn
    /// from `rng`: here with one draw among them all. A solver may find it
    /// without working out every best move (Hex proves moves in a random
    /// order until one wins), drawing from `rng` as it goes; it stays a
    /// uniform choice among the best moves, seeded by `rng`.
    fn choose_best(&mut self, pos: &G::Position, rng: &mut dyn rand::RngCore) -> G::Move {
        let moves = self.best_moves(pos);
        moves[rand::Rng::random_range(rng, 0..moves.len())]
    }

    /// From now on, a search stops soon after `stop` is set (by another
    /// thread), however far it is from a proof: the move then given is a
    /// legal one and no more, for a caller that is dropping its game.
    fn set_interrupt(&mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        let _ = stop;
    }

    /// [`PositionSolver::choose_best`], giving up (`None`) once `deadline`
    /// passes. What it proved meanwhile is kept, so the same question asked
    /// again (with `rng` as it was before, so that it draws the same) goes
    /// on from there. By default the whole choice, whatever the time.
    fn choose_before(
        &mut self,
        pos: &G::Position,
        rng: &mut dyn rand::RngCore,
        deadline: crate::clock::Instant,
    ) -> Option<G::Move> {
        let _ = deadline;
        Some(self.choose_best(pos, rng))
    }
}

/// The limits of exhaustive search on a game, and its own solvers.
pub trait SearchLimits: Rules {
    /// True for games far too large for exhaustive search (a chess board):
    /// the solver and exact evaluations give up at once instead of filling
    /// memory first.
    fn too_large_for_exhaustive_search(&self) -> bool {
        false
    }

    /// An upper bound on the positions reachable from the start, where the
    /// game can give one cheaply (Hex: the ways to place the stones). An
    /// exhaustive computation whose limit is below it refuses at once
    /// instead of filling memory first. `None`: no bound known.
    fn position_bound(&self) -> Option<f64> {
        None
    }

    /// A dedicated solver's answer to who wins each of `positions` (solved
    /// together, sharing what they learn), for games that have one (`None`:
    /// use the generic solver).
    fn winner_oracle(&self, positions: &[Self::Position], limit: usize) -> Option<Result<Vec<Outcome>, TooLarge>> {
        let _ = (positions, limit);
        None
    }

    /// A winner-only search of the game's own that `menace solve` falls
    /// back on where the exact solve (with distances) is too large: who wins
    /// each of `positions`, within `budget` (`None`: there is no such
    /// search). `decided` is told how many are decided, as each is; once
    /// the budget is spent, no further position is begun.
    fn winner_fallback(
        &self,
        positions: &[Self::Position],
        budget: SearchBudget,
        decided: &mut dyn FnMut(usize),
    ) -> Option<Result<Vec<Outcome>, OverBudget>> {
        let _ = (positions, budget, decided);
        None
    }

    /// The game's own position-by-position solver, for a perfect opponent
    /// where exhaustive solving is over its limit (`None`: there is none,
    /// and such an opponent is refused).
    fn position_solver(&self) -> Option<Box<dyn PositionSolver<Self>>> {
        None
    }

    /// A position solver for one of many opponents in a process (a
    /// server's tabs): what it proves is kept in memory shared with every
    /// other such solver of the same game, so that the memory they take
    /// together is bounded however many there are; its searches stop on
    /// [`PositionSolver::set_interrupt`] and within
    /// [`PositionSolver::choose_before`]'s deadline. `None`: there is none.
    fn shared_position_solver(&self) -> Option<Box<dyn PositionSolver<Self>>> {
        None
    }

    /// An estimate of the positions reachable from the start counted
    /// mirror images apart, what an enumeration of boxes visits, where the
    /// game gives one cheaply (by default its [`SearchLimits::position_bound`]):
    /// an enumeration whose limit is below it refuses at once.
    fn reachable_estimate(&self) -> Option<f64> {
        self.position_bound()
    }

    /// [`SearchLimits::check_exhaustive`] for an enumeration of every
    /// position reachable (see [`SearchLimits::reachable_estimate`]).
    fn check_enumerable(&self, limit: usize) -> Result<(), TooLarge> {
        self.check_exhaustive(limit)?;
        if self.reachable_estimate().is_some_and(|b| b > limit as f64) {
            return Err(TooLarge {
                game: self.spec(),
                limit,
            });
        }
        Ok(())
    }

    /// Whether an exhaustive computation storing at most `limit` positions
    /// is bound to fail: the game is far too large, or its position bound
    /// is over the limit.
    fn exceeds(&self, limit: usize) -> bool {
        self.too_large_for_exhaustive_search() || self.position_bound().is_some_and(|b| b > limit as f64)
    }

    /// Whether an exhaustive solve storing at most `limit` positions is
    /// expected to run out, by the game's estimate of what it would store
    /// (by default: it is bound to, [`SearchLimits::exceeds`]). The perfect
    /// opponent takes the game's position solver at once where this holds
    /// and there is one, instead of filling memory first.
    fn expects_to_exceed(&self, limit: usize) -> bool {
        self.exceeds(limit)
    }

    /// [`SearchLimits::exceeds`] as the error an exhaustive computation
    /// refuses with at once, before storing any position.
    fn check_exhaustive(&self, limit: usize) -> Result<(), TooLarge> {
        if self.exceeds(limit) {
            return Err(TooLarge {
                game: self.spec(),
                limit,
            });
        }
        Ok(())
    }
}
