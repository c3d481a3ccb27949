//! `menace bench`: the speed figures of the hot paths in one run, as a user
//! meets them (whole games through the trainer, perft through the `Game`
//! trait), one thread unless a row says otherwise.

use std::time::Instant;

use anyhow::Context;
use clap::Args;
use serde_json::json;

use menace::machine::settings::{BoxMode, EmptyBox, MachineSettings};
use menace::search::perft::perft;
use menace::training::opponent::OpponentSpec;
use menace::training::trainer::Trainer;
use menace::{parse_spec, Chessapawn, Game, Hexapawn, MiniHexchess, Player, TicTacToe};

use super::output::print_json;

#[derive(Args)]
pub struct BenchArgs {
    /// A hundredth of the work (or less) for each row: a quick check that every
    /// row runs, but for the rows training against perfect play on 5×5 and
    /// 6×6 Hexapawn, listed as not run (their set-up alone takes seconds).
    #[arg(long)]
    quick: bool,
    /// Print the rows as JSON.
    #[arg(long)]
    json: bool,
}

/// One measured figure.
pub(super) struct Row {
    pub(super) what: String,
    pub(super) work: String,
    pub(super) rate: f64,
    pub(super) unit: &'static str,
    pub(super) seconds: f64,
    pub(super) note: String,
}

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let scale = |full: u64| if args.quick { (full / 100).max(1) } else { full };
    let mut rows = Vec::new();
    let mut add = |row: Row| -> Result<(), super::StdoutError> {
        if !args.json {
            print_row(&row)?;
        }
        rows.push(row);
        Ok(())
    };
    if !args.json {
        outln!(
            "menace bench{}: one thread unless a row says otherwise",
            if args.quick { " --quick" } else { "" }
        );
        outln!("{:<58} {:>14} {:>14} {:>9}  note", "what", "work", "rate", "seconds");
    }

    let hexapawn = Hexapawn::new(3, 3).context("hexapawn")?;
    let before = resident_mb();
    let her = games(
        "train hexapawn, HER (gardner) vs random",
        hexapawn.clone(),
        Player::Two,
        MachineSettings::gardner(),
        "random",
        scale(10_000_000),
        None,
    )?;
    let her_rate = her.rate;
    add(her)?;
    let after = resident_mb();
    if let (Some(b), Some(a)) = (before, after) {
        add(Row {
            what: "  resident memory before and after those games".into(),
            work: String::new(),
            rate: a,
            unit: "MB",
            seconds: 0.0,
            note: format!("{b:.1} MB before"),
        })?;
    }
    let light = super::bench_sol::row(scale(10_000_000))?;
    let whole = super::bench_sol::whole_row(scale(10_000_000))?;
    let ratio = light.rate.max(whole.rate) / her_rate;
    add(light)?;
    add(whole)?;
    add(Row {
        what: "  HER's rate against the speed of light".into(),
        work: String::new(),
        rate: ratio,
        unit: "x slower",
        seconds: 0.0,
        note: "against the faster loop; the goal: within 10x".into(),
    })?;
    let restock = MachineSettings {
        empty_box: EmptyBox::Restock,
        ..MachineSettings::michie()
    };
    add(games(
        "train tictactoe, MENACE (michie, restock) vs random",
        TicTacToe,
        Player::One,
        restock.clone(),
        "random",
        scale(1_000_000),
        None,
    )?)?;
    add(games(
        "hexapawn HER vs perfect, exact results after every game",
        hexapawn,
        Player::Two,
        MachineSettings::gardner(),
        "perfect",
        scale(1_000_000),
        Some(1),
    )?)?;
    add(games(
        "tictactoe MENACE vs random, exact results after every game",
        TicTacToe,
        Player::One,
        restock,
        "random",
        scale(50_000),
        Some(1),
    )?)?;

    for (w, h, n, exact_every) in [
        (5, 5, 1_000_000, None),
        (5, 5, 20_000, Some(100)),
        (6, 6, 1_000_000, None),
    ] {
        add(if args.quick {
            // Their set-up alone (solving the game, or proving the start) takes seconds.
            Row {
                what: set_up_what(w, h, exact_every),
                work: "0 games".into(),
                rate: 0.0,
                unit: "games/s",
                seconds: 0.0,
                note: "not run under --quick: its set-up alone takes seconds".into(),
            }
        } else {
            games_set_up(w, h, n, exact_every)?
        })?;
    }

    let first_visit = MachineSettings {
        box_mode: BoxMode::FirstVisit,
        empty_box: EmptyBox::Restock,
        ..MachineSettings::michie()
    };
    add(perft_row(
        "Chessapawn perft from the start",
        Chessapawn,
        if args.quick { 4 } else { 6 },
    ))?;
    add(games(
        "train chessapawn, MENACE (first visit, restock) vs random",
        Chessapawn,
        Player::One,
        first_visit.clone(),
        "random",
        scale(50_000),
        None,
    )?)?;
    let mini = MiniHexchess::new();
    add(perft_row(
        "Mini Hexchess perft from the start",
        mini.clone(),
        if args.quick { 3 } else { 7 },
    ))?;
    add(games(
        "train minihexchess, MENACE (first visit, restock) vs random",
        mini,
        Player::One,
        first_visit,
        "random",
        scale(2_000),
        None,
    )?)?;

    for row in super::bench_hex::rows(args.quick)? {
        add(row)?;
    }
    let t = Instant::now();
    let refused = {
        let menace::AnyGame::Hex(game) = parse_spec("hex:5")? else {
            unreachable!("a hex spec makes Hex")
        };
        let mut trainer = Trainer::new(game, Player::One, MachineSettings::gardner(), OpponentSpec::Random, 1)?;
        trainer.play_game(false);
        trainer.exact().random.is_none()
    };
    let seconds = t.elapsed().as_secs_f64();
    add(Row {
        what: "train hex:5 --games 1: one game, then exact evaluation refused".into(),
        work: "1 game".into(),
        rate: 1.0 / seconds,
        unit: "runs/s",
        seconds,
        note: if refused {
            "refused at once".into()
        } else {
            "evaluated".into()
        },
    })?;

    add(merge_row(if args.quick { 20 } else { 2000 })?)?;

    if args.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|r| json!({"what": r.what.trim(), "work": r.work, "rate": r.rate, "unit": r.unit, "seconds": r.seconds, "note": r.note}))
            .collect();
        print_json(&json!({ "quick": args.quick, "threads": rayon::current_num_threads(), "rows": rows }))?;
    }
    Ok(())
}

fn print_row(r: &Row) -> Result<(), super::StdoutError> {
    let rate = if r.rate >= 1e6 {
        format!("{:.2} M", r.rate / 1e6)
    } else if r.rate >= 1e3 {
        format!("{:.1} k", r.rate / 1e3)
    } else {
        format!("{:.2}", r.rate)
    };
    outln!(
        "{:<58} {:>14} {:>14} {:>9.3}  {}",
        r.what,
        r.work,
        format!("{rate} {}", r.unit),
        r.seconds,
        r.note
    );
    Ok(())
}

/// Play `n` games through the trainer (seed 1), `exact_every`: with the
/// exact results every so many games.
fn games<G: Game>(
    what: &str,
    game: G,
    side: Player,
    settings: MachineSettings,
    opponent: &str,
    n: u64,
    exact_every: Option<u64>,
) -> anyhow::Result<Row> {
    let spec = OpponentSpec::parse(opponent)?;
    let mut trainer = Trainer::new(game, side, settings, spec, 1)?;
    let compiled = trainer.is_compiled();
    let t = Instant::now();
    let mut plies = 0u64;
    for i in 1..=n {
        let exact = exact_every.is_some_and(|k| i % k == 0);
        plies += u64::from(trainer.play_game(exact).plies);
    }
    let seconds = t.elapsed().as_secs_f64();
    Ok(Row {
        what: what.into(),
        work: format!("{n} games"),
        rate: n as f64 / seconds,
        unit: "games/s",
        seconds,
        note: format!(
            "{} path, {:.1} plies a game, {} boxes",
            if compiled { "compiled" } else { "general" },
            plies as f64 / n as f64,
            trainer.machine().boxes().len()
        ),
    })
}

/// What a row of [`games_set_up`] measures.
fn set_up_what(w: u8, h: u8, exact_every: Option<u64>) -> String {
    match exact_every {
        None => format!("train hexapawn:{w}x{h} vs perfect, set-up included"),
        Some(k) => format!("  the same, exact results every {k} games"),
    }
}

/// `menace train hexapawn:WxH --opponent perfect --games N [--exact-every K]`
/// as the command runs it (the machine's side and settings the game's
/// defaults, seed 1), timed from before the perfect opponent is set up.
fn games_set_up(w: u8, h: u8, n: u64, exact_every: Option<u64>) -> anyhow::Result<Row> {
    let game = Hexapawn::new(w, h)?;
    let before = resident_mb();
    let t = Instant::now();
    let side = menace::registry::winning_or_historical_side(&game);
    let mut trainer = Trainer::new(game, side, MachineSettings::gardner(), OpponentSpec::Perfect(1.0), 1)?;
    let compiled = trainer.is_compiled();
    let set_up = t.elapsed().as_secs_f64();
    let table = trainer.compiled_memory().map_or(String::new(), |(bytes, positions)| {
        format!(", {positions} positions in {:.0} MB", bytes as f64 / 1e6)
    });
    let mut plies = 0u64;
    for i in 1..=n {
        let exact = exact_every.is_some_and(|k| i % k == 0);
        plies += u64::from(trainer.play_game(exact).plies);
    }
    let seconds = t.elapsed().as_secs_f64();
    let memory = match (before, resident_mb()) {
        (Some(b), Some(a)) => format!(", {:.0} MB more resident", a - b),
        _ => String::new(),
    };
    Ok(Row {
        what: set_up_what(w, h, exact_every),
        work: format!("{n} games"),
        rate: n as f64 / seconds,
        unit: "games/s",
        seconds,
        note: format!(
            "{} path{table}, set-up {set_up:.2} s, {:.1} plies a game, {} boxes{memory}",
            if compiled { "compiled" } else { "general" },
            plies as f64 / n as f64,
            trainer.machine().boxes().len()
        ),
    })
}

fn perft_row<G: Game>(what: &str, game: G, depth: u32) -> Row {
    let t = Instant::now();
    let leaves = perft(&game, &game.start(), depth);
    let seconds = t.elapsed().as_secs_f64();
    Row {
        what: what.into(),
        work: format!("depth {depth}"),
        rate: leaves as f64 / seconds,
        unit: "leaves/s",
        seconds,
        note: format!("{leaves} leaves"),
    }
}

/// The process's resident memory in MB, where the system says (Linux).
fn resident_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The shards of a sweep of 5 arms × `seeds` seeds × 100 games of Hexapawn
/// (10 000 units at 2 000 seeds), saved as 100 `run --shard K/100` would,
/// then put together as `menace merge` does, which is what is timed.
fn merge_row(seeds: usize) -> anyhow::Result<Row> {
    use menace::experiment::report::write_outputs_with;
    use menace::experiment::units::{self, all_units, Shard};
    const SHARDS: usize = 100;
    let text = format!(
        r#"{{"name": "merge-bench", "game": "hexapawn", "games": 100, "seeds": {seeds}, "exact_every": 10,
            "arms": [{{"name": "HER", "opponent": ["perfect", "random"], "beads": ["1", "4"]}},
                     {{"name": "M", "opponent": "random", "preset": "michie"}}]}}"#
    );
    let exp = menace::experiment::Experiment::parse(&text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let scratch = tempfile::tempdir().context("a scratch folder for the shards")?;
    let every = all_units(&exp);
    let mut dirs = Vec::with_capacity(SHARDS);
    for k in 1..=SHARDS {
        let shard = Shard { k, n: SHARDS };
        let dir = scratch.path().join(k.to_string());
        units::save_source(&dir, &exp)?;
        let mine = shard.select(&every);
        exp.run_units(&mine, 1, &|_| {}, &|unit, run| {
            units::save_unit(&dir, &exp, unit, run).map_err(Into::into)
        })?;
        units::save_shard(&dir, &exp, shard, mine.len())?;
        dirs.push(dir);
    }
    let out = scratch.path().join("merged");
    let t = Instant::now();
    let merged = units::merge(&dirs)?;
    write_outputs_with(&merged.exp, &out, &mut |a| Ok(std::borrow::Cow::Owned(merged.arm(a)?)))?;
    let seconds = t.elapsed().as_secs_f64();
    Ok(Row {
        what: format!("merge {} units from {SHARDS} shards, charts included", every.len()),
        work: format!("{} units", every.len()),
        rate: every.len() as f64 / seconds,
        unit: "units/s",
        seconds,
        note: format!("{} games, read an arm at a time", every.len() * 100),
    })
}
