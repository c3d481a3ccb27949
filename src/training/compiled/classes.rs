//! The machine's boxes over a compiled table's positions: each position's
//! class (its box key), the child each bead colour leads to, and which box
//! holds each class.

use rayon::prelude::*;

use crate::game::Game;
use crate::machine::boxes::BoxSet;
use crate::machine::{bead_colours, Machine};
use crate::symmetry::Symmetry;

use super::explore::Found;
use super::flat::Flat;
use super::table::{Node, NONE};

/// The machine's boxes over the table's positions.
pub(super) struct Classes<P> {
    pub(super) class_of: Vec<u32>,
    pub(super) colours: Flat,
    pub(super) class_box: Vec<u32>,
    pub(super) position: Vec<P>,
    pub(super) box_class: Vec<u32>,
}

/// The machine's box key of each position where it moves, by the
/// position's id before renumbering, and the symmetry that takes the
/// position to its key.
pub(super) type Keyed<G> = Vec<(
    <G as crate::game::Boxes>::BoxKey,
    u32,
    <G as crate::game::Symmetric>::Symmetry,
)>;

impl<P: Clone + Sync> Classes<P> {
    /// The box keys of the positions (by their ids before renumbering)
    /// where the machine moves, worked out on every core.
    pub(super) fn keys<G: Game<Position = P>>(
        machine: &Machine<G>,
        positions: &[P],
        states: &[(Node, i32)],
    ) -> Keyed<G> {
        (0..positions.len() as u32)
            .into_par_iter()
            .filter(|&i| states[i as usize].0 == Node::Machine)
            .map(|i| {
                let (key, sym) = machine.key(&positions[i as usize]);
                (key, i, sym)
            })
            .collect()
    }

    /// Where the machine moves, the class of each position (its box key)
    /// and the child each bead colour leads to: for a box the machine has,
    /// by its moves; for one it would open on first visit, by the moves it
    /// would be made with. `None` if a colour's move is not legal (the
    /// general path then plays).
    pub(super) fn find<G: Game<Position = P>>(
        machine: &Machine<G>,
        mut keyed: Keyed<G>,
        found: &Found<P>,
        positions: &[P],
        node: &[Node],
        new_id: &[u32],
    ) -> Option<Classes<P>> {
        let game = machine.game();
        let n = node.len();
        let symmetry = machine.settings().symmetry;
        let box_set: BoxSet = machine.box_set();
        let position_of = |i: u32| &positions[i as usize];
        // The positions where the machine moves with their box keys, in
        // the new ids, grouped by sorting (on every core, where a map from
        // keys met a cache miss a position): in key order, each key's
        // positions lowest id first.
        keyed.par_iter_mut().for_each(|k| k.1 = new_id[k.1 as usize]);
        keyed.par_sort_unstable_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        let groups: Vec<&[_]> = keyed.chunk_by(|a, b| a.0 == b.0).collect();
        // Each key's box, as its lowest id finds it, on every core: the
        // machine's own, or the moves of the one it would open on first
        // visit, or none (a position played at random).
        let boxes: Vec<Option<(u32, Vec<G::Move>)>> = groups
            .par_iter()
            .map_init(Vec::new, |moves, group| {
                let (key, first, _) = &group[0];
                match machine.find(key) {
                    Some(b) => Some((b, Vec::new())),
                    None if machine.is_enumerated() => None,
                    None => {
                        let pos = position_of(*first);
                        game.legal_moves(pos, moves);
                        let fresh = || (NONE, bead_colours(game, &game.key_position(key), symmetry));
                        box_set.includes(game, pos, moves).then(fresh)
                    }
                }
            })
            .collect();
        let mut class_of = vec![NONE; n];
        let mut sym_of = vec![G::Symmetry::identity(); n];
        let mut class_box = Vec::new();
        let mut position = Vec::new();
        // The moves of each class's colours, for classes not opened yet.
        let mut fresh_moves: Vec<Vec<G::Move>> = Vec::new();
        for (group, found_box) in groups.iter().zip(boxes) {
            let Some((b, fresh)) = found_box else {
                continue;
            };
            let c = class_box.len() as u32;
            class_box.push(b);
            fresh_moves.push(fresh);
            position.push(position_of(group[0].1).clone());
            for &(_, i, sym) in group.iter() {
                class_of[i as usize] = c;
                sym_of[i as usize] = sym;
            }
        }
        drop(groups);
        drop(keyed);
        // The child each colour leads to, on every core.
        let colours = Flat::par_rows(n, Vec::new, |moves, i, row| {
            let c = class_of[i as usize];
            if c == NONE {
                return Some(());
            }
            let stored: &[G::Move] = match class_box[c as usize] {
                NONE => &fresh_moves[c as usize],
                b => &machine.boxes()[b as usize].moves,
            };
            game.legal_moves(position_of(i), moves);
            let kids = found.kids_of(found.finished[i as usize]);
            let inverse = sym_of[i as usize].inverse();
            for &mv in stored {
                let k = moves.iter().position(|&m| m == game.map_move(mv, inverse))?;
                row.push(new_id[kids[k] as usize]);
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
