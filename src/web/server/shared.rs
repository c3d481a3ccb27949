//! What every request and training run shares: the configuration, the
//! session store, the worker pools, the state file and the counts.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, Semaphore};

use crate::web::server::config::Config;
use crate::web::server::error::ApiError;
use crate::web::server::hooks::TestHooks;
use crate::web::server::hosts::Hosts;
use crate::web::server::per_address::PerAddress;
use crate::web::server::slot::Entry;
use crate::web::server::state_file::StateFile;

pub(super) struct Shared {
    pub(super) config: Config,
    pub(super) hooks: TestHooks,
    pub(super) hosts: Hosts,
    pub(super) sessions: Mutex<HashMap<String, Arc<Entry>>>,
    /// Numbers sessions, for the state file's owner.
    pub(super) serial: AtomicUsize,
    /// Requests' blocking work, a fair queue of bounded width.
    pub(super) work: Arc<Semaphore>,
    /// Training slices, a fair queue of bounded width.
    pub(super) train: Arc<Semaphore>,
    /// Bodies larger than `max_body` (uploads) read at once: memory.
    pub(super) big_bodies: Arc<Semaphore>,
    /// Label sheets drawn at once (their own pool, apart from `work`).
    pub(super) renders: Arc<Semaphore>,
    /// Label sheets drawn or waiting now, capped by `max_renders`.
    pub(super) renders_asked: AtomicUsize,
    /// Large answers written at once (their own pool, apart from `work`).
    pub(super) writers: Arc<Semaphore>,
    /// Large answers held, from asked for until taken: `max_large` in all ...
    pub(super) large: Arc<Semaphore>,
    /// ... and `max_large_per_address` from one address.
    pub(super) large_by_address: PerAddress,
    /// Games found too large for a perfect opponent, with why: asked
    /// again, refused at once.
    pub(super) unsolvable: Mutex<HashMap<String, String>>,
    pub(super) state: Option<StateFile>,
    /// Training runs not yet ended, and a signal when one ends.
    pub(super) runs: AtomicUsize,
    pub(super) run_ended: Notify,
    pub(super) stopping: AtomicBool,
    pub(super) waits: Waits,
    /// The classroom, with `--classroom`.
    pub(super) class: Option<crate::web::server::class::Class>,
}

/// How requests waited for sessions' locks, counted in moves (not time, so
/// that the count does not depend on the machine's speed): the moves that
/// training and watched games played in a session while a request waited
/// for it. A player lets go after the move it is playing, so a wait is a
/// move or two; a lock held for a slice of moves, or a whole game, shows.
#[derive(Default)]
pub(super) struct Waits {
    pub(super) requests: AtomicU64,
    pub(super) moves: AtomicU64,
    pub(super) most_moves: AtomicU64,
}

impl Shared {
    /// The shared state of a server at `addr`.
    pub(super) fn new(config: Config, hooks: TestHooks, addr: SocketAddr) -> Arc<Shared> {
        let state = config.state.clone().map(StateFile::new);
        let class = config.classroom.clone().map(crate::web::server::class::Class::new);
        Arc::new(Shared {
            class,
            hosts: Hosts {
                ip: addr.ip(),
                port: addr.port(),
                names: config.hosts.clone(),
                loopback: config.classroom.is_some(),
            },
            work: Arc::new(Semaphore::new(config.workers.max(1))),
            train: Arc::new(Semaphore::new(config.trainers.max(1))),
            big_bodies: Arc::new(Semaphore::new(2)),
            renders: Arc::new(Semaphore::new(config.renderers.max(1))),
            renders_asked: AtomicUsize::new(0),
            writers: Arc::new(Semaphore::new(config.writers.max(1))),
            large: Arc::new(Semaphore::new(config.max_large.max(1))),
            large_by_address: PerAddress::new(config.max_large_per_address),
            unsolvable: Mutex::new(HashMap::new()),
            config,
            sessions: Mutex::new(HashMap::new()),
            serial: AtomicUsize::new(0),
            state,
            runs: AtomicUsize::new(0),
            run_ended: Notify::new(),
            stopping: AtomicBool::new(false),
            waits: Waits::default(),
            hooks,
        })
    }

    /// Refuse new work once the server is stopping.
    pub(super) fn refuse_while_stopping(&self) -> Result<(), ApiError> {
        if self.stopping.load(Ordering::Relaxed) {
            return Err(ApiError::stopping());
        }
        Ok(())
    }
}
