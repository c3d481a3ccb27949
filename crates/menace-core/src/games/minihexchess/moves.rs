//! The move generator and making a move: each piece's destinations, the
//! legal moves with king safety and promotion, the draws by rule.

use std::ops::ControlFlow;

use super::position::board_hash;
use super::safety::KingSafety;
use super::sets::Sets;
use super::tables::{promotes, KNIGHT_LEAPS, NONE, PAWN_CAPTURES, PAWN_STEP, STEP};
use super::{HexchessMove, HexchessPosition, Kind, MiniHexchess, Piece, HISTORY};
use crate::game::Player;

impl MiniHexchess {
    /// The destinations of the piece on `from` (owned by `piece.owner`),
    /// ignoring whether its own king is left attacked, in the generator's
    /// order: a pawn's step then its two captures; leaps in table order;
    /// slides direction by direction, nearest cell first.
    pub(super) fn each_destination(
        cells: &[Option<Piece>; 37],
        from: usize,
        piece: Piece,
        mut visit: impl FnMut(usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let me = piece.owner;
        let open = |c: u8| cells[usize::from(c)].is_none_or(|p| p.owner != me);
        match piece.kind {
            Kind::Pawn => {
                let step = STEP[from][PAWN_STEP[me.index()]];
                if step != NONE && cells[usize::from(step)].is_none() {
                    visit(usize::from(step))?;
                }
                for d in PAWN_CAPTURES[me.index()] {
                    let to = STEP[from][d];
                    if to != NONE && cells[usize::from(to)].is_some_and(|p| p.owner != me) {
                        visit(usize::from(to))?;
                    }
                }
            }
            Kind::Knight => {
                for &to in KNIGHT_LEAPS[from].cells() {
                    if open(to) {
                        visit(usize::from(to))?;
                    }
                }
            }
            Kind::King => {
                for &to in &STEP[from] {
                    if to != NONE && open(to) {
                        visit(usize::from(to))?;
                    }
                }
            }
            Kind::Rook | Kind::Bishop => {
                let dirs = if piece.kind == Kind::Rook { 0..6 } else { 6..12 };
                for d in dirs {
                    let mut to = STEP[from][d];
                    while to != NONE {
                        match cells[usize::from(to)] {
                            None => visit(usize::from(to))?,
                            Some(p) => {
                                if p.owner != me {
                                    visit(usize::from(to))?;
                                }
                                break;
                            }
                        }
                        to = STEP[usize::from(to)][d];
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Each legal move in `pos` (ignoring whether the game is already over),
    /// in the order of the board: cells from a1 up, each piece's
    /// destinations as [`Self::each_destination`] gives them, promotions to
    /// rook, bishop, knight. Stops when `emit` breaks.
    pub(super) fn each_legal_move(
        pos: &HexchessPosition,
        mut emit: impl FnMut(HexchessMove) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let cells = &pos.cells;
        let me = pos.turn;
        let sets = Sets::of(cells);
        let safety = KingSafety::new(&sets, me);
        let mut own = sets.owner[me.index()];
        while own != 0 {
            let from = own.trailing_zeros() as usize;
            own &= own - 1;
            let Some(piece) = cells[from] else { continue };
            Self::each_destination(cells, from, piece, |to| {
                if !safety.allows(&sets, piece, from, to) {
                    return ControlFlow::Continue(());
                }
                let (from, to) = (from as u8, to as u8);
                if piece.kind == Kind::Pawn && promotes(me, usize::from(to)) {
                    for k in [Kind::Rook, Kind::Bishop, Kind::Knight] {
                        emit(HexchessMove {
                            from,
                            to,
                            promotion: Some(k),
                        })?;
                    }
                    ControlFlow::Continue(())
                } else {
                    emit(HexchessMove {
                        from,
                        to,
                        promotion: None,
                    })
                }
            })?;
        }
        ControlFlow::Continue(())
    }

    /// Whether the side to move has a legal move (stops at the first).
    pub(super) fn has_legal_move(pos: &HexchessPosition) -> bool {
        Self::each_legal_move(pos, |_| ControlFlow::Break(())).is_break()
    }

    /// A draw by rule (bare kings, fifty moves, threefold repetition), which
    /// holds unless the side to move is checkmated.
    pub(super) fn drawn_by_rule(pos: &HexchessPosition) -> bool {
        let bare = pos.cells.iter().flatten().all(|p| p.kind == Kind::King);
        let len = usize::from(pos.history_len);
        let current = pos.history[len - 1];
        let repeats = pos.history[..len].iter().filter(|&&h| h == current).count();
        bare || pos.halfmoves >= 100 || repeats >= 3
    }

    /// Whether `player`'s king is attacked in `pos`.
    pub fn in_check(&self, pos: &HexchessPosition, player: Player) -> bool {
        let sets = Sets::of(&pos.cells);
        let kings = sets.pieces(player, Kind::King);
        kings != 0 && sets.attacked(kings.trailing_zeros() as usize, player.other())
    }

    pub(super) fn apply(&self, pos: &HexchessPosition, mv: HexchessMove) -> HexchessPosition {
        let mut next = *pos;
        let piece = next.cells[usize::from(mv.from)].take();
        let capture = next.cells[usize::from(mv.to)].is_some();
        let pawn = piece.is_some_and(|p| p.kind == Kind::Pawn);
        next.cells[usize::from(mv.to)] = match (piece, mv.promotion) {
            (Some(p), Some(k)) => Some(Piece {
                owner: p.owner,
                kind: k,
            }),
            (p, _) => p,
        };
        next.turn = pos.turn.other();
        let h = board_hash(&next.cells, next.turn);
        if capture || pawn {
            next.halfmoves = 0;
            // Entries past the length are always zero: clear only those in use.
            next.history[..usize::from(pos.history_len)].fill(0);
            next.history[0] = h;
            next.history_len = 1;
        } else {
            next.halfmoves = pos.halfmoves.saturating_add(1);
            let len = usize::from(next.history_len);
            if len < HISTORY {
                next.history[len] = h;
                next.history_len += 1;
            }
        }
        next
    }

    /// The destinations of the piece on `from` as if alone, by the move
    /// generator's own patterns (kings ignored): for tests.
    pub fn lone_destinations(&self, kind: Kind, from: usize) -> usize {
        let mut cells = [None; 37];
        let piece = Piece {
            owner: Player::One,
            kind,
        };
        cells[from] = Some(piece);
        let mut count = 0;
        let _ = Self::each_destination(&cells, from, piece, |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        count
    }
}
