//! Chessapawn (Robert Price, 2001): Hexapawn carried to a chess board.
//!
//! The rules as the `Game` trait sees them; the pieces, a position and a
//! move (`pieces.rs`), the board's geometry
//! (`tables.rs`), the move generator (`moves.rs`), position strings
//! (`position.rs`) and the diagram and picture (`picture.rs`) each have a
//! file; the notation is the one every chess-like board shares.

mod about;
mod moves;
mod picture;
mod pieces;
mod position;
mod tables;

use std::ops::ControlFlow;

use crate::error::InvalidValue;
use crate::game::{no_size_or_options, Boxes, GameSpec, Outcome, Player, Rules};
use crate::games::board::{cell_name, parse_cell};
use crate::games::chesslike::{self, pack_cells, unpack_cells, ChessLike, Described};

pub use pieces::{ChessapawnMove, ChessapawnPosition, Kind, Piece};

/// The key of a Chessapawn box: the squares packed four bits a square,
/// the side to move and the en passant square (which decides moves). A
/// position carries no history, but the key is a third of its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChessapawnKey {
    squares: [u8; 32],
    turn: Player,
    en_passant: Option<u8>,
}

/// Chessapawn on the standard 8×8 chess start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chessapawn;

/// The name of square `s` (`rank * 8 + file`): `a1` to `h8`.
fn square_name(s: u8) -> String {
    cell_name(u32::from(s % 8), u32::from(s / 8))
}

impl ChessLike for Chessapawn {
    type Kind = Kind;
    const CELL: &'static str = "square";
    const CELLS: u8 = 64;
    const RANK_HINTS: bool = true;
    const PROMOTIONS: &'static [Kind] = &[];
    const MOVE_EXAMPLES: &'static str = "Nf3, exd5, Ncd5 or g1f3";
    const PROMOTION_RULE: &'static str = "there is no promotion in Chessapawn";

    fn cell_name(cell: u8) -> String {
        square_name(cell)
    }

    fn parse_cell(text: &str) -> Option<u8> {
        parse_cell(text)
            .filter(|&(f, r)| f < 8 && r < 8)
            .map(|(f, r)| (r * 8 + f) as u8)
    }

    fn describe(&self, pos: &ChessapawnPosition, mv: ChessapawnMove) -> Described<Kind> {
        Described {
            from: mv.from,
            to: mv.to,
            kind: pos.squares[usize::from(mv.from)].map_or(Kind::Pawn, |p| p.kind),
            capture: mv.en_passant || pos.squares[usize::from(mv.to)].is_some(),
            promotion: None,
        }
    }

    /// A KingPawn has no special status: there is no check.
    fn in_check_now(&self, _pos: &ChessapawnPosition) -> bool {
        false
    }
}

impl Rules for Chessapawn {
    type Position = ChessapawnPosition;
    type Move = ChessapawnMove;

    fn spec(&self) -> String {
        "chessapawn".to_string()
    }

    chesslike::chess_rules_methods!();

    fn start(&self) -> ChessapawnPosition {
        let mut squares = [None; 64];
        let back = [
            Kind::RookPawn,
            Kind::KnightPawn,
            Kind::BishopPawn,
            Kind::QueenPawn,
            Kind::KingPawn,
            Kind::BishopPawn,
            Kind::KnightPawn,
            Kind::RookPawn,
        ];
        for f in 0..8 {
            squares[f] = Some(Piece {
                owner: Player::One,
                kind: back[f],
            });
            squares[8 + f] = Some(Piece {
                owner: Player::One,
                kind: Kind::Pawn,
            });
            squares[48 + f] = Some(Piece {
                owner: Player::Two,
                kind: Kind::Pawn,
            });
            squares[56 + f] = Some(Piece {
                owner: Player::Two,
                kind: back[f],
            });
        }
        ChessapawnPosition {
            squares,
            turn: Player::One,
            en_passant: None,
        }
    }

    fn legal_moves(&self, pos: &ChessapawnPosition, out: &mut Vec<ChessapawnMove>) {
        out.clear();
        // A piece that survived a turn on its far rank has won.
        if moves::arrived(pos, pos.turn).next().is_some() {
            return;
        }
        moves::all_moves(pos, out);
        // A piece that arrived where no move here captures it has won.
        let won = moves::arrived(pos, pos.turn.other()).any(|s| !out.iter().any(|m| m.to == s && !m.en_passant));
        if won {
            out.clear();
        }
    }

    fn play(&self, pos: &ChessapawnPosition, mv: ChessapawnMove) -> ChessapawnPosition {
        let mut next = *pos;
        let piece = next.squares[usize::from(mv.from)].take();
        if mv.en_passant {
            // The double-stepped pawn stands one square beyond the passed square.
            let victim = i32::from(mv.to) - 8 * tables::forward(pos.turn);
            if let Ok(v) = usize::try_from(victim) {
                next.squares[v] = None;
            }
        }
        next.squares[usize::from(mv.to)] = piece;
        let double = piece.is_some_and(|p| p.kind == Kind::Pawn) && (i32::from(mv.to) - i32::from(mv.from)).abs() == 16;
        next.en_passant = double.then(|| ((u16::from(mv.to) + u16::from(mv.from)) / 2) as u8);
        next.turn = pos.turn.other();
        next
    }

    fn outcome(&self, pos: &ChessapawnPosition) -> Outcome {
        let mover = pos.turn;
        // A piece that survived a turn on its far rank wins for its owner.
        if moves::arrived(pos, mover).next().is_some() {
            return Outcome::Win(mover);
        }
        // A piece that arrived where no enemy move can capture it wins at once.
        let last = mover.other();
        if moves::arrived(pos, last).any(|s| !moves::capturable(pos, s, mover)) {
            return Outcome::Win(last);
        }
        // Having no move loses.
        if moves::each_move(pos, |_| ControlFlow::Break(())).is_continue() {
            return Outcome::Win(last);
        }
        Outcome::Ongoing
    }
}

impl Boxes for Chessapawn {
    type BoxKey = ChessapawnKey;

    fn box_key(&self, pos: &ChessapawnPosition) -> ChessapawnKey {
        ChessapawnKey {
            squares: pack_cells(&pos.squares),
            turn: pos.turn,
            en_passant: pos.en_passant,
        }
    }

    fn key_position(&self, key: &ChessapawnKey) -> ChessapawnPosition {
        ChessapawnPosition {
            squares: unpack_cells(&key.squares),
            turn: key.turn,
            en_passant: key.en_passant,
        }
    }
}

chesslike::chess_parts!(Chessapawn);

impl GameSpec for Chessapawn {
    const NAMES: &'static [&'static str] = &["chessapawn"];
    const FORMS: &'static str = "chessapawn";
    const EXAMPLES: &'static [&'static str] = &["chessapawn"];

    fn from_spec(_name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue> {
        no_size_or_options("chessapawn", size, options, "it is played on 8x8")?;
        Ok(Chessapawn)
    }
}
