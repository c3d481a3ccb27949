//! Where a machine keeps its boxes: each box's key, its move number and
//! where its bead counts start, in one list in the order made; the counts
//! of all the boxes a byte each in one run of bytes; and an index from a
//! key's hash to its box. On the large games nearly every move of the
//! machine opens a box, so a box holds no more than its key, a byte a bead
//! colour and a few bytes of bookkeeping: no allocation of its own, no
//! moves (they follow from the key), no hash kept beside the index.
//!
//! A count past 255 makes its box's counts wide: they move to a table of
//! their own, four bytes each, and its bytes in the run lie unused.

use std::hash::{BuildHasher, Hash};

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};

use super::beads::Counts;

/// Set in [`Kept::own_move`] where the box's counts are wide.
const WIDE: u32 = 1 << 31;

/// One box as kept.
#[derive(Clone, Debug)]
struct Kept<K> {
    key: K,
    /// The machine's own move number there, with [`WIDE`] set where the
    /// counts are in [`Shelf::wide`].
    own_move: u32,
    /// Where its counts start in [`Shelf::bytes`]; they run to where the
    /// next box's start.
    at: u64,
}

/// A machine's boxes (see the module's introduction).
#[derive(Clone, Debug)]
pub(crate) struct Shelf<K> {
    kept: Vec<Kept<K>>,
    bytes: Vec<u8>,
    wide: FxHashMap<u32, Box<[u32]>>,
    /// Box numbers by the hash of their key. The hash is not kept: growing
    /// the table hashes the keys again, and a lookup compares a key only
    /// where the table's seven bits of hash agree.
    index: HashTable<u32>,
}

impl<K: Hash + Eq> Shelf<K> {
    pub(super) fn new() -> Shelf<K> {
        Shelf {
            kept: Vec::new(),
            bytes: Vec::new(),
            wide: FxHashMap::default(),
            index: HashTable::new(),
        }
    }

    /// How many boxes.
    pub(super) fn len(&self) -> usize {
        self.kept.len()
    }

    /// The number of the box with this key.
    #[inline]
    pub(super) fn find(&self, key: &K) -> Option<u32> {
        let hash = FxBuildHasher.hash_one(key);
        self.index.find(hash, |&i| self.kept[i as usize].key == *key).copied()
    }

    /// Add a box (its key not on the shelf yet) with these counts: its number.
    pub(super) fn push(&mut self, key: K, own_move: u32, counts: Counts<'_>) -> u32 {
        let i = self.kept.len() as u32;
        let hash = FxBuildHasher.hash_one(&key);
        let kept = &self.kept;
        self.index
            .insert_unique(hash, i, |&j| FxBuildHasher.hash_one(&kept[j as usize].key));
        let at = self.bytes.len() as u64;
        let own_move = match counts {
            Counts::Narrow(c) => {
                self.bytes.extend_from_slice(c);
                own_move
            }
            Counts::Wide(c) => {
                self.bytes.resize(self.bytes.len() + c.len(), 0);
                self.wide.insert(i, c.into());
                own_move | WIDE
            }
        };
        self.kept.push(Kept { key, own_move, at });
        i
    }

    /// Add a box of `colours` counts of `n` beads each: its number.
    pub(super) fn push_filled(&mut self, key: K, own_move: u32, n: u32, colours: usize) -> u32 {
        match u8::try_from(n) {
            Ok(small) => {
                let i = self.push(key, own_move, Counts::Narrow(&[]));
                self.bytes.resize(self.bytes.len() + colours, small);
                i
            }
            Err(_) => self.push(key, own_move, Counts::Wide(&vec![n; colours])),
        }
    }

    /// The key of box `i`.
    pub(super) fn key(&self, i: u32) -> &K {
        &self.kept[i as usize].key
    }

    /// The machine's own move number at box `i`.
    #[inline]
    pub(super) fn own_move(&self, i: u32) -> u32 {
        self.kept[i as usize].own_move & !WIDE
    }

    /// Where box `i`'s counts lie in the run of bytes.
    #[inline]
    fn span(&self, i: u32) -> std::ops::Range<usize> {
        let start = self.kept[i as usize].at as usize;
        let end = self
            .kept
            .get(i as usize + 1)
            .map_or(self.bytes.len(), |k| k.at as usize);
        start..end
    }

    /// The counts of box `i`.
    #[inline]
    pub(super) fn counts(&self, i: u32) -> Counts<'_> {
        if self.kept[i as usize].own_move & WIDE == 0 {
            Counts::Narrow(&self.bytes[self.span(i)])
        } else {
            Counts::Wide(&self.wide[&i])
        }
    }

    /// Set the beads of one colour of box `i`; a count past 255 makes the
    /// box's counts wide.
    #[inline]
    pub(super) fn set(&mut self, i: u32, colour: usize, n: u32) {
        if self.kept[i as usize].own_move & WIDE != 0 {
            if let Some(c) = self.wide.get_mut(&i) {
                c[colour] = n;
            }
            return;
        }
        let span = self.span(i);
        match u8::try_from(n) {
            Ok(small) => self.bytes[span][colour] = small,
            Err(_) => {
                let mut wide: Box<[u32]> = self.bytes[span].iter().map(|&k| u32::from(k)).collect();
                wide[colour] = n;
                self.wide.insert(i, wide);
                self.kept[i as usize].own_move |= WIDE;
            }
        }
    }

    /// Every colour of box `i` to `n` beads (restocking an emptied box):
    /// a byte each again where `n` fits in one.
    pub(super) fn fill(&mut self, i: u32, n: u32) {
        let span = self.span(i);
        match u8::try_from(n) {
            Ok(small) => {
                self.bytes[span].fill(small);
                self.wide.remove(&i);
                self.kept[i as usize].own_move &= !WIDE;
            }
            Err(_) => {
                let colours = span.len();
                self.wide.insert(i, vec![n; colours].into_boxed_slice());
                self.kept[i as usize].own_move |= WIDE;
            }
        }
    }

    /// Roughly how many bytes the boxes take: each box as kept, the run of
    /// counts, the wide counts, and the index (a box number and a control
    /// byte a slot, at the table's load).
    pub(super) fn memory_bytes(&self) -> usize {
        let slots = if self.index.capacity() == 0 {
            0
        } else {
            (self.index.capacity() * 8 / 7).next_power_of_two()
        };
        self.kept.len() * std::mem::size_of::<Kept<K>>()
            + self.bytes.len()
            + self.wide.values().map(|c| c.len() * 4 + 16).sum::<usize>()
            + slots * (std::mem::size_of::<u32>() + 1)
    }
}
