//! `menace bench`'s training rows: whole games through the trainer, as
//! `menace train` plays them, set-up included where it costs.

use std::time::Instant;

use menace::machine::settings::MachineSettings;
use menace::training::opponent::OpponentSpec;
use menace::training::trainer::Trainer;
use menace::{Game, Hex, Hexapawn, Player};

use super::row::{resident_mb, Row};

/// Play `n` games through the trainer (seed 1), `exact_every`: with the
/// exact results every so many games.
pub fn games<G: Game>(
    what: &str,
    game: G,
    side: Player,
    settings: MachineSettings,
    opponent: &str,
    n: u64,
    exact_every: Option<u64>,
) -> anyhow::Result<Row> {
    let spec = OpponentSpec::parse(opponent)?;
    let mut trainer = Trainer::new(game, side, settings, spec, 1)?;
    let compiled = trainer.is_compiled();
    let t = Instant::now();
    let mut plies = 0u64;
    for i in 1..=n {
        let exact = exact_every.is_some_and(|k| i % k == 0);
        plies += u64::from(trainer.play_game(exact).plies);
    }
    let seconds = t.elapsed().as_secs_f64();
    Ok(Row::games(
        what,
        n,
        seconds,
        format!(
            "{} path, {:.1} plies a game, {} boxes",
            if compiled { "compiled" } else { "general" },
            plies as f64 / n as f64,
            trainer.machine().boxes().len()
        ),
    ))
}

/// What a row of [`games_set_up`] measures.
pub fn set_up_what(w: u8, h: u8, exact_every: Option<u64>) -> String {
    match exact_every {
        None => format!("train hexapawn:{w}x{h} vs perfect, set-up included"),
        Some(k) => format!("  the same, exact results every {k} games"),
    }
}

/// `menace train hexapawn:WxH --opponent perfect --games N [--exact-every K]`
/// as the command runs it (the machine's side and settings the game's
/// defaults, seed 1), timed from before the perfect opponent is set up.
pub fn games_set_up(w: u8, h: u8, n: u64, exact_every: Option<u64>) -> anyhow::Result<Row> {
    let game = Hexapawn::new(w, h)?;
    let before = resident_mb();
    let t = Instant::now();
    let side = menace::registry::winning_or_historical_side(&game);
    let mut trainer = Trainer::new(game, side, MachineSettings::gardner(), OpponentSpec::Perfect(1.0), 1)?;
    let compiled = trainer.is_compiled();
    let set_up = t.elapsed().as_secs_f64();
    let table = trainer.compiled_memory().map_or(String::new(), |(bytes, positions)| {
        format!(", {positions} positions in {:.0} MB", bytes as f64 / 1e6)
    });
    let mut plies = 0u64;
    for i in 1..=n {
        let exact = exact_every.is_some_and(|k| i % k == 0);
        plies += u64::from(trainer.play_game(exact).plies);
    }
    let seconds = t.elapsed().as_secs_f64();
    let memory = match (before, resident_mb()) {
        (Some(b), Some(a)) => format!(", {:.0} MB more resident", a - b),
        _ => String::new(),
    };
    Ok(Row::games(
        set_up_what(w, h, exact_every),
        n,
        seconds,
        format!(
            "{} path{table}, set-up {set_up:.2} s, {:.1} plies a game, {} boxes{memory}",
            if compiled { "compiled" } else { "general" },
            plies as f64 / n as f64,
            trainer.machine().boxes().len()
        ),
    ))
}

/// `menace train hex:5 --games 1`: one game, then the exact evaluation,
/// which a game this large refuses at once.
pub fn refused_row() -> anyhow::Result<Row> {
    let t = Instant::now();
    let refused = {
        let game = Hex::new(5, true, None)?;
        let mut trainer = Trainer::new(game, Player::One, MachineSettings::gardner(), OpponentSpec::Random, 1)?;
        trainer.play_game(false);
        trainer.exact().random.is_none()
    };
    let seconds = t.elapsed().as_secs_f64();
    Ok(Row {
        what: "train hex:5 --games 1: one game, then exact evaluation refused".into(),
        work: "1 game".into(),
        rate: 1.0 / seconds,
        unit: "runs/s",
        seconds,
        note: if refused {
            "refused at once".into()
        } else {
            "evaluated".into()
        },
    })
}
