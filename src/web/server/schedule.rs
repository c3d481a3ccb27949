//! Where blocking work runs, and when: the request pool (a fair queue of
//! bounded width), label sheets and large answers on pools of their own,
//! the training pool's slices under a session's lock, the opponent's moves
//! and the opponent itself made off the lock, and the stop of every run
//! when the server stops.

use std::net::IpAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use crate::web::server::error::{ApiError, ApiResult, ErrorKind};
use crate::web::server::reply::held_until_taken;
use crate::web::server::shared::Shared;
use crate::web::server::slot::{lock, Entry, Slot};
use crate::web::server::store::panic_text;
use crate::web::session::apart::{Made, Pending};
use crate::web::session::error::SessionError;
use menace_core::training::opponent::OpponentSpec;

/// How long a training slice holds its session (then it lets go, and the
/// next slice waits its turn on the training pool).
pub(super) const SLICE: Duration = Duration::from_millis(40);

/// How long an opponent's search chosen apart runs at a time on the
/// training pool before it lets another run have its turn.
const THINK: Duration = Duration::from_millis(100);

impl Shared {
    /// Run blocking work on the request pool: its turn comes in order of
    /// arrival, and at most `workers` run at once however many wait.
    pub(super) async fn work<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&Arc<Shared>) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self
            .work
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::stopping())?;
        self.blocking(permit, f).await
    }

    /// Run `f` on a blocking thread, holding `held` (a pool's permit, a
    /// count) until it ends, even if the request that asked is gone.
    async fn blocking<T: Send + 'static, H: Send + 'static>(
        self: &Arc<Self>,
        held: H,
        f: impl FnOnce(&Arc<Shared>) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let shared = self.clone();
        tokio::task::spawn_blocking(move || {
            let _held = held;
            f(&shared)
        })
        .await
        .unwrap_or_else(|e| Err(ApiError::internal(format!("internal error: {e}"))))
    }

    /// Draw a label sheet of `entry` on the render pool, one a session at
    /// a time and at most `max_renders` drawn or waiting in all (refused
    /// at once past either): the request workers stay free for the other
    /// tabs however many sheets are asked for.
    pub(super) async fn render<T: Send + 'static>(
        self: &Arc<Self>,
        entry: Arc<Entry>,
        f: impl FnOnce(&Arc<Shared>, &Entry) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        if entry.rendering.swap(true, Ordering::SeqCst) {
            return Err(ApiError::new(
                ErrorKind::Full,
                "this tab's labels are being drawn already: wait for that sheet",
            ));
        }
        let asked = Rendering(entry.clone(), self.clone());
        let limit = self.config.max_renders;
        if self.renders_asked.fetch_add(1, Ordering::SeqCst) >= limit {
            return Err(ApiError::new(
                ErrorKind::Full,
                format!("the server is drawing {limit} label sheets already: try again in a minute"),
            ));
        }
        let permit = self
            .renders
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::stopping())?;
        if let Some(gate) = &self.hooks.renders {
            gate.0.acquire().await.map_err(|_| ApiError::stopping())?.forget();
        }
        // Counted until drawn, even if the request that asked is gone.
        self.blocking((asked, permit), move |shared| f(shared, &entry)).await
    }

    /// Make a large answer (a state download, a long box listing) asked
    /// for from `peer` on the writers' pool, apart from the request
    /// workers, and hold its place until its reader has taken it or is
    /// gone: at most `max_large_per_address` from one address and
    /// `max_large` in all (refused at once past either), so that readers
    /// that never read hold that many answers' memory at most, for the
    /// write timeout.
    pub(super) async fn write_large(
        self: &Arc<Self>,
        peer: IpAddr,
        f: impl FnOnce(&Arc<Shared>) -> ApiResult + Send + 'static,
    ) -> ApiResult {
        let Some(own) = self.large_by_address.take(peer) else {
            let limit = self.large_by_address.limit();
            return Err(ApiError::new(
                ErrorKind::Full,
                format!("this device is downloading {limit} large answers already: wait for those"),
            ));
        };
        let Ok(place) = self.large.clone().try_acquire_owned() else {
            let limit = self.config.max_large;
            return Err(ApiError::new(
                ErrorKind::Full,
                format!("the server is sending {limit} large answers already: try again in a minute"),
            ));
        };
        let permit = self
            .writers
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::stopping())?;
        if let Some(gate) = &self.hooks.writes {
            gate.0.acquire().await.map_err(|_| ApiError::stopping())?.forget();
        }
        // Its places go with the answer (or with the work, if the request is gone).
        self.blocking(permit, move |shared| {
            f(shared).map(|answer| held_until_taken(answer, (own, place)))
        })
        .await
    }

    /// One step of a training run on `pool` (the training pool for slices of
    /// games; the request pool for its start and end, so that a request
    /// waiting on them does not queue behind every other run's slice),
    /// under the session's lock; nothing at once if the session
    /// changed since the run began (`None`, as after a panic).
    pub(super) async fn slice<T: Send + 'static>(
        self: &Arc<Self>,
        pool: &Arc<Semaphore>,
        entry: &Arc<Entry>,
        generation: u64,
        f: impl FnOnce(&Shared, &mut Slot) -> T + Send + 'static,
    ) -> Option<T> {
        let permit = pool.clone().acquire_owned().await.ok()?;
        let shared = self.clone();
        let entry = entry.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut slot = lock(&entry.slot);
            if slot.closed || slot.generation != generation {
                return None;
            }
            lock(&entry.published).last_used = Instant::now();
            match catch_unwind(AssertUnwindSafe(|| {
                let s = f(&shared, &mut slot);
                shared.publish(&entry, &slot);
                s
            })) {
                Ok(s) => Some(s),
                Err(panic) => {
                    let why = panic_text(panic.as_ref());
                    shared.reset_broken(&entry, &mut slot, &format!("the training run failed: {why}"));
                    None
                }
            }
        })
        .await
        .ok()
        .flatten()
    }

    /// Choose a move taken out of a session ([`Pending`]) on the training
    /// pool, holding no session's lock; then play it in the session, unless
    /// the session changed since `generation` (`None`: touch nothing more).
    /// A panic while thinking resets the session as one under its lock does.
    /// A search that takes longer (a perfect Hex player's proof) is thought
    /// a [`THINK`] at a time, letting the pool's other runs take their turns between.
    pub(super) async fn think_apart(
        self: &Arc<Self>,
        entry: &Arc<Entry>,
        generation: u64,
        mut pending: Pending,
    ) -> Option<()> {
        let thought = loop {
            let permit = self.train.clone().acquire_owned().await.ok()?;
            let (done, back) = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                match catch_unwind(AssertUnwindSafe(|| pending.think_before(Instant::now() + THINK))) {
                    Ok(done) => (done, Ok(pending)),
                    Err(panic) => (true, Err(panic_text(panic.as_ref()))),
                }
            })
            .await
            .ok()?;
            match back {
                Ok(p) if !done => pending = p,
                back => break back,
            }
        };
        match thought {
            Ok(pending) => {
                let played = entry.clone();
                self.slice(&self.train, entry, generation, move |_, slot| {
                    slot.session.resume(pending);
                    played.signals.moved();
                })
                .await
            }
            Err(why) => {
                let broken = entry.clone();
                self.slice(&self.train, entry, generation, move |shared, slot| {
                    shared.reset_broken(&broken, slot, &format!("the opponent failed: {why}"))
                })
                .await;
                None
            }
        }
    }

    /// The opponent `spec` for a session, made on the request pool without
    /// the session's lock (a perfect player's solve takes up to a second):
    /// `Ok(None)` where the session holds it already; `None` if the session
    /// changed meanwhile.
    pub(super) async fn make_apart(
        self: &Arc<Self>,
        entry: &Arc<Entry>,
        generation: u64,
        spec: &OpponentSpec,
    ) -> Option<Result<Option<Made>, SessionError>> {
        let spec = spec.clone();
        let maker = self
            .slice(&self.work, entry, generation, move |_, slot| {
                slot.session.opponent_maker(&spec)
            })
            .await?;
        let Some(maker) = maker else {
            return Some(Ok(None));
        };
        let permit = self.work.clone().acquire_owned().await.ok()?;
        let made = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            catch_unwind(AssertUnwindSafe(|| maker.run()))
        })
        .await
        .ok()?;
        Some(match made {
            Ok(made) => made.map(Some),
            Err(panic) => Err(SessionError::Internal(format!(
                "internal error (making the opponent failed: {})",
                panic_text(panic.as_ref())
            ))),
        })
    }

    /// Stop every training run and wait (at most `patience`) for them to end and save.
    pub(super) async fn stop_training(&self, patience: Duration) {
        self.stopping.store(true, Ordering::Relaxed);
        let all: Vec<Arc<Entry>> = lock(&self.sessions).values().cloned().collect();
        all.iter().for_each(|e| e.stop());
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            let ended = self.run_ended.notified();
            tokio::pin!(ended);
            ended.as_mut().enable();
            if self.runs.load(Ordering::SeqCst) == 0 {
                return;
            }
            if tokio::time::timeout_at(deadline, ended).await.is_err() {
                return;
            }
        }
    }
}

/// A label sheet asked for, counted until dropped (drawn, refused, or its
/// request gone).
struct Rendering(Arc<Entry>, Arc<Shared>);

impl Drop for Rendering {
    fn drop(&mut self) {
        self.0.rendering.store(false, Ordering::SeqCst);
        self.1.renders_asked.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts a training run as live until dropped.
pub(super) struct RunToken(pub(super) Arc<Shared>);

impl Drop for RunToken {
    fn drop(&mut self) {
        self.0.runs.fetch_sub(1, Ordering::SeqCst);
        self.0.run_ended.notify_waiters();
    }
}
