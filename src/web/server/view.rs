//! What readers see of a session: its own view, and the server's fields
//! added to it (training's progress, the state file: `menace_web::page`
//! adds them, for the page file as for the server), published after every
//! change so that reading never waits for the session's lock.

use std::sync::Arc;

use serde_json::Value as Json;

use crate::web::server::shared::Shared;
use crate::web::server::slot::{lock, Entry, Slot};
use menace_web::page::{self, Kept};

impl Shared {
    /// A session's view as the page reads it: the session's own, and the
    /// server's fields.
    pub(super) fn view_of(&self, slot: &Slot) -> Json {
        let kept = Kept {
            path: self.state.as_ref().map(|f| f.path.display().to_string()),
            elsewhere: !slot.owns_state,
        };
        page::view(slot.session.as_ref(), &slot.progress, &kept, slot.note.as_deref())
    }

    /// A session's curves as the page reads them.
    pub(super) fn curves_of(&self, slot: &Slot) -> Json {
        page::curves(slot.session.as_ref(), &slot.progress)
    }

    /// Make the session's view and curves the ones readers see.
    pub(super) fn publish(&self, entry: &Entry, slot: &Slot) {
        let (view, curves) = (self.view_of(slot), self.curves_of(slot));
        let mut published = lock(&entry.published);
        published.view = Arc::new(view);
        published.curves = Arc::new(curves);
        published.running = slot.progress.running;
    }
}
