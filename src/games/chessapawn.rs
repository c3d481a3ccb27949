//! Chessapawn (Robert Price, 2001): Hexapawn carried to a chess board.

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

fn far_rank(p: Player) -> i32 {
    if p == Player::One {
        7
    } else {
        0
    }
}

fn square(f: i32, r: i32) -> Option<u8> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as u8)
}

/// How a step or slide may end: on an empty square, on an enemy, or either.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    MoveOnly,
    CaptureOnly,
    Both,
}

impl Chessapawn {
    /// Generate the moves of the piece on `from` into `out`.
    fn piece_moves(&self, pos: &ChessapawnPosition, from: u8, out: &mut Vec<ChessapawnMove>) {
        let Some(piece) = pos.squares[usize::from(from)] else {
            return;
        };
        let me = piece.owner;
        let d = forward(me);
        let (f, r) = (i32::from(from % 8), i32::from(from / 8));
        let step = |df: i32, dr: i32, mode: Mode, out: &mut Vec<ChessapawnMove>| {
            if let Some(to) = square(f + df, r + dr) {
                self.land(pos, from, to, mode, me, out);
            }
        };
        let slide = |df: i32, dr: i32, mode: Mode, out: &mut Vec<ChessapawnMove>| {
            let (mut g, mut s) = (f + df, r + dr);
            while let Some(to) = square(g, s) {
                let occupied = pos.squares[usize::from(to)].is_some();
                self.land(pos, from, to, mode, me, out);
                if occupied {
                    break;
                }
                g += df;
                s += dr;
            }
        };
        match piece.kind {
            Kind::Pawn => {
                step(0, d, Mode::MoveOnly, out);
                step(-1, d, Mode::CaptureOnly, out);
                step(1, d, Mode::CaptureOnly, out);
                let home = if me == Player::One { 1 } else { 6 };
                if r == home {
                    let one = square(f, r + d);
                    let two = square(f, r + 2 * d);
                    if let (Some(a), Some(b)) = (one, two) {
                        if pos.squares[usize::from(a)].is_none() && pos.squares[usize::from(b)].is_none() {
                            out.push(ChessapawnMove {
                                from,
                                to: b,
                                en_passant: false,
                            });
                        }
                    }
                }
            }
            Kind::Knight => {
                for (df, dr) in [(1, 2), (-1, 2), (2, 1), (-2, 1)] {
                    step(df, dr * d, Mode::Both, out);
                }
                step(0, d, Mode::MoveOnly, out);
                step(-1, d, Mode::CaptureOnly, out);
                step(1, d, Mode::CaptureOnly, out);
            }
            Kind::Bishop => {
                slide(-1, d, Mode::Both, out);
                slide(1, d, Mode::Both, out);
                step(0, d, Mode::MoveOnly, out);
            }
            Kind::Rook => {
                slide(0, d, Mode::Both, out);
                step(-1, d, Mode::CaptureOnly, out);
                step(1, d, Mode::CaptureOnly, out);
                slide(-1, 0, Mode::CaptureOnly, out);
                slide(1, 0, Mode::CaptureOnly, out);
            }
            Kind::Queen => {
                slide(-1, d, Mode::Both, out);
                slide(1, d, Mode::Both, out);
                slide(0, d, Mode::Both, out);
                slide(-1, 0, Mode::CaptureOnly, out);
                slide(1, 0, Mode::CaptureOnly, out);
            }
            Kind::King => {
                for df in [-1, 0, 1] {
                    step(df, d, Mode::Both, out);
                }
                step(-1, 0, Mode::CaptureOnly, out);
                step(1, 0, Mode::CaptureOnly, out);
            }
        }
    }

    /// A step or slide of `mode` reaching `to`: add the move it makes, if any.
    fn land(&self, pos: &ChessapawnPosition, from: u8, to: u8, mode: Mode, me: Player, out: &mut Vec<ChessapawnMove>) {
        match pos.squares[usize::from(to)] {
            Some(p) if p.owner == me => {}
            Some(_) => {
                if mode != Mode::MoveOnly {
                    out.push(ChessapawnMove {
                        from,
                        to,
                        en_passant: false,
                    });
                }
            }
            None if pos.en_passant == Some(to) && mode != Mode::MoveOnly => {
                // Onto the passed square, a pattern that can capture always captures.
                out.push(ChessapawnMove {
                    from,
                    to,
                    en_passant: true,
                });
            }
            None => {
                if mode != Mode::CaptureOnly {
                    out.push(ChessapawnMove {
                        from,
                        to,
                        en_passant: false,
                    });
                }
            }
        }
    }

    fn all_moves(&self, pos: &ChessapawnPosition, out: &mut Vec<ChessapawnMove>) {
        out.clear();
        for s in 0..64u8 {
            if pos.squares[usize::from(s)].is_some_and(|p| p.owner == pos.turn) {
                self.piece_moves(pos, s, out);
            }
        }
    }

    /// Squares of `player`'s pieces standing on its far rank.
    fn arrived(pos: &ChessapawnPosition, player: Player) -> impl Iterator<Item = u8> + '_ {
        let r = far_rank(player);
        (0..8).filter_map(move |f| {
            let s = (r * 8 + f) as u8;
            pos.squares[usize::from(s)]
                .is_some_and(|p| p.owner == player)
                .then_some(s)
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
        if self.outcome(pos).is_over() {
            out.clear();
            return;
        }
        self.all_moves(pos, out);
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
        let mut moves = Vec::new();
        self.all_moves(pos, &mut moves);
        // A piece that arrived where no enemy move can capture it wins at once.
        let last = mover.other();
        for s in Self::arrived(pos, last) {
            if !moves.iter().any(|m| m.to == s && !m.en_passant) {
                return Outcome::Win(last);
            }
        }
        if moves.is_empty() {
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
