//! The router: each resource's routes merged, the fallbacks, and the guard
//! every request passes first.

mod boxes;
mod checks;
mod class;
pub(super) use class::class_mode_applied;
mod curves;
mod downloads;
mod games;
mod play;
mod sessions;
mod stats;
mod training;
mod watch;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use axum::middleware;
use axum::routing::get;
use axum::Router;

use crate::web::server::assets;
use crate::web::server::config::Config;
use crate::web::server::error::{ApiError, ErrorKind};
use crate::web::server::guard::guard;
use crate::web::server::hooks::TestHooks;
use crate::web::server::shared::Shared;

/// The router of the page and its endpoints, for a server at `addr`.
pub fn router(config: Config, addr: SocketAddr) -> Router {
    build(config, TestHooks::default(), addr).0
}

/// The router, and the state its handlers share.
pub(super) fn build(config: Config, hooks: TestHooks, addr: SocketAddr) -> (Router, Arc<Shared>) {
    let shared = Shared::new(config, hooks, addr);
    let router = Router::new()
        .merge(assets::router())
        .merge(games::router())
        .merge(sessions::router())
        .route(
            "/api/sessions/{id}/state",
            get(downloads::download).put(sessions::upload),
        )
        .merge(play::router())
        .merge(training::router())
        .merge(watch::router())
        .merge(boxes::router())
        .merge(downloads::router())
        .merge(curves::router())
        .merge(class::router())
        .merge(stats::router())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        // The guard reads bodies, within its own limits.
        .layer(DefaultBodyLimit::disable())
        .layer(middleware::from_fn_with_state(shared.clone(), guard))
        .with_state(shared.clone());
    (router, shared)
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(ErrorKind::NotFound, format!("no page or endpoint at {}", uri.path()))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        ErrorKind::MethodNotAllowed,
        format!("{method} is not allowed on {}", uri.path()),
    )
}
