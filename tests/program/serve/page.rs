//! The page's own files and a machine played, trained and downloaded through
//! the endpoints the page calls.

use super::*;

#[test]
fn the_page_and_its_files_are_in_the_program() {
    let s = Server::new();
    let page = s.get("/");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.body.contains("<script type=\"module\" src=\"/app.js\"></script>"));
    for (path, kind, words) in [
        (
            "/app.js",
            "text/javascript",
            "import { render, renderCurves } from \"./render.js\";",
        ),
        ("/charts.js", "text/javascript", "export function lineChart"),
        ("/style.css", "text/css", "@media print"),
    ] {
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert!(r.content_type.starts_with(kind), "{path}: {}", r.content_type);
        assert!(r.body.contains(words), "{path}");
    }
    // Every module the page's script imports, and those they import, is served.
    let mut modules = vec!["/app.js".to_string()];
    let mut k = 0;
    while k < modules.len() {
        let r = s.get(&modules[k]);
        assert_eq!(r.status, 200, "{}", modules[k]);
        assert!(r.content_type.starts_with("text/javascript"), "{}", modules[k]);
        for line in r.body.lines().filter(|l| l.starts_with("import ")) {
            let from = line.split("from \"./").nth(1).and_then(|t| t.split('"').next());
            let path = format!("/{}", from.unwrap_or_else(|| panic!("{}: {line}", modules[k])));
            if !modules.contains(&path) {
                modules.push(path);
            }
        }
        k += 1;
    }
    modules.sort();
    assert_eq!(
        modules,
        [
            "/actions.js",
            "/api.js",
            "/app.js",
            "/board.js",
            "/boxes.js",
            "/charts.js",
            "/classroom.js",
            "/engine.js",
            "/offline.js",
            "/render.js",
            "/state.js"
        ]
    );
    // The font is fetched as bytes.
    let font = ureq::get(&format!("{}/DejaVuSans.ttf", s.base)).call().unwrap();
    assert_eq!(font.content_type(), "font/ttf");
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut font.into_reader(), &mut bytes).unwrap();
    assert_eq!(bytes.len(), menace::font::FONT_BYTES.len());
    // Nothing on the page comes from elsewhere.
    for path in ["/", "/style.css"]
        .into_iter()
        .chain(modules.iter().map(String::as_str))
    {
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

/// The curves download names each game's own opponent: in a session of a
/// game by hand (resigned), then 3 games against random, then 2 against
/// perfect, game 0 and game 1 are the person's (`human`, as `train --save`
/// names a person), games 2 to 4 random's, 5 and 6 perfect's.
#[test]
fn the_curves_download_names_each_games_own_opponent() {
    let s = Server::new();
    let (id, _) = s.session(r#"{"game": "hexapawn", "seed": 3}"#);
    assert_eq!(s.post(&format!("/api/sessions/{id}/game"), "{}").status, 200);
    let r = s.post(&format!("/api/sessions/{id}/resign"), "{}");
    assert_eq!(r.status, 200, "{}", r.body);
    for (opponent, games) in [("random", 3), ("perfect", 2)] {
        let r = s.post(
            &format!("/api/sessions/{id}/train"),
            &format!(r#"{{"opponent": "{opponent}", "games": {games}}}"#),
        );
        assert_eq!(r.status, 202, "{}", r.body);
        s.wait_for_training(&id);
    }
    let page = s.get(&format!("/api/sessions/{id}/curves.csv"));
    assert_eq!(page.status, 200, "{}", page.body);
    let rows: Vec<Vec<String>> = page.body.lines().map(split_csv).collect();
    let column = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    let (game, opponent, arm) = (column("game"), column("opponent"), column("arm"));
    let seen: Vec<(String, String, String)> = rows[1..]
        .iter()
        .map(|r| (r[game].clone(), r[opponent].clone(), r[arm].clone()))
        .collect();
    let want: Vec<(String, String, String)> = [
        (0, "human"),
        (1, "human"),
        (2, "random"),
        (3, "random"),
        (4, "random"),
        (5, "perfect"),
        (6, "perfect"),
    ]
    .iter()
    .map(|(g, o)| (g.to_string(), o.to_string(), format!("HER vs {o}")))
    .collect();
    assert_eq!(seen, want);
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
            // The experiment's own words differ; the run's exact lines (the
            // loss rate and the losses so far) are the whole machine's life,
            // which the page does not compute: its cells are empty.
            if ["experiment", "title", "arm"].contains(&c.as_str()) {
                continue;
            }
            if ["loss_rate_exact", "losses_exact"].contains(&c.as_str()) {
                assert_eq!(a, "", "{c} at game {}", p[9]);
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
