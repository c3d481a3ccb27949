//! `menace serve`: the classroom web page on a local server.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, Context};
use clap::Args;

use menace::fsutil::{check_writable, lock, read_regular_text, remove_leftovers};
use menace::web::server::{serve_doors, ClassKeys, ClassMode, Config, Door, TestHooks};
use menace::web::session::{check_state_file, load_session};

#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The address to listen on; only this computer can reach the default
    /// [default: 127.0.0.1, or with --classroom this computer's address on its network].
    #[arg(long)]
    host: Option<IpAddr>,
    /// A classroom: one machine the class plays from its own devices. Listens
    /// on the network address (students join with a code) and on 127.0.0.1
    /// (the teacher); prints the join address, the code, a QR code and the
    /// teacher's link.
    #[arg(long)]
    classroom: bool,
    /// With --classroom: `players` play the class machine in turn, or the
    /// class is the `machine`, its boxes dealt among the pupils, who draw
    /// its beads [default: as the class was kept, else players].
    #[arg(long, value_name = "MODE", requires = "classroom", value_parser = ["players", "machine"])]
    class_mode: Option<String>,
    /// A host name the page may be opened by, besides the address listened on
    /// (e.g. this computer's name on the classroom network); may be repeated.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// A state file: new tabs start from its machine if it exists, and a tab's machine is saved to it after every game and training run
    /// [default with --classroom: classroom.json in menace's data folder, $XDG_DATA_HOME/menace or ~/.local/share/menace].
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// For tests: `GET /api/stats` says how requests waited for sessions.
    #[arg(long, hide = true)]
    test_stats: bool,
}

pub fn run(mut args: ServeArgs) -> anyhow::Result<()> {
    // A class's machine is kept on disk as it learns, unless told where.
    if args.classroom && args.state.is_none() {
        args.state = Some(class_file()?);
    }
    // A class kept beside the state file restarts with its code and teacher's link.
    let kept = match (&args.state, args.classroom) {
        (Some(path), true) => menace::web::server::kept_keys(path).map_err(|e| anyhow!(e))?,
        _ => None,
    };
    let keys = args.classroom.then(|| kept.unwrap_or_else(ClassKeys::random));
    let host = match (args.host, args.classroom) {
        (Some(h), _) => h,
        (None, false) => IpAddr::from([127, 0, 0, 1]),
        (None, true) => network_address().ok_or_else(|| {
            anyhow!("--classroom: this computer has no network address to offer the class (give one with --host)")
        })?,
    };
    let mut config = Config {
        hosts: args.allow_host.clone(),
        classroom: keys.clone(),
        class_mode: args
            .class_mode
            .as_deref()
            .map(ClassMode::parse)
            .transpose()
            .map_err(|e| anyhow!(e))?,
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
            // Refuse a bad file now rather than in the page; one of too
            // many boxes is counted before it is read whole (as an upload is).
            check_state_file(path, config.limits).map_err(|e| anyhow!("state file '{}': {e}", path.display()))?;
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
        let (listener, teacher) = bind_doors(host, args.port, keys.is_some()).await?;
        let addr = listener.local_addr()?;
        let shown = |addr: SocketAddr| match addr.ip() {
            IpAddr::V6(ip) => format!("http://[{ip}]:{}/", addr.port()),
            IpAddr::V4(ip) => format!("http://{ip}:{}/", addr.port()),
        };
        let mut listeners = Vec::new();
        match &keys {
            None => {
                outln!("menace serve: open {} in a browser (Ctrl-C stops)", shown(addr));
                listeners.push((listener, Door::Teacher));
            }
            Some(keys) => {
                // The room's door, and this computer's own (the teacher's), on the same port.
                let own = SocketAddr::new(IpAddr::from([127, 0, 0, 1]), addr.port());
                let room = if addr.ip().is_loopback() && addr.ip() == own.ip() {
                    Door::Teacher
                } else {
                    Door::Room
                };
                listeners.push((listener, room));
                // Listening on every address already takes 127.0.0.1: then
                // the teacher comes in by the token alone.
                if let Some(teacher) = teacher {
                    listeners.push((teacher, Door::Teacher));
                }
                // Listening on every address: the class is told this computer's on its network.
                let public = match (addr.ip().is_unspecified(), network_address()) {
                    (true, Some(ip)) => SocketAddr::new(ip, addr.port()),
                    _ => addr,
                };
                let join = format!("{}?code={}", shown(public), keys.code);
                outln!(
                    "menace serve --classroom: the class joins at {}  code {}",
                    shown(public),
                    keys.code
                );
                outln!("  or by this QR code ({join}):");
                outln!("{}", qr_text(&join));
                if !addr.ip().is_unspecified() {
                    outln!("teacher, on this computer: {} (Ctrl-C stops)", shown(own));
                }
                outln!("teacher, from another device: {}?teacher={}", shown(public), keys.token);
            }
        }
        if let Some(path) = &config.state {
            outln!("machine state file: {} (saved after every game)", path.display());
        }
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
            eprintln!("menace serve: stopping (training stops, then the machine is saved); Ctrl-C again quits at once");
            // A second Ctrl-C does not wait for anything.
            tokio::spawn(async {
                let _ = tokio::signal::ctrl_c().await;
                std::process::exit(130);
            });
        };
        serve_doors(listeners, config, hooks, shutdown)
            .await
            .context("the server stopped")
    });
    // Blocking work still running (a request's solve) is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(100));
    served
}

/// The listener on `host`:`port` and, for a classroom whose room is on
/// another address than this computer's own, the teacher's door on
/// 127.0.0.1 at the same port. Port 0 is any port free on both: one taken
/// on 127.0.0.1 (by another server, or a connection's own end) is let go
/// and another tried.
async fn bind_doors(
    host: IpAddr,
    port: u16,
    classroom: bool,
) -> anyhow::Result<(tokio::net::TcpListener, Option<tokio::net::TcpListener>)> {
    let own_ip = IpAddr::from([127, 0, 0, 1]);
    let two = classroom && host != own_ip && !host.is_unspecified();
    let mut tries = 0;
    loop {
        let addr = SocketAddr::new(host, port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        if !two {
            return Ok((listener, None));
        }
        let own = SocketAddr::new(own_ip, listener.local_addr()?.port());
        match tokio::net::TcpListener::bind(own).await {
            Ok(teacher) => return Ok((listener, Some(teacher))),
            Err(_) if port == 0 && tries < 32 => tries += 1,
            Err(e) => return Err(e).with_context(|| format!("cannot listen on {own} (the teacher's door)")),
        }
    }
}

/// This computer's address on its network: the one it would send from to
/// an outside address. A UDP socket's connect only picks a route; nothing
/// is sent.
fn network_address() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    // TEST-NET-1 (RFC 5737): never a real host.
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// Where a classroom's machine is kept when no `--state` is given:
/// `classroom.json` in menace's data folder (`$XDG_DATA_HOME/menace`, or
/// `~/.local/share/menace`), made if missing.
fn class_file() -> anyhow::Result<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let data = var("XDG_DATA_HOME")
        .or_else(|| var("HOME").map(|home| home.join(".local").join("share")))
        .ok_or_else(|| anyhow!("--classroom: neither XDG_DATA_HOME nor HOME is set, so there is no data folder to keep the class machine in (give one with --state FILE)"))?;
    let folder = data.join("menace");
    std::fs::create_dir_all(&folder).with_context(|| {
        format!(
            "--classroom: cannot make the folder '{}' to keep the class machine in (give another with --state FILE)",
            folder.display()
        )
    })?;
    Ok(folder.join("classroom.json"))
}

/// `text` as a QR code drawn in the terminal, two rows of modules a line
/// (upper and lower half blocks), with its quiet zone.
fn qr_text(text: &str) -> String {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .build(),
        Err(e) => format!("(no QR code: {e})"),
    }
}
