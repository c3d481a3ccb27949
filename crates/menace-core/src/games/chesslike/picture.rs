//! How a variant's pieces are drawn: pawns as pawns, the rest by letter.

use super::piece::{Piece, PieceKind};
use crate::picture::{self, Look, MoveCells};

/// The pieces of a board of cells for a picture: pawns as pawns, the rest by letter.
pub fn picture_pieces<K: PieceKind>(cells: &[Option<Piece<K>>]) -> Vec<picture::Piece> {
    cells
        .iter()
        .enumerate()
        .filter_map(|(cell, p)| {
            p.map(|p| picture::Piece {
                cell,
                owner: p.owner,
                look: if p.kind == K::PAWN {
                    Look::Pawn
                } else {
                    Look::Letter(p.kind.letter())
                },
                marked: false,
            })
        })
        .collect()
}

/// The cells a move from `from` to `to` joins.
pub fn move_cells(from: u8, to: u8) -> MoveCells {
    MoveCells {
        from: Some(usize::from(from)),
        to: Some(usize::from(to)),
    }
}
