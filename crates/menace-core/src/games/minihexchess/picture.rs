//! The board for people: a text diagram, and the picture the front ends draw.

use super::tables::{axial, cell_at, cell_name};
use super::{HexchessMove, HexchessPosition, MiniHexchess};
use crate::games::chesslike::{move_cells, picture_pieces};
use crate::picture::{self, Board, Cell, CellShape, MoveCells, Picture};

impl MiniHexchess {
    /// Rows of constant q + 2r, files a to g left to right, White's end at the bottom.
    pub(super) fn draw(pos: &HexchessPosition) -> String {
        // Rows of constant q + 2r, so cells of a file line up in columns;
        // the three cell colours are shown as the empty-cell marks . : and '.
        let mut out = String::new();
        for row in -9..=9 {
            let mut line = String::new();
            let mut any = false;
            for q in -3..=3 {
                let twice_r = row - q;
                let mark = if twice_r % 2 == 0 {
                    cell_at(q, twice_r / 2)
                } else {
                    None
                };
                match mark {
                    Some(i) => {
                        any = true;
                        let (qq, rr) = axial(i);
                        let colour = ((qq - rr).rem_euclid(3)) as usize;
                        let c = match pos.cells[i] {
                            Some(p) => p.symbol(),
                            None => ['.', ':', '\''][colour],
                        };
                        line.push_str(&format!("{c:^4}"));
                    }
                    None => line.push_str("    "),
                }
            }
            if any {
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        out.push_str(" a   b   c   d   e   f   g\n");
        out.push_str("White moves up the files; empty cells show their colour as . : '\n");
        out
    }
}

impl Picture for MiniHexchess {
    /// Flat-topped cells, White's end at the bottom; three shades, so that
    /// no two neighbouring cells share one.
    fn board(&self) -> Board {
        let cells = (0..37)
            .map(|i| {
                let (q, r) = axial(i);
                Cell {
                    name: cell_name(i),
                    x: 0.866_025_403_784_438_6 * f64::from(q),
                    y: f64::from(r) + 0.5 * f64::from(q),
                    shade: (q - r).rem_euclid(3) as u8,
                }
            })
            .collect();
        Board {
            shape: CellShape::FlatHex,
            cells,
            edges: Vec::new(),
            colours: ["#fafafa", "#222222"],
        }
    }

    fn pieces(&self, pos: &HexchessPosition) -> Vec<picture::Piece> {
        picture_pieces(&pos.cells)
    }

    fn move_cells(&self, _pos: &HexchessPosition, mv: HexchessMove) -> MoveCells {
        move_cells(mv.from, mv.to)
    }
}
