//! The server's one error: a kind and what was wrong. Each kind's HTTP
//! status is said here and nowhere else, as is a session's kinds' (a
//! [`SessionError`] says what went wrong, not how HTTP says it).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::web::session::error::SessionError;

/// What sort of refusal an answer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Malformed or impossible: bad JSON, an unknown game, an illegal move.
    BadRequest,
    /// The page of another site, or a request made across sites.
    Forbidden,
    /// No such page, endpoint or session.
    NotFound,
    /// The endpoint does not take this method.
    MethodNotAllowed,
    /// The body was not sent in time.
    SlowBody,
    /// Not now: the machine is training or playing, no game is in progress.
    Conflict,
    /// The body is larger than the server reads.
    TooLarge,
    /// The body is not JSON.
    NotJson,
    /// The `Host` named is not this server's.
    WrongHost,
    /// Well formed, but beyond what the server does for a page.
    OverLimit,
    /// Too many sessions open.
    Full,
    /// A fault of the server's own.
    Internal,
    /// The server is stopping.
    Stopping,
}

impl ErrorKind {
    /// The HTTP status of this kind.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
            ErrorKind::Forbidden => StatusCode::FORBIDDEN,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorKind::SlowBody => StatusCode::REQUEST_TIMEOUT,
            ErrorKind::Conflict => StatusCode::CONFLICT,
            ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorKind::WrongHost => StatusCode::MISDIRECTED_REQUEST,
            ErrorKind::OverLimit => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorKind::Full => StatusCode::TOO_MANY_REQUESTS,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorKind::Stopping => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl From<&SessionError> for ErrorKind {
    fn from(e: &SessionError) -> ErrorKind {
        match e {
            SessionError::Invalid(_) => ErrorKind::BadRequest,
            SessionError::NotNow(_) => ErrorKind::Conflict,
            SessionError::OverLimit(_) => ErrorKind::OverLimit,
            SessionError::Internal(_) => ErrorKind::Internal,
        }
    }
}

/// An error answer: a status and a JSON `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    kind: ErrorKind,
    message: String,
}

impl ApiError {
    /// An error of this kind, with what was wrong.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            message: message.into(),
        }
    }

    /// A bad request (400): the page asked for something that cannot be.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::BadRequest, message)
    }

    /// A conflict (409): the session is in no state to do it now.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Conflict, message)
    }

    /// An internal error (500): the server failed, not the request.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Internal, message)
    }

    /// The server is shutting down (503).
    pub fn stopping() -> ApiError {
        ApiError::new(ErrorKind::Stopping, "the server is stopping")
    }

    /// What sort of refusal it is, and so its status code.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// What was wrong, for the page.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same kind, its message said another way.
    pub fn reworded(self, f: impl FnOnce(&str) -> String) -> ApiError {
        let message = f(&self.message);
        ApiError { message, ..self }
    }
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> ApiError {
        ApiError::new(ErrorKind::from(&e), e.message())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.message }).to_string();
        (
            self.kind.status(),
            [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            body,
        )
            .into_response()
    }
}

/// What a handler answers.
pub type ApiResult = Result<Response, ApiError>;
