//! A dedicated Hex solver for boards up to 8×8: who wins, by depth-first
//! search on 64-bit boards with a transposition table, immediate-win and
//! forced-block pruning, and centre-first move ordering.

use std::rc::Rc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::board::{Hex, HexPosition};
use crate::game::{Outcome, Player, TooLarge};

struct Search {
    n: u32,
    full: u64,
    not_first_file: u64,
    not_last_file: u64,
    first_file: u64,
    last_file: u64,
    first_rank: u64,
    last_rank: u64,
    swap: bool,
    order: Rc<[u32]>,
    history: [u64; 64],
    nodes: u64,
    table: FxHashMap<(u64, u64, bool, bool), bool>,
    limit: usize,
    spec: String,
}

impl Search {
    fn new(game: &Hex, limit: usize) -> Search {
        let n = u32::from(game.size());
        let cells = n * n;
        let full = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let mut first_file = 0u64;
        for r in 0..n {
            first_file |= 1 << (r * n);
        }
        let last_file = first_file << (n - 1);
        let first_rank = (1u64 << n) - 1;
        let centre = (f64::from(n) - 1.0) / 2.0;
        let mut order: Vec<u32> = (0..cells).collect();
        let dist = |i: u32| {
            let (f, r) = (f64::from(i % n) - centre, f64::from(i / n) - centre);
            // Hex distance in these axial coordinates.
            (f.abs() + r.abs() + (f + r).abs()) / 2.0
        };
        order.sort_by(|&a, &b| dist(a).total_cmp(&dist(b)).then(a.cmp(&b)));
        Search {
            n,
            full,
            not_first_file: full & !first_file,
            not_last_file: full & !last_file,
            first_file,
            last_file,
            first_rank,
            last_rank: first_rank << (n * (n - 1)),
            swap: game.swap_allowed(),
            order: order.into(),
            history: [0; 64],
            nodes: 0,
            table: FxHashMap::default(),
            limit,
            spec: game.spec_string(),
        }
    }

    fn spread(&self, s: u64) -> u64 {
        let n = self.n;
        let east = (s & self.not_last_file) << 1;
        let west = (s & self.not_first_file) >> 1;
        let north = s << n;
        let south = s >> n;
        // (f+1, r-1) and (f-1, r+1).
        let south_east = (s & self.not_last_file) >> (n - 1);
        let north_west = (s & self.not_first_file) << (n - 1);
        (s | east | west | north | south | south_east | north_west) & self.full
    }

    /// The empty cells that would connect `stones`' owner at once: next to
    /// (or on) the start edge's group and next to (or on) the end edge's group.
    fn winning_cells(&self, stones: u64, empty: u64, red: bool) -> u64 {
        let (start, end) = self.edges(red);
        let from_start = self.flood(stones & start, stones);
        let from_end = self.flood(stones & end, stones);
        (self.spread(from_start) | start) & (self.spread(from_end) | end) & empty
    }

    fn edges(&self, red: bool) -> (u64, u64) {
        if red {
            (self.first_file, self.last_file)
        } else {
            (self.first_rank, self.last_rank)
        }
    }

    fn flood(&self, seed: u64, within: u64) -> u64 {
        let mut reach = seed;
        loop {
            let next = self.spread(reach) & within;
            if next == reach {
                return reach;
            }
            reach = next;
        }
    }

    fn connects(&self, stones: u64, red: bool) -> bool {
        let (start, end) = if red {
            (self.first_file, self.last_file)
        } else {
            (self.first_rank, self.last_rank)
        };
        let mut reach = stones & start;
        loop {
            let next = self.spread(reach) & stones;
            if next == reach {
                return reach & end != 0;
            }
            reach = next;
        }
    }

    /// Where the mover must play when the opponent has forks: cells c after
    /// which the opponent could win at two or more cells W(c). A move that
    /// does not threaten to win at once must land in {c} ∪ W(c) for every
    /// fork c (the caller adds the threatening moves back).
    fn must_play(&self, theirs: u64, empty: u64, red_to_move: bool) -> u64 {
        let mut region = empty;
        let mut rest = empty;
        while rest != 0 {
            let c = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let wins = self.winning_cells(theirs | c, empty & !c, !red_to_move);
            if wins.count_ones() >= 2 {
                region &= c | wins;
            }
        }
        region
    }

    /// Whether the player to move (red if `red_to_move`) wins.
    fn wins(&mut self, red: u64, blue: u64, red_to_move: bool, swapped: bool) -> Result<bool, TooLarge> {
        let (mine, theirs) = if red_to_move { (red, blue) } else { (blue, red) };
        if self.connects(theirs, !red_to_move) {
            return Ok(false);
        }
        let empty = self.full & !(red | blue);
        let order = Rc::clone(&self.order);
        self.search(&order, red, blue, mine, theirs, empty, red_to_move, swapped)
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        order: &[u32],
        red: u64,
        blue: u64,
        mine: u64,
        theirs: u64,
        empty: u64,
        red_to_move: bool,
        swapped: bool,
    ) -> Result<bool, TooLarge> {
        self.nodes += 1;
        // A cell that wins at once.
        if self.winning_cells(mine, empty, red_to_move) != 0 {
            return Ok(true);
        }
        let swap_pending = self.swap && !swapped && (red | blue).count_ones() == 1 && mine == 0;
        if !swap_pending {
            // Hex has no draws: a side that cannot connect even with every
            // empty cell has lost already.
            if !self.connects(mine | empty, red_to_move) {
                return Ok(false);
            }
            if !self.connects(theirs | empty, !red_to_move) {
                return Ok(true);
            }
        }
        // One entry for a position and its 180° rotation.
        let shift = 64 - self.n * self.n;
        let rotated = (red.reverse_bits() >> shift, blue.reverse_bits() >> shift);
        let key = (
            (red, blue).min(rotated).0,
            (red, blue).min(rotated).1,
            swapped,
            red_to_move,
        );
        if let Some(&w) = self.table.get(&key) {
            return Ok(w);
        }
        if self.table.len() >= self.limit {
            return Err(TooLarge {
                game: self.spec.clone(),
                limit: self.limit,
            });
        }
        // The opponent's winning cells: two of them cannot both be blocked.
        let threats = self.winning_cells(theirs, empty, !red_to_move);
        let mut forcing = 0u64;
        // Before the opening stone the reply may be the swap, which the fork
        // and must-play reasoning below knows nothing of: try every cell.
        let opening_with_swap = self.swap && !swapped && red | blue == 0;
        let candidates = if threats.count_ones() >= 2 {
            0
        } else if threats != 0 {
            threats
        } else if opening_with_swap {
            empty
        } else {
            // A move that leaves two winning cells wins: only one can be blocked.
            let mut rest = empty;
            while rest != 0 {
                let m = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let w = self.winning_cells(mine | m, empty & !m, red_to_move);
                if w.count_ones() >= 2 {
                    if empty.count_ones() > 4 {
                        self.table.insert(key, true);
                    }
                    return Ok(true);
                }
                if w != 0 {
                    forcing |= m;
                }
            }
            self.must_play(theirs, empty, red_to_move) | forcing
        };
        // Moves that threaten to win first, then centre first, then moves that
        // refuted other positions before (history heuristic).
        let rank = |c: u32| u8::from(forcing & (1u64 << c) == 0);
        let mut moves = [0u32; 64];
        let mut len = 0;
        for &c in order {
            if candidates & (1u64 << c) != 0 {
                let mut k = len;
                while k > 0 && {
                    let (a, b) = (moves[k - 1], c);
                    (rank(b), std::cmp::Reverse(self.history[b as usize]))
                        < (rank(a), std::cmp::Reverse(self.history[a as usize]))
                } {
                    moves[k] = moves[k - 1];
                    k -= 1;
                }
                moves[k] = c;
                len += 1;
            }
        }
        let mut win = false;
        for &c in &moves[..len] {
            let bit = 1u64 << c;
            let (r2, b2) = if red_to_move {
                (red | bit, blue)
            } else {
                (red, blue | bit)
            };
            if !self.wins(r2, b2, !red_to_move, swapped)? {
                win = true;
                let weight = u64::from(empty.count_ones());
                self.history[c as usize] += weight * weight;
                break;
            }
        }
        if !win && swap_pending {
            // Take the opening stone: it becomes ours, mirrored across the a1 diagonal.
            let i = theirs.trailing_zeros();
            let target = 1u64 << ((i % self.n) * self.n + i / self.n);
            let (r2, b2) = if red_to_move { (target, 0) } else { (0, target) };
            win = !self.wins(r2, b2, !red_to_move, true)?;
        }
        // Positions near the end are cheaper to search again than to remember.
        if empty.count_ones() > 4 {
            self.table.insert(key, win);
        }
        Ok(win)
    }
}

fn to_bits(game: &Hex, pos: &HexPosition) -> (u64, u64) {
    let n = usize::from(game.size());
    let pick = |c: &[u64; 6]| if n * n <= 64 { c[0] } else { 0 };
    (pick(&pos.red), pick(&pos.blue))
}

/// Who wins each of `positions` with best play, for boards up to 8×8
/// (`None` above). Positions are shared out over the machine's cores, each
/// searched with a table of its own (one table for all grows too large to
/// stay fast).
pub fn winners(game: &Hex, positions: &[HexPosition], limit: usize) -> Option<Result<Vec<Outcome>, TooLarge>> {
    if game.size() > 8 {
        return None;
    }
    // Positions are solved in parallel and collected in order; the answers do
    // not depend on the order. The limit is per position's table.
    let answers: Result<Vec<Outcome>, TooLarge> = positions
        .par_iter()
        .map(|pos| {
            let mut search = Search::new(game, limit);
            let (red, blue) = to_bits(game, pos);
            let mover = pos.turn;
            search.wins(red, blue, mover == Player::One, pos.swapped).map(|w| {
                if w {
                    Outcome::Win(mover)
                } else {
                    Outcome::Win(mover.other())
                }
            })
        })
        .collect();
    Some(answers)
}

/// Solve `positions` on one thread, one table each, counting the positions
/// searched: for benchmarks.
pub fn winners_counted(game: &Hex, positions: &[HexPosition], limit: usize) -> Result<(Vec<Outcome>, u64), TooLarge> {
    let mut out = Vec::new();
    let mut nodes = 0;
    for pos in positions {
        let mut search = Search::new(game, limit);
        let (red, blue) = to_bits(game, pos);
        let mover = pos.turn;
        let w = search.wins(red, blue, mover == Player::One, pos.swapped)?;
        nodes += search.nodes;
        out.push(if w {
            Outcome::Win(mover)
        } else {
            Outcome::Win(mover.other())
        });
    }
    Ok((out, nodes))
}
