//! A matchbox: a position's key and a bead count for each class of its
//! moves, as a value of its own ([`MatchBox`]) or as a machine keeps it
//! ([`BoxRef`], among its [`BoxList`]); and the moves its colours stand for.

use super::beads::{Beads, Counts};
use super::shelf::Shelf;
use crate::game::Game;
use crate::symmetry::Symmetry;

/// One matchbox: the key of a board and side to move (of the canonical
/// image when symmetry is on), and a bead count for each class of moves.
/// A box holds no more than that: its moves, one a bead colour, follow
/// from its position ([`MatchBox::moves`]), and on the large games, where
/// nearly every move opens a box, storing them would take more than the
/// key and the beads together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchBox<G: Game> {
    /// The key of the position this box stands for (see [`Boxes::BoxKey`](crate::Boxes::BoxKey)).
    pub key: G::BoxKey,
    /// The machine's own move number here (1 = its first move).
    pub own_move: u32,
    /// Beads of each colour, in the order of [`MatchBox::moves`].
    pub beads: Beads,
}

impl<G: Game> MatchBox<G> {
    /// The position the box stands for ([`Boxes::key_position`](crate::Boxes::key_position) of its key):
    /// its moves are in this position's frame.
    pub fn position(&self, game: &G) -> G::Position {
        game.key_position(&self.key)
    }

    /// One move per bead colour, in the frame of the box's position
    /// ([`bead_colours`] of it): moves that a symmetry fixing the position
    /// maps onto each other share one colour where `symmetry` is on (as
    /// the machine's settings say).
    pub fn moves(&self, game: &G, symmetry: bool) -> Vec<G::Move> {
        bead_colours(game, &self.position(game), symmetry)
    }

    /// All the beads in the box (a u64: each colour may hold up to u32::MAX).
    pub fn total(&self) -> u64 {
        self.beads.total()
    }

    /// The box as a machine's boxes show theirs.
    pub fn view(&self) -> BoxRef<'_, G> {
        BoxRef {
            key: &self.key,
            own_move: self.own_move,
            beads: self.beads.counts(),
        }
    }
}

/// The moves a box for `position` holds a bead colour for: every legal move,
/// where moves that a symmetry fixing the position maps onto each other
/// (with `symmetry` on) share one colour, represented by the least of them.
pub fn bead_colours<G: Game>(game: &G, position: &G::Position, symmetry: bool) -> Vec<G::Move> {
    let mut moves = game.moves(position);
    colours_of_moves(game, position, symmetry, &mut moves);
    moves
}

/// [`bead_colours`] of `position`, made in place from its legal moves.
/// Each class is represented by the least of its moves, so listing the
/// classes by their least move, sorted, is listing them in the order
/// their first move comes in the sorted legal moves.
pub(super) fn colours_of_moves<G: Game>(game: &G, position: &G::Position, symmetry: bool, moves: &mut Vec<G::Move>) {
    if symmetry && G::Symmetry::ALL.len() > 1 {
        let mut fixing = G::Symmetry::ALL[1..]
            .iter()
            .copied()
            .filter(|&s| game.map_position(position, s) == *position)
            .peekable();
        if fixing.peek().is_some() {
            let fixing: Vec<G::Symmetry> = fixing.collect();
            for m in moves.iter_mut() {
                *m = fixing.iter().map(|&s| game.map_move(*m, s)).fold(*m, |a, b| a.min(b));
            }
        }
    }
    moves.sort_unstable();
    moves.dedup();
}

/// A machine's boxes, in the order made (see [`crate::machine::Machine::boxes`]).
pub struct BoxList<'a, G: Game> {
    shelf: &'a Shelf<G::BoxKey>,
}

impl<G: Game> Clone for BoxList<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for BoxList<'_, G> {}

impl<'a, G: Game> BoxList<'a, G> {
    pub(super) fn new(shelf: &'a Shelf<G::BoxKey>) -> BoxList<'a, G> {
        BoxList { shelf }
    }

    /// How many boxes.
    pub fn len(self) -> usize {
        self.shelf.len()
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.shelf.len() == 0
    }

    /// Box `i`.
    ///
    /// # Panics
    /// If there is no box `i`, as a slice index would.
    pub fn get(self, i: usize) -> BoxRef<'a, G> {
        let i = i as u32;
        BoxRef {
            key: self.shelf.key(i),
            own_move: self.shelf.own_move(i),
            beads: self.shelf.counts(i),
        }
    }

    /// Every box, in order.
    pub fn iter(self) -> BoxIter<'a, G> {
        BoxIter {
            list: self,
            next: 0,
            end: self.len(),
        }
    }
}

impl<'a, G: Game> IntoIterator for BoxList<'a, G> {
    type Item = BoxRef<'a, G>;
    type IntoIter = BoxIter<'a, G>;
    fn into_iter(self) -> BoxIter<'a, G> {
        self.iter()
    }
}

/// The boxes of a [`BoxList`] in order, each viewed as a [`BoxRef`].
pub struct BoxIter<'a, G: Game> {
    list: BoxList<'a, G>,
    /// The next box from the front, and one past the last from the back.
    next: usize,
    end: usize,
}

impl<G: Game> Clone for BoxIter<'_, G> {
    fn clone(&self) -> Self {
        BoxIter { ..*self }
    }
}

impl<'a, G: Game> Iterator for BoxIter<'a, G> {
    type Item = BoxRef<'a, G>;

    fn next(&mut self) -> Option<BoxRef<'a, G>> {
        (self.next < self.end).then(|| {
            self.next += 1;
            self.list.get(self.next - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.end - self.next, Some(self.end - self.next))
    }
}

impl<G: Game> DoubleEndedIterator for BoxIter<'_, G> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.next < self.end).then(|| {
            self.end -= 1;
            self.list.get(self.end)
        })
    }
}

impl<G: Game> ExactSizeIterator for BoxIter<'_, G> {}

/// One of a machine's boxes, as it stands: its key, the machine's move
/// number there and its beads, borrowed from the machine.
pub struct BoxRef<'a, G: Game> {
    /// The key of the position this box stands for (see [`Boxes::BoxKey`](crate::Boxes::BoxKey)).
    pub key: &'a G::BoxKey,
    /// The machine's own move number here (1 = its first move).
    pub own_move: u32,
    /// Beads of each colour, in the order of [`BoxRef::moves`].
    pub beads: Counts<'a>,
}

impl<G: Game> Clone for BoxRef<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for BoxRef<'_, G> {}

impl<G: Game> std::fmt::Debug for BoxRef<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoxRef")
            .field("key", self.key)
            .field("own_move", &self.own_move)
            .field("beads", &self.beads)
            .finish()
    }
}

impl<G: Game> BoxRef<'_, G> {
    /// The position the box stands for (see [`MatchBox::position`]).
    pub fn position(&self, game: &G) -> G::Position {
        game.key_position(self.key)
    }

    /// One move per bead colour (see [`MatchBox::moves`]).
    pub fn moves(&self, game: &G, symmetry: bool) -> Vec<G::Move> {
        bead_colours(game, &self.position(game), symmetry)
    }

    /// All the beads in the box.
    pub fn total(&self) -> u64 {
        self.beads.total()
    }

    /// The box as a value of its own.
    pub fn to_box(&self) -> MatchBox<G> {
        MatchBox {
            key: self.key.clone(),
            own_move: self.own_move,
            beads: Beads::from(self.beads.to_vec()),
        }
    }
}
