//! Hex on an N×N rhombus, with the swap: the rules as the `Game` trait sees them.

mod about;
mod bitboard;
mod board;
mod dfpn;
mod inferior;
pub mod perfect;
pub mod solver;
mod table;
mod vc;

use crate::error::InvalidValue;
use crate::game::{
    unknown_option, Game, GameSpec, MoveError, Notation, Outcome, Player, PositionError, PositionErrorKind, Rules,
    Symmetric,
};
use crate::games::board::{cell_name, encode_ranks, parse_cell};
use crate::picture::{self, Board, Cell, CellShape, Edge, Look, MoveCells, Picture};
use crate::search::{SearchLimits, TooLarge};
use crate::symmetry::HalfTurn;
use board::{cells_of, get, set};
pub use board::{Cells, Hex, HexMove, HexPosition};

/// The ways to place Red's and Blue's stones on `cells` cells with the
/// counts a game allows (equal, or one more for whoever placed first), times
/// two for the swap's flag: an upper bound on the positions reachable.
fn placements(cells: u32, swap: bool) -> f64 {
    let choose = |n: u32, k: u32| -> f64 { (0..k).map(|i| f64::from(n - i) / f64::from(i + 1)).product() };
    let mut total = 0.0;
    for k in 0..=cells / 2 {
        total += choose(cells, k) * choose(cells - k, k);
        if 2 * k < cells {
            total += 2.0 * choose(cells, k + 1) * choose(cells - k - 1, k);
        }
    }
    if swap {
        total * 2.0
    } else {
        total
    }
}

impl Rules for Hex {
    type Position = HexPosition;
    type Move = HexMove;

    fn spec(&self) -> String {
        self.spec_string()
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::One => "Red",
            Player::Two => "Blue",
        }
    }

    fn start(&self) -> HexPosition {
        self.start_with(self.first.unwrap_or(Player::One))
    }

    fn starts(&self) -> Vec<(HexPosition, f64)> {
        match self.first {
            Some(p) => vec![(self.start_with(p), 1.0)],
            None => vec![(self.start_with(Player::One), 0.5), (self.start_with(Player::Two), 0.5)],
        }
    }

    fn seeded_start(&self, seed: u64) -> HexPosition {
        self.start_with(self.first_for_seed(seed))
    }

    fn turn(&self, pos: &HexPosition) -> Player {
        pos.turn
    }

    fn legal_moves(&self, pos: &HexPosition, out: &mut Vec<HexMove>) {
        out.clear();
        if self.outcome(pos).is_over() {
            return;
        }
        let cells = self.n() * self.n();
        for w in 0..6 {
            let mut empty = !(pos.red[w] | pos.blue[w]);
            while empty != 0 {
                let i = w * 64 + empty.trailing_zeros() as usize;
                if i >= cells {
                    break;
                }
                out.push(HexMove::Place(i as u16));
                empty &= empty - 1;
            }
        }
        if self.swap_legal(pos) {
            out.push(HexMove::Swap);
        }
    }

    fn play(&self, pos: &HexPosition, mv: HexMove) -> HexPosition {
        let mut next = *pos;
        match mv {
            HexMove::Place(i) => match pos.turn {
                Player::One => set(&mut next.red, usize::from(i)),
                Player::Two => set(&mut next.blue, usize::from(i)),
            },
            HexMove::Swap => {
                // The lone opening stone changes colour and is mirrored across the a1 diagonal.
                let opponent = pos.turn.other();
                let stone = cells_of(self.stones(pos, opponent)).next();
                next.red = [0; 6];
                next.blue = [0; 6];
                if let Some(i) = stone {
                    let target = self.transpose(i);
                    match pos.turn {
                        Player::One => set(&mut next.red, target),
                        Player::Two => set(&mut next.blue, target),
                    }
                }
                next.swapped = true;
            }
        }
        next.turn = pos.turn.other();
        next
    }

    fn outcome(&self, pos: &HexPosition) -> Outcome {
        // Only the player who just moved can have connected.
        let last = pos.turn.other();
        if self.connected(pos, last) {
            Outcome::Win(last)
        } else if self.connected(pos, pos.turn) {
            Outcome::Win(pos.turn)
        } else {
            Outcome::Ongoing
        }
    }
}

crate::games::board::position_is_box_key!(Hex);

impl Symmetric for Hex {
    type Symmetry = HalfTurn;

    fn map_position(&self, pos: &HexPosition, sym: HalfTurn) -> HexPosition {
        if sym == HalfTurn::Identity {
            return *pos;
        }
        let last = self.n() * self.n() - 1;
        let rotate = |c: &Cells| {
            let mut out = [0; 6];
            for i in cells_of(c) {
                set(&mut out, last - i);
            }
            out
        };
        HexPosition {
            red: rotate(&pos.red),
            blue: rotate(&pos.blue),
            ..*pos
        }
    }

    fn map_move(&self, mv: HexMove, sym: HalfTurn) -> HexMove {
        match (mv, sym) {
            (HexMove::Place(i), HalfTurn::Rotate) => HexMove::Place((self.n() * self.n() - 1 - usize::from(i)) as u16),
            _ => mv,
        }
    }
}

impl Notation for Hex {
    fn move_name(&self, _pos: &HexPosition, mv: HexMove) -> String {
        match mv {
            HexMove::Place(i) => self.cell_text(usize::from(i)),
            HexMove::Swap => "swap".to_string(),
        }
    }

    fn parse_move(&self, pos: &HexPosition, text: &str) -> Result<HexMove, MoveError> {
        let clean = text.trim().to_ascii_lowercase();
        if self.outcome(pos).is_over() {
            return Err(MoveError::GameOver { text: text.to_string() });
        }
        if clean == "swap" {
            return if self.swap_legal(pos) {
                Ok(HexMove::Swap)
            } else if !self.swap {
                Err(self.illegal(pos, text, "the swap is off in this game"))
            } else {
                Err(self.illegal(pos, text, "the swap is only for the second player's first turn"))
            };
        }
        let n = self.n() as u32;
        let (f, r) = parse_cell(&clean).filter(|&(f, r)| f < n && r < n).ok_or_else(|| {
            MoveError::unreadable(text, format!("expected a cell a1..{} or swap", cell_name(n - 1, n - 1)))
        })?;
        let i = (r * n + f) as usize;
        if get(&pos.red, i) || get(&pos.blue, i) {
            return Err(self.illegal(pos, text, "that cell is taken"));
        }
        Ok(HexMove::Place(i as u16))
    }

    fn position_string(&self, pos: &HexPosition) -> String {
        let n = self.n();
        let board = encode_ranks(n, n, |f, r| {
            let i = r * n + f;
            if get(&pos.red, i) {
                Some('r')
            } else if get(&pos.blue, i) {
                Some('b')
            } else {
                None
            }
        });
        let side = if pos.turn == Player::One { 'r' } else { 'b' };
        let swapped = if pos.swapped { " swapped" } else { "" };
        format!("{board} {side}{swapped}")
    }

    fn parse_position(&self, text: &str) -> Result<HexPosition, PositionError> {
        let n = self.n();
        let err = |kind, reason: String| PositionError::new(text, kind, reason);
        let expected = format!(
            "expected {n} ranks of {n} cells from rank {n} down to 1, separated by '/', using r, b and digits, then ' r' or ' b' for the side to move, and ' swapped' once the swap is used"
        );
        let parts: Vec<&str> = text.split_whitespace().collect();
        let (board, side, swapped) = match parts.as_slice() {
            [b, s] => (*b, *s, false),
            [b, s, "swapped"] => (*b, *s, true),
            _ => return Err(err(PositionErrorKind::Form, expected)),
        };
        let turn = match side {
            "r" => Player::One,
            "b" => Player::Two,
            other => {
                return Err(err(
                    PositionErrorKind::SideToMove,
                    format!("side to move '{other}' is not 'r' or 'b'"),
                ))
            }
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != n {
            return Err(err(
                PositionErrorKind::RowCount,
                format!("found {} ranks; {expected}", rows.len()),
            ));
        }
        let mut pos = HexPosition {
            red: [0; 6],
            blue: [0; 6],
            turn,
            swapped,
        };
        for (k, row) in rows.iter().enumerate() {
            let r = n - 1 - k;
            let mut f = 0usize;
            let mut digits = String::new();
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '0'..='9' => {
                        digits.push(c);
                        if !chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                            f += digits.parse::<usize>().unwrap_or(usize::MAX / 2);
                            digits.clear();
                        }
                    }
                    'r' | 'b' => {
                        if f >= n {
                            return Err(err(
                                PositionErrorKind::RowLength,
                                format!("rank {} is longer than {n} cells", r + 1),
                            ));
                        }
                        if c == 'r' {
                            set(&mut pos.red, r * n + f);
                        } else {
                            set(&mut pos.blue, r * n + f);
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
            if f != n {
                return Err(err(
                    PositionErrorKind::RowLength,
                    format!("rank {} has {f} cells, not {n}", r + 1),
                ));
            }
        }
        Ok(pos)
    }

    fn diagram(&self, pos: &HexPosition) -> String {
        self.diagram_marked(pos, None)
    }

    fn diagram_after(&self, pos: &HexPosition, last: Option<HexMove>) -> String {
        self.diagram_marked(pos, last)
    }
}

impl SearchLimits for Hex {
    fn position_bound(&self) -> Option<f64> {
        Some(placements(u32::from(self.size) * u32::from(self.size), self.swap))
    }

    fn winner_oracle(&self, positions: &[HexPosition], limit: usize) -> Option<Result<Vec<Outcome>, TooLarge>> {
        crate::games::hex::solver::winners(self, positions, limit)
    }

    fn position_solver(&self) -> Option<Box<dyn crate::game::PositionSolver<Self>>> {
        perfect::position_solver(self)
    }

    fn shared_position_solver(&self) -> Option<Box<dyn crate::game::PositionSolver<Self>>> {
        perfect::shared_position_solver(self)
    }
}

impl GameSpec for Hex {
    const NAMES: &'static [&'static str] = &["hex"];
    const FORMS: &'static str = "hex:N (e.g. hex:5, hex:4,swap=off,first=red)";
    const EXAMPLES: &'static [&'static str] = &["hex:3", "hex:4,swap=off", "hex:5"];

    fn from_spec(_name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue> {
        let n = match size {
            None => 11,
            Some(s) => s
                .trim()
                .parse::<u8>()
                .map_err(|_| InvalidValue::new("size", s, "not a number: expected hex:N with N from 1 to 19"))?,
        };
        let (mut swap, mut first) = (true, None);
        for opt in options.into_iter().flat_map(|o| o.split(',')) {
            match opt.trim().split_once('=') {
                Some(("swap", "on")) => swap = true,
                Some(("swap", "off")) => swap = false,
                Some(("first", "red")) => first = Some(Player::One),
                Some(("first", "blue")) => first = Some(Player::Two),
                Some(("first", "seed")) => first = None,
                _ => return Err(unknown_option(opt, "hex takes swap=on|off and first=red|blue|seed")),
            }
        }
        Hex::new(n, swap, first)
    }
}

/// Rows of a Hex picture are this far apart (neighbouring cells are 1 apart).
const ROW: f64 = 0.866_025_403_784_438_6;

impl Picture for Hex {
    /// Rank 1 at the top, each rank shifted half a cell to the right of the
    /// one above, so a1 and the far corner are the acute corners; Red's
    /// edges left and right, Blue's top and bottom.
    fn board(&self) -> Board {
        let n = self.n();
        let centre = |f: usize, r: usize| (f as f64 + 0.5 * r as f64, ROW * r as f64);
        let cells = (0..n * n)
            .map(|i| {
                let (x, y) = centre(i % n, i / n);
                Cell {
                    name: self.cell_text(i),
                    x,
                    y,
                    shade: 0,
                }
            })
            .collect();
        let last = n - 1;
        let (a, b) = (centre(0, 0), centre(last, 0));
        let (c, d) = (centre(0, last), centre(last, last));
        let (gap_x, gap_y) = (0.75, 0.72);
        let edges = vec![
            Edge {
                owner: Player::Two,
                from: (a.0 - 0.5, a.1 - gap_y),
                to: (b.0 + 0.5, b.1 - gap_y),
            },
            Edge {
                owner: Player::Two,
                from: (c.0 - 0.5, c.1 + gap_y),
                to: (d.0 + 0.5, d.1 + gap_y),
            },
            Edge {
                owner: Player::One,
                from: (a.0 - gap_x, a.1 - 0.3),
                to: (c.0 - gap_x, c.1 + 0.3),
            },
            Edge {
                owner: Player::One,
                from: (b.0 + gap_x, b.1 - 0.3),
                to: (d.0 + gap_x, d.1 + 0.3),
            },
        ];
        Board {
            shape: CellShape::PointyHex,
            cells,
            edges,
            colours: ["#d33b2f", "#2c64c4"],
        }
    }

    fn pieces(&self, pos: &HexPosition) -> Vec<picture::Piece> {
        let winner = [Player::One, Player::Two].into_iter().find(|&p| self.connected(pos, p));
        let chain = winner.and_then(|p| self.chain(pos, p)).unwrap_or_default();
        let mut out = Vec::new();
        for owner in [Player::One, Player::Two] {
            for cell in cells_of(self.stones(pos, owner)) {
                out.push(picture::Piece {
                    cell,
                    owner,
                    look: Look::Stone,
                    marked: chain.contains(&cell),
                });
            }
        }
        out
    }

    fn move_cells(&self, _pos: &HexPosition, mv: HexMove) -> MoveCells {
        match mv {
            HexMove::Place(i) => MoveCells {
                from: None,
                to: Some(usize::from(i)),
            },
            HexMove::Swap => MoveCells::default(),
        }
    }
}
