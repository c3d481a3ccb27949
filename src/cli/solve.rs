//! `menace solve`: game values, first moves, principal line; the hexapawn winners table.

use clap::Args;
use serde_json::json;

use menace::games::hexapawn::Pawn;
use menace::prelude::*;
use menace::search::solver::{self, Solver, Value};
use menace::training::exact::random_play;
use menace::{with_game, Outcome, Player};

use super::output::{numbered_line, print_json};
use super::progress::positions_spinner;

#[derive(Args)]
pub struct SolveArgs {
    /// The game spec; the help lists the games of the registry.
    #[arg(required_unless_present = "table", help = super::game_help())]
    pub(super) game: Option<String>,
    /// Print the winners-by-board-size table for a game family (only `hexapawn`).
    #[arg(long, value_name = "FAMILY", conflicts_with = "game")]
    pub(super) table: Option<String>,
    /// Largest number of files in the table.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=16))]
    pub(super) max_files: u8,
    /// Largest number of ranks in the table.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(3..=16))]
    pub(super) max_ranks: u8,
    /// Give up once the solver would store more positions than this
    /// [default: 20000000; lowered to keep a search under a gigabyte].
    #[arg(long, conflicts_with = "table")]
    pub(super) max_positions: Option<usize>,
    /// With --table: the pawns (normal, berolina, berolina-plus).
    #[arg(long, value_name = "TYPE", requires = "table", default_value = "normal")]
    pub(super) pawn: String,
    /// Print the exact outcome probabilities of random against random play instead.
    #[arg(long, conflicts_with = "table")]
    pub(super) random: bool,
    /// Solve this position instead of the start, written as `play` and the
    /// page print it (for Hex, e.g. '5/5/2r2/5/5 b').
    #[arg(long, value_name = "POS", conflicts_with_all = ["table", "random"])]
    pub(super) position: Option<String>,
    /// Give up after this many seconds: the Hex solver, and each board of
    /// --table [default there: 10]; the others stop at --max-positions.
    #[arg(long, value_name = "SECONDS")]
    pub(super) max_seconds: Option<f64>,
    /// Print a machine-readable result on stdout.
    #[arg(long)]
    pub(super) json: bool,
}

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    if let Some(family) = &args.table {
        return table(family, &args);
    }
    if let Some(s) = args.max_seconds {
        if !(s.is_finite() && s > 0.0) {
            return Err(super::usage(format!(
                "--max-seconds '{s}': expected a number of seconds above 0"
            )));
        }
    }
    let spec = args.game.as_deref().unwrap_or_default();
    let game = super::game_arg(spec)?;
    if let menace::AnyGame::Hex(hex) = &game {
        if !args.random {
            return super::solve_hex::run(hex, &args);
        }
    }
    if let Some(text) = &args.position {
        return with_game!(game, g => {
            let pos = g.parse_position(text).map_err(super::usage)?;
            solve_from(&g, &args, pos, false)
        });
    }
    with_game!(game, g => solve_game(&g, &args))
}

/// The start, or the position given.
pub(super) fn solve_game<G: Game>(game: &G, args: &SolveArgs) -> anyhow::Result<()> {
    solve_from(game, args, game.start(), true)
}

/// The value of `start` (the game's start when `from_start`), its moves'
/// values and the principal line, by the exact solver.
fn solve_from<G: Game>(game: &G, args: &SolveArgs, start: G::Position, from_start: bool) -> anyhow::Result<()> {
    if args.random {
        return random_against_random(game, args);
    }
    if let Outcome::Win(p) = game.outcome(&start) {
        return Err(super::usage(format!(
            "position '{}': the game is over, {} has won",
            game.position_string(&start),
            game.player_name(p)
        )));
    }
    if game.outcome(&start).is_over() {
        return Err(super::usage(format!(
            "position '{}': the game is over, drawn",
            game.position_string(&start)
        )));
    }
    // Games with a dedicated winner solver (Hex) try the exact solver briefly,
    // then answer who wins each first move without distances.
    let has_oracle = from_start && game.winner_oracle(&[], 0).is_some();
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
pub(super) const ORACLE_FIRST_LIMIT: usize = 1_000_000;

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

/// The default time budget a board for `--table`, in seconds.
const TABLE_SECONDS: f64 = 10.0;

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
    let pawn = Pawn::parse(&args.pawn).map_err(super::usage)?;
    let seconds = args.max_seconds.unwrap_or(TABLE_SECONDS);
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0) {
        return Err(super::usage(format!(
            "--max-seconds '{seconds}': expected a number of seconds from more than 0 to 86400"
        )));
    }
    let boards: Vec<(u8, u8)> = (3..=args.max_ranks)
        .flat_map(|h| (1..=args.max_files).map(move |w| (w, h)))
        .collect();
    let bar = positions_spinner("");
    bar.set_message(format!("solving {} boards", boards.len()));
    let cells = table::winners(&boards, pawn, seconds, &|done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let label = |c: &table::Cell| match &c.result {
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
                    Err(why) => (json!(null), json!(why)),
                };
                json!({"files": c.files, "ranks": c.ranks, "winner": winner, "seconds": c.seconds,
                       "positions_searched": c.nodes, "unsolved": reason})
            })
            .collect();
        return print_json(&json!({"family": "hexapawn", "pawn": pawn.name(), "max_seconds": seconds, "boards": out}));
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
    let solved: Vec<&table::Cell> = cells.iter().filter(|c| c.result.is_ok()).collect();
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

/// The winners table, board by board on every core.
mod table {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    use std::time::Instant;

    use menace::games::hexapawn::solver::{WinnerSearch, DEFAULT_TABLE_BITS};
    use menace::games::hexapawn::Pawn;
    use menace::prelude::*;
    use menace::{Hexapawn, Player};

    /// One board: who wins, or why it was not decided.
    pub struct Cell {
        pub files: u8,
        pub ranks: u8,
        pub result: Result<Player, String>,
        pub seconds: f64,
        pub nodes: u64,
    }

    /// Solve `boards` (in the order given), smallest first on every core;
    /// a board containing one already given up is not tried.
    pub fn winners(boards: &[(u8, u8)], pawn: Pawn, seconds: f64, done: &(dyn Fn(usize) + Sync)) -> Vec<Cell> {
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
                                c.result.is_err()
                                    && c.files <= w
                                    && c.ranks <= h
                                    && c.files as u32 * c.ranks as u32 <= 64
                            })
                            .map(|c| (c.files, c.ranks))
                    };
                    let cell = match (u32::from(w) * u32::from(h) > 64, given_up) {
                        (true, _) => unsolved(w, h, "more than 64 cells".to_string()),
                        (false, Some((gw, gh))) => {
                            unsolved(w, h, format!("not tried: it contains {gw}x{gh}, not decided"))
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
            .map(|(c, &(w, h))| c.unwrap_or_else(|| unsolved(w, h, "not tried".to_string())))
            .collect()
    }

    fn unsolved(files: u8, ranks: u8, why: String) -> Cell {
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
            Err(e) => return unsolved(files, ranks, e.to_string()),
        };
        let began = Instant::now();
        let mut search = WinnerSearch::new(game.clone(), DEFAULT_TABLE_BITS).with_time_budget(seconds);
        let result = search.winner(&game.start()).map_err(|e| e.to_string());
        Cell {
            files,
            ranks,
            result,
            seconds: began.elapsed().as_secs_f64(),
            nodes: search.nodes(),
        }
    }
}
