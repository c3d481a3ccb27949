//! What `menace solve` is asked: its arguments, read by every way it solves.

use clap::Args;

#[derive(Args)]
pub struct SolveArgs {
    /// The game spec; the help lists the games of the registry.
    #[arg(required_unless_present = "table", help = crate::cli::args::game_help())]
    pub(super) game: Option<String>,
    /// Print the winners-by-board-size table for a game family (only `hexapawn`).
    #[arg(long, value_name = "FAMILY", conflicts_with = "game")]
    pub(super) table: Option<String>,
    /// Largest number of files in the table.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=16))]
    pub(super) max_files: u8,
    /// Largest number of ranks in the table.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(3..=16))]
    pub(super) max_ranks: u8,
    /// With --table: boards of at most this many cells are searched until
    /// decided (up to 30 minutes each, or --max-seconds if longer); 0: none.
    /// On 2 cores, 40 takes 30 s with normal pawns and 71 s with Berolina
    /// pawns; with Berolina Plus pawns, 10x4 takes 10 to 12 minutes and 8x5
    /// over 40.
    #[arg(long, value_name = "CELLS", requires = "table", default_value_t = 40, value_parser = clap::value_parser!(u8).range(0..=64))]
    pub(super) decide_cells: u8,
    /// Give up once the solver would store more positions than this
    /// [default: 20000000; lowered to keep a search under a gigabyte]; the
    /// winner-only search Hexapawn falls back on where the exact solve
    /// gives up (or would) gives up after searching this many in all.
    #[arg(long, conflicts_with = "table")]
    pub(super) max_positions: Option<usize>,
    /// With --table: the pawns (normal, berolina, berolina-plus).
    #[arg(long, value_name = "TYPE", requires = "table", default_value = "normal")]
    pub(super) pawn: String,
    /// Print the exact outcome probabilities of random against random play instead.
    #[arg(long, conflicts_with = "table")]
    pub(super) random: bool,
    /// Solve this position instead of the start, written as `play` and the
    /// page print it (for Hex, e.g. '5/5/2r2/5/5 b').
    #[arg(long, value_name = "POS", conflicts_with_all = ["table", "random"])]
    pub(super) position: Option<String>,
    /// Give up after this many seconds: the Hex solver, the winner-only
    /// search Hexapawn falls back on (counted from the solve's start), and each board
    /// of --table over --decide-cells cells [default there: 10]; the exact
    /// solver stops at --max-positions.
    #[arg(long, value_name = "SECONDS")]
    pub(super) max_seconds: Option<f64>,
    /// Print a machine-readable result on stdout.
    #[arg(long)]
    pub(super) json: bool,
}
