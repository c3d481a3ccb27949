//! The last resource holes a hostile-input probe found (issue 42): each
//! test here failed on the server before its fix.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use menace::web::server::{Config, Gate, TestHooks};

use super::{assert_refused, proc_status, scratch, start_serve, url_of, Server, PATIENCE};
use crate::common::http::{call, wait_until};

#[test]
fn a_path_parameter_that_is_not_utf8_gets_a_json_error() {
    let s = Server::new();
    for path in [
        "/api/games/hexa%FFpawn",
        "/api/sessions/%FF%FE",
        "/api/sessions/%C3/boxes",
    ] {
        let r = s.get(path);
        assert_refused(&r, 400, "not one this server knows");
        assert!(r.error().contains("UTF-8"), "{path}: {}", r.error());
    }
}

/// `menace serve --state PATH`'s exit code and error, waiting at most
/// [`PATIENCE`] (a start that hangs fails the test).
fn serve_refuses(path: &std::path::Path) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["serve", "--port", "0", "--state"])
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!(
                "menace serve --state {} still starting after {PATIENCE:?}",
                path.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    err
}

#[test]
fn serve_refuses_a_fifo_and_a_loop_of_links_as_its_state_file() {
    let dir = scratch("state-kinds");
    let fifo = dir.join("fifo.json");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo(3) on a path of our own scratch folder.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let err = serve_refuses(&fifo);
    assert!(
        err.contains("--state") && err.contains("fifo.json") && err.contains("not a regular file"),
        "{err}"
    );
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let err = serve_refuses(&a);
    assert!(err.contains("--state") && err.contains("a.json"), "{err}");
    assert!(err.contains("symbolic links"), "{err}");
    // Nothing written beside them but the locks.
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(
            ["fifo.json", "a.json", "b.json"].contains(&name.as_str()) || name.ends_with(".lock"),
            "{name}"
        );
    }
}

#[test]
fn a_game_that_can_end_before_the_person_moves_is_counted_once_per_game_played() {
    // On Hexapawn 1×3 the machine (White) wins with its first move, a2:
    // every game is over before the person moves. Opening a machine,
    // uploading it and ending a training run play no game of their own.
    let s = Server::new();
    let (id, v) = s.session(r#"{"game": "hexapawn:1x3", "seed": 3}"#);
    assert_eq!(v["machine_side"], "White");
    assert_eq!(v["games_played"], 0, "{}", v["message"]);
    assert!(
        v["message"].as_str().unwrap().contains("press New game"),
        "{}",
        v["message"]
    );
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "random", "games": 5}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let v = s.wait_for_training(&id);
    assert_eq!(v["games_played"], 5);
    let text = s.get(&format!("/api/sessions/{id}/state")).body;
    for _ in 0..3 {
        let r = s.put(&format!("/api/sessions/{id}/state"), &text);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["games_played"], 5);
    }
    // The person's own New game is a game: counted, once.
    let r = s.post(&format!("/api/sessions/{id}/game"), "{}");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["games_played"], 6);
    assert!(!r.json()["board"]["result"].is_null(), "{}", r.json()["board"]);
}

#[test]
fn four_label_sheets_being_drawn_leave_the_other_tabs_served() {
    // The sheets are held at the gate (each holding its place on the render
    // pool) so that they are known to be drawing when the move is asked.
    let gate = Gate::new();
    let s = Server::with_hooks(
        Config {
            max_renders: 4,
            ..Config::default()
        },
        TestHooks {
            renders: Some(gate.clone()),
            stats: true,
            ..TestHooks::default()
        },
    );
    let ids: Vec<String> = (0..6).map(|_| s.session(r#"{"game": "tictactoe"}"#).0).collect();
    let sheets: Vec<_> = ids[..4]
        .iter()
        .map(|id| {
            let url = format!("{}/api/sessions/{id}/labels.pdf", s.base);
            std::thread::spawn(move || call("GET", &url, None))
        })
        .collect();
    wait_until("four sheets are asked for", PATIENCE, || {
        s.get("/api/stats").json()["renders_asked"] == 4
    });
    // Another tab plays and makes a new machine meanwhile; a fifth sheet,
    // or a second of one tab, is refused at once.
    let other = &ids[4];
    let first = s.get(&format!("/api/sessions/{other}")).json()["board"]["moves"][0]["name"].clone();
    let v = s.play(other, first.as_str().unwrap());
    assert_eq!(v["board"]["person_moves"], 1, "{}", v["board"]);
    let r = s.post(&format!("/api/sessions/{other}/machine"), r#"{"game": "hexapawn"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_refused(
        &s.get(&format!("/api/sessions/{}/labels.pdf", ids[5])),
        429,
        "drawing 4 label sheets",
    );
    assert_refused(
        &s.get(&format!("/api/sessions/{}/labels.pdf", ids[0])),
        429,
        "being drawn already",
    );
    gate.allow(4);
    for sheet in sheets {
        let r = sheet.join().unwrap();
        assert_eq!(r.status, 200, "{}", &r.body[..r.body.len().min(200)]);
        assert!(r.content_type.contains("pdf"), "{}", r.content_type);
    }
    assert_eq!(s.get("/api/stats").json()["renders_asked"], 0);
}

#[test]
fn an_upload_of_a_million_boxes_is_refused_before_it_is_read_in() {
    // A state file of 95 MB whose machine has 1.3 million boxes: the page
    // accepts at most 50 000. It is refused by its count while read, and
    // the server's memory after is close to before.
    let (mut child, line) = start_serve(&[]);
    let base = url_of(&line);
    let pid = child.id();
    let id = {
        let r = call("POST", &format!("{base}/api/sessions"), Some("{}"));
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["session"].as_str().unwrap().to_string()
    };
    // The file as the server writes it, but for its boxes.
    let mut state: serde_json::Value =
        serde_json::from_str(&call("GET", &format!("{base}/api/sessions/{id}/state"), None).body).unwrap();
    state["machine"]["boxes"] = "BOXES".into();
    let (head, tail) = {
        let t = state.to_string();
        let (h, t) = t.split_once("\"BOXES\"").unwrap();
        (h.to_string(), t.to_string())
    };
    let one = r#"{"position":"ppp/3/PPP w","own_move":1,"beads":[["a2",1],["b2",1],["c2",1]]},"#;
    let count = 100_000_000 / one.len();
    let mut text = String::with_capacity(count * one.len() + head.len() + tail.len() + 2);
    text.push_str(&head);
    text.push('[');
    for _ in 0..count {
        text.push_str(one);
    }
    text.pop();
    text.push(']');
    text.push_str(&tail);
    let before = proc_status(pid, "VmRSS");
    let started = Instant::now();
    let r = call("PUT", &format!("{base}/api/sessions/{id}/state"), Some(&text));
    eprintln!(
        "a {} MB upload of {count} boxes refused in {:?}",
        text.len() >> 20,
        started.elapsed()
    );
    drop(text);
    assert_refused(&r, 422, "machine.boxes");
    assert!(r.error().contains(&format!("{count} boxes")), "{}", r.error());
    // The session is still there, as it was.
    let v = call("GET", &format!("{base}/api/sessions/{id}"), None);
    assert_eq!(v.status, 200);
    let after = proc_status(pid, "VmRSS");
    let hwm = proc_status(pid, "VmHWM");
    let _ = child.kill();
    let _ = child.wait();
    eprintln!("server's resident memory: {before} kB before, {after} kB after, {hwm} kB at most");
    // The body itself (about 100 MB) is held while it is checked; nothing
    // of the size of the boxes (a gigabyte) is ever made, and what is left
    // after is at most 16 MB more than before.
    assert!(hwm < before + 300_000, "peak {hwm} kB from {before} kB");
    assert!(after < before + 16_000, "{after} kB after, {before} kB before");
}

#[test]
fn training_stops_at_the_box_cap_exactly() {
    let s = Server::with(Config {
        limits: menace::web::session::Limits {
            max_boxes: 500,
            ..Default::default()
        },
        ..Config::default()
    });
    // Hex 4×4 opens a box a move of the machine: a game often opens several.
    let (id, _) = s.session(r#"{"game": "hex:4", "seed": 11}"#);
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "random", "games": 100000}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let v = s.wait_for_training(&id);
    assert_eq!(v["boxes"], 500, "{}", v["message"]);
    assert!(
        v["message"].as_str().unwrap().contains("has 500 boxes"),
        "{}",
        v["message"]
    );
    let state: serde_json::Value = serde_json::from_str(&s.get(&format!("/api/sessions/{id}/state")).body).unwrap();
    assert_eq!(state["machine"]["boxes"].as_array().unwrap().len(), 500);
}
