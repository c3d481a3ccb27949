//! A person's game against the machine: a new game, a move, resigning.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::Router;

use crate::web::server::class::Ended;
use crate::web::server::error::ApiResult;
use crate::web::server::extract::{JsonBody, Param};
use crate::web::server::reply::ok_json;
use crate::web::server::routes::checks::{class_machine, not_a_students_turn, not_while_training};
use crate::web::server::shared::Shared;
use crate::web::session::error::SessionError;
use crate::web::session::requests::{BeadRequest, MoveRequest, RefereeRequest};
use crate::web::session::traits::Played;

/// A session's game, move and resign.
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/sessions/{id}/game", post(new_game))
        .route("/api/sessions/{id}/move", post(play))
        .route("/api/sessions/{id}/resign", post(resign))
        .route("/api/sessions/{id}/bead", post(bead))
        .route("/api/sessions/{id}/referee", post(referee))
}

async fn bead(State(shared): State<Arc<Shared>>, Param(id): Param, JsonBody(ask): JsonBody<BeadRequest>) -> ApiResult {
    act(shared, id, false, move |s| s.bead(ask.colour.as_deref())).await
}

async fn referee(
    State(shared): State<Arc<Shared>>,
    Param(id): Param,
    JsonBody(ask): JsonBody<RefereeRequest>,
) -> ApiResult {
    act(shared, id, false, move |s| {
        s.set_referee(ask.on);
        Ok(())
    })
    .await
}

/// Run `f` on an idle session, save the machine if a game ended, and
/// answer with the view. On the class machine, not during a student's
/// turn, and a game that ends is logged with the students' (`resigned`:
/// `f` resigns).
async fn act(
    shared: Arc<Shared>,
    id: String,
    resigned: bool,
    f: impl FnOnce(&mut dyn Played) -> Result<(), SessionError> + Send + 'static,
) -> ApiResult {
    shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            not_while_training(&entry)?;
            let class = class_machine(shared, &id);
            shared.change(&entry, |slot| {
                slot.idle()?;
                not_a_students_turn(shared, &id)?;
                slot.note = None;
                let before = class.map(|_| slot.session.view());
                let played = slot.session.games_played();
                f(slot.session.as_mut())?;
                if slot.session.games_played() != played {
                    slot.note = shared.save(slot);
                    let ended = before.and_then(|b| Ended::between(&b, &slot.session.view(), resigned));
                    if let (Some(class), Some(ended)) = (class, ended) {
                        class.teacher_played(ended);
                    }
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

async fn new_game(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    act(shared, id, false, |s| s.new_game()).await
}

async fn play(State(shared): State<Arc<Shared>>, Param(id): Param, JsonBody(ask): JsonBody<MoveRequest>) -> ApiResult {
    act(shared, id, false, move |s| s.play(&ask.text)).await
}

async fn resign(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    act(shared, id, true, |s| s.resign()).await
}
