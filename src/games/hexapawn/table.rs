//! A transposition table of fixed size for the winner-only search: each
//! slot holds a whole position (both bitboards and the side to move), so an
//! answer is never one of another position's.

/// Who wins positions, remembered in 2^bits buckets of two slots: the first
/// keeps the answer that took the most work, the second the latest. A slot
/// is three words: the position's two bitboards, and `data` packing the
/// side to move (bit 0), whether it wins (bit 1) and the work that found it
/// (the rest; at least 1, so an empty slot reads 0).
pub(super) struct Table {
    /// Six words a bucket, all zero at first (so the memory is only touched as it is used).
    words: Vec<u64>,
    mask: u64,
}

/// The bytes a bucket takes.
pub(super) const BUCKET_BYTES: usize = 6 * 8;

impl Table {
    /// A table of 2^`bits` buckets of [`BUCKET_BYTES`] bytes.
    pub fn new(bits: u32) -> Table {
        Table {
            words: vec![0; 6 << bits],
            mask: (1u64 << bits) - 1,
        }
    }

    /// The bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    fn bucket(&self, white: u64, black: u64, turn: u64) -> usize {
        6 * (hash(white, black, turn) & self.mask) as usize
    }

    /// Whether the side to move (`turn`: 0 White, 1 Black) wins, if known.
    #[inline]
    pub fn get(&self, white: u64, black: u64, turn: u64) -> Option<bool> {
        let b = self.bucket(white, black, turn);
        let slots = &self.words[b..b + 6];
        slots
            .chunks_exact(3)
            .find(|s| s[2] != 0 && s[0] == white && s[1] == black && s[2] & 1 == turn)
            .map(|s| s[2] & 2 != 0)
    }

    /// Remember who wins, and how much work (positions searched) that took.
    #[inline]
    pub fn put(&mut self, white: u64, black: u64, turn: u64, win: bool, work: u64) {
        let b = self.bucket(white, black, turn);
        let slots = &mut self.words[b..b + 6];
        let same = slots[0] == white && slots[1] == black && slots[2] & 1 == turn;
        let i = if same || slots[2] >> 2 <= work { 0 } else { 3 };
        slots[i] = white;
        slots[i + 1] = black;
        slots[i + 2] = work.max(1) << 2 | u64::from(win) << 1 | turn;
    }
}

/// A 64-bit hash of a position (splitmix64's finaliser on its parts).
#[inline]
fn hash(white: u64, black: u64, turn: u64) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(mix(white ^ 0x9e37_79b9_7f4a_7c15) ^ black.rotate_left(29) ^ turn.wrapping_mul(0x2545_f491_4f6c_dd1d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_whole_positions_and_keeps_the_costly_answer() {
        let mut t = Table::new(0); // one bucket: every position shares it
        assert_eq!(t.get(1, 2, 0), None);
        t.put(1, 2, 0, true, 1000);
        t.put(1, 2, 1, false, 5); // same bitboards, other side to move
        assert_eq!(t.get(1, 2, 0), Some(true));
        assert_eq!(t.get(1, 2, 1), Some(false));
        t.put(4, 8, 0, false, 7); // cheaper than the first: replaces the latest
        assert_eq!(t.get(1, 2, 0), Some(true));
        assert_eq!(t.get(1, 2, 1), None);
        assert_eq!(t.get(4, 8, 0), Some(false));
        assert_eq!(t.get(2, 1, 0), None);
    }
}
