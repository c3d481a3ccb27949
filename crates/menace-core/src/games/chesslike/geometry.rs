//! Board geometry for the move generators, built at compile time: cells
//! given by their coordinates, and for each cell the cell an offset (a step
//! in a direction, a leap) takes it to, so that no move generator does
//! coordinate arithmetic or bounds checks at run time.

/// No cell: an offset that leaves the board.
pub const NONE: u8 = u8::MAX;

/// The index of the cell at coordinates `at` among `cells`, or `NONE`.
pub const fn index_of<const N: usize>(cells: &[(i32, i32); N], at: (i32, i32)) -> u8 {
    let mut i = 0;
    while i < N {
        if cells[i].0 == at.0 && cells[i].1 == at.1 {
            return i as u8;
        }
        i += 1;
    }
    NONE
}

/// `table[c][k]`: the cell `offsets[k]` away from cell `c`, or `NONE` off the board.
pub const fn offset_table<const N: usize, const K: usize>(
    cells: &[(i32, i32); N],
    offsets: &[(i32, i32); K],
) -> [[u8; K]; N] {
    let mut out = [[NONE; K]; N];
    let mut c = 0;
    while c < N {
        let mut k = 0;
        while k < K {
            out[c][k] = index_of(cells, (cells[c].0 + offsets[k].0, cells[c].1 + offsets[k].1));
            k += 1;
        }
        c += 1;
    }
    out
}
