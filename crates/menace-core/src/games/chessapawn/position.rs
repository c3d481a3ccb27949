//! Position strings: the board as in chess FEN, the side to move, and the
//! en passant square (`rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b e3`).

use super::{square_name, Chessapawn, ChessapawnPosition};
use crate::game::{PositionError, PositionErrorKind};
use crate::games::board::{encode_ranks, parse_cell};
use crate::games::chesslike::{decode_run, parse_side, side_char};

const EXPECTED: &str = "expected 8 ranks from rank 8 down to 1 separated by '/', with P N B R Q K (White) and p n b r q k (Black) and digits for empty squares, then ' w' or ' b', then the en passant square or '-'";

impl Chessapawn {
    /// The position string of `pos`.
    pub(super) fn write_position(pos: &ChessapawnPosition) -> String {
        let board = encode_ranks(8, 8, |f, r| pos.squares[r * 8 + f].map(|p| p.symbol()));
        let ep = pos.en_passant.map_or("-".to_string(), square_name);
        format!("{board} {} {ep}", side_char(pos.turn))
    }

    /// Read a position string.
    pub(super) fn read_position(text: &str) -> Result<ChessapawnPosition, PositionError> {
        let err = |kind, reason: String| PositionError::new(text, kind, reason);
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [board, side, ep] = parts.as_slice() else {
            return Err(err(PositionErrorKind::Form, EXPECTED.to_string()));
        };
        let turn = parse_side(side).map_err(|e| err(PositionErrorKind::SideToMove, e.to_string()))?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 8 {
            return Err(err(
                PositionErrorKind::RowCount,
                format!("found {} ranks; {EXPECTED}", rows.len()),
            ));
        }
        let mut squares = [None; 64];
        for (k, row) in rows.iter().enumerate() {
            let r = 7 - k;
            let cells = decode_run(row, 8, &format!("rank {}", r + 1), "squares", EXPECTED)
                .map_err(|e| err(e.kind(), e.to_string()))?;
            squares[r * 8..r * 8 + 8].copy_from_slice(&cells);
        }
        let en_passant = match *ep {
            "-" => None,
            s => {
                let (f, r) = parse_cell(s)
                    .filter(|&(f, r)| f < 8 && (r == 2 || r == 5))
                    .ok_or_else(|| {
                        err(
                            PositionErrorKind::EnPassant,
                            format!("en passant square '{s}' must be on rank 3 or 6, or '-'"),
                        )
                    })?;
                Some((r * 8 + f) as u8)
            }
        };
        Ok(ChessapawnPosition {
            squares,
            turn,
            en_passant,
        })
    }
}
