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
use crate::web::server::deal::{change_words, ClassMode};
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
        .route("/api/class/leave", post(leave))
        .route("/api/class/bead", post(bead))
}

/// The bead a box's holder draws: on screen (`draw`), or from a real cup
/// (its `colour`, or `empty` for an empty cup).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawRequest {
    #[serde(default)]
    draw: bool,
    #[serde(default)]
    colour: Option<String>,
    #[serde(default)]
    empty: bool,
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
    if class.mode() == ClassMode::Machine && *role != Role::Guest {
        being_the_machine(class, role, &mut out);
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

/// The class is the machine: whose box the machine draws from now (and
/// whether it is the reader's), and after a game what each holder of a
/// box it changed is to do: the reader's own, or (for the teacher) every
/// pupil's.
fn being_the_machine(class: &Class, role: &Role, out: &mut Json) {
    let view = &out["view"];
    let drawer = view["awaiting_bead"]["box"]
        .as_u64()
        .and_then(|label| class.holder(u32::try_from(label).ok()?));
    let mut changes: Vec<(String, String, String)> = Vec::new();
    if view["board"]["over"] == true {
        for c in view["last_changes"].as_array().into_iter().flatten() {
            let holder = c["box"].as_u64().and_then(|l| class.holder(u32::try_from(l).ok()?));
            let (id, name) = holder.unwrap_or_else(|| (String::new(), "the teacher".to_string()));
            changes.push((id, name, change_words(c)));
        }
    }
    let you = match role {
        Role::Student(id) => Some(id.as_str()),
        _ => None,
    };
    let k = &mut out["class"];
    k["drawer"] = json!(drawer.as_ref().map(|(_, name)| name));
    k["your_draw"] = json!(you.is_some_and(|id| drawer.as_ref().is_some_and(|(h, _)| h == id)));
    match you {
        Some(id) => {
            let yours: Vec<&String> = changes.iter().filter(|(h, _, _)| h == id).map(|(_, _, w)| w).collect();
            k["your_changes"] = json!(yours);
        }
        None => {
            // Pupil by pupil, in the order of the boxes.
            let mut by_pupil: Vec<(String, Vec<String>)> = Vec::new();
            for (_, name, words) in changes {
                match by_pupil.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, lines)) => lines.push(words),
                    None => by_pupil.push((name, vec![words])),
                }
            }
            k["changes"] = json!(by_pupil
                .into_iter()
                .map(|(name, lines)| json!({"name": name, "lines": lines}))
                .collect::<Vec<_>>());
        }
    }
}

/// The class's mode on its machine: being the machine, the machine waits
/// for its beads to be drawn (referee), and its boxes are dealt; playing
/// it, it draws its own.
pub(crate) fn class_mode_applied(shared: &Shared) -> Result<(), ApiError> {
    let Some(class) = shared.class.as_ref() else {
        return Ok(());
    };
    let entry = machine(shared, class)?;
    shared.change(&entry, |slot| {
        slot.idle()?;
        slot.session.set_referee(class.mode() == ClassMode::Machine);
        settle(class, slot)
    })
}

/// Under the machine's lock: a turn whose clock ran out passes (its game
/// dropped), and the next student takes the board if it is free. Every
/// request of the class settles it, so the queue moves on after a game, a
/// skip, a removal or the teacher's training, whoever asks next.
fn settle(class: &Class, slot: &mut Slot) -> Result<(), ApiError> {
    let now = Instant::now();
    if class.mode() == ClassMode::Machine {
        if class.deal_stale(slot.session.box_count()) {
            class.deal_again(slot.session.box_moves());
        }
        // The player's clock stops while a pupil draws the machine's bead.
        if slot.session.view()["awaiting_bead"].is_object() {
            if let Some(number) = class.turns(|t| t.turn().map(|t| t.number)) {
                class.turns(|t| t.moved(number, now));
            }
        }
    }
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
    if unsettled(class, entry) {
        shared.change(entry, |slot| settle(class, slot))?;
    }
    Ok(())
}

/// Whether the class needs settling: the queue, or (the class being the
/// machine) the deal, for a machine whose boxes or pupils changed.
fn unsettled(class: &Class, entry: &Entry) -> bool {
    let boxes = entry.view()["boxes"].as_u64().unwrap_or(0);
    class.turns(|t| t.unsettled(!entry.running(), Instant::now()))
        || class.deal_stale(usize::try_from(boxes).unwrap_or(usize::MAX))
}

/// The class as the request's role sees it; `{"class": null}` from a
/// server that is not a classroom's (the page asks every server).
async fn read(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    let Some(class) = shared.class.as_ref() else {
        return Ok(ok_json(&json!({ "class": null })));
    };
    let role = role.map_or(Role::Teacher, |Extension(r)| r);
    let entry = machine(&shared, class)?;
    if role == Role::Guest || !unsettled(class, &entry) {
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
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            class.set(ask)?;
            if ask.mode.is_some() {
                class_mode_applied(shared)?;
            }
            class.keep();
            Ok(ok_json(&answer(shared, class, &Role::Teacher)?))
        })
        .await
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
                let turn = class.remove(ask.student)?;
                gone(class, slot, turn.is_some())
            })?;
            class.keep();
            Ok(ok_json(&answer(shared, class, &Role::Teacher)?))
        })
        .await
}

/// A student has gone from the class (removed, or left): their game, if
/// they `had_turn` and it had begun, goes with them; the class settles.
fn gone(class: &Class, slot: &mut Slot, had_turn: bool) -> Result<(), ApiError> {
    if had_turn && slot.session.view()["board"]["over"] != true && !slot.progress.running {
        slot.note = None;
        slot.session.new_game()?;
    }
    settle(class, slot)
}

/// A pupil leaves the class: their place is free, their boxes (the class
/// being the machine) are dealt to the others, their turn passes, and
/// their device is a guest's again.
async fn leave(State(shared): State<Arc<Shared>>, role: Option<Extension<Role>>) -> ApiResult {
    let id = student(role)?;
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            let entry = machine(shared, class)?;
            shared.change(&entry, |slot| {
                let turn = class.leave(&id);
                gone(class, slot, turn.is_some())
            })?;
            class.keep();
            let mut response = ok_json(&answer(shared, class, &Role::Guest)?);
            let gone = format!(
                "{}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict",
                Class::STUDENT_COOKIE
            );
            if let Ok(value) = HeaderValue::from_str(&gone) {
                response.headers_mut().append(header::SET_COOKIE, value);
            }
            Ok(response)
        })
        .await
}

/// The class is the machine: the pupil holding the box the machine draws
/// from draws its bead (on screen, or from the real cup and says which),
/// or the teacher draws for them. A pupil may draw only from a box they
/// hold. A game that ends is logged against the turn on the board (a
/// pupil playing the other side), or the teacher's.
async fn bead(
    State(shared): State<Arc<Shared>>,
    role: Option<Extension<Role>>,
    JsonBody(ask): JsonBody<DrawRequest>,
) -> ApiResult {
    let role = role.map_or(Role::Teacher, |Extension(r)| r);
    if role == Role::Guest {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            "only a pupil who joined the class draws from its boxes",
        ));
    }
    shared
        .work(move |shared| {
            let class = class_of(shared)?;
            if class.mode() != ClassMode::Machine {
                return Err(ApiError::conflict(
                    "the class plays the machine now; it is not the machine (the teacher can make it so)",
                ));
            }
            let entry = machine(shared, class)?;
            shared.change(&entry, |slot| {
                slot.idle()?;
                settle(class, slot)?;
                let before = slot.session.view();
                let label = before["awaiting_bead"]["box"]
                    .as_u64()
                    .and_then(|l| u32::try_from(l).ok())
                    .ok_or_else(|| ApiError::conflict("no bead is waited for: it is not the machine's turn to draw"))?;
                if let Role::Student(id) = &role {
                    match class.holder(label) {
                        Some((holder, _)) if holder == *id => {}
                        Some((_, name)) => {
                            return Err(ApiError::new(
                                ErrorKind::Forbidden,
                                format!("box {label} is {name}'s to draw from, not yours"),
                            ))
                        }
                        None => {
                            return Err(ApiError::new(
                                ErrorKind::Forbidden,
                                format!("box {label} is not yours to draw from"),
                            ))
                        }
                    }
                }
                slot.note = None;
                match (ask.draw, ask.colour.as_deref(), ask.empty) {
                    (true, None, false) => slot.session.draw_bead()?,
                    (false, Some(colour), false) => slot.session.bead(Some(colour))?,
                    (false, None, true) => slot.session.bead(None)?,
                    _ => {
                        return Err(ApiError::bad(
                            "expected one of: \"draw\": true, \"colour\": the bead's colour, or \"empty\": true",
                        ))
                    }
                }
                let turn = class.turns(|t| t.turn().map(|t| t.number));
                if let Some(ended) = Ended::between(&before, &slot.session.view(), false) {
                    slot.note = shared.save(slot);
                    match turn {
                        Some(number) => class.finished(number, ended),
                        None => class.teacher_played(ended),
                    }
                }
                settle(class, slot)
            })?;
            class.keep();
            Ok(ok_json(&answer(shared, class, &role)?))
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
