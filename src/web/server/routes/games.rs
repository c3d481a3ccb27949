//! The games the page offers, and one game spec checked.

use axum::response::Response;
use axum::routing::get;
use axum::Router;
use menace_web::page;

use crate::web::server::error::ApiResult;
use crate::web::server::extract::Param;
use crate::web::server::reply::ok_json;

/// `/api/games`, `/api/games/{spec}`.
pub(super) fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/api/games", get(games))
        .route("/api/games/{spec}", get(one_game))
}

/// One game spec, checked: its entry, or what is wrong with it.
async fn one_game(Param(spec): Param) -> ApiResult {
    Ok(ok_json(&page::one_game(&spec)?))
}

/// The games the page offers (the registry's examples), with their sides
/// and historical machines.
async fn games() -> Response {
    ok_json(&page::catalogue())
}
