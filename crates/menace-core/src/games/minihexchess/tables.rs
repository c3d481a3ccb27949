//! The board's geometry: cell names and axial coordinates, and the tables
//! the move generator looks up instead of doing coordinate arithmetic (a
//! step in each of twelve directions, the knight's leaps), built at compile time.

use crate::game::Player;
pub(super) use crate::games::chesslike::geometry::NONE;
use crate::games::chesslike::geometry::{index_of, offset_table};

/// Axial coordinates of each cell index, files a–g (q = −3..3), each file from rank 1.
const fn build_cells() -> [(i32, i32); 37] {
    let mut out = [(0, 0); 37];
    let mut i = 0;
    let mut q = -3i32;
    while q <= 3 {
        let r_max = if 3 - q < 3 { 3 - q } else { 3 };
        let r_min = if -3 - q > -3 { -3 - q } else { -3 };
        let mut r = r_max;
        while r >= r_min {
            out[i] = (q, r);
            i += 1;
            r -= 1;
        }
        q += 1;
    }
    out
}

pub(super) const CELLS: [(i32, i32); 37] = build_cells();

pub(super) const ROOK: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
pub(super) const BISHOP: [(i32, i32); 6] = [(1, -2), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1)];
pub(super) const KNIGHT: [(i32, i32); 12] = [
    (1, 2),
    (-1, 3),
    (2, 1),
    (3, -1),
    (3, -2),
    (2, -3),
    (1, -3),
    (-1, -2),
    (-2, -1),
    (-3, 1),
    (-3, 2),
    (-2, 3),
];

// ---- Precomputed geometry ----
//
// Cells are indices 0..37 (files a to g, each from rank 1 up, as in
// `CELLS`). Every question the move generator asks of the board's shape is
// answered by a table lookup here, built once at compile time: the neighbour
// in a direction, a piece's leaps, which line through the king a cell is on.

/// The twelve directions: 0..6 through cell edges (the rook's, in `ROOK`
/// order), 6..12 through cell corners (the bishop's, in `BISHOP` order).
/// The king steps once in any of them.
pub(super) const DIRECTIONS: [(i32, i32); 12] = {
    let mut out = [(0, 0); 12];
    let mut d = 0;
    while d < 6 {
        out[d] = ROOK[d];
        out[d + 6] = BISHOP[d];
        d += 1;
    }
    out
};

/// White's pawn steps in direction 0, (0, −1); Black's in 3, (0, 1).
pub(super) const PAWN_STEP: [usize; 2] = [0, 3];

/// The corner directions a pawn captures in, in the generator's order:
/// White (1, −2) then (−1, −1); Black (−1, 2) then (1, 1).
pub(super) const PAWN_CAPTURES: [[usize; 2]; 2] = [[6, 11], [9, 8]];

/// The direction opposite `d` (a rook direction stays one, so does a bishop's).
pub(super) const fn opposite(d: usize) -> usize {
    if d < 6 {
        (d + 3) % 6
    } else {
        6 + (d - 6 + 3) % 6
    }
}

/// `STEP[c][d]`: the cell one step from `c` in direction `d`, or `NONE` off
/// the board. A slide walks it until `NONE` or an occupied cell.
pub(super) const STEP: [[u8; 12]; 37] = offset_table(&CELLS, &DIRECTIONS);

/// Up to twelve cells a piece leaps to from one cell, those on the board
/// only, in a fixed order.
#[derive(Clone, Copy)]
pub(super) struct Leaps {
    pub(super) len: u8,
    pub(super) cells: [u8; 12],
}

impl Leaps {
    pub(super) fn cells(&self) -> &[u8] {
        &self.cells[..usize::from(self.len)]
    }
}

/// `KNIGHT_LEAPS[c]`: the knight's destinations from `c` (one edge step, then
/// one corner step onward), in `KNIGHT` order. The pattern is its own
/// reverse, so these are also the cells a knight attacks `c` from.
pub(super) const KNIGHT_LEAPS: [Leaps; 37] = {
    let mut out = [Leaps {
        len: 0,
        cells: [NONE; 12],
    }; 37];
    let all = offset_table(&CELLS, &KNIGHT);
    let mut c = 0;
    while c < 37 {
        let mut k = 0;
        while k < 12 {
            let to = all[c][k];
            if to != NONE {
                out[c].cells[out[c].len as usize] = to;
                out[c].len += 1;
            }
            k += 1;
        }
        c += 1;
    }
    out
};

/// Whether `player` has a pawn-promotion cell at `c`: the far cell of its file,
/// where a pawn has no step forward left.
pub(super) fn promotes(p: Player, c: usize) -> bool {
    STEP[c][PAWN_STEP[p.index()]] == NONE
}

/// The cell index at axial (q, r), if it is on the board.
pub fn cell_at(q: i32, r: i32) -> Option<usize> {
    if q.abs() > 3 || r.abs() > 3 || (q + r).abs() > 3 {
        return None;
    }
    Some(usize::from(index_of(&CELLS, (q, r))))
}

/// Axial coordinates of a cell index.
pub fn axial(i: usize) -> (i32, i32) {
    CELLS[i]
}

pub(super) fn r_max(q: i32) -> i32 {
    (3 - q).min(3)
}

pub(super) fn r_min(q: i32) -> i32 {
    (-3 - q).max(-3)
}

/// The name of a cell: file a–g, rank from White's end (`d4` is the centre).
pub fn cell_name(i: usize) -> String {
    let (q, r) = axial(i);
    format!("{}{}", char::from(b'a' + (q + 3) as u8), r_max(q) - r + 1)
}

pub(super) fn parse_cell(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let f = chars.next()?;
    if !('a'..='g').contains(&f) {
        return None;
    }
    let rank: i32 = chars.as_str().parse().ok()?;
    let q = i32::from(f as u8 - b'a') - 3;
    let r = r_max(q) - rank + 1;
    if r < r_min(q) || r > r_max(q) {
        return None;
    }
    cell_at(q, r)
}
