//! Answers of the endpoints: JSON, and attachments to download.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value as Json;

pub(super) fn json_response(status: StatusCode, value: &Json) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        value.to_string(),
    )
        .into_response()
}

/// A JSON answer, `200 OK`.
pub(super) fn ok_json(value: &Json) -> Response {
    json_response(StatusCode::OK, value)
}

/// An attachment's headers: its type, and a file name made of `spec`.
pub(super) fn attachment(kind: &'static str, spec: &str, suffix: &str, body: impl IntoResponse) -> Response {
    let disposition = format!("attachment; filename=\"{}\"", menace_web::page::file_name(spec, suffix));
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).unwrap_or(HeaderValue::from_static("attachment")),
            ),
        ],
        body,
    )
        .into_response()
}
