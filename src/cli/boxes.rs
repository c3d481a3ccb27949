//! `menace boxes`: how many boxes a machine needs, per move number and box set.

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args;
use serde_json::json;

use menace::fsutil::read_text;
use menace::machine::boxes::{counts_by_move, enumerate, BoxSet};
use menace::{training::state, with_game, Game};

use super::output::print_json;

#[derive(Args)]
pub struct BoxesArgs {
    /// The game spec, e.g. hexapawn, tictactoe.
    game: String,
    /// The side the machine plays (e.g. black, white, x, o) [default: as train and play: black for hexapawn, white for octopawn, x for tictactoe].
    #[arg(long)]
    side: Option<String>,
    /// Print every box of a saved machine as a board diagram with its bead counts.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["no_symmetry", "side"])]
    state: Option<PathBuf>,
    /// Count every position separately instead of merging mirror images.
    #[arg(long)]
    no_symmetry: bool,
    /// Give up once more than this many positions are reachable.
    #[arg(long, default_value_t = 2_000_000)]
    max_positions: usize,
    /// Print a machine-readable result on stdout.
    #[arg(long)]
    json: bool,
}

pub fn run(args: BoxesArgs) -> anyhow::Result<()> {
    let game = super::game_arg(&args.game)?;
    match &args.state {
        Some(path) => with_game!(game, g => show_state(&g, path, args.json)),
        None => {
            let side = match &args.side {
                Some(s) => game.parse_player(s).map_err(super::usage)?,
                None => game.machine_side(),
            };
            with_game!(game, g => count(&g, side, &args))
        }
    }
}

fn show_state<G: Game>(game: &G, path: &Path, json: bool) -> anyhow::Result<()> {
    let text = read_text(path).map_err(|e| anyhow!(e))?;
    let trainer = state::from_json(game, &text).map_err(|e| anyhow!("state file '{}': {e}", path.display()))?;
    let m = &trainer.machine;
    if json {
        let boxes: Vec<_> = m
            .boxes()
            .iter()
            .map(|b| {
                let beads: Vec<_> = b
                    .moves
                    .iter()
                    .zip(&b.beads)
                    .map(|(&mv, n)| json!({"move": game.move_name(&b.position, mv), "beads": n}))
                    .collect();
                json!({"position": game.position_string(&b.position), "own_move": b.own_move, "beads": beads})
            })
            .collect();
        return print_json(&json!({
            "game": game.spec(),
            "side": game.player_name(m.side()),
            "games_played": trainer.games_played,
            "boxes": boxes,
        }));
    }
    println!(
        "{} boxes of a machine playing {} in {}, after {} games ({} beads)",
        m.boxes().len(),
        game.player_name(m.side()),
        game.spec(),
        trainer.games_played,
        m.total_beads()
    );
    let mut order: Vec<usize> = (0..m.boxes().len()).collect();
    order.sort_by_key(|&i| (m.boxes()[i].own_move, i));
    let mut current = 0;
    for (n, i) in order.into_iter().enumerate() {
        let b = &m.boxes()[i];
        if b.own_move != current {
            current = b.own_move;
            let count = m.boxes().iter().filter(|x| x.own_move == current).count();
            println!("\n== the machine's move {current}: {count} boxes ==");
        }
        println!("\nbox {} ({})", n + 1, game.position_string(&b.position));
        print!("{}", game.diagram(&b.position));
        let beads: Vec<String> = b
            .moves
            .iter()
            .zip(&b.beads)
            .map(|(&mv, k)| format!("{}: {k}", game.move_name(&b.position, mv)))
            .collect();
        println!("beads  {}", beads.join("   "));
    }
    Ok(())
}

fn count<G: Game>(game: &G, side: menace::Player, args: &BoxesArgs) -> anyhow::Result<()> {
    let symmetry = !args.no_symmetry;
    let mut sets = Vec::new();
    for set in BoxSet::ALL {
        let boxes = enumerate(game, side, set, symmetry, args.max_positions).map_err(|e| {
            anyhow::anyhow!("{e}: raise --max-positions, or let a machine open its boxes on first visit")
        })?;
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
