//! A busy or hostile class: racing requests, costly requests, other
//! sites, slow connections, and the state file under all of them.

use super::*;

/// The command line's state file of a machine trained as `args` say.
fn cli_state(dir: &std::path::Path, name: &str, args: &[&str]) -> String {
    let path = dir.join(name);
    let status = Command::new(env!("CARGO_BIN_EXE_menace"))
        .arg("train")
        .args(args)
        .arg("--save")
        .arg(&path)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn a_change_racing_a_training_request_never_trains_a_ghost() {
    let dir = scratch("ghost");
    // A machine whose file names a perfect opponent (the upload that took
    // 0.9 s to load, leaving a window for the race).
    let upload = cli_state(
        &dir,
        "up.json",
        &["hexapawn:6x4", "--games", "1", "--opponent", "perfect", "--seed", "4"],
    );
    let s = Arc::new(Server::new());
    for round in 0..24 {
        let (id, _) = s.session(r#"{"game": "hexapawn", "seed": 1}"#);
        let by_machine = round % 2 == 1;
        let barrier = Arc::new(Barrier::new(3));
        let go = |f: Box<dyn FnOnce(&Server) -> u16 + Send>| {
            let (s, barrier) = (s.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                f(&s)
            })
        };
        let at = |suffix: &str| format!("/api/sessions/{id}{suffix}");
        let (a, b, c) = (at(""), at(""), at(""));
        let text = upload.clone();
        let change = go(Box::new(move |s| {
            if by_machine {
                s.post(&format!("{a}/machine"), r#"{"game": "tictactoe", "seed": 2}"#)
                    .status
            } else {
                s.put(&format!("{a}/state"), &text).status
            }
        }));
        let train = go(Box::new(move |s| {
            // A move may come first: the person's game is dropped as asked.
            // A long run, still going when the change lands (if it does).
            s.post(
                &format!("{b}/train"),
                r#"{"opponent": "random", "games": 1000000, "discard": true}"#,
            )
            .status
        }));
        let play = go(Box::new(move |s| {
            s.post(&format!("{c}/move"), r#"{"move": "b2"}"#).status
        }));
        let (changed, trained, played) = (change.join().unwrap(), train.join().unwrap(), play.join().unwrap());
        // Training is accepted whatever came first; the change only before it.
        assert_eq!(trained, 202, "round {round}");
        assert!([200, 409].contains(&changed), "round {round}: {changed}");
        assert!([200, 400, 409].contains(&played), "round {round}: {played}");
        assert_eq!(s.post(&at("/stop"), "").status, 200);
        let v = s.wait_for_training(&id);
        let state = download(&s, &id);
        // The change came before the run (which then trained the new
        // machine, against random), or was refused while it ran.
        let (game, base) = match (changed == 200, by_machine) {
            (false, _) => ("hexapawn", 0),
            (true, true) => ("tictactoe", 0),
            (true, false) => ("hexapawn:6x4", 1),
        };
        let seen = serde_json::json!({"changed": changed, "played": played, "training": v["training"], "games_played": v["games_played"], "game": v["game"]});
        assert_eq!(state["game"], game, "round {round}: {seen}");
        // The run shown is the one accepted, and every game it played is in
        // the download, against its opponent, counted in the score.
        assert_eq!(v["training"]["total"], 1_000_000, "round {round}: {seen}");
        let done = v["training"]["done"].as_u64().unwrap();
        assert_eq!(
            state["games_played"].as_u64().unwrap(),
            base + done,
            "round {round}: {seen}"
        );
        assert_eq!(v["games_played"], state["games_played"], "round {round}: {seen}");
        if done > 0 {
            assert_eq!(state["opponent"], "random", "round {round}: {seen}");
        }
        let score = &v["score"];
        let counted: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| score[k].as_u64().unwrap())
            .sum();
        assert_eq!(counted, done, "round {round}: {seen}");
        assert_eq!(call("DELETE", &format!("{}{}", s.base, at("")), None).status, 204);
    }
}

#[test]
fn requests_that_would_cost_seconds_are_refused_by_limits() {
    let s = Server::new();
    let (id, _) = s.session(r#"{"game": "hexapawn", "seed": 3}"#);
    let at = |suffix: &str| format!("/api/sessions/{id}{suffix}");
    // A small file claiming an enumerated machine for Hexapawn 8×8: the
    // check of its box set stops long before 20 million positions.
    let mut state = download(&s, &id);
    state["game"] = "hexapawn:8x8".into();
    state["machine"]["boxes"] = serde_json::json!([]);
    state["machine"]["enumerated"] = true.into();
    let text = state.to_string();
    assert!(text.len() < 1000, "{}", text.len());
    assert_refused(
        &s.put(&at("/state"), &text),
        422,
        "machine.enumerated: hexapawn:8x8 has too many positions",
    );
    // A perfect opponent for a game too large to solve on the page: refused
    // by estimate (see below), and at once when asked again.
    let (big, _) = s.session(r#"{"game": "hexapawn:7x4"}"#);
    for _ in 0..2 {
        assert_refused(
            &s.post(
                &format!("/api/sessions/{big}/train"),
                r#"{"opponent": "perfect", "games": 1}"#,
            ),
            422,
            "needs the game solved, but hexapawn:7x4 has too many positions to handle exactly (more than 1000000)",
        );
    }
    let v = s.get(&format!("/api/sessions/{big}")).json();
    assert_eq!(v["training"]["running"], false);
    // More boxes than the server's machines may have.
    let few = Server::with(Config {
        limits: menace::web::session::Limits {
            max_boxes: 10,
            ..Default::default()
        },
        ..Config::default()
    });
    let (tab, _) = few.session(r#"{"game": "tictactoe"}"#);
    let her = s.get(&at("/state")).body;
    assert_refused(
        &few.put(&format!("/api/sessions/{tab}/state"), &her),
        422,
        "machine.boxes: 19 boxes, more than the 10 accepted here",
    );
    // A body announced too large is refused before it is read.
    let addr = addr_of(&s);
    let (status, body) = raw(
        &addr,
        &format!(
            "PUT /api/sessions/{id}/state HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 999999999999\r\nConnection: close\r\n\r\n"
        ),
    );
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("at most 134217728 bytes"), "{body}");
}

#[test]
fn only_this_servers_own_page_may_drive_it() {
    let s = Server::new();
    let addr = addr_of(&s);
    let port = addr.rsplit(':').next().unwrap().to_string();
    let get = |host: &str| {
        raw(
            &addr,
            &format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        )
    };
    assert_eq!(get(&addr).0, 200);
    assert_eq!(get(&format!("localhost:{port}")).0, 200);
    // A rebound name, another port, no host at all.
    for host in [format!("evil.example:{port}"), "127.0.0.1:1".to_string(), String::new()] {
        let (status, body) = get(&host);
        assert_eq!(status, 421, "{host}: {body}");
        assert!(body.contains("is not this server's"), "{body}");
    }
    let post = |headers: &str, body: &str| {
        raw(
            &addr,
            &format!(
                "POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    let json = "Content-Type: application/json\r\n";
    // Another page's request, a drive-by form, a body that is not JSON.
    let (status, body) = post(&format!("{json}Origin: http://evil.example\r\n"), "{}");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("only this server's own page may use it"), "{body}");
    let (status, body) = post(&format!("{json}Origin: null\r\n"), "{}");
    assert_eq!(status, 403, "{body}");
    let (status, body) = post(&format!("{json}Sec-Fetch-Site: cross-site\r\n"), "{}");
    assert_eq!(status, 403, "{body}");
    let (status, body) = post("Content-Type: text/plain\r\n", "{}");
    assert_eq!(status, 415, "{body}");
    assert!(body.contains("expected application/json"), "{body}");
    let (status, body) = post("", "{}");
    assert_eq!(status, 415, "{body}");
    // Its own page, and the same with no Origin (curl, the tests).
    assert_eq!(post(&format!("{json}Origin: http://{addr}\r\n"), "{}").0, 201);
    assert_eq!(post(json, "{}").0, 201);
}

#[test]
fn slow_and_idle_connections_are_closed_and_capped() {
    let s = Server::with(Config {
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        ..Config::default()
    });
    let addr = addr_of(&s);
    // Half a request's head, never finished; then a head with half its body.
    for partial in [
        format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: "),
        format!("POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"),
    ] {
        let (status, body) = raw(&addr, &partial);
        // Closed by the server (the read ends well before the client's own patience).
        assert!([0, 408].contains(&status), "{status} {body}");
    }
    // An idle connection is closed too.
    let mut idle = TcpStream::connect(&addr).unwrap();
    idle.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut byte = [0u8; 1];
    assert_eq!(idle.read(&mut byte).unwrap_or(0), 0);

    // At most `max_connections` at once: one more is closed as it arrives.
    let capped = Server::with(Config {
        max_connections: 3,
        header_timeout: Duration::from_secs(600),
        ..Config::default()
    });
    let addr = addr_of(&capped);
    let request = format!("GET /api/games HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    let held: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut c = TcpStream::connect(&addr).unwrap();
            c.set_read_timeout(Some(PATIENCE)).unwrap();
            c.write_all(request.as_bytes()).unwrap();
            let mut buf = [0u8; 16];
            c.read_exact(&mut buf).unwrap();
            assert!(buf.starts_with(b"HTTP/1.1 200"));
            c
        })
        .collect();
    let (status, _) = raw(
        &addr,
        &format!("GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(status, 0, "a fourth connection is closed unanswered");
    drop(held);
    wait_until("a connection is free again", PATIENCE, || {
        raw(
            &addr,
            &format!("GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
        )
        .0 == 200
    });
}

#[test]
fn a_closed_tabs_training_run_never_writes_the_state_file() {
    let dir = scratch("closed-tab");
    let path = dir.join("her.json");
    let gate = Gate::new();
    let s = Server::with_hooks(
        Config {
            state: Some(path.clone()),
            ..Config::default()
        },
        TestHooks {
            gate: Some(gate.clone()),
            ..TestHooks::default()
        },
    );
    let (first, v) = s.session(r#"{"seed": 3}"#);
    assert_eq!(v["state_held_elsewhere"], false);
    let r = s.post(
        &format!("/api/sessions/{first}/train"),
        r#"{"opponent": "random", "games": 1000}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    gate.allow(2);
    wait_until("two games are played", PATIENCE, || {
        s.get(&format!("/api/sessions/{first}")).json()["training"]["done"] == 2
    });
    assert_eq!(
        call("DELETE", &format!("{}/api/sessions/{first}", s.base), None).status,
        204
    );
    // The next tab holds the file now, and saves its own game.
    let (next, v) = s.session(r#"{"seed": 5}"#);
    assert_eq!(v["state_held_elsewhere"], false);
    s.play(&next, "b2");
    s.play(&next, "bxc3");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("\"games_played\": 1"), "{saved}");
    // Whatever the closed tab's run still had to play, it plays nothing and saves nothing.
    gate.allow(1000);
    assert_eq!(download(&s, &next)["games_played"], 1);
    // Stopping the server waits for every run to end.
    s.shut_down();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved);
}

#[test]
fn a_state_file_changed_on_disk_is_not_overwritten() {
    let dir = scratch("changed");
    let path = dir.join("her.json");
    let s = Server::with(Config {
        state: Some(path.clone()),
        ..Config::default()
    });
    let (id, _) = s.session(r#"{"seed": 3}"#);
    s.play(&id, "b2");
    s.play(&id, "bxc3");
    assert!(std::fs::read_to_string(&path).unwrap().contains("\"games_played\": 1"));
    // Someone puts another machine there.
    let other = cli_state(&dir, "other.json", &["hexapawn", "--games", "9", "--seed", "1"]);
    std::fs::rename(dir.join("other.json"), &path).unwrap();
    assert_eq!(s.post(&format!("/api/sessions/{id}/game"), "").status, 200);
    let r = s.post(&format!("/api/sessions/{id}/resign"), "");
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("was changed on disk") && message.contains("her.json"),
        "{v}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), other);
}

#[test]
fn a_uploaded_machine_at_the_box_cap_is_what_its_download_was() {
    let s = Server::new();
    let (id, _) = s.session(r#"{"game": "minihexchess", "seed": 8}"#);
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "random", "games": 1000000}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let v = s.wait_for_training(&id);
    let boxes = v["boxes"].as_u64().unwrap();
    assert_eq!(boxes, 50_000, "the cap, exactly");
    assert!(v["message"]
        .as_str()
        .unwrap_or_default()
        .contains("the most a page's machine may open"));
    // Read whole with a plain connection (ureq's into_string stops at 10 MB).
    let addr = addr_of(&s);
    let get = |id: &str| {
        let (status, body) = raw(
            &addr,
            &format!("GET /api/sessions/{id}/state HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
        );
        assert_eq!(status, 200);
        body
    };
    let text = get(&id);
    eprintln!(
        "a Mini Hexchess machine of {boxes} boxes downloads as {} bytes",
        text.len()
    );
    assert!(text.len() > 10 << 20, "{}", text.len());
    let (other, _) = s.session(r#"{"game": "hexapawn"}"#);
    let r = s.put(&format!("/api/sessions/{other}/state"), &text);
    assert_eq!(r.status, 200, "{}", &r.body[..r.body.len().min(300)]);
    assert_eq!(r.json()["boxes"], boxes);
    // The same machine (its random stream moved on: the machine, playing
    // first, has made its move of the game waiting for the person).
    let machine = |t: &str| t[t.find("\"machine\": {").unwrap()..].to_string();
    assert!(
        machine(&get(&other)) == machine(&text),
        "the upload downloads as it was"
    );
}

#[test]
fn ctrl_c_stops_training_saves_and_exits_at_once() {
    let dir = scratch("ctrl-c");
    let path = dir.join("her.json");
    let (mut child, line) = start_serve(&["--state".as_ref(), path.as_os_str()]);
    let base = url_of(&line);
    let (id, _) = new_session(&base, r#"{"game": "hex:11", "seed": 1}"#);
    // A run that would take days (a move takes a while, a game much longer).
    let r = call(
        "POST",
        &format!("{base}/api/sessions/{id}/train"),
        Some(r#"{"opponent": "mcts:10000", "games": 1000000}"#),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    // And a request left half-sent.
    let mut half = TcpStream::connect(base.trim_start_matches("http://")).unwrap();
    half.write_all(b"POST /api/sessions HTTP/1.1\r\nContent-Le").unwrap();
    let (status, asked) = ctrl_c(&mut child);
    eprintln!("menace serve exited {asked:?} after Ctrl-C");
    assert!(status.success(), "{status:?}");
    // The machine was saved as training left it: a game cut short is not counted.
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["game"], "hex:11");
    assert_eq!(saved["opponent"], "mcts:10000");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        !names.iter().any(|n| n.to_string_lossy().ends_with(".menace-tmp")),
        "{names:?}"
    );
}

#[test]
fn ctrl_c_cuts_short_a_perfect_hex_6x6_proof_and_saves() {
    // The first move of a perfect Red on Hex 6×6 with the swap is a proof
    // of seconds (see `stop_cuts_short_a_perfect_hex_6x6_proof_and_the_tab_goes_on`):
    // Ctrl-C, sent as the run begins, ends it, saves and exits.
    let dir = scratch("ctrl-c-hex6");
    let path = dir.join("her.json");
    let (mut child, line) = start_serve(&["--state".as_ref(), path.as_os_str()]);
    let base = url_of(&line);
    let (id, _) = new_session(&base, r#"{"game": "hex:6,first=red", "side": "blue", "seed": 1}"#);
    let r = call(
        "POST",
        &format!("{base}/api/sessions/{id}/train"),
        Some(r#"{"opponent": "perfect", "games": 1000000}"#),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let (status, asked) = ctrl_c(&mut child);
    eprintln!("menace serve exited {asked:?} after Ctrl-C, mid-proof");
    assert!(status.success(), "{status:?}");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["game"], "hex:6,first=red");
    assert_eq!(saved["opponent"], "perfect");
    assert_eq!(saved["games_played"], 0);
}

#[test]
fn the_state_files_lock_is_the_files_whatever_its_name_and_leftovers_go() {
    let dir = scratch("link-lock");
    let path = dir.join("s.json");
    let link = dir.join("link.json");
    std::os::unix::fs::symlink("s.json", &link).unwrap();
    // What a killed save left behind.
    let leftover = dir.join(".s.json.x1y2z3.menace-tmp");
    std::fs::write(&leftover, "half a file").unwrap();
    let (mut child, line) = start_serve(&["--state".as_ref(), path.as_os_str()]);
    assert!(line.contains("http://"), "{line}");
    assert!(!leftover.exists(), "the leftover temporary file is removed at start");
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["serve", "--port", "0", "--state"])
        .arg(&link)
        .output()
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("in use by another menace process"), "{err}");
}

#[test]
fn perfect_play_on_hexapawn_7x4_is_refused_by_estimate_before_any_solve() {
    // Eight tabs ask at once for a perfect opponent on 7×4 (more than 10
    // million positions): each is refused naming the page's limit, and the
    // server never stores a position for it. A bounded solve would have
    // taken about 100 MB a request (a million positions), four at a time.
    let (mut child, line) = start_serve(&[]);
    let base = Arc::new(url_of(&line));
    let asks: Vec<_> = (0..8)
        .map(|k| {
            let base = base.clone();
            std::thread::spawn(move || {
                let (id, _) = new_session(&base, &format!(r#"{{"game": "hexapawn:7x4", "seed": {k}}}"#));
                call(
                    "POST",
                    &format!("{base}/api/sessions/{id}/train"),
                    Some(r#"{"opponent": "perfect", "games": 1}"#),
                )
            })
        })
        .collect();
    for a in asks {
        assert_refused(
            &a.join().unwrap(),
            422,
            "hexapawn:7x4 has too many positions to handle exactly (more than 1000000) on this page",
        );
    }
    let peak = proc_status(child.id(), "VmHWM");
    let _ = child.kill();
    let _ = child.wait();
    assert!(peak < 100 << 10, "peak {} MB", peak >> 10);
}
