//! A transposition table of fixed size for the winner-only search: each
//! slot holds a whole position with White to move (the search keeps a
//! position with Black to move as its twin turned half round), both
//! bitboards, part of one implied by the bucket it is in, so an answer is
//! never one of another position's.

/// Who wins positions, remembered in 2^bits buckets of four slots, each
/// bucket one cache line (64 bytes, aligned), so that a probe costs one
/// memory load. A slot is two words: White's bitboard, and `data` packing
/// Black's bitboard without its low `bits` bits (bits 8 and up), the work
/// that found the answer as a power of two (bits 3–7), whether White, to
/// move, wins (bit 2) and a 1 (bit 0, so an empty slot reads 0; bit 1 is
/// 0). Black's low bits need not be kept: the bucket is the
/// low bits of Black's bitboard mixed with a hash of the rest of the
/// position, so two positions alike in the rest but in the same bucket
/// are alike in those bits too.
pub(super) struct Table {
    /// Eight words a bucket, from the first word on a cache line; all zero
    /// at first (calloc'd, so the memory is only touched as it is used).
    words: Vec<u64>,
    /// Where the first bucket starts in `words`.
    start: usize,
    bits: u32,
    mask: u64,
}

/// The bytes a bucket takes: four slots of two words, one cache line.
pub(super) const BUCKET_BYTES: usize = 64;

/// The fewest bucket bits a table has: the rest of an 8×8 board's Black
/// bitboard (64 − 8 bits) and the 8 bits of flags fill a word.
pub(super) const MIN_BITS: u32 = 8;

impl Table {
    /// A table of 2^`bits` buckets (at least 2^[`MIN_BITS`]) of [`BUCKET_BYTES`] bytes.
    pub fn new(bits: u32) -> Table {
        let bits = bits.max(MIN_BITS);
        let words = vec![0u64; (8 << bits) + 7];
        // The first word on a cache line (the allocation is 8-byte aligned).
        let start = (words.as_ptr() as usize).wrapping_neg() % BUCKET_BYTES / 8;
        // Huge pages under the table: the first 6×6 game, proving the
        // start, took 2.82 s of CPU time with 4 KiB pages and 2.38 s with them.
        crate::memory::advise_huge_pages(&words);
        Table {
            words,
            start,
            bits,
            mask: (1u64 << bits) - 1,
        }
    }

    /// The bytes the table takes.
    pub fn bytes(&self) -> usize {
        BUCKET_BYTES << self.bits
    }

    /// The bucket of a position (White to move), and what its slot keeps of Black's bitboard.
    #[inline]
    fn place(&self, white: u64, black: u64) -> (usize, u64) {
        let rest = black >> self.bits;
        let bucket = (hash(white, rest) ^ black) & self.mask;
        (bucket as usize, rest << 8 | 1)
    }

    /// Start loading the bucket of a position into the cache, so that a
    /// [`Table::get`] of it soon after does not wait for memory: a node's
    /// children are looked up together, their loads overlapping.
    #[inline]
    pub fn prefetch(&self, white: u64, black: u64) {
        let (b, _) = self.place(white, black);
        crate::memory::prefetch(&self.words[self.start + 8 * b]);
    }

    /// Whether White, to move, wins, if known.
    #[inline]
    pub fn get(&self, white: u64, black: u64) -> Option<bool> {
        let (b, tag) = self.place(white, black);
        let at = self.start + 8 * b;
        let slots = &self.words[at..at + 8];
        (0..4)
            .find(|&i| slots[2 * i] == white && slots[2 * i + 1] & !0xfc == tag)
            .map(|i| slots[2 * i + 1] & 4 != 0)
    }

    /// Remember who wins, and how much work (positions searched) that took:
    /// over the same position's slot, else over the slot whose answer took
    /// the least work (an empty one first).
    #[inline]
    pub fn put(&mut self, white: u64, black: u64, win: bool, work: u64) {
        let (b, tag) = self.place(white, black);
        let at = self.start + 8 * b;
        let slots = &mut self.words[at..at + 8];
        let same = (0..4).find(|&i| slots[2 * i] == white && slots[2 * i + 1] & !0xfc == tag);
        let i = same.unwrap_or_else(|| {
            // The least work first; an empty slot (data 0) before any.
            (0..4)
                .min_by_key(|&i| (slots[2 * i + 1] & 0xff) >> 3 | (slots[2 * i + 1] & 1) << 8)
                .unwrap_or(0)
        });
        let log_work = u64::from(63 - work.max(1).leading_zeros()).min(31);
        slots[2 * i] = white;
        slots[2 * i + 1] = tag | log_work << 3 | u64::from(win) << 2;
    }
}

/// A 64-bit hash of a position's parts (splitmix64's finaliser on them).
#[inline]
fn hash(white: u64, rest: u64) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(mix(white ^ 0x9e37_79b9_7f4a_7c15) ^ rest.rotate_left(29))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions (White's bitboard varied, Black's fixed) that share one bucket of `t`.
    fn sharing(t: &Table, black: u64, n: usize) -> Vec<u64> {
        let first = t.place(1, black).0;
        (1..).filter(|&w| t.place(w, black).0 == first).take(n).collect()
    }

    #[test]
    fn remembers_whole_positions_and_keeps_the_costly_answers() {
        let mut t = Table::new(MIN_BITS);
        assert_eq!(BUCKET_BYTES, 64);
        assert_eq!(t.bytes(), 64 << MIN_BITS);
        let black = 0xf0_0000_0000;
        let w = sharing(&t, black, 6);
        assert_eq!(t.get(w[0], black), None);
        for (i, &white) in w[..4].iter().enumerate() {
            t.put(white, black, i % 2 == 0, 1000 << i);
        }
        for (i, &white) in w[..4].iter().enumerate() {
            assert_eq!(t.get(white, black), Some(i % 2 == 0));
        }
        // A fifth position takes the slot of the least work (the first);
        // a sixth, that one again (the fifth's work is still the least).
        t.put(w[4], black, true, 5);
        assert_eq!(t.get(w[0], black), None);
        assert_eq!(t.get(w[4], black), Some(true));
        t.put(w[5], black, false, 3000);
        assert_eq!(t.get(w[4], black), None);
        assert_eq!(t.get(w[5], black), Some(false));
        assert_eq!(t.get(w[1], black), Some(false));
        // Black's bitboard differing only in the bits the bucket implies is
        // another position.
        assert_eq!(t.get(w[1], black ^ 1), None);
        // Over its own slot, a position's answer is replaced.
        t.put(w[1], black, true, 1);
        assert_eq!(t.get(w[1], black), Some(true));
    }

    #[test]
    fn keeps_an_eight_by_eight_board_whole() {
        let mut t = Table::new(0); // at least MIN_BITS
        let (white, black) = (0x0000_0000_0000_ff00, 0xff00_0000_0000_0000u64 | 0x80);
        t.put(white, black, true, u64::MAX);
        assert_eq!(t.get(white, black), Some(true));
        assert_eq!(t.get(white, black & !(1 << 63)), None);
        assert_eq!(t.get(white ^ 1 << 8, black), None);
    }
}
