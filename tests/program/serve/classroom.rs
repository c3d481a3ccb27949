//! A class as a room of devices uses it, on the server itself: the room's
//! door on 127.0.0.2 and the teacher's on 127.0.0.1, each device on a
//! loopback address of its own (127.0.0.0/8 all reaches this machine).
//! Names, places per device, the teacher's removals and renames, and the
//! queue: it moves on after training, a removal, a skip and a clock run
//! out, and a skip and a student's last move never both land.

use super::*;

use std::net::SocketAddr;

use serde_json::json;

use menace::web::server::{start_doors, ClassKeys, Door, Running};

pub(super) const CODE: &str = "ABCDEFGH";

/// A classroom server: the room's door and the teacher's.
pub(super) struct Room {
    running: Option<Running>,
    room: SocketAddr,
    teacher: String,
}

impl Drop for Room {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            r.shut_down();
        }
    }
}

/// A device of the room: its address, and the student cookie it keeps.
pub(super) struct Device {
    pub(super) from: String,
    pub(super) cookie: Option<String>,
}

/// An answer: its status, and its body as JSON.
pub(super) struct Answer {
    pub(super) status: u16,
    pub(super) body: Value,
}

/// `device` asks the room's door at `room`, with its cookie; a cookie set is kept.
fn ask_at(room: SocketAddr, device: &mut Device, method: &str, path: &str, body: &str) -> Answer {
    let cookie = device
        .cookie
        .as_ref()
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {room}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = super::network::connect_from(&device.from, room);
    stream.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    for line in head.lines() {
        if let Some(set) = line
            .strip_prefix("set-cookie: ")
            .or_else(|| line.strip_prefix("Set-Cookie: "))
        {
            device.cookie = set.split(';').next().map(str::to_string);
        }
    }
    Answer {
        status: head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0),
        body: serde_json::from_str(body).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {out}")),
    }
}

pub(super) fn room_with(config: Config, hooks: TestHooks) -> Room {
    let config = Config {
        classroom: Some(ClassKeys {
            code: CODE.to_string(),
            token: "0123456789abcdef0123456789abcdef".to_string(),
        }),
        ..config
    };
    let doors = [
        ("127.0.0.2:0".parse().unwrap(), Door::Room),
        ("127.0.0.1:0".parse().unwrap(), Door::Teacher),
    ];
    let running = start_doors(&doors, config, hooks).expect("start the classroom");
    Room {
        room: running.doors[0],
        teacher: format!("http://{}", running.doors[1]),
        running: Some(running),
    }
}

fn room() -> Room {
    room_with(Config::default(), TestHooks::default())
}

impl Room {
    /// `device` asks the room's door, with its cookie; a cookie set is kept.
    pub(super) fn ask(&self, device: &mut Device, method: &str, path: &str, body: &str) -> Answer {
        ask_at(self.room, device, method, path, body)
    }

    /// A new device at `from` joins as `name`: the device, and the answer.
    pub(super) fn join(&self, from: &str, name: &str) -> (Device, Answer) {
        let mut device = Device {
            from: from.to_string(),
            cookie: None,
        };
        let body = json!({"code": CODE, "name": name}).to_string();
        let a = self.ask(&mut device, "POST", "/api/class/join", &body);
        (device, a)
    }

    /// A student who joined: the device.
    pub(super) fn student(&self, from: &str, name: &str) -> Device {
        let (device, a) = self.join(from, name);
        assert_eq!(a.status, 200, "{name} joins: {}", a.body);
        device
    }

    /// The teacher asks their own door.
    pub(super) fn teacher(&self, method: &str, path: &str, body: Option<&str>) -> Reply {
        call(method, &format!("{}{path}", self.teacher), body)
    }

    /// The class as the teacher sees it.
    pub(super) fn class(&self) -> Value {
        self.teacher("GET", "/api/class", None).json()
    }

    /// The number the class gives the student named `name`.
    fn number(&self, name: &str) -> u64 {
        let class = self.class();
        let found = class["class"]["students"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name);
        found.unwrap_or_else(|| panic!("no {name}: {class}"))["number"]
            .as_u64()
            .unwrap()
    }
}

fn score(class: &Value, name: &str) -> u64 {
    let s = class["class"]["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap();
    ["wins", "draws", "losses"]
        .iter()
        .map(|k| s[*k].as_u64().unwrap())
        .sum()
}

#[test]
fn names_are_a_students_own_and_shown_as_they_are() {
    let r = room();
    r.student("127.3.0.1", "Ada");
    for (name, words) in [
        ("ada ", "ada is taken in this class: choose another name"),
        ("HER", "HER is the machine's name: choose your own"),
        ("Ada\u{202E}", "U+202E"),
        ("Bo\u{2066}b", "U+2066"),
        ("B\u{200B}ob", "U+200B"),
        (
            "abcdefghijklmnopqrstuvwxy",
            "a name is at most 24 characters (this one has 25)",
        ),
    ] {
        let (_, a) = r.join("127.3.0.2", name);
        assert_eq!(a.status, 400, "{name:?}: {}", a.body);
        assert!(
            a.body["error"].as_str().unwrap().contains(words),
            "{name:?}: {}",
            a.body
        );
    }
    // No name: numbered, with a number nobody has.
    r.student("127.3.0.3", "student 1");
    let (_, a) = r.join("127.3.0.4", "");
    assert_eq!(a.body["class"]["you"], "student 2");
    // The teacher renames, under the same rules.
    let ada = r.number("Ada");
    let k = r.teacher(
        "POST",
        "/api/class/rename",
        Some(&json!({"student": ada, "name": "Ada L"}).to_string()),
    );
    assert_eq!(k.status, 200, "{}", k.body);
    let k = r.teacher(
        "POST",
        "/api/class/rename",
        Some(&json!({"student": ada, "name": "Student 2"}).to_string()),
    );
    assert_refused(&k, 400, "Student 2 is taken in this class");
    let k = r.teacher("POST", "/api/class/rename", Some(r#"{"student": 99, "name": "X"}"#));
    assert_refused(&k, 404, "no student 99 in the class");
    assert_eq!(r.number("Ada L"), ada);
}

#[test]
fn one_device_joins_at_most_its_places_and_the_teacher_removes_and_renames() {
    let r = room();
    // One device, 64 joins without keeping its cookie.
    let mut statuses = [0usize; 2];
    for k in 0..64 {
        let (_, a) = r.join("127.4.0.1", &format!("kid {k}"));
        match a.status {
            200 => statuses[0] += 1,
            429 => {
                statuses[1] += 1;
                assert!(
                    a.body["error"]
                        .as_str()
                        .unwrap()
                        .contains("4 students have joined from this device already, the most the teacher allows"),
                    "{}",
                    a.body
                );
            }
            other => panic!("join {k}: {other} {}", a.body),
        }
    }
    assert_eq!(statuses, [4, 60]);
    // Another device is not held up; the class has 5.
    let mut bea = r.student("127.4.0.2", "Bea");
    assert_eq!(r.class()["class"]["students"].as_array().unwrap().len(), 5);
    // The teacher removes one of the device's four: a place is free there.
    let kid = r.number("kid 0");
    let k = r.teacher("POST", "/api/class/remove", Some(&json!({"student": kid}).to_string()));
    assert_eq!(k.status, 200, "{}", k.body);
    let (_, a) = r.join("127.4.0.1", "kid again");
    assert_eq!(a.status, 200, "{}", a.body);
    let (_, a) = r.join("127.4.0.1", "kid more");
    assert_eq!(a.status, 429, "{}", a.body);
    // The teacher allows more from one device (a room behind one router).
    let k = r.teacher("POST", "/api/class/settings", Some(r#"{"per_device": 64}"#));
    assert_eq!(k.json()["class"]["per_device"], 64);
    let (_, a) = r.join("127.4.0.1", "kid more");
    assert_eq!(a.status, 200, "{}", a.body);
    // A removed student's device is a guest's again.
    let k = r.teacher(
        "POST",
        "/api/class/remove",
        Some(&json!({"student": r.number("Bea")}).to_string()),
    );
    assert_eq!(k.status, 200);
    let a = r.ask(&mut bea, "GET", "/api/class", "");
    assert_eq!(a.body["class"]["role"], "guest", "{}", a.body);
    assert_eq!(r.ask(&mut bea, "POST", "/api/class/play", "").status, 403);
    // Settings out of range are refused by name.
    let k = r.teacher("POST", "/api/class/settings", Some(r#"{"per_device": 0}"#));
    assert_refused(&k, 400, "per_device is 0; expected 1 to 64");
    let k = r.teacher("POST", "/api/class/settings", Some(r#"{"move_seconds": 3601}"#));
    assert_refused(&k, 400, "move_seconds is 3601; expected at most 3600 (0 for no limit)");
    // Only the teacher manages the class.
    let mut cy = r.student("127.4.0.3", "Cy");
    let a = r.ask(
        &mut cy,
        "POST",
        "/api/class/remove",
        &json!({"student": kid}).to_string(),
    );
    assert_eq!(a.status, 403, "{}", a.body);
}

#[test]
fn the_queue_moves_on_after_training_a_removal_and_a_skip() {
    let gate = Gate::new();
    let hooks = TestHooks {
        gate: Some(gate.clone()),
        ..TestHooks::default()
    };
    let r = room_with(Config::default(), hooks);
    let session = r.class()["session"].as_str().unwrap().to_string();
    let mut ada = r.student("127.5.0.1", "Ada");
    let mut bob = r.student("127.5.0.2", "Bob");
    let mut cy = r.student("127.5.0.3", "Cy");
    // The teacher trains the class machine; three queue meanwhile.
    let t = r.teacher(
        "POST",
        &format!("/api/sessions/{session}/train"),
        Some(r#"{"opponent": "random", "games": 3}"#),
    );
    assert_eq!(t.status, 202, "{}", t.body);
    for d in [&mut ada, &mut bob, &mut cy] {
        let a = r.ask(d, "POST", "/api/class/play", "");
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(a.body["class"]["your_turn"], false);
    }
    assert_eq!(r.class()["class"]["playing"], Value::Null);
    // Training ends; the next look at the class gives Ada the board.
    gate.allow(3);
    wait_until("training ends", PATIENCE, || {
        r.teacher("GET", &format!("/api/sessions/{session}"), None).json()["training"]["running"] == false
    });
    let a = r.ask(&mut ada, "GET", "/api/class", "");
    assert_eq!(a.body["class"]["your_turn"], true, "{}", a.body);
    // Ada starts her game and moves; the teacher removes her: Bob's turn,
    // on a fresh board, and nobody is charged with her game.
    assert_eq!(r.ask(&mut ada, "POST", "/api/class/play", "").status, 200);
    let a = r.ask(&mut ada, "POST", "/api/class/move", r#"{"move": "a2"}"#);
    assert_eq!(a.status, 200, "{}", a.body);
    let k = r.teacher(
        "POST",
        "/api/class/remove",
        Some(&json!({"student": r.number("Ada")}).to_string()),
    );
    assert_eq!(k.status, 200);
    let a = r.ask(&mut bob, "GET", "/api/class", "");
    assert_eq!(a.body["class"]["your_turn"], true, "{}", a.body);
    assert_eq!(a.body["view"]["board"]["history"], json!([]), "{}", a.body);
    assert_eq!(a.body["class"]["games"], 0);
    // The teacher skips Bob's turn: Cy's. A second skip of Bob's turn skips nobody.
    let turn = r.class()["class"]["turn"].clone();
    let k = r.teacher("POST", "/api/class/skip", Some(&json!({"turn": turn}).to_string()));
    assert_eq!(k.status, 200, "{}", k.body);
    assert_eq!(k.json()["class"]["playing"], "Cy");
    let k = r.teacher("POST", "/api/class/skip", Some(&json!({"turn": turn}).to_string()));
    assert_refused(&k, 409, "has ended already: nothing was skipped");
    assert_eq!(r.class()["class"]["playing"], "Cy");
    let a = r.ask(&mut bob, "GET", "/api/class", "");
    assert_eq!(
        a.body["class"]["notice"]["words"],
        "The teacher skipped your turn: press Play a game to queue again."
    );
}

/// During a student's turn the class machine is theirs: the teacher's
/// page may not move, start a game, train or replace it. Between turns the
/// teacher may play it, and that game is logged with the students'; a
/// game the teacher leaves unfinished is not the next student's.
#[test]
fn the_teachers_page_waits_for_a_students_game_and_its_own_games_are_logged() {
    let r = room();
    let session = r.class()["session"].as_str().unwrap().to_string();
    let at = |what: &str| format!("/api/sessions/{session}{what}");
    // Between turns: the teacher plays a game and resigns it.
    assert_eq!(r.teacher("POST", &at("/move"), Some(r#"{"move": "a2"}"#)).status, 200);
    assert_eq!(r.teacher("POST", &at("/resign"), None).status, 200);
    let log = r.teacher("GET", "/api/class/log", None).json();
    assert_eq!(log["games"][0]["student"], "the teacher", "{log}");
    assert_eq!(log["games"][0]["result"], "The teacher resigned. HER wins.", "{log}");
    assert_eq!(log["games"][0]["moves"].as_array().unwrap().len(), 2, "{log}");
    // The teacher starts another and leaves it; Ada queues: a fresh board is hers.
    assert_eq!(r.teacher("POST", &at("/game"), None).status, 200);
    assert_eq!(r.teacher("POST", &at("/move"), Some(r#"{"move": "a2"}"#)).status, 200);
    let mut ada = r.student("127.10.0.1", "Ada");
    let a = r.ask(&mut ada, "POST", "/api/class/play", "");
    assert_eq!(a.body["class"]["your_turn"], true, "{}", a.body);
    assert_eq!(a.body["view"]["board"]["history"], json!([]), "{}", a.body);
    let a = r.ask(&mut ada, "POST", "/api/class/move", r#"{"move": "b2"}"#);
    assert_eq!(a.status, 200, "{}", a.body);
    let history = a.body["view"]["board"]["history"].clone();
    // Ada's turn: every change from the teacher's page is refused, naming her.
    for (method, path, body) in [
        ("POST", at("/move"), Some(r#"{"move": "a2"}"#)),
        ("POST", at("/resign"), None),
        ("POST", at("/game"), None),
        ("POST", at("/referee"), Some(r#"{"on": true}"#)),
        ("POST", at("/train"), Some(r#"{"opponent": "random", "games": 5}"#)),
        ("POST", at("/watch"), Some(r#"{"opponent": "random"}"#)),
        ("POST", at("/machine"), Some("{}")),
    ] {
        let k = r.teacher(method, &path, body);
        assert_refused(
            &k,
            409,
            "Ada is playing the class machine: the board is theirs until their game ends",
        );
    }
    let a = r.ask(&mut ada, "GET", "/api/class", "");
    assert_eq!(
        a.body["view"]["board"]["history"], history,
        "the teacher changed nothing"
    );
    // Ada resigns from her own device: her game is logged as resigned.
    let a = r.ask(&mut ada, "POST", "/api/class/resign", "");
    assert_eq!(a.status, 200, "{}", a.body);
    let log = r.teacher("GET", "/api/class/log", None).json();
    assert_eq!(log["games"][1]["result"], "Ada resigned. HER wins.", "{log}");
    assert_eq!(r.class()["class"]["games"], 2);
}

#[test]
fn a_student_who_does_not_move_loses_the_turn_when_the_clock_runs_out() {
    let r = room();
    let k = r.teacher("POST", "/api/class/settings", Some(r#"{"move_seconds": 1}"#));
    assert_eq!(k.json()["class"]["move_seconds"], 1);
    let mut ada = r.student("127.6.0.1", "Ada");
    let mut bob = r.student("127.6.0.2", "Bob");
    for d in [&mut ada, &mut bob] {
        assert_eq!(r.ask(d, "POST", "/api/class/play", "").status, 200);
    }
    let a = r.ask(&mut ada, "GET", "/api/class", "");
    assert_eq!(a.body["class"]["your_turn"], true);
    assert!(a.body["class"]["seconds_left"].as_f64().unwrap() <= 1.0, "{}", a.body);
    // Ada never moves. Bob, looking at the class, gets the board once her second is up.
    wait_until("Ada's turn passes", PATIENCE, || {
        r.ask(&mut bob, "GET", "/api/class", "").body["class"]["your_turn"] == true
    });
    let a = r.ask(&mut ada, "POST", "/api/class/move", r#"{"move": "a2"}"#);
    assert_eq!(a.status, 409, "{}", a.body);
    assert!(
        a.body["error"].as_str().unwrap().contains("press Play a game"),
        "{}",
        a.body
    );
    let a = r.ask(&mut ada, "GET", "/api/class", "");
    assert_eq!(
        a.body["class"]["notice"]["words"], "Your time to move ran out: the turn passed to the next student.",
        "{}",
        a.body
    );
    let class = r.class();
    assert_eq!(class["class"]["games"], 0, "nobody is charged a game: {class}");
    assert_eq!(score(&class, "Ada") + score(&class, "Bob"), 0);
}

/// 200 rounds: the student on the board resigns as the teacher skips their
/// turn, sent together. Whichever lands first, the other finds the turn
/// over: the next student is never charged, and keeps the board.
#[test]
fn resign_and_skip_sent_together_never_charge_the_next_student() {
    let r = room();
    let mut devices = [r.student("127.7.0.1", "Ada"), r.student("127.7.0.2", "Bob")];
    let names = ["Ada", "Bob"];
    for d in devices.iter_mut() {
        assert_eq!(r.ask(d, "POST", "/api/class/play", "").status, 200);
    }
    let (mut resigned, mut skipped) = (0, 0);
    for round in 0..200 {
        let (p, q) = (round % 2, 1 - round % 2);
        let class = r.class();
        assert_eq!(class["class"]["playing"], names[p], "round {round}: {class}");
        let before = score(&class, names[q]);
        // The player starts their game, then resigns as the teacher skips.
        assert_eq!(r.ask(&mut devices[p], "POST", "/api/class/play", "").status, 200);
        let turn = r.class()["class"]["turn"].clone();
        let barrier = Barrier::new(2);
        let (player, teacher) = std::thread::scope(|s| {
            let device = &mut devices[p];
            let player = s.spawn(|| {
                barrier.wait();
                r.ask(device, "POST", "/api/class/resign", "").status
            });
            barrier.wait();
            let teacher = r
                .teacher("POST", "/api/class/skip", Some(&json!({"turn": turn}).to_string()))
                .status;
            (player.join().unwrap(), teacher)
        });
        match (player, teacher) {
            (200, 409) => resigned += 1,
            (409, 200) => skipped += 1,
            other => panic!("round {round}: resign and skip answered {other:?}"),
        }
        let class = r.class();
        assert_eq!(
            score(&class, names[q]),
            before,
            "round {round}: {} charged: {class}",
            names[q]
        );
        assert_eq!(class["class"]["playing"], names[q], "round {round}: {class}");
        // The player queues again, behind.
        assert_eq!(r.ask(&mut devices[p], "POST", "/api/class/play", "").status, 200);
    }
    eprintln!("{resigned} rounds resigned first, {skipped} skipped first");
    // Every game logged is a resignation of the student whose round it was.
    let log = r.teacher("GET", "/api/class/log", None).json();
    let games = log["games"].as_array().unwrap();
    assert_eq!(games.len(), resigned, "{resigned} resigned, {skipped} skipped");
    for g in games {
        assert_eq!(g["moves"], json!([]), "{g}");
    }
}

#[test]
fn a_student_is_told_a_save_failed_in_their_words_and_not_where() {
    let dir = scratch("class-save");
    let state = dir.join("machines").join("her.json");
    std::fs::create_dir_all(state.parent().unwrap()).unwrap();
    let r = room_with(
        Config {
            state: Some(state.clone()),
            ..Config::default()
        },
        TestHooks::default(),
    );
    // The folder goes, and a file takes its name: no save can land.
    std::fs::remove_dir_all(state.parent().unwrap()).unwrap();
    std::fs::write(state.parent().unwrap(), "not a folder").unwrap();
    let mut ada = r.student("127.8.0.1", "Ada");
    assert_eq!(r.ask(&mut ada, "POST", "/api/class/play", "").status, 200);
    let a = r.ask(&mut ada, "POST", "/api/class/resign", "");
    assert_eq!(a.status, 200, "{}", a.body);
    let shown = a.body.to_string();
    assert!(
        !shown.contains("machines"),
        "a student sees the teacher's path: {shown}"
    );
    assert_eq!(
        a.body["view"]["message"],
        "The class machine could not be saved just now; the teacher's screen says why."
    );
    assert_eq!(a.body["class"]["your_last"]["result"], "Ada resigned. HER wins.");
    // The teacher is told where, and why.
    let teacher = r.class();
    assert!(
        teacher["view"]["message"].as_str().unwrap().contains("machines"),
        "{teacher}"
    );
}

/// A server process, killed when the test is done with it.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `menace serve --classroom --state STATE` on 127.0.0.2 (the room) and
/// 127.0.0.1 (the teacher): the process, the room's address, the
/// teacher's base address and the join code it printed.
fn serve_class(state: &std::path::Path) -> (std::process::Child, SocketAddr, String, String) {
    serve_class_with(&["--state".as_ref(), state.as_os_str()], &scratch("class-data"))
}

/// `menace serve --classroom` with `extra` arguments and `data` as its
/// data folder (XDG_DATA_HOME), as [`serve_class`] tells it.
fn serve_class_with(
    extra: &[&std::ffi::OsStr],
    data: &std::path::Path,
) -> (std::process::Child, SocketAddr, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["serve", "--classroom", "--host", "127.0.0.2", "--port", "0"])
        .args(extra)
        .env("XDG_DATA_HOME", data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut printed = String::new();
    while !printed.contains("machine state file") {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            let mut why = String::new();
            let _ = child
                .stderr
                .take()
                .map(|mut e| std::io::Read::read_to_string(&mut e, &mut why));
            panic!("the server stopped: {printed}{why}");
        }
        printed.push_str(&line);
    }
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let after = |marker: &str| {
        let rest = printed
            .split(marker)
            .nth(1)
            .unwrap_or_else(|| panic!("no {marker:?} in {printed}"));
        rest.split_whitespace().next().unwrap().to_string()
    };
    let room: SocketAddr = after("the class joins at http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let teacher = after("teacher, on this computer: ").trim_end_matches('/').to_string();
    (child, room, teacher, after(" code "))
}

/// A class killed with kill -9 and started again on its state file: the
/// same code, students (their devices still theirs), queue and log.
#[test]
fn a_class_killed_and_restarted_is_the_class_it_was() {
    let dir = scratch("class-restart");
    let state = dir.join("her.json");
    let (child, room, teacher, code) = serve_class(&state);
    let mut server = Killed(child);
    let join = |from: &str, name: &str, code: &str| {
        let mut d = Device {
            from: from.to_string(),
            cookie: None,
        };
        let a = ask_at(
            room,
            &mut d,
            "POST",
            "/api/class/join",
            &json!({"code": code, "name": name}).to_string(),
        );
        assert_eq!(a.status, 200, "{}", a.body);
        d
    };
    let (mut ada, mut bob, mut cy) = (
        join("127.9.0.1", "Ada", &code),
        join("127.9.0.2", "Bob", &code),
        join("127.9.0.3", "Cy", &code),
    );
    // Ada plays and resigns; Bob and Cy queue: Bob's turn, Cy waits.
    for d in [&mut ada, &mut bob, &mut cy] {
        assert_eq!(ask_at(room, d, "POST", "/api/class/play", "").status, 200);
    }
    assert_eq!(ask_at(room, &mut ada, "POST", "/api/class/resign", "").status, 200);
    let k = call(
        "POST",
        &format!("{teacher}/api/class/settings"),
        Some(r#"{"move_seconds": 90}"#),
    );
    assert_eq!(k.status, 200, "{}", k.body);
    let before = call("GET", &format!("{teacher}/api/class"), None).json();
    assert_eq!(before["class"]["playing"], "Bob", "{before}");
    assert_eq!(before["class"]["queue"], json!(["Cy"]));
    // kill -9.
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let (child, room2, teacher2, code2) = serve_class(&state);
    let _server = Killed(child);
    assert_eq!(code2, code, "the same join code");
    let after = call("GET", &format!("{teacher2}/api/class"), None).json();
    for field in ["students", "log", "games", "playing", "queue", "move_seconds", "code"] {
        assert_eq!(after["class"][field], before["class"][field], "{field}: {after}");
    }
    assert_eq!(after["view"]["games_played"], 1, "the machine kept Ada's game");
    // Bob's device is still Bob, and his turn is his.
    let a = ask_at(room2, &mut bob, "GET", "/api/class", "");
    assert_eq!(a.body["class"]["you"], "Bob", "{}", a.body);
    assert_eq!(a.body["class"]["your_turn"], true, "{}", a.body);
    let a = ask_at(room2, &mut ada, "GET", "/api/class", "");
    assert_eq!(
        a.body["class"]["your_last"]["result"], "Ada resigned. HER wins.",
        "{}",
        a.body
    );
}

/// With no `--state`, a class's machine is kept in menace's data folder
/// as it learns: killed with kill -9 and started again, the server comes
/// back with every finished game (a student's, and a teacher's training).
#[test]
fn a_class_with_no_state_file_keeps_its_machine_in_the_data_folder() {
    let data = scratch("class-default");
    let (child, room, teacher, code) = serve_class_with(&[], &data);
    let mut server = Killed(child);
    let kept = data.join("menace").join("classroom.json");
    let mut ada = Device {
        from: "127.9.1.1".to_string(),
        cookie: None,
    };
    let a = ask_at(
        room,
        &mut ada,
        "POST",
        "/api/class/join",
        &json!({"code": code, "name": "Ada"}).to_string(),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(ask_at(room, &mut ada, "POST", "/api/class/play", "").status, 200);
    assert_eq!(ask_at(room, &mut ada, "POST", "/api/class/resign", "").status, 200);
    let session = call("GET", &format!("{teacher}/api/class"), None).json()["session"]
        .as_str()
        .unwrap()
        .to_string();
    let r = call(
        "POST",
        &format!("{teacher}/api/sessions/{session}/train"),
        Some(r#"{"opponent": "random", "games": 30}"#),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    wait_until("the training is saved", PATIENCE, || {
        std::fs::read_to_string(&kept)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|v| v["games_played"] == 31)
    });
    let boxes = serde_json::from_str::<Value>(&std::fs::read_to_string(&kept).unwrap()).unwrap()["machine"].clone();
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let (child, _, teacher2, code2) = serve_class_with(&[], &data);
    let _server = Killed(child);
    assert_eq!(code2, code, "the same class");
    let after = call("GET", &format!("{teacher2}/api/class"), None).json();
    assert_eq!(after["view"]["games_played"], 31, "{after}");
    assert_eq!(after["class"]["log"][0]["student"], "Ada", "{after}");
    let session2 = after["session"].as_str().unwrap();
    let state: Value =
        serde_json::from_str(&call("GET", &format!("{teacher2}/api/sessions/{session2}/state"), None).body).unwrap();
    assert_eq!(state["machine"], boxes, "bead for bead");
    // The teacher replaces the machine: the table and the log start again, from a line that says so.
    let r = call(
        "POST",
        &format!("{teacher2}/api/sessions/{session2}/machine"),
        Some(r#"{"game": "hexapawn"}"#),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let k = call("GET", &format!("{teacher2}/api/class"), None).json();
    assert_eq!(k["view"]["games_played"], 0);
    assert_eq!(
        k["class"]["log"],
        json!([{"game": 1, "student": "the teacher", "moves": [], "result": "The teacher replaced HER (after 31 games): the table and the log start again.", "replaced": true}])
    );
    assert_eq!(k["class"]["students"][0]["losses"], 0, "{k}");
    assert_eq!(k["class"]["students"][0]["wins"], 0, "{k}");
}

/// A state file touched (its time changed, not its text) is still the
/// server's: games go on being saved. One changed by something else is
/// left alone, the teacher is told, and on Ctrl-C the machine is written
/// beside it and the server says so rather than that it was saved.
#[test]
fn a_touched_state_file_is_saved_to_and_a_changed_one_is_never_called_saved() {
    let dir = scratch("touched");
    let state = dir.join("her.json");
    let (mut child, line) = start_serve(&["--state".as_ref(), state.as_os_str()]);
    let base = url_of(&line);
    let base = base.as_str();
    let (id, _) = new_session(base, r#"{"seed": 3}"#);
    let resign = || {
        assert_eq!(
            call("POST", &format!("{base}/api/sessions/{id}/game"), None).status,
            200
        );
        call("POST", &format!("{base}/api/sessions/{id}/resign"), None).json()
    };
    let games_in_file = || -> u64 {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
        v["games_played"].as_u64().unwrap()
    };
    resign();
    assert_eq!(games_in_file(), 1);
    // touch: a new time, the same text.
    let later = std::time::SystemTime::now() + Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&state)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let v = resign();
    assert!(v["message"].is_null(), "{v}");
    assert_eq!(games_in_file(), 2, "saved after a touch");
    // Something else writes the file: left as it is, and the teacher told.
    let other = std::fs::read_to_string(&state)
        .unwrap()
        .replacen("\"games_played\": 2", "\"games_played\": 7", 1);
    std::fs::write(&state, &other).unwrap();
    let v = resign();
    assert!(
        v["message"]
            .as_str()
            .unwrap_or_default()
            .contains("was changed on disk"),
        "{v}"
    );
    assert_eq!(std::fs::read_to_string(&state).unwrap(), other);
    // Ctrl-C: not "saved"; the machine is beside the file.
    let (status, _) = ctrl_c(&mut child);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(!status.success(), "{err}");
    let beside = dir.join("her.unsaved-1.json");
    assert!(
        err.contains(&format!("the machine as it stopped is in '{}'", beside.display())),
        "{err}"
    );
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&beside).unwrap()).unwrap();
    assert_eq!(kept["games_played"], 3, "no game lost");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), other);
}
