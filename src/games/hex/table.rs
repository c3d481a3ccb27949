//! A transposition table of fixed size shared by the solver's threads
//! without locks: each slot holds a key and an answer, checked together so
//! a slot torn by two threads writing at once reads as empty.

use std::sync::atomic::{AtomicU64, Ordering};

/// Who wins a position, remembered under its 64-bit hash.
pub(super) struct Table {
    /// Two slots a bucket: the first keeps the answer that took the most
    /// work, the second the latest.
    slots: Vec<[AtomicU64; 4]>,
    mask: u64,
}

/// An answer packs the winner (bit 0) and the work that found it (the rest).
fn pack(win: bool, work: u64) -> u64 {
    work << 1 | u64::from(win)
}

impl Table {
    /// A table of 2^`bits` buckets of 32 bytes.
    pub fn new(bits: u32) -> Table {
        let slots = (0..1usize << bits).map(|_| Default::default()).collect();
        Table {
            slots,
            mask: (1u64 << bits) - 1,
        }
    }

    /// Whether the player to move wins, if known.
    pub fn get(&self, key: u64) -> Option<bool> {
        let b = &self.slots[(key & self.mask) as usize];
        for s in 0..2 {
            let data = b[2 * s + 1].load(Ordering::Relaxed);
            if b[2 * s].load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(data & 1 == 1);
            }
        }
        None
    }

    /// Remember who wins, and how much work (positions searched) that took.
    pub fn put(&self, key: u64, win: bool, work: u64) {
        let b = &self.slots[(key & self.mask) as usize];
        let data = pack(win, work.max(1));
        let kept = b[1].load(Ordering::Relaxed);
        let s = if b[0].load(Ordering::Relaxed) ^ kept == key || kept >> 1 <= work {
            0
        } else {
            1
        };
        b[2 * s].store(key ^ data, Ordering::Relaxed);
        b[2 * s + 1].store(data, Ordering::Relaxed);
    }
}

/// A 64-bit hash of a position: both sides' stones and a few flags.
pub(super) fn hash(red: u64, blue: u64, flags: u64) -> u64 {
    let mix = |mut z: u64| {
        // splitmix64's finaliser.
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(mix(red ^ 0x9e37_79b9_7f4a_7c15) ^ blue.rotate_left(21) ^ flags.wrapping_mul(0x2545_f491_4f6c_dd1d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_and_keeps_the_costly_answer() {
        let t = Table::new(4);
        assert_eq!(t.get(17), None);
        t.put(17, true, 1000);
        t.put(33, false, 5); // same bucket: goes to the second slot
        assert_eq!(t.get(17), Some(true));
        assert_eq!(t.get(33), Some(false));
        assert_eq!(t.get(49), None);
    }
}
