//! Mini Hexchess (Dave McCooey, 1997): 37 hexagonal cells, one king, rook,
//! bishop, knight and five pawns a side.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use crate::error::InvalidValue;
use crate::game::{unknown_option, Game, GameSpec, MoveError, Outcome, Player, PositionError};
use crate::games::board::side_letter;
use crate::picture::{self, Board, Cell, CellShape, Look, MoveCells, Picture};

/// The pieces of Mini Hexchess (no queen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    King,
}

impl Kind {
    fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::King => 'K',
        }
    }

    fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'N' => Kind::Knight,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'K' => Kind::King,
            _ => return None,
        })
    }
}

/// A piece: owner and kind.
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

/// Plies kept for the repetition rule: the fifty-move rule ends a game
/// after 100 plies without a capture or pawn move, which also clears it.
const HISTORY: usize = 101;

/// A position: the 37 cells, the side to move, the plies since the last
/// capture or pawn move, and the hashes of the positions since then (for
/// threefold repetition).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexchessPosition {
    pub cells: [Option<Piece>; 37],
    pub turn: Player,
    pub halfmoves: u8,
    history_len: u8,
    history: [u64; HISTORY],
}

/// A move from one cell to another, with the piece a pawn promotes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexchessMove {
    pub from: u8,
    pub to: u8,
    pub promotion: Option<Kind>,
}

/// Mini Hexchess with McCooey's setup, or a custom one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiniHexchess {
    setup: Option<Vec<(i32, i32, Piece)>>,
}

/// Axial coordinates of each cell index, files a–g (q = −3..3), each file from rank 1.
const fn build_cells() -> [(i8, i8); 37] {
    let mut out = [(0i8, 0i8); 37];
    let mut i = 0;
    let mut q = -3i32;
    while q <= 3 {
        let r_max = if 3 - q < 3 { 3 - q } else { 3 };
        let r_min = if -3 - q > -3 { -3 - q } else { -3 };
        let mut r = r_max;
        while r >= r_min {
            out[i] = (q as i8, r as i8);
            i += 1;
            r -= 1;
        }
        q += 1;
    }
    out
}

const CELLS: [(i8, i8); 37] = build_cells();

const ROOK: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
const BISHOP: [(i32, i32); 6] = [(1, -2), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 12] = [
    (1, 2),
    (-1, 3),
    (2, 1),
    (3, -1),
    (3, -2),
    (2, -3),
    (1, -3),
    (-1, -2),
    (-2, -1),
    (-3, 1),
    (-3, 2),
    (-2, 3),
];

/// The cell index at axial (q, r), if it is on the board.
pub fn cell_at(q: i32, r: i32) -> Option<usize> {
    if q.abs() > 3 || r.abs() > 3 || (q + r).abs() > 3 {
        return None;
    }
    CELLS.iter().position(|&(a, b)| i32::from(a) == q && i32::from(b) == r)
}

/// Axial coordinates of a cell index.
pub fn axial(i: usize) -> (i32, i32) {
    let (q, r) = CELLS[i];
    (i32::from(q), i32::from(r))
}

fn r_max(q: i32) -> i32 {
    (3 - q).min(3)
}

fn r_min(q: i32) -> i32 {
    (-3 - q).max(-3)
}

/// The name of a cell: file a–g, rank from White's end (`d4` is the centre).
pub fn cell_name(i: usize) -> String {
    let (q, r) = axial(i);
    format!("{}{}", char::from(b'a' + (q + 3) as u8), r_max(q) - r + 1)
}

fn parse_cell(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let f = chars.next()?;
    if !('a'..='g').contains(&f) {
        return None;
    }
    let rank: i32 = chars.as_str().parse().ok()?;
    let q = i32::from(f as u8 - b'a') - 3;
    let r = r_max(q) - rank + 1;
    if r < r_min(q) || r > r_max(q) {
        return None;
    }
    cell_at(q, r)
}

fn forward(p: Player) -> i32 {
    if p == Player::One {
        -1
    } else {
        1
    }
}

fn promotes(p: Player, i: usize) -> bool {
    let (q, r) = axial(i);
    match p {
        Player::One => r == r_min(q),
        Player::Two => r == r_max(q),
    }
}

fn board_hash(cells: &[Option<Piece>; 37], turn: Player) -> u64 {
    let mut h = FxHasher::default();
    cells.hash(&mut h);
    turn.hash(&mut h);
    h.finish()
}

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

    fn standard() -> Vec<(i32, i32, Piece)> {
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

    fn with_history(cells: [Option<Piece>; 37], turn: Player, halfmoves: u8) -> HexchessPosition {
        let mut history = [0u64; HISTORY];
        history[0] = board_hash(&cells, turn);
        HexchessPosition {
            cells,
            turn,
            halfmoves,
            history_len: 1,
            history,
        }
    }

    /// Moves of the piece on `from` that may leave its own king attacked.
    fn pseudo(&self, pos: &HexchessPosition, from: usize, captures_only: bool, out: &mut Vec<HexchessMove>) {
        let Some(piece) = pos.cells[from] else { return };
        let me = piece.owner;
        let (q, r) = axial(from);
        let add = |to: usize, out: &mut Vec<HexchessMove>| {
            if piece.kind == Kind::Pawn && promotes(me, to) {
                for k in [Kind::Rook, Kind::Bishop, Kind::Knight] {
                    out.push(HexchessMove {
                        from: from as u8,
                        to: to as u8,
                        promotion: Some(k),
                    });
                }
            } else {
                out.push(HexchessMove {
                    from: from as u8,
                    to: to as u8,
                    promotion: None,
                });
            }
        };
        let target = |to: usize| pos.cells[to].map(|p| p.owner);
        match piece.kind {
            Kind::Pawn => {
                let d = forward(me);
                if !captures_only {
                    if let Some(to) = cell_at(q, r + d) {
                        if target(to).is_none() {
                            add(to, out);
                        }
                    }
                }
                let diagonals = if me == Player::One {
                    [(1, -2), (-1, -1)]
                } else {
                    [(-1, 2), (1, 1)]
                };
                for (dq, dr) in diagonals {
                    if let Some(to) = cell_at(q + dq, r + dr) {
                        if target(to) == Some(me.other()) {
                            add(to, out);
                        }
                    }
                }
            }
            Kind::Knight | Kind::King => {
                let steps: Vec<(i32, i32)> = if piece.kind == Kind::Knight {
                    KNIGHT.to_vec()
                } else {
                    ROOK.iter().chain(BISHOP.iter()).copied().collect()
                };
                for (dq, dr) in steps {
                    if let Some(to) = cell_at(q + dq, r + dr) {
                        match target(to) {
                            Some(o) if o == me => {}
                            Some(_) => add(to, out),
                            None if !captures_only => add(to, out),
                            None => {}
                        }
                    }
                }
            }
            Kind::Rook | Kind::Bishop => {
                let dirs = if piece.kind == Kind::Rook { ROOK } else { BISHOP };
                for (dq, dr) in dirs {
                    let (mut a, mut b) = (q + dq, r + dr);
                    while let Some(to) = cell_at(a, b) {
                        match target(to) {
                            Some(o) => {
                                if o != me {
                                    add(to, out);
                                }
                                break;
                            }
                            None => {
                                if !captures_only {
                                    add(to, out);
                                }
                            }
                        }
                        a += dq;
                        b += dr;
                    }
                }
            }
        }
    }

    /// Whether `player`'s king is attacked in `pos`.
    pub fn in_check(&self, pos: &HexchessPosition, player: Player) -> bool {
        let Some(king) = (0..37).find(|&i| {
            pos.cells[i]
                == Some(Piece {
                    owner: player,
                    kind: Kind::King,
                })
        }) else {
            return false;
        };
        let mut moves = Vec::new();
        for i in 0..37 {
            if pos.cells[i].is_some_and(|p| p.owner != player) {
                self.pseudo(pos, i, true, &mut moves);
            }
        }
        moves.iter().any(|m| usize::from(m.to) == king)
    }

    fn apply(&self, pos: &HexchessPosition, mv: HexchessMove) -> HexchessPosition {
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
            next.history = [0; HISTORY];
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

    fn legal(&self, pos: &HexchessPosition, out: &mut Vec<HexchessMove>) {
        out.clear();
        let mut pseudo = Vec::new();
        for i in 0..37 {
            if pos.cells[i].is_some_and(|p| p.owner == pos.turn) {
                self.pseudo(pos, i, false, &mut pseudo);
            }
        }
        for mv in pseudo {
            if !self.in_check(&self.apply(pos, mv), pos.turn) {
                out.push(mv);
            }
        }
    }

    /// The destinations of the piece on `from` as if alone, by the move
    /// generator's own attack patterns (kings ignored): for tests.
    pub fn lone_destinations(&self, kind: Kind, from: usize) -> usize {
        let mut cells = [None; 37];
        cells[from] = Some(Piece {
            owner: Player::One,
            kind,
        });
        let pos = Self::with_history(cells, Player::One, 0);
        let mut out = Vec::new();
        self.pseudo(&pos, from, false, &mut out);
        out.dedup_by_key(|m| m.to);
        out.len()
    }

    fn san(&self, pos: &HexchessPosition, mv: HexchessMove) -> String {
        let kind = pos.cells[usize::from(mv.from)].map_or(Kind::Pawn, |p| p.kind);
        let capture = pos.cells[usize::from(mv.to)].is_some();
        let to = cell_name(usize::from(mv.to));
        let from = cell_name(usize::from(mv.from));
        let promo = mv.promotion.map_or(String::new(), |k| format!("={}", k.letter()));
        if kind == Kind::Pawn {
            return if capture {
                format!("{}x{to}{promo}", &from[..1])
            } else {
                format!("{to}{promo}")
            };
        }
        let mut legal = Vec::new();
        self.legal(pos, &mut legal);
        let others: Vec<u8> = legal
            .iter()
            .filter(|m| {
                m.to == mv.to && m.from != mv.from && pos.cells[usize::from(m.from)].map(|p| p.kind) == Some(kind)
            })
            .map(|m| m.from)
            .collect();
        let dis = if others.is_empty() {
            String::new()
        } else if others.iter().all(|&o| cell_name(usize::from(o))[..1] != from[..1]) {
            from[..1].to_string()
        } else {
            from.clone()
        };
        format!("{}{dis}{}{to}", kind.letter(), if capture { "x" } else { "" })
    }
}

impl Default for MiniHexchess {
    fn default() -> Self {
        Self::new()
    }
}

impl Game for MiniHexchess {
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

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::One => "White",
            Player::Two => "Black",
        }
    }

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

    fn turn(&self, pos: &HexchessPosition) -> Player {
        pos.turn
    }

    fn legal_moves(&self, pos: &HexchessPosition, out: &mut Vec<HexchessMove>) {
        if self.outcome(pos).is_over() {
            out.clear();
            return;
        }
        self.legal(pos, out);
    }

    fn play(&self, pos: &HexchessPosition, mv: HexchessMove) -> HexchessPosition {
        self.apply(pos, mv)
    }

    fn outcome(&self, pos: &HexchessPosition) -> Outcome {
        let mut moves = Vec::new();
        self.legal(pos, &mut moves);
        if moves.is_empty() {
            return if self.in_check(pos, pos.turn) {
                Outcome::Win(pos.turn.other())
            } else {
                Outcome::Draw
            };
        }
        let bare = pos.cells.iter().flatten().all(|p| p.kind == Kind::King);
        let len = usize::from(pos.history_len);
        let current = pos.history[len - 1];
        let repeats = pos.history[..len].iter().filter(|&&h| h == current).count();
        if bare || pos.halfmoves >= 100 || repeats >= 3 {
            return Outcome::Draw;
        }
        Outcome::Ongoing
    }

    fn move_name(&self, pos: &HexchessPosition, mv: HexchessMove) -> String {
        let mut name = self.san(pos, mv);
        let next = self.apply(pos, mv);
        match self.outcome(&next) {
            Outcome::Win(_) => name.push('#'),
            _ if self.in_check(&next, next.turn) => name.push('+'),
            _ => {}
        }
        name
    }

    fn parse_move(&self, pos: &HexchessPosition, text: &str) -> Result<HexchessMove, MoveError> {
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
        let (body, promo) = match clean.split_once('=') {
            Some((b, p)) => {
                let k = p.chars().next().and_then(Kind::from_letter);
                match k {
                    Some(k @ (Kind::Rook | Kind::Bishop | Kind::Knight)) => (b.to_string(), Some(k)),
                    _ => {
                        return Err(MoveError {
                            text: text.to_string(),
                            reason: "a pawn promotes to R, B or N (no queen)".to_string(),
                        })
                    }
                }
            }
            None => (clean.clone(), None),
        };
        let unreadable = || MoveError {
            text: text.to_string(),
            reason: "expected a move like d3d4, c6c7=N, Nf3 or exd5".to_string(),
        };
        // Coordinate form: two cell names.
        let lower = body.to_ascii_lowercase().replace('x', "");
        let split = lower
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c.is_ascii_lowercase())
            .map(|(i, _)| i);
        if let Some(i) = split {
            if let (Some(from), Some(to)) = (parse_cell(&lower[..i]), parse_cell(&lower[i..])) {
                let found: Vec<HexchessMove> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        usize::from(m.from) == from
                            && usize::from(m.to) == to
                            && (promo.is_none() || m.promotion == promo)
                    })
                    .collect();
                return match found.as_slice() {
                    [one] => Ok(*one),
                    [] => Err(self.illegal(pos, text, "no legal move from that cell to that cell")),
                    _ => Err(self.illegal(pos, text, "name the promotion, e.g. =N")),
                };
            }
        }
        // Short algebraic.
        let mut chars: Vec<char> = body.chars().filter(|&c| c != 'x').collect();
        let kind = match chars.first() {
            Some(&c) if c.is_ascii_uppercase() => {
                chars.remove(0);
                Kind::from_letter(c).ok_or_else(unreadable)?
            }
            _ => Kind::Pawn,
        };
        let digits = chars.iter().rev().take_while(|c| c.is_ascii_digit()).count();
        if chars.len() < digits + 1 || digits == 0 {
            return Err(unreadable());
        }
        let dest: String = chars[chars.len() - digits - 1..].iter().collect();
        let to = parse_cell(&dest).ok_or_else(unreadable)?;
        let hint: String = chars[..chars.len() - digits - 1].iter().collect();
        let found: Vec<HexchessMove> = moves
            .iter()
            .copied()
            .filter(|m| {
                usize::from(m.to) == to
                    && pos.cells[usize::from(m.from)].map(|p| p.kind) == Some(kind)
                    && (promo.is_none() || m.promotion == promo)
                    && cell_name(usize::from(m.from)).starts_with(hint.as_str())
            })
            .collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(self.illegal(pos, text, "no legal move matches")),
            _ => Err(self.illegal(pos, text, "ambiguous: name the starting cell or the promotion")),
        }
    }

    fn position_string(&self, pos: &HexchessPosition) -> String {
        // Files a to g, each from rank 1 up, '/'-separated; digits for empty runs.
        let mut files = Vec::new();
        let mut i = 0;
        for q in -3..=3 {
            let len = (r_max(q) - r_min(q) + 1) as usize;
            let mut s = String::new();
            let mut empty = 0;
            for k in 0..len {
                match pos.cells[i + k] {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(p.symbol());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            files.push(s);
            i += len;
        }
        let side = if pos.turn == Player::One { 'w' } else { 'b' };
        let history: Vec<String> = pos.history[..usize::from(pos.history_len)]
            .iter()
            .map(|h| format!("{h:x}"))
            .collect();
        format!("{} {side} {} {}", files.join("/"), pos.halfmoves, history.join(","))
    }

    fn parse_position(&self, text: &str) -> Result<HexchessPosition, PositionError> {
        let err = |reason: String| PositionError {
            text: text.to_string(),
            reason,
        };
        let expected = "expected the files a to g, each from rank 1 up (4, 5, 6, 7, 6, 5, 4 cells) separated by '/', using K R B N P (White), k r b n p (Black) and digits, then ' w' or ' b', the plies since a capture or pawn move, and the position hashes since then (or '-')";
        let parts: Vec<&str> = text.split_whitespace().collect();
        let (board, side, halfmoves, history) = match parts.as_slice() {
            [b, s] => (*b, *s, "0", None),
            [b, s, h] => (*b, *s, *h, None),
            [b, s, h, hist] => (*b, *s, *h, Some(*hist)),
            _ => return Err(err(expected.to_string())),
        };
        let turn = match side {
            "w" => Player::One,
            "b" => Player::Two,
            other => return Err(err(format!("side to move '{other}' is not 'w' or 'b'"))),
        };
        let files: Vec<&str> = board.split('/').collect();
        if files.len() != 7 {
            return Err(err(format!("found {} files; {expected}", files.len())));
        }
        let mut cells = [None; 37];
        let mut base = 0;
        for (k, file) in files.iter().enumerate() {
            let q = k as i32 - 3;
            let len = (r_max(q) - r_min(q) + 1) as usize;
            let mut at = 0usize;
            for c in file.chars() {
                if let Some(n) = c.to_digit(10) {
                    at += n as usize;
                } else if let Some(kind) = Kind::from_letter(c) {
                    if at >= len {
                        return Err(err(format!(
                            "file {} is longer than {len} cells",
                            char::from(b'a' + k as u8)
                        )));
                    }
                    let owner = if c.is_ascii_uppercase() {
                        Player::One
                    } else {
                        Player::Two
                    };
                    cells[base + at] = Some(Piece { owner, kind });
                    at += 1;
                } else {
                    return Err(err(format!("unexpected character '{c}'; {expected}")));
                }
            }
            if at != len {
                return Err(err(format!(
                    "file {} has {at} cells, not {len}",
                    char::from(b'a' + k as u8)
                )));
            }
            base += len;
        }
        let halfmoves: u8 = halfmoves.parse().ok().filter(|&h| h <= 100).ok_or_else(|| {
            err(format!(
                "plies since a capture or pawn move '{halfmoves}': expected 0 to 100"
            ))
        })?;
        let mut pos = Self::with_history(cells, turn, halfmoves);
        if let Some(list) = history.filter(|h| *h != "-") {
            let hashes: Result<Vec<u64>, _> = list.split(',').map(|h| u64::from_str_radix(h, 16)).collect();
            let hashes = hashes.map_err(|_| {
                err(format!(
                    "history '{list}': expected hexadecimal hashes separated by commas"
                ))
            })?;
            if hashes.is_empty() || hashes.len() > HISTORY || hashes.last() != Some(&pos.history[0]) {
                return Err(err(format!(
                    "history '{list}': must end with this position's own hash {:x}",
                    pos.history[0]
                )));
            }
            pos.history = [0; HISTORY];
            pos.history[..hashes.len()].copy_from_slice(&hashes);
            pos.history_len = hashes.len() as u8;
        }
        Ok(pos)
    }

    /// A box is the board and side to move: the fifty-move count and the
    /// repetition history (which decide draws, not moves) are dropped.
    fn box_key(&self, pos: &HexchessPosition) -> HexchessPosition {
        Self::with_history(pos.cells, pos.turn, 0)
    }

    fn too_large_for_exhaustive_search(&self) -> bool {
        true
    }

    fn diagram(&self, pos: &HexchessPosition) -> String {
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
        pos.cells
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

    fn move_cells(&self, _pos: &HexchessPosition, mv: HexchessMove) -> MoveCells {
        MoveCells {
            from: Some(usize::from(mv.from)),
            to: Some(usize::from(mv.to)),
        }
    }
}
