//! King safety: whether a move leaves the mover's own king attacked,
//! decided from the pin lines through the king instead of by trying each move.

use super::sets::{bit, slider, Sets, BETWEEN, LINE, RAY};
use super::tables::NONE;
use super::{Kind, Piece};
use crate::game::Player;

/// What decides whether a move leaves the mover's own king attacked.
pub(super) enum KingSafety {
    /// No king: every move is allowed.
    NoKing,
    /// One king on `king`, not attacked: only a move of the king itself,
    /// or of a piece off a line through it, needs a closer look.
    Safe { king: usize, me: Player },
    /// In check, or more than one king (a hand-made position): try each
    /// move and look at the first king (lowest cell) afterwards.
    Trial { me: Player },
}

impl KingSafety {
    pub(super) fn new(sets: &Sets, me: Player) -> KingSafety {
        let kings = sets.pieces(me, Kind::King);
        if kings == 0 {
            return KingSafety::NoKing;
        }
        let king = kings.trailing_zeros() as usize;
        if kings.count_ones() == 1 && !sets.attacked(king, me.other()) {
            KingSafety::Safe { king, me }
        } else {
            KingSafety::Trial { me }
        }
    }

    /// Whether moving `piece` from `from` to `to` leaves the mover's king
    /// unattacked.
    pub(super) fn allows(&self, sets: &Sets, piece: Piece, from: usize, to: usize) -> bool {
        match *self {
            KingSafety::NoKing => true,
            KingSafety::Safe { king, me } => {
                if from == king {
                    return !sets.after(piece, from, to).attacked(to, me.other());
                }
                // Only the line through the king that `from` leaves can open;
                // moving along that same line keeps it closed.
                let d = LINE[king][from];
                if d == NONE || LINE[king][to] == d {
                    return true;
                }
                let d = usize::from(d);
                let open = sets.occupied & !bit(from);
                let mut pinners = RAY[king][d] & sets.pieces(me.other(), slider(d));
                while pinners != 0 {
                    let s = pinners.trailing_zeros() as usize;
                    if BETWEEN[king][s] & open == 0 {
                        return false;
                    }
                    pinners &= pinners - 1;
                }
                true
            }
            KingSafety::Trial { me } => {
                let after = sets.after(piece, from, to);
                let kings = after.pieces(me, Kind::King);
                kings == 0 || !after.attacked(kings.trailing_zeros() as usize, me.other())
            }
        }
    }
}
