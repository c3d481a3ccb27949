//! `menace.train`, exact learning and the solver's values: the command
//! line's `train` and `solve` as functions, with the command line's seeds
//! and messages.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use menace_core::game::{Game, MachinePreset, Outcome};
use menace_core::machine::boxes::BoxSet;
use menace_core::machine::settings::{BeadSchedule, BoxMode, EmptyBox, Reinforcement};
use menace_core::machine_spec::MachineSpec;
use menace_core::registry::default_side;
use menace_core::search::solver::{Solver, Value, DEFAULT_LIMIT};
use menace_core::training::lifetime::LifeLimits;
use menace_core::training::opponent::OpponentSpec;
use menace_core::training::trainer::Trainer;
use menace_core::with_game;

use crate::learner::{boxed, tallied, Machine, Tallied};
use crate::table::parse_game;
use crate::value_error;

/// The most games one call plays, as `menace train --games` allows.
const MAX_GAMES: u64 = 100_000_000;

/// The machine the settings describe, as `menace train`'s flags read them.
#[allow(clippy::too_many_arguments)]
fn machine_spec(
    preset: Option<&str>,
    beads: Option<&str>,
    reinforcement: Option<&str>,
    empty_box: Option<&str>,
    box_set: Option<&str>,
    box_mode: Option<&str>,
    symmetry: Option<bool>,
) -> PyResult<MachineSpec> {
    Ok(MachineSpec {
        preset: preset.map(MachinePreset::parse).transpose().map_err(value_error)?,
        beads: beads.map(BeadSchedule::parse).transpose().map_err(value_error)?,
        reinforcement: reinforcement
            .map(Reinforcement::parse)
            .transpose()
            .map_err(value_error)?,
        empty_box: empty_box.map(EmptyBox::parse).transpose().map_err(value_error)?,
        box_set: box_set.map(BoxSet::parse).transpose().map_err(value_error)?,
        box_mode: box_mode.map(BoxMode::parse).transpose().map_err(value_error)?,
        symmetry,
    })
}

/// A fresh machine of `game` trained for `games` games, as `menace train`
/// plays them for the same arguments and seed: the machine, and the
/// results (see [`Tallied`]).
#[pyfunction]
#[pyo3(signature = (game, side=None, opponent=None, games=50, seed=0, preset=None, beads=None, reinforcement=None, empty_box=None, box_set=None, box_mode=None, symmetry=None))]
#[allow(clippy::too_many_arguments)]
pub fn train(
    py: Python<'_>,
    game: &str,
    side: Option<&str>,
    opponent: Option<&str>,
    games: u64,
    seed: u64,
    preset: Option<&str>,
    beads: Option<&str>,
    reinforcement: Option<&str>,
    empty_box: Option<&str>,
    box_set: Option<&str>,
    box_mode: Option<&str>,
    symmetry: Option<bool>,
) -> PyResult<(Machine, Tallied)> {
    let any = parse_game(game)?;
    let settings = machine_spec(preset, beads, reinforcement, empty_box, box_set, box_mode, symmetry)?.resolve(&any);
    if games > MAX_GAMES {
        return Err(value_error(format!(
            "games {games}: too many for one run: at most {MAX_GAMES}"
        )));
    }
    let opponent = match opponent {
        Some(text) => OpponentSpec::parse_program(text).map_err(value_error)?,
        None => OpponentSpec::Random,
    };
    let side = match side {
        Some(s) => any.parse_player(s).map_err(value_error)?,
        None => default_side(&any),
    };
    let (learner, outcomes, tally) = py
        .allow_threads(|| {
            let mut learner = with_game!(any, g => Trainer::new(g, side, settings, opponent, seed).map(boxed))
                .map_err(|e| e.to_string())?;
            let (outcomes, tally) = learner.train(games);
            Ok::<_, String>((learner, outcomes, tally))
        })
        .map_err(value_error)?;
    let results = tallied(py, &outcomes, &tally);
    Ok((Machine::new(learner), results))
}

/// The exact learning life of `machine` from its beads now, against
/// `opponent` (its own by default): the chance of losing each of the next
/// `games` games and of being safe for good after each, the expected losses
/// over its whole life and their distribution, and the expected games until
/// safe, over all the randomness. Only for a scheme that takes beads away
/// (Gardner's), against random, perfect or perfect:P.
#[pyfunction]
#[pyo3(signature = (machine, opponent=None, games=50, max_states=2_000_000, max_nodes=2_000_000_000))]
pub fn exact_life<'py>(
    py: Python<'py>,
    machine: &mut Machine,
    opponent: Option<&str>,
    games: usize,
    max_states: usize,
    max_nodes: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let opponent = match opponent {
        Some(text) => OpponentSpec::parse_program(text).map_err(value_error)?,
        None => OpponentSpec::parse_program(&machine.learner().opponent()).map_err(value_error)?,
    };
    let limits = LifeLimits {
        states: max_states,
        nodes: max_nodes,
        ..LifeLimits::default()
    };
    let inner = machine.learner_mut();
    let life = py
        .allow_threads({
            let opponent = opponent.clone();
            move || inner.life(games, &opponent, limits)
        })
        .ok_or_else(|| {
            value_error(format!(
                "exact learning against {opponent}: only against random, perfect or perfect:P"
            ))
        })?
        .map_err(|e| value_error(format!("exact learning against {opponent}: {e}")))?;
    let d = PyDict::new(py);
    d.set_item("opponent", opponent.to_string())?;
    d.set_item("machines", life.states)?;
    d.set_item("loss_at", life.loss_at.clone())?;
    d.set_item("safe_by", life.safe_by.clone())?;
    d.set_item("safe_at_start", life.safe_at_start)?;
    d.set_item(
        "expected_losses_in_games",
        life.expected_losses_within(life.loss_at.len()),
    )?;
    d.set_item("expected_losses", life.expected_losses)?;
    d.set_item("losses", life.losses.clone())?;
    d.set_item("expected_games_until_safe", life.expected_games_until_safe)?;
    Ok(d)
}

fn value_dict<'py>(py: Python<'py>, v: Value, mover: &str, other: &str) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (result, plies, winner) = match v {
        Value::Win(n) => ("win", Some(n), Some(mover)),
        Value::Draw => ("draw", None, None),
        Value::Loss(n) => ("loss", Some(n), Some(other)),
    };
    d.set_item("result", result)?;
    d.set_item("plies", plies)?;
    d.set_item("winner", winner)?;
    Ok(d)
}

/// The exact solver's value of the start of `game` or of `position` (its
/// compact string) for the player to move: a dict with `result` ("win",
/// "draw", "loss"), `plies` to the end with best play, `winner`, and
/// `moves`, each legal move's value for the player who makes it.
#[pyfunction]
#[pyo3(signature = (game, position=None, max_positions=DEFAULT_LIMIT))]
pub fn solve<'py>(
    py: Python<'py>,
    game: &str,
    position: Option<&str>,
    max_positions: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let any = parse_game(game)?;
    if position.is_none() && any.too_large_for_exhaustive_search() {
        return Err(value_error(format!(
            "{} is far too large to solve exactly: play it against a search opponent such as mcts:1000",
            any.spec()
        )));
    }
    with_game!(any, g => solve_in(py, &g, position, max_positions))
}

fn solve_in<'py, G: Game>(
    py: Python<'py>,
    game: &G,
    position: Option<&str>,
    limit: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = match position {
        Some(text) => game.parse_position(text).map_err(value_error)?,
        None => game.start(),
    };
    let text = game.position_string(&pos);
    match game.outcome(&pos) {
        Outcome::Win(p) => {
            return Err(value_error(format!(
                "position '{text}': the game is over, {} has won",
                game.player_name(p)
            )))
        }
        o if o.is_over() => return Err(value_error(format!("position '{text}': the game is over, drawn"))),
        _ => {}
    }
    let solved = py.allow_threads(|| {
        let mut solver = Solver::with_limit(game.clone(), limit);
        let value = solver.value(&pos)?;
        let moves = solver.move_values(&pos)?;
        Ok::<_, menace_core::game::TooLarge>((value, moves))
    });
    let (value, moves) = solved.map_err(|e| {
        value_error(format!(
            "{e}: raise max_positions, or play it against a search opponent such as mcts:1000"
        ))
    })?;
    let mover = game.turn(&pos);
    let (me, other) = (game.player_name(mover), game.player_name(mover.other()));
    let d = value_dict(py, value, me, other)?;
    d.set_item("position", text)?;
    d.set_item("to_move", me)?;
    let by_move = PyDict::new(py);
    for (mv, v) in moves {
        by_move.set_item(game.move_name(&pos, mv), value_dict(py, v, me, other)?)?;
    }
    d.set_item("moves", by_move)?;
    Ok(d)
}

/// Spec strings of a small instance of every game of the registry.
#[pyfunction]
pub fn games() -> Vec<&'static str> {
    menace_core::AnyGame::examples()
}
