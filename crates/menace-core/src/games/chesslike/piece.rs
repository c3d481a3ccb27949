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

    /// Its place in `ALL`.
    fn index(self) -> usize;

    /// Its upper-case letter.
    fn letter(self) -> char {
        char::from(Self::LETTERS.as_bytes()[self.index()])
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
    /// The player whose piece it is.
    pub owner: Player,
    /// What piece it is (pawn, knight, ...).
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

/// The cells of a board packed four bits a cell, two cells a byte (0 for
/// an empty cell, else 1 + owner × kinds + kind): the board of a box key.
pub fn pack_cells<K: PieceKind, const B: usize>(cells: &[Option<Piece<K>>]) -> [u8; B] {
    debug_assert!(2 * K::ALL.len() < 16 && cells.len() <= 2 * B);
    let mut out = [0u8; B];
    for (c, p) in cells.iter().enumerate() {
        if let Some(p) = p {
            let code = 1 + p.owner.index() * K::ALL.len() + p.kind.index();
            out[c / 2] |= (code as u8) << (4 * (c % 2));
        }
    }
    out
}

/// The cells [`pack_cells`] packed.
pub fn unpack_cells<K: PieceKind, const N: usize>(packed: &[u8]) -> [Option<Piece<K>>; N] {
    let mut out = [None; N];
    for (c, cell) in out.iter_mut().enumerate() {
        let code = usize::from((packed[c / 2] >> (4 * (c % 2))) & 0xf);
        if code > 0 {
            let (owner, kind) = ((code - 1) / K::ALL.len(), (code - 1) % K::ALL.len());
            *cell = Some(Piece {
                owner: if owner == 0 { Player::One } else { Player::Two },
                kind: K::ALL[kind],
            });
        }
    }
    out
}
