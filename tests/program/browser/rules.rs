//! The rules panel: what each game is and what each machine does.

use super::*;

/// The rules panel's machine text, one line a paragraph.
async fn machine_text(b: &Page) -> String {
    b.js("return [...document.querySelectorAll('#machine-rules p')].map(p => p.textContent).join('\\n')")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// Scroll the rules panel to the top of the 1280×720 window and take it.
async fn shoot_rules(b: &Page, path: &Path) {
    b.js("document.getElementById('rules-panel').scrollIntoView({block: 'start'})")
        .await;
    let png = b.c.screenshot().await.unwrap();
    std::fs::write(path, &png).unwrap();
    assert!(png.len() > 10_000, "{} is a picture", path.display());
}

/// A new machine from the setup form: `game` from the menu, the other
/// fields as given (empty: the game's own), waiting for the page to say so.
pub(super) async fn new_machine(b: &Page, game: &str, fields: [(&str, &str); 4], said: &str) {
    b.js(&format!(
        "document.getElementById('game').value = {game:?}; document.getElementById('game').dispatchEvent(new Event('change'))"
    ))
    .await;
    b.js("document.querySelector('#setup details').open = true").await;
    for (id, value) in fields {
        if id == "preset" {
            b.js(&format!("document.getElementById('preset').value = {value:?}"))
                .await;
        } else {
            b.type_into(&format!("#{id}"), value).await;
        }
    }
    // The message may already say the same (a machine of the same game
    // before): cleared first, so that the wait is for this machine's.
    b.js("document.getElementById('message').textContent = ''").await;
    b.replace_machine("#new-machine").await;
    b.wait_for_text("#message", said).await;
    b.not_busy().await;
}

async fn rules_panels(b: &Page, shots: &Path) {
    // HER, as the page starts: Gardner's rule on 3×3 Hexapawn.
    assert_eq!(b.text("#rules-title").await, "Hexapawn");
    assert!(b.text("#rules").await.contains("There are no draws."));
    let her = machine_text(b).await;
    for said in [
        "HER plays Black. HER keeps a matchbox for each position it may face.",
        "to start, one bead of each colour.",
        "After a win, no bead changes.",
        "After a loss, only the box of HER's last move changes: it loses 1 bead of the colour drawn from it; no other bead changes.",
        "This is Gardner's rule.",
        "HER resigns: the game counts as a loss",
    ] {
        assert!(her.contains(said), "HER's text does not say {said:?}:\n{her}");
    }
    // Hexapawn is never drawn, and Gardner's rule never adds a bead.
    for unsaid in ["a draw", "gains", "added", "every box"] {
        assert!(!her.contains(unsaid), "HER's text says {unsaid:?}:\n{her}");
    }
    assert!(
        b.text("#symmetry-note")
            .await
            .starts_with("A position and the same board mirrored left for right share one box"),
        "{}",
        b.text("#symmetry-note").await
    );
    shoot_rules(b, &shots.join("rules-her.png")).await;

    // Games against HER, seed 5, until she wins one by play: her losses
    // take one bead, from the box of her last move; her win takes none.
    b.js("document.querySelector('#setup details').open = true").await;
    b.type_into("#seed", "5").await;
    b.replace_machine("#new-machine").await;
    b.wait_for_text("#message", "A new machine: HER plays Black in hexapawn.")
        .await;
    b.type_into("#seed", "").await;
    let (mut wins, mut losses) = (0, 0);
    for game in 0..40 {
        if wins > 0 && losses > 0 {
            break;
        }
        b.not_busy().await;
        if game > 0 {
            b.click("#new-game").await;
        }
        b.wait_for_text("#status", "Your move").await;
        let beads_before = b.text("#boxes-beads").await;
        let mut last_box = None;
        loop {
            b.not_busy().await;
            if b.text("#status").await.contains("Press New game") {
                break;
            }
            if let Value::Object(d) = b.js(DRAWN).await {
                last_box = d["box"].as_u64();
            }
            // White plays its first movable pawn's first move: rarely well.
            if b.count("#board .cell.selected").await > 0 {
                b.click("#board .cell.target").await;
            } else {
                b.click("#board .cell.movable").await;
            }
        }
        let status = b.text("#status").await;
        let changes = b.js(CHANGES).await;
        let changes = changes.as_array().unwrap();
        let title = b.text("#changes-title").await;
        if status.contains("HER wins.") {
            wins += 1;
            assert_eq!(
                title,
                format!("After game {}, HER's beads are unchanged.", game + 1),
                "{status}"
            );
            assert!(changes.is_empty(), "a win changed {changes:?}");
            assert_eq!(b.text("#boxes-beads").await, beads_before, "a win keeps every bead");
        } else {
            assert!(status.contains("You win."), "{status}");
            losses += 1;
            assert_eq!(
                title,
                format!("After game {}, HER's beads changed:", game + 1),
                "{status}"
            );
            assert_eq!(changes.len(), 1, "only the last move's box changes: {changes:?}");
            assert_eq!(changes[0]["box"].as_u64(), last_box, "the box of HER's last move");
            assert!(
                changes[0]["title"].as_str().unwrap().ends_with("1 → 0 −1"),
                "{}",
                changes[0]["title"]
            );
        }
    }
    assert!(wins > 0 && losses > 0, "{wins} wins and {losses} losses for HER");
    assert_eq!(machine_text(b).await, her, "the same machine, the same words");

    // MENACE: Michie's rule on noughts and crosses.
    new_machine(
        b,
        "tictactoe",
        [("preset", ""), ("beads", ""), ("reinforcement", ""), ("empty-box", "")],
        "A new machine: MENACE plays X in tictactoe.",
    )
    .await;
    assert_eq!(b.text("#rules-title").await, "Noughts and crosses");
    assert!(b.text("#rules").await.contains("A full board without a row is a draw."));
    let menace = machine_text(b).await;
    for said in [
        "MENACE plays X. MENACE keeps a matchbox for each position it may face where it has a choice of moves",
        "to start, 4 beads of each colour in a box for its 1st move, 3 for its 2nd, 2 for its 3rd, and 1 for its 4th and later.",
        "After a win, every box MENACE drew from gains 3 beads of the colour drawn from it.",
        "After a draw, every box MENACE drew from gains 1 bead of the colour drawn from it.",
        "After a loss, every box MENACE drew from loses 1 bead of the colour drawn from it.",
        "This is Michie's rule.",
        "MENACE resigns: the game counts as a loss",
    ] {
        assert!(menace.contains(said), "MENACE's text does not say {said:?}:\n{menace}");
    }
    assert!(!menace.contains("last move"), "{menace}");
    assert!(
        b.text("#symmetry-note")
            .await
            .starts_with("A position and the same board turned or reflected share one box"),
        "{}",
        b.text("#symmetry-note").await
    );
    shoot_rules(b, &shots.join("rules-menace.png")).await;

    // A machine of one's own: 3 beads a colour, +2 a win, +1 a draw, −2 a
    // loss on every move, an empty box restocked.
    new_machine(
        b,
        "tictactoe",
        [
            ("preset", "michie"),
            ("beads", "3"),
            ("reinforcement", "2/1/-2"),
            ("empty-box", "restock"),
        ],
        "A new machine: MENACE plays X in tictactoe.",
    )
    .await;
    let custom = machine_text(b).await;
    for said in [
        "to start, 3 beads of each colour.",
        "After a win, every box MENACE drew from gains 2 beads of the colour drawn from it.",
        "After a draw, every box MENACE drew from gains 1 bead of the colour drawn from it.",
        "After a loss, every box MENACE drew from loses 2 beads of the colour drawn from it (as many as it holds).",
        "This is the rule +2/+1/-2.",
        "If the box MENACE must draw from is empty, it is filled again with its starting beads, and MENACE draws from it.",
    ] {
        assert!(custom.contains(said), "the custom text does not say {said:?}:\n{custom}");
    }
    for unsaid in ["Michie's rule", "resigns", "4 beads"] {
        assert!(!custom.contains(unsaid), "the custom text says {unsaid:?}:\n{custom}");
    }
    shoot_rules(b, &shots.join("rules-custom.png")).await;

    // And one on Hexapawn, the last move only, with a floor: still no draws.
    new_machine(
        b,
        "hexapawn",
        [
            ("preset", ""),
            ("beads", "2"),
            ("reinforcement", "1/5/-1:last"),
            ("empty-box", "floor:1"),
        ],
        "A new machine: HER plays Black in hexapawn.",
    )
    .await;
    let floor = machine_text(b).await;
    for said in [
        "After a win, only the box of HER's last move changes: it gains 1 bead of the colour drawn from it; no other bead changes.",
        "After a loss, only the box of HER's last move changes: it loses 1 bead of the colour drawn from it; no other bead changes.",
        "No colour in a box ever drops below 1 bead",
    ] {
        assert!(floor.contains(said), "the floor text does not say {said:?}:\n{floor}");
    }
    assert!(!floor.contains("draw "), "no draws in Hexapawn:\n{floor}");
    eprintln!("screenshots in {}", shots.display());
}

/// The rules panel says what each machine does, as worked out by hand from
/// its settings: HER (Gardner's rule: one bead a move, after a loss only the
/// last move's box loses its bead, a win changes nothing, no draws in
/// Hexapawn), MENACE (Michie's: 4/3/2/1 beads, +3/+1/−1 on every box drawn
/// from) and a custom machine; and the bead changes the page shows after
/// HER's games are the ones its text says. Screenshots of the panel at
/// 1280×720 go to the test's scratch directory.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn the_rules_panel_says_what_each_machine_does() {
    on_one_tab("rules-panel", async |b, _url, shots| {
        rules_panels(b, shots).await;
    });
}

/// The board by keyboard alone: Tab reaches it, the arrow keys move
/// between cells, Enter chooses a pawn and then its target; a whole game
/// of HER is played so, and each cell is a button named by its cell.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn a_game_of_her_by_keyboard_alone() {
    on_one_tab("keyboard", async |b, _url, _shots| {
        assert_eq!(b.count("#board .cell[role=button][aria-label]").await, 9);
        assert_eq!(
            b.count("#board .cell[tabindex='0']").await,
            1,
            "one cell in the tab order"
        );
        let focused_cell = "return document.activeElement?.closest?.('#board .cell')?.dataset.name ?? null";
        for _ in 0..60 {
            if b.js(focused_cell).await.is_string() {
                break;
            }
            b.key("\u{E004}").await; // Tab
        }
        assert!(b.js(focused_cell).await.is_string(), "Tab reaches the board");
        // Which way to press to get from the focused cell to the nearest cell of `class`.
        const WAY: &str = "const f = document.activeElement.getBoundingClientRect();
            const want = [...document.querySelectorAll('#board .cell.' + arguments[0])];
            if (want.includes(document.activeElement)) return 'here';
            let best = null, d = Infinity;
            for (const c of want) { const r = c.getBoundingClientRect(); const dx = r.x - f.x, dy = r.y - f.y; const n = Math.abs(dx) + Math.abs(dy); if (n < d) { d = n; best = [dx, dy]; } }
            if (!best) return null;
            return Math.abs(best[0]) > Math.abs(best[1]) ? (best[0] > 0 ? 'right' : 'left') : (best[1] > 0 ? 'down' : 'up');";
        let mut moves = 0;
        for _ in 0..200 {
            b.not_busy().await;
            if b.text("#status").await.contains("Press New game") {
                break;
            }
            let class = if b.count("#board .cell.selected").await > 0 {
                "target"
            } else {
                "movable"
            };
            let way = b.c.execute(WAY, vec![json!(class)]).await.unwrap();
            match way.as_str() {
                Some("here") => {
                    b.key("\u{E007}").await; // Enter
                    moves += usize::from(class == "target");
                }
                Some(way) => {
                    let key = match way {
                        "up" => "\u{E013}",
                        "down" => "\u{E015}",
                        "left" => "\u{E012}",
                        _ => "\u{E014}",
                    };
                    b.key(key).await;
                }
                None => panic!("no {class} cell: {}", b.text("#status").await),
            }
        }
        let status = b.text("#status").await;
        assert!(status.contains("Press New game"), "the game ended: {status}");
        assert!(moves >= 2, "{moves} moves played by keyboard");
        assert_eq!(b.text("#games-played").await, "1");
        // The status line is announced as it changes.
        assert_eq!(
            b.js("return document.getElementById('status').getAttribute('aria-live')")
                .await,
            json!("polite")
        );
    });
}
