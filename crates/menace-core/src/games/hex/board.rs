//! Hex on an N×N rhombus, with the swap.

use rand::{Rng, SeedableRng};

use crate::error::InvalidValue;
use crate::game::{Player, Rules};
use crate::games::board::cell_name;

/// Red (`Player::One`) joins the a-file to the last file; Blue
/// (`Player::Two`) joins rank 1 to rank N. Cell (f, r) touches (f±1, r),
/// (f, r±1), (f+1, r−1) and (f−1, r+1). With the swap on, the second player
/// may, on their first turn only, take the opening stone: it becomes theirs,
/// mirrored across the a1 diagonal, and the first player moves again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hex {
    pub(super) size: u8,
    pub(super) swap: bool,
    /// Who places first, if fixed by an option; otherwise the game's seed decides.
    pub(super) first: Option<Player>,
    pub(super) neighbours: Vec<Vec<u16>>,
}

/// Up to 19×19 = 361 cells, one bit a cell (`rank * N + file`).
pub type Cells = [u64; 6];

/// A Hex position: each side's stones, the side to move, and whether the
/// swap has been used (it is legal once, on the second player's first turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexPosition {
    /// Red's stones, a bit a cell.
    pub red: Cells,
    /// Blue's stones, a bit a cell.
    pub blue: Cells,
    /// Who places next.
    pub turn: Player,
    /// Whether the swap was played.
    pub swapped: bool,
}

/// A stone on a cell, or the swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HexMove {
    /// A stone placed on this cell.
    Place(u16),
    /// The swap: the second player takes the first stone as its own.
    Swap,
}

pub(super) fn get(c: &Cells, i: usize) -> bool {
    c[i / 64] >> (i % 64) & 1 == 1
}

pub(super) fn set(c: &mut Cells, i: usize) {
    c[i / 64] |= 1 << (i % 64);
}

pub(super) fn count(c: &Cells) -> u32 {
    c.iter().map(|w| w.count_ones()).sum()
}

pub(super) fn cells_of(c: &Cells) -> impl Iterator<Item = usize> + '_ {
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
    /// The game spec string that makes this game again (e.g. `hex:5,swap=off`).
    pub fn spec_string(&self) -> String {
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

    /// The largest board.
    pub const MAX_SIZE: u8 = 19;

    /// An N×N board (1 ≤ N ≤ 19), with or without the swap, and who places
    /// first if fixed (`None`: decided by each game's seed).
    pub fn new(size: u8, swap: bool, first: Option<Player>) -> Result<Hex, InvalidValue> {
        if !(1..=Self::MAX_SIZE).contains(&size) {
            let expected = format!("out of range: expected 1 to {}", Self::MAX_SIZE);
            return Err(InvalidValue::new("size", size, expected));
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

    pub(super) fn n(&self) -> usize {
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

    pub(super) fn stones<'a>(&self, pos: &'a HexPosition, p: Player) -> &'a Cells {
        match p {
            Player::One => &pos.red,
            Player::Two => &pos.blue,
        }
    }

    pub(super) fn on_start_edge(&self, p: Player, i: usize) -> bool {
        match p {
            Player::One => i.is_multiple_of(self.n()),
            Player::Two => i / self.n() == 0,
        }
    }

    pub(super) fn on_end_edge(&self, p: Player, i: usize) -> bool {
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

    pub(super) fn connected(&self, pos: &HexPosition, p: Player) -> bool {
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

    pub(super) fn swap_legal(&self, pos: &HexPosition) -> bool {
        self.swap && !pos.swapped && count(&pos.red) + count(&pos.blue) == 1 && count(self.stones(pos, pos.turn)) == 0
    }

    pub(super) fn transpose(&self, i: usize) -> usize {
        let n = self.n();
        (i % n) * n + i / n
    }

    pub(super) fn cell_text(&self, i: usize) -> String {
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
