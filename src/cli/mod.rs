//! Command line: parse arguments, then hand each subcommand to its module.

/// Write a line to standard output, returning a [`StdoutError`] from the
/// enclosing function if it cannot be written (a closed pipe, a full disk).
macro_rules! outln {
    () => {
        $crate::cli::write_out(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// [`outln!`] without the newline.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!($($arg)*))?
    };
}

mod bench;
mod bench_hex;
mod bench_sol;
mod boxes;
mod machine_args;
mod merge;
mod output;
mod play;
mod plot;
mod progress;
mod run;
mod serve;
mod solve;
mod solve_hex;
mod train;

use std::io::Write;

use clap::{Parser, Subcommand};

/// Matchbox learning machines: Michie's MENACE, Gardner's HER, and the games they learn.
#[derive(Parser)]
#[command(name = "menace", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a game exactly: who wins with best play, in how many plies, and each first move's value.
    Solve(solve::SolveArgs),
    /// Count the boxes a machine needs (per move number), or print a saved machine's boxes.
    Boxes(boxes::BoxesArgs),
    /// Train a machine against an opponent: seeded, with a summary and the exact expected result.
    Train(train::TrainArgs),
    /// Run an experiment file: every arm over every seed, in parallel; curves, summary and charts.
    Run(run::RunArgs),
    /// Put the shards of an experiment (run with --shard K/N) together: the same outputs as one run.
    Merge(merge::MergeArgs),
    /// Redraw the charts from a curves file written by `run`.
    Plot(plot::PlotArgs),
    /// Play against a machine at the terminal, game after game, and watch it learn.
    Play(play::PlayArgs),
    /// Serve the classroom web page: play a machine by clicking, watch its boxes, train it, print them.
    Serve(serve::ServeArgs),
    /// Measure the hot paths: training, exact evaluation, perft, the Hex solver.
    Bench(bench::BenchArgs),
}

/// Parse the command line and run it.
pub fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Boxes(args) => boxes::run(args),
        Command::Train(args) => train::run(args),
        Command::Run(args) => run::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Bench(args) => bench::run(args),
    }
}

/// A value on the command line that could not be read: what it was for,
/// the text, and what was expected.
pub use menace::error::InvalidValue as ArgError;

/// A count that must be a whole number from 1 up (games, seeds, K).
pub fn positive(text: &str) -> Result<u64, ArgError> {
    match text.trim().parse::<i128>() {
        Ok(n) if n >= 1 && n <= i128::from(u64::MAX) => Ok(n as u64),
        Ok(_) => Err(ArgError::new("count", text, "expected a whole number from 1 up")),
        Err(_) => Err(ArgError::new(
            "count",
            text,
            "not a whole number: expected a whole number from 1 up",
        )),
    }
}

/// A seed: a whole number from 0 to 2^64 − 1.
pub fn seed(text: &str) -> Result<u64, ArgError> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| ArgError::new("seed", text, format!("expected a whole number from 0 to {}", u64::MAX)))
}

/// A number of games for one run: 1 to 100 000 000 (memory stays flat: running totals only).
pub fn game_count(text: &str) -> Result<u64, ArgError> {
    let n = positive(text)?;
    if n > 100_000_000 {
        return Err(ArgError::new("games", text, "too many for one run: at most 100000000"));
    }
    Ok(n)
}

/// A bad value on the command line: reported like any error, but exit code 2.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Wrap a message as a usage error.
pub fn usage(message: impl ToString) -> anyhow::Error {
    anyhow::Error::new(Usage(message.to_string()))
}

/// The help of a game argument: every game of the registry, as it reads them.
pub fn game_help() -> String {
    format!("The game spec: {}", menace::AnyGame::forms())
}

/// The game named on the command line; a bad spec is a usage error.
pub fn game_arg(spec: &str) -> anyhow::Result<menace::AnyGame> {
    menace::parse_spec(spec).map_err(usage)
}

/// Whether an error is a usage error (exit code 2).
pub fn is_usage(e: &anyhow::Error) -> bool {
    e.downcast_ref::<Usage>().is_some()
}

/// Standard output could not be written: a closed pipe (`menace ... | head`,
/// which ends quietly) or a full disk (`> /dev/full`, an error).
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output")]
pub struct StdoutError(#[from] pub std::io::Error);

impl StdoutError {
    /// Whether the reader went away (a closed pipe): not worth a message.
    pub fn is_closed_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Write to the locked standard output (what [`outln!`] and [`out!`] call).
pub fn write_out(args: std::fmt::Arguments) -> Result<(), StdoutError> {
    std::io::stdout().lock().write_fmt(args).map_err(StdoutError)
}

/// Flush standard output (buffered text would otherwise be lost unsaid at exit).
pub fn flush_out() -> Result<(), StdoutError> {
    std::io::stdout().lock().flush().map_err(StdoutError)
}
