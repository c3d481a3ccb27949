//! A session's curves to download, in the columns `menace run` writes to
//! its `curves.csv`: one seed (the session's), a row for each point the
//! page keeps, as CSV or as JSON (one object a row).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::Router;
use serde_json::{Map, Value as Json};

use crate::web::server::error::{ApiError, ApiResult};
use crate::web::server::extract::Param;
use crate::web::server::reply::attachment;
use crate::web::server::shared::Shared;
use crate::web::server::slot::lock;
use menace_core::experiment::curves::MetricRow;
use menace_core::experiment::report::{curve_cells, curve_columns};

pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/sessions/{id}/curves.csv", get(csv))
        .route("/api/sessions/{id}/curves.json", get(json))
}

/// The curves file's columns and rows (each cell as the CSV writes it) of
/// a session whose page shows `view` and `curves`.
fn table(view: &Json, curves: &Json) -> (Vec<String>, Vec<Vec<String>>) {
    let word = |key: &str| view[key].as_str().unwrap_or_default().to_string();
    let machine = word("machine");
    let opponent = view["trained_against"].as_str().unwrap_or("person").to_string();
    let words = [
        "menace serve".to_string(),
        format!("{machine} learns {}", word("game")),
        word("game"),
        format!("{machine} vs {opponent}"),
        word("machine_side"),
        opponent,
        word("settings"),
        "1".to_string(),
        curves["window"].as_u64().unwrap_or(1).to_string(),
    ];
    let (mut sorted, mut cell) = (Vec::new(), String::new());
    let rows = curves["points"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let g = p["game"].as_u64().unwrap_or(0);
            let metrics = MetricRow::from_named(|name| p[name].as_f64());
            let mut row: Vec<String> = words.to_vec();
            row.push(g.to_string());
            let _ = curve_cells(g, &[metrics], None, &mut sorted, &mut cell, &mut |c: &str| {
                row.push(c.to_string());
                Ok::<(), ()>(())
            });
            row
        })
        .collect();
    (curve_columns(), rows)
}

/// A session's curves table, and its game's spec (for the file's name).
struct Table {
    spec: String,
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// The table of session `id`, from what its page was last shown.
fn session_table(shared: &Shared, id: &str) -> Result<Table, ApiError> {
    let entry = shared.entry(id)?;
    let (view, curves) = {
        let published = lock(&entry.published);
        (published.view.clone(), published.curves.clone())
    };
    let (columns, rows) = table(&view, &curves);
    Ok(Table {
        spec: view["game"].as_str().unwrap_or("game").to_string(),
        columns,
        rows,
    })
}

async fn csv(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    shared
        .work(move |shared| {
            let Table { spec, columns, rows } = session_table(shared, &id)?;
            let mut w = ::csv::Writer::from_writer(Vec::new());
            let written = std::iter::once(&columns)
                .chain(&rows)
                .try_for_each(|r| w.write_record(r));
            let bytes = written
                .map_err(|e| e.to_string())
                .and_then(|()| w.into_inner().map_err(|e| e.to_string()))
                .map_err(ApiError::internal)?;
            Ok(attachment("text/csv", &spec, "-curves.csv", bytes))
        })
        .await
}

/// A cell as a JSON number (a count as an integer), or null when empty.
fn number(cell: &str) -> Json {
    match cell.parse::<i64>() {
        Ok(i) => Json::from(i),
        Err(_) => cell
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Json::Null, Json::Number),
    }
}

/// The same table as JSON: an object a row, numbers as numbers and the
/// empty cells (a rate before any game) as null.
async fn json(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    shared
        .work(move |shared| {
            let Table { spec, columns, rows } = session_table(shared, &id)?;
            // The words before `game` stay text; every cell from `game` on is a number.
            let first_number = columns.iter().position(|c| c == "game").unwrap_or(columns.len());
            let objects: Vec<Json> = rows
                .iter()
                .map(|row| {
                    let map: Map<String, Json> = columns
                        .iter()
                        .zip(row)
                        .enumerate()
                        .map(|(i, (c, v))| {
                            let value = if i < first_number {
                                Json::String(v.clone())
                            } else {
                                number(v)
                            };
                            (c.clone(), value)
                        })
                        .collect();
                    Json::Object(map)
                })
                .collect();
            Ok(attachment(
                "application/json",
                &spec,
                "-curves.json",
                Json::Array(objects).to_string(),
            ))
        })
        .await
}
