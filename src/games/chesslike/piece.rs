//! Pieces: a variant's set of kinds, each with its letter, and a piece of a side.

use crate::game::Player;
use crate::games::board::side_letter;

/// A variant's set of piece types, each with its letter (`N` for a knight).
pub trait PieceKind: Copy + Eq + 'static {
    /// Every kind, in the order of `LETTERS`.
    const ALL: &'static [Self];
    /// The upper-case letter of each kind of `ALL`, in the same order.
    const LETTERS: &'static str;
    /// The pawn, written without a letter in short algebraic notation.
    const PAWN: Self;

    /// Its upper-case letter.
    fn letter(self) -> char {
        let i = Self::ALL.iter().position(|&k| k == self).unwrap_or(0);
        char::from(Self::LETTERS.as_bytes()[i])
    }

    /// The kind a letter names, in either case.
    fn from_letter(c: char) -> Option<Self> {
        let upper = c.to_ascii_uppercase();
        Self::LETTERS.chars().position(|l| l == upper).map(|i| Self::ALL[i])
    }
}

/// A piece: its owner and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece<K> {
    pub owner: Player,
    pub kind: K,
}

impl<K: PieceKind> Piece<K> {
    /// Its letter, upper case White, lower case Black.
    pub fn symbol(self) -> char {
        side_letter(self.kind.letter(), self.owner)
    }

    /// The piece a letter names: upper case White, lower case Black.
    pub fn from_symbol(c: char) -> Option<Piece<K>> {
        let kind = K::from_letter(c)?;
        let owner = if c.is_ascii_uppercase() {
            Player::One
        } else {
            Player::Two
        };
        Some(Piece { owner, kind })
    }
}

/// The name of a player in a chess variant.
pub fn colour_name(player: Player) -> &'static str {
    match player {
        Player::One => "White",
        Player::Two => "Black",
    }
}
