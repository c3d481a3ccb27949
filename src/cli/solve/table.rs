//! `menace solve --table hexapawn`: who wins Hexapawn with best play, board
//! size by board size, each board solved on every core within a budget.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde_json::json;

use menace::error::InvalidValue;
use menace::games::hexapawn::solver::{self as hexapawn_solver, WinnerSearch, DEFAULT_TABLE_BITS};
use menace::games::hexapawn::Pawn;
use menace::prelude::*;
use menace::{Hexapawn, Player};

use super::args::SolveArgs;
use crate::cli::args::usage;
use crate::cli::output::print_json;
use crate::cli::progress::positions_spinner;

/// The default time budget a board for `--table`, in seconds.
const TABLE_SECONDS: f64 = 10.0;

/// The most a board of at most `--decide-cells` cells is searched, in
/// seconds (8×5 takes 10 s with normal pawns and 64 s with Berolina pawns;
/// with Berolina Plus pawns 10×4 takes 10 to 12 minutes, 8×5 over 40).
const DECIDE_SECONDS: f64 = 1800.0;

/// Boards of at least this many cells get the larger table.
const LARGE_CELLS: u32 = 30;

/// The larger table: 2^22 buckets of 64 bytes (256 MiB), one for each core
/// searching such a board (two at most on this project's 2-core machine).
/// On 5×8 with Berolina pawns it searched a third of the positions the
/// default 64 MiB table did (80 million against 239), in 40% of the time,
/// before the half turn of the search's key.
const LARGE_TABLE_BITS: u32 = 22;

pub fn run(family: &str, args: &SolveArgs) -> anyhow::Result<()> {
    // A family has a table if it takes a WxH size (of the games today, hexapawn).
    if family.contains([':', ',']) || menace::parse_spec(&format!("{family}:3x3")).is_err() {
        return Err(usage(format!(
            "--table '{family}': only a game family sized WxH (hexapawn) has a table of board sizes"
        )));
    }
    let pawn = Pawn::parse(&args.pawn).map_err(usage)?;
    let seconds = args.max_seconds.unwrap_or(TABLE_SECONDS);
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0) {
        return Err(usage(format!(
            "--max-seconds '{seconds}': expected a number of seconds from more than 0 to 86400"
        )));
    }
    let boards: Vec<(u8, u8)> = (3..=args.max_ranks)
        .flat_map(|h| (1..=args.max_files).map(move |w| (w, h)))
        .collect();
    let bar = positions_spinner("");
    bar.set_message(format!("solving {} boards", boards.len()));
    let decide = u32::from(args.decide_cells);
    let cells = winners(&boards, pawn, seconds, decide, &|done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let label = |c: &Cell| match &c.result {
        Ok(Player::One) => "W",
        Ok(Player::Two) => "B",
        Err(_) => "-",
    };
    if args.json {
        let out: Vec<_> = cells
            .iter()
            .map(|c| {
                let (winner, reason) = match &c.result {
                    Ok(Player::One) => (json!("white"), json!(null)),
                    Ok(Player::Two) => (json!("black"), json!(null)),
                    Err(why) => (json!(null), json!(why.to_string())),
                };
                json!({"files": c.files, "ranks": c.ranks, "winner": winner, "seconds": c.seconds,
                       "positions_searched": c.nodes, "unsolved": reason})
            })
            .collect();
        return print_json(
            &json!({"family": "hexapawn", "pawn": pawn.name(), "max_seconds": seconds, "decide_cells": decide, "boards": out}),
        );
    }
    outln!(
        "Hexapawn with {}: who wins with best play (W = White, B = Black, - = not decided)",
        pawn.title()
    );
    out!("ranks\\files");
    for w in 1..=args.max_files {
        out!("{w:>4}");
    }
    outln!();
    for row in cells.chunks(usize::from(args.max_files)) {
        out!("{:>11}", row[0].ranks);
        for c in row {
            out!("{:>4}", label(c));
        }
        outln!();
    }
    let solved: Vec<&Cell> = cells.iter().filter(|c| c.result.is_ok()).collect();
    let total: f64 = solved.iter().map(|c| c.seconds).sum();
    outln!(
        "{} boards decided, searching {:.1} s in all (the slowest {}, {:.2} s).",
        solved.len(),
        total,
        solved
            .iter()
            .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
            .map_or("none".to_string(), |c| format!("{}x{}", c.files, c.ranks)),
        solved.iter().map(|c| c.seconds).fold(0.0, f64::max)
    );
    for c in cells.iter() {
        if let Err(why) = &c.result {
            if c.files as u32 * c.ranks as u32 <= 64 {
                outln!("  {}x{}: {why}", c.files, c.ranks);
            }
        }
    }
    Ok(())
}

/// Why a board of the table was not decided.
#[derive(Debug, thiserror::Error)]
pub enum Unsolved {
    /// Past what the winner search's bitboards hold.
    #[error("more than 64 cells")]
    OverSixtyFourCells,
    /// Not tried: a smaller board inside it was not decided either.
    #[error("not tried: it contains {files}x{ranks}, not decided")]
    ContainsUndecided { files: u8, ranks: u8 },
    /// Not reached (a worker stopped).
    #[error("not tried")]
    NotTried,
    /// No such board.
    #[error("{0}")]
    Board(InvalidValue),
    /// The search ran out of its budget.
    #[error("{0}")]
    Search(hexapawn_solver::Unsolved),
}

/// One board: who wins, or why it was not decided.
pub struct Cell {
    pub files: u8,
    pub ranks: u8,
    pub result: Result<Player, Unsolved>,
    pub seconds: f64,
    pub nodes: u64,
}

/// Solve `boards` (in the order given), smallest first on every core;
/// a board containing one already given up is not tried; a board of at
/// most `decide_cells` cells is searched until decided.
pub fn winners(
    boards: &[(u8, u8)],
    pawn: Pawn,
    seconds: f64,
    decide_cells: u32,
    done: &(dyn Fn(usize) + Sync),
) -> Vec<Cell> {
    let mut order: Vec<usize> = (0..boards.len()).collect();
    order.sort_by_key(|&i| {
        (
            u32::from(boards[i].0) * u32::from(boards[i].1),
            boards[i].1,
            boards[i].0,
        )
    });
    let cells: Mutex<Vec<Option<Cell>>> = Mutex::new(boards.iter().map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(boards.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = order.get(k) else { break };
                let (w, h) = boards[i];
                let given_up = {
                    let cells = cells.lock().unwrap_or_else(|e| e.into_inner());
                    cells
                        .iter()
                        .flatten()
                        .find(|c| {
                            c.result.is_err() && c.files <= w && c.ranks <= h && c.files as u32 * c.ranks as u32 <= 64
                        })
                        .map(|c| (c.files, c.ranks))
                };
                let cell = match (u32::from(w) * u32::from(h) > 64, given_up) {
                    (true, _) => unsolved(w, h, Unsolved::OverSixtyFourCells),
                    (false, Some((gw, gh))) => unsolved(w, h, Unsolved::ContainsUndecided { files: gw, ranks: gh }),
                    (false, None) if u32::from(w) * u32::from(h) <= decide_cells => {
                        solve(w, h, pawn, seconds.max(DECIDE_SECONDS))
                    }
                    (false, None) => solve(w, h, pawn, seconds),
                };
                cells.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(cell);
                done(finished.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    cells
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .zip(boards)
        .map(|(c, &(w, h))| c.unwrap_or_else(|| unsolved(w, h, Unsolved::NotTried)))
        .collect()
}

fn unsolved(files: u8, ranks: u8, why: Unsolved) -> Cell {
    Cell {
        files,
        ranks,
        result: Err(why),
        seconds: 0.0,
        nodes: 0,
    }
}

fn solve(files: u8, ranks: u8, pawn: Pawn, seconds: f64) -> Cell {
    let game = match Hexapawn::with_pawn(files, ranks, pawn) {
        Ok(g) => g,
        Err(e) => return unsolved(files, ranks, Unsolved::Board(e)),
    };
    let began = Instant::now();
    let bits = if u32::from(files) * u32::from(ranks) >= LARGE_CELLS {
        LARGE_TABLE_BITS
    } else {
        DEFAULT_TABLE_BITS
    };
    let mut search = WinnerSearch::new(game.clone(), bits).with_time_budget(seconds);
    let result = search.winner(&game.start()).map_err(Unsolved::Search);
    Cell {
        files,
        ranks,
        result,
        seconds: began.elapsed().as_secs_f64(),
        nodes: search.nodes(),
    }
}
