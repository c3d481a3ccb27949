//! `menace play`: a person against a machine at the terminal, game after
//! game, watching its boxes change.

use menace::prelude::*;
use std::io::{BufRead, IsTerminal, Write};

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::anyhow;
use clap::Args;

use menace::fsutil::{check_writable, lock, remove_leftovers, write_atomic};
use menace::machine::{BeadChange, GameResult};
use menace::registry::{default_side, machine_name};
use menace::training::driver::{Ending, Match, Mover, Step};
use menace::training::opponent::{Opponent, OpponentSpec};
use menace::training::trainer::Trainer;
use menace::{training::state, with_game, Game, Player};

use super::machine_args::MachineArgs;
use super::state_file::read_state;

#[derive(Args)]
pub struct PlayArgs {
    /// The game spec; the help lists the games of the registry.
    #[arg(help = super::args::game_help())]
    game: String,
    /// The machine's state file: loaded if it exists, saved after every game.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// The side the machine plays; you play the other [default: the saved side, else as train: black for hexapawn, white for octopawn, x for tictactoe].
    #[arg(long)]
    side: Option<String>,
    /// The seed of the machine's draws for a fresh machine [default: 0].
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::seed)]
    seed: Option<u64>,
    /// Time for all your moves in each game, e.g. 30s, 2m, 500ms; running out loses the game.
    #[arg(long, value_parser = parse_duration)]
    deadline: Option<Duration>,
    #[command(flatten)]
    machine: MachineArgs,
}

/// Read `500ms`, `30s`, `2m`, `1h`, or a number of seconds.
fn parse_duration(text: &str) -> Result<Duration, super::args::ArgError> {
    let t = text.trim();
    let err = || super::args::ArgError::new("duration", text, "expected a time like 500ms, 30s, 2m or 1h");
    let (num, unit) = match t.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => t.split_at(i),
        None => (t, "s"),
    };
    let n: f64 = num.parse().map_err(|_| err())?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(err()),
    };
    if !(secs > 0.0 && secs < 1e9) {
        return Err(err());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// What the person typed, or that input ended.
enum Input {
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes: not a move, and input stops
    /// there (`play < /dev/zero` would otherwise read for ever).
    TooLong,
    End,
    Interrupt,
}

pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let any = super::args::game_arg(&args.game)?;
    let settings = args.machine.settings(&any)?;
    let default = default_side(&any);
    let name = machine_name(&any);
    with_game!(any, g => session(g, &args, settings, default, name))
}

/// The most bytes of one input line kept (a move is a few bytes).
const MAX_LINE: usize = 4096;

/// One line of input as read by [`read_line_limited`].
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A whole line, without its newline.
    Text(Vec<u8>),
    /// More than the limit without a newline: reading stops there.
    TooLong,
}

/// The next line (without its newline), or [`Line::TooLong`] as soon as
/// more than `limit` bytes come without one; `None` at the end of input.
fn read_line_limited(input: &mut impl BufRead, limit: usize) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut seen = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(seen.then_some(Line::Text(line)));
        }
        seen = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        if line.len() + chunk.len() > limit {
            return Ok(Some(Line::TooLong));
        }
        line.extend_from_slice(chunk);
        let ended = done > chunk.len();
        input.consume(done);
        if ended {
            return Ok(Some(Line::Text(line)));
        }
    }
}

fn spawn_input() -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    let interrupt = tx.clone();
    // Ctrl-C ends the session like end of input: the state is saved after every game anyway.
    let _ = ctrlc::set_handler(move || {
        let _ = interrupt.send(Input::Interrupt);
    });
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        // Bytes, not lines of text: a line that is not UTF-8 is refused as a
        // move, not taken as the end. A line longer than MAX_LINE bytes ends
        // the input, so an endless one (`< /dev/zero`) neither fills memory
        // nor runs for ever.
        let mut input = stdin.lock();
        loop {
            let message = match read_line_limited(&mut input, MAX_LINE) {
                Ok(Some(Line::Text(bytes))) => {
                    Input::Line(String::from_utf8_lossy(&bytes).trim_end_matches('\r').to_string())
                }
                Ok(Some(Line::TooLong)) => Input::TooLong,
                Ok(None) | Err(_) => Input::End,
            };
            let last = !matches!(message, Input::Line(_));
            if tx.send(message).is_err() || last {
                return;
            }
        }
    });
    rx
}

struct Screen {
    colour: bool,
}

impl Screen {
    fn bold(&self, text: &str) -> String {
        if self.colour {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

fn session<G: Game>(
    game: G,
    args: &PlayArgs,
    settings: menace::machine::settings::MachineSettings,
    default_side: Player,
    name: &str,
) -> anyhow::Result<()> {
    // A game already over at its start would be played, and saved, without end.
    if game.outcome(&game.start()).is_over() {
        return Err(super::args::usage(format!(
            "{}: the game is already over at its start position: nothing to play",
            game.spec()
        )));
    }
    // Held for the whole session: a second process on the same state file is refused at once.
    let _lock = args.state.as_deref().map(lock).transpose()?;
    // Refused now rather than after the first game is played.
    if let Some(path) = &args.state {
        // What a killed save left behind goes (a live write's is kept).
        remove_leftovers(path);
        check_writable(path)?;
    }
    let mut trainer = match &args.state {
        Some(path) if path.exists() => {
            let mut t = read_state(&game, path)?;
            if let Some(s) = &args.side {
                let asked = game.parse_player(s).map_err(super::args::usage)?;
                if asked != t.machine().side() {
                    anyhow::bail!(
                        "--side {s}: the machine in '{}' plays {}",
                        path.display(),
                        game.player_name(t.machine().side())
                    );
                }
            }
            // You are now the machine's opponent, and the state file will say so.
            if t.opponent().machine().is_some() {
                anyhow::bail!(
                    "state file '{}': the machine trains against a second machine (opponent menace), whose boxes playing would drop; play a copy of the file",
                    path.display()
                );
            }
            t.set_opponent(OpponentSpec::Human, Opponent::Human);
            outln!(
                "Loaded {}: {name} has played {}.",
                path.display(),
                games(t.games_played())
            );
            if args.seed.is_some() {
                outln!("(--seed is ignored: the saved machine goes on with its own random stream.)");
            }
            if args.machine.any() {
                outln!("(The machine options are ignored: the saved machine keeps its settings.)");
            }
            t
        }
        _ => {
            let side = match &args.side {
                Some(s) => game.parse_player(s).map_err(super::args::usage)?,
                None => default_side,
            };
            Trainer::new(
                game.clone(),
                side,
                settings,
                OpponentSpec::Human,
                args.seed.unwrap_or(0),
            )?
        }
    };
    let screen = Screen {
        colour: std::io::stdout().is_terminal(),
    };
    let input = spawn_input();
    let help = help_text(args.state.as_deref());
    // The state as after the last finished game: what is saved if the session ends mid-game.
    let mut finished_state = state::to_json(&trainer);
    let machine_side = trainer.machine().side();
    let you = machine_side.other();
    outln!(
        "You play {}; {name} plays {}. Type a move, or help.",
        game.player_name(you),
        game.player_name(machine_side)
    );
    let (mut your_wins, mut its_wins, mut draws) = (0u32, 0u32, 0u32);
    // Games lost on time one after another: nobody is there.
    let mut timeouts_in_a_row = 0;
    let mut told_mirrors = false;
    loop {
        let number = trainer.games_played().saturating_add(1);
        outln!("\n{}", screen.bold(&format!("=== Game {number} ===")));
        let end = play_one(&game, &mut trainer, &input, args.deadline, &screen, name, &help)?;
        let bye = |trainer: &Trainer<G>, (you, it, draws): (u32, u32, u32)| -> Result<(), super::output::StdoutError> {
            outln!(
                "\nBye. Score: you {you}, {name} {it}, draws {draws}. (This session; {name} has played {} in all.)",
                games(trainer.games_played())
            );
            Ok(())
        };
        let (result, changes, drawn, asked) = match end {
            GameEnd::Stopped => {
                // Input ended or was interrupted mid-game: the game in progress is
                // dropped and the file keeps the state after the last finished game.
                save(&finished_state, args)?;
                bye(&trainer, (your_wins, its_wins, draws))?;
                return Ok(());
            }
            GameEnd::OnTime => {
                its_wins += 1;
                timeouts_in_a_row += 1;
                outln!(
                    "Score: you {your_wins}, {name} {its_wins}, draws {draws}. (This session; {name} has played {} in all.)",
                    games(trainer.games_played())
                );
                if timeouts_in_a_row >= MAX_TIMEOUTS {
                    outln!(
                        "\nNo move in {MAX_TIMEOUTS} games in a row: stopping (the machine is saved as after the last game played out)."
                    );
                    save(&finished_state, args)?;
                    return Ok(());
                }
                continue;
            }
            GameEnd::Finished(played) => played,
        };
        timeouts_in_a_row = 0;
        match result {
            GameResult::Win => its_wins += 1,
            GameResult::Loss => your_wins += 1,
            GameResult::Draw => draws += 1,
        }
        report_changes(&game, &trainer, &changes, &drawn, name, &mut told_mirrors)?;
        outln!(
            "Score: you {your_wins}, {name} {its_wins}, draws {draws}. (This session; {name} has played {} in all.)",
            games(trainer.games_played())
        );
        finished_state = state::to_json(&trainer);
        save(&finished_state, args)?;
        if !asked {
            // The game ended without a move of yours (the machine won, or
            // resigned, at once): wait for you before the next, so that a
            // board decided before you move is not played without end.
            outln!("That game needed no move of yours. Press Enter for the next game, or type quit.");
            let _ = std::io::stdout().flush();
            match input.recv().unwrap_or(Input::End) {
                Input::Line(l) if !matches!(l.trim(), "quit" | "exit") => {}
                _ => {
                    bye(&trainer, (your_wins, its_wins, draws))?;
                    return Ok(());
                }
            }
        }
    }
}

/// "1 game", "7 games".
fn games(n: u64) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

fn save(state_json: &str, args: &PlayArgs) -> anyhow::Result<()> {
    if let Some(path) = &args.state {
        write_atomic(path, state_json.as_bytes()).map_err(|e| anyhow!(e))?;
    }
    Ok(())
}

/// A box the machine drew from in this game: its index, the symmetry from
/// the board as played to the box, and that board.
type Drawn<G> = (u32, <G as Symmetric>::Symmetry, <G as Rules>::Position);

/// A finished game: its result for the machine, the beads that changed, the
/// boxes drawn from, and whether the person was asked for a move.
type Played<G> = (GameResult, Vec<BeadChange>, Vec<Drawn<G>>, bool);

/// How one game of a session ended.
enum GameEnd<G: Game> {
    /// Played out (or resigned) and reinforced.
    Finished(Played<G>),
    /// The person ran out of time: the game is lost, but neither reinforced
    /// nor counted, since a forfeit says nothing of the machine's moves
    /// (and nobody may be at the keyboard at all).
    OnTime,
    /// The person quit, or input ended: the game is dropped unfinished.
    Stopped,
}

/// Refused inputs in a row after which play stops: the input is not a person typing moves.
const MAX_REFUSED: u32 = 100;

/// Games lost on time in a row after which play stops: nobody is at the keyboard.
const MAX_TIMEOUTS: u32 = 3;

/// The bead changes of a game, each move and box shown as on the board that
/// was played (the box itself may hold the mirror image).
fn report_changes<G: Game>(
    game: &G,
    trainer: &Trainer<G>,
    changes: &[BeadChange],
    drawn: &[Drawn<G>],
    name: &str,
    told_mirrors: &mut bool,
) -> Result<(), super::output::StdoutError> {
    if changes.is_empty() {
        outln!("{name}'s beads are unchanged.");
        return Ok(());
    }
    for c in changes {
        let b = trainer.machine().boxes().get(c.box_index as usize);
        let stored = trainer.machine().box_moves(c.box_index)[c.colour as usize];
        let (mv, position) = match drawn.iter().rev().find(|d| d.0 == c.box_index) {
            Some((_, sym, played)) => {
                if !sym.is_identity() && !*told_mirrors {
                    outln!("(Mirror images share one box: boxes and moves are shown as on the board played.)");
                    *told_mirrors = true;
                }
                let real = game.map_move(stored, sym.inverse());
                (game.move_name(played, real), game.position_string(played))
            }
            None => (
                game.move_name(&b.position(game), stored),
                game.position_string(&b.position(game)),
            ),
        };
        let verb = if c.after < c.before { "loses" } else { "gains" };
        outln!(
            "{name} {verb} {} bead{} of {mv} in box {} ({position}): {} -> {}",
            c.before.abs_diff(c.after),
            if c.before.abs_diff(c.after) == 1 { "" } else { "s" },
            c.box_index + 1,
            c.before,
            c.after
        );
    }
    Ok(())
}

/// The machine's box for `pos` as "move: beads" on the real board, marking `drawn`.
fn box_line<G: Game>(game: &G, trainer: &Trainer<G>, pos: &G::Position, drawn: Option<G::Move>) -> Option<String> {
    let (i, sym) = trainer.machine().box_for(pos)?;
    let b = trainer.machine().boxes().get(i as usize);
    let inverse = sym.inverse();
    let parts: Vec<String> = trainer
        .machine()
        .box_moves(i)
        .into_iter()
        .zip(b.beads.iter())
        .map(|(m, n)| {
            let real = game.map_move(m, inverse);
            let mark = if Some(real) == drawn { " <- drawn" } else { "" };
            format!("{}: {n}{mark}", game.move_name(pos, real))
        })
        .collect();
    Some(format!("box {}: {}", i + 1, parts.join(", ")))
}

/// The in-game help, saying truly whether and where the machine is saved.
fn help_text(state: Option<&std::path::Path>) -> String {
    let saving = match state {
        Some(path) => format!("the machine is saved to {} after every game", path.display()),
        None => "the machine is not saved (give --state FILE to keep it)".to_string(),
    };
    format!(
        "Type a move in the game's notation (the legal ones are listed), or:
  resign   give up this game (you lose it)
  boxes    show the box the machine last drew from, with its beads now
  help     this text
  quit     stop (end of input or Ctrl-C also stops); {saving}"
    )
}

/// Play one game through the match driver.
fn play_one<G: Game>(
    game: &G,
    trainer: &mut Trainer<G>,
    input: &Receiver<Input>,
    deadline: Option<Duration>,
    screen: &Screen,
    name: &str,
    help: &str,
) -> anyhow::Result<GameEnd<G>> {
    let mut drawn: Vec<Drawn<G>> = Vec::new();
    let mut asked = false;
    let mut refused = 0u32;
    let mut m = Match::start(trainer);
    let first = game.turn(m.position());
    let mut time_left = deadline;
    let mut last_box: Option<String> = None;
    // The board is drawn once per position, not again after a refused move or help.
    let mut shown = false;
    loop {
        let before = (m.mover(trainer) == Mover::Machine).then(|| m.position().clone());
        match m.step(trainer) {
            Step::Over(result, ending) => {
                match ending {
                    Ending::MachineResigned => {
                        outln!("{name}'s box for this position is empty: {name} resigns. You win.")
                    }
                    // A person's resignation or timeout was announced when it happened.
                    Ending::OpponentResigned => {}
                    Ending::Rules => {
                        out!("{}", game.diagram_after(m.position(), m.last_move()));
                        if let Some(seed) = m.start_seed() {
                            outln!(
                                "This game's seed was {seed}: it decided that {} placed first.",
                                game.player_name(first)
                            );
                        }
                        match result {
                            GameResult::Win => outln!("{name} wins."),
                            GameResult::Loss => outln!("You win."),
                            GameResult::Draw => outln!("A draw."),
                        }
                    }
                }
                let (record, changes) = m.finish(trainer, false);
                return Ok(GameEnd::Finished((record.result, changes, drawn, asked)));
            }
            Step::Machine(mv) => {
                let before = before.as_ref().unwrap_or(m.position());
                if let Some((i, sym)) = trainer.machine().box_for(before) {
                    drawn.push((i, sym, before.clone()));
                }
                let line = box_line(game, trainer, before, Some(mv));
                match &line {
                    Some(l) => outln!("{name} draws from {l}"),
                    None => outln!("{name} has no box for this position and plays without one."),
                }
                outln!(
                    "{}",
                    screen.bold(&format!("{name} plays {}", game.move_name(before, mv)))
                );
                last_box = line;
                shown = false;
            }
            // The opponent here is always the person.
            Step::Opponent(_) => shown = false,
            Step::AwaitingPerson => {
                asked = true;
                let pos = m.position().clone();
                if !shown {
                    out!("{}", game.diagram_after(&pos, m.last_move()));
                    shown = true;
                }
                outln!(
                    "Your move ({}): {}",
                    game.player_name(game.turn(&pos)),
                    game.legal_move_names(&pos)
                );
                if let Some(left) = time_left {
                    outln!("({:.1} s left for your moves this game)", left.as_secs_f64());
                }
                let _ = std::io::stdout().flush();
                let started = Instant::now();
                let got = match time_left {
                    Some(left) => match input.recv_timeout(left) {
                        Ok(i) => i,
                        Err(RecvTimeoutError::Timeout) => {
                            outln!(
                                "Time is up: you lose this game. (Lost on time, it teaches {name} nothing: its beads are unchanged and the game is not counted.)"
                            );
                            m.abandon(trainer);
                            return Ok(GameEnd::OnTime);
                        }
                        Err(RecvTimeoutError::Disconnected) => Input::End,
                    },
                    None => input.recv().unwrap_or(Input::End),
                };
                if let Some(left) = time_left.as_mut() {
                    *left = left.saturating_sub(started.elapsed());
                }
                let line = match got {
                    Input::Line(l) => l,
                    Input::TooLong => {
                        outln!("Refused: a line of more than {MAX_LINE} bytes is not a move; input stops here.");
                        m.abandon(trainer);
                        return Ok(GameEnd::Stopped);
                    }
                    Input::End | Input::Interrupt => {
                        m.abandon(trainer);
                        return Ok(GameEnd::Stopped);
                    }
                };
                // Reset by a move or a command; blank and refused lines count up.
                let blank_or_refused = refused;
                refused = 0;
                match line.trim() {
                    "" => refused = blank_or_refused + 1,
                    "quit" | "exit" => {
                        m.abandon(trainer);
                        return Ok(GameEnd::Stopped);
                    }
                    "help" | "?" => outln!("{help}"),
                    "resign" => {
                        outln!("You resign. {name} wins.");
                        m.opponent_resigns();
                    }
                    "boxes" | "box" => {
                        match &last_box {
                            Some(l) => outln!("{name} last drew from {l}"),
                            None => outln!("{name} has not moved yet this game."),
                        }
                        outln!(
                            "{name} has {} boxes holding {} beads.",
                            trainer.machine().boxes().len(),
                            trainer.machine().total_beads()
                        );
                    }
                    text => match game.parse_move(&pos, text) {
                        Ok(mv) => {
                            outln!("You play {}", game.move_name(&pos, mv));
                            m.play_person(trainer, mv);
                            shown = false;
                        }
                        Err(e) => {
                            outln!("Refused: {e}");
                            refused = blank_or_refused + 1;
                        }
                    },
                }
                if refused >= MAX_REFUSED {
                    outln!("{MAX_REFUSED} lines in a row without a move: stopping (the input is not moves).");
                    m.abandon(trainer);
                    return Ok(GameEnd::Stopped);
                }
            }
        }
    }
}
