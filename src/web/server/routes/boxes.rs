//! A session's boxes listed, a page at a time, drawn off the lock.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::Router;

use crate::web::server::error::{ApiError, ApiResult};
use crate::web::server::extract::{Address, Param};
use crate::web::server::reply::ok_json;
use crate::web::server::shared::Shared;
use crate::web::session::requests::BoxQuery;

/// A session's boxes.
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new().route("/api/sessions/{id}/boxes", get(boxes))
}

/// Boxes a page at most for a listing to be answered by the request
/// workers; a longer one (2 000 boxes of Mini Hexchess are 31 MB) is a
/// large answer, written on the writers' pool and counted against its address.
const SHORT_LISTING: usize = 100;

async fn boxes(
    State(shared): State<Arc<Shared>>,
    Param(id): Param,
    Address(peer): Address,
    query: Result<axum::extract::Query<BoxQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult {
    let axum::extract::Query(query) = query.map_err(|e| ApiError::bad(format!("boxes: {}", e.body_text())))?;
    let long = query.per_page.is_some_and(|n| n > SHORT_LISTING);
    let list = move |shared: &Arc<Shared>| {
        let entry = shared.entry(&id)?;
        let limit = shared.config.max_listed_boxes;
        // The boxes shown are copied under the lock and drawn after it.
        let listed = shared.read(&entry, |slot| Ok(slot.session.boxes(&query, limit)?))?;
        Ok(ok_json(&listed.run()))
    };
    if long {
        shared.write_large(peer, list).await
    } else {
        shared.work(list).await
    }
}
