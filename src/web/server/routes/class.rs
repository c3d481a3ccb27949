//! The classroom's endpoints: join with the code, read the class (its
//! machine's view, the queue, the students, the log), queue for a game, and
//! play it. Students' games are played one at a time on the class machine,
//! in the order they queued; each reinforces it as it ends.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::web::server::class::{Class, Peer, Role};
use crate::web::server::error::{ApiError, ApiResult, ErrorKind};
use crate::web::server::extract::JsonBody;
use crate::web::server::reply::ok_json;
use crate::web::server::routes::checks::not_while_training;
use crate::web::server::shared::Shared;
use crate::web::server::slot::Entry;
use crate::web::session::error::SessionError;
use crate::web::session::requests::MoveRequest;
use crate::web::session::traits::Played;

pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/class", get(read))
        .route("/api/class/join", post(join))
        .route("/api/class/play", post(queue))
        .route("/api/class/move", post(play))
        .route("/api/class/resign", post(resign))
        .route("/api/class/log", get(log))
        .route("/api/class/skip", post(skip))
        .route("/api/class/code", post(new_code))
}

/// A student's name, and the code they were given.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    code: String,
    #[serde(default)]
    name: String,
}

fn class_of(shared: &Shared) -> Result<&Class, ApiError> {
    shared.class.as_ref().ok_or_else(|| {
        ApiError::new(
            ErrorKind::NotFound,
            "this server is not a classroom's (start it with `menace serve --classroom`)",
        )
    })
}

/// The class machine's session.
fn machine(shared: &Shared, class: &Class) -> Result<Arc<Entry>, ApiError> {
    let id = class
        .session
        .get()
        .ok_or_else(|| ApiError::internal("the class has no machine yet"))?;
    shared.entry(id)
}

/// The class as `role` sees it: the class, and (but for a guest) its
/// machine's view; the teacher is told the machine's session too.
fn answer(shared: &Shared, class: &Class, role: &Role) -> Result<Json, ApiError> {
    let mut out = json!({ "class": class.json(role) });
    if *role != Role::Guest {
        out["view"] = (*machine(shared, class)?.view()).clone();
    }
    if matches!(role, Role::Student(_)) {
        // The teacher's file is the teacher's business.
        out["view"]["state_file"] = Json::Null;
    }
    if *role == Role::Teacher {
        out["session"] = json!(class.session.get());
        // The room's address: the first the server answers to.
        let room = shared.hosts.describe();
        out["join"] = json!(format!("http://{}/", room.split(", ").next().unwrap_or_default()));
    }
    Ok(out)
}

/// The class as the request's role sees it; `{"class": null}` from a
/// server that is not a classroom's (the page asks every server).
async fn read(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    let Some(class) = shared.class.as_ref() else {
        return Ok(ok_json(&json!({ "class": null })));
    };
    let role = role.map_or(Role::Teacher, |Extension(r)| r);
    Ok(ok_json(&answer(&shared, class, &role)?))
}

async fn join(
    State(shared): State<Arc<Shared>>,
    role: Option<Extension<Role>>,
    peer: Option<Extension<Peer>>,
    JsonBody(ask): JsonBody<JoinRequest>,
) -> ApiResult {
    let class = class_of(&shared)?;
    // A device that joined already stays the one student (a reload, a second tab).
    if let Some(Extension(Role::Student(id))) = role {
        return Ok(ok_json(&answer(&shared, class, &Role::Student(id))?));
    }
    // A router used without the server's listener has no peer: one device.
    let device = peer.map_or(std::net::IpAddr::from([0, 0, 0, 0]), |Extension(Peer(ip))| ip);
    let (id, cookie) = class.join(&ask.code, &ask.name, device)?;
    let body = answer(&shared, class, &Role::Student(id))?;
    let mut response = ok_json(&body);
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    Ok(response)
}

/// The student the request is, or a refusal.
fn student(role: Option<Extension<Role>>) -> Result<String, ApiError> {
    match role.map(|Extension(r)| r) {
        Some(Role::Student(id)) => Ok(id),
        _ => Err(ApiError::new(
            ErrorKind::Forbidden,
            "only a student who joined plays the class machine in turn (the teacher plays it from the ordinary page)",
        )),
    }
}

/// The board free and the machine not training: the next student's turn.
/// The game that ended stays on the board (its result, the beads it
/// changed) until that student starts theirs.
fn start_next(class: &Class, entry: &Entry) {
    if class.playing().is_none() && !entry.running() {
        class.next_player();
    }
}

/// The student whose turn it is starts their game, where the board shows
/// one that ended (or none).
fn start_game(shared: &Shared, class: &Class, entry: &Entry, id: &str) -> Result<(), ApiError> {
    if class.playing().as_deref() == Some(id) && entry.view()["board"]["over"] == true {
        shared.change(entry, |slot| {
            slot.note = None;
            Ok(slot.session.new_game()?)
        })?;
    }
    Ok(())
}

async fn queue(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    let id = student(role)?;
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            class.enqueue(&id);
            start_next(class, &entry);
            start_game(shared, class, &entry, &id)?;
            Ok(ok_json(&answer(shared, class, &Role::Student(id))?))
        })
        .await
}

/// The playing student's move or resignation on the class machine; a game
/// that ends is logged, and the next student's starts.
async fn act(
    shared: Arc<Shared>,
    role: Option<Extension<Role>>,
    f: impl FnOnce(&mut dyn Played) -> Result<(), SessionError> + Send + 'static,
) -> ApiResult {
    let id = student(role)?;
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            not_while_training(&entry)?;
            if class.playing().as_deref() != Some(id.as_str()) {
                return Err(ApiError::conflict(match class.place(&id) {
                    Some(k) => format!("it is not your turn yet: you are number {k} in the queue"),
                    None => "it is not your turn: press Play a game to join the queue".to_string(),
                }));
            }
            let before = entry.view();
            shared.change(&entry, |slot| {
                slot.idle()?;
                slot.note = None;
                let played = slot.session.games_played();
                f(slot.session.as_mut())?;
                if slot.session.games_played() != played {
                    slot.note = shared.save(slot);
                }
                Ok(())
            })?;
            let after = entry.view();
            if after["games_played"] != before["games_played"] {
                let moves = after["board"]["history"]
                    .as_array()
                    .map(|h| h.iter().filter_map(|m| m.as_str().map(str::to_string)).collect())
                    .unwrap_or_default();
                let count = |v: &Json, k: &str| v["score"][k].as_u64().unwrap_or(0);
                let score = if count(&after, "wins") > count(&before, "wins") {
                    1
                } else if count(&after, "losses") > count(&before, "losses") {
                    -1
                } else {
                    0
                };
                class.finished(moves, after["machine"].as_str().unwrap_or("the machine"), score);
                start_next(class, &entry);
            }
            Ok(ok_json(&answer(shared, class, &Role::Student(id))?))
        })
        .await
}

async fn play(
    State(shared): State<Arc<Shared>>,
    role: Option<Extension<Role>>,
    JsonBody(ask): JsonBody<MoveRequest>,
) -> ApiResult {
    act(shared, role, move |s| s.play(&ask.text)).await
}

async fn resign(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    act(shared, role, |s| s.resign()).await
}

/// The teacher ends the turn of the student on the board (who left, or
/// does not move): their game is dropped, no beads change, and the next
/// student's starts.
/// The teacher asks for a new join code (one was seen by someone it should
/// not have been, or joining closed after too many wrong codes): joining
/// opens again; the students in the class stay in it.
async fn new_code(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    if !matches!(role.as_ref().map(|Extension(r)| r), None | Some(Role::Teacher)) {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            "only the teacher may change the join code",
        ));
    }
    let class = class_of(&shared)?;
    class.new_code();
    Ok(ok_json(&answer(&shared, class, &Role::Teacher)?))
}

async fn skip(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    if !matches!(role.as_ref().map(|Extension(r)| r), None | Some(Role::Teacher)) {
        return Err(ApiError::new(ErrorKind::Forbidden, "only the teacher may skip a turn"));
    }
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            not_while_training(&entry)?;
            if class.skip().is_some() {
                // A fresh board: the game left is dropped unplayed.
                shared.change(&entry, |slot| {
                    slot.note = None;
                    Ok(slot.session.new_game()?)
                })?;
            }
            start_next(class, &entry);
            Ok(ok_json(&answer(shared, class, &Role::Teacher)?))
        })
        .await
}

/// Every game the class played (the last thousand), oldest first: the
/// order in which they reinforced the machine. For the teacher.
async fn log(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> Result<Response, ApiError> {
    let class = class_of(&shared)?;
    if !matches!(role.map(|Extension(r)| r), None | Some(Role::Teacher)) {
        return Err(ApiError::new(ErrorKind::Forbidden, "the class's log is the teacher's"));
    }
    Ok(ok_json(&json!({ "games": class.log() })).into_response())
}
