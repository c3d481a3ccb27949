//! The page's engine, for any target: one tab's machine and the JSON the
//! page reads of it ([`session`]), pictures of boards and matchboxes
//! ([`svg`]), label sheets to print ([`labels`]), and the page's requests
//! answered ([`page`]) in one thread, as the page file does with this crate
//! built for WebAssembly ([`local`]). `menace serve` answers the same
//! requests over HTTP with the same session and the same [`page`]
//! functions, so the two cannot say different things.
//!
//! Like `menace-core`, nothing here names a socket, a terminal or the C
//! library; it builds for `wasm32-unknown-unknown`.

pub mod font;
pub mod host;
pub mod labels;
pub mod local;
pub mod page;
pub mod session;
pub mod svg;
