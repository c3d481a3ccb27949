//! The classroom's endpoints: join with the code, read the class (its
//! machine's view, the queue, the students, the log), queue for a game, and
//! play it. Students' games are played one at a time on the class machine,
//! in the order they queued; each reinforces it as it ends.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::web::server::class::{Class, ClassSettings, Ended, Peer, Role};
use crate::web::server::error::{ApiError, ApiResult, ErrorKind};
use crate::web::server::extract::JsonBody;
use crate::web::server::join_qr;
use crate::web::server::reply::ok_json;
use crate::web::server::shared::Shared;
use crate::web::server::slot::{Entry, Slot};
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
        .route("/api/class/settings", post(settings))
        .route("/api/class/rename", post(rename))
        .route("/api/class/remove", post(remove))
}

/// A student's name, and the code they were given.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    code: String,
    #[serde(default)]
    name: String,
}

/// The turn the teacher means to skip (the one their page shows); none:
/// whichever is on the board.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SkipRequest {
    #[serde(default)]
    turn: Option<u64>,
}

/// A student, by their number, and (to rename them) their new name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StudentRequest {
    student: u32,
    #[serde(default)]
    name: Option<String>,
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

/// The class machine's name (HER, MENACE), which no student may take.
fn machine_name(entry: &Entry) -> String {
    entry.view()["machine"].as_str().unwrap_or("the machine").to_string()
}

/// The class as `role` sees it: the class, and (but for a guest) its
/// machine's view; the teacher is told the machine's session too.
fn answer(shared: &Shared, class: &Class, role: &Role) -> Result<Json, ApiError> {
    let mut out = json!({ "class": class.json(role) });
    if *role != Role::Guest {
        out["view"] = (*machine(shared, class)?.view()).clone();
        // A finished game is told to whoever reads it: "You win." to its
        // player, "Ada wins." to the projector and the rest of the class.
        let board = &mut out["view"]["board"];
        if board["over"] == true {
            let history: Vec<String> = serde_json::from_value(board["history"].clone()).unwrap_or_default();
            if let Some(result) = class.result_for(role, &history) {
                board["result"] = json!(result);
            }
        }
    }
    if matches!(role, Role::Student(_)) {
        // The teacher's file is the teacher's business: a student is told
        // what happened, in their words, and nothing of where.
        out["view"]["state_file"] = Json::Null;
        if !out["view"]["message"].is_null() {
            out["view"]["message"] =
                json!("The class machine could not be saved just now; the teacher's screen says why.");
        }
    }
    if *role == Role::Teacher {
        out["session"] = json!(class.session.get());
        // The room's address: the first the server answers to.
        let room = shared.hosts.describe();
        let join = format!("http://{}/", room.split(", ").next().unwrap_or_default());
        out["join_qr"] = json!(join_qr::svg(&join));
        out["join"] = json!(join);
    }
    Ok(out)
}

/// Under the machine's lock: a turn whose clock ran out passes (its game
/// dropped), and the next student takes the board if it is free. Every
/// request of the class settles it, so the queue moves on after a game, a
/// skip, a removal or the teacher's training, whoever asks next.
fn settle(class: &Class, slot: &mut Slot) -> Result<(), ApiError> {
    let now = Instant::now();
    if let Some(number) = class.turns(|t| t.expired(now)) {
        drop_turn(
            class,
            slot,
            number,
            "Your time to move ran out: the turn passed to the next student.",
        )?;
    }
    let free = !slot.progress.running && !slot.watching;
    if class.turns(|t| t.advance(free, now).is_some()) {
        // A game the teacher left unfinished is not the student's to go on with.
        let view = slot.session.view();
        if view["board"]["over"] != true && view["board"]["history"].as_array().is_some_and(|h| !h.is_empty()) {
            slot.note = None;
            slot.session.new_game()?;
        }
    }
    Ok(())
}

/// Turn `number` ends unplayed, its student told `why`: the game of it
/// on the board, if it has begun, is dropped (no beads change). The game
/// before, shown until the turn's student starts theirs, stays. Whether
/// it was still on the board.
fn drop_turn(class: &Class, slot: &mut Slot, number: u64, why: &str) -> Result<bool, ApiError> {
    let Some(turn) = class.turns(|t| t.end(number)) else {
        return Ok(false);
    };
    class.tell(&turn.id, why);
    if slot.session.view()["board"]["over"] != true {
        slot.note = None;
        slot.session.new_game()?;
    }
    Ok(true)
}

/// Settle the class if it needs it (a cheap look first: the pages of the
/// whole room ask every second).
fn settled(shared: &Shared, class: &Class, entry: &Entry) -> Result<(), ApiError> {
    if class.turns(|t| t.unsettled(!entry.running(), Instant::now())) {
        shared.change(entry, |slot| settle(class, slot))?;
    }
    Ok(())
}

/// The class as the request's role sees it; `{"class": null}` from a
/// server that is not a classroom's (the page asks every server).
async fn read(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    let Some(class) = shared.class.as_ref() else {
        return Ok(ok_json(&json!({ "class": null })));
    };
    let role = role.map_or(Role::Teacher, |Extension(r)| r);
    let entry = machine(&shared, class)?;
    if role == Role::Guest || !class.turns(|t| t.unsettled(!entry.running(), Instant::now())) {
        return Ok(ok_json(&answer(&shared, class, &role)?));
    }
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            settled(shared, class, &entry)?;
            class.keep();
            Ok(ok_json(&answer(shared, class, &role)?))
        })
        .await
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
    let entry = machine(&shared, class)?;
    let (id, cookie) = class.join(&ask.code, &ask.name, device, &machine_name(&entry))?;
    class.keep();
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

/// The teacher (or a router used without the guard), or a refusal saying `what`.
fn teacher(role: &Option<Extension<Role>>, what: &str) -> Result<(), ApiError> {
    match role.as_ref().map(|Extension(r)| r) {
        None | Some(Role::Teacher) => Ok(()),
        _ => Err(ApiError::new(
            ErrorKind::Forbidden,
            format!("only the teacher may {what}"),
        )),
    }
}

/// A student queues for a game; the student whose turn it is starts
/// theirs, where the board shows one that ended (or none).
async fn queue(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    let id = student(role)?;
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            class.turns(|t| t.enqueue(&id));
            shared.change(&entry, |slot| {
                settle(class, slot)?;
                let theirs = class.turns(|t| t.turn().filter(|t| t.id == id).map(|t| t.number));
                if let Some(number) = theirs {
                    if slot.session.view()["board"]["over"] == true {
                        slot.note = None;
                        slot.session.new_game()?;
                        class.turns(|t| t.moved(number, Instant::now()));
                    }
                }
                Ok(())
            })?;
            class.keep();
            Ok(ok_json(&answer(shared, class, &Role::Student(id))?))
        })
        .await
}

/// The playing student's move or resignation on the class machine. The
/// turn is checked and the move played under the machine's one lock, so a
/// skip or the clock lands before it or after it, never between; a game
/// that ends is logged against that turn, and the next student's begins.
async fn act(
    shared: Arc<Shared>,
    role: Option<Extension<Role>>,
    resigned: bool,
    f: impl FnOnce(&mut dyn Played) -> Result<(), SessionError> + Send + 'static,
) -> ApiResult {
    let id = student(role)?;
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            shared.change(&entry, |slot| {
                slot.idle()?;
                settle(class, slot)?;
                let number = class
                    .turns(|t| t.turn().filter(|t| t.id == id).map(|t| t.number))
                    .ok_or_else(|| {
                        ApiError::conflict(match class.turns(|t| t.place(&id)) {
                            Some(k) => format!("it is not your turn yet: you are number {k} in the queue"),
                            None => "it is not your turn: press Play a game to join the queue".to_string(),
                        })
                    })?;
                let before = slot.session.view();
                slot.note = None;
                f(slot.session.as_mut())?;
                class.turns(|t| t.moved(number, Instant::now()));
                if let Some(ended) = Ended::between(&before, &slot.session.view(), resigned) {
                    slot.note = shared.save(slot);
                    class.finished(number, ended);
                    settle(class, slot)?;
                }
                Ok(())
            })?;
            class.keep();
            Ok(ok_json(&answer(shared, class, &Role::Student(id))?))
        })
        .await
}

async fn play(
    State(shared): State<Arc<Shared>>,
    role: Option<Extension<Role>>,
    JsonBody(ask): JsonBody<MoveRequest>,
) -> ApiResult {
    act(shared, role, false, move |s| s.play(&ask.text)).await
}

async fn resign(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    act(shared, role, true, |s| s.resign()).await
}

/// The teacher asks for a new join code (one was seen by someone it should
/// not have been, or joining closed after too many wrong codes): joining
/// opens again; the students in the class stay in it.
async fn new_code(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    teacher(&role, "change the join code")?;
    let class = class_of(&shared)?;
    class.new_code();
    class.keep();
    Ok(ok_json(&answer(&shared, class, &Role::Teacher)?))
}

/// The teacher ends the turn of the student on the board (who left, or
/// does not move): the turn the teacher's page showed, so that a skip sent
/// as that student's game ends does not skip the next student. Its game
/// is dropped, no beads change, and the next student's turn begins.
async fn skip(
    State(shared): State<Arc<Shared>>,
    role: Option<Extension<Role>>,
    JsonBody(ask): JsonBody<SkipRequest>,
) -> ApiResult {
    teacher(&role, "skip a turn")?;
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            shared.change(&entry, |slot| {
                slot.idle()?;
                let on_board = class.turns(|t| t.turn().map(|t| t.number));
                if let Some(number) = ask.turn.or(on_board) {
                    if !drop_turn(
                        class,
                        slot,
                        number,
                        "The teacher skipped your turn: press Play a game to queue again.",
                    )? {
                        return Err(ApiError::conflict(format!(
                            "turn {number} has ended already: nothing was skipped"
                        )));
                    }
                }
                settle(class, slot)
            })?;
            class.keep();
            Ok(ok_json(&answer(shared, class, &Role::Teacher)?))
        })
        .await
}

/// The teacher's settings: seconds for each move, students per device.
async fn settings(
    State(shared): State<Arc<Shared>>,
    role: Option<Extension<Role>>,
    JsonBody(ask): JsonBody<ClassSettings>,
) -> ApiResult {
    teacher(&role, "change the class's settings")?;
    let class = class_of(&shared)?;
    class.set(ask)?;
    class.keep();
    Ok(ok_json(&answer(&shared, class, &Role::Teacher)?))
}

/// The teacher renames a student (a rude name, a typo).
async fn rename(
    State(shared): State<Arc<Shared>>,
    role: Option<Extension<Role>>,
    JsonBody(ask): JsonBody<StudentRequest>,
) -> ApiResult {
    teacher(&role, "rename a student")?;
    let class = class_of(&shared)?;
    let entry = machine(&shared, class)?;
    let name = ask
        .name
        .ok_or_else(|| ApiError::bad("name is missing: expected the student's new name"))?;
    class.rename(ask.student, &name, &machine_name(&entry))?;
    class.keep();
    Ok(ok_json(&answer(&shared, class, &Role::Teacher)?))
}

/// The teacher removes a student: their place in the class is free, their
/// device a guest's; their turn, if they had it, passes.
async fn remove(
    State(shared): State<Arc<Shared>>,
    role: Option<Extension<Role>>,
    JsonBody(ask): JsonBody<StudentRequest>,
) -> ApiResult {
    teacher(&role, "remove a student")?;
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            shared.change(&entry, |slot| {
                // Their game, if it had begun, goes with them.
                let had_turn = class.remove(ask.student)?.is_some();
                if had_turn && slot.session.view()["board"]["over"] != true && !slot.progress.running {
                    slot.note = None;
                    slot.session.new_game()?;
                }
                settle(class, slot)
            })?;
            class.keep();
            Ok(ok_json(&answer(shared, class, &Role::Teacher)?))
        })
        .await
}

/// Every game the class played (the last thousand), oldest first: the
/// order in which they reinforced the machine. For the teacher.
async fn log(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> Result<Response, ApiError> {
    let class = class_of(&shared)?;
    teacher(&role, "read the class's log")
        .map_err(|_| ApiError::new(ErrorKind::Forbidden, "the class's log is the teacher's"))?;
    Ok(ok_json(&json!({ "games": class.log() })).into_response())
}
