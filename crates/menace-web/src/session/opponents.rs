//! The opponents a page may train or watch its machine against, within its limits.

use crate::session::error::{invalid, over_limit, SessionError};
use crate::session::limits::Limits;
use menace_core::game::{Game, Player};
use menace_core::machine::settings::MachineSettings;
use menace_core::training::opponent::{Opponent, OpponentSpec, PerfectPlayer};
use menace_core::training::trainer::make_opponent;

/// Whether an opponent's choice is slow enough to make apart from its session.
pub(crate) fn slow(opponent: &Opponent<impl Game>) -> bool {
    match opponent {
        Opponent::Mcts(_) => true,
        Opponent::Perfect { player, .. } => !player.is_exhaustive(),
        _ => false,
    }
}

/// Read an opponent for the page: `human` is the page itself, and MCTS is
/// kept to a number of playouts that answers quickly.
pub fn parse_opponent(text: &str, limits: Limits) -> Result<OpponentSpec, SessionError> {
    let spec = OpponentSpec::parse(text).map_err(invalid)?;
    match spec {
        OpponentSpec::Human => Err(invalid(format!(
            "opponent '{text}': you are the human opponent; train against random, perfect, perfect:P, menace or mcts:N"
        ))),
        OpponentSpec::Mcts { playouts, .. } if playouts > limits.max_playouts => Err(invalid(format!(
            "opponent '{text}': at most {} playouts a move on this page",
            limits.max_playouts
        ))),
        spec => Ok(spec),
    }
}

pub(crate) fn perfect_too_large(spec: &OpponentSpec, e: impl std::fmt::Display) -> SessionError {
    over_limit(format!(
        "opponent '{spec}' needs the game solved, but {e} on this page: train against mcts:N instead"
    ))
}

/// The opponent `spec` names for a machine of `game` playing `side` with
/// `settings`, within the page's `limits`: a perfect player's solve stores
/// at most `max_perfect_positions` positions.
pub(crate) fn opponent_for<G: Game>(
    game: &G,
    side: Player,
    settings: &MachineSettings,
    limits: Limits,
    spec: &OpponentSpec,
) -> Result<Opponent<G>, SessionError> {
    match spec {
        OpponentSpec::Perfect(p) => {
            // The whole game solved where it fits, else the game's shared
            // position solver (Hex up to 6×6): its searches stop on the
            // session's cancel and are thought a slice at a time off the
            // lock, and its table is one for all tabs playing the game. Not
            // a game's own position solver (Hexapawn's table is 128 MiB an
            // opponent).
            let player = match PerfectPlayer::exhaustive_with_limit(game.clone(), limits.max_perfect_positions) {
                Ok(player) => player,
                Err(e) => PerfectPlayer::on_demand(
                    game.shared_position_solver()
                        .ok_or_else(|| perfect_too_large(spec, e))?,
                ),
            };
            Ok(Opponent::Perfect {
                p: *p,
                player: Box::new(player),
            })
        }
        spec => make_opponent(game, spec, side, settings).map_err(over_limit),
    }
}
