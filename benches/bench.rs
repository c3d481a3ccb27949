//! Benchmarks: `cargo bench` runs them all, `cargo bench -- NAME` the ones
//! whose name contains NAME. Timings are wall-clock on this machine, best of
//! a few runs; they are printed, never asserted.

use menace::prelude::*;
use std::time::{Duration, Instant};

use menace::machine::settings::MachineSettings;
use menace::search::perft::perft;
use menace::search::solver::{winner, Solver};
use menace::training::opponent::OpponentSpec;
use menace::training::trainer::Trainer;
use menace::{Game, Hexapawn, Player, TicTacToe};

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

fn train_rate<G: Game>(game: G, side: Player, settings: MachineSettings, opponent: &str, games: u64) {
    let spec = OpponentSpec::parse(opponent).expect("valid opponent");
    let mut trainer = Trainer::new(game.clone(), side, settings, spec, 1).expect("trainer");
    // Warm up: open boxes, fill the perfect player's cache.
    for _ in 0..1000 {
        trainer.play_game(false);
    }
    let t = Instant::now();
    let mut plies = 0u64;
    for _ in 0..games {
        plies += u64::from(trainer.play_game(false).plies);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{:<16} {:<10} {:>12.0} {:>14.0} {:>8}",
        game.spec(),
        opponent,
        games as f64 / secs,
        plies as f64 / secs,
        trainer.machine().boxes().len()
    );
}

fn bench_training() {
    println!("## training throughput, one thread (games and plies per second)");
    println!(
        "{:<16} {:<10} {:>12} {:>14} {:>8}",
        "game", "opponent", "games/s", "plies/s", "boxes"
    );
    let h3 = Hexapawn::new(3, 3).expect("valid board");
    let h4 = Hexapawn::new(4, 4).expect("valid board");
    let h5 = Hexapawn::new(5, 5).expect("valid board");
    for opp in ["random", "perfect", "menace"] {
        train_rate(h3.clone(), Player::Two, MachineSettings::gardner(), opp, 2_000_000);
    }
    for opp in ["random", "perfect"] {
        train_rate(h4.clone(), Player::One, MachineSettings::gardner(), opp, 500_000);
        train_rate(h5.clone(), Player::One, MachineSettings::gardner(), opp, 200_000);
    }
    for opp in ["random", "perfect", "menace"] {
        train_rate(TicTacToe, Player::One, MachineSettings::michie(), opp, 500_000);
    }
    println!();
}

fn bench_experiment() {
    println!(
        "## experiment run time by seeds and threads (HER vs random, 500 games a seed, exact result every 5 games)"
    );
    println!("{:>6} {:>8} {:>10} {:>12}", "seeds", "threads", "seconds", "games/s");
    for seeds in [100, 200, 400] {
        for threads in [1, 2] {
            let text = format!(
                r#"{{"name": "bench", "game": "hexapawn", "games": 500, "seeds": {seeds}, "exact_every": 5,
                   "arms": [{{"name": "HER", "opponent": "random"}}]}}"#
            );
            let exp = menace::experiment::Experiment::parse(&text).expect("valid experiment");
            let (t, _) = best_of(3, || exp.run(threads, &|_| {}).expect("runs"));
            let games = 500.0 * seeds as f64;
            println!(
                "{:>6} {:>8} {:>10.3} {:>12.0}",
                seeds,
                threads,
                t.as_secs_f64(),
                games / t.as_secs_f64()
            );
        }
    }
    println!();
}

fn mcts_rate<G: Game>(game: G, playouts: u32) {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut search = menace::search::mcts::Mcts::new(game.clone(), playouts, 1.4);
    let start = game.start();
    let (t, _) = best_of(3, || {
        search.reset();
        search.choose(&start, &mut rng)
    });
    println!(
        "{:<16} {:>10} {:>14.0}",
        game.spec(),
        playouts,
        f64::from(playouts) / t.as_secs_f64()
    );
}

fn bench_mcts() {
    println!("## MCTS playouts per second from the start position, one thread");
    println!("{:<16} {:>10} {:>14}", "game", "playouts", "playouts/s");
    mcts_rate(Hexapawn::new(3, 3).expect("valid board"), 20_000);
    mcts_rate(Hexapawn::new(4, 4).expect("valid board"), 20_000);
    mcts_rate(Hexapawn::new(8, 8).expect("valid board"), 20_000);
    mcts_rate(TicTacToe, 20_000);
    mcts_rate(
        menace::Hex::new(7, true, Some(Player::One)).expect("valid size"),
        20_000,
    );
    println!();
}

fn bench_hex() {
    println!("## Hex solver: every opening without the swap (one thread, one shared table, symmetric openings once)");
    println!(
        "{:<16} {:>10} {:>14} {:>12} {:>14}",
        "game", "openings", "positions", "seconds", "positions/s"
    );
    for n in 3..=5u8 {
        let game = menace::Hex::new(n, false, Some(Player::One)).expect("valid size");
        let start = game.start();
        let mut children: Vec<_> = Vec::new();
        for m in game.moves(&start) {
            let c = game.play(&start, m);
            if !children.iter().any(|d| game.canonical(d).0 == game.canonical(&c).0) {
                children.push(c);
            }
        }
        let (t, (_, nodes)) = best_of(1, || {
            menace::games::hex::solver::winners_counted(&game, &children, 100_000_000).expect("solvable")
        });
        println!(
            "{:<16} {:>10} {:>14} {:>12.3} {:>14.0}",
            game.spec(),
            children.len(),
            nodes,
            t.as_secs_f64(),
            nodes as f64 / t.as_secs_f64()
        );
    }
    println!();
}

/// Perft at `depths` and training throughput for a large game, boxes opened
/// on first visit and restocked (under the resign rule a machine losing to
/// MCTS soon resigns every game).
fn bench_large_game<G: Game>(name: &str, game: G, depths: std::ops::RangeInclusive<u32>, runs: &[(&str, u64)]) {
    println!("## {name} perft from the start (one thread; legal moves)");
    println!("{:>6} {:>12} {:>10} {:>14}", "depth", "leaves", "seconds", "leaves/s");
    for depth in depths {
        let (t, n) = best_of(3, || perft(&game, &game.start(), depth));
        println!(
            "{:>6} {:>12} {:>10.3} {:>14.0}",
            depth,
            n,
            t.as_secs_f64(),
            n as f64 / t.as_secs_f64()
        );
    }
    println!();
    println!("## {name} training throughput, one thread, boxes opened on first visit");
    println!(
        "{:<16} {:<10} {:>12} {:>14} {:>8}",
        "game", "opponent", "games/s", "plies/s", "boxes"
    );
    let settings = MachineSettings {
        box_mode: menace::machine::settings::BoxMode::FirstVisit,
        empty_box: menace::machine::settings::EmptyBox::Restock,
        ..MachineSettings::michie()
    };
    for &(opponent, games) in runs {
        train_rate(game.clone(), Player::One, settings.clone(), opponent, games);
    }
    println!();
}

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wanted("solver") {
        bench_solver();
    }
    if wanted("training") {
        bench_training();
    }
    if wanted("mcts") {
        bench_mcts();
    }
    if wanted("hex") {
        bench_hex();
    }
    if wanted("chessapawn") {
        bench_large_game(
            "Chessapawn",
            menace::Chessapawn,
            4..=5,
            &[("random", 20_000), ("mcts:30", 200)],
        );
    }
    if wanted("minihexchess") {
        bench_large_game("Mini Hexchess", menace::MiniHexchess::new(), 5..=7, &[("random", 500)]);
    }
    if wanted("experiment") {
        bench_experiment();
    }
}
