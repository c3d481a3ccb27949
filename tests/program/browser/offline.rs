//! The page file, `site/menace.html`, as a teacher meets it: the committed
//! file opened from disk (file://) in headless Chromium with the network
//! off and no server, HER played and trained, the machine kept across a
//! reload and handed to the command line, labels printed; and the engine
//! inside it answering a scripted session with the JSON `menace serve` does.

use super::*;

/// The committed page file.
fn page_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("site/menace.html")
}

/// No network: every request through a proxy that is not there, loopback
/// included (the browser is then also told it is offline).
const NO_NETWORK: [&str; 2] = ["--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"];

/// Tell the browser it is offline (chromedriver's Chromium command).
async fn offline(b: &Page, driver: &str) {
    let id = b.c.session_id().await.unwrap().unwrap();
    let body = json!({"network_conditions": {"offline": true, "latency": 0, "download_throughput": 0, "upload_throughput": 0}});
    let r = call(
        "POST",
        &format!("{driver}/session/{id}/chromium/network_conditions"),
        Some(&body.to_string()),
    );
    assert_eq!(r.status, 200, "offline: {}", r.body);
}

/// Every resource the page loaded, by address: none may be on a network.
const LOADED: &str = "return performance.getEntriesByType('resource').map(e => e.name)";

/// A Chromium command through chromedriver (`Page.printToPDF`): its result.
async fn cdp(b: &Page, driver: &str, cmd: &str, params: Value) -> Value {
    let id = b.c.session_id().await.unwrap().unwrap();
    let body = json!({"cmd": cmd, "params": params}).to_string();
    let r = call("POST", &format!("{driver}/session/{id}/goog/cdp/execute"), Some(&body));
    assert_eq!(r.status, 200, "{cmd}: {}", r.body);
    r.json()["value"].clone()
}

/// The text of a PDF, by `pdftotext`, as its words in order.
fn pdf_words(pdf: &Path) -> Vec<String> {
    let out = Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    assert!(out.status.success(), "pdftotext {}", pdf.display());
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
#[ignore = "needs Chromium, chromedriver and poppler (.ci/run installs them)"]
fn the_page_file_opened_from_disk_plays_trains_keeps_its_machine_and_prints_labels() {
    require_browser();
    let (_driver, driver) = start_driver();
    let downloads = scratch("file-downloads");
    let profile = scratch("file-profile");
    let url = format!("file://{}", page_file().display());
    runtime().block_on(async {
        let b = Page::open_with(&driver, &downloads, &profile, &NO_NETWORK).await;
        offline(&b, &driver).await;
        b.go(&url).await;
        b.viewport(1280, 720).await;
        // Reported, not asserted (speed is measured, never timed in a test).
        let ready = b.js("return performance.getEntriesByName('menace-ready')[0].startTime").await;
        eprintln!("the page file was playable {ready} ms after it was opened");
        let loaded = b.js(LOADED).await;
        for name in loaded.as_array().unwrap() {
            let name = name.as_str().unwrap();
            assert!(
                name.starts_with("data:") || name.starts_with("blob:"),
                "the page file loaded {name}"
            );
        }
        assert_eq!(b.text("#machine-title").await, "HER");
        assert_eq!(b.count("#board .cell").await, 9);
        assert_eq!(b.count("#boxes-list .box-card").await, 19, "Gardner's 19 boxes");
        assert!(b.text("#offline-note").await.contains("menace serve --classroom"));

        // HER with seed 3, as in the lesson served: after 1. b2 she draws a2
        // from box 2, its one bead; 2. bxc3 wins, and Gardner's rule (a loss
        // takes out the bead drawn last) leaves that box's a2 with 0 beads.
        her_seed_3_opens(&b).await;
        b.click(&cell("b2")).await;
        b.click(&cell("c3")).await;
        b.wait_for_text("#status", "You win.").await;
        b.wait_for_text("#changes", "HER's move 1 (move 2 of the game), box 2: red, a2: 1 → 0 −1")
            .await;
        assert_eq!(b.text("#losses").await, "1");
        let shots = screenshots();
        b.screenshot(&shots.join("page-file-1280x720.png")).await;

        // A long run, followed: the page answers while the worker trains,
        // and shows the run's progress as it goes.
        b.js("window.seen = []; new MutationObserver(() => seen.push(document.getElementById('progress-text').textContent)).observe(document.getElementById('progress-text'), {subtree: true, childList: true, characterData: true})").await;
        b.speed(7).await;
        b.type_into("#train-games", "1000000").await;
        b.js("window.began = performance.now()").await;
        b.click("#train").await;
        b.until("/ done$/.test(document.getElementById('progress-text').textContent)").await;
        let ms = b.js("return performance.now() - began").await.as_f64().unwrap();
        eprintln!("the page trained 1,000,000 games against random in {ms:.0} ms (its polls included)");
        let seen = b.js("return seen").await;
        let during: Vec<&str> = seen
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| t.ends_with('…') && !t.starts_with("0 "))
            .collect();
        assert!(!during.is_empty(), "progress shown during the run: {seen}");
        // Then the 1 000 games the issue asks for, to the end.
        b.type_into("#train-games", "1000").await;
        b.click("#train").await;
        b.until("/^1.000 of 1.000 games against random done$/.test(document.getElementById('progress-text').textContent)")
            .await;
        let played = b.text("#games-played").await;
        let games: u64 = played.chars().filter(char::is_ascii_digit).collect::<String>().parse().unwrap();
        assert_eq!(games, 1 + 1_000_000 + 1000, "the person's game and both runs: {played}");

        // Kept in the browser: a reload brings the same machine back.
        b.go(&url).await;
        b.until(&format!("document.getElementById('games-played').textContent === {played:?}"))
            .await;

        // Downloaded, and the command line goes on from it.
        b.click("#download").await;
        let file = downloads.join("menace-hexapawn.json");
        wait_until("the download", PATIENCE, || {
            std::fs::read_to_string(&file).is_ok_and(|t| t.trim_end().ends_with('}'))
        });
        let resumed = Command::new(env!("CARGO_BIN_EXE_menace"))
            .args(["train", "hexapawn", "--games", "10", "--no-save", "--resume"])
            .arg(&file)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&resumed.stdout);
        assert!(resumed.status.success(), "{said}{}", String::from_utf8_lossy(&resumed.stderr));
        assert!(
            said.contains(&format!("games {}..{}", games + 1, games + 10)),
            "the terminal goes on from game {games}: {said}"
        );

        // Labels, printed by the browser from the file: the same words as `menace boxes --pdf`.
        b.js("window.print = () => { document.body.dataset.printed = 'yes'; }").await;
        b.click("#labels-pdf").await;
        b.until("document.body.dataset.printed === 'yes'").await;
        let printed = cdp(
            &b,
            &driver,
            "Page.printToPDF",
            json!({"preferCSSPageSize": true, "printBackground": true}),
        )
        .await;
        let pdf_bytes = decode_base64(printed["data"].as_str().unwrap());
        let dir = scratch("file-labels");
        let from_page = dir.join("page.pdf");
        std::fs::write(&from_page, &pdf_bytes).unwrap();
        let from_cli = dir.join("cli.pdf");
        let made = Command::new(env!("CARGO_BIN_EXE_menace"))
            .args(["boxes", "hexapawn", "--paper", "a4", "--state"])
            .arg(&file)
            .arg("--pdf")
            .arg(&from_cli)
            .output()
            .unwrap();
        assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
        assert_eq!(pdf_words(&from_page), pdf_words(&from_cli), "the same labels");
        let png = Command::new(PDFTOPPM)
            .args(["-r", "50", "-png"])
            .arg(&from_page)
            .arg(shots.join("page-file-labels"))
            .status()
            .unwrap();
        assert!(png.success());
        b.js("document.body.classList.remove('printing-labels')").await;

        // Accessible, by axe-core's WCAG 2 A and AA rules, at both sizes,
        // in the projector layout and in high contrast too.
        accessible(&b, "1280×720").await;
        b.click("#projector").await;
        accessible(&b, "1280×720, the projector layout").await;
        b.click("#contrast").await;
        accessible(&b, "1280×720, the projector layout in high contrast").await;
        b.screenshot(&shots.join("page-file-contrast-1280x720.png")).await;
        b.click("#projector").await;
        accessible(&b, "1280×720 in high contrast").await;
        b.click("#contrast").await;
        // A phone.
        b.viewport(400, 800).await;
        accessible(&b, "400 px").await;
        b.fits("400 px").await;
        b.screenshot(&shots.join("page-file-400.png")).await;
        b.done(&driver).await;
    });
}

/// No violation of axe-core's WCAG 2 A and AA rules on the page as it is shown.
async fn accessible(b: &Page, at: &str) {
    let axe =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/page/axe-core/axe.min.js")).unwrap();
    b.js(&axe).await;
    let found = b
        .c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
               .then(r => done({passes: r.passes.length, violations: r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))}));",
            vec![],
        )
        .await
        .unwrap();
    assert!(found["passes"].as_u64().unwrap() > 10, "axe ran its rules: {found}");
    assert_eq!(found["violations"], json!([]), "accessibility at {at}");
}

/// Standard base64 decoded (Chromium's PDF comes so).
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text.bytes().filter(|c| !matches!(c, b'=' | b'\n' | b'\r')).collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | u32::from(value(c)) << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// One scripted session: a machine, moves, a refusal, training to the
/// end, the boxes view, the curves and their files, the state, a watched
/// game, another game's machine. `{id}` is the session made; `until_idle`
/// waits for the run to end.
fn script() -> Vec<Value> {
    let post = |path: &str, body: Value| json!({"method": "POST", "path": path, "body": body.to_string()});
    let get = |path: &str| json!({"method": "GET", "path": path});
    vec![
        get("/api/games"),
        get("/api/games/hexapawn:4x4,pawn=berolina"),
        post("/api/sessions", json!({"game": "hexapawn", "seed": 3})),
        post("/api/sessions/{id}/move", json!({"move": "b2"})),
        post("/api/sessions/{id}/move", json!({"move": "z9"})),
        post("/api/sessions/{id}/move", json!({"move": "bxc3"})),
        post("/api/sessions/{id}/train", json!({"opponent": "random", "games": 500})),
        json!({"until_idle": true}),
        get("/api/sessions/{id}"),
        get("/api/sessions/{id}/boxes?page=1&per_page=5"),
        get("/api/sessions/{id}/boxes?own_move=2&find=p"),
        get("/api/sessions/{id}/curves"),
        get("/api/sessions/{id}/curves.csv"),
        get("/api/sessions/{id}/curves.json"),
        get("/api/sessions/{id}/state"),
        post(
            "/api/sessions/{id}/watch",
            json!({"opponent": "perfect", "frames": true}),
        ),
        post("/api/sessions/{id}/game", json!({})),
        post("/api/sessions/{id}/train", json!({"opponent": "mcts:50", "games": 20})),
        json!({"until_idle": true}),
        get("/api/sessions/{id}/curves"),
        post(
            "/api/sessions/{id}/machine",
            json!({"game": "tictactoe", "seed": 5, "preset": "michie"}),
        ),
        get("/api/sessions/{id}/boxes?page=2"),
        // The state downloaded above (reply 13), uploaded back.
        json!({"method": "PUT", "path": "/api/sessions/{id}/state", "body_from": 13}),
        post("/api/sessions/{id}/referee", json!({"on": true})),
        post("/api/sessions/{id}/referee", json!({"on": false})),
        post("/api/sessions/{id}/move", json!({"move": "b2"})),
        post("/api/sessions/{id}/resign", json!({})),
        post("/api/sessions/{id}/resign", json!({})),
        post("/api/sessions/{id}/stop", json!({})),
        json!({"method": "DELETE", "path": "/api/sessions/{id}"}),
    ]
}

/// A reply as compared: its status, and its body as JSON (the session's
/// id, which the server draws at random, left out) or as text.
fn compared(status: u64, body: &str) -> Value {
    let body = match serde_json::from_str::<Value>(body) {
        Ok(mut v) => {
            if let Some(o) = v.as_object_mut() {
                o.remove("session");
            }
            v
        }
        Err(_) => Value::String(body.to_string()),
    };
    json!({"status": status, "body": body})
}

#[test]
#[ignore = "needs node (.ci/run installs it)"]
fn the_engine_in_the_page_file_answers_as_the_server_does() {
    // Through the engine built for WebAssembly, taken out of the committed file and run by node.
    let mut node = Command::new("node")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/page/engine.mjs"))
        .arg(page_file())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node (`apt-get install nodejs`)");
    use std::io::Write;
    node.stdin
        .take()
        .unwrap()
        .write_all(Value::Array(script()).to_string().as_bytes())
        .unwrap();
    let out = node.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let local: Vec<Value> = serde_json::from_slice::<Vec<Value>>(&out.stdout)
        .unwrap()
        .iter()
        .map(|r| compared(r["status"].as_u64().unwrap(), r["body"].as_str().unwrap()))
        .collect();

    // Through `menace serve`.
    let (_server, url) = start_server();
    let url = url.trim_end_matches('/');
    let mut id = String::new();
    let mut served = Vec::new();
    let mut bodies: Vec<String> = Vec::new();
    for step in script() {
        if step["until_idle"] == true {
            wait_until("the run ends", PATIENCE, || {
                call("GET", &format!("{url}/api/sessions/{id}/curves"), None).json()["training"]["running"] == false
            });
            continue;
        }
        let path = step["path"].as_str().unwrap().replace("{id}", &id);
        let body = match step["body_from"].as_u64() {
            Some(k) => Some(bodies[k as usize].clone()),
            None => step["body"].as_str().map(str::to_string),
        };
        let r = call(
            step["method"].as_str().unwrap(),
            &format!("{url}{path}"),
            body.as_deref(),
        );
        bodies.push(r.body.clone());
        if let Some(made) = serde_json::from_str::<Value>(&r.body)
            .ok()
            .and_then(|v| v["session"].as_str().map(str::to_string))
        {
            id = made;
        }
        served.push(compared(u64::from(r.status), &r.body));
    }
    assert_eq!(local.len(), served.len());
    // The script does what it says, on both.
    let statuses: Vec<u64> = served.iter().map(|r| r["status"].as_u64().unwrap()).collect();
    assert_eq!(
        statuses,
        [
            200, 200, 201, 200, 400, 200, 202, 200, 200, 200, 200, 200, 200, 200, 200, 200, 202, 200, 200, 200,
            // Uploaded, refereeing on and off, a move, resigned, nothing left to resign, stopped, closed.
            200, 200, 200, 200, 200, 409, 200, 204
        ]
    );
    assert_eq!(served[7]["body"]["games_played"], 501, "the person's game and the run");
    assert!(
        served[12]["body"].as_array().is_some_and(|rows| !rows.is_empty()),
        "the curves as JSON rows"
    );
    assert_eq!(served[13]["body"]["game"], "hexapawn", "the state file");
    for (i, (l, s)) in local.iter().zip(&served).enumerate() {
        assert_eq!(
            l,
            s,
            "step {i}: {}",
            script().iter().filter(|s| s["until_idle"] != true).nth(i).unwrap()
        );
    }
}
