//! `menace boxes`: how many boxes a machine needs, per move number and box set.

use menace::prelude::*;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args;
use serde_json::json;

use menace::fsutil::{read_text, write_atomic};
use menace::machine::boxes::{counts_by_move, enumerate, BoxSet};
use menace::machine::settings::{BoxMode, MachineSettings};
use menace::machine::Machine;
use menace::picture::Picture;
use menace::registry::{default_settings, machine_name};
use menace::web::svg::{game_move, label_sheet, sheet_title, Label};
use menace::{training::state, with_game, Game};

use super::output::print_json;

#[derive(Args)]
pub struct BoxesArgs {
    /// The game spec; the help lists the games of the registry.
    #[arg(help = super::game_help())]
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
    #[arg(long, conflicts_with = "svg")]
    json: bool,
    /// Write a sheet of matchbox labels to print (SVG): one per box, its position with a coloured arrow per bead colour and a legend.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

pub fn run(args: BoxesArgs) -> anyhow::Result<()> {
    let game = super::game_arg(&args.game)?;
    let name = machine_name(&game);
    // --side defaults as in train and play.
    let side = match &args.side {
        Some(s) => game.parse_player(s).map_err(super::usage)?,
        None => game.machine_side(),
    };
    match (&args.state, &args.svg) {
        (Some(path), Some(svg)) => with_game!(game, g => state_sheet(&g, path, svg, name)),
        (None, Some(svg)) => {
            let settings = default_settings(&game);
            with_game!(game, g => fresh_sheet(&g, side, &args, settings, svg, name))
        }
        (Some(path), None) => with_game!(game, g => show_state(&g, path, args.json)),
        (None, None) => with_game!(game, g => count(&g, side, &args)),
    }
}

/// Boxes in the order the sheets and listings number them: by the machine's move.
fn numbered<G: Game>(machine: &Machine<G>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..machine.boxes().len()).collect();
    order.sort_by_key(|&i| (machine.boxes()[i].own_move, i));
    order
}

fn write_sheet<G: Picture>(
    game: &G,
    machine: &Machine<G>,
    games: Option<u64>,
    svg: &Path,
    name: &str,
) -> anyhow::Result<()> {
    let labels: Vec<Label<'_, G>> = numbered(machine)
        .into_iter()
        .enumerate()
        .map(|(k, i)| Label {
            number: k + 1,
            matchbox: &machine.boxes()[i],
            move_number: game_move(machine.side(), machine.boxes()[i].own_move),
        })
        .collect();
    let title = sheet_title(game, name, machine.side(), labels.len(), games);
    write_atomic(svg, label_sheet(game, &title, &labels).as_bytes()).map_err(|e| anyhow!(e))?;
    outln!("{} labels written to {}", labels.len(), svg.display());
    Ok(())
}

fn state_sheet<G: Picture>(game: &G, path: &Path, svg: &Path, name: &str) -> anyhow::Result<()> {
    let text = read_text(path).map_err(|e| anyhow!(e))?;
    let trainer = state::from_json(game, &text).map_err(|e| anyhow!("state file '{}': {e}", path.display()))?;
    write_sheet(game, trainer.machine(), Some(trainer.games_played()), svg, name)
}

fn fresh_sheet<G: Picture>(
    game: &G,
    side: menace::Player,
    args: &BoxesArgs,
    mut settings: MachineSettings,
    svg: &Path,
    name: &str,
) -> anyhow::Result<()> {
    settings.symmetry = !args.no_symmetry;
    settings.box_mode = BoxMode::Enumerate;
    let machine = Machine::new(game.clone(), side, settings).map_err(|e| {
        anyhow!("{e}: its boxes cannot all be listed; print the boxes of a trained machine with --state")
    })?;
    write_sheet(game, &machine, None, svg, name)
}

fn show_state<G: Game>(game: &G, path: &Path, json: bool) -> anyhow::Result<()> {
    let text = read_text(path).map_err(|e| anyhow!(e))?;
    let trainer = state::from_json(game, &text).map_err(|e| anyhow!("state file '{}': {e}", path.display()))?;
    let m = trainer.machine();
    if json {
        let boxes: Vec<_> = m
            .boxes()
            .iter()
            .map(|b| {
                let beads: Vec<_> = b
                    .moves
                    .iter()
                    .zip(&b.beads)
                    .map(|(&mv, n)| json!({"move": game.move_name(&b.position(game), mv), "beads": n}))
                    .collect();
                json!({"position": game.position_string(&b.position(game)), "own_move": b.own_move, "beads": beads})
            })
            .collect();
        return print_json(&json!({
            "game": game.spec(),
            "side": game.player_name(m.side()),
            "games_played": trainer.games_played(),
            "boxes": boxes,
        }));
    }
    outln!(
        "{} boxes of a machine playing {} in {}, after {} games ({} beads)",
        m.boxes().len(),
        game.player_name(m.side()),
        game.spec(),
        trainer.games_played(),
        m.total_beads()
    );
    let order = numbered(m);
    let mut current = 0;
    for (n, i) in order.into_iter().enumerate() {
        let b = &m.boxes()[i];
        if b.own_move != current {
            current = b.own_move;
            let count = m.boxes().iter().filter(|x| x.own_move == current).count();
            outln!("\n== the machine's move {current}: {count} boxes ==");
        }
        outln!("\nbox {} ({})", n + 1, game.position_string(&b.position(game)));
        out!("{}", game.diagram(&b.position(game)));
        let beads: Vec<String> = b
            .moves
            .iter()
            .zip(&b.beads)
            .map(|(&mv, k)| format!("{}: {k}", game.move_name(&b.position(game), mv)))
            .collect();
        outln!("beads  {}", beads.join("   "));
    }
    Ok(())
}

fn count<G: Game>(game: &G, side: menace::Player, args: &BoxesArgs) -> anyhow::Result<()> {
    let symmetry = !args.no_symmetry;
    let mut sets = Vec::new();
    for set in BoxSet::ALL {
        let boxes = enumerate(game, side, set, symmetry, args.max_positions).map_err(|e| {
            if game.too_large_for_exhaustive_search() {
                // No --max-positions would do: say so, rather than advise raising it.
                anyhow::anyhow!(
                    "{} is far too large to count its boxes exactly, whatever --max-positions: a machine for it opens its boxes on first visit (train it, then `menace boxes {} --state FILE` prints those it opened)",
                    game.spec(),
                    game.spec()
                )
            } else {
                anyhow::anyhow!("{e}: raise --max-positions, or let a machine open its boxes on first visit")
            }
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
        format!(
            "positions merged under the game's {} symmetries",
            G::Symmetry::ALL.len()
        )
    } else {
        "every position counted separately (--no-symmetry)".to_string()
    };
    outln!(
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
    outln!("{:>6} {:>8} {:>8} {:>8}", "move", "all", "choices", "michie");
    for m in moves {
        out!("{m:>6}");
        for (_, per, _) in &sets {
            let n = per.iter().find(|(k, _)| *k == m).map_or(0, |(_, n)| *n);
            out!(" {n:>8}");
        }
        outln!();
    }
    out!("{:>6}", "total");
    for (_, _, total) in &sets {
        out!(" {total:>8}");
    }
    outln!();
    outln!("all: every position where the machine is to move and the game is not over");
    outln!("choices: only positions with more than one legal move");
    outln!("michie: choices, less those where every move lets the opponent win at once and none wins");
    Ok(())
}
