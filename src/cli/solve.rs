//! `menace solve`: game values, first moves, principal line; the hexapawn winners table.

use anyhow::Context;
use clap::Args;
use menace::prelude::*;
use serde_json::json;

use menace::search::solver::{self, Solver, Value};
use menace::training::exact::random_play;
use menace::{with_game, Game, Outcome, Player};

use super::output::{numbered_line, print_json};
use super::progress::positions_spinner;

#[derive(Args)]
pub struct SolveArgs {
    /// The game spec; the help lists the games of the registry.
    #[arg(required_unless_present = "table", help = super::game_help())]
    game: Option<String>,
    /// Print the winners-by-board-size table for a game family (only `hexapawn`).
    #[arg(long, value_name = "FAMILY", conflicts_with = "game")]
    table: Option<String>,
    /// Largest number of files in the table.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=16))]
    max_files: u8,
    /// Largest number of ranks in the table.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(3..=16))]
    max_ranks: u8,
    /// Give up once the solver would store more positions than this
    /// [default: 20000000, or 5000000 a board with --table; lowered to keep a search under a gigabyte].
    #[arg(long)]
    max_positions: Option<usize>,
    /// Print the exact outcome probabilities of random against random play instead.
    #[arg(long, conflicts_with = "table")]
    random: bool,
    /// Print a machine-readable result on stdout.
    #[arg(long)]
    json: bool,
}

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    if let Some(family) = &args.table {
        return table(family, &args);
    }
    let spec = args.game.as_deref().unwrap_or_default();
    let game = super::game_arg(spec)?;
    with_game!(game, g => solve_game(&g, &args))
}

fn solve_game<G: Game>(game: &G, args: &SolveArgs) -> anyhow::Result<()> {
    if args.random {
        return random_against_random(game, args);
    }
    // Games with a dedicated winner solver (Hex) try the exact solver briefly,
    // then answer who wins each first move without distances.
    let has_oracle = game.winner_oracle(&[], 0).is_some();
    let limit = args.max_positions.unwrap_or(if has_oracle {
        ORACLE_FIRST_LIMIT
    } else {
        solver::DEFAULT_LIMIT
    });
    if has_oracle {
        if let Err(why) = game.check_exhaustive(limit) {
            // Bound to fail: skip the exact solver's attempt (seconds and hundreds of MB).
            return solve_winners(game, args, &why.to_string());
        }
    }
    let mut solver = Solver::with_limit(game.clone(), limit);
    let bar = positions_spinner(&format!("solving {}", game.spec()));
    let shown = bar.clone();
    solver.on_progress(move |n| shown.set_position(n as u64));
    let start = game.start();
    let value = solver.value(&start);
    bar.finish_and_clear();
    let value = match value {
        Ok(v) => v,
        Err(e) if has_oracle => return solve_winners(game, args, &e.to_string()),
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
    outln!("{}: {} with best play.", game.spec(), verdict);
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
    outln!("First moves for {}:", game.player_name(mover));
    for (m, v) in &first_moves {
        outln!("  {:<8} {}", game.move_name(&start, *m), v);
    }
    outln!("({} positions solved)", solver.positions());
    Ok(())
}

/// How many positions the exact solver may store before a game with a
/// dedicated winner solver falls back to it.
const ORACLE_FIRST_LIMIT: usize = 1_000_000;

/// Who wins, and with which first moves, from a dedicated winner solver.
fn solve_winners<G: Game>(game: &G, args: &SolveArgs, why: &str) -> anyhow::Result<()> {
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
    let solved = match game.winner_oracle(&distinct, limit) {
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

/// One board of the table: files, ranks, and the winner with the positions stored (None: too large).
type Cell = (u8, u8, Option<(Outcome, usize)>);

/// The default position limit a board for `--table`.
const TABLE_LIMIT: usize = 5_000_000;

fn random_against_random<G: Game>(game: &G, args: &SolveArgs) -> anyhow::Result<()> {
    // Each stored position holds three probabilities: bound the table by them too.
    let limit = solver::memory_bounded::<(G::Position, [f64; 3])>(args.max_positions.unwrap_or(solver::DEFAULT_LIMIT));
    let p = random_play(game, &game.start(), limit)?;
    let (one, two) = (game.player_name(Player::One), game.player_name(Player::Two));
    if args.json {
        return print_json(&json!({
            "game": game.spec(),
            "random_play": {
                "wins": {one: p.one_wins, two: p.two_wins},
                "draw": p.draw,
            },
        }));
    }
    outln!(
        "{}: random against random, computed exactly over the game tree:",
        game.spec()
    );
    outln!("  {one} wins {:.4}", p.one_wins);
    outln!("  {two} wins {:.4}", p.two_wins);
    outln!("  draw   {:.4}", p.draw);
    Ok(())
}

fn table(family: &str, args: &SolveArgs) -> anyhow::Result<()> {
    // A family has a table if it takes a WxH size (of the games today, hexapawn).
    if family.contains([':', ',']) || menace::parse_spec(&format!("{family}:3x3")).is_err() {
        return Err(super::usage(format!(
            "--table '{family}': only a game family sized WxH (hexapawn) has a table of board sizes"
        )));
    }
    // The limit as each board's search lowers it, to stay under a gigabyte.
    let limit =
        solver::memory_bounded::<menace::games::hexapawn::HexapawnPosition>(args.max_positions.unwrap_or(TABLE_LIMIT));
    let bar = positions_spinner("");
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    for h in 3..=args.max_ranks {
        let mut row = Vec::new();
        for w in 1..=args.max_files {
            // A board wider or longer than one that already exceeded the limit
            // has more positions still: report it as too large without trying.
            let narrower_failed = w > 1 && row.last().is_some_and(|c: &Cell| c.2.is_none());
            let shorter_failed = h > 3 && rows.last().is_some_and(|r| r[usize::from(w) - 1].2.is_none());
            if u32::from(w) * u32::from(h) > 64 || narrower_failed || shorter_failed {
                row.push((w, h, None));
                continue;
            }
            let game = super::game_arg(&format!("{family}:{w}x{h}")).context("board size")?;
            bar.set_message(format!("{family}:{w}x{h}"));
            bar.set_position(0);
            let shown = bar.clone();
            let mut progress = move |n: usize| shown.set_position(n as u64);
            let result = with_game!(game, g => solver::winner_reporting(&g, &g.start(), limit, &mut progress).ok());
            row.push((w, h, result));
        }
        rows.push(row);
    }
    bar.finish_and_clear();
    if args.json {
        let cells: Vec<_> = rows
            .iter()
            .flatten()
            .map(|(w, h, r)| {
                let (winner, positions) = match r {
                    Some((Outcome::Win(Player::One), n)) => (json!("white"), json!(n)),
                    Some((Outcome::Win(Player::Two), n)) => (json!("black"), json!(n)),
                    Some((_, n)) => (json!("draw"), json!(n)),
                    None => (json!(null), json!(null)),
                };
                json!({"files": w, "ranks": h, "winner": winner, "positions": positions})
            })
            .collect();
        return print_json(&json!({"family": "hexapawn", "max_positions": limit, "boards": cells}));
    }
    outln!("Hexapawn: who wins with best play (W = White, B = Black, - = too large: over {limit} positions)");
    out!("ranks\\files");
    for w in 1..=args.max_files {
        out!("{w:>4}");
    }
    outln!();
    for row in &rows {
        out!("{:>11}", row[0].1);
        for (_, _, r) in row {
            let c = match r {
                Some((Outcome::Win(Player::One), _)) => "W",
                Some((Outcome::Win(Player::Two), _)) => "B",
                Some(_) => "D",
                None => "-",
            };
            out!("{c:>4}");
        }
        outln!();
    }
    Ok(())
}
