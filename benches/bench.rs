//! Benchmarks: `cargo bench` runs them all, `cargo bench -- NAME` the ones
//! whose name contains NAME. Timings are wall-clock on this machine, best of
//! a few runs; they are printed, never asserted.

use std::time::{Duration, Instant};

use menace::solver::{winner, Solver};
use menace::{Game, Hexapawn, TicTacToe};

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let out = f();
        best = best.min(t.elapsed());
        last = Some(out);
    }
    (best, last.expect("at least one run"))
}

fn bench_solver() {
    println!("## solver: exact values with distance (Solver) and winner only (winner)");
    println!(
        "{:<16} {:>12} {:>12} {:>14}",
        "game", "positions", "seconds", "positions/s"
    );
    let games: Vec<Hexapawn> = [(3, 3), (4, 4), (5, 4), (4, 5), (5, 5)]
        .iter()
        .map(|&(w, h)| Hexapawn::new(w, h).expect("valid board"))
        .collect();
    for game in &games {
        let (t, n) = best_of(3, || {
            let mut s = Solver::new(game.clone());
            s.value(&game.start()).expect("solvable");
            s.positions()
        });
        println!(
            "{:<16} {:>12} {:>12.4} {:>14.0}",
            game.spec(),
            n,
            t.as_secs_f64(),
            n as f64 / t.as_secs_f64()
        );
    }
    let (t, n) = best_of(3, || {
        let mut s = Solver::new(TicTacToe);
        s.value(&TicTacToe.start()).expect("solvable");
        s.positions()
    });
    println!(
        "{:<16} {:>12} {:>12.4} {:>14.0}",
        "tictactoe",
        n,
        t.as_secs_f64(),
        n as f64 / t.as_secs_f64()
    );
    println!();
    println!("## hexapawn winners table (winner only), each board with W×H ≤ 30");
    println!(
        "{:<16} {:>12} {:>12} {:>14}",
        "board", "positions", "seconds", "positions/s"
    );
    for h in 3..=10u8 {
        for w in 1..=10u8 {
            if u32::from(w) * u32::from(h) > 30 {
                continue;
            }
            let game = Hexapawn::new(w, h).expect("valid board");
            let (t, (_, n)) = best_of(1, || winner(&game, &game.start(), 50_000_000).expect("solvable"));
            println!(
                "{:<16} {:>12} {:>12.4} {:>14.0}",
                game.spec(),
                n,
                t.as_secs_f64(),
                n as f64 / t.as_secs_f64()
            );
        }
    }
    println!();
}

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wanted("solver") {
        bench_solver();
    }
}
