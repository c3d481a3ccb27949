//! The classroom: SVG pictures of boards and matchboxes (the page and the
//! printed labels of `menace boxes --pdf`/`--svg` share them), the label
//! sheets, and `menace serve`'s
//! web server, a thin layer of JSON endpoints over the match driver, with
//! its page embedded in the program.

pub mod labels;
pub mod server;
pub mod session;
pub mod svg;
