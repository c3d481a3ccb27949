//! `menace run FILE`: every arm of an experiment over every seed, in parallel.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::anyhow;
use clap::Args;

use menace::experiment::report::write_outputs;
use menace::experiment::Experiment;
use menace::{with_game, Game};

use super::progress::games_bar;

#[derive(Args)]
pub struct RunArgs {
    /// The experiment file (JSON), e.g. experiments/gardner.json.
    file: PathBuf,
    /// Where to write the curves, summary and charts [default: results/NAME].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Worker threads [default: one per core]. The results do not depend on it.
    #[arg(long, value_parser = super::positive)]
    threads: Option<u64>,
}

pub fn run(args: RunArgs) -> anyhow::Result<()> {
    let exp = Experiment::load(&args.file).map_err(|e| anyhow!(e))?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&exp.name));
    let threads = args
        .threads
        .map(|t| t as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    with_game!(exp.game.clone(), g => run_game(&g, &exp, &out, threads, &args))
}

fn run_game<G: Game>(
    game: &G,
    exp: &Experiment,
    out: &std::path::Path,
    threads: usize,
    args: &RunArgs,
) -> anyhow::Result<()> {
    exp.preflight(game)
        .map_err(|e| anyhow!("experiment file '{}': {e}", args.file.display()))?;
    let total = exp.games * exp.seeds.len() as u64 * exp.arms.len() as u64;
    println!(
        "{}: {} arms × {} seeds × {} games of {} on {} threads",
        exp.name,
        exp.arms.len(),
        exp.seeds.len(),
        exp.games,
        exp.game_spec,
        threads
    );
    let bar = games_bar(total);
    let start = Instant::now();
    let results = exp.run(game, threads, &|n| bar.inc(n)).map_err(|e| anyhow!(e))?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let written = write_outputs(exp, &results, out).map_err(|e| anyhow!(e))?;
    println!(
        "played {total} games in {secs:.2} s ({:.0} games/s)",
        total as f64 / secs.max(1e-9)
    );
    for arm in exp.arms.iter().zip(&results) {
        let (a, runs) = arm;
        let losses: Vec<f64> = runs
            .iter()
            .map(|r| {
                r.games
                    .iter()
                    .filter(|g| g.result == menace::machine::GameResult::Loss)
                    .count() as f64
            })
            .collect();
        if let Some(b) = menace::experiment::curves::Band::of(losses) {
            println!(
                "  {}: {:.2} losses per run (95% band {:.2} to {:.2})",
                a.name, b.mean, b.low, b.high
            );
        }
    }
    println!("wrote:");
    for w in written {
        println!("  {w}");
    }
    Ok(())
}
