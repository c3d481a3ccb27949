//! The move generator: each piece's patterns, the en passant rule, and
//! whether a piece on a square could be captured (for the far-rank win).

use std::ops::ControlFlow;

use super::pieces::{ChessapawnMove, ChessapawnPosition, Kind};
use super::tables::{far_rank, opposite, AHEAD, AHEAD_HIGH, AHEAD_LOW, EAST, KNIGHT_LEAPS, NONE, STEP, WEST};
use crate::game::Player;

/// How a step or slide may end: on an empty square, on an enemy, or either.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    MoveOnly,
    CaptureOnly,
    Both,
}

/// The moves of one piece, handed one by one to `emit`.
struct PieceMoves<'a, F> {
    pos: &'a ChessapawnPosition,
    from: u8,
    me: Player,
    emit: F,
}

impl<F: FnMut(ChessapawnMove) -> ControlFlow<()>> PieceMoves<'_, F> {
    /// Every pattern of `kind`, in the order the rules list them.
    fn all(&mut self, kind: Kind) -> ControlFlow<()> {
        let me = self.me.index();
        let (ahead, low, high) = (AHEAD[me], AHEAD_LOW[me], AHEAD_HIGH[me]);
        match kind {
            Kind::Pawn => {
                self.step(ahead, Mode::MoveOnly)?;
                self.step(low, Mode::CaptureOnly)?;
                self.step(high, Mode::CaptureOnly)?;
                let home = if self.me == Player::One { 1 } else { 6 };
                if self.from / 8 == home {
                    let one = STEP[usize::from(self.from)][ahead];
                    let two = STEP[usize::from(one)][ahead];
                    if self.pos.squares[usize::from(one)].is_none() && self.pos.squares[usize::from(two)].is_none() {
                        (self.emit)(ChessapawnMove {
                            from: self.from,
                            to: two,
                            en_passant: false,
                        })?;
                    }
                }
            }
            Kind::KnightPawn => {
                for to in KNIGHT_LEAPS[me][usize::from(self.from)] {
                    if to != NONE {
                        self.land(to, Mode::Both)?;
                    }
                }
                self.step(ahead, Mode::MoveOnly)?;
                self.step(low, Mode::CaptureOnly)?;
                self.step(high, Mode::CaptureOnly)?;
            }
            Kind::BishopPawn => {
                self.slide(low, Mode::Both)?;
                self.slide(high, Mode::Both)?;
                self.step(ahead, Mode::MoveOnly)?;
            }
            Kind::RookPawn => {
                self.slide(ahead, Mode::Both)?;
                self.step(low, Mode::CaptureOnly)?;
                self.step(high, Mode::CaptureOnly)?;
                self.slide(WEST, Mode::CaptureOnly)?;
                self.slide(EAST, Mode::CaptureOnly)?;
            }
            Kind::QueenPawn => {
                self.slide(low, Mode::Both)?;
                self.slide(high, Mode::Both)?;
                self.slide(ahead, Mode::Both)?;
                self.slide(WEST, Mode::CaptureOnly)?;
                self.slide(EAST, Mode::CaptureOnly)?;
            }
            Kind::KingPawn => {
                self.step(low, Mode::Both)?;
                self.step(ahead, Mode::Both)?;
                self.step(high, Mode::Both)?;
                self.step(WEST, Mode::CaptureOnly)?;
                self.step(EAST, Mode::CaptureOnly)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// One step in direction `d`.
    fn step(&mut self, d: usize, mode: Mode) -> ControlFlow<()> {
        let to = STEP[usize::from(self.from)][d];
        if to == NONE {
            return ControlFlow::Continue(());
        }
        self.land(to, mode)
    }

    /// A slide in direction `d`: each square it reaches, until it leaves the
    /// board or stops on an occupied square.
    fn slide(&mut self, d: usize, mode: Mode) -> ControlFlow<()> {
        let mut to = STEP[usize::from(self.from)][d];
        while to != NONE {
            self.land(to, mode)?;
            if self.pos.squares[usize::from(to)].is_some() {
                break;
            }
            to = STEP[usize::from(to)][d];
        }
        ControlFlow::Continue(())
    }

    /// A step or slide of `mode` reaching `to`: emit the move it makes, if any.
    fn land(&mut self, to: u8, mode: Mode) -> ControlFlow<()> {
        let en_passant = match self.pos.squares[usize::from(to)] {
            Some(p) if p.owner == self.me => return ControlFlow::Continue(()),
            Some(_) if mode == Mode::MoveOnly => return ControlFlow::Continue(()),
            Some(_) => false,
            // Onto the passed square, a pattern that can capture always captures.
            None if self.pos.en_passant == Some(to) && mode != Mode::MoveOnly => true,
            None if mode == Mode::CaptureOnly => return ControlFlow::Continue(()),
            None => false,
        };
        (self.emit)(ChessapawnMove {
            from: self.from,
            to,
            en_passant,
        })
    }
}

/// Each move of the side to move (ignoring whether the game is already
/// over), squares from a1 up. Stops when `emit` breaks.
pub(super) fn each_move(
    pos: &ChessapawnPosition,
    mut emit: impl FnMut(ChessapawnMove) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for (s, piece) in pos.squares.iter().enumerate() {
        if let Some(piece) = *piece {
            if piece.owner == pos.turn {
                PieceMoves {
                    pos,
                    from: s as u8,
                    me: piece.owner,
                    emit: &mut emit,
                }
                .all(piece.kind)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Every move of [`each_move`] into `out` (cleared first).
pub(super) fn all_moves(pos: &ChessapawnPosition, out: &mut Vec<ChessapawnMove>) {
    out.clear();
    let _ = each_move(pos, |m| {
        out.push(m);
        ControlFlow::Continue(())
    });
}

/// Whether a piece of `by` can capture (not en passant) the piece on
/// `target`, looking outward from `target` instead of generating `by`'s
/// moves: along each line back toward `by`'s side and sideways for the
/// sliders, one step for the KingPawn and the diagonal captures, and the
/// knight leaps.
pub(super) fn capturable(pos: &ChessapawnPosition, target: u8, by: Player) -> bool {
    let t = usize::from(target);
    let is = |s: u8, kinds: &[Kind]| {
        s != NONE && pos.squares[usize::from(s)].is_some_and(|p| p.owner == by && kinds.contains(&p.kind))
    };
    // The first piece along direction `d` from the target.
    let first = |d: usize| {
        let mut s = STEP[t][d];
        while s != NONE && pos.squares[usize::from(s)].is_none() {
            s = STEP[usize::from(s)][d];
        }
        s
    };
    let me = by.index();
    // `by` captures forward: its pieces stand behind the target, as `by` sees it.
    let back = opposite(AHEAD[me]);
    for d in [opposite(AHEAD_LOW[me]), opposite(AHEAD_HIGH[me])] {
        if is(
            STEP[t][d],
            &[Kind::Pawn, Kind::KnightPawn, Kind::RookPawn, Kind::KingPawn],
        ) || is(first(d), &[Kind::BishopPawn, Kind::QueenPawn])
        {
            return true;
        }
    }
    if is(STEP[t][back], &[Kind::KingPawn]) || is(first(back), &[Kind::RookPawn, Kind::QueenPawn]) {
        return true;
    }
    for d in [WEST, EAST] {
        if is(STEP[t][d], &[Kind::KingPawn]) || is(first(d), &[Kind::RookPawn, Kind::QueenPawn]) {
            return true;
        }
    }
    // A leap `(f, r)` forward lands on the target from the target minus it,
    // which is the other player's leap `(-f, r)` from the target.
    KNIGHT_LEAPS[1 - me][t].iter().any(|&s| is(s, &[Kind::KnightPawn]))
}

/// Squares of `player`'s pieces standing on its far rank.
pub(super) fn arrived(pos: &ChessapawnPosition, player: Player) -> impl Iterator<Item = u8> + '_ {
    let r = far_rank(player);
    (0..8).filter_map(move |f| {
        let s = r * 8 + f;
        pos.squares[s].is_some_and(|p| p.owner == player).then_some(s as u8)
    })
}
