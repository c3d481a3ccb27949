//! Hex boards up to 8×8 as 64-bit masks (bit `r * N + f` is cell (f, r)),
//! for the solver: neighbours, groups, edges and the 180° rotation.

/// The shape of one N×N board (N ≤ 8) as masks.
#[derive(Clone, Debug)]
pub(super) struct Geometry {
    /// Side length.
    pub n: u32,
    /// Every cell.
    pub full: u64,
    not_first_file: u64,
    not_last_file: u64,
    /// Each side's two edges `[start, end]`, as the cells along them: side 0
    /// is Red (first file to last), side 1 Blue (first rank to last).
    pub edges: [[u64; 2]; 2],
}

impl Geometry {
    /// The masks of an N×N board, 1 ≤ N ≤ 8.
    pub fn new(n: u32) -> Geometry {
        debug_assert!((1..=8).contains(&n));
        let cells = n * n;
        let full = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let first_file = (0..n).fold(0u64, |m, r| m | 1 << (r * n));
        let last_file = first_file << (n - 1);
        let first_rank = (1u64 << n) - 1;
        let last_rank = first_rank << (n * (n - 1));
        Geometry {
            n,
            full,
            not_first_file: full & !first_file,
            not_last_file: full & !last_file,
            edges: [[first_file, last_file], [first_rank, last_rank]],
        }
    }

    /// `s` and every cell next to it: (f±1, r), (f, r±1), (f+1, r−1), (f−1, r+1).
    pub fn spread(&self, s: u64) -> u64 {
        let n = self.n;
        let east = (s & self.not_last_file) << 1;
        let west = (s & self.not_first_file) >> 1;
        let north = s << n;
        let south = s >> n;
        let south_east = (s & self.not_last_file) >> (n - 1);
        let north_west = (s & self.not_first_file) << (n - 1);
        (s | east | west | north | south | south_east | north_west) & self.full
    }

    /// The cells next to `s` but not in it.
    pub fn around(&self, s: u64) -> u64 {
        self.spread(s) & !s
    }

    /// The cells of `within` joined to `seed` through `within`.
    pub fn flood(&self, seed: u64, within: u64) -> u64 {
        let mut reach = seed & within;
        loop {
            let next = self.spread(reach) & within;
            if next == reach {
                return reach;
            }
            reach = next;
        }
    }

    /// Whether `stones` join `side`'s two edges.
    pub fn connects(&self, stones: u64, side: usize) -> bool {
        let [start, end] = self.edges[side];
        self.flood(stones & start, stones) & end != 0
    }

    /// The 180° rotation (f, r) → (N−1−f, N−1−r), which keeps each side's edges.
    pub fn rotate(&self, s: u64) -> u64 {
        s.reverse_bits() >> (64 - self.n * self.n)
    }

    /// Cell `i` mirrored across the long diagonal: (f, r) → (r, f).
    pub fn transpose(&self, i: u32) -> u32 {
        (i % self.n) * self.n + i / self.n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_of_a_middle_cell_and_of_the_acute_corner() {
        let g = Geometry::new(3);
        // b2 = 4 touches a2, c2, b1, b3, c1, a3.
        assert_eq!(g.around(1 << 4), 1 << 3 | 1 << 5 | 1 << 1 | 1 << 7 | 1 << 2 | 1 << 6);
        // a1 touches b1 and a2 only.
        assert_eq!(g.around(1), 1 << 1 | 1 << 3);
        assert_eq!(g.rotate(1), 1 << 8);
        assert_eq!(g.transpose(1), 3);
    }
}
