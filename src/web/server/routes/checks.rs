//! Refusals several endpoints share: a machine busy training, a person's
//! game that would be dropped, a perfect opponent known to be too large.

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
