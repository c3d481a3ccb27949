//! The dedicated Hex solver for boards up to 8×8: who wins, by the
//! proof-number search of `dfpn.rs` over virtual connections and
//! fill-in, for whole lists of positions at once (shared over the cores,
//! with one transposition table of fixed size).
//!
//! Work is bounded. The caller's limit is in the generic solver's
//! positions; one position searched here costs about [`COST`] of those (two
//! H-searches). Before searching, the work is estimated from the number of
//! empty cells and a board that would exceed the limit is refused at once;
//! during the search, the positions searched over all threads together stop
//! at limit / [`COST`].

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::board::{Hex, HexPosition};
use super::dfpn::{OutOfBudget, Solver, State};
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
/// one thread: all 6×6 openings (35 empty cells) took about 10,000
/// positions searched; each empty cell more is taken to multiply that by 1.5.
pub fn estimate(empty: u32) -> f64 {
    (COST as f64) * 10_000.0 * 1.5f64.powi(empty as i32 - 35)
}

/// The table size (log2 of its buckets) for an N×N board: about 40 MB at
/// 6×6, 170 MB from 7×7 up.
pub(super) fn table_bits(n: u32) -> u32 {
    match n {
        0..=4 => 12,
        5 => 15,
        6 => 17,
        _ => 19,
    }
}

/// A position as the search sees it.
pub(super) fn state(pos: &HexPosition) -> State {
    State {
        stones: [pos.red[0], pos.blue[0]],
        side: usize::from(pos.turn == Player::Two),
        swapped: pos.swapped,
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

/// Who wins each of `positions` (on a board of at most 8×8), `None` for
/// those not solved within `max_searched` positions searched or by
/// `deadline`. The positions are shared out over the machine's cores;
/// `done` hears of each as it is finished, with how many are finished.
pub fn solve_all(
    game: &Hex,
    positions: &[HexPosition],
    max_searched: Option<u64>,
    deadline: Option<Instant>,
    done: &(dyn Fn(usize, usize, Option<Outcome>) + Sync),
) -> (Vec<Option<Outcome>>, u64) {
    let n = u32::from(game.size().min(MAX_SIZE));
    let solver = Solver::new(n, game.swap_allowed(), table_bits(n));
    solver.set_budget(max_searched, deadline);
    let count = positions.len();
    let finished = AtomicUsize::new(0);
    // Each thread takes the next position in turn; once none is left to
    // take, it helps with the oldest one still being searched (solving its
    // children from the end), so that the last, hardest positions have
    // every core.
    let next = AtomicUsize::new(0);
    let closed: Vec<AtomicBool> = (0..count).map(|_| AtomicBool::new(false)).collect();
    let cursors: Vec<AtomicUsize> = (0..count).map(|_| AtomicUsize::new(0)).collect();
    let results: Vec<Mutex<Option<Outcome>>> = (0..count).map(|_| Mutex::new(None)).collect();
    let threads = crate::par::current_num_threads().clamp(1, count.max(1));
    crate::par::scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i < count {
                    let pos = &positions[i];
                    // An opening not begun when the budget is spent is not
                    // begun at all (each would still search a few hundred
                    // positions before looking at the budget again).
                    let outcome = if solver.spent() {
                        None
                    } else {
                        match solver.wins(state(pos)) {
                            Ok(true) => Some(Outcome::Win(pos.turn)),
                            Ok(false) => Some(Outcome::Win(pos.turn.other())),
                            Err(OutOfBudget) => None,
                        }
                    };
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = outcome;
                    closed[i].store(true, Ordering::Relaxed);
                    done(i, finished.fetch_add(1, Ordering::Relaxed) + 1, outcome);
                    continue;
                }
                let helped = (0..count)
                    .filter(|&j| !closed[j].load(Ordering::Relaxed))
                    .any(|j| solver.help(state(&positions[j]), &closed[j], &cursors[j]));
                if !helped {
                    break;
                }
            });
        }
    });
    let out = results
        .into_iter()
        .map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    (out, solver.searched())
}

/// Who wins each of `positions` with best play. Refused at once with
/// [`TooLarge`] for boards over 8×8 or when the [`estimate`] is over
/// `limit`; stops with it when the positions searched pass limit / [`COST`].
pub fn winners(game: &Hex, positions: &[HexPosition], limit: usize) -> Option<Result<Vec<Outcome>, TooLarge>> {
    Some(winners_counted(game, positions, limit).map(|(o, _)| o))
}

/// [`winners`], with the positions searched: for benchmarks.
pub fn winners_counted(game: &Hex, positions: &[HexPosition], limit: usize) -> Result<(Vec<Outcome>, u64), TooLarge> {
    check(game, positions, limit)?;
    if positions.is_empty() {
        return Ok((Vec::new(), 0));
    }
    let (solved, searched) = solve_all(game, positions, Some((limit / COST) as u64), None, &|_, _, _| {});
    let all: Option<Vec<Outcome>> = solved.into_iter().collect();
    all.map(|o| (o, searched)).ok_or(TooLarge {
        game: game.spec_string(),
        limit,
    })
}
