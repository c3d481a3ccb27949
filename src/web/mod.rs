//! The classroom: `menace serve`'s web server, a thin layer of JSON
//! endpoints over the page's engine (`menace-web`: sessions, SVG pictures
//! of boards and matchboxes, label sheets), with its page embedded in the
//! program; and label sheets made into PDFs.

pub use menace_web::{font, labels, session, svg};

pub mod pdf;
pub mod server;
