//! The page's requests answered in one thread, with no server: what the
//! page file's Web Worker runs, built for WebAssembly (`menace-wasm`). It
//! answers the single-machine page's endpoints with the same sessions and
//! the same [`crate::page`] functions as `menace serve`, so that the page's
//! one request function reaches either and reads the same JSON.
//!
//! A training run is started by its request and played by [`Engine::step`]
//! a slice at a time, between requests: the worker calls it while a run is
//! on, so the page's polls, and a stop, are answered within a slice.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{json, Value as Json};

use crate::labels::{sheet_of_state, Paper};
use crate::page::{self, Kept, Progress};
use crate::session::apart::{Pending, Signals, Watched};
use crate::session::error::SessionError;
use crate::session::limits::Limits;
use crate::session::make::{load_session, new_session};
use crate::session::opponents::parse_opponent;
use crate::session::requests::{
    BeadRequest, BoxQuery, MoveRequest, NewMachine, RefereeRequest, TrainRequest, WatchRequest,
};
use crate::session::traits::Session;
use menace_core::clock::Instant;

/// Machines open at once (a tab uses one; a reload makes another).
const MAX_SESSIONS: usize = 8;

/// An answer: a status, its type, its body, and a file name for a download.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The HTTP status `menace serve` answers with.
    pub status: u16,
    /// The body's media type.
    pub kind: &'static str,
    /// The body.
    pub body: String,
    /// The name to save it as, for a download.
    pub file: Option<String>,
}

impl Reply {
    fn json(status: u16, value: &Json) -> Reply {
        Reply {
            status,
            kind: "application/json",
            body: value.to_string(),
            file: None,
        }
    }

    fn attachment(kind: &'static str, spec: &str, suffix: &str, body: String) -> Reply {
        Reply {
            status: 200,
            kind,
            body,
            file: Some(page::file_name(spec, suffix)),
        }
    }

    fn error(status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({ "error": message }))
    }
}

/// A refusal: the status `menace serve` gives it, and what was wrong.
struct Refusal(u16, String);

impl From<SessionError> for Refusal {
    fn from(e: SessionError) -> Refusal {
        let status = match e {
            SessionError::Invalid(_) => 400,
            SessionError::NotNow(_) => 409,
            SessionError::OverLimit(_) => 422,
            SessionError::Internal(_) => 500,
        };
        Refusal(status, e.message().to_string())
    }
}

fn conflict(message: &str) -> Refusal {
    Refusal(409, message.to_string())
}

type Answer = Result<Reply, Refusal>;

/// One machine and what goes on around it.
struct Local {
    session: Box<dyn Session>,
    progress: Progress,
    signals: Signals,
    /// An opponent's move being chosen (a search), over as many steps as it takes.
    pending: Option<Pending>,
}

impl Local {
    fn new(session: Box<dyn Session>) -> Local {
        Local {
            session,
            progress: Progress::default(),
            signals: Signals::default(),
            pending: None,
        }
    }

    /// Play the training run on until `deadline` (the move under way
    /// finished): a search opponent's move is thought over as many steps
    /// as it needs, so that a request never waits longer than a step.
    fn advance(&mut self, deadline: Instant) {
        loop {
            if let Some(mut pending) = self.pending.take() {
                if !pending.think_before(deadline) && !self.signals.cancelled() {
                    self.pending = Some(pending);
                    return;
                }
                self.session.resume(pending);
            }
            let p = &self.progress;
            let left = p.total.saturating_sub(p.done);
            let trained = self.session.train(left, deadline, &self.signals);
            self.progress.done += trained.games;
            let idle = trained.games == 0 && trained.pending.is_none();
            self.pending = trained.pending;
            if trained.halted || self.progress.done >= self.progress.total || self.signals.cancelled() {
                self.pending = None;
                self.session.end_training();
                self.progress.running = false;
                return;
            }
            if idle || Instant::now() >= deadline {
                return;
            }
        }
    }

    fn view(&self) -> Json {
        page::view(self.session.as_ref(), &self.progress, &Kept::default(), None)
    }

    fn idle(&self) -> Result<(), Refusal> {
        if self.progress.running {
            return Err(conflict(page::TRAINING));
        }
        Ok(())
    }
}

/// The page's machines, answering its requests one at a time.
pub struct Engine {
    sessions: BTreeMap<String, Local>,
    made: u64,
    limits: Limits,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(Limits::default())
    }
}

impl Engine {
    /// No machines yet; each is held to `limits`.
    pub fn new(limits: Limits) -> Engine {
        Engine {
            sessions: BTreeMap::new(),
            made: 0,
            limits,
        }
    }

    /// Answer one request, as `menace serve` would: `method`, the path with
    /// its query (`/api/sessions/s1/boxes?page=2`), and the body.
    pub fn request(&mut self, method: &str, target: &str, body: &[u8]) -> Reply {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        match self.route(method, path, query, body) {
            Ok(reply) => reply,
            Err(Refusal(status, message)) => Reply::error(status, &message),
        }
    }

    /// Whether a training run is on: the worker then calls [`Engine::step`].
    pub fn training(&self) -> bool {
        self.sessions.values().any(|l| l.progress.running)
    }

    /// Play the training runs on for about `budget` (finishing the move
    /// under way): each run's games until its count, a stop, or the
    /// machine's last box. Whether any run is still on.
    pub fn step(&mut self, budget: Duration) -> bool {
        let deadline = Instant::now() + budget;
        for local in self.sessions.values_mut().filter(|l| l.progress.running) {
            local.advance(deadline);
        }
        self.training()
    }

    fn route(&mut self, method: &str, path: &str, query: &str, body: &[u8]) -> Answer {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            ("GET", ["api", "games"]) => Ok(Reply::json(200, &page::catalogue())),
            ("GET", ["api", "games", spec]) => Ok(Reply::json(200, &page::one_game(&decoded(spec))?)),
            ("GET", ["api", "class"]) => Ok(Reply::json(200, &json!({ "class": null }))),
            (_, ["api", "class", ..]) => Err(Refusal(
                404,
                "the class on many devices needs a server: start it with `menace serve --classroom`".to_string(),
            )),
            ("POST", ["api", "sessions"]) => self.create(body),
            (_, ["api", "sessions", id, rest @ ..]) => {
                let id = decoded(id);
                let local = self.sessions.get_mut(&id).ok_or_else(|| gone(&id))?;
                match (method, rest) {
                    ("DELETE", []) => {
                        self.sessions.remove(&id);
                        Ok(Reply {
                            status: 204,
                            kind: "application/json",
                            body: String::new(),
                            file: None,
                        })
                    }
                    (_, [resource]) => session_route(local, self.limits, method, resource, query, body),
                    ("GET", []) => Ok(Reply::json(200, &local.view())),
                    _ => Err(not_found(method, path)),
                }
            }
            _ => Err(not_found(method, path)),
        }
    }

    fn create(&mut self, body: &[u8]) -> Answer {
        let ask: NewMachine = page::body(body)?;
        let session = new_session(&ask, self.limits)?;
        if self.sessions.len() >= MAX_SESSIONS {
            // The oldest machine makes room: a page reloaded leaves its last behind.
            let oldest = self.sessions.keys().next().cloned();
            oldest.map(|k| self.sessions.remove(&k));
        }
        self.made += 1;
        // Zero-padded, so the oldest sorts first.
        let id = format!("local-{:06}", self.made);
        let local = Local::new(session);
        let mut view = local.view();
        view["session"] = json!(id);
        self.sessions.insert(id, local);
        Ok(Reply::json(201, &view))
    }
}

/// A request to one session's `resource`.
fn session_route(local: &mut Local, limits: Limits, method: &str, resource: &str, query: &str, body: &[u8]) -> Answer {
    let ok = |local: &Local| Ok(Reply::json(200, &local.view()));
    match (method, resource) {
        ("GET", "curves") => Ok(Reply::json(200, &page::curves(local.session.as_ref(), &local.progress))),
        ("GET", "curves.csv") => {
            let (view, curves) = (local.view(), page::curves(local.session.as_ref(), &local.progress));
            let csv = page::curves_csv(&view, &curves)?;
            let text = String::from_utf8(csv).map_err(|e| Refusal(500, e.to_string()))?;
            Ok(Reply::attachment(
                "text/csv",
                &local.session.game_spec(),
                "-curves.csv",
                text,
            ))
        }
        ("GET", "curves.json") => {
            let (view, curves) = (local.view(), page::curves(local.session.as_ref(), &local.progress));
            let text = page::curves_json(&view, &curves);
            Ok(Reply::attachment(
                "application/json",
                &local.session.game_spec(),
                "-curves.json",
                text,
            ))
        }
        ("GET", "state") => {
            let text = local.session.state().run();
            Ok(Reply::attachment(
                "application/json",
                &local.session.game_spec(),
                ".json",
                text,
            ))
        }
        ("PUT", "state") => {
            local.idle()?;
            let text = std::str::from_utf8(body).map_err(|_| Refusal(400, "state file: not UTF-8 text".into()))?;
            replace(local, load_session(text, limits)?);
            ok(local)
        }
        ("POST", "machine") => {
            local.idle()?;
            let ask: NewMachine = page::body(body)?;
            replace(local, new_session(&ask, limits)?);
            ok(local)
        }
        ("GET", "boxes") => {
            let query = box_query(query)?;
            let listed = local.session.boxes(&query, page::MAX_LISTED_BOXES)?;
            Ok(Reply::json(200, &listed.run()))
        }
        ("GET", "labels") => labels(local, query),
        ("POST", "game" | "move" | "resign" | "bead" | "referee") => {
            local.idle()?;
            let s = local.session.as_mut();
            match resource {
                "game" => s.new_game()?,
                "move" => s.play(&page::body::<MoveRequest>(body)?.text)?,
                "resign" => s.resign()?,
                "bead" => s.bead(page::body::<BeadRequest>(body)?.colour.as_deref())?,
                _ => s.set_referee(page::body::<RefereeRequest>(body)?.on),
            }
            ok(local)
        }
        ("POST", "train") => train(local, limits, body),
        ("POST", "stop") => {
            local.signals.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            Ok(Reply::json(200, &json!({ "stopping": local.progress.running })))
        }
        ("POST", "watch") => watch(local, limits, body),
        _ => Err(not_found(method, resource)),
    }
}

fn replace(local: &mut Local, session: Box<dyn Session>) {
    local.session = session;
    local.progress = Progress::default();
    local.pending = None;
}

/// Start a training run, played on by [`Engine::step`].
fn train(local: &mut Local, limits: Limits, body: &[u8]) -> Answer {
    let ask: TrainRequest = page::body(body)?;
    if !(1..=limits.max_games).contains(&ask.games) {
        return Err(Refusal(
            400,
            format!("games {}: expected 1 to {} games a run", ask.games, limits.max_games),
        ));
    }
    let opponent = parse_opponent(&ask.opponent, limits)?;
    if local.progress.running {
        return Err(conflict(page::ALREADY_TRAINING));
    }
    page::refuse_to_drop(local.session.as_ref(), ask.discard)?;
    local.session.check_opponent(&opponent)?;
    let made = local.session.opponent_maker(&opponent).map(|m| m.run()).transpose()?;
    local.signals.cancel.store(false, std::sync::atomic::Ordering::Relaxed);
    let cancel = local.signals.cancel.clone();
    local.session.begin_training(&opponent, made, cancel, ask.games)?;
    local.progress = Progress {
        running: true,
        opponent: opponent.to_string(),
        done: 0,
        total: ask.games,
    };
    Ok(Reply::json(202, &local.view()))
}

/// One game against an opponent, played whole, for the page to show move by move.
fn watch(local: &mut Local, limits: Limits, body: &[u8]) -> Answer {
    let ask: WatchRequest = page::body(body)?;
    let opponent = parse_opponent(&ask.opponent, limits)?;
    local.idle()?;
    page::refuse_to_drop(local.session.as_ref(), ask.discard)?;
    local.session.check_opponent(&opponent)?;
    let made = local.session.opponent_maker(&opponent).map(|m| m.run()).transpose()?;
    local.signals.cancel.store(false, std::sync::atomic::Ordering::Relaxed);
    let cancel = local.signals.cancel.clone();
    local.session.begin_watch(&opponent, made, ask.frames, cancel)?;
    let game = loop {
        match local
            .session
            .watch_step(Instant::now() + Duration::from_secs(3600), &local.signals)
        {
            Watched::More => {}
            Watched::Pending(mut pending) => {
                pending.think();
                local.session.resume(pending);
            }
            Watched::Over(game) => break game,
        }
    };
    let mut answer = local.view();
    answer["watched"] = game;
    Ok(Reply::json(200, &answer))
}

/// The machine's labels as SVG pages to print, on `?paper=a4|letter` (A4
/// unless asked), with the page's size: what `menace serve` makes a PDF of.
fn labels(local: &mut Local, query: &str) -> Answer {
    let paper = match pairs(query).find(|(k, _)| k == "paper") {
        Some((_, p)) => Paper::parse(&p).map_err(|e| Refusal(400, e.to_string()))?,
        None => Paper::A4,
    };
    let boxes = local.session.box_count();
    let limit = page::MAX_LISTED_BOXES;
    if boxes > limit {
        return Err(Refusal(422, format!("the machine has {boxes} boxes; the page prints at most {limit}: download it and print with `menace boxes GAME --state FILE --pdf labels.pdf`")));
    }
    let text = local.session.state().run();
    let sheet = sheet_of_state(&text, paper).map_err(|e| Refusal(422, e.to_string()))?;
    let (width, height) = sheet.paper.size_mm();
    Ok(Reply::json(
        200,
        &json!({"pages": sheet.pages, "width_mm": width, "height_mm": height, "title": sheet.title}),
    ))
}

/// A query's pairs, decoded.
fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| kv.split_once('=').unwrap_or((kv, "")))
        .map(|(k, v)| (decoded(k), decoded(v)))
}

/// Which boxes a listing asks for, from its query.
fn box_query(query: &str) -> Result<BoxQuery, Refusal> {
    let bad = |field: &str, value: &str| Refusal(400, format!("boxes: {field}: '{value}' is not a whole number"));
    let mut q = BoxQuery::default();
    for (k, v) in pairs(query) {
        match k.as_str() {
            "page" => q.page = Some(v.parse().map_err(|_| bad("page", &v))?),
            "per_page" => q.per_page = Some(v.parse().map_err(|_| bad("per_page", &v))?),
            "own_move" => q.own_move = Some(v.parse().map_err(|_| bad("own_move", &v))?),
            "find" => q.find = Some(v),
            "machine" => q.machine = Some(v),
            other => {
                return Err(Refusal(
                    400,
                    format!(
                    "boxes: unknown field `{other}`, expected one of `page`, `per_page`, `own_move`, `find`, `machine`"
                ),
                ))
            }
        }
    }
    Ok(q)
}

/// A path segment or query part with its `%XX` escapes (and `+` in a query) decoded.
fn decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn gone(id: &str) -> Refusal {
    Refusal(
        404,
        format!(
            "no session '{}': the page's machines live in this tab; reload the page",
            menace_core::error::shown(id)
        ),
    )
}

fn not_found(method: &str, path: &str) -> Refusal {
    Refusal(404, format!("no page or endpoint at {path} ({method})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(engine: &mut Engine, method: &str, target: &str, body: Json) -> Json {
        let reply = engine.request(method, target, body.to_string().as_bytes());
        assert!(reply.status < 300, "{method} {target}: {} {}", reply.status, reply.body);
        serde_json::from_str(&reply.body).unwrap_or(Json::Null)
    }

    #[test]
    fn a_machine_is_made_played_trained_and_stopped_in_one_thread() {
        let mut e = Engine::default();
        let v = ask(&mut e, "POST", "/api/sessions", json!({"game": "hexapawn", "seed": 7}));
        let id = v["session"].as_str().unwrap().to_string();
        assert_eq!(v["game"], "hexapawn");
        let at = |s: &str| format!("/api/sessions/{id}{s}");
        ask(&mut e, "POST", &at("/move"), json!({"move": "a1-a2"}));
        let v = ask(
            &mut e,
            "POST",
            &at("/train"),
            json!({"opponent": "random", "games": 300, "discard": true}),
        );
        assert_eq!(v["training"]["running"], true);
        while e.step(Duration::from_millis(5)) {}
        let c = ask(&mut e, "GET", &at("/curves"), Json::Null);
        assert_eq!(c["training"]["done"], 300);
        assert_eq!(c["training"]["running"], false);
        // Refusals come back as the server's: a status and {error}.
        let r = e.request("POST", &at("/move"), br#"{"move": "z9"}"#);
        assert_eq!(r.status, 400, "{}", r.body);
        let r = e.request("GET", "/api/sessions/nobody", b"");
        assert_eq!(r.status, 404);
        let boxes = ask(&mut e, "GET", &at("/boxes?page=1&per_page=5&find="), Json::Null);
        assert!(boxes["boxes"].as_array().is_some_and(|b| b.len() <= 5), "{boxes}");
    }

    #[test]
    fn a_search_opponents_run_stops_at_the_next_step() {
        let mut e = Engine::default();
        let v = ask(&mut e, "POST", "/api/sessions", json!({"game": "hexapawn", "seed": 1}));
        let at = |s: &str| format!("/api/sessions/{}{s}", v["session"].as_str().unwrap());
        ask(
            &mut e,
            "POST",
            &at("/train"),
            json!({"opponent": "mcts:5000", "games": 1000}),
        );
        assert!(
            e.step(Duration::from_millis(1)),
            "a thousand searched games are not played in a step"
        );
        ask(&mut e, "POST", &at("/stop"), Json::Null);
        assert!(!e.step(Duration::from_millis(1)), "stopped at the next step");
        let c = ask(&mut e, "GET", &at("/curves"), Json::Null);
        assert_eq!(c["training"]["running"], false);
        assert!(c["training"]["done"].as_u64().unwrap() < 1000);
    }

    #[test]
    fn decoding_reads_escapes_and_leaves_broken_ones() {
        assert_eq!(decoded("hexapawn%3A4x4"), "hexapawn:4x4");
        assert_eq!(decoded("a+b%"), "a b%");
        assert_eq!(decoded("%zz"), "%zz");
    }
}
