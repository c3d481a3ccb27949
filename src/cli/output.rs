//! Standard output, and small helpers shared by the subcommands' printed output.

use std::io::Write;

use menace::Game;

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

/// A line of moves with move numbers: `1. b2 axb2 2. cxb2 c2`.
pub fn numbered_line<G: Game>(game: &G, start: &G::Position, line: &[G::Move]) -> String {
    let mut out = Vec::new();
    let mut pos = start.clone();
    for (i, &mv) in line.iter().enumerate() {
        if i % 2 == 0 {
            out.push(format!("{}.", i / 2 + 1));
        }
        out.push(game.move_name(&pos, mv));
        pos = game.play(&pos, mv);
    }
    out.join(" ")
}

/// Print a value as pretty JSON on stdout.
pub fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    outln!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}
