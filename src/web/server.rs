//! `menace serve`: the page (HTML, CSS, JS and the font, all embedded) and
//! a thin layer of JSON endpoints over [`crate::web::session`], one session
//! per browser tab. Sessions are capped in number and expire when idle;
//! training runs on a blocking thread in short chunks, so the page stays
//! answered while it goes. The only file it touches is the `--state` file.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value as Json};

use crate::font::FONT_BYTES;
use crate::fsutil::{read_text, write_atomic};
use crate::web::session::{
    load_session, new_session, parse_opponent, Limits, NewMachine, Session, SessionError, TrainRequest,
};

const INDEX_HTML: &str = include_str!("page/index.html");
const STYLE_CSS: &str = include_str!("page/style.css");
const APP_JS: &str = include_str!("page/app.js");
const CHARTS_JS: &str = include_str!("page/charts.js");

/// How the server behaves: its limits, and the one file it may use.
#[derive(Clone, Debug)]
pub struct Config {
    pub limits: Limits,
    /// Sessions (browser tabs) open at once.
    pub max_sessions: usize,
    /// A session unused this long is dropped (unless it is training).
    pub idle: Duration,
    /// The largest request body accepted (an uploaded state file).
    pub max_body: usize,
    /// Boxes listed at most by the boxes endpoint.
    pub max_listed_boxes: usize,
    /// `--state`: new tabs start from this machine if the file exists, and
    /// every tab's machine is saved to it after each game and training run.
    pub state: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            limits: Limits::default(),
            max_sessions: 32,
            idle: Duration::from_secs(30 * 60),
            max_body: 8 << 20,
            max_listed_boxes: 2000,
            state: None,
        }
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

/// One tab's session and its bookkeeping.
struct Entry {
    session: Mutex<Box<dyn Session>>,
    last_used: Mutex<Instant>,
    progress: Mutex<Progress>,
    stop: AtomicBool,
    /// Whether this tab's machine is the one saved to `--state`: the first
    /// tab opened while no other holds it. Other tabs play unsaved, so that
    /// two tabs never overwrite each other's machine in one file.
    owns_state: bool,
}

/// Lock a mutex even if a thread panicked holding it: the data is still the
/// last consistent state each operation left.
fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

struct Shared {
    config: Config,
    sessions: Mutex<HashMap<String, Arc<Entry>>>,
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
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> ApiError {
        match e {
            SessionError::Invalid(m) => ApiError::new(StatusCode::BAD_REQUEST, m),
            SessionError::NotNow(m) => ApiError::new(StatusCode::CONFLICT, m),
        }
    }
}

impl From<BytesRejection> for ApiError {
    fn from(e: BytesRejection) -> ApiError {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                "request body too large: a state file of at most 8 MiB is accepted",
            )
        } else {
            ApiError::new(status, format!("request body unreadable: {e}"))
        }
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

/// Run blocking work (a game, a solve, a state file) off the async threads.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, ApiError> + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.unwrap_or_else(|e| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error: {e}"),
        ))
    })
}

impl Shared {
    /// A request body, or why it could not be read (too large: 413).
    fn body(&self, bytes: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
        bytes.map_err(|e| {
            let status = e.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    status,
                    format!(
                        "request body too large: at most {} bytes are accepted",
                        self.config.max_body
                    ),
                )
            } else {
                ApiError::new(status, format!("request body unreadable: {e}"))
            }
        })
    }

    fn entry(&self, id: &str) -> Result<Arc<Entry>, ApiError> {
        let sessions = lock(&self.sessions);
        let entry = sessions.get(id).cloned().ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "no session '{id}': it may have expired after {} minutes unused; reload the page",
                    self.config.idle.as_secs() / 60
                ),
            )
        })?;
        *lock(&entry.last_used) = Instant::now();
        Ok(entry)
    }

    /// Drop sessions unused for longer than the idle time (never one training).
    fn expire(&self) {
        let idle = self.config.idle;
        lock(&self.sessions).retain(|_, e| lock(&e.progress).running || lock(&e.last_used).elapsed() < idle);
    }

    fn insert(&self, session: Box<dyn Session>) -> Result<String, ApiError> {
        self.expire();
        let mut sessions = lock(&self.sessions);
        if sessions.len() >= self.config.max_sessions {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many sessions open (at most {}): close another tab, or wait for unused ones to expire",
                    self.config.max_sessions
                ),
            ));
        }
        let id = format!("{:016x}{:016x}", rand::random::<u64>(), rand::random::<u64>());
        let owns_state = self.config.state.is_some() && !sessions.values().any(|e| e.owns_state);
        sessions.insert(
            id.clone(),
            Arc::new(Entry {
                session: Mutex::new(session),
                last_used: Mutex::new(Instant::now()),
                progress: Mutex::new(Progress::default()),
                stop: AtomicBool::new(false),
                owns_state,
            }),
        );
        Ok(id)
    }

    /// Save a session's machine to the `--state` file, if there is one and
    /// the tab holds it; what to tell the page if that failed.
    fn save(&self, entry: &Entry, session: &mut dyn Session) -> Option<String> {
        let path = self.config.state.as_ref().filter(|_| entry.owns_state)?;
        let text = session.state_json();
        write_atomic(path, text.as_bytes())
            .err()
            .map(|e| format!("the machine could not be saved: {e}"))
    }

    fn view(&self, entry: &Entry, note: Option<String>) -> Json {
        let mut view = lock(&entry.session).view();
        let p = lock(&entry.progress).clone();
        view["training"] = json!({"running": p.running, "opponent": p.opponent, "done": p.done, "total": p.total});
        view["state_file"] = json!(self.config.state.as_ref().map(|p| p.display().to_string()));
        view["state_held_elsewhere"] = json!(self.config.state.is_some() && !entry.owns_state);
        if let Some(n) = note {
            view["message"] = json!(n);
        }
        view
    }
}

fn not_while_training(entry: &Entry) -> Result<(), ApiError> {
    if lock(&entry.progress).running {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the machine is training: wait for it to finish, or stop it",
        ));
    }
    Ok(())
}

/// The router of the page and its endpoints.
pub fn router(config: Config) -> Router {
    build(config).0
}

fn build(config: Config) -> (Router, Arc<Shared>) {
    let max_body = config.max_body;
    let shared = Arc::new(Shared {
        config,
        sessions: Mutex::new(HashMap::new()),
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
        .route("/api/sessions", post(create))
        .route("/api/sessions/{id}", get(view).delete(close))
        .route("/api/sessions/{id}/machine", post(new_machine))
        .route("/api/sessions/{id}/game", post(new_game))
        .route("/api/sessions/{id}/move", post(play))
        .route("/api/sessions/{id}/resign", post(resign))
        .route("/api/sessions/{id}/train", post(train))
        .route("/api/sessions/{id}/stop", post(stop))
        .route("/api/sessions/{id}/curves", get(curves))
        .route("/api/sessions/{id}/boxes", get(boxes))
        .route("/api/sessions/{id}/state", get(download).put(upload))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(shared.clone());
    (router, shared)
}

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

/// The games the page offers, with their sides and historical machines.
async fn games() -> Response {
    let offered = [
        ("hexapawn", "Hexapawn 3×3 (Gardner's HER)"),
        ("hexapawn:3x4", "Hexapawn 3×4"),
        ("hexapawn:4x3", "Hexapawn 4×3"),
        ("octopawn", "Octopawn (Hexapawn 4×4)"),
        ("hexapawn:5x3", "Hexapawn 5×3"),
        ("tictactoe", "Noughts and crosses (Michie's MENACE)"),
        ("hex:3", "Hex 3×3"),
        ("hex:4", "Hex 4×4"),
        ("hex:5", "Hex 5×5"),
        ("chessapawn", "Chessapawn"),
        ("minihexchess", "Mini Hexchess"),
    ];
    let list: Vec<Json> = offered
        .iter()
        .filter_map(|&(spec, title)| {
            let g = crate::registry::parse_spec(spec).ok()?;
            Some(json!({
                "spec": spec,
                "title": title,
                "players": [g.player_name(crate::game::Player::One), g.player_name(crate::game::Player::Two)],
                "machine_side": g.player_name(g.machine_side()),
                "machine": g.machine_name(),
                "preset": g.machine_preset().name(),
            }))
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

/// A machine as asked: from the body's settings, or (with no game named)
/// from the `--state` file when there is one.
fn make(shared: &Shared, ask: &NewMachine) -> Result<Box<dyn Session>, ApiError> {
    let limits = shared.config.limits;
    if ask.game.is_none() {
        if let Some(path) = shared.config.state.as_ref().filter(|p| p.exists()) {
            let text = read_text(path).map_err(|e| ApiError::bad(e.to_string()))?;
            return load_session(&text, limits).map_err(|e| ApiError::bad(format!("'{}': {e}", path.display())));
        }
    }
    Ok(new_session(ask, limits)?)
}

async fn create(State(shared): State<Arc<Shared>>, bytes: Result<Bytes, BytesRejection>) -> ApiResult {
    let ask: NewMachine = body(&shared.body(bytes)?)?;
    blocking(move || {
        let session = make(&shared, &ask)?;
        let id = shared.insert(session)?;
        let entry = shared.entry(&id)?;
        let mut view = shared.view(&entry, None);
        view["session"] = json!(id);
        Ok(json_response(StatusCode::CREATED, &view))
    })
    .await
}

async fn view(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    blocking(move || {
        let entry = shared.entry(&id)?;
        Ok(json_response(StatusCode::OK, &shared.view(&entry, None)))
    })
    .await
}

async fn close(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    let entry = shared.entry(&id)?;
    entry.stop.store(true, Ordering::Relaxed);
    lock(&shared.sessions).remove(&id);
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn new_machine(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let ask: NewMachine = body(&shared.body(bytes)?)?;
    blocking(move || {
        let entry = shared.entry(&id)?;
        not_while_training(&entry)?;
        let session = make(&shared, &ask)?;
        *lock(&entry.session) = session;
        *lock(&entry.progress) = Progress::default();
        Ok(json_response(StatusCode::OK, &shared.view(&entry, None)))
    })
    .await
}

/// Run `f` on an idle session, save the machine if a game ended, and answer with the view.
async fn act(
    shared: Arc<Shared>,
    id: String,
    f: impl FnOnce(&mut dyn Session) -> Result<(), SessionError> + Send + 'static,
) -> ApiResult {
    blocking(move || {
        let entry = shared.entry(&id)?;
        not_while_training(&entry)?;
        let note = {
            let mut session = lock(&entry.session);
            let before = session.games_played();
            f(session.as_mut())?;
            if session.games_played() != before {
                shared.save(&entry, session.as_mut())
            } else {
                None
            }
        };
        Ok(json_response(StatusCode::OK, &shared.view(&entry, note)))
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

async fn play(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let ask: MoveRequest = body(&shared.body(bytes)?)?;
    act(shared, id, move |s| s.play(&ask.text)).await
}

async fn resign(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    act(shared, id, |s| s.resign()).await
}

async fn train(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let ask: TrainRequest = body(&shared.body(bytes)?)?;
    let limits = shared.config.limits;
    if !(1..=limits.max_games).contains(&ask.games) {
        return Err(ApiError::bad(format!(
            "games {}: expected 1 to {} games a run",
            ask.games, limits.max_games
        )));
    }
    let opponent = parse_opponent(&ask.opponent, limits)?;
    let entry = shared.entry(&id)?;
    {
        let mut progress = lock(&entry.progress);
        if progress.running {
            return Err(ApiError::new(StatusCode::CONFLICT, "the machine is already training"));
        }
        *progress = Progress {
            running: true,
            opponent: opponent.to_string(),
            done: 0,
            total: ask.games,
        };
    }
    entry.stop.store(false, Ordering::Relaxed);
    let ready = {
        let entry = entry.clone();
        blocking(move || Ok(lock(&entry.session).begin_training(&opponent)?)).await
    };
    if let Err(e) = ready {
        lock(&entry.progress).running = false;
        return Err(e);
    }
    let worker = entry.clone();
    let saver = shared.clone();
    tokio::task::spawn_blocking(move || run_training(&saver, &worker, ask.games, limits));
    Ok(json_response(StatusCode::ACCEPTED, &shared.view(&entry, None)))
}

/// Train in chunks of a few milliseconds, letting go of the session between
/// them so that the page can read the progress and the curves meanwhile.
fn run_training(shared: &Shared, entry: &Entry, total: u64, limits: Limits) {
    let mut done = 0;
    while done < total && !entry.stop.load(Ordering::Relaxed) {
        let mut session = lock(&entry.session);
        let deadline = Instant::now() + Duration::from_millis(40);
        let played = session.train(total - done, total, deadline);
        done += played;
        lock(&entry.progress).done = done;
        *lock(&entry.last_used) = Instant::now();
        if played == 0 || session.box_count() >= limits.max_boxes {
            break;
        }
        // Let go for a moment: a request waiting for the session (the page
        // reading the curves) gets it, instead of this loop taking it back at
        // once and starving it (a std mutex is not fair).
        drop(session);
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut session = lock(&entry.session);
    session.end_training();
    let _ = shared.save(entry, session.as_mut());
    lock(&entry.progress).running = false;
}

async fn stop(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    let entry = shared.entry(&id)?;
    entry.stop.store(true, Ordering::Relaxed);
    Ok(json_response(
        StatusCode::OK,
        &json!({"stopping": lock(&entry.progress).running}),
    ))
}

async fn curves(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    blocking(move || {
        let entry = shared.entry(&id)?;
        let mut c = lock(&entry.session).curves();
        let p = lock(&entry.progress).clone();
        c["training"] = json!({"running": p.running, "done": p.done, "total": p.total});
        Ok(json_response(StatusCode::OK, &c))
    })
    .await
}

async fn boxes(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    blocking(move || {
        let entry = shared.entry(&id)?;
        let limit = shared.config.max_listed_boxes;
        let listed = lock(&entry.session).boxes(limit);
        Ok(json_response(StatusCode::OK, &listed))
    })
    .await
}

async fn download(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> ApiResult {
    blocking(move || {
        let entry = shared.entry(&id)?;
        let mut session = lock(&entry.session);
        let text = session.state_json();
        let name: String = session
            .game_spec()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let disposition = format!("attachment; filename=\"menace-{name}.json\"");
        Ok((
            [
                (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
                (
                    header::CONTENT_DISPOSITION,
                    HeaderValue::from_str(&disposition).unwrap_or(HeaderValue::from_static("attachment")),
                ),
            ],
            text,
        )
            .into_response())
    })
    .await
}

async fn upload(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let bytes = shared.body(bytes)?;
    blocking(move || {
        let entry = shared.entry(&id)?;
        not_while_training(&entry)?;
        let text = std::str::from_utf8(&bytes).map_err(|_| ApiError::bad("state file: not UTF-8 text"))?;
        let session = load_session(text, shared.config.limits)?;
        *lock(&entry.session) = session;
        *lock(&entry.progress) = Progress::default();
        Ok(json_response(StatusCode::OK, &shared.view(&entry, None)))
    })
    .await
}

/// Serve on `listener` until `shutdown` completes; idle sessions are swept every minute.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (router, shared) = build(config);
    let sweeper = tokio::spawn(async move {
        // The first sweep a minute from now, not at once (an interval's first tick is immediate).
        let minute = Duration::from_secs(60);
        let mut every = tokio::time::interval_at(tokio::time::Instant::now() + minute, minute);
        loop {
            every.tick().await;
            shared.expire();
        }
    });
    let served = axum::serve(listener, router).with_graceful_shutdown(shutdown).await;
    sweeper.abort();
    served
}

/// A server started on its own threads (for tests and embedding): its address.
pub struct Running {
    pub addr: SocketAddr,
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
    std::thread::spawn(move || {
        let _ = runtime.block_on(serve(listener, config, std::future::pending()));
    });
    Ok(Running { addr })
}
