//! `menace boxes`: how many boxes a machine needs, per move number and box set.

use menace::prelude::*;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args;
use serde_json::json;

use menace::fsutil::write_atomic;
use menace::machine::boxes::{counts_by_move, enumerate, BoxSet};
use menace::machine::settings::{BoxMode, MachineSettings};
use menace::machine::Machine;
use menace::picture::Picture;
use menace::registry::{default_settings, machine_name};
use menace::web::labels::{self, move_words, numbered, LabelSize, Layout, Paper, Subject};
use menace::{with_game, Game};

use super::output::print_json;
use super::state_file::read_state;

#[derive(Args)]
pub struct BoxesArgs {
    /// The game spec; the help lists the games of the registry.
    #[arg(help = super::args::game_help())]
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
    #[arg(long, conflicts_with_all = ["svg", "pdf"])]
    json: bool,
    /// Write the label sheet as SVG pages in millimetres, one file a page: FILE's name with -1, -2, ... before its extension.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Write the label sheet as a PDF: a page of instructions, a board, then the labels, one per box, cut marks between them.
    #[arg(long, value_name = "FILE")]
    pdf: Option<PathBuf>,
    /// The paper of --pdf and --svg: a4 or letter [default: from the locale (LC_ALL, LC_PAPER, LANG), else a4].
    #[arg(long, value_name = "PAPER")]
    paper: Option<String>,
    /// A label's size in millimetres, WIDTHxHEIGHT [default: 53x36, the top of a common matchbox, taller if a game's boxes need it].
    #[arg(long, value_name = "WxH")]
    label_size: Option<String>,
}

pub fn run(args: BoxesArgs) -> anyhow::Result<()> {
    let game = super::args::game_arg(&args.game)?;
    let name = machine_name(&game);
    // --side defaults as in train and play.
    let side = match &args.side {
        Some(s) => game.parse_player(s).map_err(super::args::usage)?,
        None => game.machine_side(),
    };
    let printing = args.svg.is_some() || args.pdf.is_some();
    if !printing && (args.paper.is_some() || args.label_size.is_some()) {
        return Err(super::args::usage(
            "--paper and --label-size shape a sheet: give --pdf FILE or --svg FILE too",
        ));
    }
    match (&args.state, printing) {
        (Some(path), true) => with_game!(game, g => state_sheet(&g, path, &args, name)),
        (None, true) => {
            let settings = default_settings(&game);
            with_game!(game, g => fresh_sheet(&g, side, &args, settings, name))
        }
        (Some(path), false) => with_game!(game, g => show_state(&g, path, args.json, name)),
        (None, false) => with_game!(game, g => count(&g, side, &args, name)),
    }
}

/// The layout --paper and --label-size ask for.
fn layout(args: &BoxesArgs) -> anyhow::Result<Layout> {
    let paper = match &args.paper {
        Some(p) => Paper::parse(p).map_err(|e| super::args::usage(format!("--paper: {e}")))?,
        None => Paper::from_env(),
    };
    let label = match &args.label_size {
        Some(s) => Some(LabelSize::parse(s).map_err(|e| super::args::usage(format!("--label-size: {e}")))?),
        None => None,
    };
    Ok(Layout { paper, label })
}

/// `her.svg`'s page `k`: `her-k.svg`.
fn page_path(path: &Path, k: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

fn write_sheet<G: Picture>(
    game: &G,
    machine: &Machine<G>,
    games: Option<u64>,
    args: &BoxesArgs,
    name: &str,
) -> anyhow::Result<()> {
    let subject = Subject {
        game,
        machine,
        name,
        games_played: games,
    };
    let sheet = labels::sheet(&subject, layout(args)?).map_err(|e| anyhow!(e))?;
    let label_pages = sheet.pages.len() - sheet.front_pages;
    let what = format!(
        "{} labels of {} × {} mm on {label_pages} page{} of {} ({} a page), after {} ({} pages)",
        sheet.labels,
        sheet.label.width,
        sheet.label.height,
        if label_pages == 1 { "" } else { "s" },
        match sheet.paper {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        },
        sheet.per_page,
        // More than a page of labels gets an index of the boxes by position.
        if label_pages > 1 {
            "the instructions, a board, a tally sheet and an index"
        } else {
            "the instructions, a board and a tally sheet"
        },
        sheet.front_pages
    );
    if let Some(pdf) = &args.pdf {
        let bytes = menace::web::pdf::sheet_pdf(&sheet).map_err(|e| anyhow!(e))?;
        write_atomic(pdf, &bytes).map_err(|e| anyhow!(e))?;
        outln!("{what}: {} pages written to {}", sheet.pages.len(), pdf.display());
    }
    if let Some(svg) = &args.svg {
        for (k, page) in sheet.pages.iter().enumerate() {
            write_atomic(&page_path(svg, k + 1), page.as_bytes()).map_err(|e| anyhow!(e))?;
        }
        outln!(
            "{what}: {} pages written to {} ... {}",
            sheet.pages.len(),
            page_path(svg, 1).display(),
            page_path(svg, sheet.pages.len()).display()
        );
    }
    Ok(())
}

fn state_sheet<G: Picture>(game: &G, path: &Path, args: &BoxesArgs, name: &str) -> anyhow::Result<()> {
    let trainer = read_state(game, path)?;
    write_sheet(game, trainer.machine(), Some(trainer.games_played()), args, name)
}

fn fresh_sheet<G: Picture>(
    game: &G,
    side: menace::Player,
    args: &BoxesArgs,
    mut settings: MachineSettings,
    name: &str,
) -> anyhow::Result<()> {
    settings.symmetry = !args.no_symmetry;
    settings.box_mode = BoxMode::Enumerate;
    let machine = Machine::new(game.clone(), side, settings).map_err(|e| {
        anyhow!("{e}: its boxes cannot all be listed; print the boxes of a trained machine with --state")
    })?;
    write_sheet(game, &machine, None, args, name)
}

fn show_state<G: Game>(game: &G, path: &Path, json: bool, name: &str) -> anyhow::Result<()> {
    let trainer = read_state(game, path)?;
    let m = trainer.machine();
    if json {
        let boxes: Vec<_> = m
            .boxes()
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let beads: Vec<_> = m
                    .box_moves(i as u32)
                    .into_iter()
                    .zip(b.beads.iter())
                    .map(|(mv, n)| json!({"move": game.move_name(&b.position(game), mv), "beads": n}))
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
        let b = m.boxes().get(i);
        if b.own_move != current {
            current = b.own_move;
            let count = m.boxes().iter().filter(|x| x.own_move == current).count();
            outln!("\n== {}: {count} boxes ==", move_words(name, m.side(), current));
        }
        outln!("\nbox {} ({})", n + 1, game.position_string(&b.position(game)));
        out!("{}", game.diagram(&b.position(game)));
        let beads: Vec<String> = m
            .box_moves(i as u32)
            .into_iter()
            .zip(b.beads.iter())
            .map(|(mv, k)| format!("{}: {k}", game.move_name(&b.position(game), mv)))
            .collect();
        outln!("beads  {}", beads.join("   "));
    }
    Ok(())
}

fn count<G: Game>(game: &G, side: menace::Player, args: &BoxesArgs, name: &str) -> anyhow::Result<()> {
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
    // The sets count by the game's move; say the machine's own move with it.
    let own = |m: u32| (m.saturating_sub(side.index() as u32 + 1)) / 2 + 1;
    let rows: Vec<(u32, String)> = moves.iter().map(|&m| (m, move_words(name, side, own(m)))).collect();
    let wide = rows.iter().map(|(_, w)| w.chars().count()).max().unwrap_or(0).max(5);
    outln!("  {:<wide$} {:>8} {:>8} {:>8}", "move", "all", "choices", "michie");
    for (m, words) in rows {
        out!("  {words:<wide$}");
        for (_, per, _) in &sets {
            let n = per.iter().find(|(k, _)| *k == m).map_or(0, |(_, n)| *n);
            out!(" {n:>8}");
        }
        outln!();
    }
    out!("  {:<wide$}", "total");
    for (_, _, total) in &sets {
        out!(" {total:>8}");
    }
    outln!();
    outln!("all: every position where the machine is to move and the game is not over");
    outln!("choices: only positions with more than one legal move");
    outln!("michie: choices, less those where every move lets the opponent win at once and none wins");
    Ok(())
}
