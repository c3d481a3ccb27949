//! `menace bench`'s perft rows: the leaves of the game tree to a depth,
//! counted through the `Game` trait.

use std::time::Instant;

use menace::search::perft::perft;
use menace::Game;

use super::row::Row;

/// Count the leaves `depth` plies from the start.
pub fn perft_row<G: Game>(what: &str, game: G, depth: u32) -> Row {
    let t = Instant::now();
    let leaves = perft(&game, &game.start(), depth);
    let seconds = t.elapsed().as_secs_f64();
    Row::new(
        what,
        format!("depth {depth}"),
        leaves,
        "leaves/s",
        seconds,
        format!("{leaves} leaves"),
    )
}
