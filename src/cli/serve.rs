//! `menace serve`: the classroom web page on a local server.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, Context};
use clap::Args;

use menace::fsutil::{check_writable, lock, read_regular_text, remove_leftovers};
use menace::web::server::{serve_with, Config, TestHooks};
use menace::web::session::load_session;

#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The address to listen on; only this computer can reach the default.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// A host name the page may be opened by, besides the address listened on
    /// (e.g. this computer's name on the classroom network); may be repeated.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// A state file: new tabs start from its machine if it exists, and a tab's machine is saved to it after every game and training run.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// For tests: `GET /api/stats` says how requests waited for sessions.
    #[arg(long, hide = true)]
    test_stats: bool,
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let mut config = Config {
        hosts: args.allow_host.clone(),
        ..Config::default()
    };
    let hooks = TestHooks {
        stats: args.test_stats,
        ..TestHooks::default()
    };
    // Held while the server runs: a `train` or `play` (or another server)
    // on the same state file is refused at once instead of losing games.
    let _lock = args.state.as_deref().map(lock).transpose()?;
    if let Some(path) = &args.state {
        // A FIFO, a device or a loop of links is refused before it is
        // opened (a FIFO's open would wait for ever; a loop's every save
        // would fail).
        check_writable(path).map_err(|e| anyhow!("--state: {e}"))?;
        // Ours alone now: what a killed save left behind goes.
        remove_leftovers(path);
        if path.exists() {
            // Refuse a bad file now rather than in the page.
            let text = read_regular_text(path).map_err(|e| anyhow!(e))?;
            load_session(&text, config.limits).map_err(|e| anyhow!("state file '{}': {e}", path.display()))?;
        }
        config.state = Some(path.clone());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let served = runtime.block_on(async {
        let addr = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let addr = listener.local_addr()?;
        let host = match addr.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        outln!(
            "menace serve: open http://{host}:{}/ in a browser (Ctrl-C stops)",
            addr.port()
        );
        if let Some(path) = &config.state {
            outln!("machine state file: {}", path.display());
        }
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
            eprintln!("menace serve: stopping (training stopped, the machine saved); Ctrl-C again quits at once");
            // A second Ctrl-C does not wait for anything.
            tokio::spawn(async {
                let _ = tokio::signal::ctrl_c().await;
                std::process::exit(130);
            });
        };
        serve_with(listener, config, hooks, shutdown)
            .await
            .context("the server stopped")
    });
    // Blocking work still running (a request's solve) is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(100));
    served
}
