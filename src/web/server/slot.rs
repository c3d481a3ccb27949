//! A session's one owner: its state behind one lock ([`Slot`]), with the
//! generation a training run carries, and what readers see of it without
//! waiting ([`Published`]), together an [`Entry`] of the store.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde_json::Value as Json;
use tokio::sync::Notify;

use crate::web::server::error::ApiError;
use crate::web::session::apart::Signals;
use crate::web::session::traits::Session;

pub(super) use menace_web::page::Progress;

/// A session's state, behind its one lock.
pub(super) struct Slot {
    pub(super) session: Box<dyn Session>,
    /// The game spec, kept to make a fresh machine should the session fail.
    pub(super) spec: String,
    /// Bumped whenever the machine is replaced, reset or closed: a training
    /// run carries the generation it started in and stops on a change.
    pub(super) generation: u64,
    pub(super) progress: Progress,
    /// A watched game is being played (a step at a time, not under the lock throughout).
    pub(super) watching: bool,
    pub(super) closed: bool,
    /// Whether this tab's machine is the one saved to `--state`.
    pub(super) owns_state: bool,
    /// What the page should be told with the next view (a failed save).
    pub(super) note: Option<String>,
}

impl Slot {
    pub(super) fn replace(&mut self, session: Box<dyn Session>) {
        self.spec = session.game_spec();
        self.session = session;
        self.generation += 1;
        self.progress = Progress::default();
        self.watching = false;
        self.note = None;
    }

    pub(super) fn idle(&self) -> Result<(), ApiError> {
        if self.progress.running {
            return Err(ApiError::conflict(menace_web::page::TRAINING));
        }
        if self.watching {
            return Err(ApiError::conflict(menace_web::page::WATCHING));
        }
        Ok(())
    }
}

/// What readers see without waiting for the session: its view and curves
/// as of the last change or training slice.
pub(super) struct Published {
    pub(super) view: Arc<Json>,
    pub(super) curves: Arc<Json>,
    pub(super) running: bool,
    pub(super) last_used: Instant,
}

/// One tab's session and its bookkeeping.
pub(super) struct Entry {
    pub(super) slot: Mutex<Slot>,
    pub(super) published: Mutex<Published>,
    /// Stop the training run or the watched game; let go, a request waits.
    pub(super) signals: Signals,
    /// Wakes a run waiting at the gate when it is stopped.
    pub(super) stopped: Notify,
    /// A label sheet of this session is being drawn or waits to be.
    pub(super) rendering: AtomicBool,
}

/// Lock a mutex that no panic can poison: every change to a session runs
/// under `catch_unwind` inside the lock (see [`Shared::change`]), and the
/// other locks guard plain values set in one step.
pub(super) fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Entry {
    pub(super) fn view(&self) -> Arc<Json> {
        lock(&self.published).view.clone()
    }

    pub(super) fn running(&self) -> bool {
        lock(&self.published).running
    }

    pub(super) fn stop(&self) {
        self.signals.cancel.store(true, Ordering::Relaxed);
        self.stopped.notify_one();
    }
}
