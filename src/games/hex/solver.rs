//! A dedicated Hex solver for boards up to 8×8: who wins, by a depth-first
//! proof search with virtual connections, in the manner of Hayward,
//! Björnsson, Johanson, Kan, Po and van Rijswijck, "Solving 7×7 Hex:
//! Virtual Connections and Game-State Reduction" (2003).
//!
//! At each position, with P to move and O the opponent:
//!
//! 1. If O's stones already join O's edges, P has lost.
//! 2. H-search for P ([`super::vc`]): a semi (or full) connection between P's
//!    edges wins at once: P plays its key, then keeps the full connection.
//! 3. H-search for O: a full connection between O's edges loses for P,
//!    whatever P plays.
//! 4. Otherwise P must play in the *must-play region*, the intersection of
//!    the carriers of O's semi connections between O's edges: a move
//!    outside one of them lets O play its key and connect. P wins if some
//!    move there leaves a position O loses.
//!
//! Moves are tried in order of the history heuristic (cells that refuted
//! other positions before), then centre first. Answers go into a
//! transposition table of fixed size ([`super::table`]) shared by the
//! threads, keyed by the position up to the 180° rotation, so memory stays
//! bounded whatever the search does.
//!
//! Work is bounded too. The caller's limit is in the generic solver's
//! positions; one position searched here costs about [`COST`] of those (two
//! H-searches). Before searching, the work is estimated from the number of
//! empty cells and a board that would exceed the limit is refused at once;
//! during the search, the positions searched over all threads together stop
//! at limit / [`COST`].
//!
//! The swap: before the opening stone every cell is tried (the reply may be
//! the swap, which the connection reasoning knows nothing of); when the swap
//! is pending, the swap is tried before the must-play reasoning applies.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::bitboard::Geometry;
use super::board::{Hex, HexPosition};
use super::table::{hash, Table};
use super::vc::HSearch;
use crate::game::{Outcome, Player};
use crate::search::TooLarge;

/// The largest board this solver takes on.
pub const MAX_SIZE: u8 = 8;

/// One position searched here costs about this many positions stored by the
/// generic solver (measured: about 10,000 a second a core, against about a
/// million).
pub const COST: usize = 100;

/// The estimated work, in the generic solver's positions, to solve every
/// position on a board with `empty` empty cells. Fitted to measurements on
/// one thread: all 5×5 openings (24 empty cells) took 2,548 positions
/// searched; all 6×6 openings (35) were not done after 3,000,000, so each
/// empty cell multiplies the work by at least (3,000,000 / 2,548)^(1/11),
/// about 1.9.
pub fn estimate(empty: u32) -> f64 {
    (COST as f64) * 2548.0 * 1.9f64.powi(empty as i32 - 24)
}

/// Positions searched between two looks at the shared budget.
const BUDGET_STEP: u64 = 256;

/// What the threads share: the board, the table and the budget.
struct Shared {
    geometry: Geometry,
    swap: bool,
    table: Table,
    searched: AtomicU64,
    /// The limit as given, in the generic solver's positions.
    limit: u64,
    spec: String,
}

impl Shared {
    fn new(game: &Hex, limit: usize) -> Shared {
        let n = u32::from(game.size());
        Shared {
            geometry: Geometry::new(n),
            swap: game.swap_allowed(),
            table: Table::new((2 * n + 10).min(22)),
            searched: AtomicU64::new(0),
            limit: limit as u64,
            spec: game.spec_string(),
        }
    }

    fn too_large(&self) -> TooLarge {
        TooLarge {
            game: self.spec.clone(),
            limit: self.limit as usize,
        }
    }

    /// Who wins `pos`, searched on this thread.
    fn solve(&self, pos: &HexPosition) -> Result<(Outcome, u64), TooLarge> {
        let mut search = Search::new(self);
        let side = usize::from(pos.turn == Player::Two);
        let stones = [pos.red[0], pos.blue[0]];
        let win = search.wins(stones, side, pos.swapped)?;
        search.flush()?;
        let winner = if win { pos.turn } else { pos.turn.other() };
        Ok((Outcome::Win(winner), search.searched))
    }
}

/// One thread's search.
struct Search<'a> {
    shared: &'a Shared,
    hsearch: HSearch,
    /// Cells in order of distance from the centre.
    centre_first: Vec<u32>,
    /// How often each cell refuted a position, weighted to the top of the tree.
    history: [u64; 64],
    /// Positions this thread searched, and those not yet counted in the budget.
    searched: u64,
    unflushed: u64,
}

impl<'a> Search<'a> {
    fn new(shared: &'a Shared) -> Search<'a> {
        let n = shared.geometry.n;
        let centre = (f64::from(n) - 1.0) / 2.0;
        let dist = |i: u32| {
            let (f, r) = (f64::from(i % n) - centre, f64::from(i / n) - centre);
            // Hex distance in these axial coordinates.
            (f.abs() + r.abs() + (f + r).abs()) / 2.0
        };
        let mut centre_first: Vec<u32> = (0..n * n).collect();
        centre_first.sort_by(|&a, &b| dist(a).total_cmp(&dist(b)).then(a.cmp(&b)));
        Search {
            shared,
            hsearch: HSearch::new(),
            centre_first,
            history: [0; 64],
            searched: 0,
            unflushed: 0,
        }
    }

    /// Count one position searched against the shared budget.
    fn count(&mut self) -> Result<(), TooLarge> {
        self.searched += 1;
        self.unflushed += 1;
        if self.unflushed >= BUDGET_STEP {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), TooLarge> {
        let total = self.shared.searched.fetch_add(self.unflushed, Ordering::Relaxed) + self.unflushed;
        self.unflushed = 0;
        if total > self.shared.limit / COST as u64 {
            return Err(self.shared.too_large());
        }
        Ok(())
    }

    /// The table key of a position, the same for its 180° rotation.
    fn key(&self, stones: [u64; 2], side: usize, swap_live: bool) -> u64 {
        let g = &self.shared.geometry;
        let rotated = [g.rotate(stones[0]), g.rotate(stones[1])];
        let [red, blue] = stones.min(rotated);
        hash(red, blue, side as u64 | u64::from(swap_live) << 1)
    }

    /// Whether the side to move (`side`: 0 Red, 1 Blue) wins.
    fn wins(&mut self, stones: [u64; 2], side: usize, swapped: bool) -> Result<bool, TooLarge> {
        let shared = self.shared;
        let g = &shared.geometry;
        if g.connects(stones[1 - side], 1 - side) {
            return Ok(false);
        }
        let placed = (stones[0] | stones[1]).count_ones();
        let swap_live = self.shared.swap && !swapped && placed <= 1;
        let key = self.key(stones, side, swap_live);
        if let Some(win) = self.shared.table.get(key) {
            return Ok(win);
        }
        self.count()?;
        let before = self.searched;
        let win = if swap_live && placed == 0 {
            self.opening(stones, side)?
        } else {
            let swap_pending = swap_live && stones[side] == 0;
            self.expand(stones, side, swapped, swap_pending)?
        };
        self.shared.table.put(key, win, self.searched - before);
        Ok(win)
    }

    /// The empty board before a game with the swap: any cell, which the
    /// opponent may then take by swapping.
    fn opening(&mut self, stones: [u64; 2], side: usize) -> Result<bool, TooLarge> {
        for k in 0..self.centre_first.len() {
            let bit = 1u64 << self.centre_first[k];
            let mut child = stones;
            child[side] |= bit;
            if !self.wins(child, 1 - side, false)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Steps 2 to 4 of the module's description, with the swap tried first
    /// when it is pending.
    fn expand(&mut self, stones: [u64; 2], side: usize, swapped: bool, swap_pending: bool) -> Result<bool, TooLarge> {
        let shared = self.shared;
        let g = &shared.geometry;
        let (mine, theirs) = (stones[side], stones[1 - side]);
        let empty = g.full & !(mine | theirs);
        if self.hsearch.edges(g, mine, theirs, side, true).semi {
            return Ok(true);
        }
        if swap_pending {
            // The opening stone becomes ours, mirrored across the long diagonal.
            let mut child = [0u64; 2];
            child[side] = 1 << g.transpose(theirs.trailing_zeros());
            if !self.wins(child, 1 - side, true)? {
                return Ok(true);
            }
        }
        let theirs_link = self.hsearch.edges(g, theirs, mine, 1 - side, false);
        if theirs_link.full {
            return Ok(false);
        }
        let candidates = theirs_link.must_play & empty;
        let mut moves = [0u32; 64];
        let mut len = 0;
        for &c in &self.centre_first {
            if candidates >> c & 1 == 1 {
                moves[len] = c;
                len += 1;
            }
        }
        // Stable: equal history keeps centre first.
        moves[..len].sort_by_key(|&c| std::cmp::Reverse(self.history[c as usize]));
        let weight = u64::from(empty.count_ones());
        for &c in &moves[..len] {
            let mut child = stones;
            child[side] |= 1 << c;
            if !self.wins(child, 1 - side, swapped)? {
                self.history[c as usize] += weight * weight;
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Refuse at once a board over 8×8, or positions whose estimated work is
/// over the limit.
fn check(game: &Hex, positions: &[HexPosition], limit: usize) -> Result<(), TooLarge> {
    let n = u32::from(game.size());
    let most_empty = positions
        .iter()
        .map(|p| n * n - (super::board::count(&p.red) + super::board::count(&p.blue)))
        .max()
        .unwrap_or(0);
    if game.size() > MAX_SIZE || estimate(most_empty) > limit as f64 {
        return Err(TooLarge {
            game: game.spec_string(),
            limit,
        });
    }
    Ok(())
}

/// Who wins each of `positions` with best play. Positions are shared out
/// over the machine's cores, which share one transposition table of fixed
/// size. Refused at once with [`TooLarge`] for boards over 8×8 or when the
/// [`estimate`] is over `limit`; stops with it when the positions searched
/// pass limit / [`COST`].
pub fn winners(game: &Hex, positions: &[HexPosition], limit: usize) -> Option<Result<Vec<Outcome>, TooLarge>> {
    if let Err(e) = check(game, positions, limit) {
        return Some(Err(e));
    }
    if positions.is_empty() {
        return Some(Ok(Vec::new()));
    }
    let shared = Shared::new(game, limit);
    Some(
        positions
            .par_iter()
            .map(|pos| shared.solve(pos).map(|(o, _)| o))
            .collect(),
    )
}

/// Solve `positions` on one thread with one shared table, counting the
/// positions searched: for benchmarks.
pub fn winners_counted(game: &Hex, positions: &[HexPosition], limit: usize) -> Result<(Vec<Outcome>, u64), TooLarge> {
    check(game, positions, limit)?;
    let shared = Shared::new(game, limit);
    let mut out = Vec::new();
    let mut nodes = 0;
    for pos in positions {
        let (o, searched) = shared.solve(pos)?;
        out.push(o);
        nodes += searched;
    }
    Ok((out, nodes))
}
