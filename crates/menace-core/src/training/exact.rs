//! The machine's exact expected result against an opponent, computed from
//! its bead counts over the whole game tree, without sampling.
//!
//! `weigh` is the one rule for the value of a position from its
//! children's: the general path here and the compiled one
//! ([`crate::training::compiled`]) both use it, so they agree to the bit.

use std::convert::Infallible;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::game::{Game, Outcome};
use crate::machine::beads::Counts;
use crate::machine::settings::EmptyBox;
use crate::machine::{GameResult, Machine};
use crate::search::solver::TooLarge;
use crate::symmetry::Symmetry;
use crate::training::opponent::PerfectPlayer;

/// Probabilities of a win, a draw and a loss for the machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    /// The machine's chance of winning.
    pub win: f64,
    /// Its chance of a draw.
    pub draw: f64,
    /// Its chance of losing.
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
    /// With chance `p` a perfect move (uniform over the best), else a
    /// random one (uniform over the legal): `--opponent perfect:P`.
    Mixed(f64, &'a mut PerfectPlayer<G>),
}

impl<G: Game> Reference<'_, G> {
    /// The moves in `pos` it may play; each as likely as the others unless
    /// [`Reference::chances`] says otherwise.
    pub fn moves(&mut self, game: &G, pos: &G::Position) -> Vec<G::Move> {
        match self {
            Reference::Random | Reference::Mixed(..) => game.moves(pos),
            Reference::Perfect(player) => player.best_moves(pos).to_vec(),
        }
    }

    /// The chance of each of `moves` (as [`Reference::moves`] gave them
    /// for `pos`), where they are not all alike: `None` for a random or
    /// a perfect opponent, and where there is no move or no best one.
    /// They sum to 1 (`P` is taken within 0 to 1).
    pub fn chances(&mut self, pos: &G::Position, moves: &[G::Move]) -> Option<Vec<f64>> {
        match self {
            Reference::Random | Reference::Perfect(_) => None,
            Reference::Mixed(p, player) => {
                let p = p.clamp(0.0, 1.0);
                let best = player.best_moves(pos);
                if moves.is_empty() || best.is_empty() {
                    return None;
                }
                let (each_best, each) = (p / best.len() as f64, (1.0 - p) / moves.len() as f64);
                Some(
                    moves
                        .iter()
                        .map(|m| if best.contains(m) { each_best + each } else { each })
                        .collect(),
                )
            }
        }
    }
}

/// How likely each way out of a position is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Odds<'a> {
    /// All equally likely: a random or perfect opponent (among its best
    /// moves), or the machine where it has no box.
    Uniform,
    /// As the machine draws (see [`Machine::choose`]): by the beads of its
    /// box, one count a way out. An empty box resigns, or under
    /// [`EmptyBox::Restock`] is drawn from as if full, uniformly.
    Beads(Counts<'a>, EmptyBox),
    /// Each its own chance (a mixed opponent, see [`Reference::Mixed`]).
    Chances(&'a [f64]),
}

/// The expected result at a position whose ways out (moves, or the
/// children they lead to) are `ways`, each worth `value`, weighed by `odds`;
/// `None` where the machine resigns. Both evaluation paths sum through here,
/// in the order of `ways`.
// Always inlined: a call a position costs the compiled path's incremental evaluation a few percent.
#[inline(always)]
pub(crate) fn weigh<W: Copy, E>(
    odds: Odds<'_>,
    ways: &[W],
    mut value: impl FnMut(W) -> Result<Expected, E>,
) -> Result<Option<Expected>, E> {
    let mut e = Expected::default();
    match odds {
        Odds::Uniform => {
            let p = 1.0 / ways.len() as f64;
            for &w in ways {
                e.add_scaled(value(w)?, p);
            }
        }
        Odds::Chances(chances) => {
            for (&w, &p) in ways.iter().zip(chances) {
                if p > 0.0 {
                    e.add_scaled(value(w)?, p);
                }
            }
        }
        Odds::Beads(beads, empty_box) => {
            let weighed = match beads {
                Counts::Narrow(counts) => weigh_beads(counts, empty_box, ways, value)?,
                Counts::Wide(counts) => weigh_beads(counts, empty_box, ways, value)?,
            };
            match weighed {
                Some(weighed) => e = weighed,
                None => return Ok(None),
            }
        }
    }
    Ok(Some(e))
}

/// [`weigh`] by bead counts, as stored (a byte or four a count).
#[inline(always)]
fn weigh_beads<T: Copy + Into<u32>, W: Copy, E>(
    beads: &[T],
    empty_box: EmptyBox,
    ways: &[W],
    mut value: impl FnMut(W) -> Result<Expected, E>,
) -> Result<Option<Expected>, E> {
    let empty = beads.iter().all(|&n| n.into() == 0);
    if empty && empty_box != EmptyBox::Restock {
        return Ok(None);
    }
    let weight = |n: T| if empty { 1.0 } else { f64::from(n.into()) };
    let total: f64 = beads.iter().map(|&n| weight(n)).sum();
    let mut e = Expected::default();
    for (&n, &way) in beads.iter().zip(ways) {
        let w = weight(n);
        if w > 0.0 {
            e.add_scaled(value(way)?, w / total);
        }
    }
    Ok(Some(e))
}

/// [`weigh`] where the values are at hand.
#[inline(always)]
pub(crate) fn weigh_known<W: Copy>(odds: Odds<'_>, ways: &[W], value: impl Fn(W) -> Expected) -> Option<Expected> {
    let known = weigh::<W, Infallible>(odds, ways, |w| Ok(value(w)));
    match known {
        Ok(e) => e,
        Err(never) => match never {},
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
    let result = if game.turn(pos) == machine.side() {
        let weighed = match machine.box_to_draw(pos) {
            None => weigh(Odds::Uniform, &game.moves(pos), |mv| {
                value(game, machine, opponent, &game.play(pos, mv), memo, limit)
            })?,
            Some((b, sym)) => {
                let inverse = sym.inverse();
                weigh(
                    Odds::Beads(b.view().beads, machine.settings().empty_box),
                    &b.view().moves(game, machine.settings().symmetry),
                    |stored| {
                        let child = game.play(pos, game.map_move(stored, inverse));
                        value(game, machine, opponent, &child, memo, limit)
                    },
                )?
            }
        };
        weighed.unwrap_or_else(|| Expected::certain(GameResult::Loss))
    } else {
        let moves = opponent.moves(game, pos);
        let chances = opponent.chances(pos, &moves);
        let odds = chances.as_deref().map_or(Odds::Uniform, Odds::Chances);
        weigh(odds, &moves, |mv| {
            value(game, machine, opponent, &game.play(pos, mv), memo, limit)
        })?
        .unwrap_or_else(|| Expected::certain(GameResult::Win))
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
    /// The game ends drawn.
    pub draw: f64,
}

/// The exact outcome probabilities of random against random from `pos`.
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::training::exact::random_play;
/// use menace_core::{Game, TicTacToe};
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
