//! The parts of a position string every variant writes alike: rows of
//! cells with runs of empty ones counted, and the side to move.

use super::piece::{Piece, PieceKind};
use crate::game::Player;

/// The side to move as a position string writes it: `w` or `b`.
pub fn side_char(turn: Player) -> char {
    if turn == Player::One {
        'w'
    } else {
        'b'
    }
}

/// Read the side to move of a position string (`w` or `b`); the error says what was expected.
pub fn parse_side(text: &str) -> Result<Player, String> {
    match text {
        "w" => Ok(Player::One),
        "b" => Ok(Player::Two),
        other => Err(format!("side to move '{other}' is not 'w' or 'b'")),
    }
}

/// Read one row of a position string as [`crate::games::board::encode_run`]
/// writes it, `len` cells long: each digit a run of that many empty cells.
/// `label` names the row in errors (`rank 3`, `file c`), `word` its cells
/// (`squares`), `expected` the whole format.
pub fn decode_run<K: PieceKind>(
    row: &str,
    len: usize,
    label: &str,
    word: &str,
    expected: &str,
) -> Result<Vec<Option<Piece<K>>>, String> {
    let mut cells = vec![None; len];
    let mut at = 0usize;
    for c in row.chars() {
        if let Some(n) = c.to_digit(10) {
            at += n as usize;
        } else if let Some(piece) = Piece::from_symbol(c) {
            if at >= len {
                return Err(format!("{label} is longer than {len} {word}"));
            }
            cells[at] = Some(piece);
            at += 1;
        } else {
            return Err(format!("unexpected character '{c}' in {label}; {expected}"));
        }
    }
    if at != len {
        return Err(format!("{label} has {at} {word}, not {len}"));
    }
    Ok(cells)
}
