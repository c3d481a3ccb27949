//! `menace serve`: the page (HTML, CSS, JS and the font, all embedded) and
//! a thin layer of JSON endpoints over [`crate::web::session`], one session
//! per browser tab.
//!
//! Each session has one owner of its state, a lock held for the whole of
//! every check-and-change, and a generation number that a training run
//! carries: a run whose session was replaced or closed touches nothing.
//! Training runs in short slices on a bounded pool of threads, a move at a
//! time, and publishes a snapshot of the view after each slice, so reading a
//! tab's view never waits for its machine. Every request is bounded before
//! work starts (body size and read time, the cost of a solve or an upload),
//! connections are capped and time out, and the only file touched is the
//! `--state` file.
//!
//! One job a file:
//! - `config`: the limits and the state file ([`Config`]); `hooks`: what only
//!   tests set ([`TestHooks`], [`Gate`]);
//! - `error`: [`ApiError`], its kinds and their status codes;
//! - `extract`: the JSON body extractor; `guard`: the check of every
//!   request (hosts, body type, size and time); `hosts`: the host names
//!   allowed; `reply`: JSON answers, attachments, and large answers held
//!   until taken;
//! - `shared`: what requests share; `slot`: a session's one owner and its
//!   lock; `store`: the sessions by id, changed under their lock, reset after
//!   a panic; `view`: what readers see; `schedule`: the worker pools and
//!   training's slices; `state_file`: the `--state` file; `per_address`:
//!   what one address holds, capped; `write_timeout`: a connection whose
//!   reader stops taking an answer fails;
//! - `class`: the classroom (`--classroom`): who a request is (teacher,
//!   student, guest), the join code, the queue of students and the log;
//!   `join_qr`: the join address as a QR code for the projector; `deal`:
//!   the class as the machine, its boxes dealt among the pupils;
//! - `assets`: the page; `routes`: the router and one file a resource;
//! - `serve`: the accept loop and shutdown.

mod assets;
mod class;
mod config;
mod deal;
mod error;
mod extract;
mod guard;
mod hooks;
mod hosts;
mod join_qr;
mod joins;
mod kept;
mod names;
mod per_address;
mod reply;
mod routes;
mod schedule;
mod serve;
mod shared;
mod slot;
mod state_file;
mod store;
mod turns;
mod view;
mod write_timeout;

pub use class::{kept_keys, ClassKeys, Door};
pub use config::Config;
pub use deal::ClassMode;
pub use error::{ApiError, ErrorKind};
pub use hooks::{Gate, TestHooks};
pub use routes::router;
pub use serve::{serve, serve_doors, serve_with, start, start_doors, start_with, Running};
