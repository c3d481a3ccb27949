//! The board as sets of cells (one bit a cell), and the precomputed sets
//! that tell at once whether a cell is attacked: the cells a king, knight or
//! pawn attacks it from, the lines a slider does, the cells between two.

use super::tables::{opposite, KNIGHT_LEAPS, NONE, PAWN_CAPTURES, STEP};
use super::{Kind, Piece};
use crate::game::Player;

/// `LINE[k][c]`: the direction from `k` in which a slide from `k` over empty
/// cells would reach `c`, or `NONE` if `c` is on none of the twelve lines
/// through `k`. A piece off every line through its king can never expose it.
pub(super) const LINE: [[u8; 37]; 37] = {
    let mut out = [[NONE; 37]; 37];
    let mut k = 0;
    while k < 37 {
        let mut d = 0;
        while d < 12 {
            let mut c = STEP[k][d];
            while c != NONE {
                out[k][c as usize] = d as u8;
                c = STEP[c as usize][d];
            }
            d += 1;
        }
        k += 1;
    }
    out
};

/// The slider that attacks along direction `d`: the rook through edges, the
/// bishop through corners (Mini Hexchess has no queen).
pub(super) fn slider(d: usize) -> Kind {
    if d < 6 {
        Kind::Rook
    } else {
        Kind::Bishop
    }
}

/// The set of one cell: bit `c` of a `u64` (37 cells fit in one word).
pub(super) const fn bit(c: usize) -> u64 {
    1 << c
}

/// `KING_SET[c]`: the twelve cells (fewer at the edge) a king on `c` steps
/// to, which are also the cells a king attacks `c` from.
pub(super) const KING_SET: [u64; 37] = {
    let mut out = [0; 37];
    let mut c = 0;
    while c < 37 {
        let mut d = 0;
        while d < 12 {
            if STEP[c][d] != NONE {
                out[c] |= bit(STEP[c][d] as usize);
            }
            d += 1;
        }
        c += 1;
    }
    out
};

/// `KNIGHT_SET[c]`: the cells a knight leaps to from `c`, and attacks `c` from.
pub(super) const KNIGHT_SET: [u64; 37] = {
    let mut out = [0; 37];
    let mut c = 0;
    while c < 37 {
        let mut k = 0;
        while k < KNIGHT_LEAPS[c].len as usize {
            out[c] |= bit(KNIGHT_LEAPS[c].cells[k] as usize);
            k += 1;
        }
        c += 1;
    }
    out
};

/// `PAWN_ATTACKERS[p][c]`: the cells from which a pawn of player `p`
/// captures onto `c`: one step from `c` against each of its capture directions.
pub(super) const PAWN_ATTACKERS: [[u64; 37]; 2] = {
    let mut out = [[0; 37]; 2];
    let mut p = 0;
    while p < 2 {
        let mut c = 0;
        while c < 37 {
            let mut k = 0;
            while k < 2 {
                let from = STEP[c][opposite(PAWN_CAPTURES[p][k])];
                if from != NONE {
                    out[p][c] |= bit(from as usize);
                }
                k += 1;
            }
            c += 1;
        }
        p += 1;
    }
    out
};

/// `RAY[c][d]`: every cell from `c` (not included) to the edge in direction `d`.
pub(super) const RAY: [[u64; 12]; 37] = {
    let mut out = [[0; 12]; 37];
    let mut c = 0;
    while c < 37 {
        let mut d = 0;
        while d < 12 {
            let mut x = STEP[c][d];
            while x != NONE {
                out[c][d] |= bit(x as usize);
                x = STEP[x as usize][d];
            }
            d += 1;
        }
        c += 1;
    }
    out
};

/// `SLIDER_LINES[c]`: the cells a rook could attack `c` from along the six
/// edge lines (`[0]`), and a bishop along the six corner lines (`[1]`),
/// on an empty board.
pub(super) const SLIDER_LINES: [[u64; 37]; 2] = {
    let mut out = [[0; 37]; 2];
    let mut c = 0;
    while c < 37 {
        let mut d = 0;
        while d < 12 {
            out[d / 6][c] |= RAY[c][d];
            d += 1;
        }
        c += 1;
    }
    out
};

/// `BETWEEN[a][b]`: the cells strictly between `a` and `b` when they share
/// a line (empty when they are neighbours), else empty: a slider on `b`
/// attacks `a` when these are all empty.
pub(super) const BETWEEN: [[u64; 37]; 37] = {
    let mut out = [[0; 37]; 37];
    let mut a = 0;
    while a < 37 {
        let mut d = 0;
        while d < 12 {
            let mut passed = 0;
            let mut x = STEP[a][d];
            while x != NONE {
                out[a][x as usize] = passed;
                passed |= bit(x as usize);
                x = STEP[x as usize][d];
            }
            d += 1;
        }
        a += 1;
    }
    out
};

/// The board as sets of cells, built once a generation from the cell array:
/// which cells are occupied, by whom, by what kind.
#[derive(Clone, Copy)]
pub(super) struct Sets {
    pub(super) occupied: u64,
    pub(super) owner: [u64; 2],
    pub(super) kind: [u64; 5],
}

impl Sets {
    pub(super) fn of(cells: &[Option<Piece>; 37]) -> Sets {
        // Without a branch a cell: an empty cell goes to the spare last slots.
        let mut owner = [0; 3];
        let mut kind = [0; 6];
        for (c, p) in cells.iter().enumerate() {
            let (o, k) = p.map_or((2, 5), |p| (p.owner.index(), p.kind as usize));
            owner[o] |= bit(c);
            kind[k] |= bit(c);
        }
        Sets {
            occupied: owner[0] | owner[1],
            owner: [owner[0], owner[1]],
            kind: [kind[0], kind[1], kind[2], kind[3], kind[4]],
        }
    }

    /// The cells of `owner`'s pieces of `kind`.
    pub(super) fn pieces(&self, owner: Player, kind: Kind) -> u64 {
        self.owner[owner.index()] & self.kind[kind as usize]
    }

    /// The sets after `piece` moves from `from` to `to`, taking whatever stood there.
    pub(super) fn after(&self, piece: Piece, from: usize, to: usize) -> Sets {
        let keep = !(bit(from) | bit(to));
        let mut next = Sets {
            occupied: (self.occupied & keep) | bit(to),
            owner: self.owner.map(|s| s & keep),
            kind: self.kind.map(|s| s & keep),
        };
        next.owner[piece.owner.index()] |= bit(to);
        next.kind[piece.kind as usize] |= bit(to);
        next
    }

    /// Whether a piece of `by` could capture on `target` (is attacking it),
    /// looking outward from `target`: the knight, pawn and king cells that
    /// reach it, and each enemy slider on a line through it with nothing between.
    pub(super) fn attacked(&self, target: usize, by: Player) -> bool {
        if KNIGHT_SET[target] & self.pieces(by, Kind::Knight) != 0
            || PAWN_ATTACKERS[by.index()][target] & self.pieces(by, Kind::Pawn) != 0
            || KING_SET[target] & self.pieces(by, Kind::King) != 0
        {
            return true;
        }
        let mut sliders = (SLIDER_LINES[0][target] & self.pieces(by, Kind::Rook))
            | (SLIDER_LINES[1][target] & self.pieces(by, Kind::Bishop));
        while sliders != 0 {
            let s = sliders.trailing_zeros() as usize;
            if BETWEEN[target][s] & self.occupied == 0 {
                return true;
            }
            sliders &= sliders - 1;
        }
        false
    }
}
