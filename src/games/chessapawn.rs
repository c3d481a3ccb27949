//! Chessapawn (Robert Price, 2001): Hexapawn carried to a chess board.

use std::ops::ControlFlow;

use crate::error::InvalidValue;
use crate::game::{no_size_or_options, Game, GameSpec, MoveError, Outcome, Player, PositionError};
use crate::games::board::{cell_name, encode_ranks, parse_cell, side_letter, square_board};
use crate::picture::{self, Board, Look, MoveCells, Picture};

/// The six piece types; every one of them is also a pawn: it never moves
/// backward, and moves sideways only to capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Kind {
    fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
        }
    }

    fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'N' => Kind::Knight,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'Q' => Kind::Queen,
            'K' => Kind::King,
            _ => return None,
        })
    }
}

/// A piece: its owner and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    pub owner: Player,
    pub kind: Kind,
}

impl Piece {
    /// Its letter, upper case White, lower case Black.
    pub fn symbol(self) -> char {
        side_letter(self.kind.letter(), self.owner)
    }
}

/// A position: the 64 squares (`rank * 8 + file`), the side to move, and
/// the square a pawn passed over with a double step on the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChessapawnPosition {
    pub squares: [Option<Piece>; 64],
    pub turn: Player,
    pub en_passant: Option<u8>,
}

/// A move from one square to another; `en_passant` when it captures the
/// pawn that just passed over its landing square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChessapawnMove {
    pub from: u8,
    pub to: u8,
    pub en_passant: bool,
}

/// Chessapawn on the standard 8×8 chess start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chessapawn;

fn forward(p: Player) -> i32 {
    if p == Player::One {
        1
    } else {
        -1
    }
}

fn far_rank(p: Player) -> usize {
    if p == Player::One {
        7
    } else {
        0
    }
}

// ---- Precomputed geometry ----
//
// Squares are indices `rank * 8 + file`. The move generator never does
// coordinate arithmetic or bounds checks at run time: a step is a lookup in
// `STEP`, a leap a lookup in `KNIGHT_LEAPS`, built once at compile time.

/// No square: a step off the board in the tables below.
const NONE: u8 = u8::MAX;

/// The eight directions as (file, rank) steps, indexed by the constants below.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];
const NORTH: usize = 0;
const SOUTH: usize = 1;
const EAST: usize = 2;
const WEST: usize = 3;
const NORTH_EAST: usize = 4;
const NORTH_WEST: usize = 5;
const SOUTH_EAST: usize = 6;
const SOUTH_WEST: usize = 7;

/// The directions as a player sees them: straight forward, forward to the
/// lower file (toward a), forward to the higher file, indexed by player.
const AHEAD: [usize; 2] = [NORTH, SOUTH];
const AHEAD_LOW: [usize; 2] = [NORTH_WEST, SOUTH_WEST];
const AHEAD_HIGH: [usize; 2] = [NORTH_EAST, SOUTH_EAST];

/// The direction opposite `d` (in `DIRECTIONS` the pairs are 0-1, 2-3, 4-7, 5-6).
const fn opposite(d: usize) -> usize {
    match d {
        NORTH => SOUTH,
        SOUTH => NORTH,
        EAST => WEST,
        WEST => EAST,
        NORTH_EAST => SOUTH_WEST,
        SOUTH_WEST => NORTH_EAST,
        NORTH_WEST => SOUTH_EAST,
        _ => NORTH_WEST,
    }
}

/// The square at (file, rank), or `NONE` off the board.
const fn square_at(f: i32, r: i32) -> u8 {
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        (r * 8 + f) as u8
    } else {
        NONE
    }
}

/// `STEP[s][d]`: the square one step from `s` in direction `d`, or `NONE`
/// off the board. A slide walks it until `NONE` or an occupied square.
const STEP: [[u8; 8]; 64] = {
    let mut out = [[NONE; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            out[s][d] = square_at((s % 8) as i32 + DIRECTIONS[d].0, (s / 8) as i32 + DIRECTIONS[d].1);
            d += 1;
        }
        s += 1;
    }
    out
};

/// The forward knight leaps as (file, forward ranks), in the generator's order.
const LEAPS: [(i32, i32); 4] = [(1, 2), (-1, 2), (2, 1), (-2, 1)];

/// `KNIGHT_LEAPS[p][s]`: the squares a KnightPawn of player `p` leaps to
/// from `s`, in `LEAPS` order, `NONE` where a leap leaves the board.
const KNIGHT_LEAPS: [[[u8; 4]; 64]; 2] = {
    let mut out = [[[NONE; 4]; 64]; 2];
    let mut p = 0;
    while p < 2 {
        let ahead = if p == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 64 {
            let mut k = 0;
            while k < 4 {
                out[p][s][k] = square_at((s % 8) as i32 + LEAPS[k].0, (s / 8) as i32 + LEAPS[k].1 * ahead);
                k += 1;
            }
            s += 1;
        }
        p += 1;
    }
    out
};

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
            Kind::Knight => {
                for to in KNIGHT_LEAPS[me][usize::from(self.from)] {
                    if to != NONE {
                        self.land(to, Mode::Both)?;
                    }
                }
                self.step(ahead, Mode::MoveOnly)?;
                self.step(low, Mode::CaptureOnly)?;
                self.step(high, Mode::CaptureOnly)?;
            }
            Kind::Bishop => {
                self.slide(low, Mode::Both)?;
                self.slide(high, Mode::Both)?;
                self.step(ahead, Mode::MoveOnly)?;
            }
            Kind::Rook => {
                self.slide(ahead, Mode::Both)?;
                self.step(low, Mode::CaptureOnly)?;
                self.step(high, Mode::CaptureOnly)?;
                self.slide(WEST, Mode::CaptureOnly)?;
                self.slide(EAST, Mode::CaptureOnly)?;
            }
            Kind::Queen => {
                self.slide(low, Mode::Both)?;
                self.slide(high, Mode::Both)?;
                self.slide(ahead, Mode::Both)?;
                self.slide(WEST, Mode::CaptureOnly)?;
                self.slide(EAST, Mode::CaptureOnly)?;
            }
            Kind::King => {
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

impl Chessapawn {
    /// Each move of the side to move (ignoring whether the game is already
    /// over), squares from a1 up. Stops when `emit` breaks.
    fn each_move(pos: &ChessapawnPosition, mut emit: impl FnMut(ChessapawnMove) -> ControlFlow<()>) -> ControlFlow<()> {
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

    fn all_moves(&self, pos: &ChessapawnPosition, out: &mut Vec<ChessapawnMove>) {
        out.clear();
        let _ = Self::each_move(pos, |m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    /// Whether a piece of `by` can capture (not en passant) the piece on
    /// `target`, looking outward from `target` instead of generating `by`'s
    /// moves: along each line back toward `by`'s side and sideways for the
    /// sliders, one step for the KingPawn and the diagonal captures, and the
    /// knight leaps.
    fn capturable(pos: &ChessapawnPosition, target: u8, by: Player) -> bool {
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
            if is(STEP[t][d], &[Kind::Pawn, Kind::Knight, Kind::Rook, Kind::King])
                || is(first(d), &[Kind::Bishop, Kind::Queen])
            {
                return true;
            }
        }
        if is(STEP[t][back], &[Kind::King]) || is(first(back), &[Kind::Rook, Kind::Queen]) {
            return true;
        }
        for d in [WEST, EAST] {
            if is(STEP[t][d], &[Kind::King]) || is(first(d), &[Kind::Rook, Kind::Queen]) {
                return true;
            }
        }
        // A leap `(f, r)` forward lands on the target from the target minus it,
        // which is the other player's leap `(-f, r)` from the target.
        KNIGHT_LEAPS[1 - me][t].iter().any(|&s| is(s, &[Kind::Knight]))
    }

    /// Squares of `player`'s pieces standing on its far rank.
    fn arrived(pos: &ChessapawnPosition, player: Player) -> impl Iterator<Item = u8> + '_ {
        let r = far_rank(player);
        (0..8).filter_map(move |f| {
            let s = r * 8 + f;
            pos.squares[s].is_some_and(|p| p.owner == player).then_some(s as u8)
        })
    }

    fn describe_kind(&self, pos: &ChessapawnPosition, mv: ChessapawnMove) -> Kind {
        pos.squares[usize::from(mv.from)].map_or(Kind::Pawn, |p| p.kind)
    }

    fn is_capture(&self, pos: &ChessapawnPosition, mv: ChessapawnMove) -> bool {
        mv.en_passant || pos.squares[usize::from(mv.to)].is_some()
    }

    fn square_name(s: u8) -> String {
        cell_name(u32::from(s % 8), u32::from(s / 8))
    }

    /// Short algebraic notation without a check or win mark: `Nf3`, `exd5`, `Rbxc4`.
    fn san(&self, pos: &ChessapawnPosition, mv: ChessapawnMove) -> String {
        let kind = self.describe_kind(pos, mv);
        let capture = self.is_capture(pos, mv);
        let to = Self::square_name(mv.to);
        let from = Self::square_name(mv.from);
        if kind == Kind::Pawn {
            return if capture { format!("{}x{to}", &from[..1]) } else { to };
        }
        let mut others = Vec::new();
        let mut buf = Vec::new();
        self.all_moves(pos, &mut buf);
        for m in buf {
            if m.to == mv.to && m.from != mv.from && self.describe_kind(pos, m) == kind {
                others.push(m.from);
            }
        }
        let mut dis = String::new();
        if !others.is_empty() {
            if others.iter().all(|&o| o % 8 != mv.from % 8) {
                dis.push_str(&from[..1]);
            } else if others.iter().all(|&o| o / 8 != mv.from / 8) {
                dis.push_str(&from[1..]);
            } else {
                dis.push_str(&from);
            }
        }
        format!("{}{dis}{}{to}", kind.letter(), if capture { "x" } else { "" })
    }
}

impl Game for Chessapawn {
    type Position = ChessapawnPosition;
    type Move = ChessapawnMove;

    fn spec(&self) -> String {
        "chessapawn".to_string()
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::One => "White",
            Player::Two => "Black",
        }
    }

    fn start(&self) -> ChessapawnPosition {
        let mut squares = [None; 64];
        let back = [
            Kind::Rook,
            Kind::Knight,
            Kind::Bishop,
            Kind::Queen,
            Kind::King,
            Kind::Bishop,
            Kind::Knight,
            Kind::Rook,
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

    fn turn(&self, pos: &ChessapawnPosition) -> Player {
        pos.turn
    }

    fn legal_moves(&self, pos: &ChessapawnPosition, out: &mut Vec<ChessapawnMove>) {
        out.clear();
        // A piece that survived a turn on its far rank has won.
        if Self::arrived(pos, pos.turn).next().is_some() {
            return;
        }
        self.all_moves(pos, out);
        // A piece that arrived where no move here captures it has won.
        let won = Self::arrived(pos, pos.turn.other()).any(|s| !out.iter().any(|m| m.to == s && !m.en_passant));
        if won {
            out.clear();
        }
    }

    fn play(&self, pos: &ChessapawnPosition, mv: ChessapawnMove) -> ChessapawnPosition {
        let mut next = *pos;
        let piece = next.squares[usize::from(mv.from)].take();
        if mv.en_passant {
            // The double-stepped pawn stands one square beyond the passed square.
            let victim = i32::from(mv.to) - 8 * forward(pos.turn);
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
        if Self::arrived(pos, mover).next().is_some() {
            return Outcome::Win(mover);
        }
        // A piece that arrived where no enemy move can capture it wins at once.
        let last = mover.other();
        if Self::arrived(pos, last).any(|s| !Self::capturable(pos, s, mover)) {
            return Outcome::Win(last);
        }
        // Having no move loses.
        if Self::each_move(pos, |_| ControlFlow::Break(())).is_continue() {
            return Outcome::Win(last);
        }
        Outcome::Ongoing
    }

    fn move_name(&self, pos: &ChessapawnPosition, mv: ChessapawnMove) -> String {
        let mut name = self.san(pos, mv);
        if self.outcome(&self.play(pos, mv)) == Outcome::Win(pos.turn) {
            name.push('#');
        }
        name
    }

    fn parse_move(&self, pos: &ChessapawnPosition, text: &str) -> Result<ChessapawnMove, MoveError> {
        let clean: String = text
            .trim()
            .trim_end_matches(['#', '+', '!', '?'])
            .chars()
            .filter(|c| *c != '-')
            .collect();
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if moves.is_empty() {
            return Err(self.illegal(pos, text, "the game is over"));
        }
        // Coordinate form: g1f3, e5xd6.
        let lower = clean.to_ascii_lowercase().replace('x', "");
        // Only ASCII text has squares at byte offsets (`ｂ2`, `aé2` do not).
        if lower.is_ascii() && lower.len() == 4 {
            if let (Some((f1, r1)), Some((f2, r2))) = (parse_cell(&lower[..2]), parse_cell(&lower[2..])) {
                if f1 < 8 && r1 < 8 && f2 < 8 && r2 < 8 {
                    let (from, to) = ((r1 * 8 + f1) as u8, (r2 * 8 + f2) as u8);
                    return moves
                        .iter()
                        .find(|m| m.from == from && m.to == to)
                        .copied()
                        .ok_or_else(|| self.illegal(pos, text, "no legal move from that square to that square"));
                }
            }
        }
        // Short algebraic: [piece letter][from file][from rank][x]destination.
        let unreadable = || MoveError {
            text: text.to_string(),
            reason: "expected a move like Nf3, exd5, Ncd5 or g1f3".to_string(),
        };
        let mut chars: Vec<char> = clean.chars().filter(|&c| c != 'x').collect();
        let kind = match chars.first() {
            Some(&c) if c.is_ascii_uppercase() => {
                chars.remove(0);
                Kind::from_letter(c).ok_or_else(unreadable)?
            }
            _ => Kind::Pawn,
        };
        if chars.len() < 2 {
            return Err(unreadable());
        }
        let dest: String = chars[chars.len() - 2..].iter().collect();
        let (df, dr) = parse_cell(&dest)
            .filter(|&(f, r)| f < 8 && r < 8)
            .ok_or_else(unreadable)?;
        let to = (dr * 8 + df) as u8;
        let hint = &chars[..chars.len() - 2];
        let mut file_hint = None;
        let mut rank_hint = None;
        for &c in hint {
            match c {
                'a'..='h' => file_hint = Some(c as u8 - b'a'),
                '1'..='8' => rank_hint = Some(c as u8 - b'1'),
                _ => return Err(unreadable()),
            }
        }
        let mut matches: Vec<ChessapawnMove> = moves
            .iter()
            .copied()
            .filter(|&m| {
                m.to == to
                    && self.describe_kind(pos, m) == kind
                    && file_hint.is_none_or(|f| m.from % 8 == f)
                    && rank_hint.is_none_or(|r| m.from / 8 == r)
            })
            .collect();
        // A bare pawn destination ("d5") is the step, not a capture.
        if kind == Kind::Pawn && hint.is_empty() && matches.len() > 1 {
            matches.retain(|&m| !self.is_capture(pos, m));
        }
        match matches.as_slice() {
            [one] => Ok(*one),
            [] => Err(self.illegal(pos, text, "no legal move matches")),
            _ => Err(self.illegal(pos, text, "ambiguous: name the starting file or rank too")),
        }
    }

    fn position_string(&self, pos: &ChessapawnPosition) -> String {
        let board = encode_ranks(8, 8, |f, r| pos.squares[r * 8 + f].map(|p| p.symbol()));
        let side = if pos.turn == Player::One { 'w' } else { 'b' };
        let ep = pos.en_passant.map_or("-".to_string(), Self::square_name);
        format!("{board} {side} {ep}")
    }

    fn parse_position(&self, text: &str) -> Result<ChessapawnPosition, PositionError> {
        let err = |reason: String| PositionError {
            text: text.to_string(),
            reason,
        };
        let expected = "expected 8 ranks from rank 8 down to 1 separated by '/', with P N B R Q K (White) and p n b r q k (Black) and digits for empty squares, then ' w' or ' b', then the en passant square or '-'";
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [board, side, ep] = parts.as_slice() else {
            return Err(err(expected.to_string()));
        };
        let turn = match *side {
            "w" => Player::One,
            "b" => Player::Two,
            other => return Err(err(format!("side to move '{other}' is not 'w' or 'b'"))),
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 8 {
            return Err(err(format!("found {} ranks; {expected}", rows.len())));
        }
        let mut squares = [None; 64];
        for (k, row) in rows.iter().enumerate() {
            let r = 7 - k;
            let mut f = 0usize;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    f += n as usize;
                } else if let Some(kind) = Kind::from_letter(c) {
                    if f >= 8 {
                        return Err(err(format!("rank {} is longer than 8 squares", r + 1)));
                    }
                    let owner = if c.is_ascii_uppercase() {
                        Player::One
                    } else {
                        Player::Two
                    };
                    squares[r * 8 + f] = Some(Piece { owner, kind });
                    f += 1;
                } else {
                    return Err(err(format!("unexpected character '{c}' in rank {}; {expected}", r + 1)));
                }
            }
            if f != 8 {
                return Err(err(format!("rank {} has {f} squares, not 8", r + 1)));
            }
        }
        let en_passant = match *ep {
            "-" => None,
            s => {
                let (f, r) = parse_cell(s)
                    .filter(|&(f, r)| f < 8 && (r == 2 || r == 5))
                    .ok_or_else(|| err(format!("en passant square '{s}' must be on rank 3 or 6, or '-'")))?;
                Some((r * 8 + f) as u8)
            }
        };
        Ok(ChessapawnPosition {
            squares,
            turn,
            en_passant,
        })
    }

    fn too_large_for_exhaustive_search(&self) -> bool {
        true
    }

    fn diagram(&self, pos: &ChessapawnPosition) -> String {
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

impl GameSpec for Chessapawn {
    const NAMES: &'static [&'static str] = &["chessapawn"];
    const FORMS: &'static str = "chessapawn";
    const EXAMPLES: &'static [&'static str] = &["chessapawn"];

    fn from_spec(_name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue> {
        no_size_or_options("chessapawn", size, options, "it is played on 8x8")?;
        Ok(Chessapawn)
    }
}

impl Picture for Chessapawn {
    fn board(&self) -> Board {
        square_board(8, 8, true, ["#fafafa", "#222222"])
    }

    fn pieces(&self, pos: &ChessapawnPosition) -> Vec<picture::Piece> {
        pos.squares
            .iter()
            .enumerate()
            .filter_map(|(cell, p)| {
                p.map(|p| picture::Piece {
                    cell,
                    owner: p.owner,
                    look: match p.kind {
                        Kind::Pawn => Look::Pawn,
                        kind => Look::Letter(kind.letter()),
                    },
                    marked: false,
                })
            })
            .collect()
    }

    fn move_cells(&self, _pos: &ChessapawnPosition, mv: ChessapawnMove) -> MoveCells {
        MoveCells {
            from: Some(usize::from(mv.from)),
            to: Some(usize::from(mv.to)),
        }
    }
}
