//! `menace solve hex:N`: who wins each opening, or a position given, by
//! the Hex solver (boards up to 8×8), within a budget of time or positions.

use std::time::{Duration, Instant};

use serde_json::json;

use menace::games::hex::{perfect, solver as hex_solver, HexPosition};
use menace::prelude::*;
use menace::{Hex, Outcome};

use super::args::SolveArgs;
use super::exact::{solve_game, ORACLE_FIRST_LIMIT};
use crate::cli::args::usage;
use crate::cli::output::print_json;
use crate::cli::progress::openings_bar;

/// The budget on 8×8 when none is given: ten minutes.
const DEFAULT_SECONDS_8X8: f64 = 600.0;

pub fn run(hex: &Hex, args: &SolveArgs) -> anyhow::Result<()> {
    if let Some(text) = &args.position {
        let pos = hex.parse_position(text).map_err(usage)?;
        return position(hex, args, &pos);
    }
    // Small boards: the exact solver first, which gives distances.
    let limit = args.max_positions.unwrap_or(ORACLE_FIRST_LIMIT);
    let why = match hex.check_exhaustive(limit) {
        Ok(()) => return solve_game(hex, args),
        Err(e) => e.to_string(),
    };
    openings(hex, args, &why)
}

fn too_big(hex: &Hex) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: the Hex solver takes boards up to {m}x{m}; play larger boards against a search opponent such as mcts:1000",
        hex.spec(),
        m = hex_solver::MAX_SIZE
    )
}

/// The budget: positions searched and a deadline, from the flags (8×8
/// gets [`DEFAULT_SECONDS_8X8`] when neither is given).
fn budget(hex: &Hex, args: &SolveArgs) -> (Option<u64>, Option<Instant>, Option<f64>) {
    let max_searched = args.max_positions.map(|p| (p / hex_solver::COST).max(1) as u64);
    let seconds = args
        .max_seconds
        .or((hex.size() >= 8 && args.max_positions.is_none()).then_some(DEFAULT_SECONDS_8X8));
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s));
    (max_searched, deadline, seconds)
}

fn budget_text(args: &SolveArgs, seconds: Option<f64>) -> String {
    let mut parts = Vec::new();
    if let Some(s) = seconds {
        parts.push(format!("{s} seconds"));
    }
    if let Some(p) = args.max_positions {
        parts.push(format!("{p} positions (--max-positions)"));
    }
    parts.join(", ")
}

/// Who wins after each opening stone.
fn openings(hex: &Hex, args: &SolveArgs, why: &str) -> anyhow::Result<()> {
    if hex.size() > hex_solver::MAX_SIZE {
        return Err(too_big(hex));
    }
    let (max_searched, deadline, seconds) = budget(hex, args);
    let start = hex.start();
    let mover = hex.turn(&start);
    let moves = hex.moves(&start);
    let children: Vec<HexPosition> = moves.iter().map(|&m| hex.play(&start, m)).collect();
    // Each opening up to the 180° rotation once.
    let keys: Vec<HexPosition> = children.iter().map(|c| hex.canonical(c).0).collect();
    let mut distinct: Vec<HexPosition> = Vec::new();
    for (k, c) in keys.iter().zip(&children) {
        if !distinct.iter().any(|d| hex.canonical(d).0 == *k) {
            distinct.push(*c);
        }
    }
    let bar = openings_bar(&format!("solving {}", hex.spec()), distinct.len() as u64);
    let shown = bar.clone();
    let t = Instant::now();
    let (solved, searched) = hex_solver::solve_all(hex, &distinct, max_searched, deadline, &|_, done, _| {
        shown.set_position(done as u64)
    });
    let elapsed = t.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let outcome_of = |k: &HexPosition| {
        let i = distinct.iter().position(|d| hex.canonical(d).0 == *k).unwrap_or(0);
        solved[i]
    };
    let names = |want: &dyn Fn(Option<Outcome>) -> bool| -> Vec<String> {
        moves
            .iter()
            .zip(&keys)
            .filter(|(_, k)| want(outcome_of(k)))
            .map(|(m, _)| hex.move_name(&start, *m))
            .collect()
    };
    let winning = names(&|o| o == Some(Outcome::Win(mover)));
    let losing = names(&|o| o == Some(Outcome::Win(mover.other())));
    let unsolved = names(&|o| o.is_none());
    let result = if !winning.is_empty() {
        Some(mover)
    } else if unsolved.is_empty() {
        Some(mover.other())
    } else {
        None
    };
    if args.json {
        let first: Vec<_> = moves
            .iter()
            .zip(&keys)
            .map(|(m, k)| {
                let w = match outcome_of(k) {
                    Some(Outcome::Win(p)) => json!(hex.player_name(p)),
                    _ => json!(null),
                };
                json!({"move": hex.move_name(&start, *m), "winner": w})
            })
            .collect();
        return print_json(&json!({
            "game": hex.spec(),
            "to_move": hex.player_name(mover),
            "result": result.map(|p| format!("{} wins", hex.player_name(p))),
            "value": null,
            "first_moves": first,
            "winning_first_moves": winning,
            "unsolved_first_moves": unsolved,
            "positions_searched": searched,
            "seconds": elapsed,
        }));
    }
    match result {
        Some(p) => outln!("{}: {} wins with best play.", hex.spec(), hex.player_name(p)),
        None => outln!("{}: not solved within the budget.", hex.spec()),
    }
    outln!(
        "(Distances not computed: {why}; winners found by the Hex solver in {elapsed:.1} s, {searched} positions searched.)"
    );
    let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(" ") };
    outln!(
        "{} moves first; winning first moves ({} of {}): {}",
        hex.player_name(mover),
        winning.len(),
        moves.len(),
        list(&winning)
    );
    if !unsolved.is_empty() {
        outln!("Losing first moves ({}): {}", losing.len(), list(&losing));
        outln!(
            "Not solved within the budget of {} ({}): {}",
            budget_text(args, seconds),
            unsolved.len(),
            list(&unsolved)
        );
    }
    Ok(())
}

/// Who wins one position, with the winning moves or, when lost, the moves that resist.
fn position(hex: &Hex, args: &SolveArgs, pos: &HexPosition) -> anyhow::Result<()> {
    if let Outcome::Win(p) = hex.outcome(pos) {
        return Err(usage(format!(
            "position '{}': the game is over, {} has won",
            hex.position_string(pos),
            hex.player_name(p)
        )));
    }
    if hex.size() > hex_solver::MAX_SIZE {
        return Err(too_big(hex));
    }
    let (max_searched, deadline, seconds) = budget(hex, args);
    let t = Instant::now();
    let verdict = perfect::solve_position(hex, pos, max_searched, deadline).ok_or_else(|| {
        anyhow::anyhow!(
            "{} from '{}': not solved within the budget of {}; raise --max-seconds or --max-positions",
            hex.spec(),
            hex.position_string(pos),
            budget_text(args, seconds)
        )
    })?;
    let elapsed = t.elapsed().as_secs_f64();
    let mover = hex.turn(pos);
    let winner = if verdict.wins { mover } else { mover.other() };
    let names: Vec<String> = verdict.moves.iter().map(|&m| hex.move_name(pos, m)).collect();
    if args.json {
        return print_json(&json!({
            "game": hex.spec(),
            "position": hex.position_string(pos),
            "to_move": hex.player_name(mover),
            "result": format!("{} wins", hex.player_name(winner)),
            "value": null,
            "winning_moves": if verdict.wins { json!(names) } else { json!([]) },
            "resisting_moves": if verdict.wins { json!([]) } else { json!(names) },
            "seconds": elapsed,
        }));
    }
    outln!(
        "{} from {}: {} wins with best play.",
        hex.spec(),
        hex.position_string(pos),
        hex.player_name(winner)
    );
    if verdict.wins {
        outln!(
            "{} to move wins; winning moves ({}, dead and captured cells aside): {}",
            hex.player_name(mover),
            names.len(),
            names.join(" ")
        );
    } else {
        outln!(
            "{} to move loses; moves that resist (the must-play region): {}",
            hex.player_name(mover),
            names.join(" ")
        );
    }
    outln!("(Distances not computed: the Hex solver proves who wins, not in how many plies; {elapsed:.2} s.)");
    Ok(())
}
