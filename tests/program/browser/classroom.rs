//! A class playing one machine from several browsers.

use super::*;

/// A student plays the class machine on their own page: pieces clicked
/// until the game is no longer theirs.
async fn play_the_class_game(b: &Page) {
    b.wait_for_text("#class-turn", "Your").await;
    if b.text("#class-turn").await.contains("Start your game") {
        // The game before stays on the board until this student starts theirs.
        b.click("#class-play").await;
    }
    b.wait_for_text("#class-turn", "Your game").await;
    for _ in 0..40 {
        b.not_busy().await;
        if !b.text("#class-turn").await.contains("Your game") {
            return;
        }
        if b.count("#board .cell.selected").await > 0 {
            b.click("#board .cell.target").await;
        } else if b.count("#board .cell.movable").await > 0 {
            b.click("#board .cell.movable").await;
        }
    }
    panic!("the game did not end: {}", b.text("#status").await);
}

/// A class plays one machine: a teacher and two students, each their own
/// browser; both students' games reinforce the one machine in the order
/// they ended; a student may not change the machine; nobody without the
/// code or the token gets anything but the page.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn a_class_plays_one_machine_from_three_browsers() {
    require_browser();
    let (_server, room, code, token) = start_classroom();
    let port = room.trim_end_matches('/').rsplit(':').next().unwrap().to_string();
    let own = format!("http://127.0.0.1:{port}/");
    let (_driver, driver) = start_driver();
    let shots = scratch("class");
    let runtime = runtime();
    runtime.block_on(async {
        let teacher = Page::open(&driver, &shots, &scratch("class-teacher")).await;
        // The teacher's link from the room's side: the token leaves the
        // address bar once used, and the page stays the teacher's on reload.
        teacher.go(&format!("{room}?teacher={token}")).await;
        teacher.viewport(1280, 720).await;
        assert_eq!(teacher.js("return document.body.dataset.role").await, json!("teacher"));
        assert_eq!(teacher.js("return location.href").await, json!(room));
        teacher.go(&room).await;
        assert_eq!(teacher.js("return document.body.dataset.role").await, json!("teacher"));
        assert!(teacher.text("#class-code").await.contains(&format!("Join at {room} with the code {code}")));
        // The join address as a QR code on the teacher's screen.
        assert_eq!(teacher.count("#class-qr svg path").await, 1);
        assert!(teacher.js("return document.getElementById('class-qr').hidden").await == json!(false));
        let ada = Page::open(&driver, &shots, &scratch("class-ada")).await;
        let bo = Page::open(&driver, &shots, &scratch("class-bo")).await;
        for (b, name) in [(&ada, "Ada"), (&bo, "Bo")] {
            b.go(&format!("{room}?code={code}")).await;
            assert_eq!(b.js("return document.getElementById('join-code').value").await, json!(code));
            // Before joining: how to join, and nothing else (no empty headings, no Resign).
            let shown = b.shown_text().await;
            assert!(!shown.contains("Resign") && !shown.contains("Play as"), "{shown}");
            b.type_into("#join-name", name).await;
            b.click("#join").await;
            b.wait_for_text("#class-code", &format!("You are {name}.")).await;
            b.click("#class-play").await;
        }
        ada.wait_for_text("#class-turn", "Your game").await;
        bo.wait_for_text("#class-turn", "You are number 1 in the queue. Ada is playing.").await;
        bo.viewport(400, 860).await;
        play_the_class_game(&ada).await;
        // Each screen says who won in its reader's words: the projector
        // names Ada, and says it is Bo's turn before Bo has started.
        let first = call("GET", &format!("{own}api/class/log"), None).json()["games"][0]["result"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(first == "Ada wins." || first == "HER wins.", "{first}");
        teacher.wait_for_text("#class-turn", "It is Bo's turn: the game starts when Bo presses Start.").await;
        teacher.wait_for_text("#status", &first).await;
        assert!(!teacher.text("#status").await.contains("You "), "{}", teacher.text("#status").await);
        bo.wait_for_text("#status", &first).await;
        ada.wait_for_text("#message", &format!("Your game against the class machine: {first}")).await;
        // Bo's turn comes by itself.
        play_the_class_game(&bo).await;
        teacher.until("document.body.dataset.classGames === '2'").await;
        teacher.until("document.getElementById('games-played').textContent === '2'").await;
        let log = teacher
            .js("return [...document.querySelectorAll('#class-log li')].map(li => li.textContent)")
            .await;
        let log: Vec<&str> = log.as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        assert_eq!(log.len(), 2, "{log:?}");
        assert!(log[0].starts_with("Bo: ") && log[1].starts_with("Ada: "), "latest first: {log:?}");
        // The machine's log, oldest first: Ada's game reinforced it first.
        let games = call("GET", &format!("{own}api/class/log"), None).json();
        let players: Vec<&str> = games["games"].as_array().unwrap().iter().map(|g| g["student"].as_str().unwrap()).collect();
        assert_eq!(players, ["Ada", "Bo"]);
        let class = call("GET", &format!("{own}api/class"), None).json();
        assert_eq!(class["view"]["games_played"], 2);
        let session = class["session"].as_str().unwrap().to_string();
        // The log replays exactly: its games, in its order, played on a fresh
        // HER with her beads given (referee), make the class machine.
        let fresh = call("POST", &format!("{own}api/sessions"), Some(r#"{"game": "hexapawn"}"#)).json();
        let replay = format!("{own}api/sessions/{}", fresh["session"].as_str().unwrap());
        call("POST", &format!("{replay}/referee"), Some(r#"{"on": true}"#));
        for game in games["games"].as_array().unwrap() {
            let mut v = call("POST", &format!("{replay}/game"), None).json();
            for mv in game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()) {
                v = match v["awaiting_bead"].as_object() {
                    Some(d) => {
                        let bead = d["beads"].as_array().unwrap().iter().find(|b| b["move"] == mv).unwrap();
                        let body = json!({"colour": bead["colour"]}).to_string();
                        call("POST", &format!("{replay}/bead"), Some(&body)).json()
                    }
                    None => call("POST", &format!("{replay}/move"), Some(&json!({"move": mv}).to_string())).json(),
                };
            }
            if v["awaiting_bead"].is_object() {
                // Her box was empty: she resigned.
                v = call("POST", &format!("{replay}/bead"), Some(r#"{"colour": null}"#)).json();
            }
            // The same end: HER's win is "HER wins." in both; the student's, "You win." here.
            let her_won = game["result"] == "HER wins.";
            assert_eq!(v["board"]["over"], true, "{game}");
            assert_eq!(v["board"]["result"].as_str().unwrap().ends_with("HER wins."), her_won, "{game}: {}", v["board"]);
        }
        let state = |api: &str| -> Value { serde_json::from_str(&call("GET", &format!("{api}/state"), None).body).unwrap() };
        assert_eq!(state(&replay)["machine"]["boxes"], state(&format!("{own}api/sessions/{session}"))["machine"]["boxes"]);
        // The projector: the class in a band, and the board, the box drawn
        // and the change after the last game all in view at 1280×720.
        teacher.click("#projector").await;
        teacher.js("window.scrollTo(0, 0)").await;
        for what in ["#class-code", "#board svg", "#drawn .box-picture svg", "#changes"] {
            let r = teacher.js(&rect(what)).await;
            let r: Vec<f64> = r.as_array().unwrap_or_else(|| panic!("{what} shown")).iter().map(|x| x.as_f64().unwrap()).collect();
            assert!(r[1] >= 0.0 && r[3] <= 720.0 && r[2] <= 1280.0, "{what} at {r:?} is not inside 1280×720");
        }
        teacher.screenshot(&screenshots().join("class-teacher.png")).await;
        bo.screenshot(&screenshots().join("class-student-400.png")).await;
        // A student's reset, upload, training and download are refused (their own cookie, their page).
        let refused = ada
            .js(&format!(
                "const at = '/api/sessions/{session}';
                 const asks = [['POST', at + '/machine', '{{}}'], ['PUT', at + '/state', '{{}}'],
                               ['POST', at + '/train', '{{\"opponent\": \"random\", \"games\": 10}}'], ['GET', at + '/state', null],
                               ['GET', '/api/class/log', null]];
                 return Promise.all(asks.map(([method, path, body]) => fetch(path, {{method, body, headers: body ? {{'content-type': 'application/json'}} : {{}}}}).then(r => r.status)));"
            ))
            .await;
        assert_eq!(refused, json!([403, 403, 403, 403, 403]));
        // Ada queues again and leaves without a move: the teacher skips her
        // turn, and her game is dropped (no game counted, no bead changed).
        ada.click("#class-play").await;
        ada.wait_for_text("#class-turn", "Your game").await;
        // Her clock runs on both screens (60 s for each move unless the teacher says otherwise).
        ada.wait_for_text("#class-clock", "You have ").await;
        teacher.wait_for_text("#class-clock", "Ada has ").await;
        let before = state(&format!("{own}api/sessions/{session}"));
        // The board is Ada's: the teacher's page offers no move, and a click on it changes nothing.
        teacher.wait_for_text("#status", "Ada is playing the class machine.").await;
        assert_eq!(teacher.count("#board .cell.movable").await, 0);
        teacher.click("#board [data-cell]").await;
        teacher.click("#board [data-cell]").await;
        let v = call("GET", &format!("{own}api/class"), None).json();
        assert_eq!(v["view"]["board"]["history"], json!([]), "{v}");
        teacher.until("!document.getElementById('class-skip').hidden").await;
        teacher.click("#class-skip").await;
        ada.wait_for_text("#class-turn", "Press Play a game").await;
        ada.wait_for_text("#message", "The teacher skipped your turn").await;
        let after = state(&format!("{own}api/sessions/{session}"));
        assert_eq!(after["machine"], before["machine"]);
        assert_eq!(after["games_played"], 2);
        let skip = ada.js("return fetch('/api/class/skip', {method: 'POST'}).then(r => r.status)").await;
        assert_eq!(skip, json!(403), "only the teacher skips");
        // Ada plays again, and resigns from her phone's Resign button.
        ada.click("#class-play").await;
        ada.wait_for_text("#class-turn", "Your game").await;
        ada.click("#resign").await;
        ada.wait_for_text("#message", "Your game against the class machine: Ada resigned. HER wins.").await;
        teacher.wait_for_text("#class-log", "Ada: no moves. Ada resigned. HER wins.").await;
        // A device that joined stays one student, whatever it asks again.
        let again = ada
            .js("return fetch('/api/class/join', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({code: 'X', name: 'Eve'})}).then(r => r.json()).then(k => [k.class.you, k.class.students.length, k.view.state_file])")
            .await;
        assert_eq!(again, json!(["Ada", 2, null]));
        // The teacher renames Bo, then removes him: two presses, the first
        // saying whom. (The tools are on the teacher's own layout, not the projector's.)
        teacher.click("#projector").await;
        assert_eq!(teacher.js("return document.body.classList.contains('projector')").await, json!(false));
        teacher.until("document.getElementById('class-student').options.length === 2").await;
        teacher.js("const s = document.getElementById('class-student'); s.value = [...s.options].find(o => o.text === 'Bo').value; s.dispatchEvent(new Event('change'))").await;
        teacher.type_into("#class-new-name", "Bo B").await;
        teacher.click("#class-rename").await;
        bo.wait_for_text("#class-code", "You are Bo B.").await;
        teacher.click("#class-remove").await;
        assert_eq!(teacher.text("#class-remove").await, "Press again to remove Bo B");
        assert_eq!(bo.js("return document.body.dataset.role").await, json!("student"), "one press removes nobody");
        teacher.click("#class-remove").await;
        teacher.wait_for_text("#message", "Bo B was removed from the class: their place is free.").await;
        bo.until("document.body.dataset.role === 'guest' && !document.getElementById('class-join').hidden").await;
        // The teacher plays a game between turns: it is in the log, and
        // Ada's page tells it as the teacher's game, not hers.
        teacher.wait_for_text("#class-turn", "No game on the board.").await;
        teacher.click("#new-game").await;
        teacher.wait_for_text("#status", "Your move").await;
        for _ in 0..40 {
            teacher.not_busy().await;
            if teacher.text("#status").await.contains("Press New game") {
                break;
            }
            if teacher.count("#board .cell.selected").await > 0 {
                teacher.click("#board .cell.target").await;
            } else {
                teacher.click("#board .cell.movable").await;
            }
        }
        teacher.wait_for_text("#class-log", "the teacher: ").await;
        let last = call("GET", &format!("{own}api/class/log"), None).json()["games"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        assert_eq!(last["student"], "the teacher", "{last}");
        let told = last["result"].as_str().unwrap();
        assert!(told == "The teacher wins." || told == "HER wins.", "{told}");
        ada.wait_for_text("#status", told).await;
        assert!(!ada.text("#status").await.contains("You win"), "{}", ada.text("#status").await);
        // Nobody without the code or the token gets more than the page.
        assert_eq!(call("GET", &room, None).status, 200);
        let guest = call("GET", &format!("{room}api/class"), None).json();
        assert_eq!(guest["class"], json!({"role": "guest"}), "a guest is told nothing of the class");
        assert!(guest["view"].is_null());
        for (method, path) in [("GET", format!("api/sessions/{session}")), ("GET", "api/class/log".to_string()), ("POST", "api/sessions".to_string())] {
            let r = call(method, &format!("{room}{path}"), if method == "POST" { Some("{}") } else { None });
            assert_eq!(r.status, 403, "{method} {path}: {}", r.body);
        }
        assert_eq!(call("POST", &format!("{room}api/class/join"), Some(r#"{"code": "WRONG1"}"#)).status, 403);
        // The teacher's link works from the room's side.
        assert_eq!(call("GET", &format!("{room}api/class/log?teacher={token}"), None).status, 200);
        for b in [&teacher, &ada, &bo] {
            let errors = b.console_errors(&driver).await;
            assert!(errors.iter().all(|e| e.contains("403")), "console errors: {errors:?}");
        }
        eprintln!("screenshots in {}", screenshots().display());
        for b in [teacher, ada, bo] {
            b.c.close().await.unwrap();
        }
    });
}
