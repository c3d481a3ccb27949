//! The game tree as exact learning walks it: where each box's counts lie
//! in a machine's flat list, what is played at each position met, and the
//! walk of every game from a machine's counts.

use crate::game::Game;
use crate::machine::{GameResult, Machine};
use crate::symmetry::Symmetry;
use crate::training::exact::Reference;

use super::error::LifeError;

/// Where each box's colours start in a flat list of every bead count kept
/// (a box not kept has none).
pub(super) struct Layout {
    pub(super) offsets: Vec<usize>,
}

impl Layout {
    /// The boxes of `machine` that `keep` says, in order.
    pub(super) fn of<G: Game>(machine: &Machine<G>, keep: impl Fn(usize) -> bool) -> Layout {
        let mut offsets = Vec::with_capacity(machine.boxes().len() + 1);
        let mut at = 0;
        for (i, b) in machine.boxes().iter().enumerate() {
            offsets.push(at);
            if keep(i) {
                at += b.beads.len();
            }
        }
        offsets.push(at);
        Layout { offsets }
    }

    /// The machine's bead counts as kept here (at most 255 a colour).
    pub(super) fn counts<G: Game>(&self, machine: &Machine<G>) -> Vec<u8> {
        let mut counts = Vec::with_capacity(*self.offsets.last().unwrap_or(&0));
        for (i, b) in machine.boxes().iter().enumerate() {
            if self.offsets[i + 1] > self.offsets[i] {
                counts.extend(b.beads.iter().map(|n| u8::try_from(n).unwrap_or(u8::MAX)));
            }
        }
        counts
    }
}

/// What the game tree's walk knows of the positions met (shared by every
/// state): the machine's box and symmetry, or the opponent's moves.
pub(super) enum Node<G: Game> {
    Over(GameResult),
    /// The machine's box, the moves of its colours on the real board.
    Boxed(usize, Vec<G::Move>),
    /// The machine has no box here: uniform over the legal moves.
    Unboxed(Vec<G::Move>),
    /// The opponent's moves, each as likely.
    Opponent(Vec<G::Move>),
    /// The opponent's moves, each with its chance (a mixed opponent).
    Mixed(Vec<G::Move>, Vec<f64>),
}

/// Walk every game from `pos` (reached with chance `p`), calling `end` at
/// each end with its chance, result and the colours drawn.
#[allow(clippy::too_many_arguments)]
pub(super) fn walk<G: Game>(
    pos: &G::Position,
    p: f64,
    game: &G,
    counts: &[u8],
    layout: &Layout,
    resigns: bool,
    opponent: &mut Reference<'_, G>,
    node_of: &mut impl FnMut(&G::Position, &mut Reference<'_, G>) -> std::rc::Rc<Node<G>>,
    drawn: &mut Vec<usize>,
    end: &mut impl FnMut(f64, GameResult, &[usize]),
    walked: &mut u64,
    budget: u64,
) -> Result<(), LifeError> {
    *walked += 1;
    if *walked > budget {
        return Err(LifeError::Nodes(budget));
    }
    let node = node_of(pos, opponent);
    match &*node {
        Node::Over(result) => end(p, *result, drawn),
        Node::Boxed(i, moves) => {
            let at = layout.offsets[*i];
            let beads = &counts[at..layout.offsets[i + 1]];
            let total: u64 = beads.iter().map(|&x| u64::from(x)).sum();
            if total == 0 {
                // An empty box: the machine resigns (a floor never empties one).
                debug_assert!(resigns);
                end(p, GameResult::Loss, drawn);
                return Ok(());
            }
            for (c, (&n, mv)) in beads.iter().zip(moves).enumerate() {
                if n == 0 {
                    continue;
                }
                drawn.push(at + c);
                let q = p * f64::from(n) / total as f64;
                let child = game.play(pos, *mv);
                walk(
                    &child, q, game, counts, layout, resigns, opponent, node_of, drawn, end, walked, budget,
                )?;
                drawn.pop();
            }
        }
        Node::Unboxed(moves) | Node::Opponent(moves) => {
            if moves.is_empty() {
                // An opponent without a move resigns (never in a game with rules for it).
                end(p, GameResult::Win, drawn);
                return Ok(());
            }
            let q = p / moves.len() as f64;
            for mv in moves {
                let child = game.play(pos, *mv);
                walk(
                    &child, q, game, counts, layout, resigns, opponent, node_of, drawn, end, walked, budget,
                )?;
            }
        }
        Node::Mixed(moves, chances) => {
            for (mv, &c) in moves.iter().zip(chances) {
                if c <= 0.0 {
                    continue;
                }
                let child = game.play(pos, *mv);
                walk(
                    &child,
                    p * c,
                    game,
                    counts,
                    layout,
                    resigns,
                    opponent,
                    node_of,
                    drawn,
                    end,
                    walked,
                    budget,
                )?;
            }
        }
    }
    Ok(())
}

/// Box `i`'s moves, one a colour, on the board of a position `box_for`
/// found it at with symmetry `sym` (the box keeps them in its own frame).
pub(super) fn moves_on_board<G: Game>(machine: &Machine<G>, i: usize, sym: G::Symmetry) -> Vec<G::Move> {
    let back = sym.inverse();
    machine.boxes()[i]
        .moves
        .iter()
        .map(|&m| machine.game().map_move(m, back))
        .collect()
}
