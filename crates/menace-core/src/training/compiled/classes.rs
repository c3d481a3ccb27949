//! The machine's boxes over a compiled table's positions: each position's
//! class (its box key), the child each bead colour leads to, and which box
//! holds each class.

use crate::par::*;

use crate::game::Game;
use crate::machine::boxes::BoxSet;
use crate::machine::{bead_colours, Machine};
use crate::symmetry::Symmetry;

use super::flat::Flat;
use super::table::NONE;

/// The machine's boxes over the table's positions.
pub(super) struct Classes<P> {
    pub(super) class_of: Vec<u32>,
    pub(super) colours: Flat,
    pub(super) class_box: Vec<u32>,
    pub(super) position: Vec<P>,
    pub(super) box_class: Vec<u32>,
}

/// A key's box: the machine's own, or [`NONE`] with the moves of the one
/// it would open on first visit; `None` where a position is played at random.
type KeyBox<M> = Option<(u32, Vec<M>)>;

/// The positions where the machine moves, grouped by box key, and each
/// key's box: the part of the classes that needs neither the ids' final
/// order nor the children, worked out while the order is.
pub(super) struct Grouped<G: Game> {
    /// The box key of each position where the machine moves, its id
    /// before renumbering, and the symmetry that takes the position to its
    /// key; in key order.
    keyed: Vec<(G::BoxKey, u32, G::Symmetry)>,
    /// Per key, in key order: where its positions end in `keyed`, and its box.
    keys: Vec<(u32, KeyBox<G::Move>)>,
}

impl<G: Game> Grouped<G> {
    /// The positions (by their ids before renumbering) where the machine
    /// moves, `keyed` by their box keys (with the symmetry that takes each
    /// to its key), grouped (by sorting, on every core, where a map from
    /// keys met a cache miss a position), and each key's box, as the key's
    /// first position (the lowest id) finds it: a key's positions share a
    /// board and side to move, and differ at most in the history a game's
    /// rules keep.
    pub(super) fn new(
        machine: &Machine<G>,
        positions: &[G::Position],
        mut keyed: Vec<(G::BoxKey, u32, G::Symmetry)>,
    ) -> Grouped<G> {
        let game = machine.game();
        keyed.par_sort_unstable_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        let groups: Vec<&[_]> = keyed.chunk_by(|a, b| a.0 == b.0).collect();
        let symmetry = machine.settings().symmetry;
        let box_set: BoxSet = machine.box_set();
        let boxes: Vec<KeyBox<G::Move>> = groups
            .par_iter()
            .map_init(Vec::new, |moves, group| {
                let (key, first, _) = &group[0];
                match machine.find(key) {
                    Some(b) => Some((b, Vec::new())),
                    None if machine.is_enumerated() => None,
                    None => {
                        let pos = &positions[*first as usize];
                        game.legal_moves(pos, moves);
                        let fresh = || (NONE, bead_colours(game, &game.key_position(key), symmetry));
                        box_set.includes(game, pos, moves).then(fresh)
                    }
                }
            })
            .collect();
        let mut end = 0;
        let keys = groups
            .iter()
            .zip(boxes)
            .map(|(group, found)| {
                end += group.len() as u32;
                (end, found)
            })
            .collect();
        Grouped { keyed, keys }
    }
}

impl<P: Clone + Sync> Classes<P> {
    /// The classes in the new ids (`new_id`), a class a key with a box, in
    /// key order: each position's class, one position of each (the lowest
    /// id), and the child each colour leads to (by `children`, in the new
    /// ids and legal-move order). `None` if a colour's move is not legal
    /// (the general path then plays).
    pub(super) fn find<G: Game<Position = P>>(
        machine: &Machine<G>,
        grouped: Grouped<G>,
        positions: &[P],
        children: &Flat,
        new_id: &[u32],
    ) -> Option<Classes<P>> {
        let game = machine.game();
        let n = positions.len();
        let mut class_of = vec![NONE; n];
        let mut sym_of = vec![G::Symmetry::identity(); n];
        let mut class_box = Vec::new();
        let mut position = Vec::new();
        // The moves of each class's colours, for classes not opened yet,
        // in one list: read in the positions' order, a class at random, so
        // the fewer places to look the better.
        let mut fresh_at: Vec<u32> = vec![0];
        let mut fresh_moves: Vec<G::Move> = Vec::new();
        let mut start = 0;
        for (end, found_box) in grouped.keys {
            let group = &grouped.keyed[start as usize..end as usize];
            start = end;
            let Some((b, fresh)) = found_box else {
                continue;
            };
            let c = class_box.len() as u32;
            class_box.push(b);
            fresh_moves.extend_from_slice(&fresh);
            fresh_at.push(fresh_moves.len() as u32);
            let mut first = u32::MAX;
            for &(_, old, sym) in group {
                let i = new_id[old as usize];
                first = first.min(i);
                class_of[i as usize] = c;
                sym_of[i as usize] = sym;
            }
            position.push(positions[first as usize].clone());
        }
        drop(grouped.keyed);
        // The child each colour leads to, on every core.
        let box_moves: Vec<Vec<G::Move>> = (0..machine.boxes().len() as u32)
            .map(|b| machine.box_moves(b))
            .collect();
        let colours = Flat::par_rows(n, Vec::new, |moves, i, row| {
            let c = class_of[i as usize];
            if c == NONE {
                return Some(());
            }
            let stored: &[G::Move] = match class_box[c as usize] {
                NONE => &fresh_moves[fresh_at[c as usize] as usize..fresh_at[c as usize + 1] as usize],
                b => &box_moves[b as usize],
            };
            game.legal_moves(&positions[i as usize], moves);
            let kids = children.get(i);
            let inverse = sym_of[i as usize].inverse();
            for &mv in stored {
                let k = moves.iter().position(|&m| m == game.map_move(mv, inverse))?;
                row.push(kids[k]);
            }
            Some(())
        })?;
        drop(sym_of);
        let mut box_class = vec![NONE; machine.boxes().len()];
        for (c, &b) in class_box.iter().enumerate() {
            if b != NONE {
                box_class[b as usize] = c as u32;
            }
        }
        Some(Classes {
            class_of,
            colours,
            class_box,
            position,
            box_class,
        })
    }
}
