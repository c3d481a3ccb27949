//! For tests: how requests waited for sessions' locks, counted in moves.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use serde_json::json;

use crate::web::server::error::{ApiError, ApiResult, ErrorKind};
use crate::web::server::reply::json_response;
use crate::web::server::shared::Shared;

/// `/api/stats` (answered only with [`TestHooks::stats`](crate::web::server::hooks::TestHooks::stats)).
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new().route("/api/stats", get(stats))
}

/// For tests (`TestHooks::stats`): how requests waited for sessions, in moves.
async fn stats(State(shared): State<Arc<Shared>>) -> ApiResult {
    if !shared.hooks.stats {
        return Err(ApiError::new(ErrorKind::NotFound, "no page or endpoint at /api/stats"));
    }
    let w = &shared.waits;
    Ok(json_response(
        StatusCode::OK,
        &json!({
            "lock_waits": w.requests.load(Ordering::Relaxed),
            "moves_waited": w.moves.load(Ordering::Relaxed),
            "most_moves_waited": w.most_moves.load(Ordering::Relaxed),
            "renders_asked": shared.renders_asked.load(Ordering::SeqCst),
            "large_held": shared.config.max_large.max(1) - shared.large.available_permits(),
        }),
    ))
}
