//! The counters, the projector layout and watch mode.

use super::rules::new_machine;
use super::*;

/// In the projector layout at 1280×720, after HER loses a game, the board,
/// the box she drew from (drawn large, its counts readable) and the bead
/// the game took away are all in view without scrolling; the layout is
/// remembered, and the boxes view's pictures grow with its size control.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn the_projector_layout_keeps_the_moment_of_learning_in_view() {
    on_one_tab("projector", async |b, url, shots| {
        b.click("#projector").await;
        assert_eq!(
            b.js("return document.body.classList.contains('projector')").await,
            json!(true)
        );
        // A fresh HER with seed 3: after 1. b2 she draws a2, and bxc3 wins for White.
        b.click("#setup summary").await;
        b.type_into("#seed", "3").await;
        b.click("#new-machine").await;
        b.wait_for_text("#message", "A new machine: HER plays Black in hexapawn.")
            .await;
        b.js("document.querySelector('#setup details').open = false").await;
        b.click(&cell("b1")).await;
        b.click(&cell("b2")).await;
        b.wait_for_text("#drawn", "HER drew a bead from box 2 and played a2.")
            .await;
        b.not_busy().await;
        b.click(&cell("b2")).await;
        b.click(&cell("c3")).await;
        b.wait_for_text("#status", "You win.").await;
        b.wait_for_text("#changes", "box 2: red, a2: 1 → 0 −1").await;
        b.not_busy().await;
        b.js("window.scrollTo(0, 0)").await;
        let inside = |r: &Value, what: &str| {
            let r: Vec<f64> = r
                .as_array()
                .unwrap_or_else(|| panic!("{what} is shown"))
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert!(
                r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= 1280.0 && r[3] <= 720.0,
                "{what} at {r:?} is not inside 1280×720"
            );
            (r[2] - r[0], r[3] - r[1])
        };
        let (board_w, _) = inside(&b.js(&rect("#board svg")).await, "the board");
        inside(&b.js(&rect("#drawn-title")).await, "the drawn box's title");
        let (box_w, _) = inside(&b.js(&rect("#drawn .box-picture svg")).await, "the drawn box");
        inside(&b.js(&rect("#drawn .legend")).await, "the drawn box's beads");
        inside(
            &b.js(&rect("#changes .change-title")).await,
            "the change after the game",
        );
        inside(
            &b.js(&rect("#changes .change .box-picture svg")).await,
            "the changed box",
        );
        assert!(
            board_w >= 300.0 && box_w >= 300.0,
            "board {board_w} px and box {box_w} px wide"
        );
        // The bead counts on the drawn box: at least 24 px high, read from the back of a room.
        let counts = b
            .js("return [...document.querySelectorAll('#drawn svg .count text')].map(t => t.getBoundingClientRect().height)")
            .await;
        let counts: Vec<f64> = counts.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert!(
            !counts.is_empty() && counts.iter().all(|&h| h >= 24.0),
            "count heights {counts:?}"
        );
        let wide = b.js("return document.documentElement.scrollWidth").await;
        assert_eq!(wide, 1280, "nothing wider than the projector");
        b.screenshot(&shots.join("projector-1280.png")).await;
        b.screenshot(&screenshots().join("serve-projector.png")).await;
        // Remembered: a reload keeps the layout.
        b.go(url).await;
        assert_eq!(
            b.js("return document.body.classList.contains('projector')").await,
            json!(true)
        );
        // The boxes view's pictures grow with the size control.
        let before = b.js(&rect("#boxes-list .box-card svg")).await;
        b.js("const s = document.getElementById('box-size'); s.value = '440'; s.dispatchEvent(new Event('input'))")
            .await;
        let after = b.js(&rect("#boxes-list .box-card svg")).await;
        let width = |r: &Value| r[2].as_f64().unwrap() - r[0].as_f64().unwrap();
        assert!(width(&after) > 1.8 * width(&before), "{before} then {after}");
        // A phone: one column, nothing wider than the screen.
        b.viewport(400, 860).await;
        b.fits("400 px").await;
        eprintln!("screenshots in {}", shots.display());
    });
}

/// Watching games at 2 a second shows one game at a time: every board
/// shown comes with that game's own moves so far and its own move number,
/// and a second machine is named as the page names it throughout.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn watch_mode_shows_one_game_at_a_time() {
    on_one_tab("watch", async |b, _url, shots| {
        // Every board shown, with the status and move list beside it at that moment.
        b.js("window.seen = []; new MutationObserver(() => window.seen.push([document.getElementById('status').textContent, document.getElementById('history').textContent])).observe(document.body, {attributes: true, attributeFilter: ['data-board-updates']})")
            .await;
        b.js("document.getElementById('opponent').value = 'menace'; document.getElementById('opponent').dispatchEvent(new Event('change'))")
            .await;
        b.js("const s = document.getElementById('speed'); s.value = '2'; s.dispatchEvent(new Event('input'))")
            .await;
        assert_eq!(b.text("#speed-text").await, "2 games a second");
        b.type_into("#train-games", "3").await;
        b.click("#train-form button[type=submit]").await;
        b.until("document.body.dataset.watched === '3'").await;
        b.until("!document.getElementById('train').disabled").await;
        let seen = b.js("return window.seen").await;
        let frames: Vec<(String, String)> = seen
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_str().unwrap().to_string()))
            .filter(|(status, _)| status.contains(" plays "))
            .collect();
        assert!(
            frames.len() >= 9,
            "three games of Hexapawn are at least 9 moves: {frames:?}"
        );
        for (status, history) in &frames {
            // "HER plays a2 (move 2 of the game)." beside "Moves: b2 a2".
            let ply = common::move_number(status);
            let mv = status.split(" plays ").nth(1).unwrap().split(' ').next().unwrap();
            let moves: Vec<&str> = history.trim_start_matches("Moves: ").split(' ').collect();
            assert_eq!(moves.len(), ply, "{status} beside {history}");
            assert_eq!(moves.last().copied(), Some(mv), "{status} beside {history}");
            assert!(
                status.starts_with("HER plays") || status.starts_with("A second HER plays"),
                "{status}"
            );
        }
        let page = b.shown_text().await;
        assert!(
            !page.contains("menace wins") && !page.contains("menace plays"),
            "{page}"
        );
        assert!(b
            .text("#progress-text")
            .await
            .contains("3 of 3 games watched against a second HER"));
        b.screenshot(&shots.join("watched.png")).await;
        // The second machine's boxes open like HER's.
        b.until("!document.getElementById('box-machine-label').hidden").await;
        b.js("const m = document.getElementById('box-machine'); m.value = 'second'; m.dispatchEvent(new Event('change'))").await;
        b.wait_for_text("#boxes-summary", "A second HER plays White in hexapawn")
            .await;
        assert!(b.count("#boxes-list .box-card").await > 0);
        assert!(b
            .text("#boxes-list .box-card .title")
            .await
            .contains("a second HER's move"));
    });
}

/// The counters follow a training run while it runs; a new machine leaves
/// nothing of the old one on screen (progress, games watched, the boxes
/// view's filter, the counters); numbers never break at their separator.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn counters_follow_training_and_a_new_machine_starts_clean() {
    on_one_tab("new-machine", async |b, _url, shots| {
        new_machine(
            b,
            "tictactoe",
            [("preset", ""), ("beads", ""), ("reinforcement", ""), ("empty-box", "")],
            "A new machine",
        )
        .await;
        // 2 000 games against a searching opponent of 3 000 playouts a move:
        // tens of seconds, so that it is surely seen running (with 300 it
        // could end, under the whole suite's load, before the page showed a
        // count while running), and stopped long before the end.
        b.js("document.getElementById('opponent').value = 'mcts'; document.getElementById('opponent').dispatchEvent(new Event('change'))")
            .await;
        b.type_into("#playouts", "3000").await;
        b.type_into("#train-games", "2000").await;
        b.click("#train-form button[type=submit]").await;
        let counted = "(['wins', 'draws', 'losses'].map(id => Number(document.getElementById(id).textContent.replace(/\\D/g, ''))).reduce((a, b) => a + b, 0))";
        b.until(&format!(
            "document.getElementById('progress-text').textContent.includes('…') && {counted} > 0"
        ))
        .await;
        let played = b.text("#games-played").await.replace(|c: char| !c.is_ascii_digit(), "");
        assert!(played.parse::<u64>().unwrap() < 2000, "{played}");
        eprintln!("{played} games played when the page showed them running");
        b.click("#stop").await;
        b.until("!document.getElementById('progress-text').textContent.includes('…')")
            .await;
        b.not_busy().await;
        // A filter on the boxes view.
        b.js("const m = document.getElementById('box-move'); m.value = m.options[2].value; m.dispatchEvent(new Event('change'))")
            .await;
        b.wait_for_text("#boxes-summary", "shown by the filter").await;
        b.not_busy().await;
        b.screenshot(&shots.join("stopped-1280.png")).await;
        eprintln!("screenshots in {}", shots.display());
        // Nothing wraps at a thousands separator, and none is a breaking space.
        let text = b.shown_text().await;
        assert!(!text.contains('\u{2009}'), "a breaking thin space in: {text}");
        assert!(text.contains('\u{202F}'), "some number over 999 is shown");

        new_machine(
            b,
            "hexapawn",
            [("preset", ""), ("beads", ""), ("reinforcement", ""), ("empty-box", "")],
            "A new machine",
        )
        .await;
        assert_eq!(b.text("#progress-text").await, "");
        assert_eq!(b.count("#watch-log li").await, 0);
        for id in ["#games-played", "#wins", "#draws", "#losses"] {
            assert_eq!(b.text(id).await, "0", "{id}");
        }
        let summary = b.text("#boxes-summary").await;
        assert!(!summary.contains("filter"), "{summary}");
        assert!(summary.contains("19 boxes"), "{summary}");
        // No word of the old machine (MENACE, noughts and crosses) is left in any panel.
        for panel in [
            "#play-panel",
            "#box-panel",
            "#train-panel",
            "#charts-panel",
            "#rules-panel",
            "#boxes-panel",
            "#message",
        ] {
            let text = b.text(panel).await;
            assert!(
                !text.contains("MENACE") && !text.contains("tictactoe"),
                "{panel}: {text}"
            );
        }
    });
}
