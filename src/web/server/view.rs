//! What readers see of a session: its own view, and the server's fields
//! added to it (training's progress, the state file), published
//! after every change so that reading never waits for the session's lock.
//! Every field the server adds to a view is added here.

use std::sync::Arc;

use serde_json::{json, Value as Json};

use crate::web::server::shared::Shared;
use crate::web::server::slot::{lock, Entry, Slot};

impl Shared {
    /// A session's view as the page reads it: the session's own, and the
    /// server's fields.
    pub(super) fn view_of(&self, slot: &Slot) -> Json {
        let mut view = slot.session.view();
        let p = &slot.progress;
        view["training"] = json!({"running": p.running, "opponent": p.opponent, "done": p.done, "total": p.total});
        view["state_file"] = json!(self.state.as_ref().map(|f| f.path.display().to_string()));
        view["state_held_elsewhere"] = json!(self.state.is_some() && !slot.owns_state);
        if let Some(n) = &slot.note {
            view["message"] = json!(n);
        }
        view
    }

    /// A session's curves as the page reads them.
    pub(super) fn curves_of(&self, slot: &Slot) -> Json {
        let p = &slot.progress;
        let mut curves = slot.session.curves();
        curves["training"] = json!({"running": p.running, "done": p.done, "total": p.total});
        curves
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
