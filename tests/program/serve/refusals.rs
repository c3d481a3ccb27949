//! Bad requests, the caps on sessions, the state file, and the command that
//! serves: each refused clearly or kept as the user asked.

use super::*;

#[test]
fn bad_requests_get_a_clear_refusal() {
    let s = Server::new();
    let (id, _) = s.session(r#"{"game": "hexapawn", "seed": 3}"#);
    let at = |suffix: &str| format!("/api/sessions/{id}{suffix}");
    // Malformed JSON, and JSON of the wrong shape.
    assert_refused(
        &s.post("/api/sessions", "{\"game\": "),
        400,
        "request body: not the JSON expected",
    );
    assert_refused(&s.post(&at("/move"), "b2"), 400, "request body: not the JSON expected");
    assert_refused(&s.post(&at("/move"), "{\"mvoe\": \"b2\"}"), 400, "unknown field `mvoe`");
    assert_refused(
        &s.post(&at("/train"), "{\"opponent\": \"random\"}"),
        400,
        "missing field `games`",
    );
    assert_refused(
        &s.post("/api/sessions", "{\"colour\": \"red\"}"),
        400,
        "unknown field `colour`",
    );
    // Unknown games and settings.
    assert_refused(
        &s.post("/api/sessions", "{\"game\": \"chess\"}"),
        400,
        "game spec 'chess': unknown game 'chess'",
    );
    assert_refused(&s.post("/api/sessions", "{\"game\": \"hexapawn:4\"}"), 400, "not WxH");
    assert_refused(&s.post("/api/sessions", "{\"side\": \"purple\"}"), 400, "side 'purple'");
    assert_refused(&s.post("/api/sessions", "{\"preset\": \"lazy\"}"), 400, "preset 'lazy'");
    assert_refused(&s.post("/api/sessions", "{\"beads\": \"0\"}"), 400, "bead schedule '0'");
    assert_refused(
        &s.post("/api/sessions", "{\"reinforcement\": \"lots\"}"),
        400,
        "reinforcement 'lots'",
    );
    assert_refused(
        &s.post("/api/sessions", "{\"empty_box\": \"explode\"}"),
        400,
        "empty-box rule 'explode'",
    );
    // Illegal and unreadable moves name the legal ones.
    assert_refused(
        &s.post(&at("/move"), "{\"move\": \"b3\"}"),
        400,
        "legal moves: a2 b2 c2",
    );
    assert_refused(&s.post(&at("/move"), "{\"move\": \"castle\"}"), 400, "move 'castle'");
    // Bad training requests.
    assert_refused(
        &s.post(&at("/train"), "{\"opponent\": \"wizard\", \"games\": 5}"),
        400,
        "opponent 'wizard'",
    );
    assert_refused(
        &s.post(&at("/train"), "{\"opponent\": \"human\", \"games\": 5}"),
        400,
        "you are the human opponent",
    );
    assert_refused(
        &s.post(&at("/train"), "{\"opponent\": \"mcts:50000\", \"games\": 5}"),
        400,
        "at most 10000 playouts",
    );
    assert_refused(
        &s.post(&at("/train"), "{\"opponent\": \"random\", \"games\": 0}"),
        400,
        "expected 1 to 1000000 games",
    );
    assert_refused(
        &s.post(&at("/train"), "{\"opponent\": \"random\", \"games\": 2000000}"),
        400,
        "expected 1 to 1000000 games",
    );
    assert_refused(
        &s.post(&at("/train"), "{\"opponent\": \"random\", \"games\": -1}"),
        400,
        "request body",
    );
    let (chess, _) = s.session(r#"{"game": "chessapawn"}"#);
    assert_refused(
        &s.post(
            &format!("/api/sessions/{chess}/train"),
            "{\"opponent\": \"perfect\", \"games\": 5}",
        ),
        422,
        "needs the game solved",
    );
    // Uploads: not a state file, one for an unknown game, one too large.
    assert_refused(
        &s.put(&at("/state"), "hello"),
        400,
        "state file: not a valid state file",
    );
    assert_refused(
        &s.put(&at("/state"), "{\"format\": \"menace-state/1\", \"game\": \"go\"}"),
        400,
        "unknown game 'go'",
    );
    assert_refused(
        &s.put(
            &at("/state"),
            "{\"format\": \"menace-state/1\", \"game\": \"hexapawn\"}",
        ),
        400,
        "state file",
    );
    // Oversized bodies (a small limit here, so the body is sent whole before the answer).
    let small = Server::with(Config {
        max_body: 4096,
        max_upload: 4096,
        ..Config::default()
    });
    let (tab, _) = small.session("{}");
    let addr = addr_of(&small);
    for (method, path) in [
        ("PUT", format!("/api/sessions/{tab}/state")),
        ("POST", "/api/sessions".to_string()),
    ] {
        // Refused on the length announced, before the body is read.
        let (status, body) = raw(
            &addr,
            &format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\nConnection: close\r\n\r\n"),
        );
        assert_eq!(status, 413, "{body}");
        assert!(body.contains("request body too large: at most 4096 bytes"), "{body}");
    }
    // And a body sent in chunks, without a length, once it passes the limit.
    let chunk = "x".repeat(5000);
    let (status, body) = raw(
        &addr,
        &format!("POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n", chunk.len()),
    );
    assert_eq!(status, 413, "{body}");
    // Unknown sessions, wrong methods.
    assert_refused(&s.get("/api/sessions/0000/curves"), 404, "no session '0000'");
    assert_refused(
        &s.post("/api/sessions/0000/move", "{\"move\": \"b2\"}"),
        404,
        "no session",
    );
    assert_refused(&s.get(&at("/move")), 405, "GET is not allowed");
    // Moves out of turn: after the game ends, before a new one.
    s.play(&id, "b2");
    s.play(&id, "bxc3");
    assert_refused(&s.post(&at("/move"), "{\"move\": \"b2\"}"), 409, "no game in progress");
    assert_refused(&s.post(&at("/resign"), ""), 409, "no game in progress");
    // After all that, the session still plays.
    assert_eq!(s.post(&at("/game"), "").status, 200);
    assert_eq!(s.play(&id, "b2")["games_played"], 1);
    // A closed session is gone.
    let r = call("DELETE", &format!("{}{}", s.base, at("")), None);
    assert_eq!(r.status, 204);
    assert_refused(&s.get(&at("")), 404, "no session");
}

#[test]
fn sessions_are_capped_and_idle_ones_expire() {
    let capped = Server::with(Config {
        max_sessions: 2,
        ..Config::default()
    });
    capped.session("{}");
    capped.session("{}");
    assert_refused(
        &capped.post("/api/sessions", "{}"),
        429,
        "too many sessions open (at most 2)",
    );

    // With no idle time allowed, making a session drops every unused one.
    let forgetful = Server::with(Config {
        idle: Duration::ZERO,
        ..Config::default()
    });
    let (first, _) = forgetful.session("{}");
    let (second, _) = forgetful.session("{}");
    assert_refused(&forgetful.get(&format!("/api/sessions/{first}")), 404, "expired");
    // A session being trained is kept.
    let r = forgetful.post(
        &format!("/api/sessions/{second}/train"),
        r#"{"opponent": "mcts:10000", "games": 100000}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    forgetful.session("{}");
    let r = forgetful.get(&format!("/api/sessions/{second}"));
    assert_eq!(r.status, 200, "{}", r.body);
    forgetful.post(&format!("/api/sessions/{second}/stop"), "");
    forgetful.wait_for_training(&second);
}

#[test]
fn the_state_file_is_loaded_and_saved() {
    let dir = scratch("state");
    let path = dir.join("her.json");
    let s = Server::with(Config {
        state: Some(path.clone()),
        ..Config::default()
    });
    // No file yet: a fresh HER; one game later the file holds her.
    let (id, _) = s.session(r#"{"seed": 3}"#);
    assert!(!path.exists());
    s.play(&id, "b2");
    let v = s.play(&id, "bxc3");
    assert!(v["state_file"].as_str().unwrap().ends_with("her.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"games_played\": 1"));
    // A new tab starts from the file, but plays unsaved: the first tab
    // holds the file, and two tabs never overwrite each other's machine.
    let (other, v) = s.session("{}");
    assert_eq!(v["games_played"], 1);
    assert_eq!(v["beads"], 44);
    assert_eq!(v["state_held_elsewhere"], true);
    let r = s.post(
        &format!("/api/sessions/{other}/train"),
        r#"{"opponent": "random", "games": 5}"#,
    );
    assert_eq!(r.status, 202);
    s.wait_for_training(&other);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // Training saves too.
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "random", "games": 10}"#,
    );
    assert_eq!(r.status, 202);
    s.wait_for_training(&id);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"games_played\": 11"), "{text}");
    // Nothing else was written beside it.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, [std::ffi::OsString::from("her.json")]);
}

#[test]
fn the_command_prints_the_address_and_serves() {
    let (mut child, line) = start_serve(&[]);
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in: {line}"))
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let page = call("GET", &url, None);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Matchbox machines"));
}

#[test]
fn the_command_holds_its_state_file_against_other_processes() {
    let dir = scratch("held-state");
    let path = dir.join("her.json");
    // Once the address is printed, the lock is held.
    let (mut child, line) = start_serve(&["--state".as_ref(), path.as_os_str()]);
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["train", "hexapawn", "--games", "5", "--save"])
        .arg(&path)
        .output()
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.contains("http://"), "{line}");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("in use by another menace process"), "{err}");
    assert!(!path.exists(), "the refused run wrote nothing");
}

#[test]
fn the_command_refuses_a_bad_state_file() {
    let dir = scratch("bad-state");
    let path = dir.join("bad.json");
    std::fs::write(&path, "{\"format\": \"menace-state/1\", \"game\": \"hexapawn\"}").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["serve", "--port", "0", "--state"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("state file '") && err.contains("bad.json"), "{err}");
}

#[test]
fn boxes_svg_writes_a_label_per_box() {
    let dir = scratch("labels");
    let path = dir.join("her.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "hexapawn", "--side", "black", "--svg"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // One file a page: the instructions (two pages), the board, the tally
    // sheet, then the labels.
    let pages = |stem: &str| -> Vec<String> {
        (1..)
            .map(|k| dir.join(format!("{stem}-{k}.svg")))
            .take_while(|p| p.exists())
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    };
    let her = pages("her");
    assert_eq!(her.len(), 5);
    assert!(her.iter().all(|svg| svg.starts_with("<svg")));
    assert!(her[2].contains("A board for") && her[3].contains("Tally sheet"));
    let labels: Vec<usize> = her.iter().map(|p| p.matches("class=\"label\"").count()).collect();
    assert_eq!(labels, [0, 0, 0, 0, 19]);
    assert!(her[4].contains("HER: 19 matchboxes for Black in Hexapawn"));
    assert!(her[4].contains(">axb2</text>") && her[4].contains(">×1</text>"));
    // Michie's MENACE: 304 boxes.
    let path = dir.join("menace.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "tictactoe", "--side", "x", "--svg"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let labels: usize = pages("menace")
        .iter()
        .map(|p| p.matches("class=\"label\"").count())
        .sum();
    assert_eq!(labels, 304);
    // A game too large to list its boxes is refused, and nothing is written.
    let path = dir.join("chess.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "chessapawn", "--side", "white", "--svg"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--state"));
    assert!(!path.exists() && !dir.join("chess-1.svg").exists());
}

#[test]
fn every_answer_says_nosniff() {
    // A page, a module, JSON, a download, a refusal by a route and one by
    // the guard in front of every route: the browser is told never to guess
    // a type (a state file or an error read as a script or a page).
    let s = Server::new();
    let (id, _) = s.session("{}");
    let agent = ureq::AgentBuilder::new().build();
    for (method, path) in [
        ("GET", "/".to_string()),
        ("GET", "/app.js".to_string()),
        ("GET", "/api/games".to_string()),
        ("GET", format!("/api/sessions/{id}/state")),
        ("GET", "/api/nothing".to_string()),
        ("POST", format!("/api/sessions/{id}/move")),
    ] {
        let answer = match agent.request(method, &format!("{}{path}", s.base)).call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{path}: {e}"),
        };
        assert_eq!(
            answer.header("x-content-type-options"),
            Some("nosniff"),
            "{method} {path}"
        );
    }
    let mut stream = TcpStream::connect(addr_of(&s)).unwrap();
    stream
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    assert!(out.starts_with("HTTP/1.1 421"), "{out}");
    assert!(
        out.to_ascii_lowercase().contains("x-content-type-options: nosniff"),
        "{out}"
    );
}

#[test]
fn the_class_machine_cannot_be_closed_while_the_class_runs() {
    let s = Server::with(Config {
        classroom: Some(menace::web::server::ClassKeys::random()),
        ..Config::default()
    });
    // On the computer's own address, the teacher.
    let class = s.get("/api/class").json();
    let id = class["session"]
        .as_str()
        .expect("the teacher is told the class machine's session")
        .to_string();
    let closed = call("DELETE", &format!("{}/api/sessions/{id}", s.base), None);
    assert_refused(
        &closed,
        409,
        "this is the class machine: it cannot be closed while the class runs",
    );
    // The class goes on: its machine still answers, and plays.
    let class = s.get("/api/class").json();
    assert_eq!(class["session"], Value::String(id.clone()));
    assert_eq!(s.get(&format!("/api/sessions/{id}")).status, 200);
    // Another tab's machine closes as before.
    let (other, _) = s.session("{}");
    assert_eq!(
        call("DELETE", &format!("{}/api/sessions/{other}", s.base), None).status,
        204
    );
}
