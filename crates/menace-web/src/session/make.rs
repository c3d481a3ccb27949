//! A session made fresh as a page asks, or from a state file's text.

use crate::session::error::{invalid, over_limit, SessionError};
use crate::session::game::GameSession;
use crate::session::limits::Limits;
use crate::session::requests::NewMachine;
use crate::session::traits::Session;
use menace_core::game::Game;
use menace_core::machine::settings::MachineSettings;
use menace_core::machine_spec::MachineSpec;
use menace_core::registry::{default_side, machine_name, parse_spec, AnyGame, DEFAULT_SPEC};
use menace_core::training::opponent::{Opponent, OpponentSpec};
use menace_core::training::state;
use menace_core::training::trainer::Trainer;
use menace_core::with_game;

/// Make a fresh machine as asked.
pub fn new_session(ask: &NewMachine, limits: Limits) -> Result<Box<dyn Session>, SessionError> {
    let spec = ask.game.as_deref().unwrap_or(DEFAULT_SPEC);
    let any = parse_spec(spec).map_err(invalid)?;
    let settings = settings_for(&any, ask)?;
    let side_default = default_side(&any);
    let name = machine_name(&any);
    let seed = ask.seed.unwrap_or_else(crate::host::fresh_seed);
    with_game!(any, g => {
        let side = match ask.side.as_deref() {
            Some(s) => g.parse_player(s).map_err(invalid)?,
            None => side_default,
        };
        let trainer = Trainer::new(g, side, settings, OpponentSpec::Human, seed).map_err(invalid)?;
        Ok(Box::new(GameSession::new(trainer, None, name, limits)) as Box<dyn Session>)
    })
}

/// A machine from a state file's text (as `menace train --save` writes it).
pub fn load_session(text: &str, limits: Limits) -> Result<Box<dyn Session>, SessionError> {
    let spec = state::peek_game(text).map_err(|e| invalid(format!("state file: {e}")))?;
    let any = parse_spec(&spec).map_err(|e| invalid(format!("state file: game: {e}")))?;
    let name = machine_name(&any);
    let read = state::ReadLimits {
        enumerate: limits.max_boxes.saturating_mul(40),
        // Training stops at `max_boxes` exactly: what a page's machine
        // downloads as, it uploads as.
        boxes: limits.max_boxes,
        // A perfect opponent is solved when the machine trains against it, within the page's limits.
        make_opponent: false,
    };
    with_game!(any, g => {
        let mut trainer = state::from_json_within(&g, text, read).map_err(|e| match e {
            state::StateError::OverLimit(f) => over_limit(format!("state file: {f}")),
            e => invalid(format!("state file: {e}")),
        })?;
        let parked = match trainer.opponent_spec() {
            OpponentSpec::Human => None,
            _ => {
                let (spec, opponent) = trainer.set_opponent(OpponentSpec::Human, Opponent::Human);
                Some((spec, (!matches!(opponent, Opponent::Human)).then_some(opponent)))
            }
        };
        Ok(Box::new(GameSession::new(trainer, parked, name, limits)) as Box<dyn Session>)
    })
}

/// Refuse the state file at `path` where a machine of it has more boxes
/// than `limits` allow, counting them as the file is read and keeping none
/// (as [`load_session`] counts a text's before reading its boxes in): a
/// server starting from a file (`menace serve --state`) calls this before
/// reading it whole. Any other fault is left for reading it to find.
pub fn check_state_file(path: &std::path::Path, limits: Limits) -> Result<(), SessionError> {
    state::check_boxes_in_file(path, limits.max_boxes).map_err(|e| match e {
        state::StateError::OverLimit(f) => over_limit(format!("state file: {f}")),
        e => invalid(format!("state file: {e}")),
    })
}

fn settings_for(any: &AnyGame, ask: &NewMachine) -> Result<MachineSettings, SessionError> {
    let mut spec = MachineSpec::default();
    for (field, text) in [
        ("preset", &ask.preset),
        ("beads", &ask.beads),
        ("reinforcement", &ask.reinforcement),
        ("empty_box", &ask.empty_box),
        ("box_set", &ask.box_set),
    ] {
        // A field the page leaves blank is not given.
        if let Some(text) = text.as_deref().filter(|t| !t.trim().is_empty()) {
            spec.set(field, text).map_err(|e| invalid(e.reason))?;
        }
    }
    Ok(spec.resolve(any))
}
