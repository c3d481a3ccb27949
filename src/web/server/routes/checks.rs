//! Refusals several endpoints share: a machine busy training, a person's
//! game that would be dropped, a perfect opponent known to be too large.

use crate::web::server::class::Class;
use crate::web::server::error::{ApiError, ErrorKind};
use crate::web::server::shared::Shared;
use crate::web::server::slot::{lock, Entry, Slot};
use crate::web::session::error::SessionError;
use crate::web::session::traits::Shown;
use menace_core::training::opponent::OpponentSpec;
use menace_web::page;

pub(super) fn not_while_training(entry: &Entry) -> Result<(), ApiError> {
    if entry.running() {
        return Err(ApiError::new(ErrorKind::Conflict, page::TRAINING));
    }
    Ok(())
}
/// The classroom, when session `id` is its machine.
pub(super) fn class_machine<'a>(shared: &'a Shared, id: &str) -> Option<&'a Class> {
    shared
        .class
        .as_ref()
        .filter(|c| c.session.get().is_some_and(|s| s == id))
}

/// While a student plays the class machine, the board is theirs: the
/// teacher's page may not play, train, watch or replace it (the teacher
/// ends the turn with Skip).
pub(super) fn not_a_students_turn(shared: &Shared, id: &str) -> Result<(), ApiError> {
    match class_machine(shared, id).and_then(Class::player) {
        Some(name) => Err(ApiError::conflict(format!(
            "{name} is playing the class machine: the board is theirs until their game ends (Skip this turn ends it now)"
        ))),
        None => Ok(()),
    }
}

/// Training or watching never drops a person's game unasked.
pub(super) fn refuse_to_drop(session: &dyn Shown, discard: bool) -> Result<(), ApiError> {
    Ok(page::refuse_to_drop(session, discard)?)
}

/// A perfect opponent refused as too large is refused at once when asked again.
pub(super) fn remember_unsolvable(shared: &Shared, slot: &Slot, opponent: &OpponentSpec, e: &SessionError) {
    if matches!((opponent, e), (OpponentSpec::Perfect(_), SessionError::OverLimit(_))) {
        lock(&shared.unsolvable).insert(slot.spec.clone(), e.message().to_string());
    }
}

/// A perfect opponent refused before for this game is refused again at once.
pub(super) fn known_unsolvable(shared: &Shared, slot: &Slot, opponent: &OpponentSpec) -> Result<(), ApiError> {
    if matches!(opponent, OpponentSpec::Perfect(_)) {
        if let Some(why) = lock(&shared.unsolvable).get(&slot.spec) {
            return Err(ApiError::new(ErrorKind::OverLimit, why.clone()));
        }
    }
    Ok(())
}
