//! The machine's exact expected result against an opponent, computed from
//! its bead counts over the whole game tree, without sampling.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::game::{Game, Outcome};
use crate::machine::{GameResult, Machine};
use crate::opponent::Opponent;
use crate::solver::TooLarge;

/// Probabilities of a win, a draw and a loss for the machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl Expected {
    fn certain(result: GameResult) -> Expected {
        let mut e = Expected::default();
        match result {
            GameResult::Win => e.win = 1.0,
            GameResult::Draw => e.draw = 1.0,
            GameResult::Loss => e.loss = 1.0,
        }
        e
    }

    fn add_scaled(&mut self, other: Expected, p: f64) {
        self.win += p * other.win;
        self.draw += p * other.draw;
        self.loss += p * other.loss;
    }
}

/// The default limit on positions visited by the exact evaluation.
pub const EXACT_LIMIT: usize = 2_000_000;

/// The machine's expected result from the start against `opponent`, each
/// following its own move probabilities (the machine's from its beads).
pub fn expected<G: Game>(machine: &Machine<G>, opponent: &mut Opponent<G>, limit: usize) -> Result<Expected, TooLarge> {
    let game = machine.game().clone();
    let mut memo = FxHashMap::default();
    value(&game, machine, opponent, &game.start(), &mut memo, limit)
}

fn value<G: Game>(
    game: &G,
    machine: &Machine<G>,
    opponent: &mut Opponent<G>,
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
