//! Answers of the endpoints: JSON, attachments to download, and large
//! answers held against their limits until their reader has taken them.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use hyper::body::{Buf, Bytes, Frame, SizeHint};
use serde_json::Value as Json;

/// The bytes of a large answer handed to the connection at a time.
const PIECE: usize = 64 << 10;

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

/// `response` with `held` (its places among the large answers) kept until
/// its reader has taken the body or the connection is gone. The body goes
/// to the connection a copy of a piece at a time, so that what the
/// connection has queued but not written is a few pieces, not the answer:
/// the answer and `held` are let go together.
pub(super) fn held_until_taken(response: Response, held: impl Send + Unpin + 'static) -> Response {
    response.map(|body| {
        Body::new(Pieces {
            body,
            left: Bytes::new(),
            _held: held,
        })
    })
}

/// A body handed over in pieces, holding what it was counted against.
struct Pieces<H> {
    body: Body,
    /// What the body gave and has not been handed over yet.
    left: Bytes,
    _held: H,
}

impl<H: Unpin> hyper::body::Body for Pieces<H> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        while this.left.is_empty() {
            match std::task::ready!(Pin::new(&mut this.body).poll_frame(cx)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => this.left = data,
                    Err(frame) => return Poll::Ready(Some(Ok(frame))),
                },
                other => return Poll::Ready(other),
            }
        }
        let n = this.left.len().min(PIECE);
        let piece = Bytes::copy_from_slice(&this.left[..n]);
        this.left.advance(n);
        if this.left.is_empty() {
            // The answer let go as soon as its last piece is handed over.
            this.left = Bytes::new();
        }
        Poll::Ready(Some(Ok(Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.left.is_empty() && self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let inner = self.body.size_hint();
        let left = self.left.len() as u64;
        let mut hint = SizeHint::new();
        hint.set_lower(inner.lower() + left);
        if let Some(upper) = inner.upper() {
            hint.set_upper(upper + left);
        }
        hint
    }
}
