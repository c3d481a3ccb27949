//! What a tab downloads: its machine's state file, and its matchbox labels as a PDF.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, Uri};
use axum::routing::get;
use axum::Router;

use crate::web::labels::{LabelError, Paper};
use crate::web::pdf::pdf_of_state;
use crate::web::server::error::{ApiError, ApiResult, ErrorKind};
use crate::web::server::extract::{Address, Param};
use crate::web::server::reply::attachment;
use crate::web::server::shared::Shared;
use crate::web::server::slot::{Entry, Slot};

/// A session's labels (its state download is routed with the upload, in `routes`).
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new().route("/api/sessions/{id}/labels.pdf", get(labels_pdf))
}

/// A session's state file as it is now, written out after its lock is let
/// go; its game spec, for the file's name. `check` refuses before the copy.
fn state_of(
    shared: &Shared,
    entry: &Entry,
    check: impl FnOnce(&Slot) -> Result<(), ApiError>,
) -> Result<(String, String), ApiError> {
    let (state, spec) = shared.read(entry, |slot| {
        check(slot)?;
        Ok((slot.session.state(), slot.spec.clone()))
    })?;
    Ok((state.run(), spec))
}

/// The tab's machine as a state file: a large answer, written on the
/// writers' pool and counted against its address until taken.
pub(super) async fn download(State(shared): State<Arc<Shared>>, Param(id): Param, Address(peer): Address) -> ApiResult {
    shared
        .write_large(peer, move |shared| {
            let entry = shared.entry(&id)?;
            let (text, spec) = state_of(shared, &entry, |_| Ok(()))?;
            Ok(attachment("application/json", &spec, ".json", text))
        })
        .await
}

/// The tab's machine as matchbox labels to print, the PDF `menace boxes
/// --pdf` writes: on the paper `?paper=a4|letter` names, else on that of the
/// browser's first language (Letter for `en-US`), else A4.
async fn labels_pdf(State(shared): State<Arc<Shared>>, Param(id): Param, uri: Uri, headers: HeaderMap) -> ApiResult {
    let asked = uri
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("paper=")))
        .map(Paper::parse);
    let language = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Paper::of_accept_language);
    let paper = match asked {
        Some(p) => p.map_err(|e| ApiError::bad(e.to_string()))?,
        None => language.unwrap_or(Paper::A4),
    };
    let entry = shared.entry(&id)?;
    shared
        .render(entry, move |shared, entry| {
            let limit = shared.config.max_listed_boxes;
            let (text, spec) = state_of(shared, entry, |slot| {
                let boxes = slot.session.box_count();
                if boxes > limit {
                    return Err(ApiError::new(
                        ErrorKind::OverLimit,
                        format!("the machine has {boxes} boxes; the page prints at most {limit}: download it and print with `menace boxes GAME --state FILE --pdf labels.pdf`"),
                    ));
                }
                Ok(())
            })?;
            let pdf = pdf_of_state(&text, paper).map_err(|e| match e {
                LabelError::Pdf(m) => ApiError::internal(m),
                e => ApiError::new(ErrorKind::OverLimit, e.to_string()),
            })?;
            Ok(attachment("application/pdf", &spec, "-labels.pdf", pdf))
        })
        .await
}
