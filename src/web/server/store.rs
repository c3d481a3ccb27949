//! The session store: sessions by id, made, found, expired and closed; the
//! one lock held for every check-and-change of a session, and the reset of a
//! session whose change panicked (a fresh machine of its game, nothing
//! running, a new generation so that no run touches it again).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde_json::{json, Value as Json};
use tokio::sync::Notify;

use crate::web::server::error::{ApiError, ErrorKind};
use crate::web::server::shared::Shared;
use crate::web::server::slot::{lock, Entry, Progress, Published, Slot};
use crate::web::session::apart::Signals;
use crate::web::session::make::{check_state_file, load_session, new_session};
use crate::web::session::requests::NewMachine;
use crate::web::session::traits::Session;
use menace_core::fsutil::read_regular_text;

impl Shared {
    pub(super) fn entry(&self, id: &str) -> Result<Arc<Entry>, ApiError> {
        let sessions = lock(&self.sessions);
        let entry = sessions.get(id).cloned().ok_or_else(|| self.gone(id))?;
        lock(&entry.published).last_used = Instant::now();
        Ok(entry)
    }

    pub(super) fn gone(&self, id: &str) -> ApiError {
        ApiError::new(
            ErrorKind::NotFound,
            format!(
                "no session '{}': it may have expired after {} minutes unused; reload the page",
                menace_core::error::shown(id),
                self.config.idle.as_secs() / 60
            ),
        )
    }

    /// Drop sessions unused for longer than the idle time (never one training).
    pub(super) fn expire(&self) {
        let idle = self.config.idle;
        let mut dropped = Vec::new();
        let class = self.class.as_ref().and_then(|c| c.session.get());
        lock(&self.sessions).retain(|id, e| {
            let p = lock(&e.published);
            // The class machine stays for as long as the server runs.
            let keep = p.running || p.last_used.elapsed() < idle || class == Some(id);
            if !keep {
                dropped.push(e.clone());
            }
            keep
        });
        dropped.iter().for_each(|e| self.close(e));
    }

    /// Close a session taken out of the table: its run stops and saves nothing.
    /// The slot is marked closed before the run is told to stop: told first,
    /// the run could take the lock for its last step (which saves) before
    /// the mark, and write the state file of a closed tab.
    pub(super) fn close(&self, entry: &Entry) {
        {
            let mut slot = self.hold(entry);
            slot.closed = true;
            slot.generation += 1;
            if std::mem::take(&mut slot.owns_state) {
                if let Some(file) = &self.state {
                    *lock(&file.owner) = None;
                }
            }
        }
        entry.stop();
    }

    pub(super) fn full(&self) -> ApiError {
        ApiError::new(
            ErrorKind::Full,
            format!(
                "too many sessions open (at most {}): close another tab, or wait for unused ones to expire",
                self.config.max_sessions
            ),
        )
    }

    pub(super) fn insert(&self, session: Box<dyn Session>) -> Result<(String, Arc<Entry>), ApiError> {
        self.expire();
        let mut sessions = lock(&self.sessions);
        if sessions.len() >= self.config.max_sessions {
            return Err(self.full());
        }
        let id = format!("{:016x}{:016x}", rand::random::<u64>(), rand::random::<u64>());
        let serial = self.serial.fetch_add(1, Ordering::Relaxed) as u64;
        let owns_state = self.state.as_ref().is_some_and(|file| {
            let mut owner = lock(&file.owner);
            owner.is_none() && {
                *owner = Some(serial);
                true
            }
        });
        let slot = Slot {
            spec: session.game_spec(),
            session,
            generation: 0,
            progress: Progress::default(),
            watching: false,
            closed: false,
            owns_state,
            note: None,
        };
        let entry = Arc::new(Entry {
            published: Mutex::new(Published {
                view: Arc::new(Json::Null),
                curves: Arc::new(Json::Null),
                running: false,
                last_used: Instant::now(),
            }),
            slot: Mutex::new(slot),
            signals: Signals::default(),
            stopped: Notify::new(),
            rendering: std::sync::atomic::AtomicBool::new(false),
        });
        self.publish(&entry, &lock(&entry.slot));
        sessions.insert(id.clone(), entry.clone());
        Ok((id, entry))
    }

    /// A request's hold of a session's lock: whoever plays in it (training,
    /// a watched game) is told that it waits, and lets go after its move.
    pub(super) fn hold<'a>(&self, entry: &'a Entry) -> MutexGuard<'a, Slot> {
        let signals = &entry.signals;
        signals.waiting.fetch_add(1, Ordering::SeqCst);
        let before = signals.moves.load(Ordering::SeqCst);
        let slot = lock(&entry.slot);
        signals.waiting.fetch_sub(1, Ordering::SeqCst);
        let moved = signals.moves.load(Ordering::SeqCst).saturating_sub(before);
        self.waits.requests.fetch_add(1, Ordering::Relaxed);
        self.waits.moves.fetch_add(moved, Ordering::Relaxed);
        self.waits.most_moves.fetch_max(moved, Ordering::Relaxed);
        slot
    }

    /// Check and change a session under its one lock, then publish it. A
    /// panic inside resets the session to a fresh machine of its game.
    pub(super) fn change<T>(
        &self,
        entry: &Entry,
        f: impl FnOnce(&mut Slot) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        self.under_lock(entry, true, f)
    }

    /// Read a session under its lock (a copy of its boxes or its state, to
    /// write out after): nothing changes, so nothing is published.
    pub(super) fn read<T>(
        &self,
        entry: &Entry,
        f: impl FnOnce(&mut Slot) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        self.under_lock(entry, false, f)
    }

    pub(super) fn under_lock<T>(
        &self,
        entry: &Entry,
        publish: bool,
        f: impl FnOnce(&mut Slot) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let mut slot = self.hold(entry);
        if slot.closed {
            return Err(ApiError::new(ErrorKind::NotFound, "the session was closed"));
        }
        match catch_unwind(AssertUnwindSafe(|| {
            let r = f(&mut slot);
            if publish {
                self.publish(entry, &slot);
            }
            r
        })) {
            Ok(r) => r,
            Err(panic) => {
                let why = panic_text(panic.as_ref());
                self.reset_broken(entry, &mut slot, &why);
                Err(ApiError::internal(format!(
                    "internal error ({why}): the machine was reset to a fresh one"
                )))
            }
        }
    }

    /// After a panic: a fresh machine of the same game, nothing running.
    pub(super) fn reset_broken(&self, entry: &Entry, slot: &mut Slot, why: &str) {
        let limits = self.config.limits;
        let ask = NewMachine {
            game: Some(slot.spec.clone()),
            ..NewMachine::default()
        };
        let fresh = catch_unwind(AssertUnwindSafe(|| {
            new_session(&ask, limits).or_else(|_| new_session(&NewMachine::default(), limits))
        }));
        if let Ok(Ok(session)) = fresh {
            slot.replace(session);
        } else {
            slot.generation += 1;
            slot.progress = Progress::default();
            slot.watching = false;
        }
        slot.note = Some(format!("internal error ({why}): the machine was reset to a fresh one"));
        if catch_unwind(AssertUnwindSafe(|| self.publish(entry, slot))).is_err() {
            let mut published = lock(&entry.published);
            published.running = false;
            published.view = Arc::new(json!({"message": slot.note, "training": {"running": false}}));
        }
    }

    /// Save a session's machine to the `--state` file, if there is one and
    /// the tab holds it; what to tell the page if that failed.
    pub(super) fn save(&self, slot: &mut Slot) -> Option<String> {
        let file = self.state.as_ref().filter(|_| slot.owns_state && !slot.closed)?;
        let text = slot.session.state().run();
        file.write(&text).err().map(|e| e.to_string())
    }

    /// On the way out: a machine whose last save failed (its file changed
    /// by something else, a full disk) is written beside the file instead,
    /// and the failure is the server's answer, so that nobody is told it
    /// was saved and no game is lost.
    pub(super) fn rescue(&self) -> std::io::Result<()> {
        let Some(file) = &self.state else { return Ok(()) };
        let Some(why) = lock(&file.unsaved).clone() else {
            return Ok(());
        };
        let all: Vec<Arc<Entry>> = lock(&self.sessions).values().cloned().collect();
        let owner = all.into_iter().find(|e| lock(&e.slot).owns_state);
        let Some(text) = owner.map(|e| lock(&e.slot).session.state().run()) else {
            return Err(std::io::Error::other(why));
        };
        let stem = file
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let beside = (1..)
            .map(|k| file.path.with_file_name(format!("{stem}.unsaved-{k}.json")))
            .find(|p| !p.exists())
            .unwrap_or_default();
        match menace_core::fsutil::write_atomic(&beside, text.as_bytes()) {
            Ok(()) => Err(std::io::Error::other(format!(
                "{why}; the machine as it stopped is in '{}'",
                beside.display()
            ))),
            Err(e) => Err(std::io::Error::other(format!(
                "{why}; nor could it be written beside it: {e}"
            ))),
        }
    }

    /// A machine as asked: from the body's settings, or (with no game named)
    /// from the `--state` file when there is one.
    pub(super) fn make(&self, ask: &NewMachine) -> Result<Box<dyn Session>, ApiError> {
        let limits = self.config.limits;
        if ask.game.is_none() {
            if let Some(file) = self.state.as_ref().filter(|f| f.path.exists()) {
                let path = &file.path;
                // Counted before it is read whole, as an upload is.
                check_state_file(path, limits)
                    .map_err(|e| ApiError::from(e).reworded(|m| format!("'{}': {m}", path.display())))?;
                let text = read_regular_text(path).map_err(|e| ApiError::bad(e.to_string()))?;
                file.read(&text);
                return load_session(&text, limits)
                    .map_err(|e| ApiError::from(e).reworded(|m| format!("'{}': {m}", path.display())));
            }
        }
        Ok(new_session(ask, limits)?)
    }
}

pub(super) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}
