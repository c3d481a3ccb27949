//! The parts of a position string every variant writes alike: rows of
//! cells with runs of empty ones counted, and the side to move.

use super::piece::{Piece, PieceKind};
use crate::game::{Player, PositionErrorKind};

/// The side to move as a position string writes it: `w` or `b`.
pub fn side_char(turn: Player) -> char {
    if turn == Player::One {
        'w'
    } else {
        'b'
    }
}

/// A side to move other than `w` or `b`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("side to move '{0}' is not 'w' or 'b'")]
pub struct SideError(pub String);

/// What is wrong with one row of a position string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    #[error("{label} is longer than {len} {word}")]
    /// The row has more cells than the board.
    TooLong {
        /// Which row (`row 3`).
        label: String,
        /// How many cells a row has.
        len: usize,
        /// What a row counts (`cells`).
        word: &'static str,
    },
    #[error("unexpected character '{found}' in {label}; {expected}")]
    /// A character that names no piece or count.
    Unexpected {
        /// The character.
        found: char,
        /// Which row.
        label: String,
        /// What may stand there.
        expected: &'static str,
    },
    #[error("{label} has {found} {word}, not {len}")]
    /// The row has too few cells.
    WrongLength {
        /// Which row.
        label: String,
        /// How many cells it has.
        found: usize,
        /// How many cells a row has.
        len: usize,
        /// What a row counts (`cells`).
        word: &'static str,
    },
}

impl RowError {
    /// The kind of position error it makes.
    pub fn kind(&self) -> PositionErrorKind {
        match self {
            RowError::Unexpected { .. } => PositionErrorKind::UnknownPiece,
            RowError::TooLong { .. } | RowError::WrongLength { .. } => PositionErrorKind::RowLength,
        }
    }
}

/// Read the side to move of a position string (`w` or `b`).
pub fn parse_side(text: &str) -> Result<Player, SideError> {
    match text {
        "w" => Ok(Player::One),
        "b" => Ok(Player::Two),
        other => Err(SideError(other.to_string())),
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
    word: &'static str,
    expected: &'static str,
) -> Result<Vec<Option<Piece<K>>>, RowError> {
    let mut cells = vec![None; len];
    let mut at = 0usize;
    for c in row.chars() {
        if let Some(n) = c.to_digit(10) {
            at += n as usize;
        } else if let Some(piece) = Piece::from_symbol(c) {
            if at >= len {
                return Err(RowError::TooLong {
                    label: label.to_string(),
                    len,
                    word,
                });
            }
            cells[at] = Some(piece);
            at += 1;
        } else {
            return Err(RowError::Unexpected {
                found: c,
                label: label.to_string(),
                expected,
            });
        }
    }
    if at != len {
        return Err(RowError::WrongLength {
            label: label.to_string(),
            found: at,
            len,
            word,
        });
    }
    Ok(cells)
}
