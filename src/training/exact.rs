//! The machine's exact expected result against an opponent, computed from
//! its bead counts over the whole game tree, without sampling.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::game::{Game, Outcome};
use crate::machine::{GameResult, Machine};
use crate::search::solver::TooLarge;
use crate::training::opponent::PerfectPlayer;

/// Probabilities of a win, a draw and a loss for the machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl Expected {
    pub(crate) fn certain(result: GameResult) -> Expected {
        let mut e = Expected::default();
        match result {
            GameResult::Win => e.win = 1.0,
            GameResult::Draw => e.draw = 1.0,
            GameResult::Loss => e.loss = 1.0,
        }
        e
    }

    pub(crate) fn add_scaled(&mut self, other: Expected, p: f64) {
        self.win += p * other.win;
        self.draw += p * other.draw;
        self.loss += p * other.loss;
    }
}

/// The default limit on positions visited by the exact evaluation.
pub const EXACT_LIMIT: usize = 2_000_000;

/// An opponent whose move probabilities are known exactly.
pub enum Reference<'a, G: Game> {
    /// Uniform over the legal moves.
    Random,
    /// Uniform over the moves that keep the best value.
    Perfect(&'a mut PerfectPlayer<G>),
}

impl<G: Game> Reference<'_, G> {
    /// The probability of each move in `pos`; `None` where it would resign.
    pub fn policy(&mut self, game: &G, pos: &G::Position) -> Option<Vec<(G::Move, f64)>> {
        let uniform = |moves: &[G::Move]| -> Vec<(G::Move, f64)> {
            let p = 1.0 / moves.len() as f64;
            moves.iter().map(|&m| (m, p)).collect()
        };
        match self {
            Reference::Random => Some(uniform(&game.moves(pos))),
            Reference::Perfect(player) => Some(uniform(player.best_moves(pos))),
        }
    }
}

/// The machine's expected result from the start against `opponent`, each
/// following its own move probabilities (the machine's from its beads).
pub fn expected<G: Game>(
    machine: &Machine<G>,
    opponent: &mut Reference<'_, G>,
    limit: usize,
) -> Result<Expected, TooLarge> {
    let game = machine.game().clone();
    let mut memo = FxHashMap::default();
    let limit = crate::search::solver::memory_bounded::<G::Position>(limit);
    game.check_exhaustive(limit)?;
    let mut total = Expected::default();
    for (start, p) in game.starts() {
        total.add_scaled(value(&game, machine, opponent, &start, &mut memo, limit)?, p);
    }
    Ok(total)
}

fn value<G: Game>(
    game: &G,
    machine: &Machine<G>,
    opponent: &mut Reference<'_, G>,
    pos: &G::Position,
    memo: &mut FxHashMap<G::Position, Expected>,
    limit: usize,
) -> Result<Expected, TooLarge> {
    let outcome = game.outcome(pos);
    if outcome != Outcome::Ongoing {
        return Ok(Expected::certain(GameResult::for_player(outcome, machine.side())));
    }
    if let Some(&e) = memo.get(pos) {
        return Ok(e);
    }
    if memo.len() >= limit {
        return Err(TooLarge {
            game: game.spec(),
            limit,
        });
    }
    let machine_to_move = game.turn(pos) == machine.side();
    let policy = if machine_to_move {
        machine.policy(pos)
    } else {
        opponent.policy(game, pos)
    };
    let result = match policy {
        None if machine_to_move => Expected::certain(GameResult::Loss),
        None => Expected::certain(GameResult::Win),
        Some(moves) => {
            let mut e = Expected::default();
            for (mv, p) in moves {
                let child = game.play(pos, mv);
                e.add_scaled(value(game, machine, opponent, &child, memo, limit)?, p);
            }
            e
        }
    };
    memo.insert(pos.clone(), result);
    Ok(result)
}

/// Probabilities of each outcome when both players move uniformly at random.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RandomPlay {
    /// The player named first (White, X, Red) wins.
    pub one_wins: f64,
    /// The player named second wins.
    pub two_wins: f64,
    pub draw: f64,
}

/// The exact outcome probabilities of random against random from `pos`.
///
/// ```
/// use menace::training::exact::random_play;
/// use menace::{Game, TicTacToe};
/// let p = random_play(&TicTacToe, &TicTacToe.start(), 1_000_000).unwrap();
/// assert!((p.one_wins - 737.0 / 1260.0).abs() < 1e-12);
/// ```
pub fn random_play<G: Game>(game: &G, pos: &G::Position, limit: usize) -> Result<RandomPlay, TooLarge> {
    fn go<G: Game>(
        game: &G,
        pos: &G::Position,
        memo: &mut FxHashMap<G::Position, RandomPlay>,
        limit: usize,
    ) -> Result<RandomPlay, TooLarge> {
        let mut r = RandomPlay::default();
        match game.outcome(pos) {
            Outcome::Win(crate::game::Player::One) => r.one_wins = 1.0,
            Outcome::Win(crate::game::Player::Two) => r.two_wins = 1.0,
            Outcome::Draw => r.draw = 1.0,
            Outcome::Ongoing => {
                if let Some(&m) = memo.get(pos) {
                    return Ok(m);
                }
                if memo.len() >= limit {
                    return Err(TooLarge {
                        game: game.spec(),
                        limit,
                    });
                }
                let moves = game.moves(pos);
                let p = 1.0 / moves.len() as f64;
                for mv in moves {
                    let c = go(game, &game.play(pos, mv), memo, limit)?;
                    r.one_wins += p * c.one_wins;
                    r.two_wins += p * c.two_wins;
                    r.draw += p * c.draw;
                }
                memo.insert(pos.clone(), r);
            }
        }
        Ok(r)
    }
    // A game known to be too large is refused at once, not after filling memory.
    game.check_exhaustive(limit)?;
    go(game, pos, &mut FxHashMap::default(), limit)
}
