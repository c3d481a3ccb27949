//! The accept loop and shutdown: connections capped and timed out, idle
//! sessions swept, and on shutdown training stopped and saved before the
//! connections are closed.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::web::server::class::{Door, Peer};
use crate::web::server::config::Config;
use crate::web::server::hooks::TestHooks;
use crate::web::server::per_address::PerAddress;
use crate::web::server::routes::build;
use crate::web::server::write_timeout::TimedWrites;

/// Serve on `listener` until `shutdown` completes; idle sessions are swept
/// every minute. Connections are capped at `max_connections` (more are
/// closed at once) and time out when idle, slow to send a request, or
/// taking none of an answer for `write_timeout`. On
/// shutdown, training runs stop and save, and connections get a moment to
/// finish their answers.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, config, TestHooks::default(), shutdown).await
}

/// [`serve`] with test hooks set.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    config: Config,
    hooks: TestHooks,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_doors(vec![(listener, Door::Teacher)], config, hooks, shutdown).await
}

/// [`serve_with`] on several listeners, each a door: a classroom listens on
/// the room's address (students, and the teacher by token) and on this
/// computer's own (the teacher). The first listener's address is the one
/// served (its `Host`).
pub async fn serve_doors(
    listeners: Vec<(tokio::net::TcpListener, Door)>,
    config: Config,
    hooks: TestHooks,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;

    let addr = match listeners.first() {
        Some((l, _)) => l.local_addr()?,
        None => return Ok(()),
    };
    let max_connections = config.max_connections.max(1);
    let header_timeout = config.header_timeout;
    let write_timeout = config.write_timeout;
    let (router, shared) = build(config, hooks, addr);
    if let Some(class) = &shared.class {
        // The class machine: the state file's, or the game's own.
        let session = shared
            .make(&crate::web::session::requests::NewMachine::default())
            .map_err(|e| std::io::Error::other(e.message().to_string()))?;
        let (id, _) = shared
            .insert(session)
            .map_err(|e| std::io::Error::other(e.message().to_string()))?;
        let _ = class.session.set(id);
        // With a state file, the class is kept beside it, and restarts as it was.
        if let Some(path) = &shared.config.state {
            class
                .keep_at(crate::web::server::kept::beside(path))
                .map_err(std::io::Error::other)?;
        }
        if let Some(mode) = shared.config.class_mode {
            let ask = crate::web::server::class::ClassSettings {
                mode: Some(mode),
                ..Default::default()
            };
            class
                .set(ask)
                .map_err(|e| std::io::Error::other(e.message().to_string()))?;
            class.keep();
        }
        crate::web::server::routes::class_mode_applied(&shared)
            .map_err(|e| std::io::Error::other(e.message().to_string()))?;
    }
    // Each door's requests carry it; all doors' connections come to one loop.
    let (accepted_tx, mut accepted_rx) = tokio::sync::mpsc::channel(64);
    let mut acceptors = Vec::new();
    for (listener, door) in listeners {
        let routed = router.clone().layer(axum::Extension(door));
        let tx = accepted_tx.clone();
        acceptors.push(tokio::spawn(async move {
            loop {
                let accepted = listener.accept().await;
                let failed = accepted.is_err();
                if tx.send((accepted, routed.clone())).await.is_err() {
                    break;
                }
                if failed {
                    // Out of file descriptors, a connection reset before accept: go on.
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
        }));
    }
    drop(accepted_tx);
    let sweeper = {
        let shared = shared.clone();
        tokio::spawn(async move {
            // The first sweep a minute from now, not at once (an interval's first tick is immediate).
            let minute = Duration::from_secs(60);
            let mut every = tokio::time::interval_at(tokio::time::Instant::now() + minute, minute);
            loop {
                every.tick().await;
                let shared = shared.clone();
                let _ = tokio::task::spawn_blocking(move || shared.expire()).await;
            }
        })
    };
    let connections = Arc::new(Semaphore::new(max_connections));
    let per_address = PerAddress::new(shared.config.max_connections_per_address);
    let (closing, closed) = tokio::sync::watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (accepted, routed) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = accepted_rx.recv() => match accepted {
                Some(a) => a,
                None => break,
            },
        };
        let Ok((stream, peer)) = accepted else { continue };
        // One address's share first: an address over its own cap takes
        // nothing from the others.
        let Some(own) = per_address.take(peer.ip()) else {
            drop(stream);
            continue;
        };
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            // Over the cap: closed at once.
            drop(stream);
            continue;
        };
        // Who is asking, by address: a join code's misses are counted by it.
        let service = TowerToHyperService::new(routed.layer(axum::Extension(Peer(peer.ip()))));
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let _permit = (permit, own);
            let _ = stream.set_nodelay(true);
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
            let stream = TimedWrites::new(stream, write_timeout);
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = closed.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_millis(200), connection).await;
                }
            }
        });
    }
    acceptors.iter().for_each(tokio::task::JoinHandle::abort);
    // Training stops within a move (or an MCTS playout) and saves.
    shared.stop_training(Duration::from_millis(800)).await;
    let _ = closing.send(true);
    let _ = tokio::time::timeout(
        Duration::from_millis(250),
        connections.acquire_many(max_connections as u32),
    )
    .await;
    shared.work.close();
    sweeper.abort();
    shared.rescue()
}

/// A server started on its own threads (for tests and embedding).
pub struct Running {
    /// The address it listens on (the first door's).
    pub addr: SocketAddr,
    /// Every door's address, in the order given.
    pub doors: Vec<SocketAddr>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// Stop it as Ctrl-C does, and wait until it has stopped (training
    /// stopped and saved).
    pub fn shut_down(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Start a server on `addr` (port 0: any free port) on a thread of its own,
/// with a runtime of two worker threads; returns once it listens.
pub fn start(addr: SocketAddr, config: Config) -> std::io::Result<Running> {
    start_with(addr, config, TestHooks::default())
}

/// [`start`] with test hooks set.
pub fn start_with(addr: SocketAddr, config: Config, hooks: TestHooks) -> std::io::Result<Running> {
    start_doors(&[(addr, Door::Teacher)], config, hooks)
}

/// [`start_with`] on several addresses, each a door (a classroom's: the
/// teacher's on the computer's own address, the room's on its network).
/// A later door asked on port 0 takes the first's port, as the command's do.
pub fn start_doors(doors: &[(SocketAddr, Door)], config: Config, hooks: TestHooks) -> std::io::Result<Running> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut listeners: Vec<(tokio::net::TcpListener, Door)> = Vec::new();
    for (addr, door) in doors {
        let mut addr = *addr;
        if let Some((first, _)) = listeners.first().filter(|_| addr.port() == 0) {
            addr.set_port(first.local_addr()?.port());
        }
        listeners.push((runtime.block_on(tokio::net::TcpListener::bind(addr))?, *door));
    }
    let addrs = listeners
        .iter()
        .map(|(l, _)| l.local_addr())
        .collect::<std::io::Result<Vec<_>>>()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let _ = runtime.block_on(serve_doors(listeners, config, hooks, async {
            // Dropped without a word (a test done with it): serve on until the process ends.
            if stopped.await.is_err() {
                std::future::pending::<()>().await;
            }
        }));
        runtime.shutdown_timeout(Duration::from_millis(100));
    });
    Ok(Running {
        addr: addrs
            .first()
            .copied()
            .ok_or_else(|| std::io::Error::other("no door to listen at"))?,
        doors: addrs,
        stop: Some(stop),
        thread: Some(thread),
    })
}
