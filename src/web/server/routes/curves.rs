//! A session's curves to download, in the columns `menace run` writes to
//! its `curves.csv`: one seed (the session's), a row for each point the
//! page keeps, as CSV or as JSON (one object a row).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::Router;
use serde_json::Value as Json;

use crate::web::server::error::{ApiError, ApiResult};
use crate::web::server::extract::Param;
use crate::web::server::reply::attachment;
use crate::web::server::shared::Shared;
use crate::web::server::slot::lock;
use menace_web::page;

pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/sessions/{id}/curves.csv", get(csv))
        .route("/api/sessions/{id}/curves.json", get(json))
}

/// A session's curves table, and its game's spec (for the file's name).
struct Table {
    spec: String,
    view: Arc<Json>,
    curves: Arc<Json>,
}

/// The table of session `id`, from what its page was last shown.
fn session_table(shared: &Shared, id: &str) -> Result<Table, ApiError> {
    let entry = shared.entry(id)?;
    let (view, curves) = {
        let published = lock(&entry.published);
        (published.view.clone(), published.curves.clone())
    };
    Ok(Table {
        spec: view["game"].as_str().unwrap_or("game").to_string(),
        view,
        curves,
    })
}

async fn csv(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    shared
        .work(move |shared| {
            let Table { spec, view, curves } = session_table(shared, &id)?;
            let bytes = page::curves_csv(&view, &curves)?;
            Ok(attachment("text/csv", &spec, "-curves.csv", bytes))
        })
        .await
}

/// The same table as JSON: an object a row, numbers as numbers and the
/// empty cells (a rate before any game) as null.
async fn json(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    shared
        .work(move |shared| {
            let Table { spec, view, curves } = session_table(shared, &id)?;
            Ok(attachment(
                "application/json",
                &spec,
                "-curves.json",
                page::curves_json(&view, &curves),
            ))
        })
        .await
}
