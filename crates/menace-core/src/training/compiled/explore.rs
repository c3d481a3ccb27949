//! Every position reachable from a game's starts, numbered breadth first,
//! with each position's children and an order that puts children first:
//! the raw material of a compiled table, before its ids are renumbered.

use std::hash::BuildHasher;

use crate::par::*;
use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::game::{Game, Outcome, Player};

/// The positions of a game found breadth first, before renumbering. Over
/// positions are one a kind (how it ended, and who would move): nothing
/// else about them matters to a game or a value.
pub(super) struct Found<P> {
    /// The ids of positions not over, found by the position's hash: eight
    /// bytes an entry (the id and the high half of the hash, its tag)
    /// where a map from positions would hold the position again. The tag
    /// rehashes the entry as the table grows and turns most mismatches
    /// away, without reading the position.
    pub(super) ids: HashTable<(u32, u32)>,
    /// The ids of positions not over, by their packed number, for a game
    /// that packs its positions ([`crate::game::Rules::pack`]): found
    /// without reading a position.
    pub(super) packed: PackedIds,
    pub(super) over: FxHashMap<(Outcome, Player), u32>,
    /// Each position by its id here (`Table::build` takes them, to read
    /// in the new ids' order).
    pub(super) positions: Vec<P>,
    /// Per position: where its children start in `kids`, and how many.
    pub(super) kids_at: Vec<(u32, u32)>,
    pub(super) kids: Vec<u32>,
    /// Positions in the order finished: children before parents. Empty
    /// from [`explore`]; `Table::build` fills it from
    /// [`Found::children_first`] before making the lists and classes.
    pub(super) finished: Vec<u32>,
    /// The id of each start.
    pub(super) roots: Vec<u32>,
    pub(super) limit: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    New,
    OnPath,
    Done,
}

impl<P> Found<P> {
    /// The children of the position numbered `old`, in legal-move order.
    pub(super) fn kids_of(&self, old: u32) -> &[u32] {
        let (at, len) = self.kids_at[old as usize];
        &self.kids[at as usize..(at + len) as usize]
    }

    /// The positions in the order a depth-first walk from the roots finishes
    /// them, each after all its children; `None` where the walk meets a
    /// position still on its path (a cycle).
    pub(super) fn children_first(&self) -> Option<Vec<u32>> {
        let mut mark = vec![Mark::New; self.positions.len()];
        let mut finished = Vec::with_capacity(self.positions.len());
        // The path from the root: a position and the next child to visit.
        let mut path: Vec<(u32, u32)> = Vec::new();
        for &root in &self.roots {
            if mark[root as usize] != Mark::New {
                continue;
            }
            mark[root as usize] = Mark::OnPath;
            path.push((root, 0));
            while let Some(&(id, next)) = path.last() {
                let kids = self.kids_of(id);
                let Some(&child) = kids.get(next as usize) else {
                    mark[id as usize] = Mark::Done;
                    finished.push(id);
                    path.pop();
                    continue;
                };
                path.last_mut().expect("not empty").1 += 1;
                match mark[child as usize] {
                    Mark::New => {
                        mark[child as usize] = Mark::OnPath;
                        path.push((child, 0));
                    }
                    Mark::OnPath => return None,
                    Mark::Done => {}
                }
            }
        }
        Some(finished)
    }
}

impl<P: Clone + Eq + std::hash::Hash> Found<P> {
    /// The id of `pos`, numbered if new; `None` past the limit.
    /// `code` is the position's packed number, if the game packs it.
    fn number<G: Game<Position = P>>(&mut self, game: &G, pos: P, code: Option<u64>) -> Option<u32> {
        // A packed position met before is found by its number alone.
        if let Some(id) = code.and_then(|c| self.packed.get(c)) {
            return Some(id);
        }
        let outcome = game.outcome(&pos);
        let over = (outcome != Outcome::Ongoing).then(|| (outcome, game.turn(&pos)));
        // Where a position is kept: over, by its kind; packed, by its
        // number (not found above, so new); else by its hash and itself.
        enum Kept {
            Over((Outcome, Player)),
            Packed(u64),
            Hashed(u64, u32),
        }
        let kept = match (over, code) {
            (Some(kind), _) => Kept::Over(kind),
            (None, Some(code)) => Kept::Packed(code),
            (None, None) => {
                let tag = (FxBuildHasher.hash_one(&pos) >> 32) as u32;
                Kept::Hashed(spread(tag), tag)
            }
        };
        let known = match kept {
            Kept::Over(kind) => self.over.get(&kind).copied(),
            Kept::Packed(_) => None,
            Kept::Hashed(hash, tag) => {
                let positions = &self.positions;
                self.ids
                    .find(hash, |&(id, t)| t == tag && positions[id as usize] == pos)
                    .map(|&(id, _)| id)
            }
        };
        if known.is_some() {
            return known;
        }
        if self.positions.len() >= self.limit {
            return None;
        }
        let id = self.positions.len() as u32;
        match kept {
            Kept::Over(kind) => {
                self.over.insert(kind, id);
            }
            Kept::Packed(code) => self.packed.insert(code, id),
            Kept::Hashed(hash, tag) => {
                self.ids.insert_unique(hash, (id, tag), |&(_, t)| spread(t));
            }
        }
        self.positions.push(pos);
        self.kids_at.push((0, 0));
        Some(id)
    }
}

/// Ids by packed position number: open addressing with linear probing,
/// at most half full, each slot the number and the id plus one (0 where
/// none: a new table is the kernel's zeroed memory, not written first).
pub(super) struct PackedIds {
    slots: Vec<(u64, u32)>,
    len: usize,
    shift: u32,
}

const EMPTY: u32 = 0;

impl PackedIds {
    pub(super) fn new() -> PackedIds {
        PackedIds {
            slots: Vec::new(),
            len: 0,
            shift: 64,
        }
    }

    #[inline]
    fn slot(&self, code: u64) -> usize {
        let mut z = code ^ (code >> 31);
        z = z.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (z >> self.shift) as usize
    }

    /// Start loading the slot of `code` into the cache (a hint).
    #[inline]
    pub(super) fn prefetch(&self, code: u64) {
        if !self.slots.is_empty() {
            crate::memory::prefetch(&self.slots[self.slot(code)]);
        }
    }

    /// The id of `code`, if it has one.
    #[inline]
    fn get(&self, code: u64) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(code);
        loop {
            let (c, id) = self.slots[i];
            if id == EMPTY {
                return None;
            }
            if c == code {
                return Some(id - 1);
            }
            i = (i + 1) & mask;
        }
    }

    /// Give `code` (not in the table) the id `id`.
    fn insert(&mut self, code: u64, id: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        self.place(code, id + 1);
        self.len += 1;
    }

    /// Put `code` and `id` in the first empty slot from `code`'s own.
    fn place(&mut self, code: u64, id: u32) {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(code);
        while self.slots[i].1 != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = (code, id);
    }

    fn grow(&mut self) {
        self.grow_to((self.slots.len() * 2).max(1 << 12));
    }

    /// Room for `n` numbers without growing: the table made once at its
    /// final size, not copied each time it doubles.
    pub(super) fn reserve(&mut self, n: usize) {
        let size = (2 * n).next_power_of_two();
        if size > self.slots.len() {
            self.grow_to(size);
        }
    }

    fn grow_to(&mut self, size: usize) {
        let slots = vec![(0, EMPTY); size];
        crate::memory::populate(&slots);
        let old = std::mem::replace(&mut self.slots, slots);
        self.shift = 64 - size.trailing_zeros();
        for (code, id) in old.into_iter().filter(|&(_, id)| id != EMPTY) {
            self.place(code, id);
        }
    }
}

/// A table hash from a position's 32-bit tag, every bit of it reaching
/// the high bits the table's control bytes take.
fn spread(tag: u32) -> u64 {
    u64::from(tag).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// How many children ahead of the one being numbered its slot is loaded
/// (where the game packs its positions), so a lookup seldom waits on memory.
const AHEAD: usize = 16;

/// The positions found from which a game counts as large.
const LARGE: usize = 1 << 16;

/// Positions a core makes the children of at a time.
const CHUNK: usize = 1 << 12;

/// The most positions whose children are made before any is numbered
/// (a layer larger is taken a slice at a time): some million children,
/// tens of megabytes, at most.
const SLICE: usize = 1 << 18;

/// Every position reachable from the starts, numbered breadth first;
/// `None` for a game over the limit. Its order children first is left to
/// [`Found::children_first`].
pub(super) fn explore<G: Game>(game: &G, starts: &[(G::Position, f64)], limit: usize) -> Option<Found<G::Position>> {
    let mut f = Found {
        ids: HashTable::new(),
        packed: PackedIds::new(),
        over: FxHashMap::default(),
        positions: Vec::new(),
        kids_at: Vec::new(),
        kids: Vec::new(),
        finished: Vec::new(),
        roots: Vec::new(),
        limit,
    };
    for (start, _) in starts {
        let root = f.number(game, start.clone(), game.pack(start))?;
        f.roots.push(root);
    }
    // A layer at a time: the children of the positions numbered in the
    // last, made on every core, then numbered in order, each parent's in
    // legal-move order.
    let mut begin = 0;
    let mut reserved = false;
    while begin < f.positions.len() {
        if !reserved && f.positions.len() >= LARGE {
            // A large game: room for as many positions as the limit lets
            // it have (and children in proportion), so the vectors are not
            // copied as they grow. Their room is only address space until
            // used, and only a hint: where it cannot be had, they grow as
            // usual. (Not huge pages: asking for them made the kernel
            // compact memory for up to a second in one run in two.) The
            // packed ids' table is made at the limit's size and faulted in
            // at once: 64 MiB at the compiled limit, where a game just past
            // `LARGE` (4×5, 76 563 positions) would need 4 MiB.
            reserved = true;
            let kids = f.limit * (f.kids.len().div_ceil(begin.max(1)) + 1);
            let _ = f.positions.try_reserve_exact(f.limit.saturating_sub(f.positions.len()));
            let _ = f.kids_at.try_reserve_exact(f.limit.saturating_sub(f.kids_at.len()));
            let _ = f.kids.try_reserve_exact(kids.saturating_sub(f.kids.len()));
            if game.pack(&f.positions[0]).is_some() {
                f.packed.reserve(f.limit);
            }
        }
        // A large layer a slice at a time, so that the children held at
        // once stay few (the ids are the same: parents in order either way).
        let end = f.positions.len().min(begin + SLICE);
        let made = make_children(game, &f, begin..end);
        for (k, Made { lens, children, codes }) in made.into_iter().enumerate() {
            let mut children = children.into_iter().zip(codes.iter().copied());
            let mut ahead = codes.iter().skip(AHEAD);
            for (j, len) in lens.into_iter().enumerate() {
                let id = begin + k * CHUNK + j;
                let at = f.kids.len() as u32;
                for (child, code) in children.by_ref().take(len as usize) {
                    if let Some(&Some(code)) = ahead.next() {
                        f.packed.prefetch(code);
                    }
                    let child = f.number(game, child, code)?;
                    f.kids.push(child);
                }
                f.kids_at[id] = (at, len);
            }
        }
        begin = end;
    }
    Some(f)
}

/// The children of a chunk of positions.
struct Made<P> {
    /// How many each position has.
    lens: Vec<u32>,
    /// All of them, each position's in legal-move order.
    children: Vec<P>,
    /// Their packed numbers, where the game packs them.
    codes: Vec<Option<u64>>,
}

/// The children of the positions `range`, made on every core a chunk at a time.
fn make_children<G: Game>(game: &G, f: &Found<G::Position>, range: std::ops::Range<usize>) -> Vec<Made<G::Position>> {
    f.positions[range.clone()]
        .par_chunks(CHUNK)
        .enumerate()
        .map_init(Vec::new, |moves, (k, chunk)| {
            let mut made = Made {
                lens: Vec::with_capacity(chunk.len()),
                children: Vec::with_capacity(chunk.len() * 4),
                codes: Vec::with_capacity(chunk.len() * 4),
            };
            for (j, pos) in chunk.iter().enumerate() {
                let id = (range.start + k * CHUNK + j) as u32;
                // The positions over are the few of `over` (one a kind).
                if f.over.values().any(|&over| over == id) {
                    made.lens.push(0);
                    continue;
                }
                game.legal_moves(pos, moves);
                for &mv in moves.iter() {
                    let child = game.play(pos, mv);
                    made.codes.push(game.pack(&child));
                    made.children.push(child);
                }
                made.lens.push(moves.len() as u32);
            }
            made
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::game::{Outcome, Rules};
    use crate::games::hexapawn::Hexapawn;

    /// A graph of `kids` lists by hand, rooted at 0.
    fn graph(kids: &[&[u32]]) -> Found<()> {
        let mut found = Found {
            ids: HashTable::new(),
            packed: PackedIds::new(),
            over: FxHashMap::default(),
            positions: vec![(); kids.len()],
            kids_at: Vec::new(),
            kids: Vec::new(),
            finished: Vec::new(),
            roots: vec![0],
            limit: kids.len(),
        };
        for list in kids {
            found.kids_at.push((found.kids.len() as u32, list.len() as u32));
            found.kids.extend_from_slice(list);
        }
        found
    }

    #[test]
    fn the_walk_finishes_children_first_and_refuses_a_cycle() {
        // 0 → 1, 2; 1 → 2; 2 and 3 have none (3 is not reached).
        let dag = graph(&[&[1, 2], &[2], &[], &[]]);
        assert_eq!(dag.children_first(), Some(vec![2, 1, 0]));
        // 0 → 1 → 2 → 1: a cycle below the root.
        let cyclic = graph(&[&[1], &[2], &[1]]);
        assert_eq!(cyclic.children_first(), None);
    }

    #[test]
    fn explore_numbers_every_position_once_and_refuses_past_its_limit() {
        // 3×3, and 4×5: 76 563 positions, past `LARGE`, so its table of
        // packed ids is made at its final size once the game is found large.
        numbers_every_position_once(Hexapawn::new(3, 3).unwrap());
        assert!(numbers_every_position_once(Hexapawn::new(4, 5).unwrap()) > LARGE);
    }

    /// Explore's positions against a plain search of `game`; how many there are.
    fn numbers_every_position_once(game: Hexapawn) -> usize {
        // The positions reachable, counted here by a plain search; every
        // ended game of one outcome and winner is one position in the table.
        let mut seen = HashSet::new();
        let mut ends = HashSet::new();
        let mut todo = vec![game.start()];
        while let Some(pos) = todo.pop() {
            match game.outcome(&pos) {
                Outcome::Ongoing => {
                    if seen.insert(pos) {
                        todo.extend(game.moves(&pos).into_iter().map(|mv| game.play(&pos, mv)));
                    }
                }
                end => {
                    ends.insert((end, game.turn(&pos)));
                }
            }
        }
        let n = seen.len() + ends.len();
        let found = explore(&game, &game.starts(), n).expect("within its limit");
        assert_eq!(found.positions.len(), n);
        // Each position's children are its moves' positions, in legal-move order.
        for (id, pos) in found.positions.iter().enumerate() {
            let kids: Vec<_> = found
                .kids_of(id as u32)
                .iter()
                .map(|&k| found.positions[k as usize])
                .collect();
            let played: Vec<_> = match game.outcome(pos) {
                Outcome::Ongoing => game.moves(pos).into_iter().map(|mv| game.play(pos, mv)).collect(),
                _ => Vec::new(),
            };
            assert_eq!(kids.len(), played.len(), "{pos:?}");
            for (kid, next) in kids.iter().zip(&played) {
                // An ended game is kept as the first position to end that way.
                match game.outcome(next) {
                    Outcome::Ongoing => assert_eq!(kid, next),
                    end => assert_eq!((game.outcome(kid), game.turn(kid)), (end, game.turn(next))),
                }
            }
        }
        assert!(explore(&game, &game.starts(), n - 1).is_none());
        n
    }
}
