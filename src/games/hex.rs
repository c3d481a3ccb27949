//! Hex on an N×N rhombus, with the swap.

use rand::{Rng, SeedableRng};

use crate::game::{Game, MoveError, Outcome, Player, PositionError};
use crate::games::board::{cell_name, encode_ranks, parse_cell};

/// Red (`Player::One`) joins the a-file to the last file; Blue
/// (`Player::Two`) joins rank 1 to rank N. Cell (f, r) touches (f±1, r),
/// (f, r±1), (f+1, r−1) and (f−1, r+1). With the swap on, the second player
/// may, on their first turn only, take the opening stone: it becomes theirs,
/// mirrored across the a1 diagonal, and the first player moves again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hex {
    size: u8,
    swap: bool,
    /// Who places first, if fixed by an option; otherwise the game's seed decides.
    first: Option<Player>,
    neighbours: Vec<Vec<u16>>,
}

/// Up to 19×19 = 361 cells, one bit a cell (`rank * N + file`).
pub type Cells = [u64; 6];

/// A Hex position: each side's stones, the side to move, and whether the
/// swap has been used (it is legal once, on the second player's first turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexPosition {
    pub red: Cells,
    pub blue: Cells,
    pub turn: Player,
    pub swapped: bool,
}

/// A stone on a cell, or the swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HexMove {
    Place(u16),
    Swap,
}

fn get(c: &Cells, i: usize) -> bool {
    c[i / 64] >> (i % 64) & 1 == 1
}

fn set(c: &mut Cells, i: usize) {
    c[i / 64] |= 1 << (i % 64);
}

fn count(c: &Cells) -> u32 {
    c.iter().map(|w| w.count_ones()).sum()
}

fn cells_of(c: &Cells) -> impl Iterator<Item = usize> + '_ {
    c.iter().enumerate().flat_map(|(w, &bits)| {
        let mut rest = bits;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(w * 64 + b)
        })
    })
}

impl Hex {
    /// The largest board.
    pub const MAX_SIZE: u8 = 19;

    /// An N×N board (1 ≤ N ≤ 19), with or without the swap, and who places
    /// first if fixed (`None`: decided by each game's seed).
    pub fn new(size: u8, swap: bool, first: Option<Player>) -> Result<Hex, String> {
        if !(1..=Self::MAX_SIZE).contains(&size) {
            return Err(format!("size {size} is out of range: expected 1 to {}", Self::MAX_SIZE));
        }
        let n = i32::from(size);
        let mut neighbours = Vec::with_capacity((n * n) as usize);
        for r in 0..n {
            for f in 0..n {
                let mut list = Vec::new();
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                    let (g, s) = (f + df, r + dr);
                    if (0..n).contains(&g) && (0..n).contains(&s) {
                        list.push((s * n + g) as u16);
                    }
                }
                neighbours.push(list);
            }
        }
        Ok(Hex {
            size,
            swap,
            first,
            neighbours,
        })
    }

    /// Side length N.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Whether the swap is allowed.
    pub fn swap_allowed(&self) -> bool {
        self.swap
    }

    fn n(&self) -> usize {
        usize::from(self.size)
    }

    /// The start position with `first` to place the first stone.
    pub fn start_with(&self, first: Player) -> HexPosition {
        HexPosition {
            red: [0; 6],
            blue: [0; 6],
            turn: first,
            swapped: false,
        }
    }

    /// Who places first in a game with this seed (when not fixed by an option).
    pub fn first_for_seed(&self, seed: u64) -> Player {
        match self.first {
            Some(p) => p,
            None => {
                if rand_chacha::ChaCha8Rng::seed_from_u64(seed).random_bool(0.5) {
                    Player::One
                } else {
                    Player::Two
                }
            }
        }
    }

    fn stones<'a>(&self, pos: &'a HexPosition, p: Player) -> &'a Cells {
        match p {
            Player::One => &pos.red,
            Player::Two => &pos.blue,
        }
    }

    fn on_start_edge(&self, p: Player, i: usize) -> bool {
        match p {
            Player::One => i.is_multiple_of(self.n()),
            Player::Two => i / self.n() == 0,
        }
    }

    fn on_end_edge(&self, p: Player, i: usize) -> bool {
        match p {
            Player::One => i % self.n() == self.n() - 1,
            Player::Two => i / self.n() == self.n() - 1,
        }
    }

    /// A shortest chain of `p`'s stones joining its two edges, if there is one.
    pub fn chain(&self, pos: &HexPosition, p: Player) -> Option<Vec<usize>> {
        let stones = self.stones(pos, p);
        let cells = self.n() * self.n();
        let mut parent = vec![u16::MAX; cells];
        let mut queue = std::collections::VecDeque::new();
        for i in cells_of(stones) {
            if self.on_start_edge(p, i) {
                parent[i] = i as u16;
                queue.push_back(i);
            }
        }
        while let Some(i) = queue.pop_front() {
            if self.on_end_edge(p, i) {
                let mut path = vec![i];
                let mut at = i;
                while usize::from(parent[at]) != at {
                    at = usize::from(parent[at]);
                    path.push(at);
                }
                path.reverse();
                return Some(path);
            }
            for &j in &self.neighbours[i] {
                let j = usize::from(j);
                if parent[j] == u16::MAX && get(stones, j) {
                    parent[j] = i as u16;
                    queue.push_back(j);
                }
            }
        }
        None
    }

    fn connected(&self, pos: &HexPosition, p: Player) -> bool {
        let stones = self.stones(pos, p);
        let mut seen: Cells = [0; 6];
        let mut stack: Vec<usize> = Vec::new();
        for i in cells_of(stones) {
            if self.on_start_edge(p, i) {
                set(&mut seen, i);
                stack.push(i);
            }
        }
        while let Some(i) = stack.pop() {
            if self.on_end_edge(p, i) {
                return true;
            }
            for &j in &self.neighbours[i] {
                let j = usize::from(j);
                if get(stones, j) && !get(&seen, j) {
                    set(&mut seen, j);
                    stack.push(j);
                }
            }
        }
        false
    }

    fn swap_legal(&self, pos: &HexPosition) -> bool {
        self.swap && !pos.swapped && count(&pos.red) + count(&pos.blue) == 1 && count(self.stones(pos, pos.turn)) == 0
    }

    fn transpose(&self, i: usize) -> usize {
        let n = self.n();
        (i % n) * n + i / n
    }

    fn cell_text(&self, i: usize) -> String {
        cell_name((i % self.n()) as u32, (i / self.n()) as u32)
    }

    /// A diagram marking the last move (`*`) and any winning chain (capitals).
    pub fn diagram_marked(&self, pos: &HexPosition, last: Option<HexMove>) -> String {
        let n = self.n();
        let winner = [Player::One, Player::Two].into_iter().find(|&p| self.connected(pos, p));
        let chain = winner.and_then(|p| self.chain(pos, p)).unwrap_or_default();
        let mut out = String::new();
        let width = n.to_string().len();
        for r in (0..n).rev() {
            out.push_str(&format!("{:>width$} ", r + 1));
            out.push_str(&" ".repeat(r));
            for f in 0..n {
                let i = r * n + f;
                let c = if get(&pos.red, i) {
                    if chain.contains(&i) {
                        'R'
                    } else {
                        'r'
                    }
                } else if get(&pos.blue, i) {
                    if chain.contains(&i) {
                        'B'
                    } else {
                        'b'
                    }
                } else {
                    '.'
                };
                out.push(c);
                out.push(if last == Some(HexMove::Place(i as u16)) {
                    '*'
                } else {
                    ' '
                });
            }
            out.push('\n');
        }
        out.push_str(&" ".repeat(width + 1));
        for f in 0..n {
            out.push_str(&cell_name(f as u32, 0)[..1]);
            out.push(' ');
        }
        out.push('\n');
        out.push_str("Red (r) joins the a-file to the last file; Blue (b) joins rank 1 to the last rank.\n");
        if let Some(p) = winner {
            let cells: Vec<String> = chain.iter().map(|&i| self.cell_text(i)).collect();
            out.push_str(&format!(
                "{} wins with the chain {}\n",
                self.player_name(p),
                cells.join("-")
            ));
        } else if last == Some(HexMove::Swap) {
            out.push_str("The opening stone was swapped.\n");
        }
        out
    }
}

impl Game for Hex {
    type Position = HexPosition;
    type Move = HexMove;

    fn spec(&self) -> String {
        let mut s = format!("hex:{}", self.size);
        if !self.swap {
            s.push_str(",swap=off");
        }
        match self.first {
            Some(Player::One) => s.push_str(",first=red"),
            Some(Player::Two) => s.push_str(",first=blue"),
            None => {}
        }
        s
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

    fn symmetry_count(&self) -> usize {
        2
    }

    fn map_position(&self, pos: &HexPosition, sym: usize) -> HexPosition {
        if sym == 0 {
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

    fn map_move(&self, mv: HexMove, sym: usize) -> HexMove {
        match (mv, sym) {
            (HexMove::Place(i), 1) => HexMove::Place((self.n() * self.n() - 1 - usize::from(i)) as u16),
            _ => mv,
        }
    }

    fn move_name(&self, _pos: &HexPosition, mv: HexMove) -> String {
        match mv {
            HexMove::Place(i) => self.cell_text(usize::from(i)),
            HexMove::Swap => "swap".to_string(),
        }
    }

    fn parse_move(&self, pos: &HexPosition, text: &str) -> Result<HexMove, MoveError> {
        let clean = text.trim().to_ascii_lowercase();
        if self.outcome(pos).is_over() {
            return Err(self.illegal(pos, text, "the game is over"));
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
        let (f, r) = parse_cell(&clean)
            .filter(|&(f, r)| f < n && r < n)
            .ok_or_else(|| MoveError {
                text: text.to_string(),
                reason: format!("expected a cell a1..{} or swap", cell_name(n - 1, n - 1)),
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
        let err = |reason: String| PositionError {
            text: text.to_string(),
            reason,
        };
        let expected = format!(
            "expected {n} ranks of {n} cells from rank {n} down to 1, separated by '/', using r, b and digits, then ' r' or ' b' for the side to move, and ' swapped' once the swap is used"
        );
        let parts: Vec<&str> = text.split_whitespace().collect();
        let (board, side, swapped) = match parts.as_slice() {
            [b, s] => (*b, *s, false),
            [b, s, "swapped"] => (*b, *s, true),
            _ => return Err(err(expected)),
        };
        let turn = match side {
            "r" => Player::One,
            "b" => Player::Two,
            other => return Err(err(format!("side to move '{other}' is not 'r' or 'b'"))),
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != n {
            return Err(err(format!("found {} ranks; {expected}", rows.len())));
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
                            return Err(err(format!("rank {} is longer than {n} cells", r + 1)));
                        }
                        if c == 'r' {
                            set(&mut pos.red, r * n + f);
                        } else {
                            set(&mut pos.blue, r * n + f);
                        }
                        f += 1;
                    }
                    other => {
                        return Err(err(format!(
                            "unexpected character '{other}' in rank {}; {expected}",
                            r + 1
                        )))
                    }
                }
            }
            if f != n {
                return Err(err(format!("rank {} has {f} cells, not {n}", r + 1)));
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

    fn winner_oracle(
        &self,
        positions: &[HexPosition],
        limit: usize,
    ) -> Option<Result<Vec<Outcome>, crate::solver::TooLarge>> {
        crate::games::hex_solver::winners(self, positions, limit)
    }
}
