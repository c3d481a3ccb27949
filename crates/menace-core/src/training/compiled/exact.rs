//! Exact evaluation on a compiled table, incremental: only the positions of
//! the boxes drawn from since the last evaluation are worked out again,
//! then their parents where a value changed, children first, each value
//! summed in the general path's order so that the two agree to the bit.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::game::Game;
use crate::machine::settings::EmptyBox;
use crate::machine::{GameResult, Machine};
use crate::training::exact::{weigh_known, Expected, Odds};

use super::flat::Flat;
use super::table::{ExactCache, Node, Table, NONE};

impl<G: Game> Table<G> {
    /// The machine's exact expected results against random and perfect
    /// play. Only positions whose box was drawn from since the last call,
    /// and their ancestors while values change, are worked out again, each
    /// child before its parents; each value is summed in the order
    /// [`crate::training::exact::expected`] uses, so the two agree exactly.
    pub(crate) fn exact(&mut self, machine: &Machine<G>) -> (Expected, Expected) {
        self.sync(machine);
        let n = self.node.len();
        let empty_box = machine.settings().empty_box;
        let cache = match self.exact.take() {
            None => {
                // Against each opponent apart, at the same time, children
                // first. The lists an update walks by are made at the first
                // update: a run that evaluates once never needs them.
                let values = |choices: &Flat| {
                    let mut values = Vec::with_capacity(n);
                    for i in 0..n as u32 {
                        values.push(self.value(machine, i, empty_box, &values, choices));
                    }
                    values
                };
                let (random, perfect) = crate::par::join(|| values(&self.children), || values(&self.best));
                ExactCache {
                    random,
                    perfect,
                    walk: None,
                    touched: Vec::new(),
                    is_touched: Vec::new(),
                    queued: vec![false; n],
                }
            }
            Some(mut cache) => {
                self.update(machine, empty_box, &mut cache);
                cache
            }
        };
        let total = |values: &[Expected]| {
            let mut e = Expected::default();
            for &(s, w) in &self.starts {
                e.add_scaled(values[s as usize], w);
            }
            e
        };
        let out = (total(&cache.random), total(&cache.perfect));
        self.exact = Some(cache);
        out
    }

    /// Work out again the values of the touched boxes' positions, then of
    /// the parents of every position whose values changed, lowest id first
    /// (children before parents).
    fn update(&self, machine: &Machine<G>, empty_box: EmptyBox, cache: &mut ExactCache) {
        let (members, parents) = cache
            .walk
            .get_or_insert_with(|| crate::par::join(|| self.members(), || self.parents()));
        let mut queue = BinaryHeap::new();
        for b in std::mem::take(&mut cache.touched) {
            cache.is_touched[b as usize] = false;
            let Some(&c) = self.box_class.get(b as usize) else {
                continue;
            };
            if c == NONE {
                continue;
            }
            for &i in members.get(c) {
                if !std::mem::replace(&mut cache.queued[i as usize], true) {
                    queue.push(Reverse(i));
                }
            }
        }
        let same = |a: Expected, b: Expected| {
            a.win.to_bits() == b.win.to_bits()
                && a.draw.to_bits() == b.draw.to_bits()
                && a.loss.to_bits() == b.loss.to_bits()
        };
        while let Some(Reverse(i)) = queue.pop() {
            cache.queued[i as usize] = false;
            let random = self.value(machine, i, empty_box, &cache.random, &self.children);
            let perfect = self.value(machine, i, empty_box, &cache.perfect, &self.best);
            if same(random, cache.random[i as usize]) && same(perfect, cache.perfect[i as usize]) {
                continue;
            }
            cache.random[i as usize] = random;
            cache.perfect[i as usize] = perfect;
            for &p in parents.get(i) {
                if !std::mem::replace(&mut cache.queued[p as usize], true) {
                    queue.push(Reverse(p));
                }
            }
        }
    }

    /// Each position's parents: the positions listing it as a child.
    pub(super) fn parents(&self) -> Flat {
        self.children.transposed(self.node.len())
    }

    /// Each class's positions, in order.
    fn members(&self) -> Flat {
        let positions = self.class_of.iter().enumerate();
        Flat::grouped(self.class_box.len(), || {
            positions
                .clone()
                .filter(|(_, &c)| c != NONE)
                .map(|(i, &c)| (c, i as u32))
        })
    }

    /// The expected result from position `i`, its children's values known:
    /// the machine follows its beads (a box not opened yet as the general
    /// path's evaluation makes it), the opponent plays uniformly among its
    /// `choices` (every child, or the best ones), by the rule of
    /// [`crate::training::exact::weigh`], as on the general path.
    fn value(
        &self,
        machine: &Machine<G>,
        i: u32,
        empty_box: EmptyBox,
        values: &[Expected],
        choices: &Flat,
    ) -> Expected {
        let known = |c: u32| values[c as usize];
        match self.node[i as usize] {
            Node::Over(result) => Expected::certain(result),
            Node::Opponent => {
                weigh_known(Odds::Uniform, choices.get(i), known).unwrap_or_else(|| Expected::certain(GameResult::Win))
            }
            Node::Machine => {
                let c = self.class_of[i as usize];
                let weighed = if c == NONE {
                    weigh_known(Odds::Uniform, self.children.get(i), known)
                } else {
                    let colours = self.colours.get(i);
                    let beads = match self.class_box[c as usize] {
                        NONE => self.fresh[colours.len()].counts(),
                        b => machine.boxes().get(b as usize).beads,
                    };
                    weigh_known(Odds::Beads(beads, empty_box), colours, known)
                };
                weighed.unwrap_or_else(|| Expected::certain(GameResult::Loss))
            }
        }
    }
}
