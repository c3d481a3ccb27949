//! `menace solve`: game values, first moves, principal line; random play's
//! exact chances; the hexapawn winners table. This file picks the way to
//! solve; each way is a file of its own, and they share only the arguments.

mod args;
mod exact;
mod hex;
mod random;
mod table;

use menace::prelude::*;
use menace::with_game;

pub use args::SolveArgs;

use crate::cli::args::{game_arg, usage};

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    if let Some(family) = &args.table {
        return table::run(family, &args);
    }
    if let Some(s) = args.max_seconds {
        if !(s.is_finite() && s > 0.0) {
            return Err(usage(format!(
                "--max-seconds '{s}': expected a number of seconds above 0"
            )));
        }
    }
    let spec = args.game.as_deref().unwrap_or_default();
    let game = game_arg(spec)?;
    if args.random {
        return with_game!(game, g => random::random_against_random(&g, &args));
    }
    // A game with a solver of its own (Hex's) is solved by it, within a budget.
    if let Some(own) = game.own_solver() {
        return hex::run(own, &args);
    }
    if let Some(text) = &args.position {
        return with_game!(game, g => {
            let pos = g.parse_position(text).map_err(usage)?;
            exact::solve_from(&g, &args, pos, false)
        });
    }
    with_game!(game, g => exact::solve_game(&g, &args))
}
