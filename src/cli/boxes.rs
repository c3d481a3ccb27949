//! `menace boxes`: how many boxes a machine needs, per move number and box set.

use clap::Args;
use serde_json::json;

use menace::boxes::{counts_by_move, enumerate, BoxSet};
use menace::solver::DEFAULT_LIMIT;
use menace::{parse_spec, with_game, Game};

use super::output::print_json;

#[derive(Args)]
pub struct BoxesArgs {
    /// The game spec, e.g. hexapawn, tictactoe.
    game: String,
    /// The side the machine plays (e.g. black, white, x, o).
    #[arg(long)]
    side: String,
    /// Count every position separately instead of merging mirror images.
    #[arg(long)]
    no_symmetry: bool,
    /// Give up once more than this many positions are reachable.
    #[arg(long, default_value_t = DEFAULT_LIMIT)]
    max_positions: usize,
    /// Print a machine-readable result on stdout.
    #[arg(long)]
    json: bool,
}

pub fn run(args: BoxesArgs) -> anyhow::Result<()> {
    let game = parse_spec(&args.game)?;
    with_game!(game, g => count(&g, &args))
}

fn count<G: Game>(game: &G, args: &BoxesArgs) -> anyhow::Result<()> {
    let side = game.parse_player(&args.side).map_err(anyhow::Error::msg)?;
    let symmetry = !args.no_symmetry;
    let mut sets = Vec::new();
    for set in BoxSet::ALL {
        let boxes = enumerate(game, side, set, symmetry, args.max_positions)?;
        sets.push((set, counts_by_move(&boxes), boxes.len()));
    }
    if args.json {
        let out: Vec<_> = sets
            .iter()
            .map(|(set, per_move, total)| {
                let per: Vec<_> = per_move.iter().map(|(m, n)| json!({"move": m, "boxes": n})).collect();
                json!({"set": set.name(), "total": total, "per_move": per})
            })
            .collect();
        return print_json(&json!({
            "game": game.spec(),
            "side": game.player_name(side),
            "symmetry": symmetry,
            "sets": out,
        }));
    }
    let merging = if symmetry {
        format!("positions merged under the game's {} symmetries", game.symmetry_count())
    } else {
        "every position counted separately (--no-symmetry)".to_string()
    };
    println!(
        "Boxes for a machine playing {} in {} ({merging})",
        game.player_name(side),
        game.spec()
    );
    let mut moves: Vec<u32> = sets
        .iter()
        .flat_map(|(_, per, _)| per.iter().map(|(m, _)| *m))
        .collect();
    moves.sort_unstable();
    moves.dedup();
    println!("{:>6} {:>8} {:>8} {:>8}", "move", "all", "choices", "michie");
    for m in moves {
        print!("{m:>6}");
        for (_, per, _) in &sets {
            let n = per.iter().find(|(k, _)| *k == m).map_or(0, |(_, n)| *n);
            print!(" {n:>8}");
        }
        println!();
    }
    print!("{:>6}", "total");
    for (_, _, total) in &sets {
        print!(" {total:>8}");
    }
    println!();
    println!("all: every position where the machine is to move and the game is not over");
    println!("choices: only positions with more than one legal move");
    println!("michie: choices, less those where every move lets the opponent win at once and none wins");
    Ok(())
}
