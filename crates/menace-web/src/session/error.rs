//! What went wrong with a request to a session, by kind: the kind says what
//! sort of refusal it is, the text what was wrong. No HTTP here: the server
//! maps kinds to status codes in one place (`web::server::error`).

/// A request a session cannot carry out, by kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The request asks for something impossible: an unknown game, an
    /// illegal move, a bad setting.
    #[error("{0}")]
    Invalid(String),
    /// Not now: no game in progress, or it is the machine's turn.
    #[error("{0}")]
    NotNow(String),
    /// Well formed, but beyond what a page's session does: a machine with
    /// too many boxes, a game too large to solve.
    #[error("{0}")]
    OverLimit(String),
    /// A fault of the program's own (a panic while making an opponent).
    #[error("{0}")]
    Internal(String),
}

impl SessionError {
    /// What was wrong, for the page.
    pub fn message(&self) -> &str {
        match self {
            SessionError::Invalid(m)
            | SessionError::NotNow(m)
            | SessionError::OverLimit(m)
            | SessionError::Internal(m) => m,
        }
    }
}

pub(crate) fn invalid(e: impl std::fmt::Display) -> SessionError {
    SessionError::Invalid(e.to_string())
}

pub(crate) fn over_limit(e: impl std::fmt::Display) -> SessionError {
    SessionError::OverLimit(e.to_string())
}
