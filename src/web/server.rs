//! `menace serve`: the page (HTML, CSS, JS and the font, all embedded) and
//! a thin layer of JSON endpoints over [`crate::web::session`], one session
//! per browser tab.
//!
//! Each session has one owner of its state, a lock held for the whole of
//! every check-and-change, and a generation number that a training run
//! carries: a run whose session was replaced or closed touches nothing.
//! Training runs in short slices on a bounded pool of threads, a move at a
//! time, and publishes a snapshot of the view after each slice, so reading a
//! tab's view never waits for its machine. Every request is bounded before
//! work starts (body size and read time, the cost of a solve or an upload),
//! connections are capped and time out, and the only file touched is the
//! `--state` file.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value as Json};
use tokio::sync::{Notify, Semaphore};

use crate::font::FONT_BYTES;
use crate::fsutil::{read_text, write_atomic, FileError};
use crate::training::opponent::OpponentSpec;
use crate::web::labels::{self, LabelError, Paper};
use crate::web::session::{
    load_session, new_session, parse_opponent, BoxQuery, Limits, Made, NewMachine, Pending, Session, SessionError,
    Signals, TrainRequest, WatchRequest, Watched,
};

const INDEX_HTML: &str = include_str!("page/index.html");
const STYLE_CSS: &str = include_str!("page/style.css");
const APP_JS: &str = include_str!("page/app.js");
const CHARTS_JS: &str = include_str!("page/charts.js");

/// How long a training slice holds its session (then it lets go, and the
/// next slice waits its turn on the training pool).
const SLICE: Duration = Duration::from_millis(40);

/// How long an opponent's search chosen apart runs at a time on the
/// training pool before it lets another run have its turn.
const THINK: Duration = Duration::from_millis(100);

/// How the server behaves: its limits, and the one file it may use.
#[derive(Clone, Debug)]
pub struct Config {
    pub limits: Limits,
    /// Sessions (browser tabs) open at once.
    pub max_sessions: usize,
    /// A session unused this long is dropped (unless it is training).
    pub idle: Duration,
    /// The largest request body accepted, but for an uploaded state file.
    pub max_body: usize,
    /// The largest uploaded state file (at least the largest download).
    pub max_upload: usize,
    /// Boxes listed at most by the boxes endpoint.
    pub max_listed_boxes: usize,
    /// `--state`: new tabs start from this machine if the file exists, and
    /// the first tab's machine is saved to it after each game and training run.
    pub state: Option<PathBuf>,
    /// Connections open at once; more are closed as they arrive.
    pub max_connections: usize,
    /// The time a connection has to send a request's head, and the most an
    /// idle connection is kept open.
    pub header_timeout: Duration,
    /// The time a request has to send its body.
    pub body_timeout: Duration,
    /// Threads doing requests' blocking work (a move, an upload) at once.
    pub workers: usize,
    /// Training slices running at once.
    pub trainers: usize,
    /// Host names accepted besides the address served (`--allow-host`).
    pub hosts: Vec<String>,
    /// For tests: training plays a game only for each one [`Gate::allow`]s.
    pub gate: Option<Gate>,
    /// For tests: `GET /api/stats` answers how requests waited for sessions.
    pub stats: bool,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            limits: Limits::default(),
            max_sessions: 32,
            idle: Duration::from_secs(30 * 60),
            max_body: 64 << 10,
            max_upload: 128 << 20,
            max_listed_boxes: 2000,
            state: None,
            max_connections: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(60),
            workers: 4,
            trainers: cores.max(1),
            hosts: Vec::new(),
            gate: None,
            stats: false,
        }
    }
}

/// Training's pace set from outside, for tests that must know where a run
/// is: a run plays one game for each game allowed, and waits (or stops when
/// told) in between.
#[derive(Clone, Debug)]
pub struct Gate(Arc<Semaphore>);

impl Gate {
    /// A gate that lets no game through yet.
    pub fn new() -> Gate {
        Gate(Arc::new(Semaphore::new(0)))
    }

    /// Let `games` more games be played (by whichever runs ask first).
    pub fn allow(&self, games: usize) {
        self.0.add_permits(games);
    }
}

impl Default for Gate {
    fn default() -> Gate {
        Gate::new()
    }
}

/// A training run in progress or just ended.
#[derive(Clone, Debug, Default)]
struct Progress {
    running: bool,
    opponent: String,
    done: u64,
    total: u64,
}

/// A session's state, behind its one lock.
struct Slot {
    session: Box<dyn Session>,
    /// The game spec, kept to make a fresh machine should the session fail.
    spec: String,
    /// Bumped whenever the machine is replaced, reset or closed: a training
    /// run carries the generation it started in and stops on a change.
    generation: u64,
    progress: Progress,
    /// A watched game is being played (a step at a time, not under the lock throughout).
    watching: bool,
    closed: bool,
    /// Whether this tab's machine is the one saved to `--state`.
    owns_state: bool,
    /// What the page should be told with the next view (a failed save).
    note: Option<String>,
}

impl Slot {
    fn replace(&mut self, session: Box<dyn Session>) {
        self.spec = session.game_spec();
        self.session = session;
        self.generation += 1;
        self.progress = Progress::default();
        self.watching = false;
        self.note = None;
    }

    fn idle(&self) -> Result<(), ApiError> {
        if self.progress.running {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the machine is training: wait for it to finish, or stop it",
            ));
        }
        if self.watching {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the machine is playing a watched game: wait for it to end",
            ));
        }
        Ok(())
    }
}

/// What readers see without waiting for the session: its view and curves
/// as of the last change or training slice.
struct Published {
    view: Arc<Json>,
    curves: Arc<Json>,
    running: bool,
    last_used: Instant,
}

/// One tab's session and its bookkeeping.
struct Entry {
    slot: Mutex<Slot>,
    published: Mutex<Published>,
    /// Stop the training run or the watched game; let go, a request waits.
    signals: Signals,
    /// Wakes a run waiting at the gate when it is stopped.
    stopped: Notify,
}

/// Lock a mutex that no panic can poison: every change to a session runs
/// under `catch_unwind` inside the lock (see [`Shared::change`]), and the
/// other locks guard plain values set in one step.
fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Entry {
    fn view(&self) -> Arc<Json> {
        lock(&self.published).view.clone()
    }

    fn running(&self) -> bool {
        lock(&self.published).running
    }

    fn stop(&self) {
        self.signals.cancel.store(true, Ordering::Relaxed);
        self.stopped.notify_one();
    }
}

/// A file's identity and version, to tell whether something else changed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: i64,
    mtime_nsec: i64,
}

fn stamp(path: &std::path::Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some(Stamp {
        dev: m.dev(),
        ino: m.ino(),
        len: m.len(),
        mtime: m.mtime(),
        mtime_nsec: m.mtime_nsec(),
    })
}

/// The `--state` file: who may write it, and the version last read or written.
struct StateFile {
    path: PathBuf,
    /// The session whose machine is saved to it.
    owner: Mutex<Option<u64>>,
    /// The file as this server last saw it: a save finding another refuses.
    seen: Mutex<Option<Stamp>>,
}

/// Why a machine was not saved to the `--state` file.
#[derive(Debug, thiserror::Error)]
enum SaveError {
    #[error(
        "the machine was not saved: '{}' was changed on disk since this server last read or wrote it, \
         and is left as it is (download this machine to keep it; restart menace serve to use the new file)",
        .0.display()
    )]
    ChangedOnDisk(PathBuf),
    #[error("the machine could not be saved: {0}")]
    Write(#[from] FileError),
}

impl StateFile {
    fn write(&self, text: &str) -> Result<(), SaveError> {
        let mut seen = lock(&self.seen);
        let now = stamp(&self.path);
        if now.is_some() && now != *seen {
            return Err(SaveError::ChangedOnDisk(self.path.clone()));
        }
        write_atomic(&self.path, text.as_bytes())?;
        *seen = stamp(&self.path);
        Ok(())
    }
}

/// The hosts a request may name (its `Host` and `Origin`): the address
/// served, `localhost` when that is this computer, and those allowed by
/// name. Names point anywhere (DNS rebinding), so no other is accepted.
#[derive(Debug)]
struct Hosts {
    ip: IpAddr,
    port: u16,
    names: Vec<String>,
}

impl Hosts {
    fn allows(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            Some((n, p)) if !n.is_empty() && !p.contains(']') => match p.parse::<u16>() {
                Ok(p) => (n, p),
                Err(_) => return false,
            },
            _ => (host, 80),
        };
        if port != self.port {
            return false;
        }
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = bare.parse::<IpAddr>() {
            return ip == self.ip || self.ip.is_unspecified() || (self.ip.is_loopback() && ip.is_loopback());
        }
        let name = name.to_ascii_lowercase();
        (name == "localhost" && (self.ip.is_loopback() || self.ip.is_unspecified()))
            || self.names.iter().any(|n| n.eq_ignore_ascii_case(&name))
    }

    fn describe(&self) -> String {
        let ip = match self.ip {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        let mut all = vec![format!("{ip}:{}", self.port)];
        if self.ip.is_loopback() {
            all.push(format!("localhost:{}", self.port));
        }
        all.extend(self.names.iter().map(|n| format!("{n}:{}", self.port)));
        all.join(", ")
    }
}

struct Shared {
    config: Config,
    hosts: Hosts,
    sessions: Mutex<HashMap<String, Arc<Entry>>>,
    /// Numbers sessions, for the state file's owner.
    serial: AtomicUsize,
    /// Requests' blocking work, a fair queue of bounded width.
    work: Arc<Semaphore>,
    /// Training slices, a fair queue of bounded width.
    train: Arc<Semaphore>,
    /// Bodies larger than `max_body` (uploads) read at once: memory.
    big_bodies: Arc<Semaphore>,
    /// Games found too large for a perfect opponent, with why: asked
    /// again, refused at once.
    unsolvable: Mutex<HashMap<String, String>>,
    state: Option<StateFile>,
    /// Training runs not yet ended, and a signal when one ends.
    runs: AtomicUsize,
    run_ended: Notify,
    stopping: AtomicBool,
    waits: Waits,
}

/// How requests waited for sessions' locks, counted in moves (not time, so
/// that the count does not depend on the machine's speed): the moves that
/// training and watched games played in a session while a request waited
/// for it. A player lets go after the move it is playing, so a wait is a
/// move or two; a lock held for a slice of moves, or a whole game, shows.
#[derive(Default)]
struct Waits {
    requests: AtomicU64,
    moves: AtomicU64,
    most_moves: AtomicU64,
}

/// An error answer: a status and a JSON `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> ApiError {
        let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        ApiError::new(status, e.message())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.message }).to_string();
        (
            self.status,
            [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            body,
        )
            .into_response()
    }
}

type ApiResult = Result<Response, ApiError>;

fn json_response(status: StatusCode, value: &Json) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        value.to_string(),
    )
        .into_response()
}

/// Read a JSON request body into `T`, refusing malformed JSON and unknown fields by name.
fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return serde_json::from_str("{}").map_err(|e| ApiError::bad(format!("request body: {e}")));
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad(format!("request body: not the JSON expected: {e}")))
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// How a training slice ended.
enum Slice {
    /// More to play (within a game left unfinished, if true).
    More(bool),
    /// More to play, the opponent's move first (chosen apart).
    Apart(Pending),
    /// The run is over: end it (save, hand the machine back to the person).
    Done,
}

impl Shared {
    /// Run blocking work on the request pool: its turn comes in order of
    /// arrival, and at most `workers` run at once however many wait.
    async fn work<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&Arc<Shared>) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self
            .work
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"))?;
        let shared = self.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            f(&shared)
        })
        .await
        .unwrap_or_else(|e| Err(ApiError::internal(format!("internal error: {e}"))))
    }

    fn entry(&self, id: &str) -> Result<Arc<Entry>, ApiError> {
        let sessions = lock(&self.sessions);
        let entry = sessions.get(id).cloned().ok_or_else(|| self.gone(id))?;
        lock(&entry.published).last_used = Instant::now();
        Ok(entry)
    }

    fn gone(&self, id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no session '{}': it may have expired after {} minutes unused; reload the page",
                crate::error::shown(id),
                self.config.idle.as_secs() / 60
            ),
        )
    }

    /// Drop sessions unused for longer than the idle time (never one training).
    fn expire(&self) {
        let idle = self.config.idle;
        let mut dropped = Vec::new();
        lock(&self.sessions).retain(|_, e| {
            let p = lock(&e.published);
            let keep = p.running || p.last_used.elapsed() < idle;
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
    fn close(&self, entry: &Entry) {
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

    fn full(&self) -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many sessions open (at most {}): close another tab, or wait for unused ones to expire",
                self.config.max_sessions
            ),
        )
    }

    fn insert(&self, session: Box<dyn Session>) -> Result<(String, Arc<Entry>), ApiError> {
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
        });
        self.publish(&entry, &lock(&entry.slot));
        sessions.insert(id.clone(), entry.clone());
        Ok((id, entry))
    }

    /// Make the session's view and curves the ones readers see.
    fn publish(&self, entry: &Entry, slot: &Slot) {
        let mut view = slot.session.view();
        let p = &slot.progress;
        view["training"] = json!({"running": p.running, "opponent": p.opponent, "done": p.done, "total": p.total});
        view["state_file"] = json!(self.state.as_ref().map(|f| f.path.display().to_string()));
        view["state_held_elsewhere"] = json!(self.state.is_some() && !slot.owns_state);
        if let Some(n) = &slot.note {
            view["message"] = json!(n);
        }
        let mut curves = slot.session.curves();
        curves["training"] = json!({"running": p.running, "done": p.done, "total": p.total});
        let mut published = lock(&entry.published);
        published.view = Arc::new(view);
        published.curves = Arc::new(curves);
        published.running = p.running;
    }

    /// A request's hold of a session's lock: whoever plays in it (training,
    /// a watched game) is told that it waits, and lets go after its move.
    fn hold<'a>(&self, entry: &'a Entry) -> MutexGuard<'a, Slot> {
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
    fn change<T>(&self, entry: &Entry, f: impl FnOnce(&mut Slot) -> Result<T, ApiError>) -> Result<T, ApiError> {
        self.under_lock(entry, true, f)
    }

    /// Read a session under its lock (a copy of its boxes or its state, to
    /// write out after): nothing changes, so nothing is published.
    fn read<T>(&self, entry: &Entry, f: impl FnOnce(&mut Slot) -> Result<T, ApiError>) -> Result<T, ApiError> {
        self.under_lock(entry, false, f)
    }

    fn under_lock<T>(
        &self,
        entry: &Entry,
        publish: bool,
        f: impl FnOnce(&mut Slot) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let mut slot = self.hold(entry);
        if slot.closed {
            return Err(ApiError::new(StatusCode::NOT_FOUND, "the session was closed"));
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
    fn reset_broken(&self, entry: &Entry, slot: &mut Slot, why: &str) {
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
    fn save(&self, slot: &mut Slot) -> Option<String> {
        let file = self.state.as_ref().filter(|_| slot.owns_state && !slot.closed)?;
        let text = slot.session.state().run();
        file.write(&text).err().map(|e| e.to_string())
    }

    /// A machine as asked: from the body's settings, or (with no game named)
    /// from the `--state` file when there is one.
    fn make(&self, ask: &NewMachine) -> Result<Box<dyn Session>, ApiError> {
        let limits = self.config.limits;
        if ask.game.is_none() {
            if let Some(file) = self.state.as_ref().filter(|f| f.path.exists()) {
                let path = &file.path;
                let text = read_text(path).map_err(|e| ApiError::bad(e.to_string()))?;
                return load_session(&text, limits).map_err(|e| {
                    let e = ApiError::from(e);
                    ApiError::new(e.status, format!("'{}': {}", path.display(), e.message))
                });
            }
        }
        Ok(new_session(ask, limits)?)
    }

    /// One step of a training run on `pool` (the training pool for slices of
    /// games; the request pool for its start and end, so that a request
    /// waiting on them does not queue behind every other run's slice),
    /// under the session's lock; nothing at once if the session
    /// changed since the run began (`None`, as after a panic).
    async fn slice<T: Send + 'static>(
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
    async fn think_apart(self: &Arc<Self>, entry: &Arc<Entry>, generation: u64, mut pending: Pending) -> Option<()> {
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
    async fn make_apart(
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
    async fn stop_training(&self, patience: Duration) {
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

/// A perfect opponent refused as too large is refused at once when asked again.
fn remember_unsolvable(shared: &Shared, slot: &Slot, opponent: &OpponentSpec, e: &SessionError) {
    if matches!((opponent, e), (OpponentSpec::Perfect(_), SessionError::OverLimit(_))) {
        lock(&shared.unsolvable).insert(slot.spec.clone(), e.message().to_string());
    }
}

/// Counts a training run as live until dropped.
struct RunToken(Arc<Shared>);

impl Drop for RunToken {
    fn drop(&mut self) {
        self.0.runs.fetch_sub(1, Ordering::SeqCst);
        self.0.run_ended.notify_waiters();
    }
}

/// A training run: make the opponent, play slice after slice until the
/// games are done or it is stopped, then hand the machine back and save.
async fn run_training(
    shared: Arc<Shared>,
    entry: Arc<Entry>,
    generation: u64,
    opponent: OpponentSpec,
    began: tokio::sync::oneshot::Sender<Result<(), ApiError>>,
) {
    let _token = RunToken(shared.clone());
    let made = match shared.make_apart(&entry, generation, &opponent).await {
        Some(Ok(made)) => Ok(made),
        Some(Err(e)) => Err(e),
        None => return,
    };
    let cancel = entry.signals.cancel.clone();
    let begun = shared
        .slice(&shared.work, &entry, generation, move |shared, slot| {
            made.and_then(|made| slot.session.begin_training(&opponent, made, cancel))
                .inspect_err(|e| {
                    // Nothing changed: the machine is still the person's.
                    slot.progress = Progress::default();
                    remember_unsolvable(shared, slot, &opponent, e);
                })
        })
        .await;
    // Told once the view is published: a request after the answer sees it.
    match begun {
        Some(Ok(())) => {
            let _ = began.send(Ok(()));
        }
        Some(Err(e)) => {
            let _ = began.send(Err(e.into()));
            return;
        }
        None => return,
    }
    let gate = shared.config.gate.clone();
    // Within a game (after a move chosen apart), the gate was passed already.
    let mut mid_game = false;
    loop {
        if entry.signals.cancelled() {
            break;
        }
        if let Some(gate) = gate.as_ref().filter(|_| !mid_game) {
            tokio::select! {
                permit = gate.0.acquire() => match permit {
                    Ok(p) => p.forget(),
                    Err(_) => break,
                },
                // A wake-up left from a stop before this run is not one for it: the flag decides.
                _ = entry.stopped.notified() => continue,
            }
        }
        let one_game = gate.is_some();
        let playing = entry.clone();
        let slice = shared
            .slice(&shared.train, &entry, generation, move |_, slot| {
                let p = &slot.progress;
                let left = p.total.saturating_sub(p.done);
                let (games, deadline) = if one_game {
                    (left.min(1), Instant::now() + Duration::from_secs(86_400))
                } else {
                    (left, Instant::now() + SLICE)
                };
                let signals = &playing.signals;
                let trained = slot.session.train(games, p.total, deadline, signals);
                slot.progress.done += trained.games;
                if trained.halted || slot.progress.done >= slot.progress.total || signals.cancelled() {
                    Slice::Done
                } else if let Some(pending) = trained.pending {
                    Slice::Apart(pending)
                } else {
                    Slice::More(trained.mid_game)
                }
            })
            .await;
        match slice {
            // A slice that let go within a game goes on with it, past the gate.
            Some(Slice::More(within)) => mid_game = within,
            // The opponent's move, chosen without the session's lock.
            Some(Slice::Apart(pending)) => {
                if shared.think_apart(&entry, generation, pending).await.is_none() {
                    return;
                }
                mid_game = true;
            }
            Some(Slice::Done) => break,
            // The session was replaced, reset or closed: touch nothing more.
            None => return,
        }
    }
    shared
        .slice(&shared.work, &entry, generation, |shared, slot| {
            slot.session.end_training();
            slot.note = shared.save(slot);
            slot.progress.running = false;
        })
        .await;
}

/// The router of the page and its endpoints, for a server at `addr`.
pub fn router(config: Config, addr: SocketAddr) -> Router {
    build(config, addr).0
}

fn build(config: Config, addr: SocketAddr) -> (Router, Arc<Shared>) {
    let state = config.state.as_ref().map(|path| StateFile {
        seen: Mutex::new(stamp(path)),
        path: path.clone(),
        owner: Mutex::new(None),
    });
    let shared = Arc::new(Shared {
        hosts: Hosts {
            ip: addr.ip(),
            port: addr.port(),
            names: config.hosts.clone(),
        },
        work: Arc::new(Semaphore::new(config.workers.max(1))),
        train: Arc::new(Semaphore::new(config.trainers.max(1))),
        big_bodies: Arc::new(Semaphore::new(2)),
        unsolvable: Mutex::new(HashMap::new()),
        config,
        sessions: Mutex::new(HashMap::new()),
        serial: AtomicUsize::new(0),
        state,
        runs: AtomicUsize::new(0),
        run_ended: Notify::new(),
        stopping: AtomicBool::new(false),
        waits: Waits::default(),
    });
    let router = Router::new()
        .route("/", get(index))
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/charts.js",
            get(|| async { asset("text/javascript; charset=utf-8", CHARTS_JS) }),
        )
        .route("/DejaVuSans.ttf", get(font))
        .route("/api/games", get(games))
        .route("/api/games/{spec}", get(one_game))
        .route("/api/sessions", post(create))
        .route("/api/sessions/{id}", get(view).delete(close))
        .route("/api/sessions/{id}/machine", post(new_machine))
        .route("/api/sessions/{id}/game", post(new_game))
        .route("/api/sessions/{id}/move", post(play))
        .route("/api/sessions/{id}/resign", post(resign))
        .route("/api/sessions/{id}/train", post(train))
        .route("/api/sessions/{id}/stop", post(stop))
        .route("/api/sessions/{id}/watch", post(watch))
        .route("/api/sessions/{id}/curves", get(curves))
        .route("/api/sessions/{id}/boxes", get(boxes))
        .route("/api/sessions/{id}/state", get(download).put(upload))
        .route("/api/sessions/{id}/labels.pdf", get(labels_pdf))
        .route("/api/stats", get(stats))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        // The guard reads bodies, within its own limits.
        .layer(DefaultBodyLimit::disable())
        .layer(middleware::from_fn_with_state(shared.clone(), guard))
        .with_state(shared.clone());
    (router, shared)
}

/// Every request passes here first: its `Host` and `Origin` must name this
/// server (no other web page can drive it, nor a rebound name), a body must
/// be JSON, within the size allowed, and sent within the time allowed.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    match checked(&shared, request).await {
        Ok(request) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

async fn checked(shared: &Shared, request: Request) -> Result<Request, ApiError> {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !shared.hosts.allows(host) {
        return Err(ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "host '{}' is not this server's: open it as http://{}/ (or start it with --allow-host NAME)",
                crate::error::shown(host),
                shared.hosts.describe().split(", ").next().unwrap_or_default()
            ),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let allowed = origin.strip_prefix("http://").is_some_and(|h| shared.hosts.allows(h));
        if !allowed {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "requests from the page at '{}' are refused: only this server's own page may use it",
                    crate::error::shown(origin)
                ),
            ));
        }
    }
    if headers.get("sec-fetch-site").is_some_and(|v| v == "cross-site") {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "cross-site requests are refused: only this server's own page may use it",
        ));
    }
    if !matches!(*request.method(), Method::POST | Method::PUT) {
        return Ok(request);
    }
    let upload = request.method() == Method::PUT;
    let limit = if upload {
        shared.config.max_upload
    } else {
        shared.config.max_body
    };
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "request body too large: at most {limit} bytes are accepted{}",
                if upload { " (a state file)" } else { "" }
            ),
        )
    };
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if length.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let has_body = length != Some(0) && (length.is_some() || headers.contains_key(header::TRANSFER_ENCODING));
    let kind = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let json = kind.is_some_and(|k| {
        k.split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    });
    if (has_body || kind.is_some()) && !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "request body of type '{}': expected application/json",
                crate::error::shown(kind.unwrap_or("none"))
            ),
        ));
    }
    let (mut parts, body) = request.into_parts();
    if upload && length.is_none_or(|n| n > shared.config.max_body as u64) {
        // A large body waits its turn before it is read: two at a time.
        let permit = shared
            .big_bodies
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"))?;
        parts.extensions.insert(BigBody(Arc::new(permit)));
    }
    let read = tokio::time::timeout(shared.config.body_timeout, axum::body::to_bytes(body, limit)).await;
    let bytes = match read {
        Err(_) => {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "request body not sent within {} seconds",
                    shared.config.body_timeout.as_secs()
                ),
            ))
        }
        Ok(Err(e)) => {
            let limited = format!("{e:?}").contains("LengthLimitError");
            return Err(if limited {
                too_large()
            } else {
                ApiError::bad(format!("request body unreadable: {e}"))
            });
        }
        Ok(Ok(b)) => b,
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// The turn of a large body, held until its request is done with it.
#[derive(Clone)]
struct BigBody(#[allow(dead_code)] Arc<tokio::sync::OwnedSemaphorePermit>);

async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, format!("no page or endpoint at {}", uri.path()))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}", uri.path()),
    )
}

fn asset(kind: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        text,
    )
        .into_response()
}

async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

async fn font() -> Response {
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static("font/ttf"))],
        FONT_BYTES,
    )
        .into_response()
}

/// A title for the game list, from the game's own spec (its options too:
/// `Hexapawn, pawn=berolina (HER)`) and machine.
fn title(any: &crate::registry::AnyGame) -> String {
    let spec = any.spec();
    let (name, size, options) = crate::registry::split_spec(&spec);
    let mut title: String = name.chars().take(1).flat_map(char::to_uppercase).collect();
    title.push_str(&name[name.chars().next().map_or(0, char::len_utf8)..]);
    if let Some(size) = size {
        title.push(' ');
        title.push_str(&size.replace('x', "×"));
    }
    if let Some(options) = options {
        title.push_str(", ");
        title.push_str(options);
    }
    format!("{title} ({})", any.machine_name())
}

/// What the page lists of a game: its title, sides and historical machine.
fn game_entry(spec: &str, g: &crate::registry::AnyGame) -> Json {
    json!({
        "spec": spec,
        "title": title(g),
        "players": [g.player_name(crate::game::Player::One), g.player_name(crate::game::Player::Two)],
        "machine_side": g.player_name(g.machine_side()),
        "machine": g.machine_name(),
        "preset": g.machine_preset().name(),
    })
}

/// One game spec, checked: its entry, or what is wrong with it.
async fn one_game(Path(spec): Path<String>) -> ApiResult {
    let g = crate::registry::parse_spec(&spec).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(json_response(StatusCode::OK, &game_entry(&spec, &g)))
}

/// The games the page offers (the registry's examples), with their sides
/// and historical machines.
async fn games() -> Response {
    let list: Vec<Json> = crate::registry::AnyGame::examples()
        .into_iter()
        .filter_map(|spec| {
            let g = crate::registry::parse_spec(spec).ok()?;
            Some(game_entry(spec, &g))
        })
        .collect();
    json_response(
        StatusCode::OK,
        &json!({
            "games": list,
            "presets": ["gardner", "michie"],
            "opponents": ["random", "perfect", "menace", "mcts:100"],
            "forms": crate::registry::AnyGame::forms(),
        }),
    )
}

fn refuse_while_stopping(shared: &Shared) -> Result<(), ApiError> {
    if shared.stopping.load(Ordering::Relaxed) {
        return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"));
    }
    Ok(())
}

async fn create(State(shared): State<Arc<Shared>>, bytes: Bytes) -> ApiResult {
    let ask: NewMachine = body(&bytes)?;
    refuse_while_stopping(&shared)?;
    shared
        .work(move |shared| {
            // Refuse before making the machine when the server is full.
            shared.expire();
            if lock(&shared.sessions).len() >= shared.config.max_sessions {
                return Err(shared.full());
            }
            let session = shared.make(&ask)?;
            let (id, entry) = shared.insert(session)?;
            let mut view = (*entry.view()).clone();
            view["session"] = json!(id);
            Ok(json_response(StatusCode::CREATED, &view))
        })
        .await
}

fn arc_json(value: &Json) -> Response {
    json_response(StatusCode::OK, value)
}

async fn view(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    let entry = shared.entry(&id)?;
    Ok(arc_json(&entry.view()))
}

async fn close(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    let entry = lock(&shared.sessions).remove(&id).ok_or_else(|| shared.gone(&id))?;
    // Waits for a training slice to let go (a move at most).
    shared
        .work(move |shared| {
            shared.close(&entry);
            Ok(StatusCode::NO_CONTENT.into_response())
        })
        .await
}

fn not_while_training(entry: &Entry) -> Result<(), ApiError> {
    if entry.running() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the machine is training: wait for it to finish, or stop it",
        ));
    }
    Ok(())
}

/// Replace a session's machine by one made (outside its lock) by `make`.
async fn replace(
    shared: Arc<Shared>,
    id: String,
    make: impl FnOnce(&Arc<Shared>) -> Result<Box<dyn Session>, ApiError> + Send + 'static,
) -> ApiResult {
    shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            not_while_training(&entry)?;
            let session = make(shared)?;
            // Checked again under the lock that makes the change.
            shared.change(&entry, |slot| {
                slot.idle()?;
                slot.replace(session);
                Ok(())
            })?;
            Ok(arc_json(&entry.view()))
        })
        .await
}

async fn new_machine(State(shared): State<Arc<Shared>>, Path(id): Path<String>, bytes: Bytes) -> ApiResult {
    let ask: NewMachine = body(&bytes)?;
    replace(shared, id, move |shared| shared.make(&ask)).await
}

async fn upload(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    turn: Option<axum::Extension<BigBody>>,
    bytes: Bytes,
) -> ApiResult {
    replace(shared, id, move |shared| {
        let _turn = turn;
        let text = std::str::from_utf8(&bytes).map_err(|_| ApiError::bad("state file: not UTF-8 text"))?;
        Ok(load_session(text, shared.config.limits)?)
    })
    .await
}

/// Run `f` on an idle session, save the machine if a game ended, and answer with the view.
async fn act(
    shared: Arc<Shared>,
    id: String,
    f: impl FnOnce(&mut dyn Session) -> Result<(), SessionError> + Send + 'static,
) -> ApiResult {
    shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            not_while_training(&entry)?;
            shared.change(&entry, |slot| {
                slot.idle()?;
                slot.note = None;
                let before = slot.session.games_played();
                f(slot.session.as_mut())?;
                if slot.session.games_played() != before {
                    slot.note = shared.save(slot);
                }
                Ok(())
            })?;
            Ok(arc_json(&entry.view()))
        })
        .await
}

async fn new_game(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    act(shared, id, |s| s.new_game()).await
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

async fn play(State(shared): State<Arc<Shared>>, Path(id): Path<String>, bytes: Bytes) -> ApiResult {
    let ask: MoveRequest = body(&bytes)?;
    act(shared, id, move |s| s.play(&ask.text)).await
}

async fn resign(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    act(shared, id, |s| s.resign()).await
}

async fn train(State(shared): State<Arc<Shared>>, Path(id): Path<String>, bytes: Bytes) -> ApiResult {
    let ask: TrainRequest = body(&bytes)?;
    let limits = shared.config.limits;
    if !(1..=limits.max_games).contains(&ask.games) {
        return Err(ApiError::bad(format!(
            "games {}: expected 1 to {} games a run",
            ask.games, limits.max_games
        )));
    }
    let opponent = parse_opponent(&ask.opponent, limits)?;
    refuse_while_stopping(&shared)?;
    let runtime = tokio::runtime::Handle::current();
    let (began, begun) = tokio::sync::oneshot::channel();
    let entry = shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            if entry.running() {
                return Err(ApiError::new(StatusCode::CONFLICT, "the machine is already training"));
            }
            let generation = shared.change(&entry, |slot| {
                if slot.progress.running {
                    return Err(ApiError::new(StatusCode::CONFLICT, "the machine is already training"));
                }
                refuse_to_drop(slot.session.as_ref(), ask.discard)?;
                // Refused by estimate now, or as it was before; the solve itself is the run's first step.
                slot.session.check_opponent(&opponent)?;
                if matches!(opponent, OpponentSpec::Perfect(_)) {
                    if let Some(why) = lock(&shared.unsolvable).get(&slot.spec) {
                        return Err(ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, why.clone()));
                    }
                }
                refuse_while_stopping(shared)?;
                slot.note = None;
                slot.progress = Progress {
                    running: true,
                    opponent: opponent.to_string(),
                    done: 0,
                    total: ask.games,
                };
                entry.signals.cancel.store(false, Ordering::Relaxed);
                shared.runs.fetch_add(1, Ordering::SeqCst);
                Ok(slot.generation)
            })?;
            // Spawned here, not after the answer: a request dropped now (its
            // client gone) must not leave the session marked as training.
            runtime.spawn(run_training(shared.clone(), entry.clone(), generation, opponent, began));
            Ok(entry)
        })
        .await?;
    // Answered once the opponent is made (a perfect player's solve, within the page's limits).
    match begun.await {
        Ok(Ok(())) => {
            let (mut parts, body) = arc_json(&entry.view()).into_parts();
            parts.status = StatusCode::ACCEPTED;
            Ok(Response::from_parts(parts, body))
        }
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "the machine was replaced or closed before training could start",
        )),
    }
}

/// Training or watching never drops a person's game unasked.
fn refuse_to_drop(session: &dyn Session, discard: bool) -> Result<(), ApiError> {
    let moves = session.person_moves();
    if moves > 0 && !discard {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "a game is in progress ({moves} move{} of yours): finish it, or say to drop it (\"discard\": true)",
                if moves == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(())
}

/// One game against an opponent, played on the server for the page to show
/// move by move: a step at a time under the session's lock (the opponent
/// made and its slow moves chosen without it), in a task of its own, so
/// that a request abandoned halfway still ends the game and frees the
/// session. Stop ends it within a move (an MCTS search within a playout).
async fn watch(State(shared): State<Arc<Shared>>, Path(id): Path<String>, bytes: Bytes) -> ApiResult {
    let ask: WatchRequest = body(&bytes)?;
    let opponent = parse_opponent(&ask.opponent, shared.config.limits)?;
    refuse_while_stopping(&shared)?;
    let runtime = tokio::runtime::Handle::current();
    let (over, ended) = tokio::sync::oneshot::channel();
    let entry = shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            not_while_training(&entry)?;
            let generation = shared.change(&entry, |slot| {
                slot.idle()?;
                refuse_to_drop(slot.session.as_ref(), ask.discard)?;
                slot.session.check_opponent(&opponent)?;
                if matches!(opponent, OpponentSpec::Perfect(_)) {
                    if let Some(why) = lock(&shared.unsolvable).get(&slot.spec) {
                        return Err(ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, why.clone()));
                    }
                }
                slot.note = None;
                // The session is the watched game's from now on (its opponent is made next).
                slot.watching = true;
                entry.signals.cancel.store(false, Ordering::Relaxed);
                Ok(slot.generation)
            })?;
            let game = WatchGame {
                opponent,
                frames: ask.frames,
            };
            runtime.spawn(run_watch(shared.clone(), entry.clone(), generation, game, over));
            Ok(entry)
        })
        .await?;
    let game = ended
        .await
        .map_err(|_| ApiError::new(StatusCode::CONFLICT, "the machine was closed or reset during the game"))??;
    let mut answer = (*entry.view()).clone();
    answer["watched"] = game;
    Ok(json_response(StatusCode::OK, &answer))
}

/// The game a watch request asks for.
struct WatchGame {
    opponent: OpponentSpec,
    frames: bool,
}

/// How a step of a watched game ended, under the lock.
enum WatchSlice {
    More,
    Apart(Pending),
    Over(Json),
}

/// Make the watched game's opponent, play the game to its end (or until
/// it is stopped, or its session changes), and send its moves.
async fn run_watch(
    shared: Arc<Shared>,
    entry: Arc<Entry>,
    generation: u64,
    game: WatchGame,
    over: tokio::sync::oneshot::Sender<Result<Json, ApiError>>,
) {
    let made = match shared.make_apart(&entry, generation, &game.opponent).await {
        Some(made) => made,
        None => return,
    };
    let cancel = entry.signals.cancel.clone();
    let begun = shared
        .slice(&shared.work, &entry, generation, move |shared, slot| {
            let WatchGame { opponent, frames } = game;
            made.and_then(|made| slot.session.begin_watch(&opponent, made, frames, cancel))
                .inspect_err(|e| {
                    slot.watching = false;
                    remember_unsolvable(shared, slot, &opponent, e);
                })
        })
        .await;
    match begun {
        Some(Ok(())) => {}
        Some(Err(e)) => {
            let _ = over.send(Err(e.into()));
            return;
        }
        None => return,
    }
    loop {
        let playing = entry.clone();
        let step = shared
            .slice(&shared.work, &entry, generation, move |shared, slot| {
                match slot.session.watch_step(Instant::now() + SLICE, &playing.signals) {
                    Watched::More => WatchSlice::More,
                    Watched::Pending(p) => WatchSlice::Apart(p),
                    Watched::Over(game) => {
                        slot.watching = false;
                        slot.note = shared.save(slot);
                        WatchSlice::Over(game)
                    }
                }
            })
            .await;
        match step {
            Some(WatchSlice::More) => {}
            Some(WatchSlice::Apart(pending)) => {
                if shared.think_apart(&entry, generation, pending).await.is_none() {
                    return;
                }
            }
            Some(WatchSlice::Over(game)) => {
                let _ = over.send(Ok(game));
                return;
            }
            // The session was closed or reset: nothing to answer.
            None => return,
        }
    }
}

/// For tests (`Config::stats`): how requests waited for sessions, in moves.
async fn stats(State(shared): State<Arc<Shared>>) -> ApiResult {
    if !shared.config.stats {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no page or endpoint at /api/stats",
        ));
    }
    let w = &shared.waits;
    Ok(json_response(
        StatusCode::OK,
        &json!({
            "lock_waits": w.requests.load(Ordering::Relaxed),
            "moves_waited": w.moves.load(Ordering::Relaxed),
            "most_moves_waited": w.most_moves.load(Ordering::Relaxed),
        }),
    ))
}

async fn stop(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    let entry = shared.entry(&id)?;
    entry.stop();
    Ok(json_response(StatusCode::OK, &json!({"stopping": entry.running()})))
}

async fn curves(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    let entry = shared.entry(&id)?;
    let curves = lock(&entry.published).curves.clone();
    Ok(arc_json(&curves))
}

async fn boxes(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    query: Result<axum::extract::Query<BoxQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult {
    let axum::extract::Query(query) = query.map_err(|e| ApiError::bad(format!("boxes: {}", e.body_text())))?;
    shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            let limit = shared.config.max_listed_boxes;
            // The boxes shown are copied under the lock and drawn after it.
            let listed = shared.read(&entry, |slot| Ok(slot.session.boxes(&query, limit)))?;
            Ok(json_response(StatusCode::OK, &listed.run()))
        })
        .await
}

/// A session's state file as it is now, written out after its lock is let
/// go; its game spec, for the file's name. `check` refuses before the copy.
fn state_of(
    shared: &Shared,
    entry: &Entry,
    check: impl FnOnce(&Slot) -> Result<(), ApiError>,
) -> Result<(String, String), ApiError> {
    let (state, spec) = shared.read(entry, |slot| {
        check(slot)?;
        Ok((slot.session.state(), slot.spec.clone()))
    })?;
    Ok((state.run(), spec))
}

/// An attachment's headers: its type, and a file name made of `spec`.
fn attachment(kind: &'static str, spec: &str, suffix: &str, body: impl IntoResponse) -> Response {
    let name: String = spec
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let disposition = format!("attachment; filename=\"menace-{name}{suffix}\"");
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).unwrap_or(HeaderValue::from_static("attachment")),
            ),
        ],
        body,
    )
        .into_response()
}

async fn download(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            let (text, spec) = state_of(shared, &entry, |_| Ok(()))?;
            Ok(attachment("application/json", &spec, ".json", text))
        })
        .await
}

/// The tab's machine as matchbox labels to print, the PDF `menace boxes
/// --pdf` writes: on the paper `?paper=a4|letter` names, else on that of the
/// browser's first language (Letter for `en-US`), else A4.
async fn labels_pdf(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> ApiResult {
    let asked = uri
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("paper=")))
        .map(Paper::parse);
    let language = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Paper::of_accept_language);
    let paper = match asked {
        Some(p) => p.map_err(|e| ApiError::bad(e.to_string()))?,
        None => language.unwrap_or(Paper::A4),
    };
    shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            let limit = shared.config.max_listed_boxes;
            let (text, spec) = state_of(shared, &entry, |slot| {
                let boxes = slot.session.box_count();
                if boxes > limit {
                    return Err(ApiError::new(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        format!("the machine has {boxes} boxes; the page prints at most {limit}: download it and print with `menace boxes GAME --state FILE --pdf labels.pdf`"),
                    ));
                }
                Ok(())
            })?;
            let pdf = labels::pdf_of_state(&text, paper).map_err(|e| match e {
                LabelError::Pdf(m) => ApiError::internal(m),
                e => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
            })?;
            Ok(attachment("application/pdf", &spec, "-labels.pdf", pdf))
        })
        .await
}

/// Serve on `listener` until `shutdown` completes; idle sessions are swept
/// every minute. Connections are capped at `max_connections` (more are
/// closed at once) and time out when idle or slow to send a request. On
/// shutdown, training runs stop and save, and connections get a moment to
/// finish their answers.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;

    let addr = listener.local_addr()?;
    let max_connections = config.max_connections.max(1);
    let header_timeout = config.header_timeout;
    let (router, shared) = build(config, addr);
    let sweeper = {
        let shared = shared.clone();
        tokio::spawn(async move {
            // The first sweep a minute from now, not at once (an interval's first tick is immediate).
            let minute = Duration::from_secs(60);
            let mut every = tokio::time::interval_at(tokio::time::Instant::now() + minute, minute);
            loop {
                every.tick().await;
                let shared = shared.clone();
                let _ = tokio::task::spawn_blocking(move || shared.expire()).await;
            }
        })
    };
    let connections = Arc::new(Semaphore::new(max_connections));
    let (closing, closed) = tokio::sync::watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            // Out of file descriptors, a connection reset before accept: go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(5)).await;
                continue;
            }
        };
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            // Over the cap: closed at once.
            drop(stream);
            continue;
        };
        let service = TowerToHyperService::new(router.clone());
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let _ = stream.set_nodelay(true);
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = closed.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_millis(200), connection).await;
                }
            }
        });
    }
    drop(listener);
    // Training stops within a move (or an MCTS playout) and saves.
    shared.stop_training(Duration::from_millis(800)).await;
    let _ = closing.send(true);
    let _ = tokio::time::timeout(
        Duration::from_millis(250),
        connections.acquire_many(max_connections as u32),
    )
    .await;
    shared.work.close();
    sweeper.abort();
    Ok(())
}

/// A server started on its own threads (for tests and embedding).
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// Stop it as Ctrl-C does, and wait until it has stopped (training
    /// stopped and saved).
    pub fn shut_down(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Start a server on `addr` (port 0: any free port) on a thread of its own,
/// with a runtime of two worker threads; returns once it listens.
pub fn start(addr: SocketAddr, config: Config) -> std::io::Result<Running> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind(addr))?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let _ = runtime.block_on(serve(listener, config, async {
            // Dropped without a word (a test done with it): serve on until the process ends.
            if stopped.await.is_err() {
                std::future::pending::<()>().await;
            }
        }));
        runtime.shutdown_timeout(Duration::from_millis(100));
    });
    Ok(Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::session::{Deferred, Trained};

    /// A machine whose training panics, to see the server survive it.
    struct Faulty(Box<dyn Session>);

    impl Session for Faulty {
        fn game_spec(&self) -> String {
            self.0.game_spec()
        }
        fn view(&self) -> Json {
            self.0.view()
        }
        fn new_game(&mut self) -> Result<(), SessionError> {
            self.0.new_game()
        }
        fn play(&mut self, text: &str) -> Result<(), SessionError> {
            self.0.play(text)
        }
        fn resign(&mut self) -> Result<(), SessionError> {
            self.0.resign()
        }
        fn boxes(&self, query: &BoxQuery, limit: usize) -> Deferred<Json> {
            self.0.boxes(query, limit)
        }
        fn person_moves(&self) -> usize {
            self.0.person_moves()
        }
        fn opponent_maker(&self, opponent: &OpponentSpec) -> Option<Deferred<Result<Made, SessionError>>> {
            self.0.opponent_maker(opponent)
        }
        fn begin_watch(
            &mut self,
            opponent: &OpponentSpec,
            made: Option<Made>,
            frames: bool,
            cancel: Arc<AtomicBool>,
        ) -> Result<(), SessionError> {
            self.0.begin_watch(opponent, made, frames, cancel)
        }
        fn watch_step(&mut self, deadline: Instant, signals: &Signals) -> Watched {
            self.0.watch_step(deadline, signals)
        }
        fn resume(&mut self, pending: Pending) {
            self.0.resume(pending)
        }
        fn curves(&self) -> Json {
            self.0.curves()
        }
        fn state(&mut self) -> Deferred<String> {
            self.0.state()
        }
        fn check_opponent(&self, opponent: &OpponentSpec) -> Result<(), SessionError> {
            self.0.check_opponent(opponent)
        }
        fn begin_training(
            &mut self,
            opponent: &OpponentSpec,
            made: Option<Made>,
            cancel: Arc<AtomicBool>,
        ) -> Result<(), SessionError> {
            self.0.begin_training(opponent, made, cancel)
        }
        fn train(&mut self, _: u64, _: u64, _: Instant, _: &Signals) -> Trained {
            panic!("a fault in training")
        }
        fn end_training(&mut self) {
            self.0.end_training()
        }
        fn box_count(&self) -> usize {
            self.0.box_count()
        }
        fn games_played(&self) -> u64 {
            self.0.games_played()
        }
    }

    #[test]
    fn a_panic_in_training_or_a_request_resets_the_session_and_nothing_stays_running() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (_, shared) = build(Config::default(), "127.0.0.1:8000".parse().unwrap());
            let inner = new_session(&NewMachine::default(), Limits::default()).unwrap();
            let (_, entry) = shared.insert(Box::new(Faulty(inner))).unwrap();
            // As the train request does.
            let generation = shared
                .change(&entry, |slot| {
                    slot.progress.running = true;
                    slot.progress.total = 10;
                    shared.runs.fetch_add(1, Ordering::SeqCst);
                    Ok(slot.generation)
                })
                .unwrap();
            assert!(entry.running());
            let (began, begun) = tokio::sync::oneshot::channel();
            run_training(shared.clone(), entry.clone(), generation, OpponentSpec::Random, began).await;
            assert!(matches!(begun.await, Ok(Ok(()))));
            assert!(!entry.running());
            assert_eq!(shared.runs.load(Ordering::SeqCst), 0);
            let view = entry.view();
            let message = view["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("internal error (the training run failed: a fault in training)"),
                "{message}"
            );
            assert_eq!(view["training"]["running"], false);
            // The fresh machine plays; a panic inside a request resets it too.
            shared.change(&entry, |slot| Ok(slot.session.new_game()?)).unwrap();
            let e = shared
                .change(&entry, |_| -> Result<(), ApiError> { panic!("a fault in a request") })
                .unwrap_err();
            assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
            assert!(e.message.contains("a fault in a request"), "{}", e.message);
            assert!(shared.change(&entry, |slot| Ok(slot.session.play("b2")?)).is_ok());
        });
    }

    #[test]
    fn hosts_are_the_address_served_and_localhost_only() {
        let loopback = Hosts {
            ip: "127.0.0.1".parse().unwrap(),
            port: 8000,
            names: vec!["classroom".to_string()],
        };
        for ok in [
            "127.0.0.1:8000",
            "localhost:8000",
            "LOCALHOST:8000",
            "[::1]:8000",
            "classroom:8000",
        ] {
            assert!(loopback.allows(ok), "{ok}");
        }
        for no in [
            "evil.example:8000",
            "127.0.0.1:8001",
            "127.0.0.1",
            "",
            "10.0.0.1:8000",
            "localhost.evil:8000",
        ] {
            assert!(!loopback.allows(no), "{no}");
        }
        let everywhere = Hosts {
            ip: "0.0.0.0".parse().unwrap(),
            port: 80,
            names: Vec::new(),
        };
        assert!(everywhere.allows("192.168.1.20") && everywhere.allows("192.168.1.20:80"));
        assert!(!everywhere.allows("school.example"));
    }
}
