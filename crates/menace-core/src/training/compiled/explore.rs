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

/// Where a position is kept, worked out without the ids (so on any core):
/// over, by its kind (how it ended, and who would move); else by its
/// packed number, where the game packs it; else by its hash and itself.
#[derive(Clone, Copy)]
enum Kept {
    Over((Outcome, Player)),
    Packed(u64),
    /// The hash (spread from the tag) and the tag.
    Hashed(u64, u32),
}

impl Kept {
    fn of<G: Game>(game: &G, pos: &G::Position) -> Kept {
        let outcome = game.outcome(pos);
        if outcome != Outcome::Ongoing {
            return Kept::Over((outcome, game.turn(pos)));
        }
        match game.pack(pos) {
            Some(code) => Kept::Packed(code),
            None => {
                let tag = (FxBuildHasher.hash_one(pos) >> 32) as u32;
                Kept::Hashed(spread(tag), tag)
            }
        }
    }
}

impl<P: Clone + Eq + std::hash::Hash> Found<P> {
    /// The id of `pos`, kept as `kept` says, numbered if new; `None` past
    /// the limit.
    fn number(&mut self, pos: P, kept: Kept) -> Option<u32> {
        let known = match kept {
            Kept::Over(kind) => self.over.get(&kind).copied(),
            Kept::Packed(code) => self.packed.get(code),
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

    /// Number the children `made` of the positions from `first` on, each
    /// parent's in legal-move order; `None` past the limit.
    fn number_children<S, K>(&mut self, first: usize, made: Vec<Made<P, S, K>>) -> Option<()> {
        let mut id = first;
        for Made {
            lens, children, kept, ..
        } in made
        {
            let mut children = children.into_iter();
            let mut k = 0;
            for len in lens {
                let at = self.kids.len() as u32;
                for _ in 0..len {
                    if let Some(&Kept::Packed(ahead)) = kept.get(k + AHEAD) {
                        self.packed.prefetch(ahead);
                    }
                    let child = self.number(children.next().expect("a position for each"), kept[k])?;
                    self.kids.push(child);
                    k += 1;
                }
                self.kids_at[id] = (at, len);
                id += 1;
            }
        }
        Some(())
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

    /// Empty slots for `n` numbers without growing, faulted in: made
    /// apart (on another core), then taken by [`PackedIds::take_room`],
    /// so that the table is made once at its final size, not copied each
    /// time it doubles.
    pub(super) fn room_for(n: usize) -> Vec<(u64, u32)> {
        let slots = vec![(0, EMPTY); (2 * n).next_power_of_two()];
        crate::memory::populate(&slots);
        slots
    }

    /// Move the numbers into `slots` (from [`PackedIds::room_for`]) where
    /// they are more than the table has now.
    pub(super) fn take_room(&mut self, slots: Vec<(u64, u32)>) {
        if slots.len() > self.slots.len() {
            self.move_to(slots);
        }
    }

    fn grow_to(&mut self, size: usize) {
        let slots = vec![(0, EMPTY); size];
        crate::memory::populate(&slots);
        self.move_to(slots);
    }

    fn move_to(&mut self, slots: Vec<(u64, u32)>) {
        let size = slots.len();
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

/// The positions found from which a game counts as large.
const LARGE: usize = 1 << 16;

/// How many children ahead of the one being looked up its slot is loaded
/// (where the game packs its positions), so a lookup seldom waits on memory.
const AHEAD: usize = 16;

/// Positions a core makes the children of at a time.
const CHUNK: usize = 1 << 12;

/// The most positions whose children are made before any is numbered
/// (a layer larger is taken a slice at a time): some million children,
/// tens of megabytes, at most.
const SLICE: usize = 1 << 18;

/// The positions of a game found by [`explore`], and what `describe`
/// gave of them, in the order of their ids.
pub(super) struct Explored<P, S, K> {
    pub(super) found: Found<P>,
    /// Of every position.
    pub(super) states: Vec<S>,
    /// Of the positions it gave one of.
    pub(super) keyed: Vec<K>,
}

/// Every position reachable from the starts, numbered breadth first, and
/// what `describe` gives of each (given the position and its id: a state,
/// and maybe a key), worked out on whichever core makes the position's
/// children; `None` for a game over the limit. Its order
/// children first is left to [`Found::children_first`].
pub(super) fn explore<G: Game, S: Send, K: Send>(
    game: &G,
    starts: &[(G::Position, f64)],
    limit: usize,
    describe: impl Fn(&G::Position, u32) -> (S, Option<K>) + Sync,
) -> Option<Explored<G::Position, S, K>> {
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
        let root = f.number(start.clone(), Kept::of(game, start))?;
        f.roots.push(root);
    }
    let (mut states, mut keyed) = (Vec::new(), Vec::new());
    // Breadth first, parents in order, each one's children in legal-move
    // order, a slice of parents at a time: while one core numbers the
    // children of a slice, the other makes those of the next, the
    // positions numbered by then that follow it. Where there are none yet
    // (as at a layer's end), every core makes the children of half of
    // those waiting first, so that the other half can be made meanwhile.
    let mut begin = 0;
    let mut reserved = false;
    // Whether the packed ids' table is to be made at its final size.
    let mut room = false;
    let mut ready: Option<Slice<G::Position, S, K>> = None;
    loop {
        if !reserved && f.positions.len() >= LARGE {
            // A large game: room for as many positions as the limit lets
            // it have (and children in proportion), so the vectors are not
            // copied as they grow. Their room is only address space until
            // used, and only a hint: where it cannot be had, they grow as
            // usual. (Not huge pages: asking for them made the kernel
            // compact memory for up to a second in one run in two.) The
            // packed ids' table is made at the limit's size and faulted in
            // at once: 64 MiB at the compiled limit, where a game just past
            // `LARGE` (4×5, 76 563 positions) would need 4 MiB. That
            // table is made on the core that makes children, in the next
            // round, and taken after it. So are the described lists' room.
            reserved = true;
            let kids = f.limit * (f.kids.len().div_ceil(begin.max(1)) + 1);
            let _ = f.positions.try_reserve_exact(f.limit.saturating_sub(f.positions.len()));
            let _ = f.kids_at.try_reserve_exact(f.limit.saturating_sub(f.kids_at.len()));
            let _ = f.kids.try_reserve_exact(kids.saturating_sub(f.kids.len()));
            let _ = states.try_reserve_exact(f.limit.saturating_sub(states.len()));
            let _ = keyed.try_reserve_exact((f.limit / 2).saturating_sub(keyed.len()));
            room = game.pack(&f.positions[0]).is_some();
        }
        let (end, mut made) = match ready.take() {
            Some(slice) => slice,
            None if begin == f.positions.len() => break,
            None => {
                let waiting = f.positions.len() - begin;
                let end = begin + waiting.min(SLICE).min(CHUNK.max(waiting / 2));
                (end, make_children(game, &f.positions[begin..end], begin, &describe))
            }
        };
        // What was said of this slice's parents, put in order on the core
        // that makes children (which has time to spare).
        let said: Vec<_> = made
            .iter_mut()
            .map(|m| (std::mem::take(&mut m.states), std::mem::take(&mut m.keyed)))
            .collect();
        // The next slice's parents, copied for the other core (the
        // positions grow as this slice's children are numbered).
        let next: Vec<G::Position> = f.positions[end..f.positions.len().min(end + SLICE)].to_vec();
        let make_room = std::mem::take(&mut room);
        let (numbered, (made_next, slots)) = crate::par::join(
            || f.number_children(begin, made),
            || {
                for (mut s, mut k) in said {
                    states.append(&mut s);
                    keyed.append(&mut k);
                }
                let slots = make_room.then(|| PackedIds::room_for(limit));
                (
                    (!next.is_empty()).then(|| make_children(game, &next, end, &describe)),
                    slots,
                )
            },
        );
        numbered?;
        if let Some(slots) = slots {
            f.packed.take_room(slots);
        }
        ready = made_next.map(|made| (end + next.len(), made));
        begin = end;
    }
    Some(Explored {
        found: f,
        states,
        keyed,
    })
}

/// A slice of parents whose children are made: where it ends, and them.
type Slice<P, S, K> = (usize, Vec<Made<P, S, K>>);

/// The children of a chunk of positions.
struct Made<P, S, K> {
    /// How many each position has.
    lens: Vec<u32>,
    /// All of them, each position's in legal-move order.
    children: Vec<P>,
    /// Where each is kept.
    kept: Vec<Kept>,
    /// What was said of the parents.
    states: Vec<S>,
    keyed: Vec<K>,
}

/// The children of `parents` (the first numbered `first`), made on every
/// core a chunk at a time (a position over has none), and what `describe`
/// gives of the parents.
fn make_children<G: Game, S: Send, K: Send>(
    game: &G,
    parents: &[G::Position],
    first: usize,
    describe: &(impl Fn(&G::Position, u32) -> (S, Option<K>) + Sync),
) -> Vec<Made<G::Position, S, K>> {
    parents
        .par_chunks(CHUNK)
        .enumerate()
        .map_init(Vec::new, |moves, (k, chunk)| {
            let mut made = Made {
                lens: Vec::with_capacity(chunk.len()),
                children: Vec::with_capacity(chunk.len() * 4),
                kept: Vec::with_capacity(chunk.len() * 4),
                states: Vec::with_capacity(chunk.len()),
                keyed: Vec::new(),
            };
            for (j, pos) in chunk.iter().enumerate() {
                let (state, key) = describe(pos, (first + k * CHUNK + j) as u32);
                made.states.push(state);
                made.keyed.extend(key);
                if game.outcome(pos) != Outcome::Ongoing {
                    made.lens.push(0);
                    continue;
                }
                game.legal_moves(pos, moves);
                for &mv in moves.iter() {
                    let child = game.play(pos, mv);
                    made.kept.push(Kept::of(game, &child));
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
        let found = explore(&game, &game.starts(), n, |_, _| ((), None::<()>))
            .expect("within its limit")
            .found;
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
        assert!(explore(&game, &game.starts(), n - 1, |_, _| ((), None::<()>)).is_none());
        n
    }
}
