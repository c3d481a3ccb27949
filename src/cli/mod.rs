//! Command line: parse arguments, then hand each subcommand to its module.

mod boxes;
mod output;
mod solve;

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
}

/// Parse the command line and run it.
pub fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Boxes(args) => boxes::run(args),
    }
}
