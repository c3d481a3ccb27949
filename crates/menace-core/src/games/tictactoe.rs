//! Noughts and crosses (Michie's MENACE plays X).

use crate::error::InvalidValue;
use crate::game::{
    no_size_or_options, About, Game, GameSpec, MoveError, Notation, Outcome, Player, PositionError, PositionErrorKind,
    Rules, Symmetric,
};
use crate::games::board::{cell_name, parse_cell, square_board};
use crate::picture::{self, Board, Look, MoveCells, Picture};
use crate::search::SearchLimits;
use crate::symmetry::Square;

/// Noughts and crosses on 3×3: X moves first, three in a row wins, a full
/// board without a line is a draw. Cells `a1`..`c3` (file, rank), or `1`..`9`
/// in reading order from the top left (1 = a3, 9 = c1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe;

/// A position: one 9-bit set a side (bit `rank * 3 + file`) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TicTacToePosition {
    /// X's marks, a bit a cell.
    pub x: u16,
    /// O's marks, a bit a cell.
    pub o: u16,
    /// Who marks next.
    pub turn: Player,
}

/// A mark on cell `rank * 3 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TicTacToeMove(pub u8);

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// The 8 symmetries of the square as cell permutations: image of cell i.
const SYMMETRIES: [[u8; 9]; 8] = build_symmetries();

const fn build_symmetries() -> [[u8; 9]; 8] {
    let mut table = [[0u8; 9]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 9 {
            let (f, r) = ((i % 3) as i32, (i / 3) as i32);
            // Rotate s % 4 quarter turns, then reflect across the vertical axis when s >= 4.
            let (mut x, mut y) = (f, r);
            let mut k = 0;
            while k < s % 4 {
                let t = x;
                x = 2 - y;
                y = t;
                k += 1;
            }
            if s >= 4 {
                x = 2 - x;
            }
            table[s][i] = (y * 3 + x) as u8;
            i += 1;
        }
        s += 1;
    }
    table
}

fn map_bits(bits: u16, perm: &[u8; 9]) -> u16 {
    let mut out = 0;
    for (i, &to) in perm.iter().enumerate() {
        if bits & (1 << i) != 0 {
            out |= 1 << to;
        }
    }
    out
}

fn has_line(bits: u16) -> bool {
    for line in LINES {
        if bits & line == line {
            return true;
        }
    }
    false
}

impl TicTacToe {
    fn cell(text: &str) -> Option<u8> {
        if let Ok(n) = text.parse::<u8>() {
            return (1..=9).contains(&n).then(|| {
                let k = n - 1;
                (2 - k / 3) * 3 + k % 3
            });
        }
        let (f, r) = parse_cell(text)?;
        (f < 3 && r < 3).then_some((r * 3 + f) as u8)
    }
}

impl Rules for TicTacToe {
    type Position = TicTacToePosition;
    type Move = TicTacToeMove;

    fn spec(&self) -> String {
        "tictactoe".to_string()
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::One => "X",
            Player::Two => "O",
        }
    }

    fn start(&self) -> TicTacToePosition {
        TicTacToePosition {
            x: 0,
            o: 0,
            turn: Player::One,
        }
    }

    fn turn(&self, pos: &TicTacToePosition) -> Player {
        pos.turn
    }

    fn legal_moves(&self, pos: &TicTacToePosition, out: &mut Vec<TicTacToeMove>) {
        out.clear();
        if self.outcome(pos).is_over() {
            return;
        }
        let mut empty = FULL & !(pos.x | pos.o);
        while empty != 0 {
            out.push(TicTacToeMove(empty.trailing_zeros() as u8));
            empty &= empty - 1;
        }
    }

    fn play(&self, pos: &TicTacToePosition, mv: TicTacToeMove) -> TicTacToePosition {
        let mut next = *pos;
        match pos.turn {
            Player::One => next.x |= 1 << mv.0,
            Player::Two => next.o |= 1 << mv.0,
        }
        next.turn = pos.turn.other();
        next
    }

    fn outcome(&self, pos: &TicTacToePosition) -> Outcome {
        if has_line(pos.x) {
            Outcome::Win(Player::One)
        } else if has_line(pos.o) {
            Outcome::Win(Player::Two)
        } else if pos.x | pos.o == FULL {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }
}

crate::games::board::position_is_box_key!(TicTacToe);

impl Symmetric for TicTacToe {
    type Symmetry = Square;

    fn map_position(&self, pos: &TicTacToePosition, sym: Square) -> TicTacToePosition {
        let perm = &SYMMETRIES[sym.index()];
        TicTacToePosition {
            x: map_bits(pos.x, perm),
            o: map_bits(pos.o, perm),
            turn: pos.turn,
        }
    }

    fn map_move(&self, mv: TicTacToeMove, sym: Square) -> TicTacToeMove {
        TicTacToeMove(SYMMETRIES[sym.index()][usize::from(mv.0)])
    }
}

impl Notation for TicTacToe {
    fn move_name(&self, _pos: &TicTacToePosition, mv: TicTacToeMove) -> String {
        cell_name(u32::from(mv.0 % 3), u32::from(mv.0 / 3))
    }

    fn parse_move(&self, pos: &TicTacToePosition, text: &str) -> Result<TicTacToeMove, MoveError> {
        let clean = text.trim().to_ascii_lowercase();
        let cell = Self::cell(&clean).ok_or_else(|| {
            MoveError::unreadable(
                text,
                "expected a cell a1..c3 or a number 1..9 (1 = a3 top left, 9 = c1 bottom right)",
            )
        })?;
        if self.outcome(pos).is_over() {
            return Err(MoveError::GameOver { text: text.to_string() });
        }
        if (pos.x | pos.o) & (1 << cell) != 0 {
            return Err(self.illegal(pos, text, "that cell is taken"));
        }
        Ok(TicTacToeMove(cell))
    }

    fn position_string(&self, pos: &TicTacToePosition) -> String {
        let mut rows = Vec::new();
        for r in (0..3).rev() {
            let row: String = (0..3)
                .map(|f| {
                    let bit = 1 << (r * 3 + f);
                    if pos.x & bit != 0 {
                        'x'
                    } else if pos.o & bit != 0 {
                        'o'
                    } else {
                        '.'
                    }
                })
                .collect();
            rows.push(row);
        }
        let side = if pos.turn == Player::One { 'x' } else { 'o' };
        format!("{} {side}", rows.join("/"))
    }

    fn parse_position(&self, text: &str) -> Result<TicTacToePosition, PositionError> {
        let err = |kind, reason: &str| PositionError::new(text, kind, reason);
        let expected = "expected three rows of x, o or . from rank 3 down to 1, separated by '/', then ' x' or ' o' (like 'x../.o./... x')";
        let mut parts = text.split_whitespace();
        let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(err(PositionErrorKind::Form, expected));
        };
        let turn = match side {
            "x" | "X" => Player::One,
            "o" | "O" => Player::Two,
            _ => {
                return Err(err(
                    PositionErrorKind::SideToMove,
                    "the side to move must be 'x' or 'o'",
                ))
            }
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 3 || rows.iter().any(|r| r.chars().count() != 3) {
            let kind = if rows.len() != 3 {
                PositionErrorKind::RowCount
            } else {
                PositionErrorKind::RowLength
            };
            return Err(err(kind, expected));
        }
        let (mut x, mut o) = (0u16, 0u16);
        for (i, row) in rows.iter().enumerate() {
            let r = 2 - i;
            for (f, c) in row.chars().enumerate() {
                let bit = 1 << (r * 3 + f);
                match c {
                    'x' | 'X' => x |= bit,
                    'o' | 'O' => o |= bit,
                    '.' => {}
                    _ => return Err(err(PositionErrorKind::UnknownPiece, expected)),
                }
            }
        }
        Ok(TicTacToePosition { x, o, turn })
    }

    fn diagram(&self, pos: &TicTacToePosition) -> String {
        let mut out = String::new();
        for r in (0..3).rev() {
            out.push_str(&format!("{} |", r + 1));
            for f in 0..3 {
                let bit = 1 << (r * 3 + f);
                let c = if pos.x & bit != 0 {
                    'X'
                } else if pos.o & bit != 0 {
                    'O'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("    a b c\n");
        out
    }
}

impl SearchLimits for TicTacToe {}

impl About for TicTacToe {
    fn title(&self) -> String {
        "Noughts and crosses".to_string()
    }

    fn rules(&self) -> Vec<String> {
        vec![
            "X moves first; the players take turns to put their mark in an empty cell.".to_string(),
            "Three in a row, across, down or diagonally, wins. A full board without a row is a draw.".to_string(),
            self.history(),
        ]
    }

    fn history(&self) -> String {
        "Donald Michie built MENACE, a machine of matchboxes that learns this game, in 1961.".to_string()
    }

    fn can_draw(&self) -> bool {
        true
    }

    fn short_name(&self) -> String {
        "tictactoe".to_string()
    }

    fn symmetry_words(&self) -> Option<&'static str> {
        Some("turned or reflected")
    }

    fn machine_history(&self) -> Option<&'static str> {
        Some("Donald Michie's Matchbox Educable Noughts And Crosses Engine (1961): a machine of matchboxes that learns noughts and crosses from its beads.")
    }
}

impl GameSpec for TicTacToe {
    const NAMES: &'static [&'static str] = &["tictactoe", "noughtsandcrosses", "ttt"];
    const FORMS: &'static str = "tictactoe";
    const EXAMPLES: &'static [&'static str] = &["tictactoe"];

    fn from_spec(_name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue> {
        no_size_or_options("noughts and crosses", size, options, "it is always 3x3")?;
        Ok(TicTacToe)
    }
}

impl Picture for TicTacToe {
    fn board(&self) -> Board {
        square_board(3, 3, false, ["#c0392b", "#1f5fa8"])
    }

    fn pieces(&self, pos: &TicTacToePosition) -> Vec<picture::Piece> {
        (0..9)
            .filter_map(|cell| {
                let bit = 1 << cell;
                let (owner, look) = if pos.x & bit != 0 {
                    (Player::One, Look::Cross)
                } else if pos.o & bit != 0 {
                    (Player::Two, Look::Nought)
                } else {
                    return None;
                };
                Some(picture::Piece {
                    cell,
                    owner,
                    look,
                    marked: false,
                })
            })
            .collect()
    }

    fn move_cells(&self, _pos: &TicTacToePosition, mv: TicTacToeMove) -> MoveCells {
        MoveCells {
            from: None,
            to: Some(usize::from(mv.0)),
        }
    }

    fn colours_by_cell(&self) -> bool {
        true
    }
}
