//! The class is the machine: HER's boxes dealt among three pupils, each of
//! her moves drawn on the device of the pupil holding its box.

use super::*;

/// The class as the teacher reads it.
fn class_now(own: &str) -> Value {
    call("GET", &format!("{own}api/class"), None).json()
}

/// The class machine's boxes in its state file: position → beads by move.
fn boxes(own: &str, session: &str) -> HashMap<String, Vec<(String, u64)>> {
    let state: Value =
        serde_json::from_str(&call("GET", &format!("{own}api/sessions/{session}/state"), None).body).unwrap();
    state["machine"]["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let beads = b["beads"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| (m[0].as_str().unwrap().to_string(), m[1].as_u64().unwrap()))
                .collect();
            (b["position"].as_str().unwrap().to_string(), beads)
        })
        .collect()
}

/// The deal as the teacher's class says it: pupil's name → boxes.
fn deal(k: &Value) -> Vec<(String, Vec<u64>)> {
    k["class"]["deal"]
        .as_array()
        .unwrap_or_else(|| panic!("a deal: {}", k["class"]))
        .iter()
        .map(|p| {
            let boxes = p["boxes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap())
                .collect();
            (p["name"].as_str().unwrap().to_string(), boxes)
        })
        .collect()
}

/// Every one of HER's 19 boxes held by exactly one pupil, each pupil holding some.
fn assert_all_dealt(d: &[(String, Vec<u64>)]) {
    let mut all: Vec<u64> = d.iter().flat_map(|(_, b)| b.clone()).collect();
    all.sort_unstable();
    assert_eq!(all, (1..=19).collect::<Vec<_>>(), "{d:?}");
    assert!(d.iter().all(|(_, b)| !b.is_empty()), "{d:?}");
}

/// The class is the machine: a teacher and three pupils, each their own
/// browser. HER's boxes are dealt among the pupils; the teacher plays
/// White on the projector, and each of HER's moves is drawn on the phone
/// of the pupil holding its box, a draw from anyone else's refused; after
/// HER loses, the holder of her last box is told to take its bead out, and
/// the machine changes exactly so (Gardner's rule: that one bead, nothing
/// else); a pupil who leaves has their boxes dealt to the others.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn the_class_is_the_machine_each_pupil_drawing_from_the_boxes_they_hold() {
    require_browser();
    let (_server, room, code, token) = start_classroom_with(&["--class-mode", "machine"]);
    let port = room.trim_end_matches('/').rsplit(':').next().unwrap().to_string();
    let own = format!("http://127.0.0.1:{port}/");
    let (_driver, driver) = start_driver();
    let shots = scratch("class-machine");
    runtime().block_on(async {
        let teacher = Page::open(&driver, &shots, &scratch("machine-teacher")).await;
        teacher.go(&format!("{room}?teacher={token}")).await;
        teacher.viewport(1280, 720).await;
        let names = ["Ada", "Bo", "Cy"];
        let mut pupils = Vec::new();
        for name in names {
            let p = Page::open(&driver, &shots, &scratch(&format!("machine-{name}"))).await;
            p.go(&format!("{room}?code={code}")).await;
            p.viewport(400, 860).await;
            p.type_into("#join-name", name).await;
            p.click("#join").await;
            p.wait_for_text("#class-code", &format!("You are {name}.")).await;
            pupils.push(p);
        }
        let pupil = |name: &str| &pupils[names.iter().position(|n| *n == name).unwrap()];
        // HER's 19 boxes dealt among the three, each told theirs.
        teacher.until("document.querySelectorAll('#class-deal tbody tr').length === 3").await;
        let k = class_now(&own);
        let session = k["session"].as_str().unwrap().to_string();
        let dealt = deal(&k);
        assert_all_dealt(&dealt);
        for (name, held) in &dealt {
            let list: Vec<String> = held.iter().map(u64::to_string).collect();
            pupil(name).wait_for_text("#class-your-boxes", &list.join(", ")).await;
        }
        let holder = |label: u64, d: &[(String, Vec<u64>)]| {
            d.iter().find(|(_, b)| b.contains(&label)).map(|(n, _)| n.clone()).unwrap()
        };

        // The teacher plays White on the projector until HER loses a game.
        let mut refused = false;
        let mut lost = false;
        let mut shot = false;
        let moves = |k: &Value| k["view"]["board"]["history"].as_array().map_or(0, Vec::len);
        // Wait, on the server, until the board has moved on from `k`.
        let moved_on = |k: &Value| {
            let (games, plies) = (k["view"]["games_played"].clone(), moves(k));
            wait_until("the board moves on", PATIENCE, || {
                let now = class_now(&own);
                now["view"]["games_played"] != games || moves(&now) > plies || now["view"]["board"]["over"] == true
            });
        };
        for _game in 0..30 {
            let before = boxes(&own, &session);
            teacher.not_busy().await;
            teacher.click("#new-game").await;
            wait_until("a new game", PATIENCE, || {
                let k = class_now(&own);
                k["view"]["board"]["over"] == false && moves(&k) == 0
            });
            let mut last: Option<(u64, String, String)> = None;
            for _ply in 0..20 {
                let k = class_now(&own);
                let v = &k["view"];
                if v["board"]["over"] == true {
                    break;
                }
                if let Some(d) = v["awaiting_bead"].as_object() {
                    // HER to move: the holder of the box draws, on their phone.
                    let label = d["box"].as_u64().unwrap();
                    let who = holder(label, &dealt);
                    assert_eq!(k["class"]["drawer"], json!(who));
                    let p = pupil(&who);
                    p.until("document.getElementById('draw-bead') !== null").await;
                    for other in names.iter().filter(|n| **n != who) {
                        let o = pupil(other);
                        o.wait_for_text("#drawn-title", &format!("box {label} is {who}'s")).await;
                        assert_eq!(o.count("#draw-bead").await, 0);
                        if !refused {
                            // A draw from a box the pupil does not hold is refused.
                            let answer = o
                                .js("return fetch('/api/class/bead', {method: 'POST', headers: {'content-type': 'application/json'}, body: '{\"draw\": true}'}).then(async r => [r.status, (await r.json()).error])")
                                .await;
                            assert_eq!(answer[0], json!(403), "{answer}");
                            assert!(answer[1].as_str().unwrap().contains(&format!("box {label} is {who}'s to draw from, not yours")), "{answer}");
                            refused = true;
                        }
                    }
                    teacher.wait_for_text("#drawn-title", &format!("box {label} is {who}'s")).await;
                    if !shot {
                        teacher.click("#projector").await;
                        teacher.js("window.scrollTo(0, 0)").await;
                        teacher.screenshot(&screenshots().join("class-machine-teacher.png")).await;
                        teacher.click("#projector").await;
                        p.js("window.scrollTo(0, 0)").await;
                        p.screenshot(&screenshots().join("class-machine-pupil-400.png")).await;
                        shot = true;
                    }
                    p.click("#draw-bead").await;
                    moved_on(&k);
                    last = Some((label, who, d["position"].as_str().unwrap().to_string()));
                    continue;
                }
                // White to move, on the projector's board.
                teacher.until("document.querySelectorAll('#board .cell.movable').length > 0 && document.body.dataset.busy !== 'yes'").await;
                teacher.click("#board .cell.movable").await;
                teacher.click("#board .cell.target").await;
                moved_on(&k);
            }
            let k = class_now(&own);
            assert_eq!(k["view"]["board"]["over"], true, "{}", k["view"]["board"]);
            let log = call("GET", &format!("{own}api/class/log"), None).json();
            let result = log["games"].as_array().unwrap().last().unwrap()["result"].as_str().unwrap().to_string();
            if result.contains("HER wins") {
                continue;
            }
            // HER lost: by Gardner's rule, the bead of her last move comes
            // out of its box, and nothing else changes.
            let (label, who, position) = last.expect("HER moved");
            let after = boxes(&own, &session);
            let changed: Vec<&String> = after.keys().filter(|p| after[*p] != before[*p]).collect();
            assert_eq!(changed, [&position], "only her last box changes");
            let was = &before[&position];
            let now = &after[&position];
            let diffs: Vec<(u64, u64)> = was
                .iter()
                .zip(now)
                .filter(|(a, b)| a.1 != b.1)
                .map(|(a, b)| (a.1, b.1))
                .collect();
            assert_eq!(diffs.len(), 1, "{was:?} → {now:?}");
            let (n, m) = diffs[0];
            assert_eq!(m + 1, n, "one bead out: {was:?} → {now:?}");
            // Its holder is told so on their phone, the others nothing; the
            // projector shows it under the holder's name.
            let told = format!("Box {label}: take 1 ");
            pupil(&who).wait_for_text("#class-your-changes", &told).await;
            assert!(pupil(&who).text("#class-your-changes").await.contains(&format!("{n} → {m}")));
            for other in names.iter().filter(|x| **x != who) {
                assert!(!pupil(other).text("#class-your-changes").await.contains("Box "));
            }
            teacher.wait_for_text("#class-changes", &format!("{who}:")).await;
            assert!(teacher.text("#class-changes").await.contains(&told));
            lost = true;
            break;
        }
        assert!(lost, "HER lost no game of 30");
        assert!(refused, "a draw by someone else was tried");
        // The projector, after the game: what each holder does to their boxes.
        teacher.click("#projector").await;
        teacher.js("window.scrollTo(0, 0)").await;
        teacher.screenshot(&screenshots().join("class-machine-after.png")).await;
        teacher.click("#projector").await;

        // The deal prints: each pupil's name and boxes.
        let pdf_dir = scratch("deal-pdf");
        teacher.js("document.body.classList.add('printing-deal')").await;
        let pdf = teacher.c.print(PrintConfiguration::default()).await.unwrap();
        teacher.js("document.body.classList.remove('printing-deal')").await;
        let pdf_file = pdf_dir.join("deal.pdf");
        std::fs::write(&pdf_file, &pdf).unwrap();
        let out = Command::new(PDFTOPPM)
            .args(["-r", "60", "-f", "1", "-l", "1", "-singlefile", "-png"])
            .arg(&pdf_file)
            .arg(screenshots().join("class-deal"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = Command::new("/usr/bin/pdftotext").arg(&pdf_file).arg("-").output().unwrap();
        let text = String::from_utf8_lossy(&text.stdout).to_string();
        for (name, held) in &dealt {
            let list: Vec<String> = held.iter().map(u64::to_string).collect();
            assert!(text.contains(name.as_str()) && text.contains(&list.join(", ")), "{name}: {list:?} in the printed deal:\n{text}");
        }
        assert!(!text.contains("Join at"), "only the deal prints:\n{text}");

        // A pupil leaves: their boxes are dealt to the two who stay.
        let bo_held = dealt.iter().find(|(n, _)| n == "Bo").unwrap().1.clone();
        pupil("Bo").click("#class-leave").await;
        pupil("Bo").until("document.body.dataset.role === 'guest' && !document.getElementById('class-join').hidden").await;
        teacher.until("document.querySelectorAll('#class-deal tbody tr').length === 2").await;
        let dealt = deal(&class_now(&own));
        assert_all_dealt(&dealt);
        assert_eq!(dealt.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["Ada", "Cy"]);
        for label in bo_held {
            assert!(dealt.iter().any(|(_, b)| b.contains(&label)), "Bo's box {label} goes to another");
        }
        for b in [&teacher, pupil("Ada"), pupil("Cy")] {
            let errors = b.console_errors(&driver).await;
            assert!(errors.iter().all(|e| e.contains("403")), "console errors: {errors:?}");
        }
        eprintln!("screenshots in {}", screenshots().display());
    });
}
