//! `menace bench`: the speed figures of the hot paths in one run, as a user
//! meets them (whole games through the trainer, perft through the `Game`
//! trait), one thread unless a row says otherwise. This file lists the rows
//! in order; each kind of row is measured in a file of its own, and they
//! share only [`row::Row`].

mod first_visit;
mod hex;
mod light;
mod merge;
mod perft;
mod row;
mod training;

use anyhow::Context;
use clap::Args;
use serde_json::json;

use menace::machine::settings::{BoxMode, EmptyBox, MachineSettings};
use menace::{Chessapawn, Game, Hex, Hexapawn, MiniHexchess, Player, TicTacToe};

use crate::cli::output::{print_json, StdoutError};
use row::{print_row, resident_mb, Row};

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

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let scale = |full: u64| if args.quick { (full / 100).max(1) } else { full };
    let mut rows = Vec::new();
    let mut add = |row: Row| -> Result<(), StdoutError> {
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
    let her = training::games(
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
    let light = light::row(scale(10_000_000))?;
    let whole = light::whole_row(scale(10_000_000))?;
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
    add(training::games(
        "train tictactoe, MENACE (michie, restock) vs random",
        TicTacToe,
        Player::One,
        restock.clone(),
        "random",
        scale(1_000_000),
        None,
    )?)?;
    add(training::games(
        "hexapawn HER vs perfect, exact results after every game",
        hexapawn,
        Player::Two,
        MachineSettings::gardner(),
        "perfect",
        scale(1_000_000),
        Some(1),
    )?)?;
    add(training::games(
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
                what: training::set_up_what(w, h, exact_every),
                work: "0 games".into(),
                rate: 0.0,
                unit: "games/s",
                seconds: 0.0,
                note: "not run under --quick: its set-up alone takes seconds".into(),
            }
        } else {
            training::games_set_up(w, h, n, exact_every)?
        })?;
    }

    let first_visit = MachineSettings {
        box_mode: BoxMode::FirstVisit,
        empty_box: EmptyBox::Restock,
        ..MachineSettings::michie()
    };
    add(perft::perft_row(
        "Chessapawn perft from the start",
        Chessapawn,
        if args.quick { 4 } else { 6 },
    ))?;
    let mini = MiniHexchess::new();
    add(perft::perft_row(
        "Mini Hexchess perft from the start",
        mini.clone(),
        if args.quick { 3 } else { 7 },
    ))?;
    let eleven = Hex::new(11, true, None)?;
    first_visit_rows(&mut add, "chessapawn", Chessapawn, &first_visit, scale(50_000))?;
    first_visit_rows(&mut add, "minihexchess", mini, &first_visit, scale(2_000))?;
    first_visit_rows(&mut add, "hex:11", eleven, &first_visit, scale(10_000))?;

    for row in hex::rows(args.quick)? {
        add(row)?;
    }
    add(training::refused_row()?)?;

    add(merge::merge_row(if args.quick { 20 } else { 2000 })?)?;

    if args.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|r| json!({"what": r.what.trim(), "work": r.work, "rate": r.rate, "unit": r.unit, "seconds": r.seconds, "note": r.note}))
            .collect();
        print_json(&json!({ "quick": args.quick, "threads": rayon::current_num_threads(), "rows": rows }))?;
    }
    Ok(())
}

/// A large game's first-visit training against random (`n` games, seed 1),
/// its speed of light ([`first_visit::row`]), and how far the one is from
/// the other.
fn first_visit_rows<G: Game>(
    add: &mut impl FnMut(Row) -> Result<(), StdoutError>,
    name: &str,
    game: G,
    settings: &MachineSettings,
    n: u64,
) -> anyhow::Result<()> {
    let trained = training::games(
        &format!("train {name}, MENACE (first visit, restock) vs random"),
        game.clone(),
        Player::One,
        settings.clone(),
        "random",
        n,
        None,
    )?;
    let light = first_visit::row(
        "  the same games' boxes in a speed-of-light loop",
        &game,
        Player::One,
        settings,
        n,
    );
    let ratio = light.rate / trained.rate;
    add(trained)?;
    add(light)?;
    add(Row {
        what: "  training's rate against the speed of light".into(),
        work: String::new(),
        rate: ratio,
        unit: "x slower",
        seconds: 0.0,
        note: "the goal: within 2x".into(),
    })?;
    Ok(())
}
