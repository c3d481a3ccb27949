//! `menace solve GAME --random`: the exact chances of each result when both
//! sides play uniformly at random, over the whole game tree.

use serde_json::json;

use menace::prelude::*;
use menace::search::solver;
use menace::training::exact::random_play;
use menace::Player;

use super::args::SolveArgs;
use crate::cli::output::print_json;

/// The exact outcome probabilities of random against random play.
pub fn random_against_random<G: Game>(game: &G, args: &SolveArgs) -> anyhow::Result<()> {
    // Each stored position holds three probabilities: bound the table by them too.
    let limit = solver::memory_bounded::<(G::Position, [f64; 3])>(args.max_positions.unwrap_or(solver::DEFAULT_LIMIT));
    let p = random_play(game, &game.start(), limit)?;
    let (one, two) = (game.player_name(Player::One), game.player_name(Player::Two));
    if args.json {
        return print_json(&json!({
            "game": game.spec(),
            "random_play": {
                "wins": {one: p.one_wins, two: p.two_wins},
                "draw": p.draw,
            },
        }));
    }
    outln!(
        "{}: random against random, computed exactly over the game tree:",
        game.spec()
    );
    outln!("  {one} wins {:.4}", p.one_wins);
    outln!("  {two} wins {:.4}", p.two_wins);
    outln!("  draw   {:.4}", p.draw);
    Ok(())
}
