//! `menace serve` over HTTP: every endpoint, and every kind of bad request,
//! against servers started in this process on ephemeral ports (and one
//! started as the command line starts it).

use crate::common;

mod holes;
mod network;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
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

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menace-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn assert_refused(r: &Reply, status: u16, words: &str) {
    assert_eq!(r.status, status, "{}", r.body);
    assert!(r.content_type.contains("json"), "{}", r.content_type);
    assert!(r.error().contains(words), "expected '{words}' in: {}", r.error());
}

#[test]
fn the_page_and_its_files_are_in_the_program() {
    let s = Server::new();
    let page = s.get("/");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.body.contains("<script type=\"module\" src=\"/app.js\"></script>"));
    for (path, kind, words) in [
        ("/app.js", "text/javascript", "import { lineChart"),
        ("/charts.js", "text/javascript", "export function lineChart"),
        ("/style.css", "text/css", "@media print"),
    ] {
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert!(r.content_type.starts_with(kind), "{path}: {}", r.content_type);
        assert!(r.body.contains(words), "{path}");
    }
    // The font is fetched as bytes.
    let font = ureq::get(&format!("{}/DejaVuSans.ttf", s.base)).call().unwrap();
    assert_eq!(font.content_type(), "font/ttf");
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut font.into_reader(), &mut bytes).unwrap();
    assert_eq!(bytes.len(), menace::experiment::plot::FONT_BYTES.len());
    // Nothing on the page comes from elsewhere.
    for path in ["/", "/app.js", "/charts.js", "/style.css"] {
        let body = s.get(path).body;
        assert!(
            !body.contains("http://") || path == "/charts.js",
            "{path} names another site"
        );
        assert!(!body.contains("https://"), "{path} names another site");
    }
    assert_refused(&s.get("/nothing-here"), 404, "no page or endpoint at /nothing-here");
    assert_refused(&s.post("/", "{}"), 405, "POST is not allowed on /");
}

#[test]
fn the_games_offered() {
    let s = Server::new();
    let v = s.get("/api/games").json();
    let specs: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["spec"].as_str().unwrap())
        .collect();
    for spec in [
        "hexapawn",
        "octopawn",
        "tictactoe",
        "hex:3",
        "hex:5",
        "chessapawn",
        "minihexchess",
    ] {
        assert!(specs.contains(&spec), "{spec} missing from {specs:?}");
    }
    let hexapawn = &v["games"][0];
    assert_eq!(hexapawn["machine"], "HER");
    assert_eq!(hexapawn["machine_side"], "Black");
    assert_eq!(hexapawn["players"], serde_json::json!(["White", "Black"]));
}

#[test]
fn a_game_by_moves_shows_the_box_drawn_and_the_bead_lost() {
    let s = Server::new();
    // Seed 3, as in `menace play hexapawn --seed 3`: after 1. b2 HER draws a2, and bxc3 wins.
    let (id, v) = s.session(r#"{"game": "hexapawn", "seed": 3}"#);
    assert_eq!(v["machine"], "HER");
    assert_eq!(v["person_side"], "White");
    assert_eq!(v["boxes"], 19);
    let start_beads = v["beads"].as_f64().unwrap();
    let moves: Vec<&str> = v["board"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["a2", "b2", "c2"]);
    assert_eq!(v["board"]["moves"][1]["from"], 1);
    assert_eq!(v["board"]["moves"][1]["to"], 4);
    assert!(v["board"]["svg"].as_str().unwrap().contains("data-cell=\"4\""));

    let v = s.play(&id, "b2");
    let d = &v["last_draw"];
    assert_eq!(d["box"], 2);
    assert_eq!(d["move"], "a2");
    assert_eq!(
        d["beads"][0],
        serde_json::json!({"move": "a2", "beads": 1, "colour": "red", "css": "#e6194b", "drawn": true})
    );
    assert_eq!(d["beads"][1]["move"], "axb2");
    assert_eq!(d["beads"][1]["drawn"], false);
    assert!(d["svg"].as_str().unwrap().contains("class=\"drawn\""));
    assert_eq!(v["board"]["history"], serde_json::json!(["b2", "a2"]));

    let v = s.play(&id, "bxc3");
    assert_eq!(v["board"]["over"], true);
    assert_eq!(v["board"]["result"], "You win.");
    let c = &v["last_changes"][0];
    assert_eq!((c["box"].as_u64(), c["move"].as_str()), (Some(2), Some("a2")));
    assert_eq!((c["before"].as_u64(), c["after"].as_u64()), (Some(1), Some(0)));
    assert_eq!(v["score"], serde_json::json!({"wins": 0, "draws": 0, "losses": 1}));
    assert_eq!(v["against_person"]["losses"], 1);
    assert_eq!(v["games_played"], 1);
    assert!(v["exact"]["perfect"]["loss"].as_f64().unwrap() > 0.0);

    // The boxes show the change.
    let b = s.get(&format!("/api/sessions/{id}/boxes")).json();
    assert_eq!(b["total"], 19);
    let box2 = b["boxes"].as_array().unwrap().iter().find(|x| x["box"] == 2).unwrap();
    assert_eq!(box2["changed"], true);
    assert_eq!(box2["beads"][0]["beads"], 0);
    assert_eq!(box2["own_move"], 1);
    assert!(box2["svg"].as_str().unwrap().starts_with("<svg"));

    // The curves start at game 0, the machine as it was made, and have the game.
    let c = s.get(&format!("/api/sessions/{id}/curves")).json();
    assert_eq!(c["points"][0]["game"], 0);
    assert_eq!(c["points"][0]["beads"], start_beads);
    assert_eq!(c["points"][0]["michie_score"], 0.0);
    assert_eq!(c["points"][1]["game"], 1);
    assert_eq!(c["points"][1]["loss_rate"], 1.0);
    assert_eq!(c["points"][1]["michie_score"], -1.0);

    // A new game; then resigning ends it as a win for HER.
    let v = s.post(&format!("/api/sessions/{id}/game"), "").json();
    assert_eq!(v["board"]["over"], false);
    let v = s.post(&format!("/api/sessions/{id}/resign"), "").json();
    assert_eq!(v["board"]["result"], "You resign. HER wins.");
    assert_eq!(v["score"]["wins"], 1);
    // The view again, unchanged.
    let again = s.get(&format!("/api/sessions/{id}")).json();
    assert_eq!(again["games_played"], 2);
}

#[test]
fn the_machine_moves_first_when_it_plays_first() {
    let s = Server::new();
    let (_, v) = s.session(r#"{"game": "tictactoe", "seed": 1}"#);
    assert_eq!(v["machine"], "MENACE");
    assert_eq!(v["machine_side"], "X");
    assert_eq!(v["board"]["history"].as_array().unwrap().len(), 1);
    assert_eq!(v["last_draw"]["box"], 1);
    // Placements have no cell to come from.
    assert!(v["board"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["from"].is_null()));
    assert_eq!(v["board"]["moves"].as_array().unwrap().len(), 8);
}

#[test]
fn hex_offers_the_swap_and_hexchess_a_promotion_choice() {
    let s = Server::new();
    // The machine places Red's first stone; Blue may then swap.
    let (_, v) = s.session(r#"{"game": "hex:3,first=red", "seed": 5}"#);
    let moves = v["board"]["moves"].as_array().unwrap();
    let swap = moves.iter().find(|m| m["name"] == "swap").expect("the swap is offered");
    assert!(swap["from"].is_null() && swap["to"].is_null());
    assert_eq!(moves.len(), 9);

    // A White pawn one step from the far cell promotes to a rook, bishop or knight.
    let (id, v) = s.session(r#"{"game": "minihexchess,setup=0,3:K,3,-3:k,1,-2:P", "side": "black", "seed": 1}"#);
    let moves = v["board"]["moves"].as_array().unwrap();
    let promotions: Vec<&Value> = moves
        .iter()
        .filter(|m| m["name"].as_str().unwrap().contains('='))
        .collect();
    assert_eq!(promotions.len(), 3, "{moves:?}");
    assert!(promotions
        .iter()
        .all(|m| m["from"] == promotions[0]["from"] && m["to"] == promotions[0]["to"]));
    let name = promotions[2]["name"].as_str().unwrap().to_string();
    let v = s.play(&id, &name);
    assert_eq!(v["board"]["history"][0], name.as_str());
}

#[test]
fn training_runs_on_the_server_and_the_curves_follow() {
    let s = Server::new();
    let (id, _) = s.session(r#"{"game": "hexapawn", "seed": 9}"#);
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "random", "games": 300}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["training"]["total"], 300);
    let v = s.wait_for_training(&id);
    assert_eq!(v["games_played"], 300);
    let score = &v["score"];
    assert_eq!(score["wins"].as_u64().unwrap() + score["losses"].as_u64().unwrap(), 300);
    assert_eq!(v["training"]["done"], 300);
    assert_eq!(v["trained_against"], "random");
    // After training the person plays again: a new game is waiting.
    assert_eq!(v["board"]["over"], false);
    let c = s.get(&format!("/api/sessions/{id}/curves")).json();
    let points = c["points"].as_array().unwrap();
    assert_eq!(points.last().unwrap()["game"], 300);
    assert!(points.iter().any(|p| p.get("exact_perfect_loss").is_some()));
    assert_eq!(c["window"], 20);

    // Against a second machine, which is saved with it.
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "menace", "games": 50}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    s.wait_for_training(&id);
    let state: Value = serde_json::from_str(&s.get(&format!("/api/sessions/{id}/state")).body).unwrap();
    assert_eq!(state["opponent"], "menace");
    assert!(state["opponent_machine"].is_object());
    assert_eq!(state["games_played"], 350);
    // The second machine's boxes open like the first's: White's, as many as its file holds.
    let second = s.get(&format!("/api/sessions/{id}/boxes?machine=second"));
    assert_eq!(second.status, 200, "{}", second.body);
    let second = second.json();
    assert_eq!(second["machine"], "a second HER");
    assert_eq!(second["side"], "White");
    let held = state["opponent_machine"]["boxes"].as_array().map(Vec::len);
    assert_eq!(
        Some(second["total"].as_u64().unwrap() as usize),
        held,
        "{}",
        state["opponent_machine"]
    );
    assert_eq!(second["last_game"].as_array().unwrap().len(), 0);
    let first = s.get(&format!("/api/sessions/{id}/boxes")).json();
    assert_eq!(
        (first["machine"].as_str(), first["side"].as_str()),
        (Some("HER"), Some("Black"))
    );
    assert_eq!(
        v["second_machine_boxes"],
        Value::Null,
        "none before it trained against one"
    );
    let now = s.get(&format!("/api/sessions/{id}")).json();
    assert_eq!(now["second_machine_boxes"], second["total"]);
    assert_refused(
        &s.get(&format!("/api/sessions/{id}/boxes?machine=third")),
        400,
        "expected first or second",
    );
    let (other, _) = s.session(r#"{"game": "hexapawn"}"#);
    assert_refused(
        &s.get(&format!("/api/sessions/{other}/boxes?machine=second")),
        409,
        "has no second machine",
    );
}

/// The page's curves download is what `menace run` writes for the same
/// games: a session with seed 3 trained against random for 50 games, and
/// a one-seed experiment of seed 3, agree on every curve's every cell.
#[test]
fn the_curves_download_equals_what_menace_run_writes() {
    let s = Server::new();
    let (id, _) = s.session(r#"{"game": "hexapawn", "seed": 3}"#);
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "random", "games": 50}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    s.wait_for_training(&id);
    let page = s.get(&format!("/api/sessions/{id}/curves.csv"));
    assert_eq!(page.status, 200, "{}", page.body);
    let dir = scratch("curves-download");
    std::fs::write(
        dir.join("exp.json"),
        r#"{"name": "same", "title": "the same games", "game": "hexapawn", "games": 50, "seeds": [3],
            "exact_every": 1, "window": 20, "arms": [{"name": "HER", "side": "black", "opponent": "random"}]}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .arg("run")
        .arg(dir.join("exp.json"))
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = std::fs::read_to_string(dir.join("out/curves.csv")).unwrap();
    let rows = |text: &str| -> Vec<Vec<String>> { text.lines().map(split_csv).collect() };
    let (page_rows, run_rows) = (rows(&page.body), rows(&run));
    assert_eq!(page_rows[0], run_rows[0], "the same columns");
    assert_eq!(page_rows.len(), 52, "a header and games 0 to 50");
    assert_eq!(page_rows.len(), run_rows.len());
    let columns = &run_rows[0];
    let mut compared = 0;
    for (p, r) in page_rows[1..].iter().zip(&run_rows[1..]) {
        for ((c, a), b) in columns.iter().zip(p).zip(r) {
            // The experiment's own words differ; the run's exact line is the
            // whole machine's life, which the page does not compute.
            if ["experiment", "title", "arm", "loss_rate_exact"].contains(&c.as_str()) {
                continue;
            }
            assert_eq!(a, b, "{c} at game {}", p[9]);
            compared += 1;
        }
    }
    assert!(compared > 50 * 70, "{compared} cells");
    // The JSON download: the same table, a row an object, numbers as numbers.
    let json = s.get(&format!("/api/sessions/{id}/curves.json")).json();
    let last = json.as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["game"], 50);
    let csv_last = page_rows.last().unwrap();
    let k = columns.iter().position(|c| c == "loss_rate_mean").unwrap();
    assert_eq!(
        last["loss_rate_mean"].as_f64().unwrap(),
        csv_last[k].parse::<f64>().unwrap()
    );
    assert_eq!(
        last["settings"],
        "beads 1, reinforcement gardner, empty box resign, boxes all"
    );
    assert!(json[0]["win_rate_mean"].is_null(), "no rate before the first game");
}

/// A line of CSV split at its commas, quoted fields kept whole.
fn split_csv(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}

#[test]
fn while_training_the_page_is_answered_and_the_machine_is_left_alone() {
    // The gate lets the run play only the games the test allows: no timing.
    let gate = Gate::new();
    let s = Server::with_hooks(
        Config::default(),
        TestHooks {
            gate: Some(gate.clone()),
            ..TestHooks::default()
        },
    );
    let (id, _) = s.session(r#"{"game": "tictactoe", "seed": 2}"#);
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "mcts:10000", "games": 100000}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let busy = "the machine is training";
    assert_refused(
        &s.post(&format!("/api/sessions/{id}/move"), r#"{"move": "b2"}"#),
        409,
        busy,
    );
    assert_refused(&s.post(&format!("/api/sessions/{id}/game"), ""), 409, busy);
    assert_refused(&s.post(&format!("/api/sessions/{id}/resign"), ""), 409, busy);
    assert_refused(&s.post(&format!("/api/sessions/{id}/machine"), "{}"), 409, busy);
    assert_refused(&s.put(&format!("/api/sessions/{id}/state"), "{}"), 409, busy);
    assert_refused(
        &s.post(
            &format!("/api/sessions/{id}/train"),
            r#"{"opponent": "random", "games": 5}"#,
        ),
        409,
        "already training",
    );
    // Progress and curves are read meanwhile.
    let c = s.get(&format!("/api/sessions/{id}/curves")).json();
    assert_eq!(c["training"]["running"], true);
    assert_eq!(c["training"]["total"], 100000);
    let v = s.get(&format!("/api/sessions/{id}")).json();
    assert_eq!(
        (v["training"]["running"].as_bool(), v["training"]["done"].as_u64()),
        (Some(true), Some(0))
    );
    // Three games, then a stop: exactly three played, and the machine is the person's again.
    gate.allow(3);
    wait_until("three games are played", PATIENCE, || {
        s.get(&format!("/api/sessions/{id}")).json()["training"]["done"] == 3
    });
    let r = s.post(&format!("/api/sessions/{id}/stop"), "");
    assert_eq!(r.status, 200);
    let v = s.wait_for_training(&id);
    assert_eq!(v["training"]["done"], 3);
    assert_eq!(v["games_played"], 3);
    assert_eq!(v["board"]["over"], false);
    assert_eq!(s.post(&format!("/api/sessions/{id}/game"), "").status, 200);
}

#[test]
fn the_state_downloads_and_uploads_in_the_cli_format() {
    let s = Server::new();
    let (id, _) = s.session(r#"{"game": "hexapawn", "seed": 3}"#);
    s.play(&id, "b2");
    s.play(&id, "bxc3");
    let r = s.get(&format!("/api/sessions/{id}/state"));
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, "application/json");
    let text = r.body;
    // The file the command line reads.
    let game = menace::Hexapawn::new(3, 3).unwrap();
    let trainer = menace::training::state::from_json(&game, &text).expect("a state file");
    assert_eq!(trainer.games_played(), 1);
    assert_eq!(trainer.opponent_spec().to_string(), "human");
    let dir = scratch("download");
    let path = dir.join("her.json");
    std::fs::write(&path, &text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "hexapawn", "--state"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("19 boxes of a machine playing Black in hexapawn, after 1 games (44 beads)"));

    // Into another tab: the same machine.
    let (other, _) = s.session(r#"{"game": "tictactoe"}"#);
    let r = s.put(&format!("/api/sessions/{other}/state"), &text);
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["game"], "hexapawn");
    assert_eq!(v["games_played"], 1);
    assert_eq!(v["beads"], 44);
    // A state trained by the command line loads too, and names its opponent.
    let trained = dir.join("trained.json");
    let status = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["train", "tictactoe", "--games", "40", "--opponent", "random", "--save"])
        .arg(&trained)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let v = s
        .put(
            &format!("/api/sessions/{other}/state"),
            &std::fs::read_to_string(&trained).unwrap(),
        )
        .json();
    assert_eq!(
        (v["game"].as_str(), v["games_played"].as_u64()),
        (Some("tictactoe"), Some(40))
    );
    assert_eq!(v["trained_against"], "random");
    let back: Value = serde_json::from_str(&s.get(&format!("/api/sessions/{other}/state")).body).unwrap();
    assert_eq!(back["opponent"], "random");
}

#[test]
fn a_new_machine_with_chosen_settings() {
    let s = Server::new();
    let (id, _) = s.session("{}");
    let r = s.post(
        &format!("/api/sessions/{id}/machine"),
        r#"{"game": "octopawn", "side": "white", "preset": "michie", "beads": "3", "reinforcement": "1/0/-1:last", "empty_box": "restock", "seed": 4}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["game"], "hexapawn:4x4");
    assert_eq!(v["machine_side"], "White");
    assert_eq!(
        v["settings"],
        "beads 3, reinforcement +1/+0/-1:last, empty box restock, boxes choices"
    );
    assert_eq!(v["games_played"], 0);
}

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

/// Start `menace serve --port 0 ARGS`; the process and the first line it
/// printed. `MENACE_SERVE_BIN` names another build to start instead (to
/// measure the load test against it); unset, this build's.
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

fn start_serve(args: &[&std::ffi::OsStr]) -> (std::process::Child, String) {
    let bin = std::env::var_os("MENACE_SERVE_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_menace").into());
    let mut child = Command::new(bin)
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
    // One file a page: the instructions, the board, then the labels.
    let pages = |stem: &str| -> Vec<String> {
        (1..)
            .map(|k| dir.join(format!("{stem}-{k}.svg")))
            .take_while(|p| p.exists())
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    };
    let her = pages("her");
    assert_eq!(her.len(), 3);
    assert!(her.iter().all(|svg| svg.starts_with("<svg")));
    assert_eq!(her[2].matches("class=\"label\"").count(), 19);
    assert!(her[2].contains("HER: 19 matchboxes for Black in hexapawn"));
    assert!(her[2].contains(">axb2</text>") && her[2].contains(">×1</text>"));
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

// ---- A busy or hostile class ----

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

fn url_of(line: &str) -> String {
    line.split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in: {line}"))
        .trim_end_matches('/')
        .to_string()
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

/// A line of `/proc/PID/status` (`Threads`, `VmHWM`, `VmRSS`), as a number.
fn proc_status(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
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

/// The `q` quantile of sorted times.
fn quantile(times: &[Duration], q: f64) -> Duration {
    times[((times.len() as f64 * q) as usize).min(times.len() - 1)]
}

#[test]
#[ignore = "a load test of 32 tabs: tens of seconds (.ci/run runs it)"]
fn thirty_two_tabs_train_while_others_poll_and_views_stay_quick() {
    // Another build (MENACE_SERVE_BIN, to compare) may not count requests' waits.
    let counted = std::env::var_os("MENACE_SERVE_BIN").is_none();
    let stats: &[&std::ffi::OsStr] = if counted { &["--test-stats".as_ref()] } else { &[] };
    let (mut child, line) = start_serve(stats);
    let base = Arc::new(url_of(&line));
    let pid = child.id();
    // Seven of every eight tabs train; the eighth watches games one by one
    // (what the page's watch mode asks), all against slow opponents among them.
    let mix = [
        ("hexapawn", "perfect"),
        ("tictactoe", "menace"),
        ("minihexchess", "mcts:100"),
        ("hex:11", "mcts:10000"),
        ("chessapawn", "mcts:10000"),
        ("octopawn", "random"),
        // (Hex 3×3: the page solves the whole game for its perfect player.)
        ("hex:3", "perfect"),
    ];
    let watched = [
        ("chessapawn", "mcts:10000"),
        ("hex:5", "mcts:10000"),
        ("hex:3", "perfect"),
        ("minihexchess", "mcts:100"),
    ];
    let begun = std::time::Instant::now();
    let make = |game: &str, seed: usize| new_session(&base, &format!(r#"{{"game": "{game}", "seed": {seed}}}"#)).0;
    let mut training = Vec::new();
    let mut watching = Vec::new();
    for k in 0..32 {
        if k % 8 == 7 {
            let (game, opponent) = watched[k / 8];
            watching.push((make(game, k), opponent));
            continue;
        }
        let (game, opponent) = mix[k % 8];
        let id = make(game, k);
        let r = call(
            "POST",
            &format!("{base}/api/sessions/{id}/train"),
            Some(&format!(r#"{{"opponent": "{opponent}", "games": 1000000}}"#)),
        );
        assert_eq!(r.status, 202, "{game} vs {opponent}: {}", r.body);
        training.push(id);
    }
    let tabs: Arc<Vec<String>> = Arc::new(
        training
            .iter()
            .chain(watching.iter().map(|(id, _)| id))
            .cloned()
            .collect(),
    );
    let set_up = begun.elapsed();
    let enough = Arc::new(AtomicBool::new(false));
    // The watching tabs play game after game until told enough.
    let watchers: Vec<_> = watching
        .iter()
        .map(|(id, opponent)| {
            let (base, enough) = (base.clone(), enough.clone());
            let (id, opponent) = (id.clone(), opponent.to_string());
            std::thread::spawn(move || {
                let mut games = 0u64;
                while !enough.load(Ordering::Relaxed) {
                    let r = call(
                        "POST",
                        &format!("{base}/api/sessions/{id}/watch"),
                        Some(&format!(r#"{{"opponent": "{opponent}", "frames": true}}"#)),
                    );
                    assert_eq!(r.status, 200, "watch {opponent}: {}", r.body);
                    games += 1;
                    assert_eq!(r.json()["games_played"], games);
                }
                games
            })
        })
        .collect();
    // Eight clients poll the tabs' views, curves and boxes, at least 1 500
    // requests each, and on until the tabs have trained 200 000 games between them.
    let pollers: Vec<_> = (0..8)
        .map(|p| {
            let (base, tabs, enough) = (base.clone(), tabs.clone(), enough.clone());
            std::thread::spawn(move || {
                let mut times: [Vec<Duration>; 3] = Default::default();
                for i in 0.. {
                    if i >= 1500 && enough.load(Ordering::Relaxed) {
                        break;
                    }
                    let id = &tabs[(p * 7 + i) % tabs.len()];
                    let kind = i % 3;
                    let what = ["", "/curves", "/boxes"][kind];
                    let asked = std::time::Instant::now();
                    let r = call("GET", &format!("{base}/api/sessions/{id}{what}"), None);
                    assert_eq!(r.status, 200, "{}", r.body);
                    times[kind].push(asked.elapsed());
                }
                times
            })
        })
        .collect();
    // Threads and memory over time, as the tabs train.
    let mut samples = Vec::new();
    wait_until("the tabs train 200 000 games", PATIENCE, || {
        samples.push((
            begun.elapsed().as_secs(),
            proc_status(pid, "Threads"),
            proc_status(pid, "VmRSS") / 1024,
        ));
        let done: u64 = training
            .iter()
            .map(|id| {
                call("GET", &format!("{base}/api/sessions/{id}"), None).json()["training"]["done"]
                    .as_u64()
                    .unwrap_or(0)
            })
            .sum();
        done >= 200_000
    });
    enough.store(true, Ordering::Relaxed);
    let mut times: [Vec<Duration>; 3] = Default::default();
    for t in pollers {
        for (all, some) in times.iter_mut().zip(t.join().unwrap()) {
            all.extend(some);
        }
    }
    let threads = proc_status(pid, "Threads");
    let stopping = std::time::Instant::now();
    for id in training.iter() {
        assert_eq!(
            call("POST", &format!("{base}/api/sessions/{id}/stop"), Some("")).status,
            200
        );
    }
    for id in training.iter() {
        wait_until("training stops", PATIENCE, || {
            call("GET", &format!("{base}/api/sessions/{id}"), None).json()["training"]["running"] == false
        });
    }
    let stopped = stopping.elapsed();
    let watched_games: Vec<u64> = watchers.into_iter().map(|t| t.join().unwrap()).collect();
    // How requests waited for the sessions' locks, counted in moves played
    // meanwhile by the sessions' training and watched games (a build without
    // the count answers 404).
    let waits = call("GET", &format!("{base}/api/stats"), None);
    let peak = proc_status(pid, "VmHWM");
    let _ = child.kill();
    let _ = child.wait();
    let mut all: Vec<Duration> = times.iter().flatten().copied().collect();
    all.sort();
    let mut line = format!("load: 32 tabs made and started in {set_up:?};");
    for (name, t) in ["views", "curves", "boxes"].iter().zip(times.iter_mut()) {
        t.sort();
        line += &format!(
            " {} GET {name}: p50 {:?}, p99 {:?}, max {:?};",
            t.len(),
            quantile(t, 0.5),
            quantile(t, 0.99),
            t[t.len() - 1]
        );
    }
    eprintln!(
        "{line} all {}: p50 {:?}, p99 {:?}; games watched {watched_games:?}; all stopped in {stopped:?}; server threads {threads}, peak memory {} MB",
        all.len(),
        quantile(&all, 0.5),
        quantile(&all, 0.99),
        peak / 1024
    );
    eprintln!("load: (seconds, threads, MB resident) {samples:?}");
    eprintln!("load: requests' waits for sessions: {}", waits.body);
    // No timing bound (the figures depend on the machine and its load):
    // a stall is caught by what the server counts instead. A training run
    // or a watched game lets go of its session after the move in play when
    // a request waits, so a request waits for a move, or a few when the
    // next slice takes the lock first; a lock held for a slice of fast
    // games (thousands of moves in 40 ms) or for a whole slow game (a
    // hundred moves of Hex 11) is far over the bound.
    if !counted {
        eprintln!("load: MENACE_SERVE_BIN's waits are not counted, so not checked");
    } else {
        let waits = waits.json();
        assert!(waits["lock_waits"].as_u64().unwrap() >= 4000, "{waits}");
        assert!(waits["most_moves_waited"].as_u64().unwrap() <= 8, "{waits}");
    }
    assert!(threads < 64, "{threads} threads");
    assert!(peak < 3 << 20, "{peak} kB");
}

#[test]
fn a_watched_game_names_its_changes_as_the_moves_played_and_no_game_is_dropped_unasked() {
    let s = Server::new();
    let (id, _) = s.session(r#"{"game": "hexapawn", "preset": "michie", "seed": 5}"#);
    let at = |suffix: &str| format!("/api/sessions/{id}{suffix}");
    // A game of the person's in progress: neither training nor watching drops it unasked.
    s.play(&id, "b2");
    for (path, body) in [
        ("/train", r#"{"opponent": "random", "games": 3}"#),
        ("/watch", r#"{"opponent": "random"}"#),
    ] {
        let r = s.post(&at(path), body);
        assert_eq!(r.status, 409, "{path}: {}", r.body);
        assert!(
            r.error().contains("a game is in progress (1 move of yours)"),
            "{}",
            r.error()
        );
    }
    assert_eq!(s.get(&at("")).json()["board"]["history"].as_array().unwrap().len(), 2);
    // Told to, it drops it; then games are watched one by one.
    let r = s.post(
        &at("/watch"),
        r#"{"opponent": "random", "frames": true, "discard": true}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let mut v = r.json();
    for game in 0..20 {
        let w = &v["watched"];
        let history: Vec<&str> = v["board"]["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let steps = w["steps"].as_array().unwrap();
        assert_eq!(steps.len(), history.len(), "a board for every move");
        assert_eq!(w["plies"], history.len());
        assert_eq!(v["games_played"], game + 1);
        assert_eq!(v["board"]["over"], true);
        for (k, step) in steps.iter().enumerate() {
            assert_eq!(step["move"], history[k]);
            assert_eq!(step["ply"], k + 1);
            assert!(step["board"].as_str().unwrap().starts_with("<svg"));
        }
        // Michie's rule changes every box drawn from: each named by the move
        // the game's record has at that ply, and the mirror noted as when drawn.
        let changes = v["last_changes"].as_array().unwrap();
        // (A position with one move has no box under Michie's box set: drawn without one.)
        let drawn: Vec<&Value> = steps
            .iter()
            .map(|st| &st["draw"])
            .filter(|d| d["box"].is_u64())
            .collect();
        assert_eq!(changes.len(), drawn.len(), "{changes:?}");
        for c in changes {
            let d = drawn.iter().find(|d| d["box"] == c["box"]).unwrap();
            let ply = common::move_number(c["moment"].as_str().unwrap());
            assert_eq!(c["move"], history[ply - 1], "{c}");
            assert_eq!(c["move"], d["move"]);
            assert_eq!(c["moment"], d["moment"]);
            assert_eq!(c["mirror_note"], d["mirror_note"]);
            assert_eq!(
                c["svg"].as_str().unwrap().matches("<g class=\"count\"").count(),
                d["beads"].as_array().unwrap().len()
            );
        }
        if game < 19 {
            v = s
                .post(&at("/watch"), r#"{"opponent": "random", "frames": true}"#)
                .json();
        }
    }
    // The boxes a page at a time: 17 (Michie's box set leaves out the two
    // positions with one move) in pages of 5, and by the machine's move.
    let b = s.get(&at("/boxes?per_page=5&page=2")).json();
    assert_eq!(
        (b["total"].as_u64(), b["pages"].as_u64(), b["page"].as_u64()),
        (Some(17), Some(4), Some(2))
    );
    assert_eq!(b["boxes"].as_array().unwrap().len(), 5);
    assert_eq!(b["boxes"][0]["box"], 6, "boxes 1 to 5 are the first page");
    let by_move = s.get(&at("/boxes?own_move=1")).json();
    let first = by_move["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["own_move"] == 1)
        .unwrap()["boxes"]
        .clone();
    assert_eq!(by_move["matched"], first);
    assert!(by_move["boxes"].as_array().unwrap().iter().all(|x| x["own_move"] == 1));
    assert!(
        !by_move["last_game"].as_array().unwrap().is_empty(),
        "the last game's boxes come first"
    );
    let r = s.get(&at("/boxes?page=first"));
    assert_eq!(r.status, 400);
    assert!(r.error().contains("page"), "{}", r.error());
}

#[test]
fn stop_ends_a_watched_game_against_a_slow_opponent_within_a_move() {
    // Hex 11 against mcts:10000: each of the opponent's moves is a long
    // search, and a game takes at least 21 moves (11 stones of the first
    // player's). Stop, sent once the game is under way, ends it where it
    // stands: the search in progress is cut short, its move is played, and
    // the game is left unfinished (no beads change, no game counted).
    let s = Arc::new(Server::new());
    let (id, _) = s.session(r#"{"game": "hex:11", "seed": 3}"#);
    let watcher = {
        let (s, id) = (s.clone(), id.clone());
        std::thread::spawn(move || {
            s.post(
                &format!("/api/sessions/{id}/watch"),
                r#"{"opponent": "mcts:10000", "frames": true}"#,
            )
        })
    };
    let mut seen = 0;
    wait_until("the watched game is under way", PATIENCE, || {
        let v = s.get(&format!("/api/sessions/{id}")).json();
        seen = v["board"]["history"].as_array().map_or(0, Vec::len);
        seen >= 2
    });
    assert_eq!(s.post(&format!("/api/sessions/{id}/stop"), "").status, 200);
    let r = watcher.join().unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let watched = &v["watched"];
    assert_eq!(watched["stopped"], true, "{watched}");
    // The search under way when Stop came, and the machine's reply at most.
    let plies = watched["plies"].as_u64().unwrap() as usize;
    assert!(
        (seen..=seen + 3).contains(&plies),
        "stopped at ply {plies}, asked at {seen}"
    );
    assert_eq!(watched["steps"].as_array().unwrap().len(), plies);
    assert_eq!(v["games_played"], 0);
    assert_eq!(v["score"], serde_json::json!({"wins": 0, "draws": 0, "losses": 0}));
    assert_eq!(v["last_changes"], serde_json::json!([]));
    assert!(
        v["board"]["result"].as_str().unwrap().starts_with("Stopped"),
        "{}",
        v["board"]
    );
    // The tab is free again: a game of the person's, and another watched game.
    assert_eq!(s.post(&format!("/api/sessions/{id}/game"), "").status, 200);
    let again = s.post(&format!("/api/sessions/{id}/watch"), r#"{"opponent": "random"}"#);
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["games_played"], 1);
}

#[test]
fn perfect_play_on_hex_4x4_is_solved_as_games_reach_it_and_the_second_player_never_wins() {
    // Hex 4×4 is over the page's exhaustive limit (its position bound is
    // 43 million), so the page's perfect player is the on-demand solver.
    // Without the swap the first player wins Hex on every board (Nash's
    // strategy-stealing argument; a Hex game cannot end drawn), so a
    // machine moving second against a perfect first player loses every game.
    let s = Server::new();
    let (id, v) = s.session(r#"{"game": "hex:4,swap=off,first=red", "side": "blue", "seed": 5}"#);
    assert_eq!(v["machine_side"], "Blue");
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "perfect", "games": 60}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let v = s.wait_for_training(&id);
    assert_eq!(v["games_played"], 60);
    assert_eq!(v["training"]["done"], 60);
    assert_eq!(v["score"], serde_json::json!({"wins": 0, "draws": 0, "losses": 60}));
    // A watched game against it ends the same way, move by move.
    let r = s.post(
        &format!("/api/sessions/{id}/watch"),
        r#"{"opponent": "perfect", "frames": true}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["watched"]["result"], "Perfect wins.", "{}", v["watched"]);
    assert_eq!(v["games_played"], 61);
    let plies = v["watched"]["plies"].as_u64().unwrap();
    // Red places at least 4 stones to join its edges, Blue one fewer.
    assert!((7..=16).contains(&plies), "{plies}");
    assert_eq!(v["watched"]["steps"].as_array().unwrap().len() as u64, plies);
    // perfect:P mixes in random moves: a game is still won or lost.
    let r = s.post(
        &format!("/api/sessions/{id}/train"),
        r#"{"opponent": "perfect:0.5", "games": 20}"#,
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let v = s.wait_for_training(&id);
    assert_eq!(v["games_played"], 81);
    let score = &v["score"];
    assert_eq!(score["draws"], 0);
    assert_eq!(score["wins"].as_u64().unwrap() + score["losses"].as_u64().unwrap(), 81);
    // Hex 6×6 is the largest board it plays: 7×7 is refused, naming the
    // game and what to train against instead.
    let (big, _) = s.session(r#"{"game": "hex:7"}"#);
    assert_refused(
        &s.post(
            &format!("/api/sessions/{big}/train"),
            r#"{"opponent": "perfect", "games": 1}"#,
        ),
        422,
        "needs the game solved, but hex:7 has too many positions to handle exactly (more than 1000000) on this page: train against mcts:N instead",
    );
}

#[test]
fn stop_cuts_short_a_perfect_hex_6x6_proof_and_the_tab_goes_on() {
    // Hex 6×6 with the swap, the perfect player (Red) placing first: the
    // empty board is lost for Red, and proving it so (every opening
    // answered) takes seconds of search before Red's first move (4.4 s of
    // CPU time here). Stop, sent as a watched game or a
    // training run begins, cuts that search short: the game is left
    // unfinished (nothing counted, no beads changed), and the tab is free.
    let s = Arc::new(Server::with_hooks(
        Config::default(),
        TestHooks {
            stats: true,
            ..TestHooks::default()
        },
    ));
    let (id, v) = s.session(r#"{"game": "hex:6,first=red", "side": "blue", "seed": 2}"#);
    assert_eq!(v["board"]["over"], false, "the person's game, Red to move");
    let at = |suffix: &str| format!("/api/sessions/{id}{suffix}");
    let watcher = {
        let (s, id) = (s.clone(), id.clone());
        std::thread::spawn(move || s.post(&format!("/api/sessions/{id}/watch"), r#"{"opponent": "perfect"}"#))
    };
    // The watched game has begun once the person's game is dropped.
    wait_until("the watched game begins", PATIENCE, || {
        s.get(&at("")).json()["board"]["over"] == true
    });
    let asked = std::time::Instant::now();
    assert_eq!(s.post(&at("/stop"), "").status, 200);
    let r = watcher.join().unwrap();
    eprintln!("hex:6 perfect: a watched game stopped {:?} after Stop", asked.elapsed());
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let watched = &v["watched"];
    assert_eq!(watched["stopped"], true, "{watched}");
    // At most the move of the search cut short (a legal one) was played.
    assert!(watched["plies"].as_u64().unwrap() <= 1, "{watched}");
    assert_eq!(v["games_played"], 0);
    // And a training run, stopped as it begins.
    let r = s.post(&at("/train"), r#"{"opponent": "perfect", "games": 1000000}"#);
    assert_eq!(r.status, 202, "{}", r.body);
    // The tab answers while the opponent thinks: its boxes (read under its
    // lock) and a refusal to start a game of the person's.
    assert_eq!(s.get(&at("/boxes")).status, 200);
    assert_refused(&s.post(&at("/game"), ""), 409, "training");
    let asked = std::time::Instant::now();
    assert_eq!(s.post(&at("/stop"), "").status, 200);
    let v = s.wait_for_training(&id);
    eprintln!("hex:6 perfect: training stopped {:?} after Stop", asked.elapsed());
    assert_eq!(v["training"]["done"], 0);
    assert_eq!(v["games_played"], 0);
    assert_eq!(v["score"], serde_json::json!({"wins": 0, "draws": 0, "losses": 0}));
    assert_eq!(v["last_changes"], serde_json::json!([]));
    // The tab goes on: a game of the person's, then a run against the same
    // opponent played to its end (the proof now whole), every game counted once.
    assert_eq!(s.post(&at("/game"), "").status, 200);
    let r = s.post(&at("/train"), r#"{"opponent": "perfect", "games": 3, "discard": true}"#);
    assert_eq!(r.status, 202, "{}", r.body);
    let v = s.wait_for_training(&id);
    assert_eq!(v["training"]["done"], 3);
    assert_eq!(v["games_played"], 3);
    let score = &v["score"];
    assert_eq!(score["draws"], 0);
    assert_eq!(score["wins"].as_u64().unwrap() + score["losses"].as_u64().unwrap(), 3);
    // No request waited for the tab's lock while more than a few moves were played.
    let waits = s.get("/api/stats").json();
    assert!(waits["most_moves_waited"].as_u64().unwrap() <= 8, "{waits}");
}

#[test]
#[ignore = "a load test of 32 tabs: tens of seconds (.ci/run runs it)"]
fn thirty_two_tabs_against_perfect_hex_6x6_share_one_table_per_board() {
    // Every tab trains against the perfect player on Hex 6×6, half with the
    // swap and half without: the tabs of a board share its solver's table
    // (2^17 buckets of 4 entries, 47 MB), and each keeps at most 1 024
    // positions' answers of its own, so the server's memory is that of two
    // tables and the tabs' machines, not 32 tables (1.5 GB).
    let (mut child, line) = start_serve(&["--test-stats".as_ref()]);
    let base = Arc::new(url_of(&line));
    let pid = child.id();
    let tabs: Vec<String> = (0..32)
        .map(|k| {
            let game = if k % 2 == 0 { "hex:6" } else { "hex:6,swap=off" };
            let (id, _) = new_session(&base, &format!(r#"{{"game": "{game}", "seed": {k}}}"#));
            let r = call(
                "POST",
                &format!("{base}/api/sessions/{id}/train"),
                Some(r#"{"opponent": "perfect", "games": 1000000}"#),
            );
            assert_eq!(r.status, 202, "{game}: {}", r.body);
            id
        })
        .collect();
    let begun = std::time::Instant::now();
    let mut samples = Vec::new();
    let mut done = Vec::new();
    // Until every tab has finished games of its own (so every tab's
    // opponent has searched): four each at least.
    wait_until("every tab trains 4 games", PATIENCE, || {
        samples.push((begun.elapsed().as_secs(), proc_status(pid, "VmRSS") / 1024));
        done = tabs
            .iter()
            .map(|id| {
                let v = call("GET", &format!("{base}/api/sessions/{id}"), None).json();
                // The boxes are read under the tab's lock: never held for a proof.
                let boxes = call("GET", &format!("{base}/api/sessions/{id}/boxes"), None);
                assert_eq!(boxes.status, 200, "{}", boxes.body);
                v["training"]["done"].as_u64().unwrap_or(0)
            })
            .collect();
        done.iter().all(|&d| d >= 4)
    });
    let trained = begun.elapsed();
    let stopping = std::time::Instant::now();
    for id in &tabs {
        assert_eq!(
            call("POST", &format!("{base}/api/sessions/{id}/stop"), Some("")).status,
            200
        );
    }
    for id in &tabs {
        wait_until("training stops", PATIENCE, || {
            let v = call("GET", &format!("{base}/api/sessions/{id}"), None).json();
            v["training"]["running"] == false && v["games_played"] == v["training"]["done"]
        });
    }
    let stopped = stopping.elapsed();
    let waits = call("GET", &format!("{base}/api/stats"), None).json();
    let threads = proc_status(pid, "Threads");
    let peak = proc_status(pid, "VmHWM");
    let _ = child.kill();
    let _ = child.wait();
    eprintln!(
        "hex:6 perfect, 32 tabs: {} games in {trained:?} (fewest a tab {}, most {}); all stopped in {stopped:?}; {threads} threads, peak {} MB; waits {waits}",
        done.iter().sum::<u64>(),
        done.iter().min().unwrap(),
        done.iter().max().unwrap(),
        peak / 1024
    );
    eprintln!("hex:6 perfect: (seconds, MB resident) {samples:?}");
    assert!(waits["most_moves_waited"].as_u64().unwrap() <= 8, "{waits}");
    assert!(threads < 64, "{threads} threads");
    // Two shared tables (94 MB) and the rest of the server; a table a tab would be over 1.5 GB.
    assert!(peak < 250 << 10, "peak {} MB", peak >> 10);
}
