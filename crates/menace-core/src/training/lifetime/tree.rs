//! The game tree as exact learning walks it: where each box's counts lie
//! in a machine's flat list, what is played at each position met, and the
//! walk of every game from a machine's counts.

use std::rc::Rc;

use rustc_hash::FxHashMap;

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

/// A child not looked up yet.
const NOT_YET: u32 = u32::MAX;

/// The positions the walks have met, each once, numbered, with what is
/// played there and the ids of the children looked up so far: every
/// state's walk after the first follows ids, without hashing a position.
pub(super) struct Tree<G: Game> {
    ids: FxHashMap<G::Position, u32>,
    nodes: Vec<Met<G>>,
}

struct Met<G: Game> {
    pos: G::Position,
    node: Rc<Node<G>>,
    /// One a way out (colour or move), [`NOT_YET`] until first walked.
    kids: Vec<u32>,
}

impl<G: Game> Tree<G> {
    pub(super) fn new() -> Tree<G> {
        Tree {
            ids: FxHashMap::default(),
            nodes: Vec::new(),
        }
    }

    /// The id of `pos`, met now if not before.
    pub(super) fn id(
        &mut self,
        pos: &G::Position,
        opponent: &mut Reference<'_, G>,
        node_of: &mut impl FnMut(&G::Position, &mut Reference<'_, G>) -> Rc<Node<G>>,
    ) -> u32 {
        if let Some(&id) = self.ids.get(pos) {
            return id;
        }
        let node = node_of(pos, opponent);
        let ways = match &*node {
            Node::Over(_) => 0,
            Node::Boxed(_, moves) | Node::Unboxed(moves) | Node::Opponent(moves) | Node::Mixed(moves, _) => moves.len(),
        };
        let id = self.nodes.len() as u32;
        self.nodes.push(Met {
            pos: pos.clone(),
            node,
            kids: vec![NOT_YET; ways],
        });
        self.ids.insert(pos.clone(), id);
        id
    }

    /// The id of the child of `id` by its `k`-th way out.
    fn kid(
        &mut self,
        id: u32,
        k: usize,
        game: &G,
        opponent: &mut Reference<'_, G>,
        node_of: &mut impl FnMut(&G::Position, &mut Reference<'_, G>) -> Rc<Node<G>>,
    ) -> u32 {
        let met = &self.nodes[id as usize];
        let known = met.kids[k];
        if known != NOT_YET {
            return known;
        }
        let mv = match &*met.node {
            Node::Over(_) => unreachable!("a game over has no way out"),
            Node::Boxed(_, moves) | Node::Unboxed(moves) | Node::Opponent(moves) | Node::Mixed(moves, _) => moves[k],
        };
        let child = game.play(&met.pos, mv);
        let c = self.id(&child, opponent, node_of);
        self.nodes[id as usize].kids[k] = c;
        c
    }
}

/// What [`walk`] walks with: the game, the tree met so far, the opponent,
/// the machine's counts as laid out, and the budget.
pub(super) struct Walk<'a, 'r, 'n, G: Game, F> {
    pub(super) game: &'a G,
    pub(super) tree: &'a mut Tree<G>,
    pub(super) opponent: &'a mut Reference<'r, G>,
    pub(super) node_of: &'n mut F,
    pub(super) layout: &'a Layout,
    pub(super) resigns: bool,
    pub(super) walked: &'a mut u64,
    pub(super) budget: u64,
}

impl<G: Game, F: FnMut(&G::Position, &mut Reference<'_, G>) -> Rc<Node<G>>> Walk<'_, '_, '_, G, F> {
    /// Walk every game from the position `id` (reached with chance `p`)
    /// with these counts, calling `end` at each end with its chance, result
    /// and the colours drawn.
    pub(super) fn walk(
        &mut self,
        id: u32,
        p: f64,
        counts: &[u8],
        drawn: &mut Vec<usize>,
        end: &mut impl FnMut(f64, GameResult, &[usize]),
    ) -> Result<(), LifeError> {
        *self.walked += 1;
        if *self.walked > self.budget {
            return Err(LifeError::Nodes(self.budget));
        }
        let node = self.tree.nodes[id as usize].node.clone();
        match &*node {
            Node::Over(result) => end(p, *result, drawn),
            Node::Boxed(i, _) => {
                let at = self.layout.offsets[*i];
                let beads = &counts[at..self.layout.offsets[i + 1]];
                let total: u64 = beads.iter().map(|&x| u64::from(x)).sum();
                if total == 0 {
                    // An empty box: the machine resigns (a floor never empties one).
                    debug_assert!(self.resigns);
                    end(p, GameResult::Loss, drawn);
                    return Ok(());
                }
                for (c, &n) in beads.iter().enumerate() {
                    if n == 0 {
                        continue;
                    }
                    drawn.push(at + c);
                    let q = p * f64::from(n) / total as f64;
                    let child = self.tree.kid(id, c, self.game, self.opponent, self.node_of);
                    self.walk(child, q, counts, drawn, end)?;
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
                for k in 0..moves.len() {
                    let child = self.tree.kid(id, k, self.game, self.opponent, self.node_of);
                    self.walk(child, q, counts, drawn, end)?;
                }
            }
            Node::Mixed(_, chances) => {
                for (k, &c) in chances.iter().enumerate() {
                    if c <= 0.0 {
                        continue;
                    }
                    let child = self.tree.kid(id, k, self.game, self.opponent, self.node_of);
                    self.walk(child, p * c, counts, drawn, end)?;
                }
            }
        }
        Ok(())
    }
}

/// Box `i`'s moves, one a colour, on the board of a position `box_for`
/// found it at with symmetry `sym` (the box keeps them in its own frame).
pub(super) fn moves_on_board<G: Game>(machine: &Machine<G>, i: usize, sym: G::Symmetry) -> Vec<G::Move> {
    let back = sym.inverse();
    machine
        .box_moves(i as u32)
        .into_iter()
        .map(|m| machine.game().map_move(m, back))
        .collect()
}
