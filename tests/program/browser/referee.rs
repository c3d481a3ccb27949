//! Referee mode for a real HER, against its printed labels.

use super::*;

/// Each label of a sheet's label pages as `pdftotext -layout` sets them
/// side by side: its number, position, and (colour, beads) in order.
fn labels_of(pdf: &Path) -> HashMap<u64, (String, Vec<(String, u64)>)> {
    let out = Command::new("pdftotext")
        .args(["-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut labels = HashMap::new();
    for (row, line) in lines.iter().enumerate() {
        let starts: Vec<usize> = line.match_indices("Box ").map(|(i, _)| i).collect();
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(usize::MAX);
            let head: Vec<&str> = line[start..end.min(line.len())].split_whitespace().collect();
            let (Some(number), Some(pos), Some(side)) = (
                head.get(1).and_then(|n| n.parse::<u64>().ok()),
                head.get(2),
                head.get(3),
            ) else {
                continue;
            };
            let mut beads = Vec::new();
            for below in lines.iter().skip(row + 1).take_while(|l| !l.contains("Box ")) {
                let cut: String = below.chars().skip(start).take(end.saturating_sub(start)).collect();
                let words: Vec<&str> = cut.split_whitespace().collect();
                if let (Some(c), Some(count)) = (words.first(), words.last().and_then(|w| w.strip_prefix('×'))) {
                    if COLOURS.contains(c) {
                        beads.push((c.to_string(), count.parse().unwrap()));
                    }
                }
            }
            labels.insert(number, (format!("{pos} {side}"), beads));
        }
    }
    labels
}

/// Referee for a real HER: the test plays White on the page and draws
/// HER's beads itself, clicking the colour it chose. The machine the page
/// keeps is the one Gardner's rule gives for those draws (worked out here
/// from the fresh machine's file), and every box the page names is the
/// printed label of that number: the same position and the same colours.
#[test]
#[ignore = "needs Chromium, chromedriver and poppler (.ci/run installs them)"]
fn referee_for_a_real_her() {
    require_browser();
    let (_server, url) = start_server();
    let (_driver, driver) = start_driver();
    let shots = scratch("referee");
    let labels_pdf = shots.join("her.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "hexapawn", "--pdf"])
        .arg(&labels_pdf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let labels = labels_of(&labels_pdf);
    assert_eq!(labels.len(), 19, "{labels:?}");
    let runtime = runtime();
    runtime.block_on(async {
        let b = Page::open(&driver, &shots, &scratch("referee-profile")).await;
        b.go(&url).await;
        b.viewport(1280, 720).await;
        let id = b
            .js("return sessionStorage.getItem('menace-session')")
            .await
            .as_str()
            .unwrap()
            .to_string();
        let api = format!("{url}api/sessions/{id}");
        let mut expected: Value = serde_json::from_str(&call("GET", &format!("{api}/state"), None).body).unwrap();
        b.click("#referee").await;
        b.until("document.getElementById('referee').checked").await;
        let (mut named, mut losses) = (0, 0);
        for game in 0..4 {
            b.click("#new-game").await;
            b.not_busy().await;
            let mut last_draw: Option<(String, usize)> = None;
            for _ in 0..20 {
                b.not_busy().await;
                let v = call("GET", &api, None).json();
                if v["board"]["over"] == true {
                    break;
                }
                if let Some(d) = v["awaiting_bead"].as_object() {
                    // The box the page names is the label of that number.
                    let number = d["box"].as_u64().unwrap();
                    let (position, beads) = &labels[&number];
                    assert_eq!(d["position"].as_str().unwrap(), position, "box {number}");
                    let shown: Vec<(String, u64)> = d["beads"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| (x["colour"].as_str().unwrap().to_string(), x["beads"].as_u64().unwrap()))
                        .collect();
                    if game == 0 {
                        assert_eq!(&shown, beads, "box {number}'s colours as its label prints them");
                    }
                    named += 1;
                    b.wait_for_text("#drawn-title", &format!("take box {number}, draw one bead"))
                        .await;
                    // The test's draw: the last colour the box holds a bead of.
                    let colour = shown.iter().rev().find(|(_, n)| *n > 0).map(|(c, _)| c.clone());
                    match &colour {
                        Some(c) => b.click(&format!("#bead-choices button[data-colour=\"{c}\"]")).await,
                        None => b.click("#bead-choices button").await,
                    }
                    if let Some(c) = colour {
                        last_draw = Some((position.clone(), COLOURS.iter().position(|x| *x == c).unwrap()));
                    }
                    continue;
                }
                // White: the first piece that can move, to its first target.
                b.click("#board .cell.movable").await;
                b.click("#board .cell.target").await;
            }
            b.wait_for_text("#status", "Press New game").await;
            let status = b.text("#status").await;
            if status.contains("You win") {
                // Gardner's rule: HER's last bead drawn is taken away.
                let (position, colour) = last_draw.clone().expect("HER drew before losing");
                let boxes = expected["machine"]["boxes"].as_array_mut().unwrap();
                let entry = boxes.iter_mut().find(|x| x["position"] == position.as_str()).unwrap();
                let count = entry["beads"][colour][1].as_u64().unwrap();
                entry["beads"][colour][1] = json!(count.saturating_sub(1));
                losses += 1;
                // What to do to the real boxes, in the labels' words.
                let steps = b.text("#changes .referee-steps").await;
                assert!(steps.contains("Put every bead drawn back in its box, then:"), "{steps}");
                assert!(
                    steps.contains(&format!("take 1 {} bead out", COLOURS[colour])),
                    "{steps}"
                );
                if losses == 1 {
                    b.screenshot(&screenshots().join("referee.png")).await;
                }
            }
        }
        assert!(named >= 4, "HER drew {named} beads");
        assert!(losses >= 1, "no game lost: nothing reinforced");
        let got: Value = serde_json::from_str(&call("GET", &format!("{api}/state"), None).body).unwrap();
        assert_eq!(got["machine"]["boxes"], expected["machine"]["boxes"]);
        assert_eq!(got["games_played"], 4);
        b.c.close().await.unwrap();
    });
    // MENACE refereed: each box it draws from is the printed label of that
    // number, with Michie's colours (one a cell) as the label lists them.
    let menace_pdf = shots.join("menace.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "tictactoe", "--pdf"])
        .arg(&menace_pdf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let labels = labels_of(&menace_pdf);
    assert_eq!(labels.len(), 304);
    let made = call("POST", &format!("{url}api/sessions"), Some(r#"{"game": "tictactoe"}"#)).json();
    let api = format!("{url}api/sessions/{}", made["session"].as_str().unwrap());
    call("POST", &format!("{api}/referee"), Some(r#"{"on": true}"#));
    let mut v = call("POST", &format!("{api}/game"), None).json();
    // A bead not named is refused, not read as an empty box.
    assert_eq!(call("POST", &format!("{api}/bead"), Some("{}")).status, 400);
    let mut checked = 0;
    while v["board"]["over"] == false {
        if let Some(d) = v["awaiting_bead"].as_object() {
            let number = d["box"].as_u64().unwrap();
            let (position, beads) = &labels[&number];
            assert_eq!(d["position"].as_str().unwrap(), position, "box {number}");
            let shown: Vec<(String, u64)> = d["beads"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| (x["colour"].as_str().unwrap().to_string(), x["beads"].as_u64().unwrap()))
                .collect();
            assert_eq!(&shown, beads, "box {number}'s colours as its label prints them");
            checked += 1;
            let colour = &shown[0].0;
            v = call(
                "POST",
                &format!("{api}/bead"),
                Some(&format!(r#"{{"colour": "{colour}"}}"#)),
            )
            .json();
        } else {
            let mv = v["board"]["moves"][0]["name"].as_str().unwrap().to_string();
            v = call("POST", &format!("{api}/move"), Some(&format!(r#"{{"move": "{mv}"}}"#))).json();
        }
    }
    assert!(checked >= 3, "MENACE drew {checked} beads");
}
