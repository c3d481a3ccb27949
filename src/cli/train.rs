//! `menace train`: one seeded training run, with a summary.

use std::path::PathBuf;

use anyhow::{anyhow, bail};
use clap::Args;
use serde_json::json;

use menace::fsutil::{check_writable, lock, remove_leftovers, write_atomic};
use menace::machine::settings::MachineSettings;
use menace::machine::words::Setting;
use menace::registry::default_side;
use menace::training::lifetime::{life_against, Life, LifeError, LifeLimits};
use menace::training::opponent::OpponentSpec;
use menace::training::run::TrainingRun;
use menace::training::trainer::{make_opponent, ExactPair, Tally, Trainer, LEARNED_MIN_GAMES};
use menace::{training::state, with_game, Game};
use std::io::Write;

use super::machine_args::MachineArgs;
use super::progress::{games_bar, machines_spinner};
use super::state_file::read_state;

#[derive(Args)]
pub struct TrainArgs {
    /// The game spec; the help lists the games of the registry.
    #[arg(help = super::args::game_help())]
    game: String,
    /// The side the machine plays [default: the side that wins on a hexapawn board (black on 3x3, white on octopawn), x for tictactoe, the first player elsewhere].
    #[arg(long)]
    side: Option<String>,
    /// random, perfect, perfect:P (perfect with probability P, else random), menace (self-play),
    /// or mcts:N (Monte Carlo tree search, N playouts a move; mcts:N,c=C sets the exploration constant)
    /// [default: random, or the saved opponent with --resume].
    #[arg(long, value_parser = OpponentSpec::parse_program)]
    opponent: Option<OpponentSpec>,
    /// How many games to play (at most 100000000).
    #[arg(long, default_value_t = 50, allow_negative_numbers = true, value_parser = super::args::game_count)]
    games: u64,
    /// The seed of the run's random stream.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = super::args::seed)]
    seed: u64,
    #[command(flatten)]
    machine: MachineArgs,
    /// Also compute the exact expected results every K games of the machine's life, and after the last.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = super::args::positive)]
    exact_every: Option<u64>,
    /// Save the whole state (machine, opponent, random stream) here afterwards.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Continue from a saved state instead of a fresh machine (its settings win);
    /// give --save too (the same file to save back), or --no-save.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// With --resume and no --save: play the games without keeping them.
    #[arg(long, requires = "resume", conflicts_with = "save")]
    no_save: bool,
    /// Print the summary and every game as JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub fn run(args: TrainArgs) -> anyhow::Result<()> {
    let any = super::args::game_arg(&args.game)?;
    let settings = args.machine.settings(&any)?;
    let default = default_side(&any);
    with_game!(any, g => train(g, &args, settings, default))
}

fn train<G: Game>(
    game: G,
    args: &TrainArgs,
    settings: MachineSettings,
    default_side: menace::Player,
) -> anyhow::Result<()> {
    // Held for the whole run: a second process on the same state file is refused at once.
    let _locks = [&args.resume, &args.save]
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|&(i, p)| i == 0 || Some(p) != args.resume.as_ref())
        .map(|(_, p)| lock(p))
        .collect::<Result<Vec<_>, _>>()?;
    // What a killed save of these files left behind goes (a live write's is kept).
    for path in [&args.resume, &args.save].into_iter().flatten() {
        remove_leftovers(path);
    }
    // Refused now rather than after a long run is thrown away.
    if let Some(path) = &args.save {
        check_writable(path)?;
    }
    let mut trainer = open_trainer(&game, args, settings, default_side)?;
    // The whole learning life of the machine this run starts from, exactly,
    // where its scheme only takes beads away and the opponent is random,
    // perfect or a mix of the two (`perfect:P`).
    let spinner = machines_spinner("exact learning");
    let shown = spinner.clone();
    let life = life_against(
        trainer.machine(),
        trainer.opponent_spec(),
        usize::try_from(args.games.min(LIFE_CURVE_GAMES)).unwrap_or(0),
        LifeLimits {
            states: LIFE_STATES,
            nodes: LIFE_NODES,
            bytes: LIFE_BYTES,
        },
        &mut |n| shown.set_position(n as u64),
    );
    spinner.finish_and_clear();
    // Without a compiled table, what freed memory kept would hold is
    // mostly the old copies of the boxes' map as it grows, never reused.
    if !trainer.is_compiled() {
        menace::memory::give_back_freed_memory();
    }
    let bar = games_bar(args.games);
    // Running totals only: memory stays flat however many games. With
    // --json each game's record is streamed out as one line.
    let mut run = TrainingRun::new(args.games, args.exact_every);
    let stdout = std::io::stdout();
    let mut lines = std::io::BufWriter::new(stdout.lock());
    for i in 0..args.games {
        let record = run.play_next(&mut trainer);
        if args.json {
            serde_json::to_writer(&mut lines, &record).map_err(|e| super::output::StdoutError(e.into()))?;
            lines.write_all(b"\n").map_err(super::output::StdoutError)?;
        }
        if i % 64 == 0 {
            bar.set_position(i);
        }
    }
    lines.flush().map_err(super::output::StdoutError)?;
    drop(lines);
    bar.finish_and_clear();
    let tally = *run.tally();
    let final_exact = trainer.exact();
    let compiled = trainer.compiled_memory();
    if let Some(path) = &args.save {
        write_atomic(path, state::to_json(&trainer).as_bytes()).map_err(|e| anyhow!(e))?;
    }
    let (wins, draws, losses) = (tally.wins, tally.draws, tally.losses);
    let learned = tally.learned();
    let first = tally.first_game.unwrap_or(0);
    let m = trainer.machine();
    if args.json {
        // The summary as the last line, after a line a game.
        outln!(
            "{}",
            json_summary(&trainer, args, &tally, &final_exact, compiled, life.as_ref())
        );
        return Ok(());
    }
    let origin = match &args.resume {
        Some(path) => match trainer.seed() {
            Some(seed) => format!("continued from {} (seed {seed})", path.display()),
            None => format!("continued from {}", path.display()),
        },
        None => format!("seed {}", args.seed),
    };
    outln!(
        "{}: machine plays {} against {}, games {}..{}, {origin}",
        game.spec(),
        game.player_name(m.side()),
        trainer.opponent_spec(),
        first,
        trainer.games_played(),
    );
    outln!("settings: {}", m.settings().describe());
    if args.resume.is_none() {
        // A preset named: what it is, in words (the line above says what it became).
        if let Some(preset) = args.machine.spec()?.preset {
            let own: Vec<String> = MachineSettings::of_preset(preset)
                .parts()
                .iter()
                .map(Setting::plain)
                .collect();
            outln!("preset {} ({}): {}", preset.name(), preset.whose(), own.join("; "));
        }
    }
    outln!("results: {wins} wins, {draws} draws, {losses} losses");
    let verdict = if learned.is_some() {
        "learned"
    } else {
        "not learned yet"
    };
    match tally.last_loss {
        None => outln!("no loss in these {} games: {verdict}", tally.games),
        Some(n) if n == trainer.games_played() => outln!(
            "last loss in game {n}, the last one played: {verdict} (learned: at least {LEARNED_MIN_GAMES} games, and as many as before the last loss, without a loss)"
        ),
        Some(n) => {
            let after = trainer.games_played() - n;
            outln!(
                "last loss in game {n}; no loss in the {after} game{} after it: {verdict} (learned: at least {LEARNED_MIN_GAMES} games, and as many as before it, without a loss)",
                if after == 1 { "" } else { "s" }
            )
        }
    }
    outln!(
        "boxes: {} ({}, about {} bytes each; key and a byte a move {}), beads: {} (started with {})",
        m.boxes().len(),
        if m.is_enumerated() {
            "all made up front"
        } else {
            "opened on first visit"
        },
        m.memory_bytes() / m.boxes().len().max(1),
        m.key_and_bead_bytes() / m.boxes().len().max(1),
        m.total_beads(),
        m.initial_total()
    );
    match compiled {
        Some((bytes, positions)) => outln!(
            "compiled path: {positions} positions in flat tables, {:.1} MB with the kept exact values",
            bytes as f64 / 1e6
        ),
        None => outln!("general path"),
    }
    print_exact(&final_exact)?;
    if let Some(life) = &life {
        print_life(life, args.games, trainer.opponent_spec())?;
    }
    if let Some(path) = &args.save {
        outln!("state saved to {}", path.display());
    }
    Ok(())
}

/// `train --json`'s last line: the run and the machine it left.
fn json_summary<G: Game>(
    trainer: &Trainer<G>,
    args: &TrainArgs,
    tally: &Tally,
    final_exact: &ExactPair,
    compiled: Option<(usize, usize)>,
    life: Option<&Result<Life, LifeError>>,
) -> serde_json::Value {
    let game = trainer.machine().game();
    let m = trainer.machine();
    let (wins, draws, losses) = (tally.wins, tally.draws, tally.losses);
    let learned = tally.learned();
    json!({
        "game": game.spec(),
        "side": game.player_name(m.side()),
        "opponent": trainer.opponent_spec().to_string(),
        "seed": trainer.seed(),
        "settings": m.settings(),
        "games": tally.games,
        "games_played": trainer.games_played(),
        "wins": wins, "draws": draws, "losses": losses,
        "learned_after": learned,
        "last_loss": tally.last_loss,
        "boxes": m.boxes().len(),
        "box_memory_bytes": m.memory_bytes(),
        "compiled_positions": compiled.map(|(_, positions)| positions),
        "compiled_memory_bytes": compiled.map(|(bytes, _)| bytes),
        "beads": m.total_beads(),
        "exact": final_exact,
        "life": life.map(|l| match l {
            Ok(l) => json!({
                "machines": l.states,
                "expected_losses_in_run": (args.games <= LIFE_CURVE_GAMES).then(|| l.expected_losses_within(l.loss_at.len())),
                "safe_by_end_of_run": (args.games <= LIFE_CURVE_GAMES).then(|| l.safe_by.last().copied().unwrap_or(l.safe_at_start)),
                "expected_losses": finite(l.expected_losses),
                "losses": l.losses,
                "expected_games_until_safe": finite(l.expected_games_until_safe),
            }),
            Err(e) => json!({ "refused": e.to_string() }),
        }),
    })
}

/// The trainer a run plays on: the machine of `--resume`, checked against
/// the flags that would contradict it, or a fresh one; its opponent the
/// program asked for.
fn open_trainer<G: Game>(
    game: &G,
    args: &TrainArgs,
    settings: MachineSettings,
    default_side: menace::Player,
) -> anyhow::Result<Trainer<G>> {
    let mut trainer = match &args.resume {
        Some(path) => {
            let t = read_state(game, path)?;
            if let Some(s) = &args.side {
                let asked = game.parse_player(s).map_err(super::args::usage)?;
                if asked != t.machine().side() {
                    bail!(
                        "--side {s}: the machine in '{}' plays {}; leave --side out to continue it",
                        path.display(),
                        game.player_name(t.machine().side())
                    );
                }
            }
            // Refused before a game is played, rather than the games thrown away unsaid.
            if args.save.is_none() && !args.no_save {
                return Err(super::args::usage(format!(
                    "--resume {0} without --save would throw the games away: give --save {0} to save them back (or --no-save to keep nothing)",
                    path.display()
                )));
            }
            t
        }
        None => {
            let side = match &args.side {
                Some(s) => game.parse_player(s).map_err(super::args::usage)?,
                None => default_side,
            };
            let opponent = args.opponent.clone().unwrap_or(OpponentSpec::Random);
            Trainer::new(game.clone(), side, settings, opponent, args.seed)?
        }
    };
    if *trainer.opponent_spec() == OpponentSpec::Human {
        // A machine saved by `play` last met a person: train it against the program asked for.
        let Some(asked) = &args.opponent else {
            bail!("the machine in the state file last played a person (opponent human): give --opponent to train it");
        };
        let opponent = make_opponent(game, asked, trainer.machine().side(), trainer.machine().settings())?;
        trainer.set_opponent(asked.clone(), opponent);
    } else if let (Some(_), Some(asked)) = (&args.resume, &args.opponent) {
        if asked != trainer.opponent_spec() {
            bail!(
                "--opponent {asked} differs from the saved opponent {}; leave it out to continue",
                trainer.opponent_spec()
            );
        }
    }
    Ok(trainer)
}

/// Games a run's exact learning curve follows at most (the whole life's
/// figures have no such bound).
const LIFE_CURVE_GAMES: u64 = 10_000;

/// Distinct machines exact learning stores at most in `train` (HER against
/// random: 19 648, in about 0.1 s of CPU).
const LIFE_STATES: usize = 250_000;

/// Game-tree nodes exact learning walks at most in `train` (HER against
/// random: 7.5 million), so that a game too large refuses within a second or two.
const LIFE_NODES: u64 = 50_000_000;

/// Memory exact learning's states may take at most in `train`.
const LIFE_BYTES: usize = 128 << 20;

/// JSON has no infinity: a life that never ends safe is `null`.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn print_life(
    life: &Result<Life, LifeError>,
    games: u64,
    opponent: &OpponentSpec,
) -> Result<(), super::output::StdoutError> {
    let l = match life {
        Ok(l) => l,
        Err(e) => {
            outln!("exact learning against {opponent}: not computed: {e}");
            return Ok(());
        }
    };
    let most = l.losses.len().saturating_sub(1);
    let run = if games <= LIFE_CURVE_GAMES {
        format!(
            "{:.4} losses expected in these {games} games, ",
            l.expected_losses_within(l.loss_at.len())
        )
    } else {
        String::new()
    };
    let whole = if l.expected_losses.is_finite() {
        format!("{:.4} in its whole life (at most {most})", l.expected_losses)
    } else {
        "no end of them in its whole life (it can come to lose for ever)".to_string()
    };
    outln!(
        "exact learning against {opponent}: {run}{whole}, over the {} machines it can become",
        l.states
    );
    let until = if l.expected_games_until_safe.is_finite() {
        format!("{:.2} games until safe on average", l.expected_games_until_safe)
    } else {
        "never safe on some lines".to_string()
    };
    if games <= LIFE_CURVE_GAMES {
        let safe = l.safe_by.last().copied().unwrap_or(l.safe_at_start);
        outln!(
            "exact learning: safe for good (no chance of a loss left) by game {games} with chance {safe:.4}; {until}"
        );
    } else {
        outln!("exact learning: {until}");
    }
    Ok(())
}

fn print_exact(e: &ExactPair) -> Result<(), super::output::StdoutError> {
    for (name, x) in [("perfect", e.perfect), ("random", e.random)] {
        match x {
            Some(x) => outln!(
                "exact expected result against {name}: win {:.4}, draw {:.4}, loss {:.4}",
                x.win,
                x.draw,
                x.loss
            ),
            None => outln!("exact expected result against {name}: the game is too large to compute it"),
        }
    }
    Ok(())
}
