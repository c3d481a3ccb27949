//! Hexapawn on a W×H board (Gardner 1962, and its n×m generalisation),
//! with normal, Berolina or Berolina Plus pawns; its own winner-only solver.

mod about;
mod limits;
mod pawn;
pub mod solver;
mod table;

pub use pawn::Pawn;

use crate::error::InvalidValue;
use crate::game::{
    unknown_option, Game, GameSpec, MachinePreset, MoveError, Notation, Outcome, Player, PositionError,
    PositionErrorKind, Rules, Symmetric,
};
use crate::games::board::{cell_name, encode_ranks, parse_cell, split_cell, square_board};
use crate::picture::{self, Board, Look, MoveCells, Picture};
use crate::symmetry::Mirror;

/// Hexapawn with W files and H ranks: White's pawns fill rank 1, Black's
/// fill rank H; pawns step straight forward or capture diagonally forward
/// (or, Berolina pawns, the other way round: see [`Pawn`]); a player wins by
/// reaching the far rank or when the other cannot move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hexapawn {
    width: u8,
    height: u8,
    pawn: Pawn,
    board: u64,
    not_first_file: u64,
    not_last_file: u64,
    first_rank: u64,
    last_rank: u64,
}

/// A Hexapawn position: one bitboard a side (bit `rank * W + file`) and the
/// side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexapawnPosition {
    /// White's pawns, a bit a cell.
    pub white: u64,
    /// Black's pawns, a bit a cell.
    pub black: u64,
    /// The side to move.
    pub turn: Player,
}

/// A pawn move from one cell to another (cell = `rank * W + file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexapawnMove {
    /// The cell the pawn leaves.
    pub from: u8,
    /// The cell it moves to (a capture if an enemy pawn stood there).
    pub to: u8,
}

impl Hexapawn {
    /// The largest board side accepted.
    pub const MAX_SIDE: u8 = 16;

    /// A board of `width` files and `height` ranks (W ≥ 1, H ≥ 3, W×H ≤ 64)
    /// with normal pawns.
    pub fn new(width: u8, height: u8) -> Result<Hexapawn, InvalidValue> {
        Hexapawn::with_pawn(width, height, Pawn::Normal)
    }

    /// A board of `width` files and `height` ranks played with `pawn` pawns.
    ///
    /// ```
    /// use menace_core::prelude::*;
    /// use menace_core::Hexapawn;
    /// use menace_core::games::hexapawn::Pawn;
    /// let game = Hexapawn::with_pawn(3, 3, Pawn::Berolina).unwrap();
    /// assert_eq!(game.spec(), "hexapawn,pawn=berolina");
    /// // Four diagonal steps from the start: a1-b2, b1-a2, b1-c2, c1-b2.
    /// assert_eq!(game.legal_move_names(&game.start()), "ba2 cb2 ab2 bc2");
    /// ```
    pub fn with_pawn(width: u8, height: u8, pawn: Pawn) -> Result<Hexapawn, InvalidValue> {
        if !(1..=Self::MAX_SIDE).contains(&width) {
            let expected = format!("out of range: expected 1 to {} files", Self::MAX_SIDE);
            return Err(InvalidValue::new("width", width, expected));
        }
        if !(3..=Self::MAX_SIDE).contains(&height) {
            let expected = format!("out of range: expected 3 to {} ranks", Self::MAX_SIDE);
            return Err(InvalidValue::new("height", height, expected));
        }
        if u32::from(width) * u32::from(height) > 64 {
            let board = format!("{width}x{height}");
            return Err(InvalidValue::new(
                "board",
                board,
                "more than 64 cells: expected at most 64",
            ));
        }
        let (w, h) = (u32::from(width), u32::from(height));
        let cells = w * h;
        let board = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let mut file_a = 0u64;
        for r in 0..h {
            file_a |= 1 << (r * w);
        }
        let last_file = file_a << (w - 1);
        let first_rank = (1u64 << w) - 1;
        Ok(Hexapawn {
            width,
            height,
            pawn,
            board,
            not_first_file: board & !file_a,
            not_last_file: board & !last_file,
            first_rank,
            last_rank: first_rank << (w * (h - 1)),
        })
    }

    /// Number of files.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of ranks.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// How the pawns move.
    pub fn pawn(&self) -> Pawn {
        self.pawn
    }

    fn w(&self) -> u32 {
        u32::from(self.width)
    }

    fn arrived(&self, pos: &HexapawnPosition) -> Option<Player> {
        if pos.white & self.last_rank != 0 {
            Some(Player::One)
        } else if pos.black & self.first_rank != 0 {
            Some(Player::Two)
        } else {
            None
        }
    }

    /// The moves of the side to move as destination sets, each with the
    /// step from a move's cell to its destination (`to - from`), in the
    /// order the moves are listed: for normal pawns the pushes, then the
    /// captures to the left file and to the right file.
    fn targets(&self, pos: &HexapawnPosition) -> [(u64, i32); 5] {
        let w = self.w();
        let wi = w as i32;
        let empty = self.board & !(pos.white | pos.black);
        let (mine, theirs) = match pos.turn {
            Player::One => (pos.white, pos.black),
            Player::Two => (pos.black, pos.white),
        };
        let left = mine & self.not_first_file;
        let right = mine & self.not_last_file;
        // Forward, forward-left and forward-right, as the mover sees them.
        let (ahead, ahead_left, ahead_right, fwd) = match pos.turn {
            Player::One => (mine << w, left << (w - 1), right << (w + 1), wi),
            Player::Two => (mine >> w, left >> (w + 1), right >> (w - 1), -wi),
        };
        match self.pawn {
            Pawn::Normal => [
                (ahead & empty, fwd),
                (ahead_left & theirs, fwd - 1),
                (ahead_right & theirs, fwd + 1),
                (0, 0),
                (0, 0),
            ],
            Pawn::Berolina | Pawn::BerolinaPlus => {
                let sideways = self.pawn == Pawn::BerolinaPlus;
                let side = |set: u64| if sideways { set & theirs } else { 0 };
                [
                    (ahead_left & empty, fwd - 1),
                    (ahead_right & empty, fwd + 1),
                    (ahead & theirs, fwd),
                    (side(left >> 1), -1),
                    (side(right << 1), 1),
                ]
            }
        }
    }

    /// Whether the side to move has no move at all.
    fn stuck(&self, pos: &HexapawnPosition) -> bool {
        self.targets(pos).iter().all(|(set, _)| *set == 0)
    }

    fn is_capture(&self, pos: &HexapawnPosition, mv: HexapawnMove) -> bool {
        (pos.white | pos.black) & (1u64 << mv.to) != 0
    }

    fn cell(&self, index: u8) -> String {
        cell_name(u32::from(index) % self.w(), u32::from(index) / self.w())
    }

    fn cell_index(&self, text: &str) -> Option<u8> {
        let (f, r) = parse_cell(text)?;
        (f < self.w() && r < u32::from(self.height)).then(|| (r * self.w() + f) as u8)
    }

    fn mirror_bits(&self, bits: u64) -> u64 {
        let w = self.w();
        let mut out = 0u64;
        let mut rest = bits;
        while rest != 0 {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            let (f, r) = (i % w, i / w);
            out |= 1u64 << (r * w + (w - 1 - f));
        }
        out
    }
}

impl Rules for Hexapawn {
    type Position = HexapawnPosition;
    type Move = HexapawnMove;

    fn spec(&self) -> String {
        let mut spec = if (self.width, self.height) == (3, 3) {
            "hexapawn".to_string()
        } else {
            format!("hexapawn:{}x{}", self.width, self.height)
        };
        // A normal game's spec stays as it always was.
        if self.pawn != Pawn::Normal {
            spec.push_str(",pawn=");
            spec.push_str(self.pawn.name());
        }
        spec
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::One => "White",
            Player::Two => "Black",
        }
    }

    fn start(&self) -> HexapawnPosition {
        HexapawnPosition {
            white: self.first_rank,
            black: self.last_rank,
            turn: Player::One,
        }
    }

    fn turn(&self, pos: &HexapawnPosition) -> Player {
        pos.turn
    }

    fn legal_moves(&self, pos: &HexapawnPosition, out: &mut Vec<HexapawnMove>) {
        out.clear();
        if self.arrived(pos).is_some() {
            return;
        }
        for (set, delta) in self.targets(pos) {
            let mut rest = set;
            while rest != 0 {
                let to = rest.trailing_zeros() as i32;
                rest &= rest - 1;
                out.push(HexapawnMove {
                    from: (to - delta) as u8,
                    to: to as u8,
                });
            }
        }
    }

    /// White's cells, Black's above them, the side to move on top: boards
    /// of at most 31 cells.
    fn pack(&self, pos: &HexapawnPosition) -> Option<u64> {
        let cells = u32::from(self.width) * u32::from(self.height);
        (cells <= 31).then(|| pos.white | pos.black << cells | u64::from(pos.turn == Player::Two) << (2 * cells))
    }

    fn play(&self, pos: &HexapawnPosition, mv: HexapawnMove) -> HexapawnPosition {
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let mut next = *pos;
        match pos.turn {
            Player::One => {
                next.white = (pos.white & !from) | to;
                next.black = pos.black & !to;
            }
            Player::Two => {
                next.black = (pos.black & !from) | to;
                next.white = pos.white & !to;
            }
        }
        next.turn = pos.turn.other();
        next
    }

    fn outcome(&self, pos: &HexapawnPosition) -> Outcome {
        if let Some(player) = self.arrived(pos) {
            return Outcome::Win(player);
        }
        if self.stuck(pos) {
            Outcome::Win(pos.turn.other())
        } else {
            Outcome::Ongoing
        }
    }
}

crate::games::board::position_is_box_key!(Hexapawn);

impl Symmetric for Hexapawn {
    type Symmetry = Mirror;

    fn map_position(&self, pos: &HexapawnPosition, sym: Mirror) -> HexapawnPosition {
        if sym == Mirror::Identity {
            return *pos;
        }
        HexapawnPosition {
            white: self.mirror_bits(pos.white),
            black: self.mirror_bits(pos.black),
            turn: pos.turn,
        }
    }

    fn map_move(&self, mv: HexapawnMove, sym: Mirror) -> HexapawnMove {
        if sym == Mirror::Identity {
            return mv;
        }
        let w = self.w() as u8;
        let mirror = |c: u8| (c / w) * w + (w - 1 - c % w);
        HexapawnMove {
            from: mirror(mv.from),
            to: mirror(mv.to),
        }
    }
}

impl Notation for Hexapawn {
    /// A step is its destination (`b2`), or for a Berolina pawn, whose step
    /// is diagonal, the file it comes from and its destination (`ab2`); a
    /// capture is the capturing pawn's file, `x` and the cell (`axb2`
    /// diagonally, `bxb2` straight ahead, `axb1` sideways).
    fn move_name(&self, pos: &HexapawnPosition, mv: HexapawnMove) -> String {
        let file = &self.cell(mv.from)[..1];
        let mut name = if self.is_capture(pos, mv) {
            format!("{file}x{}", self.cell(mv.to))
        } else if self.pawn == Pawn::Normal {
            self.cell(mv.to)
        } else {
            format!("{file}{}", self.cell(mv.to))
        };
        if self.outcome(&self.play(pos, mv)) == Outcome::Win(pos.turn) {
            name.push('#');
        }
        name
    }

    fn parse_move(&self, pos: &HexapawnPosition, text: &str) -> Result<HexapawnMove, MoveError> {
        let clean = text.trim().trim_end_matches(['#', '+', '!', '?']).to_ascii_lowercase();
        let unreadable = || {
            let expected = match self.pawn {
                Pawn::Normal => "expected a step like b2, a capture like axb2, or a from-to move like b1b2 or a3-b2",
                Pawn::Berolina | Pawn::BerolinaPlus => {
                    "expected a step like ab2 or b2, a capture like bxb2 or xb2, or a from-to move like a1b2 or b3-b2"
                }
            };
            MoveError::unreadable(text, expected)
        };
        // A cell name off this board is said to be, not called unreadable.
        let on_board = |cell: &str| match parse_cell(cell) {
            Some(_) => self.cell_index(cell).ok_or_else(|| {
                self.illegal(
                    pos,
                    text,
                    &format!(
                        "{cell} is off the board: files a to {}, ranks 1 to {}",
                        char::from(b'a' + self.width - 1),
                        self.height
                    ),
                )
            }),
            None => Err(unreadable()),
        };
        let moves = self.moves(pos);
        let pick = |pred: &dyn Fn(&HexapawnMove) -> bool, what: &str| -> Result<HexapawnMove, MoveError> {
            let found: Vec<HexapawnMove> = moves.iter().copied().filter(|m| pred(m)).collect();
            match found.as_slice() {
                [one] => Ok(*one),
                [] => Err(self.illegal(pos, text, &format!("no legal {what}"))),
                _ => Err(self.ambiguous(pos, text, "name the cell it moves from", &found)),
            }
        };
        // Coordinate forms: b1b2, a3-b2, a3xb2.
        if let Some((first, rest)) = split_cell(&clean) {
            if !rest.is_empty() {
                let second = rest.strip_prefix(['-', 'x']).unwrap_or(rest);
                let from = on_board(first)?;
                let to = on_board(second)?;
                return pick(&|m| m.from == from && m.to == to, "move from that cell to that cell");
            }
        }
        let w = self.w();
        // Capture form: axb2 (file of the capturing pawn, then the cell), or xb2.
        if let Some((file, cell)) = clean.split_once('x') {
            let to = on_board(cell)?;
            if file.is_empty() {
                return pick(&|m| m.to == to && self.is_capture(pos, *m), "capture");
            }
            let (f, _) = parse_cell(&format!("{file}1")).ok_or_else(unreadable)?;
            return pick(
                &|m| m.to == to && u32::from(m.from) % w == f && self.is_capture(pos, *m),
                "capture",
            );
        }
        // Step form with the file it comes from: ab2.
        if let Some(cell) = clean.get(1..).filter(|c| parse_cell(c).is_some()) {
            let (f, _) = parse_cell(&format!("{}1", &clean[..1])).ok_or_else(unreadable)?;
            let to = on_board(cell)?;
            return pick(
                &|m| m.to == to && u32::from(m.from) % w == f && !self.is_capture(pos, *m),
                "step from that file to that cell",
            );
        }
        // Destination only: the step (or the only move) landing there.
        let to = on_board(&clean)?;
        pick(&|m| m.to == to && !self.is_capture(pos, *m), "step to that cell")
            .or_else(|e| pick(&|m| m.to == to, "move to that cell").map_err(|_| e))
    }

    fn position_string(&self, pos: &HexapawnPosition) -> String {
        let w = self.w() as usize;
        let board = encode_ranks(w, usize::from(self.height), |f, r| {
            let bit = 1u64 << (r * w + f);
            if pos.white & bit != 0 {
                Some('P')
            } else if pos.black & bit != 0 {
                Some('p')
            } else {
                None
            }
        });
        let side = if pos.turn == Player::One { 'w' } else { 'b' };
        format!("{board} {side}")
    }

    fn parse_position(&self, text: &str) -> Result<HexapawnPosition, PositionError> {
        let err = |kind, reason: String| PositionError::new(text, kind, reason);
        let expected = format!(
            "expected {} ranks of {} cells from rank {} down to 1, separated by '/', using P, p and digits, then ' w' or ' b' (like '{}')",
            self.height,
            self.width,
            self.height,
            self.position_string(&self.start())
        );
        let mut parts = text.split_whitespace();
        let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(err(PositionErrorKind::Form, expected));
        };
        let turn = match side {
            "w" => Player::One,
            "b" => Player::Two,
            other => {
                return Err(err(
                    PositionErrorKind::SideToMove,
                    format!("side to move '{other}' is not 'w' or 'b'"),
                ))
            }
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != usize::from(self.height) {
            return Err(err(
                PositionErrorKind::RowCount,
                format!("found {} ranks; {expected}", rows.len()),
            ));
        }
        let (mut white, mut black) = (0u64, 0u64);
        for (i, row) in rows.iter().enumerate() {
            let r = u32::from(self.height) - 1 - i as u32;
            let mut f = 0u32;
            let mut digits = String::new();
            let flush = |digits: &mut String, f: &mut u32| {
                if !digits.is_empty() {
                    *f += digits.parse::<u32>().unwrap_or(u32::MAX / 2);
                    digits.clear();
                }
            };
            for c in row.chars() {
                match c {
                    '0'..='9' => digits.push(c),
                    'P' | 'p' => {
                        flush(&mut digits, &mut f);
                        if f >= self.w() {
                            return Err(err(
                                PositionErrorKind::RowLength,
                                format!("rank {} is longer than {} cells", r + 1, self.width),
                            ));
                        }
                        let bit = 1u64 << (r * self.w() + f);
                        if c == 'P' {
                            white |= bit;
                        } else {
                            black |= bit;
                        }
                        f += 1;
                    }
                    other => {
                        return Err(err(
                            PositionErrorKind::UnknownPiece,
                            format!("unexpected character '{other}' in rank {}; {expected}", r + 1),
                        ))
                    }
                }
            }
            flush(&mut digits, &mut f);
            if f != self.w() {
                return Err(err(
                    PositionErrorKind::RowLength,
                    format!("rank {} has {f} cells, not {}", r + 1, self.width),
                ));
            }
        }
        Ok(HexapawnPosition { white, black, turn })
    }

    fn diagram(&self, pos: &HexapawnPosition) -> String {
        let mut out = String::new();
        let label_width = self.height.to_string().len();
        for r in (0..u32::from(self.height)).rev() {
            out.push_str(&format!("{:>label_width$} |", r + 1));
            for f in 0..self.w() {
                let bit = 1u64 << (r * self.w() + f);
                let c = if pos.white & bit != 0 {
                    'P'
                } else if pos.black & bit != 0 {
                    'p'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str(&" ".repeat(label_width + 2));
        for f in 0..self.w() {
            out.push(' ');
            out.push_str(&cell_name(f, 0)[..1]);
        }
        out.push('\n');
        out
    }
}

impl GameSpec for Hexapawn {
    const NAMES: &'static [&'static str] = &["hexapawn", "octopawn"];
    const FORMS: &'static str =
        "hexapawn, hexapawn:WxH (e.g. hexapawn:4x4; pawns pawn=normal|berolina|berolina-plus, e.g. hexapawn:4x4,pawn=berolina)";
    const EXAMPLES: &'static [&'static str] = &[
        "hexapawn",
        "octopawn",
        "hexapawn:3x4",
        "hexapawn,pawn=berolina",
        "hexapawn:4x4,pawn=berolina-plus",
    ];

    fn from_spec(name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue> {
        let mut pawn = Pawn::Normal;
        for opt in options.into_iter().flat_map(|o| o.split(',')) {
            match opt.trim().split_once('=') {
                Some(("pawn", kind)) => pawn = Pawn::parse(kind)?,
                _ => {
                    return Err(unknown_option(
                        opt,
                        &format!("{name} takes pawn=normal, pawn=berolina or pawn=berolina-plus"),
                    ))
                }
            }
        }
        let (w, h) = match size {
            None if name == "octopawn" => (4, 4),
            None => (3, 3),
            Some(s) => parse_dims(s)
                .ok_or_else(|| InvalidValue::new("size", s, "not WxH: expected files x ranks, like hexapawn:4x4"))?,
        };
        Hexapawn::with_pawn(w, h, pawn)
    }

    /// Gardner's HER played Black (the side that wins on 3×3).
    fn machine_side(&self) -> Player {
        Player::Two
    }

    const SIDE_WINS: bool = true;

    fn machine_name(&self) -> &'static str {
        "HER"
    }

    fn machine_preset(&self) -> MachinePreset {
        MachinePreset::Gardner
    }
}

/// A lower bound on the canonical positions (not over) of either side to
/// move that normal Hexapawn on `width` × `height` reaches: in each file
/// White's pawn pushed to rank `a` and Black's to rank `b` below it, with as
/// many pushes by White as by Black (White to move) or one more (Black to
/// move), and some file still open so that the side to move can push. Any
/// such position is reached by playing the pushes in turn; halved for the
/// mirror, and the smaller of the two sides to move.
///
/// ```
/// use menace_core::games::hexapawn::pushes_only;
/// // 3×3, Black to move: a2, b2 or c2 pushed, 3 positions, 2 up to the mirror.
/// assert_eq!(pushes_only(3, 3), 1.0); // (White to move: 7; Black: 3) halved
/// assert!(pushes_only(8, 8) > 1e9);
/// ```
pub fn pushes_only(width: u8, height: u8) -> f64 {
    let h = i64::from(height);
    let span = i64::from(width) * h;
    // now[open][pushes by White - pushes by Black + span]: ways over the files so far.
    let mut now = [vec![0f64; (2 * span + 1) as usize], vec![0f64; (2 * span + 1) as usize]];
    now[0][span as usize] = 1.0;
    for _ in 0..width {
        let mut next = [vec![0f64; now[0].len()], vec![0f64; now[0].len()]];
        for (open, counts) in now.iter().enumerate() {
            for (i, &c) in counts.iter().enumerate() {
                if c == 0.0 {
                    continue;
                }
                // White on rank a (from 0), Black on rank b > a; neither on its far rank.
                for a in 0..h - 1 {
                    for b in (a + 1).max(1)..h {
                        let d = a - (h - 1 - b);
                        let j = (i as i64 + d) as usize;
                        let o = open | usize::from(b - a >= 2);
                        next[o][j] += c;
                    }
                }
            }
        }
        now = next;
    }
    let white_to_move = now[1][span as usize];
    let black_to_move = now[1][(span + 1) as usize];
    (white_to_move.min(black_to_move) / 2.0).floor()
}

fn parse_dims(s: &str) -> Option<(u8, u8)> {
    let (w, h) = s.split_once(['x', '×'])?;
    Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
}

impl Picture for Hexapawn {
    fn board(&self) -> Board {
        square_board(self.w(), u32::from(self.height), true, ["#fafafa", "#222222"])
    }

    fn pieces(&self, pos: &HexapawnPosition) -> Vec<picture::Piece> {
        let mut out = Vec::new();
        for (bits, owner) in [(pos.white, Player::One), (pos.black, Player::Two)] {
            let mut rest = bits;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out.push(picture::Piece {
                    cell,
                    owner,
                    look: Look::Pawn,
                    marked: false,
                });
            }
        }
        out
    }

    fn move_cells(&self, _pos: &HexapawnPosition, mv: HexapawnMove) -> MoveCells {
        MoveCells {
            from: Some(usize::from(mv.from)),
            to: Some(usize::from(mv.to)),
        }
    }
}
