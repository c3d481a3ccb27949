//! One browser tab's machine: a trainer, the game a person is playing
//! against it through the match driver, the opponent it last trained
//! against, its curves, and what it last did (the box it drew from, the
//! beads a game added or removed), as JSON for the page.
//!
//! - [`error`]: what went wrong, by kind (no HTTP: the server maps kinds to codes);
//! - [`limits`]: bounds on what one session may hold;
//! - [`requests`]: what a page asks for, as the JSON bodies it sends;
//!   [`seed`]: seeds in JSON, exact above 2^53;
//! - [`apart`]: the work done off the session's lock, and the signals to a player under it;
//! - [`opponents`]: the opponents a page may use, within its limits;
//! - [`traits`]: what the server asks of a session;
//! - [`make`]: a session made fresh or from a state file;
//! - `game`: the session of one game, its typed records and views.

pub mod apart;
pub mod error;
pub(crate) mod game;
pub mod limits;
pub mod make;
pub mod opponents;
pub mod requests;
pub mod seed;
pub mod traits;

pub use apart::{Deferred, Made, Pending, Signals, Trained, Watched};
pub use error::SessionError;
pub use limits::Limits;
pub use make::{check_state_file, load_session, new_session};
pub use opponents::parse_opponent;
pub use requests::{BoxQuery, MoveRequest, NewMachine, TrainRequest, WatchRequest};
pub use traits::Session;
