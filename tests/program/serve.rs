//! `menace serve` over HTTP: every endpoint, and every kind of bad request,
//! against servers started in this process on ephemeral ports (and one
//! started as the command line starts it).

use crate::common;

use crate::common::scratch;

mod class_machine;
mod classroom;
mod holes;
mod hostile;
mod joining;
mod large;
mod load;
mod network;
mod page;
mod refusals;
mod watch;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use common::http::{call, wait_until, Reply};
use menace::web::server::{start_with, Config, Gate, Running, TestHooks};
use serde_json::Value;

const PATIENCE: Duration = Duration::from_secs(120);

/// A new session with these settings on the server at `base`: its id and first view.
fn new_session(base: &str, settings: &str) -> (String, Value) {
    let r = call("POST", &format!("{base}/api/sessions"), Some(settings));
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    (v["session"].as_str().unwrap().to_string(), v)
}

struct Server {
    base: String,
    running: std::sync::Mutex<Option<Running>>,
}

impl Server {
    fn with(config: Config) -> Server {
        Server::with_hooks(config, TestHooks::default())
    }

    fn with_hooks(config: Config, hooks: TestHooks) -> Server {
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let running = start_with(addr, config, hooks).expect("start the server");
        Server {
            base: format!("http://{}", running.addr),
            running: std::sync::Mutex::new(Some(running)),
        }
    }

    /// Stop it as Ctrl-C does, and wait until it has (its runs ended and saved).
    fn shut_down(&self) {
        if let Some(r) = self.running.lock().unwrap().take() {
            r.shut_down();
        }
    }

    fn new() -> Server {
        Server::with(Config::default())
    }

    fn get(&self, path: &str) -> Reply {
        call("GET", &format!("{}{path}", self.base), None)
    }

    fn post(&self, path: &str, body: &str) -> Reply {
        call("POST", &format!("{}{path}", self.base), Some(body))
    }

    fn put(&self, path: &str, body: &str) -> Reply {
        call("PUT", &format!("{}{path}", self.base), Some(body))
    }

    /// A new session with these settings: its id and first view.
    fn session(&self, settings: &str) -> (String, Value) {
        new_session(&self.base, settings)
    }

    fn play(&self, id: &str, mv: &str) -> Value {
        let r = self.post(&format!("/api/sessions/{id}/move"), &format!("{{\"move\": \"{mv}\"}}"));
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    }

    fn wait_for_training(&self, id: &str) -> Value {
        let mut last = Value::Null;
        wait_until("training ends", PATIENCE, || {
            last = self.get(&format!("/api/sessions/{id}")).json();
            last["training"]["running"] == false
        });
        last
    }
}

fn assert_refused(r: &Reply, status: u16, words: &str) {
    assert_eq!(r.status, status, "{}", r.body);
    assert!(r.content_type.contains("json"), "{}", r.content_type);
    assert!(r.error().contains(words), "expected '{words}' in: {}", r.error());
}

/// Send the server Ctrl-C (SIGINT) and wait for it to exit: how it exited,
/// and how long after.
fn ctrl_c(child: &mut std::process::Child) -> (std::process::ExitStatus, Duration) {
    let asked = std::time::Instant::now();
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status, asked.elapsed());
        }
        assert!(asked.elapsed() < PATIENCE, "still running after Ctrl-C");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Start `menace serve --port 0 ARGS`; the process and the first line it
/// printed.
fn start_serve(args: &[&std::ffi::OsStr]) -> (std::process::Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    // Keep reading what follows: with the pipe closed, the server's next
    // line ("machine state file: ...") would fail and stop it.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (child, line)
}

/// Send `request` as it is on a connection of its own (it should ask the
/// server to close it) and read everything back: the status and the body.
fn raw(addr: &str, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut out = Vec::new();
    if let Err(e) = stream.read_to_end(&mut out) {
        eprintln!("raw read ended: {e} after {} bytes", out.len());
    }
    let out = String::from_utf8_lossy(&out).into_owned();
    let status = out.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = out.split_once("\r\n\r\n").map(|x| x.1.to_string()).unwrap_or_default();
    (status, body)
}

fn addr_of(s: &Server) -> String {
    s.base.trim_start_matches("http://").to_string()
}

fn download(s: &Server, id: &str) -> Value {
    let r = s.get(&format!("/api/sessions/{id}/state"));
    assert_eq!(r.status, 200, "{}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

fn url_of(line: &str) -> String {
    line.split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in: {line}"))
        .trim_end_matches('/')
        .to_string()
}

/// A line of `/proc/PID/status` (`Threads`, `VmHWM`, `VmRSS`), as a number.
fn proc_status(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The `q` quantile of sorted times.
fn quantile(times: &[Duration], q: f64) -> Duration {
    times[((times.len() as f64 * q) as usize).min(times.len() - 1)]
}
