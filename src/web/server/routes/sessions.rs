//! Sessions: made, read, closed, and their machine replaced (made anew, or
//! uploaded as a state file); the curves read.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use serde_json::json;

use crate::web::server::error::{ApiError, ApiResult};
use crate::web::server::extract::{JsonBody, Param};
use crate::web::server::guard::BigBody;
use crate::web::server::reply::{json_response, ok_json};
use crate::web::server::routes::checks::{class_machine, not_a_students_turn, not_while_training};
use crate::web::server::shared::Shared;
use crate::web::server::slot::lock;
use crate::web::session::make::load_session;
use crate::web::session::requests::NewMachine;
use crate::web::session::traits::Session;

/// `/api/sessions`, and a session's view, machine and curves (its state
/// upload is routed with the download, in `routes`).
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/sessions", post(create))
        .route("/api/sessions/{id}", get(view).delete(close))
        .route("/api/sessions/{id}/machine", post(new_machine))
        .route("/api/sessions/{id}/curves", get(curves))
}

async fn create(State(shared): State<Arc<Shared>>, JsonBody(ask): JsonBody<NewMachine>) -> ApiResult {
    shared.refuse_while_stopping()?;
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

async fn view(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    let entry = shared.entry(&id)?;
    Ok(ok_json(&entry.view()))
}

async fn close(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    if shared.class.as_ref().and_then(|c| c.session.get()) == Some(&id) {
        return Err(ApiError::conflict(
            "this is the class machine: it cannot be closed while the class runs (stop the server to end the class)",
        ));
    }
    let entry = lock(&shared.sessions).remove(&id).ok_or_else(|| shared.gone(&id))?;
    // Waits for a training slice to let go (a move at most).
    shared
        .work(move |shared| {
            shared.close(&entry);
            Ok(StatusCode::NO_CONTENT.into_response())
        })
        .await
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
            let class = class_machine(shared, &id);
            // Checked again under the lock that makes the change.
            shared.change(&entry, |slot| {
                slot.idle()?;
                not_a_students_turn(shared, &id)?;
                let before = slot.session.view();
                slot.replace(session);
                if let Some(class) = class {
                    // The class's table and log are of the machine replaced.
                    let machine = before["machine"].as_str().unwrap_or("the machine");
                    class.machine_replaced(machine, before["games_played"].as_u64().unwrap_or(0));
                }
                Ok(())
            })?;
            if let Some(class) = class {
                class.keep();
            }
            Ok(ok_json(&entry.view()))
        })
        .await
}

async fn new_machine(
    State(shared): State<Arc<Shared>>,
    Param(id): Param,
    JsonBody(ask): JsonBody<NewMachine>,
) -> ApiResult {
    replace(shared, id, move |shared| shared.make(&ask)).await
}

pub(super) async fn upload(
    State(shared): State<Arc<Shared>>,
    Param(id): Param,
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

async fn curves(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    let entry = shared.entry(&id)?;
    let curves = lock(&entry.published).curves.clone();
    Ok(ok_json(&curves))
}
