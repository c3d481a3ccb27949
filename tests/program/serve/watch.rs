//! Watched games, stopping, and the perfect Hex opponent solved as games reach it.

use super::*;

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
    // After games trained (not drawn), no box is the last game's.
    let r = s.post(&at("/train"), r#"{"opponent": "random", "games": 50}"#);
    assert_eq!(r.status, 202, "{}", r.body);
    s.wait_for_training(&id);
    let after = s.get(&at("/boxes")).json();
    assert_eq!(after["last_game"], serde_json::json!([]), "{}", after["last_game"]);
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
