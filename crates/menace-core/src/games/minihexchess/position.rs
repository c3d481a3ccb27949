//! Position strings (the files a to g, the side to move and the fifty-move
//! count; strings of an earlier version, with the repetition history's
//! hashes after them, are still read) and the position hashes the history keeps.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use super::tables::{r_max, r_min};
use super::{HexchessPosition, MiniHexchess, Piece, HISTORY};
use crate::game::{Player, PositionError, PositionErrorKind};
use crate::games::board::encode_run;
use crate::games::chesslike::{decode_run, parse_side, side_char};

pub(super) fn board_hash(cells: &[Option<Piece>; 37], turn: Player) -> u64 {
    let mut h = FxHasher::default();
    cells.hash(&mut h);
    turn.hash(&mut h);
    h.finish()
}

const EXPECTED: &str = "expected the files a to g, each from rank 1 up (4, 5, 6, 7, 6, 5, 4 cells) separated by '/', using K R B N P (White), k r b n p (Black) and digits, then ' w' or ' b', and the plies since a capture or pawn move";

/// How many cells file `q` (a = −3 … g = 3) has.
fn file_len(q: i32) -> usize {
    (r_max(q) - r_min(q) + 1) as usize
}

impl MiniHexchess {
    pub(super) fn with_history(cells: [Option<Piece>; 37], turn: Player, halfmoves: u8) -> HexchessPosition {
        let mut history = [0u64; HISTORY];
        history[0] = board_hash(&cells, turn);
        HexchessPosition {
            cells,
            turn,
            halfmoves,
            history_len: 1,
            history,
        }
    }

    /// The position string of `pos`: what a person reads. Positions that
    /// differ only in their repetition history (the positions since the last
    /// capture or pawn move) have the same string; read back, it starts a
    /// fresh history.
    pub(super) fn write_position(pos: &HexchessPosition) -> String {
        // Files a to g, each from rank 1 up, '/'-separated; digits for empty runs.
        let mut files = Vec::new();
        let mut i = 0;
        for q in -3..=3 {
            let len = file_len(q);
            files.push(encode_run(pos.cells[i..i + len].iter().map(|p| p.map(|p| p.symbol()))));
            i += len;
        }
        // The repetition history is not written: it belongs to the game
        // being played (its record of moves), not to what a person reads.
        format!("{} {} {}", files.join("/"), side_char(pos.turn), pos.halfmoves)
    }

    /// Read a position string.
    pub(super) fn read_position(text: &str) -> Result<HexchessPosition, PositionError> {
        let err = |kind, reason: String| PositionError::new(text, kind, reason);
        let parts: Vec<&str> = text.split_whitespace().collect();
        let (board, side, halfmoves, history) = match parts.as_slice() {
            [b, s] => (*b, *s, "0", None),
            [b, s, h] => (*b, *s, *h, None),
            [b, s, h, hist] => (*b, *s, *h, Some(*hist)),
            _ => return Err(err(PositionErrorKind::Form, EXPECTED.to_string())),
        };
        let turn = parse_side(side).map_err(|e| err(PositionErrorKind::SideToMove, e.to_string()))?;
        let files: Vec<&str> = board.split('/').collect();
        if files.len() != 7 {
            return Err(err(
                PositionErrorKind::RowCount,
                format!("found {} files; {EXPECTED}", files.len()),
            ));
        }
        let mut cells = [None; 37];
        let mut base = 0;
        for (k, file) in files.iter().enumerate() {
            let len = file_len(k as i32 - 3);
            let label = format!("file {}", char::from(b'a' + k as u8));
            let run = decode_run(file, len, &label, "cells", EXPECTED).map_err(|e| err(e.kind(), e.to_string()))?;
            cells[base..base + len].copy_from_slice(&run);
            base += len;
        }
        let halfmoves: u8 = halfmoves.parse().ok().filter(|&h| h <= 100).ok_or_else(|| {
            err(
                PositionErrorKind::Clock,
                format!("plies since a capture or pawn move '{halfmoves}': expected 0 to 100"),
            )
        })?;
        let mut pos = Self::with_history(cells, turn, halfmoves);
        if let Some(list) = history.filter(|h| *h != "-") {
            let hashes: Result<Vec<u64>, _> = list.split(',').map(|h| u64::from_str_radix(h, 16)).collect();
            let hashes = hashes.map_err(|_| {
                err(
                    PositionErrorKind::History,
                    format!("history '{list}': expected hexadecimal hashes separated by commas"),
                )
            })?;
            if hashes.is_empty() || hashes.len() > HISTORY || hashes.last() != Some(&pos.history[0]) {
                return Err(err(
                    PositionErrorKind::History,
                    format!(
                        "history '{list}': must end with this position's own hash {:x}",
                        pos.history[0]
                    ),
                ));
            }
            pos.history = [0; HISTORY];
            pos.history[..hashes.len()].copy_from_slice(&hashes);
            pos.history_len = hashes.len() as u8;
        }
        Ok(pos)
    }
}

/// Hashed by hand: a machine's index hashes every box key, and the derived
/// hash went through all nine hundred bytes, piece by piece. This one packs
/// the cells into three words and takes only the history in use; equal
/// positions have equal fields, so equal hashes.
impl Hash for HexchessPosition {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut packed = [0u64; 3];
        for (c, p) in self.cells.iter().enumerate() {
            // Four bits a cell: 0 empty, else 1 + owner * 5 + kind.
            let code = p.map_or(0, |p| 1 + 5 * p.owner.index() as u64 + p.kind as u64);
            packed[c / 16] |= code << (4 * (c % 16));
        }
        for word in packed {
            state.write_u64(word);
        }
        state.write_u8(self.turn as u8);
        state.write_u8(self.halfmoves);
        state.write_u8(self.history_len);
        for &h in &self.history[..usize::from(self.history_len)] {
            state.write_u64(h);
        }
    }
}
