//! Error types shared across the layers: a value that could not be read, and
//! a problem at one field of a file.

use std::fmt;

/// A value (an option, a setting, a size, a name) that could not be read,
/// with what it was for and what was wrong or expected.
///
/// ```
/// use menace::machine::settings::BoxMode;
/// let e = BoxMode::parse("sometimes").unwrap_err();
/// assert_eq!(e.what, "box mode");
/// assert_eq!(e.to_string(), "box mode 'sometimes': expected auto, enumerate or first-visit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} '{text}': {problem}")]
pub struct InvalidValue {
    /// What the value is for (`bead schedule`, `width`, `opponent`).
    pub what: &'static str,
    /// The text as given.
    pub text: String,
    /// What was wrong, and what was expected.
    pub problem: String,
}

impl InvalidValue {
    /// A value `text` for `what` refused because of `problem`.
    pub fn new(what: &'static str, text: impl fmt::Display, problem: impl Into<String>) -> InvalidValue {
        InvalidValue {
            what,
            text: text.to_string(),
            problem: problem.into(),
        }
    }
}

/// A problem at one field of a file, named by its path (`arms[1].opponent`,
/// `machine.boxes[3].position`); an empty path is the file as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field's path.
    pub field: String,
    /// What was wrong and what was expected.
    pub reason: String,
}

impl FieldError {
    /// A problem at `field`.
    pub fn new(field: impl Into<String>, reason: impl fmt::Display) -> FieldError {
        FieldError {
            field: field.into(),
            reason: reason.to_string(),
        }
    }

    /// The same problem seen from the field's parent: `parent.field`.
    pub fn within(self, parent: &str) -> FieldError {
        let field = match (parent.is_empty(), self.field.is_empty()) {
            (true, _) => self.field,
            (false, true) => parent.to_string(),
            (false, false) if self.field.starts_with('[') => format!("{parent}{}", self.field),
            (false, false) => format!("{parent}.{}", self.field),
        };
        FieldError { field, ..self }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.reason)
        } else {
            write!(f, "{}: {}", self.field, self.reason)
        }
    }
}

impl std::error::Error for FieldError {}
