//! Setups: McCooey's published one, and custom ones in the axial list
//! format `q,r:piece,...`.

use super::tables::{axial, cell_at, cell_name, parse_cell, promotes};
use super::{Kind, MiniHexchess, Piece};
use crate::error::InvalidValue;
use crate::game::Player;
use crate::games::chesslike::PieceKind;

impl MiniHexchess {
    /// McCooey's published setup.
    pub fn new() -> MiniHexchess {
        MiniHexchess { setup: None }
    }

    /// A custom setup in the axial list format `q,r:piece,...` (upper case
    /// White, lower case Black), e.g. `0,3:K,0,-3:k,1,1:P`.
    pub fn with_setup(text: &str) -> Result<MiniHexchess, InvalidValue> {
        let err = |why: String| InvalidValue::new("setup", text, why);
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if !parts.len().is_multiple_of(2) {
            return Err(err("expected pairs q,r:piece separated by commas".into()));
        }
        let mut pieces = Vec::new();
        for pair in parts.chunks(2) {
            let q: i32 = pair[0]
                .parse()
                .map_err(|_| err(format!("'{}' is not a number", pair[0])))?;
            let (r, piece) = pair[1]
                .split_once(':')
                .ok_or_else(|| err(format!("'{}' is not r:piece", pair[1])))?;
            let r: i32 = r.trim().parse().map_err(|_| err(format!("'{r}' is not a number")))?;
            let mut chars = piece.trim().chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(err(format!(
                    "piece '{piece}' is not one of K R B N P (k r b n p for Black)"
                )));
            };
            let kind = Kind::from_letter(c).ok_or_else(|| err(format!("piece '{c}' is not one of K R B N P")))?;
            let owner = if c.is_ascii_uppercase() {
                Player::One
            } else {
                Player::Two
            };
            let cell =
                cell_at(q, r).ok_or_else(|| err(format!("cell {q},{r} is off the board (|q|, |r|, |q+r| ≤ 3)")))?;
            if pieces.iter().any(|&(a, b, _)| cell_at(a, b) == Some(cell)) {
                return Err(err(format!("cell {q},{r} has two pieces")));
            }
            if kind == Kind::Pawn && promotes(owner, cell) {
                return Err(err(format!(
                    "a pawn on {} would already have promoted",
                    cell_name(cell)
                )));
            }
            pieces.push((q, r, Piece { owner, kind }));
        }
        for p in [Player::One, Player::Two] {
            let kings = pieces
                .iter()
                .filter(|(_, _, x)| x.owner == p && x.kind == Kind::King)
                .count();
            if kings != 1 {
                return Err(err(format!(
                    "{} needs exactly one king, not {kings}",
                    if p == Player::One { "White" } else { "Black" }
                )));
            }
        }
        Ok(MiniHexchess { setup: Some(pieces) })
    }

    pub(super) fn standard() -> Vec<(i32, i32, Piece)> {
        let w = |kind| Piece {
            owner: Player::One,
            kind,
        };
        let white = [
            ("c1", Kind::Knight),
            ("d1", Kind::Bishop),
            ("e1", Kind::Rook),
            ("d2", Kind::King),
            ("b1", Kind::Pawn),
            ("c2", Kind::Pawn),
            ("d3", Kind::Pawn),
            ("e2", Kind::Pawn),
            ("f1", Kind::Pawn),
        ];
        let mut out = Vec::new();
        for (name, kind) in white {
            let (q, r) = axial(parse_cell(name).unwrap_or(0));
            out.push((q, r, w(kind)));
            // Black is the same turned 180° about d4.
            out.push((
                -q,
                -r,
                Piece {
                    owner: Player::Two,
                    kind,
                },
            ));
        }
        out
    }
}
