//! Small helpers shared by the subcommands' printed output.

use menace::Game;

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
