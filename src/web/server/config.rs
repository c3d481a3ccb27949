//! How the server behaves: its limits, and the one file it may use.

use std::path::PathBuf;
use std::time::Duration;

use crate::web::session::limits::Limits;

/// How the server behaves: its limits, and the one file it may use.
#[derive(Clone, Debug)]
pub struct Config {
    /// What one session may hold and do.
    pub limits: Limits,
    /// Sessions (browser tabs) open at once.
    pub max_sessions: usize,
    /// A session unused this long is dropped (unless it is training).
    pub idle: Duration,
    /// The largest request body accepted, but for an uploaded state file.
    pub max_body: usize,
    /// The largest uploaded state file (at least the largest download).
    pub max_upload: usize,
    /// Boxes listed at most by the boxes endpoint.
    pub max_listed_boxes: usize,
    /// `--state`: new tabs start from this machine if the file exists, and
    /// the first tab's machine is saved to it after each game and training run.
    pub state: Option<PathBuf>,
    /// Connections open at once; more are closed as they arrive.
    pub max_connections: usize,
    /// Connections open at once from one address (one device, or a room
    /// behind one router); more from it are closed as they arrive, so that
    /// one device cannot take every connection. A connection carries one
    /// request at a time, so this also caps an address's requests in flight.
    pub max_connections_per_address: usize,
    /// The time a connection has to send a request's head, and the most an
    /// idle connection is kept open.
    pub header_timeout: Duration,
    /// The time a request has to send its body.
    pub body_timeout: Duration,
    /// The most a connection may go without taking any of an answer's
    /// bytes: a reader that stops reading is closed, and the answer it
    /// held let go.
    pub write_timeout: Duration,
    /// Threads doing requests' blocking work (a move, an upload) at once.
    pub workers: usize,
    /// Training slices running at once.
    pub trainers: usize,
    /// Label sheets (PDFs) drawn at once, on their own threads: a sheet of
    /// the most boxes listed takes seconds, and the request workers stay free.
    pub renderers: usize,
    /// Label sheets drawn or waiting at once, in all; more are refused (429).
    pub max_renders: usize,
    /// Large answers (state downloads, box listings of more than a page's
    /// worth) written out at once, on their own threads: the request
    /// workers stay free for the other tabs' moves.
    pub writers: usize,
    /// Large answers held at once, in all, from when they are asked for
    /// until their reader has taken them (or is closed); more are refused
    /// (429). Each may be the size of the largest download.
    pub max_large: usize,
    /// Large answers held at once for one address; more from it are
    /// refused (429), and other addresses are still served.
    pub max_large_per_address: usize,
    /// Host names accepted besides the address served (`--allow-host`).
    pub hosts: Vec<String>,
    /// `--classroom`: one class machine played from the room's devices, a
    /// join code for students and a token for the teacher.
    pub classroom: Option<crate::web::server::class::ClassKeys>,
    /// `--class-mode`: the class plays the machine or is it (none: as the
    /// class was kept, else it plays it).
    pub class_mode: Option<crate::web::server::deal::ClassMode>,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            limits: Limits::default(),
            max_sessions: 32,
            idle: Duration::from_secs(30 * 60),
            max_body: 64 << 10,
            max_upload: 128 << 20,
            max_listed_boxes: menace_web::page::MAX_LISTED_BOXES,
            state: None,
            max_connections: 256,
            max_connections_per_address: 32,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(30),
            workers: 4,
            trainers: cores.max(1),
            renderers: 1,
            max_renders: 8,
            writers: 2,
            max_large: 8,
            max_large_per_address: 2,
            hosts: Vec::new(),
            classroom: None,
            class_mode: None,
        }
    }
}
