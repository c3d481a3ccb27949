//! What a compiled table holds: per position its state, its children, the
//! perfect player's choices and the machine's boxes, as flat lists of ids;
//! and the values kept for incremental exact evaluation.

use rustc_hash::FxHashMap;

use crate::game::Game;
use crate::machine::beads::Beads;
use crate::machine::GameResult;
use crate::training::exact::Expected;

use super::flat::Flat;

/// No class, or no box yet.
pub(super) const NONE: u32 = u32::MAX;

/// A position's state in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Node {
    /// Over, with this result for the machine.
    Over(GameResult),
    /// The machine moves.
    Machine,
    /// The opponent moves.
    Opponent,
}

/// What the general path would also need to know to play the same game.
pub(crate) struct Table<G: Game> {
    pub(super) node: Vec<Node>,
    /// Children in legal-move order.
    pub(super) children: Flat,
    /// The children the perfect player may choose where the opponent moves.
    pub(super) best: Flat,
    /// The class (the box key) of each position where the machine moves
    /// with a box, else [`NONE`]: played uniformly at random.
    pub(super) class_of: Vec<u32>,
    /// The child each bead colour leads to (symmetry applied), where the
    /// position has a class.
    pub(super) colours: Flat,
    /// Per class: the machine's box, or [`NONE`] where it is not opened yet.
    pub(super) class_box: Vec<u32>,
    /// Per class: one of its positions, to open its box from.
    pub(super) class_position: Vec<G::Position>,
    /// Per box of the machine: its class, or [`NONE`].
    pub(super) box_class: Vec<u32>,
    /// The beads the general path's evaluation gives a box not opened yet,
    /// by the number of colours (see [`Machine::box_to_draw`]).
    pub(super) fresh: Vec<Beads>,
    pub(super) starts: Vec<(u32, f64)>,
    /// Start positions by value, for games whose start is drawn (Hex).
    pub(super) start_ids: FxHashMap<G::Position, u32>,
    pub(super) exact: Option<ExactCache>,
}

/// Kept for incremental exact evaluation: the values, and the lists it
/// walks up by (made at the first update: a run that evaluates once
/// never needs them).
pub(super) struct ExactCache {
    pub(super) random: Vec<Expected>,
    pub(super) perfect: Vec<Expected>,
    /// Per class its positions (several under symmetry), and per
    /// position its parents; `None` until the first update.
    pub(super) walk: Option<(Flat, Flat)>,
    /// Boxes drawn from since the values were worked out, each once.
    pub(super) touched: Vec<u32>,
    /// Per box: whether it is in `touched`.
    pub(super) is_touched: Vec<bool>,
    /// Positions waiting in the queue.
    pub(super) queued: Vec<bool>,
}

impl ExactCache {
    /// Note that box `b`'s beads may have changed.
    #[inline]
    pub(super) fn touch(&mut self, b: u32) {
        let b = b as usize;
        if b >= self.is_touched.len() {
            self.is_touched.resize(b + 1, false);
        }
        if !std::mem::replace(&mut self.is_touched[b], true) {
            self.touched.push(b as u32);
        }
    }
}

/// How a compiled game ended.
pub(crate) struct Played {
    pub result: GameResult,
    pub plies: u32,
    pub start_seed: Option<u64>,
}

impl<G: Game> Table<G> {
    /// Bytes the table's lists hold (their capacity), its kept exact values included.
    pub(crate) fn memory_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let flat = |f: &Flat| bytes(&f.at) + bytes(&f.items);
        let exact = self.exact.as_ref().map_or(0, |c| {
            bytes(&c.random)
                + bytes(&c.perfect)
                + c.walk
                    .as_ref()
                    .map_or(0, |(members, parents)| flat(members) + flat(parents))
                + bytes(&c.touched)
                + bytes(&c.is_touched)
                + bytes(&c.queued)
        });
        [&self.children, &self.best, &self.colours]
            .iter()
            .map(|f| flat(f))
            .sum::<usize>()
            + bytes(&self.node)
            + bytes(&self.class_of)
            + bytes(&self.class_box)
            + bytes(&self.class_position)
            + bytes(&self.box_class)
            + self.fresh.iter().map(|b| b.heap_bytes()).sum::<usize>()
            + exact
    }

    /// Positions in the table.
    pub(crate) fn positions(&self) -> usize {
        self.node.len()
    }
}
