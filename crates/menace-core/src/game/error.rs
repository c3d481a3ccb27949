//! What goes wrong reading a move or a position, by kind.

use std::fmt;

/// A move text that was refused, and why: the kind of problem, the text as
/// the user gave it, and what a message needs (what was expected, the legal
/// moves, the moves it could mean).
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::{Game, Hexapawn, MoveError};
/// let game = Hexapawn::new(3, 3).unwrap();
/// let err = game.parse_move(&game.start(), "b3").unwrap_err();
/// assert!(matches!(err, MoveError::Illegal { .. }));
/// assert_eq!(err.to_string(), "move 'b3': no legal step to that cell; legal moves: a2 b2 c2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is a move in no notation the game reads.
    Unreadable {
        /// The move as given.
        text: String,
        /// What a move looks like (`expected a move like b2, axb2 or a1-b2`).
        expected: String,
    },
    /// The text reads as a move, but no legal one.
    Illegal {
        /// The move as given.
        text: String,
        /// Why not (`no legal step to that cell`).
        why: String,
        /// The legal moves, by name.
        legal: Vec<String>,
    },
    /// The text fits more than one legal move.
    Ambiguous {
        /// The move as given.
        text: String,
        /// What would tell them apart (`name the starting file or rank too`).
        hint: String,
        /// The moves it fits, by name.
        candidates: Vec<String>,
    },
    /// The game is over: no move is legal.
    GameOver {
        /// The move as given.
        text: String,
    },
}

impl MoveError {
    /// The text as the user gave it.
    pub fn text(&self) -> &str {
        match self {
            MoveError::Unreadable { text, .. }
            | MoveError::Illegal { text, .. }
            | MoveError::Ambiguous { text, .. }
            | MoveError::GameOver { text } => text,
        }
    }

    /// Text that is a move in no notation the game reads.
    pub fn unreadable(text: &str, expected: impl Into<String>) -> MoveError {
        MoveError::Unreadable {
            text: text.to_string(),
            expected: expected.into(),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // What the user typed is escaped; so are the parts a game wrote, which
        // may quote it (the move names listed are kept whole).
        let said = |s: &str| crate::error::shown_to(s, usize::MAX);
        write!(f, "move '{}': ", crate::error::shown(self.text()))?;
        match self {
            MoveError::Unreadable { expected, .. } => f.write_str(&said(expected)),
            MoveError::Illegal { why, legal, .. } if legal.is_empty() => {
                write!(f, "{}; legal moves: none (the game is over)", said(why))
            }
            MoveError::Illegal { why, legal, .. } => write!(f, "{}; legal moves: {}", said(why), legal.join(" ")),
            MoveError::Ambiguous { hint, candidates, .. } => {
                write!(f, "ambiguous: it could be {} ({})", or_list(candidates), said(hint))
            }
            MoveError::GameOver { .. } => f.write_str("the game is over; no move is legal"),
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl std::error::Error for MoveError {}

/// A position string that could not be read: the text, what kind of thing
/// is wrong with it, and the message's words for it (what was found, what
/// was expected).
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::{Game, Hexapawn, PositionErrorKind};
/// let game = Hexapawn::new(3, 3).unwrap();
/// let err = game.parse_position("ppp/3/PPP x").unwrap_err();
/// assert_eq!(err.kind, PositionErrorKind::SideToMove);
/// assert_eq!(err.to_string(), "position 'ppp/3/PPP x': side to move 'x' is not 'w' or 'b'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The text as the user gave it.
    pub text: String,
    /// What is wrong, for a caller that treats one kind apart.
    pub kind: PositionErrorKind,
    /// What is wrong, in words (the message after the text).
    pub reason: String,
}

/// What is wrong with a position string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionErrorKind {
    /// Not made of the parts a position string has (a board, the side to
    /// move, and what else the game writes), or not in the game's form.
    Form,
    /// The side to move is none of the game's.
    SideToMove,
    /// The board has too many or too few ranks (or files).
    RowCount,
    /// A rank (or file) holds more or fewer cells than the board has.
    RowLength,
    /// A character that stands for no piece and no run of empty cells.
    UnknownPiece,
    /// An en passant square where no pawn can have just passed.
    EnPassant,
    /// The count of plies since a capture or a pawn move is out of range.
    Clock,
    /// A repetition history that cannot be this position's.
    History,
    /// Well formed, but no position of the game.
    NoSuchPosition,
}

impl PositionError {
    /// The error for `text`: its kind, and the reason in words.
    pub fn new(text: &str, kind: PositionErrorKind, reason: impl Into<String>) -> PositionError {
        PositionError {
            text: text.to_string(),
            kind,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = crate::error::shown_to(&self.reason, crate::error::REASON_CHARS);
        write!(f, "position '{}': {reason}", crate::error::shown(&self.text))
    }
}

impl std::error::Error for PositionError {}
