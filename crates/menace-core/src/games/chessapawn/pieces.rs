//! The pieces, a position and a move: what the rules (`mod.rs`) and the
//! move generator (`moves.rs`) both speak of.

use crate::game::Player;
use crate::games::chesslike::{self, PieceKind};

/// The six piece types, named as Price named them: every one of them is
/// also a pawn: it never moves backward, and moves sideways only to capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// As in chess: one forward (two from its first rank), capturing one diagonally forward.
    Pawn,
    /// The four forward knight leaps, or as a pawn.
    KnightPawn,
    /// Slides diagonally forward, or steps one straight forward.
    BishopPawn,
    /// Slides straight forward, captures one diagonally forward, slides sideways only to capture.
    RookPawn,
    /// Bishop and rook together.
    QueenPawn,
    /// One step straight or diagonally forward, or captures beside it; no check.
    KingPawn,
}

impl PieceKind for Kind {
    const ALL: &'static [Kind] = &[
        Kind::Pawn,
        Kind::KnightPawn,
        Kind::BishopPawn,
        Kind::RookPawn,
        Kind::QueenPawn,
        Kind::KingPawn,
    ];
    const LETTERS: &'static str = "PNBRQK";
    const PAWN: Kind = Kind::Pawn;

    fn index(self) -> usize {
        self as usize
    }
}

/// A piece: its owner and kind.
pub type Piece = chesslike::Piece<Kind>;

/// A position: the 64 squares (`rank * 8 + file`), the side to move, and
/// the square a pawn passed over with a double step on the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChessapawnPosition {
    /// The piece on each square, if any.
    pub squares: [Option<Piece>; 64],
    /// The side to move.
    pub turn: Player,
    /// The square a pawn just passed over with a double step.
    pub en_passant: Option<u8>,
}

/// A move from one square to another; `en_passant` when it captures the
/// pawn that just passed over its landing square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChessapawnMove {
    /// The square the piece leaves.
    pub from: u8,
    /// The square it lands on.
    pub to: u8,
    /// Whether it captures en passant.
    pub en_passant: bool,
}
