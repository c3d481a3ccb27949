//! Machines that play alike from here on, made one state.
//!
//! Exact learning walks every machine a machine can become; many of them
//! differ only where it can never matter again, or are each other's mirror
//! image. Three kinds of difference are dropped, each exactly (the machines
//! merged have the same chances of everything from then on):
//! - a box no game can reach any more (every way in has lost its beads):
//!   its counts are set to nothing;
//! - colours of one box after which no box is met and the game ends with
//!   the same chances: their counts are exchangeable, so they are sorted;
//! - a symmetry of the board that maps the machine's boxes onto boxes and
//!   the opponent's moves onto its moves (random and perfect play are both
//!   symmetric): the smaller of a machine and its image stands for both.

use std::cell::RefCell;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::tree::{moves_on_board, Layout, Node};
use crate::game::Game;
use crate::machine::{GameResult, Machine};
use crate::symmetry::Symmetry;
use crate::training::exact::Reference;

/// What [`Lumps::canonical`] needs: the boxes' ways on, the exchangeable
/// colours, and the symmetries as permutations of every count.
pub(super) struct Lumps {
    /// The machine's boxes.
    boxes: usize,
    /// The boxes kept (with counts in the layout), by the machine's index.
    kept: Vec<usize>,
    /// Per box kept, where its counts lie.
    ranges: Vec<(usize, usize)>,
    /// The boxes kept a game meets first (indices into `kept`).
    first: Vec<u32>,
    /// Per box kept, per colour: the boxes kept a game may meet next.
    next: Vec<Vec<Vec<u32>>>,
    /// Per count: whether a box may follow its colour (so that its
    /// running out may leave boxes out of reach).
    leads_on: Vec<bool>,
    /// Counts (flat indices) that may be exchanged: a box's colours after
    /// which no box is met and the game ends with the same chances.
    classes: Vec<Vec<usize>>,
    /// For each symmetry other than the identity that maps the machine onto
    /// itself: where each count goes.
    images: Vec<Vec<usize>>,
    /// The lists [`Lumps::forget_unreachable`] walks with, kept.
    scratch: RefCell<(Vec<bool>, Vec<u32>)>,
}

/// A colour's end as far as the walk has seen it.
#[derive(Clone, Copy, PartialEq)]
enum End {
    Unseen,
    /// No box is met after it; the chances of a win, a draw and a loss (as bits, to compare exactly).
    Alike([u64; 3]),
    /// A box may be met after it, or it ends differently from two positions.
    Apart,
}

/// What follows a position: the boxes met first and, where there are none,
/// the chances of each result.
struct Ahead {
    boxes: Vec<usize>,
    ends: Option<[f64; 3]>,
}

type NodeOf<'n, G> = dyn FnMut(&<G as crate::game::Rules>::Position, &mut Reference<'_, G>) -> Rc<Node<G>> + 'n;

/// The walk that fills in [`Lumps`]' ways on and colours' ends.
struct Survey<'a, 'r, 'n, G: Game> {
    game: &'a G,
    opponent: &'a mut Reference<'r, G>,
    node_of: &'a mut NodeOf<'n, G>,
    seen: FxHashMap<G::Position, Rc<Ahead>>,
    next: Vec<Vec<Vec<usize>>>,
    ends: Vec<Vec<End>>,
}

impl<G: Game> Survey<'_, '_, '_, G> {
    fn ahead(&mut self, pos: &G::Position) -> Rc<Ahead> {
        if let Some(a) = self.seen.get(pos) {
            return a.clone();
        }
        let node = (self.node_of)(pos, self.opponent);
        let ahead = match &*node {
            Node::Over(result) => {
                let mut e = [0.0; 3];
                e[slot(*result)] = 1.0;
                Ahead {
                    boxes: Vec::new(),
                    ends: Some(e),
                }
            }
            // A box not kept: a way on no game takes from the machine as it is.
            Node::Boxed(i, _) if self.next[*i].is_empty() => Ahead {
                boxes: vec![*i],
                ends: None,
            },
            Node::Boxed(i, moves) => {
                for (c, mv) in moves.iter().enumerate() {
                    let after = self.ahead(&self.game.play(pos, *mv));
                    self.next[*i][c].extend(after.boxes.iter());
                    let end = match after.ends {
                        Some(e) if after.boxes.is_empty() => End::Alike(e.map(f64::to_bits)),
                        _ => End::Apart,
                    };
                    let was = &mut self.ends[*i][c];
                    *was = match *was {
                        End::Unseen => end,
                        w if w == end => w,
                        _ => End::Apart,
                    };
                }
                Ahead {
                    boxes: vec![*i],
                    ends: None,
                }
            }
            Node::Unboxed(moves) | Node::Opponent(moves) if moves.is_empty() => {
                // The walk counts a player without a move as the machine's win.
                Ahead {
                    boxes: Vec::new(),
                    ends: Some([1.0, 0.0, 0.0]),
                }
            }
            Node::Unboxed(moves) | Node::Opponent(moves) => {
                let share = 1.0 / moves.len() as f64;
                self.ways_on(pos, moves.iter().map(|&mv| (mv, share)))
            }
            // The moves a mixed opponent never plays lead nowhere.
            Node::Mixed(moves, chances) => self.ways_on(
                pos,
                moves
                    .iter()
                    .zip(chances)
                    .filter(|(_, &c)| c > 0.0)
                    .map(|(&mv, &c)| (mv, c)),
            ),
        };
        let ahead = Rc::new(ahead);
        self.seen.insert(pos.clone(), ahead.clone());
        ahead
    }

    /// What lies ahead of a position whose moves are played with these
    /// chances: every box ahead of any, and the chances of each result
    /// where no box is.
    fn ways_on(&mut self, pos: &G::Position, ways: impl Iterator<Item = (G::Move, f64)>) -> Ahead {
        let mut boxes = Vec::new();
        let mut ends = Some([0.0; 3]);
        for (mv, share) in ways {
            let after = self.ahead(&self.game.play(pos, mv));
            boxes.extend(after.boxes.iter());
            ends = match (ends, after.ends) {
                (Some(mut e), Some(a)) => {
                    for k in 0..3 {
                        e[k] += share * a[k];
                    }
                    Some(e)
                }
                _ => None,
            };
        }
        boxes.sort_unstable();
        boxes.dedup();
        Ahead { boxes, ends }
    }
}

fn slot(result: GameResult) -> usize {
    match result {
        GameResult::Win => 0,
        GameResult::Draw => 1,
        GameResult::Loss => 2,
    }
}

impl Lumps {
    pub(super) fn new<'n, G: Game>(
        machine: &Machine<G>,
        starts: &[(G::Position, f64)],
        layout: &Layout,
        opponent: &mut Reference<'_, G>,
        node_of: &mut NodeOf<'n, G>,
    ) -> Lumps {
        let game = machine.game();
        let offsets = layout.offsets.clone();
        let boxes = offsets.len() - 1;
        let colours = |i: usize| offsets[i + 1] - offsets[i];
        let mut survey = Survey {
            game,
            opponent,
            node_of,
            seen: FxHashMap::default(),
            next: (0..boxes).map(|i| vec![Vec::new(); colours(i)]).collect(),
            ends: (0..boxes).map(|i| vec![End::Unseen; colours(i)]).collect(),
        };
        let mut first = Vec::new();
        for (pos, _) in starts {
            first.extend(survey.ahead(pos).boxes.iter());
        }
        first.sort_unstable();
        first.dedup();
        let mut next = survey.next;
        for colours in &mut next {
            for n in colours {
                n.sort_unstable();
                n.dedup();
            }
        }
        let mut classes = Vec::new();
        for (i, ends) in survey.ends.iter().enumerate() {
            let mut groups: Vec<([u64; 3], Vec<usize>)> = Vec::new();
            for (c, end) in ends.iter().enumerate() {
                if let End::Alike(e) = end {
                    match groups.iter_mut().find(|g| g.0 == *e) {
                        Some(g) => g.1.push(offsets[i] + c),
                        None => groups.push((*e, vec![offsets[i] + c])),
                    }
                }
            }
            classes.extend(groups.into_iter().map(|g| g.1).filter(|g| g.len() > 1));
        }
        let images = G::Symmetry::ALL
            .iter()
            .filter(|s| !s.is_identity())
            .filter_map(|&s| image(machine, starts, &offsets, s))
            .collect();
        // From here on, the boxes kept alone: a machine of many boxes
        // against a perfect opponent keeps few.
        let kept: Vec<usize> = (0..boxes).filter(|&i| offsets[i + 1] > offsets[i]).collect();
        let mut slot = vec![u32::MAX; boxes];
        for (k, &i) in kept.iter().enumerate() {
            slot[i] = k as u32;
        }
        let only_kept = |n: &[usize]| -> Vec<u32> { n.iter().map(|&b| slot[b]).filter(|&k| k != u32::MAX).collect() };
        let mut leads_on = vec![false; *offsets.last().unwrap_or(&0)];
        let next: Vec<Vec<Vec<u32>>> = kept
            .iter()
            .map(|&i| {
                next[i]
                    .iter()
                    .enumerate()
                    .map(|(c, n)| {
                        leads_on[offsets[i] + c] = !n.is_empty();
                        only_kept(n)
                    })
                    .collect()
            })
            .collect();
        Lumps {
            boxes,
            ranges: kept.iter().map(|&i| (offsets[i], offsets[i + 1])).collect(),
            first: only_kept(&first),
            kept,
            next,
            leads_on,
            classes,
            images,
            scratch: RefCell::default(),
        }
    }

    /// Which of the machine's boxes a game can reach with these counts.
    pub(super) fn reached(&self, counts: &[u8]) -> Vec<bool> {
        let mut boxes = vec![false; self.boxes];
        for (k, r) in self.reached_kept(counts).into_iter().enumerate() {
            boxes[self.kept[k]] = r;
        }
        boxes
    }

    /// [`Lumps::canonical`] of `counts`, one game on from `before` (itself
    /// canonical): boxes go out of reach only where a colour a box may
    /// follow has run out, so reachability is worked out only then.
    pub(super) fn canonical_after(&self, before: &[u8], counts: &mut [u8]) {
        let ran_out = before
            .iter()
            .zip(counts.iter())
            .zip(&self.leads_on)
            .any(|((&b, &a), &on)| on && a == 0 && b > 0);
        if ran_out {
            self.forget_unreachable(counts);
        }
        self.symmetric(counts);
    }

    /// The one machine that stands for every machine playing as `counts` does.
    pub(super) fn canonical(&self, counts: &mut [u8]) {
        self.forget_unreachable(counts);
        self.symmetric(counts);
    }

    /// The least of the images of `counts` under the exchanges and symmetries.
    fn symmetric(&self, counts: &mut [u8]) {
        self.sort_classes(counts);
        if self.images.is_empty() {
            return;
        }
        let was = counts.to_vec();
        let mut image = vec![0u8; counts.len()];
        for to in &self.images {
            for (k, &t) in to.iter().enumerate() {
                image[t] = was[k];
            }
            self.sort_classes(&mut image);
            if image.as_slice() < &*counts {
                counts.copy_from_slice(&image);
            }
        }
    }

    /// Set to nothing the counts of every box no game can reach with these
    /// counts (a colour without beads is never drawn).
    fn forget_unreachable(&self, counts: &mut [u8]) {
        // Once a machine found, or more: the walk's lists are kept from one to the next.
        let mut scratch = self.scratch.borrow_mut();
        let (reached, stack) = &mut *scratch;
        self.mark_reached(counts, reached, stack);
        for (k, &r) in reached.iter().enumerate() {
            if !r {
                let (from, to) = self.ranges[k];
                counts[from..to].fill(0);
            }
        }
    }

    /// Which boxes kept a game can reach with these counts.
    fn reached_kept(&self, counts: &[u8]) -> Vec<bool> {
        let (mut reached, mut stack) = (Vec::new(), Vec::new());
        self.mark_reached(counts, &mut reached, &mut stack);
        reached
    }

    /// [`Lumps::reached_kept`] into `reached`, with `stack` to walk by.
    fn mark_reached(&self, counts: &[u8], reached: &mut Vec<bool>, stack: &mut Vec<u32>) {
        reached.clear();
        reached.resize(self.kept.len(), false);
        stack.clear();
        stack.extend_from_slice(&self.first);
        while let Some(b) = stack.pop() {
            let b = b as usize;
            if std::mem::replace(&mut reached[b], true) {
                continue;
            }
            let at = self.ranges[b].0;
            for (c, n) in self.next[b].iter().enumerate() {
                if counts[at + c] > 0 {
                    stack.extend(n.iter().filter(|&&x| !reached[x as usize]));
                }
            }
        }
    }

    /// Each class of exchangeable counts, most first (in place: the classes
    /// are small, and this runs once a machine found).
    fn sort_classes(&self, counts: &mut [u8]) {
        for class in &self.classes {
            for i in 1..class.len() {
                let mut j = i;
                while j > 0 && counts[class[j - 1]] < counts[class[j]] {
                    counts.swap(class[j - 1], class[j]);
                    j -= 1;
                }
            }
        }
    }
}

/// Where the symmetry `s` sends each count of the machine's boxes: `None`
/// unless it maps the starts onto the starts and every box's colours onto a
/// box's colours.
fn image<G: Game>(
    machine: &Machine<G>,
    starts: &[(G::Position, f64)],
    offsets: &[usize],
    s: G::Symmetry,
) -> Option<Vec<usize>> {
    let game = machine.game();
    for (pos, p) in starts {
        let mapped = game.map_position(pos, s);
        if !starts.iter().any(|(q, r)| *q == mapped && r == p) {
            return None;
        }
    }
    let mut to = vec![0usize; *offsets.last()?];
    for (i, b) in machine.boxes().iter().enumerate() {
        let there = game.map_position(&b.position(game), s);
        let (j, sym) = machine.box_for(&there)?;
        let j = j as usize;
        if offsets[j + 1] - offsets[j] != offsets[i + 1] - offsets[i] {
            // Kept here and not there (a machine whose beads are not symmetric).
            return None;
        }
        if offsets[i + 1] == offsets[i] {
            continue;
        }
        let real = moves_on_board(machine, j, sym);
        if real.len() != b.beads.len() {
            return None;
        }
        for (c, m) in machine.box_moves(i as u32).into_iter().enumerate() {
            let k = real.iter().position(|&r| r == game.map_move(m, s))?;
            to[offsets[i] + c] = offsets[j] + k;
        }
    }
    Some(to)
}
