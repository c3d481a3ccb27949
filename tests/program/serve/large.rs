//! Large answers (issue 59): a state download or a long box listing is
//! written on a pool of its own, held against its address's and the
//! server's limits until its reader has taken it, and let go when a
//! reader stops reading for the write timeout.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use menace::web::server::{Config, Gate, TestHooks};

use super::network::{connect_from, connect_with_window};
use super::{addr_of, new_session, proc_status, scratch, start_serve, url_of, Server, PATIENCE};
use crate::common::http::{call, wait_until};

/// A request sent from `source` over a connection of its own, which the
/// server is asked to close after: the status and body (0 and "" if it
/// closed the connection unanswered).
fn ask_from(source: &str, addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = connect_from(source, addr);
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.write_all(request.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    let out = String::from_utf8_lossy(&out).into_owned();
    let status = out.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = out.split_once("\r\n\r\n").map(|x| x.1.to_string()).unwrap_or_default();
    (status, body)
}

/// A GET of `path` sent from `source` whose answer is never read: the
/// connection, held open, with a receive buffer of 64 KiB so that the
/// server's write stalls whatever the kernel's socket limits are.
fn never_read(source: &str, addr: SocketAddr, path: &str) -> TcpStream {
    let mut stream = connect_with_window(source, addr, 64 << 10);
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    stream
}

/// Another device (127.0.0.2) makes a tab and plays its first move: both answered.
fn another_device_plays(addr: SocketAddr) {
    let (status, body) = ask_from("127.0.0.2", addr, "POST", "/api/sessions", r#"{"game": "tictactoe"}"#);
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = v["session"].as_str().unwrap();
    let first = v["board"]["moves"][0]["name"].as_str().unwrap();
    let (status, body) = ask_from(
        "127.0.0.2",
        addr,
        "POST",
        &format!("/api/sessions/{id}/move"),
        &format!(r#"{{"move": "{first}"}}"#),
    );
    assert_eq!(status, 200, "{body}");
}

/// Large answers held now, by the server's count (`--test-stats`).
fn large_held(base: &str) -> u64 {
    call("GET", &format!("{base}/api/stats"), None).json()["large_held"]
        .as_u64()
        .unwrap()
}

/// A Mini Hexchess tab trained 200 games (a state file of about 13 MB,
/// more than the sockets' buffers take): its id.
fn big_tab(s: &Server) -> String {
    let (id, _) = s.session(r#"{"game": "minihexchess", "seed": 2}"#);
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "random", "games": 200}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    s.wait_for_training(&id);
    id
}

#[test]
fn downloads_never_read_are_capped_by_address_and_let_go_when_closed() {
    let s = Server::with_hooks(
        Config {
            write_timeout: PATIENCE,
            ..Config::default()
        },
        TestHooks {
            stats: true,
            ..TestHooks::default()
        },
    );
    let addr: SocketAddr = addr_of(&s).parse().unwrap();
    let id = big_tab(&s);
    let state = format!("/api/sessions/{id}/state");
    // Two downloads from one device that never reads them: both held ...
    let held: Vec<TcpStream> = (0..2).map(|_| never_read("127.0.0.1", addr, &state)).collect();
    wait_until("two downloads are held", PATIENCE, || large_held(&s.base) == 2);
    // ... a third from it, or a long listing, is refused at once ...
    for path in [state.clone(), format!("/api/sessions/{id}/boxes?per_page=2000")] {
        let (status, body) = ask_from("127.0.0.1", addr, "GET", &path, "");
        assert_eq!(status, 429, "{body}");
        assert!(body.contains("downloading 2 large answers already"), "{body}");
    }
    // ... while another device plays, and downloads.
    another_device_plays(addr);
    let (status, body) = ask_from("127.0.0.2", addr, "GET", &state, "");
    assert_eq!(status, 200);
    assert!(body.len() > 10 << 20, "{} bytes", body.len());
    // The reader gone, its answers are let go.
    drop(held);
    wait_until("the downloads are let go", PATIENCE, || large_held(&s.base) == 0);
    let (status, _) = ask_from("127.0.0.1", addr, "GET", &state, "");
    assert_eq!(status, 200);
}

#[test]
fn a_reader_that_stops_reading_is_closed_after_the_write_timeout() {
    let s = Server::with_hooks(
        Config {
            write_timeout: Duration::from_secs(1),
            ..Config::default()
        },
        TestHooks {
            stats: true,
            ..TestHooks::default()
        },
    );
    let addr: SocketAddr = addr_of(&s).parse().unwrap();
    let id = big_tab(&s);
    let mut stream = never_read("127.0.0.1", addr, &format!("/api/sessions/{id}/state"));
    // Its answer is held once the server is writing it (not before: read
    // now, the reader would take it all) ...
    wait_until("the download is held", PATIENCE, || large_held(&s.base) == 1);
    // ... and let go while the reader still holds the connection ...
    wait_until("the unread download is let go", PATIENCE, || large_held(&s.base) == 0);
    // ... which the server has closed before the end of the answer.
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length: ")
                .map(str::to_string)
        })
        .and_then(|n| n.trim().parse().ok())
        .unwrap();
    // The premise: more than the server's socket can hold unsent.
    let send_max: usize = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_wmem")
        .ok()
        .and_then(|t| t.split_whitespace().nth(2)?.parse().ok())
        .unwrap_or(0);
    assert!(
        length > send_max + (64 << 10),
        "the answer ({length} bytes) fits in this machine's socket buffers ({send_max})"
    );
    assert!(body.len() < length, "{} of {length} bytes", body.len());
}

#[test]
fn eight_downloads_and_long_listings_leave_other_devices_served() {
    // The large answers are held at the gate (each holding its place on
    // the writers' pool, or waiting for one) so that they are known to be
    // in progress when the other device plays.
    let gate = Gate::new();
    let s = Server::with_hooks(
        Config {
            max_large: 12,
            ..Config::default()
        },
        TestHooks {
            writes: Some(gate.clone()),
            stats: true,
            ..TestHooks::default()
        },
    );
    let addr: SocketAddr = addr_of(&s).parse().unwrap();
    let (id, _) = s.session(r#"{"game": "tictactoe", "seed": 1}"#);
    // Eight downloads from four devices, two each, and four listings of
    // every box from two more.
    let asked: Vec<_> = (0..12)
        .map(|k| {
            let source = format!("127.0.0.{}", 3 + k / 2);
            let path = match k < 8 {
                true => format!("/api/sessions/{id}/state"),
                false => format!("/api/sessions/{id}/boxes?per_page=2000"),
            };
            std::thread::spawn(move || ask_from(&source, addr, "GET", &path, ""))
        })
        .collect();
    wait_until("twelve large answers are asked for", PATIENCE, || {
        large_held(&s.base) == 12
    });
    // Another device makes tabs and plays meanwhile; the page's own listing is answered.
    for _ in 0..3 {
        another_device_plays(addr);
    }
    let (status, body) = ask_from("127.0.0.2", addr, "GET", &format!("/api/sessions/{id}/boxes"), "");
    assert_eq!(status, 200, "{body}");
    gate.allow(12);
    for a in asked {
        let (status, body) = a.join().unwrap();
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap();
    }
    wait_until("the answers are let go", PATIENCE, || large_held(&s.base) == 0);
}

/// `menace train minihexchess --games 600 --seed 2` saved (a 40 MB state
/// file at the page's 50 000-box cap), uploaded to a tab of the server at
/// `base`: the tab's id.
fn upload_big_machine(base: &str) -> String {
    let dir = scratch("large-machine");
    let file = dir.join("big.json");
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["train", "minihexchess", "--games", "600", "--seed", "2", "--save"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    let (id, _) = new_session(base, "{}");
    let r = call("PUT", &format!("{base}/api/sessions/{id}/state"), Some(&text));
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

#[test]
#[ignore = "64 connections hold a 40 MB download unread for the 30 s write timeout (.ci/run runs it)"]
fn sixty_four_readers_that_never_read_a_40_mb_download_hold_bounded_memory() {
    let (mut child, line) = start_serve(&["--test-stats".as_ref()]);
    let base = url_of(&line);
    let addr: SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let pid = child.id();
    let id = upload_big_machine(&base);
    let before = proc_status(pid, "VmRSS");
    // Two devices, each with as many connections as one may open (32),
    // ask for the download and never read it (the test's own requests come
    // from 127.0.0.1, another device's from 127.0.0.2).
    let asked = Instant::now();
    let state = format!("/api/sessions/{id}/state");
    let held: Vec<TcpStream> = (0..64)
        .map(|k| never_read(["127.0.0.3", "127.0.0.4"][k % 2], addr, &state))
        .collect();
    let mut most = 0;
    let mut sample = || {
        let rss = proc_status(pid, "VmRSS");
        most = most.max(rss);
        rss
    };
    wait_until("two downloads an address are held", PATIENCE, || {
        sample();
        large_held(&base) == 4
    });
    // Another device is served while they hang.
    let playing = Instant::now();
    another_device_plays(addr);
    let played = playing.elapsed();
    // The write timeout closes them, the readers still holding on.
    wait_until("the unread downloads are let go", PATIENCE, || {
        sample();
        large_held(&base) == 0
    });
    let let_go = asked.elapsed();
    let after = sample();
    wait_until("the first device downloads again", PATIENCE, || {
        ask_from("127.0.0.3", addr, "GET", &state, "").0 == 200
    });
    drop(held);
    let _ = child.kill();
    let _ = child.wait();
    eprintln!(
        "64 unread 40 MB downloads from two addresses: resident {} MB before, {} MB at most, {} MB after they were let go ({let_go:?} after asking); another device's new game and move answered in {played:?}",
        before >> 10,
        most >> 10,
        after >> 10
    );
    // docs/reference.md: at most two large answers an address are held
    // (four here, a 40 MB text each and what writing it out took), where
    // 64 held came to 2.25 GB.
    assert!(most < 600 << 10, "{} MB at most", most >> 10);
}

#[test]
#[ignore = "ten loops download a 40 MB machine while another device plays: tens of seconds (.ci/run runs it)"]
fn download_loops_leave_another_device_served() {
    let (mut child, line) = start_serve(&["--test-stats".as_ref()]);
    let base = url_of(&line);
    let addr: SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let pid = child.id();
    let id = upload_big_machine(&base);
    // Eight download loops from four devices and two listings of 2 000
    // boxes (31 MB) from a fifth, each read in full; a loop refused (the
    // server holds eight large answers at most) asks again.
    let enough = Arc::new(AtomicBool::new(false));
    let done: Arc<Vec<[AtomicU64; 2]>> = Arc::new((0..10).map(|_| Default::default()).collect());
    let loops: Vec<_> = (0..10)
        .map(|k| {
            let (enough, done) = (enough.clone(), done.clone());
            let source = format!("127.0.0.{}", [1, 3, 4, 5, 6][k / 2]);
            let path = match k < 8 {
                true => format!("/api/sessions/{id}/state"),
                false => format!("/api/sessions/{id}/boxes?per_page=2000"),
            };
            std::thread::spawn(move || {
                while !enough.load(Ordering::Relaxed) {
                    let (status, _) = ask_from(&source, addr, "GET", &path, "");
                    assert!(status == 200 || status == 429, "{path}: {status}");
                    done[k][usize::from(status == 429)].fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    wait_until("every loop has had an answer", PATIENCE, || {
        done.iter().all(|d| d[0].load(Ordering::Relaxed) > 0)
    });
    let mut times = Vec::new();
    for _ in 0..10 {
        let asked = Instant::now();
        another_device_plays(addr);
        times.push(asked.elapsed());
    }
    enough.store(true, Ordering::Relaxed);
    loops.into_iter().for_each(|l| l.join().unwrap());
    let peak = proc_status(pid, "VmHWM");
    let _ = child.kill();
    let _ = child.wait();
    times.sort();
    let answered: Vec<_> = done
        .iter()
        .map(|d| (d[0].load(Ordering::Relaxed), d[1].load(Ordering::Relaxed)))
        .collect();
    eprintln!(
        "download loops (answered, refused) {answered:?}; another device's new game and move: median {:?}, most {:?}; server peak {} MB",
        times[times.len() / 2],
        times[times.len() - 1],
        peak >> 10
    );
}
