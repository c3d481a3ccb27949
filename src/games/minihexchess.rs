//! Mini Hexchess (Dave McCooey, 1997): 37 hexagonal cells, one king, rook,
//! bishop, knight and five pawns a side.

use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HexchessPosition {
    pub cells: [Option<Piece>; 37],
    pub turn: Player,
    pub halfmoves: u8,
    history_len: u8,
    history: [u64; HISTORY],
}

/// Hashed by hand: a machine's index hashes every box key, and the derived
/// hash went through all nine hundred bytes, piece by piece. This one packs
/// the cells into three words and takes only the history in use; equal
/// positions have equal fields, so equal hashes.
impl Hash for HexchessPosition {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut packed = [0u64; 3];
        for (c, p) in self.cells.iter().enumerate() {
            // Four bits a cell: 0 empty, else 1 + owner * 5 + kind.
            let code = p.map_or(0, |p| 1 + 5 * p.owner.index() as u64 + p.kind as u64);
            packed[c / 16] |= code << (4 * (c % 16));
        }
        for word in packed {
            state.write_u64(word);
        }
        state.write_u8(self.turn as u8);
        state.write_u8(self.halfmoves);
        state.write_u8(self.history_len);
        for &h in &self.history[..usize::from(self.history_len)] {
            state.write_u64(h);
        }
    }
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

// ---- Precomputed geometry ----
//
// Cells are indices 0..37 (files a to g, each from rank 1 up, as in
// `CELLS`). Every question the move generator asks of the board's shape is
// answered by a table lookup here, built once at compile time: the neighbour
// in a direction, a piece's leaps, which line through the king a cell is on.

/// No cell: a step off the board in the tables below.
const NONE: u8 = u8::MAX;

/// The twelve directions: 0..6 through cell edges (the rook's, in `ROOK`
/// order), 6..12 through cell corners (the bishop's, in `BISHOP` order).
/// The king steps once in any of them.
const DIRECTIONS: [(i32, i32); 12] = {
    let mut out = [(0, 0); 12];
    let mut d = 0;
    while d < 6 {
        out[d] = ROOK[d];
        out[d + 6] = BISHOP[d];
        d += 1;
    }
    out
};

/// White's pawn steps in direction 0, (0, −1); Black's in 3, (0, 1).
const PAWN_STEP: [usize; 2] = [0, 3];

/// The corner directions a pawn captures in, in the generator's order:
/// White (1, −2) then (−1, −1); Black (−1, 2) then (1, 1).
const PAWN_CAPTURES: [[usize; 2]; 2] = [[6, 11], [9, 8]];

/// The direction opposite `d` (a rook direction stays one, so does a bishop's).
const fn opposite(d: usize) -> usize {
    if d < 6 {
        (d + 3) % 6
    } else {
        6 + (d - 6 + 3) % 6
    }
}

/// The cell index at axial (q, r), or `NONE` off the board.
const fn index_at(q: i32, r: i32) -> u8 {
    let mut i = 0;
    while i < 37 {
        if CELLS[i].0 as i32 == q && CELLS[i].1 as i32 == r {
            return i as u8;
        }
        i += 1;
    }
    NONE
}

/// `STEP[c][d]`: the cell one step from `c` in direction `d`, or `NONE` off
/// the board. A slide walks it until `NONE` or an occupied cell.
const STEP: [[u8; 12]; 37] = {
    let mut out = [[NONE; 12]; 37];
    let mut c = 0;
    while c < 37 {
        let mut d = 0;
        while d < 12 {
            out[c][d] = index_at(CELLS[c].0 as i32 + DIRECTIONS[d].0, CELLS[c].1 as i32 + DIRECTIONS[d].1);
            d += 1;
        }
        c += 1;
    }
    out
};

/// Up to twelve cells a piece leaps to from one cell, those on the board
/// only, in a fixed order.
#[derive(Clone, Copy)]
struct Leaps {
    len: u8,
    cells: [u8; 12],
}

impl Leaps {
    fn cells(&self) -> &[u8] {
        &self.cells[..usize::from(self.len)]
    }
}

/// `KNIGHT_LEAPS[c]`: the knight's destinations from `c` (one edge step, then
/// one corner step onward), in `KNIGHT` order. The pattern is its own
/// reverse, so these are also the cells a knight attacks `c` from.
const KNIGHT_LEAPS: [Leaps; 37] = {
    let mut out = [Leaps {
        len: 0,
        cells: [NONE; 12],
    }; 37];
    let mut c = 0;
    while c < 37 {
        let mut k = 0;
        while k < 12 {
            let to = index_at(CELLS[c].0 as i32 + KNIGHT[k].0, CELLS[c].1 as i32 + KNIGHT[k].1);
            if to != NONE {
                out[c].cells[out[c].len as usize] = to;
                out[c].len += 1;
            }
            k += 1;
        }
        c += 1;
    }
    out
};

/// `LINE[k][c]`: the direction from `k` in which a slide from `k` over empty
/// cells would reach `c`, or `NONE` if `c` is on none of the twelve lines
/// through `k`. A piece off every line through its king can never expose it.
const LINE: [[u8; 37]; 37] = {
    let mut out = [[NONE; 37]; 37];
    let mut k = 0;
    while k < 37 {
        let mut d = 0;
        while d < 12 {
            let mut c = STEP[k][d];
            while c != NONE {
                out[k][c as usize] = d as u8;
                c = STEP[c as usize][d];
            }
            d += 1;
        }
        k += 1;
    }
    out
};

/// The slider that attacks along direction `d`: the rook through edges, the
/// bishop through corners (Mini Hexchess has no queen).
fn slider(d: usize) -> Kind {
    if d < 6 {
        Kind::Rook
    } else {
        Kind::Bishop
    }
}

/// The set of one cell: bit `c` of a `u64` (37 cells fit in one word).
const fn bit(c: usize) -> u64 {
    1 << c
}

/// `KING_SET[c]`: the twelve cells (fewer at the edge) a king on `c` steps
/// to, which are also the cells a king attacks `c` from.
const KING_SET: [u64; 37] = {
    let mut out = [0; 37];
    let mut c = 0;
    while c < 37 {
        let mut d = 0;
        while d < 12 {
            if STEP[c][d] != NONE {
                out[c] |= bit(STEP[c][d] as usize);
            }
            d += 1;
        }
        c += 1;
    }
    out
};

/// `KNIGHT_SET[c]`: the cells a knight leaps to from `c`, and attacks `c` from.
const KNIGHT_SET: [u64; 37] = {
    let mut out = [0; 37];
    let mut c = 0;
    while c < 37 {
        let mut k = 0;
        while k < KNIGHT_LEAPS[c].len as usize {
            out[c] |= bit(KNIGHT_LEAPS[c].cells[k] as usize);
            k += 1;
        }
        c += 1;
    }
    out
};

/// `PAWN_ATTACKERS[p][c]`: the cells from which a pawn of player `p`
/// captures onto `c`: one step from `c` against each of its capture directions.
const PAWN_ATTACKERS: [[u64; 37]; 2] = {
    let mut out = [[0; 37]; 2];
    let mut p = 0;
    while p < 2 {
        let mut c = 0;
        while c < 37 {
            let mut k = 0;
            while k < 2 {
                let from = STEP[c][opposite(PAWN_CAPTURES[p][k])];
                if from != NONE {
                    out[p][c] |= bit(from as usize);
                }
                k += 1;
            }
            c += 1;
        }
        p += 1;
    }
    out
};

/// `RAY[c][d]`: every cell from `c` (not included) to the edge in direction `d`.
const RAY: [[u64; 12]; 37] = {
    let mut out = [[0; 12]; 37];
    let mut c = 0;
    while c < 37 {
        let mut d = 0;
        while d < 12 {
            let mut x = STEP[c][d];
            while x != NONE {
                out[c][d] |= bit(x as usize);
                x = STEP[x as usize][d];
            }
            d += 1;
        }
        c += 1;
    }
    out
};

/// `SLIDER_LINES[c]`: the cells a rook could attack `c` from along the six
/// edge lines (`[0]`), and a bishop along the six corner lines (`[1]`),
/// on an empty board.
const SLIDER_LINES: [[u64; 37]; 2] = {
    let mut out = [[0; 37]; 2];
    let mut c = 0;
    while c < 37 {
        let mut d = 0;
        while d < 12 {
            out[d / 6][c] |= RAY[c][d];
            d += 1;
        }
        c += 1;
    }
    out
};

/// `BETWEEN[a][b]`: the cells strictly between `a` and `b` when they share
/// a line (empty when they are neighbours), else empty: a slider on `b`
/// attacks `a` when these are all empty.
const BETWEEN: [[u64; 37]; 37] = {
    let mut out = [[0; 37]; 37];
    let mut a = 0;
    while a < 37 {
        let mut d = 0;
        while d < 12 {
            let mut passed = 0;
            let mut x = STEP[a][d];
            while x != NONE {
                out[a][x as usize] = passed;
                passed |= bit(x as usize);
                x = STEP[x as usize][d];
            }
            d += 1;
        }
        a += 1;
    }
    out
};

/// The board as sets of cells, built once a generation from the cell array:
/// which cells are occupied, by whom, by what kind.
#[derive(Clone, Copy)]
struct Sets {
    occupied: u64,
    owner: [u64; 2],
    kind: [u64; 5],
}

impl Sets {
    fn of(cells: &[Option<Piece>; 37]) -> Sets {
        // Without a branch a cell: an empty cell goes to the spare last slots.
        let mut owner = [0; 3];
        let mut kind = [0; 6];
        for (c, p) in cells.iter().enumerate() {
            let (o, k) = p.map_or((2, 5), |p| (p.owner.index(), p.kind as usize));
            owner[o] |= bit(c);
            kind[k] |= bit(c);
        }
        Sets {
            occupied: owner[0] | owner[1],
            owner: [owner[0], owner[1]],
            kind: [kind[0], kind[1], kind[2], kind[3], kind[4]],
        }
    }

    /// The cells of `owner`'s pieces of `kind`.
    fn pieces(&self, owner: Player, kind: Kind) -> u64 {
        self.owner[owner.index()] & self.kind[kind as usize]
    }

    /// The sets after `piece` moves from `from` to `to`, taking whatever stood there.
    fn after(&self, piece: Piece, from: usize, to: usize) -> Sets {
        let keep = !(bit(from) | bit(to));
        let mut next = Sets {
            occupied: (self.occupied & keep) | bit(to),
            owner: self.owner.map(|s| s & keep),
            kind: self.kind.map(|s| s & keep),
        };
        next.owner[piece.owner.index()] |= bit(to);
        next.kind[piece.kind as usize] |= bit(to);
        next
    }

    /// Whether a piece of `by` could capture on `target` (is attacking it),
    /// looking outward from `target`: the knight, pawn and king cells that
    /// reach it, and each enemy slider on a line through it with nothing between.
    fn attacked(&self, target: usize, by: Player) -> bool {
        if KNIGHT_SET[target] & self.pieces(by, Kind::Knight) != 0
            || PAWN_ATTACKERS[by.index()][target] & self.pieces(by, Kind::Pawn) != 0
            || KING_SET[target] & self.pieces(by, Kind::King) != 0
        {
            return true;
        }
        let mut sliders = (SLIDER_LINES[0][target] & self.pieces(by, Kind::Rook))
            | (SLIDER_LINES[1][target] & self.pieces(by, Kind::Bishop));
        while sliders != 0 {
            let s = sliders.trailing_zeros() as usize;
            if BETWEEN[target][s] & self.occupied == 0 {
                return true;
            }
            sliders &= sliders - 1;
        }
        false
    }
}

/// Whether `player` has a pawn-promotion cell at `c`: the far cell of its file,
/// where a pawn has no step forward left.
fn promotes(p: Player, c: usize) -> bool {
    STEP[c][PAWN_STEP[p.index()]] == NONE
}

/// What decides whether a move leaves the mover's own king attacked.
enum KingSafety {
    /// No king: every move is allowed.
    NoKing,
    /// One king on `king`, not attacked: only a move of the king itself,
    /// or of a piece off a line through it, needs a closer look.
    Safe { king: usize, me: Player },
    /// In check, or more than one king (a hand-made position): try each
    /// move and look at the first king (lowest cell) afterwards.
    Trial { me: Player },
}

impl KingSafety {
    fn new(sets: &Sets, me: Player) -> KingSafety {
        let kings = sets.pieces(me, Kind::King);
        if kings == 0 {
            return KingSafety::NoKing;
        }
        let king = kings.trailing_zeros() as usize;
        if kings.count_ones() == 1 && !sets.attacked(king, me.other()) {
            KingSafety::Safe { king, me }
        } else {
            KingSafety::Trial { me }
        }
    }

    /// Whether moving `piece` from `from` to `to` leaves the mover's king
    /// unattacked.
    fn allows(&self, sets: &Sets, piece: Piece, from: usize, to: usize) -> bool {
        match *self {
            KingSafety::NoKing => true,
            KingSafety::Safe { king, me } => {
                if from == king {
                    return !sets.after(piece, from, to).attacked(to, me.other());
                }
                // Only the line through the king that `from` leaves can open;
                // moving along that same line keeps it closed.
                let d = LINE[king][from];
                if d == NONE || LINE[king][to] == d {
                    return true;
                }
                let d = usize::from(d);
                let open = sets.occupied & !bit(from);
                let mut pinners = RAY[king][d] & sets.pieces(me.other(), slider(d));
                while pinners != 0 {
                    let s = pinners.trailing_zeros() as usize;
                    if BETWEEN[king][s] & open == 0 {
                        return false;
                    }
                    pinners &= pinners - 1;
                }
                true
            }
            KingSafety::Trial { me } => {
                let after = sets.after(piece, from, to);
                let kings = after.pieces(me, Kind::King);
                kings == 0 || !after.attacked(kings.trailing_zeros() as usize, me.other())
            }
        }
    }
}

/// The cell index at axial (q, r), if it is on the board.
pub fn cell_at(q: i32, r: i32) -> Option<usize> {
    if q.abs() > 3 || r.abs() > 3 || (q + r).abs() > 3 {
        return None;
    }
    Some(usize::from(index_at(q, r)))
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

    /// The destinations of the piece on `from` (owned by `piece.owner`),
    /// ignoring whether its own king is left attacked, in the generator's
    /// order: a pawn's step then its two captures; leaps in table order;
    /// slides direction by direction, nearest cell first.
    fn each_destination(
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
    fn each_legal_move(
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
    fn has_legal_move(pos: &HexchessPosition) -> bool {
        Self::each_legal_move(pos, |_| ControlFlow::Break(())).is_break()
    }

    /// A draw by rule (bare kings, fifty moves, threefold repetition), which
    /// holds unless the side to move is checkmated.
    fn drawn_by_rule(pos: &HexchessPosition) -> bool {
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
        let _ = Self::each_legal_move(pos, |m| {
            legal.push(m);
            ControlFlow::Continue(())
        });
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
