//! Error types shared across the layers: a value that could not be read, and
//! a problem at one field of a file.

use std::fmt;

/// The most characters of a value an error message echoes.
pub const SHOWN_CHARS: usize = 80;

/// Untrusted text as an error message shows it: control and direction
/// characters escaped (`\u{202e}`, `\0`), and cut to [`SHOWN_CHARS`].
///
/// ```
/// use menace_core::error::shown;
/// assert_eq!(shown("b2"), "b2");
/// assert_eq!(shown("a\u{202e}b\0"), "a\\u{202e}b\\0");
/// assert!(shown(&"x".repeat(10_000)).ends_with("… (9920 more characters)"));
/// ```
pub fn shown(text: &str) -> String {
    shown_to(text, SHOWN_CHARS)
}

/// The most characters of a reason an error gives (a file's field, a
/// parser's complaint, which may quote untrusted text of any length).
pub const REASON_CHARS: usize = 1_000;

/// [`shown`] with another length: control and direction characters
/// escaped, and cut after `most` characters.
///
/// ```
/// use menace_core::error::shown_to;
/// assert_eq!(shown_to("a\nb", 10), "a\\nb");
/// assert_eq!(shown_to("abcdef", 2), "ab… (4 more characters)");
/// ```
pub fn shown_to(text: &str, most: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == most {
            let rest = text.chars().count() - most;
            out.push_str(&format!("… ({rest} more characters)"));
            break;
        }
        let hidden =
            c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if hidden {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A value (an option, a setting, a size, a name) that could not be read,
/// with what it was for and what was wrong or expected.
///
/// ```
/// use menace_core::machine::settings::BoxMode;
/// let e = BoxMode::parse("sometimes").unwrap_err();
/// assert_eq!(e.what, "box mode");
/// assert_eq!(e.to_string(), "box mode 'sometimes': expected auto, enumerate or first-visit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} '{}': {problem}", shown(text))]
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
        // The reason may quote a file's text: shown escaped and cut.
        let reason = shown_to(&self.reason, REASON_CHARS);
        if self.field.is_empty() {
            f.write_str(&reason)
        } else {
            write!(f, "{}: {reason}", shown(&self.field))
        }
    }
}

impl std::error::Error for FieldError {}
