//! Command line: parse arguments, then hand each subcommand to its module.
//! What the subcommands share (reading values, usage errors, standard
//! output) lives in `args` and `output`, which name no subcommand: the
//! arrows point from here to the subcommands, and from them to those two.

/// Write a line to standard output, returning a [`StdoutError`] from the
/// enclosing function if it cannot be written (a closed pipe, a full disk).
macro_rules! outln {
    () => {
        $crate::cli::output::write_out(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::cli::output::write_out(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// [`outln!`] without the newline.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::write_out(format_args!($($arg)*))?
    };
}

mod args;
mod bench;
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
mod state_file;
mod train;

use clap::{Parser, Subcommand};

pub use args::is_usage;
pub use output::{flush_out, StdoutError};

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
    menace::memory::advise_pages();
    // Every command but the server builds what it needs and ends: freed
    // memory is better kept for its next table than handed back.
    if !matches!(cli.command, Command::Serve(_)) {
        menace::memory::keep_freed_memory();
    }
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
