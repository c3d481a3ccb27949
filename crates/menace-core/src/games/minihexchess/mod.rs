//! Mini Hexchess (Dave McCooey, 1997): 37 hexagonal cells, one king, rook,
//! bishop, knight and five pawns a side.

mod about;
mod moves;
mod picture;
mod position;
mod safety;
mod sets;
mod setup;
mod tables;

use std::ops::ControlFlow;

use crate::error::InvalidValue;
use crate::game::{unknown_option, Boxes, GameSpec, Outcome, Player, Rules};
use crate::games::chesslike::{self, pack_cells, unpack_cells, ChessLike, Described, PieceKind};
pub use tables::{axial, cell_at, cell_name};

/// The pieces of Mini Hexchess (no queen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A pawn.
    Pawn,
    /// A knight.
    Knight,
    /// A bishop.
    Bishop,
    /// A rook.
    Rook,
    /// The king.
    King,
}

impl PieceKind for Kind {
    const ALL: &'static [Kind] = &[Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::King];
    const LETTERS: &'static str = "PNBRK";
    const PAWN: Kind = Kind::Pawn;

    fn index(self) -> usize {
        self as usize
    }
}

/// A piece: owner and kind.
pub type Piece = chesslike::Piece<Kind>;

/// Plies kept for the repetition rule: the fifty-move rule ends a game
/// after 100 plies without a capture or pawn move, which also clears it.
pub(crate) const HISTORY: usize = 101;

/// A position: the 37 cells, the side to move, the plies since the last
/// capture or pawn move, and the hashes of the positions since then (for
/// threefold repetition).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HexchessPosition {
    /// The 37 cells, each empty or holding a piece.
    pub cells: [Option<Piece>; 37],
    /// Who moves next.
    pub turn: Player,
    /// Plies since the last capture or pawn move (the fifty-move rule).
    pub halfmoves: u8,
    history_len: u8,
    history: [u64; HISTORY],
}

/// The key of a Mini Hexchess box: the cells packed four bits a cell and
/// the side to move; not the fifty-move count or the repetition history,
/// which decide draws, not moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexchessKey {
    cells: [u8; 19],
    turn: Player,
}

/// A move from one cell to another, with the piece a pawn promotes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexchessMove {
    /// The cell the piece leaves.
    pub from: u8,
    /// The cell it goes to.
    pub to: u8,
    /// What a pawn becomes on the last rank, if it gets there.
    pub promotion: Option<Kind>,
}

/// Mini Hexchess with McCooey's setup, or a custom one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiniHexchess {
    setup: Option<Vec<(i32, i32, Piece)>>,
}

impl ChessLike for MiniHexchess {
    type Kind = Kind;
    const CELL: &'static str = "cell";
    const CELLS: u8 = 37;
    const RANK_HINTS: bool = false;
    const PROMOTIONS: &'static [Kind] = &[Kind::Rook, Kind::Bishop, Kind::Knight];
    const MOVE_EXAMPLES: &'static str = "d3d4, c6c7=N, Nf3 or exd5";
    const PROMOTION_RULE: &'static str = "a pawn promotes to R, B or N (no queen)";

    fn cell_name(cell: u8) -> String {
        cell_name(usize::from(cell))
    }

    fn parse_cell(text: &str) -> Option<u8> {
        tables::parse_cell(text).map(|c| c as u8)
    }

    fn describe(&self, pos: &HexchessPosition, mv: HexchessMove) -> Described<Kind> {
        Described {
            from: mv.from,
            to: mv.to,
            kind: pos.cells[usize::from(mv.from)].map_or(Kind::Pawn, |p| p.kind),
            capture: pos.cells[usize::from(mv.to)].is_some(),
            promotion: mv.promotion,
        }
    }

    fn in_check_now(&self, pos: &HexchessPosition) -> bool {
        self.in_check(pos, pos.turn)
    }
}

impl Default for MiniHexchess {
    fn default() -> Self {
        Self::new()
    }
}

impl Rules for MiniHexchess {
    type Position = HexchessPosition;
    type Move = HexchessMove;

    fn spec(&self) -> String {
        match &self.setup {
            None => "minihexchess".to_string(),
            Some(pieces) => {
                let list: Vec<String> = pieces
                    .iter()
                    .map(|&(q, r, p)| format!("{q},{r}:{}", p.symbol()))
                    .collect();
                format!("minihexchess,setup={}", list.join(","))
            }
        }
    }

    chesslike::chess_rules_methods!();

    fn start(&self) -> HexchessPosition {
        let pieces = self.setup.clone().unwrap_or_else(Self::standard);
        let mut cells = [None; 37];
        for (q, r, p) in pieces {
            if let Some(i) = cell_at(q, r) {
                cells[i] = Some(p);
            }
        }
        Self::with_history(cells, Player::One, 0)
    }

    fn legal_moves(&self, pos: &HexchessPosition, out: &mut Vec<HexchessMove>) {
        out.clear();
        // Drawn by rule, the game is over whether or not there is a mate.
        if Self::drawn_by_rule(pos) {
            return;
        }
        let _ = Self::each_legal_move(pos, |m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    fn play(&self, pos: &HexchessPosition, mv: HexchessMove) -> HexchessPosition {
        self.apply(pos, mv)
    }

    fn outcome(&self, pos: &HexchessPosition) -> Outcome {
        if !Self::has_legal_move(pos) {
            return if self.in_check(pos, pos.turn) {
                Outcome::Win(pos.turn.other())
            } else {
                Outcome::Draw
            };
        }
        if Self::drawn_by_rule(pos) {
            return Outcome::Draw;
        }
        Outcome::Ongoing
    }
}

impl Boxes for MiniHexchess {
    type BoxKey = HexchessKey;

    fn box_key(&self, pos: &HexchessPosition) -> HexchessKey {
        HexchessKey {
            cells: pack_cells(&pos.cells),
            turn: pos.turn,
        }
    }

    fn key_position(&self, key: &HexchessKey) -> HexchessPosition {
        Self::with_history(unpack_cells(&key.cells), key.turn, 0)
    }
}

chesslike::chess_parts!(MiniHexchess);

impl GameSpec for MiniHexchess {
    const NAMES: &'static [&'static str] = &["minihexchess"];
    const FORMS: &'static str = "minihexchess (or minihexchess,setup=q,r:piece,...)";
    const EXAMPLES: &'static [&'static str] = &["minihexchess"];

    fn from_spec(_name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue> {
        if let Some(s) = size {
            return Err(InvalidValue::new(
                "size",
                s,
                "mini hexchess takes no size (it has 37 cells)",
            ));
        }
        match options {
            None => Ok(MiniHexchess::new()),
            Some(o) => match o.strip_prefix("setup=") {
                Some(setup) => MiniHexchess::with_setup(setup),
                None => Err(unknown_option(o, "minihexchess takes setup=q,r:piece,...")),
            },
        }
    }
}
