//! Every position reachable from a game's starts, found depth first and
//! numbered as found, with each position's children: the raw material of a
//! compiled table, before its ids are put children first.

use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::game::{Game, Outcome, Player};

/// The positions of a game found depth first, before renumbering. Over
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
    pub(super) mark: Vec<Mark>,
    /// Positions in the order finished: children before parents.
    pub(super) finished: Vec<u32>,
    /// The id of each start.
    pub(super) roots: Vec<u32>,
    pub(super) limit: usize,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Mark {
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
}

impl<P: Clone + Eq + std::hash::Hash> Found<P> {
    /// The id of `pos`, numbered if new; `None` past the limit.
    fn number<G: Game<Position = P>>(&mut self, game: &G, pos: P) -> Option<u32> {
        // A packed position met before is found by its number alone.
        let code = game.pack(&pos);
        if let Some(id) = code.and_then(|c| self.packed.get(c)) {
            return Some(id);
        }
        let outcome = game.outcome(&pos);
        let over = (outcome != Outcome::Ongoing).then(|| (outcome, game.turn(&pos)));
        if let (None, Some(code)) = (over, code) {
            if self.positions.len() >= self.limit {
                return None;
            }
            let id = self.positions.len() as u32;
            self.packed.insert(code, id);
            self.positions.push(pos);
            self.kids_at.push((0, 0));
            self.mark.push(Mark::New);
            return Some(id);
        }
        let tag = (FxBuildHasher.hash_one(&pos) >> 32) as u32;
        let hash = spread(tag);
        let positions = &self.positions;
        let known = match over {
            Some(kind) => self.over.get(&kind).copied(),
            None => self
                .ids
                .find(hash, |&(id, t)| t == tag && positions[id as usize] == pos)
                .map(|&(id, _)| id),
        };
        if let Some(id) = known {
            return Some(id);
        }
        if self.positions.len() >= self.limit {
            return None;
        }
        let id = self.positions.len() as u32;
        match over {
            Some(kind) => {
                self.over.insert(kind, id);
            }
            None => {
                self.ids.insert_unique(hash, (id, tag), |&(_, t)| spread(t));
            }
        }
        self.positions.push(pos);
        self.kids_at.push((0, 0));
        self.mark.push(Mark::New);
        Some(id)
    }
}

/// Ids by packed position number: open addressing with linear probing,
/// at most half full, each slot the number and the id (`EMPTY` where none).
pub(super) struct PackedIds {
    slots: Vec<(u64, u32)>,
    len: usize,
    shift: u32,
}

const EMPTY: u32 = u32::MAX;

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
        #[cfg(target_arch = "x86_64")]
        if !self.slots.is_empty() {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let at = self.slots[self.slot(code)..].as_ptr();
            // SAFETY: a prefetch is a hint that neither reads into the
            // program nor faults; the address is within this Vec anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast::<i8>()) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = code;
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
                return Some(id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Give `code` (not in the table) the id `id`.
    fn insert(&mut self, code: u64, id: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(code);
        while self.slots[i].1 != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = (code, id);
        self.len += 1;
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1 << 12);
        let old = std::mem::replace(&mut self.slots, vec![(0, EMPTY); size]);
        self.shift = 64 - size.trailing_zeros();
        for (code, id) in old.into_iter().filter(|&(_, id)| id != EMPTY) {
            let mut i = self.slot(code);
            while self.slots[i].1 != EMPTY {
                i = (i + 1) & (size - 1);
            }
            self.slots[i] = (code, id);
        }
    }
}

/// A table hash from a position's 32-bit tag, every bit of it reaching
/// the high bits the table's control bytes take.
fn spread(tag: u32) -> u64 {
    u64::from(tag).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Every position reachable from the starts, depth first; `None` for a
/// game over the limit or with a cycle.
pub(super) fn explore<G: Game>(game: &G, starts: &[(G::Position, f64)], limit: usize) -> Option<Found<G::Position>> {
    let mut f = Found {
        ids: HashTable::new(),
        packed: PackedIds::new(),
        over: FxHashMap::default(),
        positions: Vec::new(),
        kids_at: Vec::new(),
        kids: Vec::new(),
        mark: Vec::new(),
        finished: Vec::new(),
        roots: Vec::new(),
        limit,
    };
    let mut moves = Vec::new();
    let mut children = Vec::new();
    // Put `id` on the path, its children numbered (where the game packs
    // its positions, their slots loaded together first).
    let mut enter = |f: &mut Found<G::Position>, id: u32, moves: &mut Vec<G::Move>| -> Option<()> {
        f.mark[id as usize] = Mark::OnPath;
        let pos = f.positions[id as usize].clone();
        let at = f.kids.len() as u32;
        // The positions over are the few of `over` (one a kind).
        if !f.over.values().any(|&over| over == id) {
            game.legal_moves(&pos, moves);
            children.clear();
            children.extend(moves.iter().map(|&mv| game.play(&pos, mv)));
            for child in &children {
                if let Some(code) = game.pack(child) {
                    f.packed.prefetch(code);
                }
            }
            for child in children.drain(..) {
                let child = f.number(game, child)?;
                f.kids.push(child);
            }
        }
        f.kids_at[id as usize] = (at, f.kids.len() as u32 - at);
        Some(())
    };
    // The path from the root: a position and the next child to visit. A
    // position is finished only once every child is; meeting one still on
    // the path is a cycle.
    let mut path: Vec<(u32, u32)> = Vec::new();
    for (start, _) in starts {
        let root = f.number(game, start.clone())?;
        f.roots.push(root);
        if f.mark[root as usize] != Mark::New {
            continue;
        }
        enter(&mut f, root, &mut moves)?;
        path.push((root, 0));
        while let Some(&(id, next)) = path.last() {
            let (at, len) = f.kids_at[id as usize];
            if next == len {
                f.mark[id as usize] = Mark::Done;
                f.finished.push(id);
                path.pop();
                continue;
            }
            path.last_mut().expect("not empty").1 += 1;
            let child = f.kids[(at + next) as usize];
            match f.mark[child as usize] {
                Mark::New => {
                    enter(&mut f, child, &mut moves)?;
                    path.push((child, 0));
                }
                Mark::OnPath => return None,
                Mark::Done => {}
            }
        }
    }
    Some(f)
}
