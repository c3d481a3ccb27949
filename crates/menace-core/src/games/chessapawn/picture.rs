//! The board for people: a text diagram, and the picture the front ends draw.

use super::{Chessapawn, ChessapawnMove, ChessapawnPosition};
use crate::games::board::square_board;
use crate::games::chesslike::{move_cells, picture_pieces};
use crate::picture::{self, Board, MoveCells, Picture};

impl Chessapawn {
    /// Rank 8 at the top, files a to h, `.` for an empty square.
    pub(super) fn draw(pos: &ChessapawnPosition) -> String {
        let mut out = String::new();
        for r in (0..8).rev() {
            out.push_str(&format!("{} |", r + 1));
            for f in 0..8 {
                let c = pos.squares[r * 8 + f].map_or('.', |p| p.symbol());
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("    a b c d e f g h\n");
        out
    }
}

impl Picture for Chessapawn {
    fn board(&self) -> Board {
        square_board(8, 8, true, ["#fafafa", "#222222"])
    }

    fn pieces(&self, pos: &ChessapawnPosition) -> Vec<picture::Piece> {
        picture_pieces(&pos.squares)
    }

    fn move_cells(&self, _pos: &ChessapawnPosition, mv: ChessapawnMove) -> MoveCells {
        move_cells(mv.from, mv.to)
    }
}
