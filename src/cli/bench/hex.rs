//! `menace bench`'s Hex rows: every 6×6 opening solved, 7×7 openings
//! (all, or a named few with --quick) checked against the published
//! results, and the perfect opponent's moves a second on 5×5 and 6×6.

use std::time::Instant;

use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use menace::games::hex::solver as hex_solver;
use menace::prelude::*;
use menace::{Hex, Outcome, Player};

use super::row::Row;

/// The 7×7 openings that win for the first player, as Benzene's regression
/// test `regression/dfpn-solve-7x7.tst` gives them (Black first, joining
/// rank 1 to rank 7; the file lists a1 to d4, the rest by the 180°
/// rotation), after Hayward et al., "Solving 7×7 Hex" (2003). For Red,
/// joining files, each cell is mirrored across the long diagonal.
const BLACK_WINS_7X7: [&str; 27] = [
    "a4", "a6", "a7", "b3", "b4", "b5", "b6", "c2", "c3", "c4", "c5", "c6", "d3", "d4", "d5", "e2", "e3", "e4", "e5",
    "e6", "f2", "f3", "f4", "f5", "g1", "g2", "g4",
];

/// The 7×7 opening --quick solves: the centre (about 2 s of CPU time; the edge openings take minutes).
const QUICK_7X7: [&str; 1] = ["d4"];

/// `cell` mirrored across the long diagonal.
fn transposed(cell: &str) -> String {
    let b = cell.as_bytes();
    let r: u8 = cell[1..].parse().unwrap_or(1);
    format!("{}{}", (b'a' + r - 1) as char, b[0] - b'a' + 1)
}

/// Solve the openings `only` (all if `None`) of `game`, on every core.
fn openings_row(game: &Hex, only: Option<&[&str]>, published: Option<&[&str]>) -> anyhow::Result<Row> {
    let spec = game.spec();
    let start = game.start();
    let moves: Vec<_> = game
        .moves(&start)
        .into_iter()
        .filter(|&m| only.is_none_or(|o| o.contains(&game.move_name(&start, m).as_str())))
        .collect();
    let children: Vec<_> = moves.iter().map(|&m| game.play(&start, m)).collect();
    let t = Instant::now();
    let (solved, searched) = hex_solver::solve_all(game, &children, None, None, &|_, _, _| {});
    let seconds = t.elapsed().as_secs_f64();
    let wins: Vec<String> = moves
        .iter()
        .zip(&solved)
        .filter(|(_, o)| **o == Some(Outcome::Win(Player::One)))
        .map(|(&m, _)| game.move_name(&start, m))
        .collect();
    let mut note = format!("{} of {} win", wins.len(), moves.len());
    if let Some(list) = published {
        let agree = moves.iter().zip(&solved).all(|(&m, o)| {
            let name = game.move_name(&start, m);
            let red_wins = list.iter().any(|c| transposed(c) == name);
            *o == Some(Outcome::Win(if red_wins { Player::One } else { Player::Two }))
        });
        note.push_str(if agree { ", as published" } else { ", NOT as published" });
    }
    let which = match only {
        Some(o) => format!("openings {}", o.join(" ")),
        None => "every opening".to_string(),
    };
    Ok(Row {
        what: format!("solve {spec}, {which}"),
        work: format!("{searched} positions"),
        rate: moves.len() as f64 / seconds,
        unit: "openings/s",
        seconds,
        note: format!("{note}; {} threads", rayon::current_num_threads()),
    })
}

/// The perfect opponent from cold against random play, `games` games.
fn perfect_row(game: &Hex, games: u64) -> anyhow::Result<Row> {
    let spec = game.spec();
    let mut perfect = game
        .position_solver()
        .ok_or_else(|| anyhow::anyhow!("{spec}: no position solver"))?;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut moves, mut won) = (0u64, 0u64);
    let t = Instant::now();
    for g in 0..games {
        let mut pos = game.seeded_start(g);
        let side = if g % 2 == 0 { Player::One } else { Player::Two };
        while !game.outcome(&pos).is_over() {
            let mv = if game.turn(&pos) == side {
                moves += 1;
                perfect.choose_best(&pos, &mut rng)
            } else {
                *game.moves(&pos).choose(&mut rng).expect("a move")
            };
            pos = game.play(&pos, mv);
        }
        won += u64::from(game.outcome(&pos) == Outcome::Win(side));
    }
    let seconds = t.elapsed().as_secs_f64();
    Ok(Row {
        what: format!("perfect opponent on {spec} vs random, from cold"),
        work: format!("{moves} moves"),
        rate: moves as f64 / seconds,
        unit: "moves/s",
        seconds,
        note: format!("{games} games, perfect won {won}"),
    })
}

pub fn rows(quick: bool) -> anyhow::Result<Vec<Row>> {
    // Without the swap, as the published results have it; 5×5 as `hex:5` plays.
    let (five, six, seven) = (
        Hex::new(5, true, None)?,
        Hex::new(6, false, None)?,
        Hex::new(7, false, None)?,
    );
    let mut out = vec![openings_row(&six, None, None)?];
    out.push(if quick {
        openings_row(&seven, Some(&QUICK_7X7), Some(&BLACK_WINS_7X7))?
    } else {
        openings_row(&seven, None, Some(&BLACK_WINS_7X7))?
    });
    out.push(perfect_row(&five, if quick { 20 } else { 200 })?);
    out.push(perfect_row(&six, if quick { 5 } else { 50 })?);
    Ok(out)
}
