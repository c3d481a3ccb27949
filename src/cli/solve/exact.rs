//! `menace solve GAME`: the exact solver's value of the start or a position
//! given, each move's value and the principal line; for a game with a
//! winner solver of its own, who wins each first move where the exact
//! solver runs out.

use std::time::{Duration, Instant};

use serde_json::json;

use menace::game::{OverBudget, SearchBudget, Spent};
use menace::prelude::*;
use menace::search::solver::{self, Solver, Value};
use menace::Outcome;

use super::args::SolveArgs;
use crate::cli::args::usage;
use crate::cli::output::{numbered_line, print_json};
use crate::cli::progress::{openings_bar, positions_spinner};

/// The start, or the position given.
pub fn solve_game<G: Game>(game: &G, args: &SolveArgs) -> anyhow::Result<()> {
    solve_from(game, args, game.start(), true)
}

/// The value of `start` (the game's start when `from_start`), its moves'
/// values and the principal line, by the exact solver.
pub fn solve_from<G: Game>(game: &G, args: &SolveArgs, start: G::Position, from_start: bool) -> anyhow::Result<()> {
    // --max-seconds counts from here, the exact solver's attempt included.
    let started = Instant::now();
    if let Outcome::Win(p) = game.outcome(&start) {
        return Err(usage(format!(
            "position '{}': the game is over, {} has won",
            game.position_string(&start),
            game.player_name(p)
        )));
    }
    if game.outcome(&start).is_over() {
        return Err(usage(format!(
            "position '{}': the game is over, drawn",
            game.position_string(&start)
        )));
    }
    // Games with a dedicated winner solver (Hex) try the exact solver briefly,
    // then answer who wins each first move without distances.
    let has_oracle = from_start && game.winner_oracle(&[], 0).is_some();
    // A winner-only search to fall back on where the exact solve is too large.
    let has_fallback = from_start
        && game
            .winner_fallback(&[], SearchBudget::default(), &mut |_| {})
            .is_some();
    let limit = args.max_positions.unwrap_or(if has_oracle {
        ORACLE_FIRST_LIMIT
    } else {
        solver::DEFAULT_LIMIT
    });
    if has_oracle || has_fallback {
        if let Err(why) = game.check_exhaustive(limit) {
            // Bound to fail: skip the exact solver's attempt (seconds and hundreds of MB).
            return solve_winners(game, args, &why.to_string(), started);
        }
    }
    let mut solver = Solver::with_limit(game.clone(), limit);
    let bar = positions_spinner(&format!("solving {}", game.spec()));
    let shown = bar.clone();
    solver.on_progress(move |n| shown.set_position(n as u64));
    let value = solver.value(&start);
    bar.finish_and_clear();
    let value = match value {
        Ok(v) => v,
        Err(e) if has_oracle || has_fallback => return solve_winners(game, args, &e.to_string(), started),
        Err(_) if game.too_large_for_exhaustive_search() => {
            return Err(anyhow::anyhow!(
                "{} is far too large to solve exactly, whatever --max-positions: play it against a search opponent such as mcts:1000",
                game.spec()
            ))
        }
        Err(e) => {
            return Err(anyhow::anyhow!(
                "{e}: raise --max-positions, or play it against a search opponent such as mcts:1000"
            ))
        }
    };
    let mut first_moves = solver.move_values(&start)?;
    first_moves.sort_by_key(|(m, v)| (-v.score(), *m));
    let line = solver.principal_line(&start)?;
    let mover = game.turn(&start);
    let verdict = match value {
        Value::Win(_) => format!("{} wins", game.player_name(mover)),
        Value::Loss(_) => format!("{} wins", game.player_name(mover.other())),
        Value::Draw => "draw".to_string(),
    };
    let line_text = numbered_line(game, &start, &line);
    if args.json {
        let moves: Vec<_> = first_moves
            .iter()
            .map(|(m, v)| json!({"move": game.move_name(&start, *m), "value": v}))
            .collect();
        return print_json(&json!({
            "game": game.spec(),
            "position": game.position_string(&start),
            "to_move": game.player_name(mover),
            "result": verdict,
            "value": value,
            "first_moves": moves,
            "principal_line": line.iter().scan(start.clone(), |p, &m| {
                let name = game.move_name(p, m);
                *p = game.play(p, m);
                Some(name)
            }).collect::<Vec<_>>(),
            "positions": solver.positions(),
        }));
    }
    if from_start {
        outln!("{}: {} with best play.", game.spec(), verdict);
    } else {
        outln!(
            "{} from {}: {} with best play.",
            game.spec(),
            game.position_string(&start),
            verdict
        );
    }
    let plies = match value {
        Value::Win(n) | Value::Loss(n) => n,
        Value::Draw => line.len() as u32,
    };
    match value {
        Value::Draw => outln!("The best line lasts {plies} plies."),
        _ => outln!(
            "{} moves first and {} in {} {} ({} of {}'s own moves).",
            game.player_name(mover),
            if matches!(value, Value::Win(_)) {
                "wins"
            } else {
                "loses"
            },
            plies,
            solver::plies(plies),
            plies.div_ceil(2),
            game.player_name(mover)
        ),
    }
    outln!("Principal line: {line_text}");
    outln!(
        "{} for {}:",
        if from_start { "First moves" } else { "Moves" },
        game.player_name(mover)
    );
    for (m, v) in &first_moves {
        outln!("  {:<8} {}", game.move_name(&start, *m), v);
    }
    outln!("({} positions solved)", solver.positions());
    Ok(())
}

/// How many positions the exact solver may store before a game with a
/// dedicated winner solver falls back to it.
pub const ORACLE_FIRST_LIMIT: usize = 1_000_000;

/// The error of a winner search stopped by its budget: the one of
/// `--max-seconds` or `--max-positions` that stopped it, worded as a Hex
/// solve's, or the search's own (by default 4 000 million positions).
fn over_budget<G: Game>(game: &G, args: &SolveArgs, e: &OverBudget) -> anyhow::Error {
    let flag = match e.spent {
        Spent::Seconds(_) if args.max_seconds.is_some() => Some("--max-seconds"),
        Spent::Positions(_) if args.max_positions.is_some() => Some("--max-positions"),
        _ => None,
    };
    let budget = match (e.spent, args.max_seconds) {
        // The seconds asked, as asked (the search counts from its own start).
        (Spent::Seconds(_), Some(s)) => format!("{s} seconds"),
        (spent, _) => spent.to_string(),
    };
    match flag {
        Some(flag) => anyhow::anyhow!(
            "{}: not solved within the budget of {budget} ({flag}); raise --max-seconds or --max-positions",
            game.spec()
        ),
        None => anyhow::anyhow!(
            "{}: not solved within the budget of {budget}; give a larger --max-positions or a --max-seconds",
            game.spec()
        ),
    }
}

/// Who wins, and with which first moves, from a dedicated winner solver.
fn solve_winners<G: Game>(game: &G, args: &SolveArgs, why: &str, started: Instant) -> anyhow::Result<()> {
    let limit = args.max_positions.unwrap_or(solver::DEFAULT_LIMIT);
    let start = game.start();
    let mover = game.turn(&start);
    let moves = game.moves(&start);
    let children: Vec<G::Position> = moves.iter().map(|&m| game.play(&start, m)).collect();
    // Solve each symmetry class of first moves once.
    let keys: Vec<G::Position> = children.iter().map(|c| game.canonical(c).0).collect();
    let mut distinct: Vec<G::Position> = Vec::new();
    for (k, c) in keys.iter().zip(&children) {
        if !distinct.iter().any(|d| game.canonical(d).0 == *k) {
            distinct.push(c.clone());
        }
    }
    // The fallback search takes minutes on the largest boards: a bar over the first moves.
    let bar = openings_bar(
        &format!("deciding {}'s first moves", game.spec()),
        distinct.len() as u64,
    );
    let shown = bar.clone();
    // The fallback stops at --max-positions positions searched and at --max-seconds.
    let budget = SearchBudget {
        positions: args.max_positions.map(|p| p as u64),
        deadline: args.max_seconds.map(|s| started + Duration::from_secs_f64(s)),
    };
    let answer = game
        .winner_oracle(&distinct, limit)
        .map(|a| a.map_err(anyhow::Error::from))
        .or_else(|| {
            game.winner_fallback(&distinct, budget, &mut |n| shown.set_position(n as u64))
                .map(|a| a.map_err(|e| over_budget(game, args, &e)))
        });
    bar.finish_and_clear();
    let solved = match answer {
        Some(answer) => answer?,
        None => distinct
            .iter()
            .map(|c| solver::winner(game, c, limit).map(|(o, _)| o))
            .collect::<Result<Vec<_>, _>>()?,
    };
    let outcomes: Vec<Outcome> = keys
        .iter()
        .map(|k| {
            let i = distinct.iter().position(|d| game.canonical(d).0 == *k).unwrap_or(0);
            solved[i]
        })
        .collect();
    let first_moves: Vec<(G::Move, Outcome)> = moves.into_iter().zip(outcomes).collect();
    let winning: Vec<String> = first_moves
        .iter()
        .filter(|(_, o)| *o == Outcome::Win(mover))
        .map(|(m, _)| game.move_name(&start, *m))
        .collect();
    let winner = if winning.is_empty() { mover.other() } else { mover };
    if args.json {
        let moves: Vec<_> = first_moves
            .iter()
            .map(|(m, o)| {
                let w = match o {
                    Outcome::Win(p) => json!(game.player_name(*p)),
                    _ => json!("draw"),
                };
                json!({"move": game.move_name(&start, *m), "winner": w})
            })
            .collect();
        return print_json(&json!({
            "game": game.spec(),
            "to_move": game.player_name(mover),
            "result": format!("{} wins", game.player_name(winner)),
            "value": null,
            "first_moves": moves,
            "winning_first_moves": winning,
        }));
    }
    outln!("{}: {} wins with best play.", game.spec(), game.player_name(winner));
    outln!("(Distances not computed: {why}; winners found by the game's own solver.)");
    outln!(
        "{} moves first; winning first moves ({} of {}): {}",
        game.player_name(mover),
        winning.len(),
        first_moves.len(),
        if winning.is_empty() {
            "none".to_string()
        } else {
            winning.join(" ")
        }
    );
    Ok(())
}
