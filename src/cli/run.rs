//! `menace run FILE`: every arm of an experiment over every seed, in parallel;
//! or one shard of it (`--shard K/N`); resumed where a killed run stopped.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::anyhow;
use clap::Args;

use menace::charts::Plotters;
use menace::experiment::report::{write_outputs, Written};
use menace::experiment::units::{self, all_units, Shard};
use menace::experiment::Experiment;

use super::progress::games_bar;

#[derive(Args)]
pub struct RunArgs {
    /// The experiment file (JSON), e.g. experiments/gardner.json.
    file: PathBuf,
    /// Where to write the curves, summary and charts [default: results/NAME]. A run killed
    /// part way and started again on the same folder redoes only the unfinished (arm, seed) units.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Worker threads, 1 to 256 [default: one per core]. The results do not depend on it.
    #[arg(long, value_parser = thread_count)]
    threads: Option<usize>,
    /// Run only the K-th of N slices of the (arm, seed) units, e.g. 2/8, into --out;
    /// put the slices together with `menace merge`. `slurm/N` takes K from a Slurm array
    /// task's SLURM_ARRAY_TASK_ID; `slurm` also takes N from the array's bounds (1-N).
    #[arg(long, value_name = "K/N", value_parser = ShardArg::parse)]
    shard: Option<ShardArg>,
    /// Print the arms (with sweeps expanded) and the total games, and run nothing.
    #[arg(long)]
    list: bool,
}

/// `--shard`: a slice named outright, or one a Slurm array task works out.
#[derive(Clone, Copy, Debug)]
enum ShardArg {
    Fixed(Shard),
    Slurm(Option<usize>),
}

impl ShardArg {
    fn parse(text: &str) -> Result<ShardArg, menace::error::InvalidValue> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("slurm") {
            return Ok(ShardArg::Slurm(None));
        }
        if let Some(n) = t.strip_prefix("slurm/") {
            return match n.trim().parse::<usize>() {
                Ok(n) if n > 0 => Ok(ShardArg::Slurm(Some(n))),
                _ => Err(menace::error::InvalidValue::new(
                    "shard",
                    text,
                    "expected slurm/N with N a shard count of at least 1, like slurm/8",
                )),
            };
        }
        Shard::parse(t)
            .map(ShardArg::Fixed)
            .map_err(|e| menace::error::InvalidValue::new("shard", text, format!("{}, or slurm or slurm/N", e.problem)))
    }

    fn resolve(self) -> anyhow::Result<Shard> {
        match self {
            ShardArg::Fixed(s) => Ok(s),
            ShardArg::Slurm(n) => Ok(Shard::from_slurm(|name| std::env::var(name).ok(), n)?),
        }
    }
}

/// The most worker threads a run starts: far more than the cores of any
/// machine this runs on, and few enough to start at once (100 000 were
/// still being spawned after 11 minutes).
const MAX_THREADS: usize = 256;

fn thread_count(text: &str) -> Result<usize, super::args::ArgError> {
    let n = super::args::positive(text)?;
    if n > MAX_THREADS as u64 {
        return Err(super::args::ArgError::new(
            "threads",
            text,
            format!("at most {MAX_THREADS} (the results are the same on any number)"),
        ));
    }
    Ok(n as usize)
}

pub fn run(args: RunArgs) -> anyhow::Result<()> {
    let exp = Experiment::load(&args.file).map_err(|e| anyhow!(e))?;
    if args.list {
        return list(&exp);
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&exp.name));
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_THREADS)
    });
    let shard = args.shard.map(ShardArg::resolve).transpose()?;
    run_experiment(&exp, &out, threads, shard, &args)
}

/// "NAME: A arms × S seeds × G games of GAME".
fn headline(exp: &Experiment) -> String {
    format!(
        "{}: {} arms × {} seeds × {} games of {}",
        exp.name,
        exp.arms.len(),
        exp.seeds.len(),
        exp.games,
        exp.games_text()
    )
}

fn list(exp: &Experiment) -> anyhow::Result<()> {
    outln!("{}", headline(exp));
    let several = exp.several_games();
    for (i, a) in exp.arms.iter().enumerate() {
        let game = if several {
            format!("{}: ", a.game_spec)
        } else {
            String::new()
        };
        outln!(
            "  {:>3}. {} — {game}{} vs {}; {}",
            i + 1,
            a.name,
            a.side_name,
            a.opponent,
            a.settings.describe()
        );
    }
    let total = exp.games * exp.seeds.len() as u64 * exp.arms.len() as u64;
    outln!(
        "{total} games in {} (arm, seed) units",
        exp.arms.len() * exp.seeds.len()
    );
    Ok(())
}

fn run_experiment(
    exp: &Experiment,
    out: &Path,
    threads: usize,
    shard: Option<Shard>,
    args: &RunArgs,
) -> anyhow::Result<()> {
    exp.preflight()
        .map_err(|e| anyhow!("experiment file '{}': {e}", args.file.display()))?;
    let every = all_units(exp);
    let mine = match shard {
        Some(shard) => shard.select(&every),
        None => every.clone(),
    };
    // Units a killed run already finished in this folder are kept, not redone.
    let mut done = units::load_units(out, exp)?;
    done.retain(|u, _| mine.contains(u));
    let todo: Vec<_> = mine.iter().copied().filter(|u| !done.contains_key(u)).collect();
    units::save_source(out, exp)?;
    let shard_text = shard.map_or(String::new(), |s| format!(", shard {s}"));
    // No more threads than units to run: the rest would have nothing to do.
    let threads = threads.min(todo.len()).max(1);
    outln!(
        "{} on {threads} thread{}{shard_text}",
        headline(exp),
        if threads == 1 { "" } else { "s" }
    );
    if !done.is_empty() {
        outln!(
            "resuming in {}: {} of {} units already done",
            out.display(),
            done.len(),
            mine.len()
        );
    }
    let total = exp.games * todo.len() as u64;
    let bar = games_bar(total);
    let start = Instant::now();
    let runs = exp
        .run_units(&todo, threads, &|n| bar.inc(n), &|unit, run| {
            units::save_unit(out, exp, unit, run).map_err(Into::into)
        })
        .map_err(|e| anyhow!(e))?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "played {total} games in {secs:.2} s ({:.0} games/s)",
        total as f64 / secs.max(1e-9)
    );
    done.extend(todo.into_iter().zip(runs));
    if let Some(shard) = shard {
        units::save_shard(out, exp, shard, mine.len())?;
        outln!(
            "shard {shard}: {} units saved in {}; put the shards together with: menace merge DIR... --out DIR",
            mine.len(),
            out.display()
        );
        return Ok(());
    }
    let results = units::assemble(exp, done)?;
    let written = write_outputs(exp, results, out, &Plotters).map_err(|e| anyhow!(e))?;
    units::clear(out);
    report(exp, &written)?;
    Ok(())
}

/// Losses per arm, and the files written.
pub fn report(exp: &Experiment, written: &Written) -> Result<(), super::output::StdoutError> {
    for ((a, band), exact) in exp.arms.iter().zip(&written.losses).zip(&written.exact_losses) {
        if let Some(b) = band {
            let exact = exact.map_or(String::new(), |x| format!("; exactly {x:.2}"));
            outln!(
                "  {}: {:.2} losses per run (95% band {:.2} to {:.2}{exact})",
                a.name,
                b.mean,
                b.low,
                b.high
            );
        }
    }
    outln!("wrote:");
    for w in &written.files {
        outln!("  {w}");
    }
    Ok(())
}
