//! The bead counts of one box, a count a colour, stored a byte each while
//! every count fits in one: a matchbox holds a few beads of each colour, and
//! Chessapawn's boxes have about 25 colours, so the counts are most of a
//! box's memory.

use std::fmt;

/// The bead counts of one box, in the order of its moves. Each count may
/// reach `u32::MAX`; the counts take a byte each until one passes 255, and
/// four bytes each from then on.
#[derive(Clone)]
pub struct Beads(Store);

#[derive(Clone)]
enum Store {
    Narrow(Box<[u8]>),
    Wide(Box<[u32]>),
}

/// The bead counts of one box as stored, a byte or four a count, borrowed:
/// how a machine's boxes show their beads (see [`crate::machine::BoxRef`]).
/// Loops that run once over them match once, before the loop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Counts<'a> {
    /// A byte a count.
    Narrow(&'a [u8]),
    /// Four bytes a count: some count has passed 255.
    Wide(&'a [u32]),
}

impl<'a> Counts<'a> {
    /// How many colours.
    pub fn len(self) -> usize {
        match self {
            Counts::Narrow(c) => c.len(),
            Counts::Wide(c) => c.len(),
        }
    }

    /// Whether there are no colours at all (never so in a machine's box).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The beads of one colour.
    ///
    /// # Panics
    /// If `colour` is not below [`Counts::len`], as a slice index would.
    #[inline]
    pub fn get(self, colour: usize) -> u32 {
        match self {
            Counts::Narrow(c) => u32::from(c[colour]),
            Counts::Wide(c) => c[colour],
        }
    }

    /// The counts, colour by colour.
    pub fn iter(self) -> impl ExactSizeIterator<Item = u32> + Clone + 'a {
        (0..self.len()).map(move |c| self.get(c))
    }

    /// All the beads (a u64: each colour may hold up to u32::MAX).
    #[inline]
    pub fn total(self) -> u64 {
        match self {
            Counts::Narrow(c) => c.iter().map(|&n| u64::from(n)).sum(),
            Counts::Wide(c) => c.iter().map(|&n| u64::from(n)).sum(),
        }
    }

    /// The counts as a list.
    pub fn to_vec(self) -> Vec<u32> {
        self.iter().collect()
    }

    /// The colour of bead number `r` (from 0, below [`Counts::total`]),
    /// counting the beads colour by colour: the number of colours whose
    /// running total is still at most `r`. Counted without a branch, as a
    /// random `r` would make a loop's exit unpredictable.
    #[inline]
    pub(crate) fn colour_of_bead(self, r: u64) -> u32 {
        fn count<T: Copy + Into<u64>>(counts: &[T], r: u64) -> u32 {
            let mut below = 0u64;
            let mut colour = 0;
            for &n in counts {
                below += n.into();
                colour += u32::from(below <= r);
            }
            colour
        }
        match self {
            Counts::Narrow(c) => count(c, r),
            Counts::Wide(c) => count(c, r),
        }
    }
}

impl fmt::Debug for Counts<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Beads {
    /// `colours` counts of `n` beads each.
    pub fn filled(n: u32, colours: usize) -> Beads {
        match u8::try_from(n) {
            Ok(small) => Beads(Store::Narrow(vec![small; colours].into_boxed_slice())),
            Err(_) => Beads(Store::Wide(vec![n; colours].into_boxed_slice())),
        }
    }

    /// How many colours.
    pub fn len(&self) -> usize {
        match &self.0 {
            Store::Narrow(c) => c.len(),
            Store::Wide(c) => c.len(),
        }
    }

    /// Whether there are no colours at all (never so in a machine's box).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The beads of one colour.
    ///
    /// # Panics
    /// If `colour` is not below [`Beads::len`], as a slice index would.
    #[inline]
    pub fn get(&self, colour: usize) -> u32 {
        match &self.0 {
            Store::Narrow(c) => u32::from(c[colour]),
            Store::Wide(c) => c[colour],
        }
    }

    /// Set the beads of one colour.
    ///
    /// # Panics
    /// If `colour` is not below [`Beads::len`], as a slice index would.
    #[inline]
    pub fn set(&mut self, colour: usize, n: u32) {
        match &mut self.0 {
            Store::Narrow(c) => match u8::try_from(n) {
                Ok(small) => c[colour] = small,
                Err(_) => {
                    let mut wide: Box<[u32]> = c.iter().map(|&k| u32::from(k)).collect();
                    wide[colour] = n;
                    self.0 = Store::Wide(wide);
                }
            },
            Store::Wide(c) => c[colour] = n,
        }
    }

    /// Every colour to `n` beads (restocking an emptied box).
    pub fn fill(&mut self, n: u32) {
        *self = Beads::filled(n, self.len());
    }

    /// The counts, colour by colour.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u32> + Clone + '_ {
        (0..self.len()).map(|c| self.get(c))
    }

    /// All the beads (a u64: each colour may hold up to u32::MAX).
    #[inline]
    pub fn total(&self) -> u64 {
        match self.counts() {
            Counts::Narrow(c) => c.iter().map(|&n| u64::from(n)).sum(),
            Counts::Wide(c) => c.iter().map(|&n| u64::from(n)).sum(),
        }
    }

    /// The counts as a list.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    /// The bytes the counts take on the heap.
    pub fn heap_bytes(&self) -> usize {
        match &self.0 {
            Store::Narrow(c) => c.len(),
            Store::Wide(c) => c.len() * 4,
        }
    }

    /// The counts as stored.
    #[inline]
    pub fn counts(&self) -> Counts<'_> {
        match &self.0 {
            Store::Narrow(c) => Counts::Narrow(c),
            Store::Wide(c) => Counts::Wide(c),
        }
    }
}

impl From<&[u32]> for Beads {
    fn from(counts: &[u32]) -> Beads {
        if counts.iter().all(|&n| n <= u32::from(u8::MAX)) {
            Beads(Store::Narrow(counts.iter().map(|&n| n as u8).collect()))
        } else {
            Beads(Store::Wide(counts.into()))
        }
    }
}

impl From<Vec<u32>> for Beads {
    fn from(counts: Vec<u32>) -> Beads {
        Beads::from(counts.as_slice())
    }
}

/// Equal counts are equal, however they are stored.
impl PartialEq for Beads {
    fn eq(&self, other: &Beads) -> bool {
        match (&self.0, &other.0) {
            (Store::Narrow(a), Store::Narrow(b)) => a == b,
            (Store::Wide(a), Store::Wide(b)) => a == b,
            _ => self.len() == other.len() && self.iter().eq(other.iter()),
        }
    }
}

impl Eq for Beads {}

impl fmt::Debug for Beads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_widen_past_a_byte_and_keep_their_values() {
        let mut b = Beads::filled(3, 4);
        assert_eq!(b.heap_bytes(), 4);
        b.set(2, 255);
        assert_eq!(b.heap_bytes(), 4);
        b.set(1, 256);
        assert_eq!(b.heap_bytes(), 16);
        assert_eq!(b.to_vec(), vec![3, 256, 255, 3]);
        b.set(1, u32::MAX);
        assert_eq!(b.total(), 3 + u64::from(u32::MAX) + 255 + 3);
        assert_eq!(b, Beads::from(vec![3, u32::MAX, 255, 3]));
        b.fill(1);
        assert_eq!(b.heap_bytes(), 4);
        assert_eq!(b, Beads::from(vec![1, 1, 1, 1]));
    }

    #[test]
    fn the_colour_of_each_bead_as_counted_by_hand() {
        // Colours of 2, 0, 3 beads: beads 0 and 1 are colour 0, 2 to 4 colour 2.
        for b in [Beads::from(vec![2, 0, 3]), Beads::from(vec![2, 0, 3, 0]), {
            let mut wide = Beads::from(vec![2, 0, 3]);
            wide.set(1, 1000);
            wide.set(1, 0);
            wide
        }] {
            let colours: Vec<u32> = (0..5).map(|r| b.counts().colour_of_bead(r)).collect();
            assert_eq!(colours, vec![0, 0, 2, 2, 2], "{b:?}");
        }
    }
}
