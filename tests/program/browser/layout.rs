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
        b.replace_machine("#new-machine").await;
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
        b.speed(7).await;
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

/// Watch mode as a class watches it: the page starts at the lesson's speed
/// (a game every 2 seconds); each game's change stays on screen at least
/// 2 s (sampled on every change of the panel); the board, the controls and
/// the change are in view together in the projector layout; Pause holds
/// the games and Next game plays exactly one.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn watch_mode_holds_each_change_long_enough_to_read() {
    on_one_tab("watch-hold", async |b, _url, shots| {
        b.click("#projector").await;
        assert_eq!(b.text("#speed-text").await, "a game every 2 seconds");
        // Every title the changes panel shows, with when it was shown.
        b.js("window.titles = []; new MutationObserver(() => { const t = document.getElementById('changes-title')?.textContent || ''; if (!titles.length || titles[titles.length - 1][1] !== t) titles.push([performance.now(), t]); }).observe(document.getElementById('changes'), {subtree: true, childList: true, characterData: true})")
            .await;
        b.type_into("#train-games", "6").await;
        b.click("#train").await;
        b.until("document.body.dataset.watched === '1'").await;
        // Mid-run, at 1280×720: the board, the controls and the change in view.
        b.js("window.scrollTo(0, 0)").await;
        for what in ["#board svg", "#train", "#stop", "#pause", "#speed", "#changes-title"] {
            let r = b.js(&rect(what)).await;
            let r: Vec<f64> = r
                .as_array()
                .unwrap_or_else(|| panic!("{what} is shown"))
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert!(
                r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= 1280.0 && r[3] <= 720.0 && r[2] > r[0],
                "{what} at {r:?} is not in view at 1280×720"
            );
        }
        b.screenshot(&shots.join("watch-projector-1280.png")).await;
        b.screenshot(&screenshots().join("watch-projector.png")).await;
        // Paused after the game on the board: Next game plays one, then waits again.
        b.click("#pause").await;
        b.until("document.body.dataset.waiting === 'yes'").await;
        let held: u32 = b
            .js("return document.body.dataset.watched")
            .await
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(held < 6, "paused before the end");
        assert_eq!(b.text("#pause").await, "Go on");
        b.click("#step").await;
        b.until(&format!(
            "document.body.dataset.watched === '{}' && document.body.dataset.waiting === 'yes'",
            held + 1
        ))
        .await;
        b.click("#pause").await;
        b.until("document.body.dataset.watched === '6'").await;
        b.until("!document.getElementById('train').disabled").await;
        // Each game's change was on screen for 2 s at least (the last one still is).
        let titles = b.js("return window.titles").await;
        let titles: Vec<(f64, String)> = titles
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t[0].as_f64().unwrap(), t[1].as_str().unwrap().to_string()))
            .filter(|(_, t)| !t.is_empty())
            .collect();
        assert_eq!(titles.len(), 6, "one title a game: {titles:?}");
        for (k, pair) in titles.windows(2).enumerate() {
            assert!(
                pair[0].1.starts_with(&format!("After game {}, HER's beads", k + 1)),
                "{pair:?}"
            );
            let shown = pair[1].0 - pair[0].0;
            assert!(shown >= 2000.0, "{} on screen for {shown:.0} ms", pair[0].1);
        }
        // The watched games' list says what each game changed.
        let log = b.text("#watch-log").await;
        assert!(log.contains("Game 6: ") && log.contains("Game 1: "), "{log}");
    });
}

/// Nothing lost to a click: Reset asks first once the machine has played,
/// "Keep it" keeps it, and after a reset Undo brings it back bead for bead.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn reset_asks_first_and_undo_brings_the_machine_back() {
    on_one_tab("undo", async |b, _url, _shots| {
        const STATE: &str = "const done = arguments[arguments.length - 1]; fetch(`/api/sessions/${sessionStorage.getItem('menace-session')}/state`).then(r => r.json()).then(s => done({machine: s.machine, games: s.games_played, rng: s.rng}))";
        // A seed above 2^53 is the machine's to the digit (a JavaScript
        // number would make it 2704424261829101000, another machine).
        b.click("#setup summary").await;
        b.type_into("#seed", "2704424261829100852").await;
        b.replace_machine("#new-machine").await;
        b.wait_for_text("#message", "A new machine").await;
        b.wait_for_text("#settings", "seed 2704424261829100852").await;
        let sid = b.js("return sessionStorage.getItem('menace-session')").await;
        let state = b
            .c
            .execute_async(
                "const done = arguments[arguments.length - 1]; fetch(`/api/sessions/${arguments[0]}/state`).then(r => r.text()).then(done)",
                vec![sid],
            )
            .await
            .unwrap();
        assert!(
            state.as_str().unwrap().contains("\"seed\": 2704424261829100852"),
            "{state}"
        );
        b.type_into("#seed", "").await;
        // A fresh page's machine is replaced without asking (nothing to lose).
        b.click("#reset").await;
        b.wait_for_text("#message", "starts again with fresh boxes").await;
        assert!(b.js("return document.getElementById('confirm-replace').hidden").await == json!(true));
        b.speed(7).await;
        b.type_into("#train-games", "40").await;
        b.click("#train").await;
        b.wait_for_text("#progress-text", "40 of 40 games against random done")
            .await;
        let trained = b.c.execute_async(STATE, vec![]).await.unwrap();
        assert_eq!(trained["games"], 40, "{trained}");
        // Reset asks; keeping it changes nothing.
        b.click("#reset").await;
        b.until("!document.getElementById('confirm-replace').hidden").await;
        assert_eq!(
            b.text("#replace-text").await,
            "HER has played 40 games. Replace HER with fresh boxes? Undo brings this machine back."
        );
        b.click("#replace-no").await;
        assert_eq!(b.text("#games-played").await, "40");
        // Replaced, then brought back.
        b.click("#reset").await;
        b.click("#replace-yes").await;
        b.until("document.getElementById('games-played').textContent === '0'")
            .await;
        b.wait_for_text("#undo", "Undo: bring back HER after 40 games").await;
        b.click("#undo").await;
        b.wait_for_text("#message", "HER is back, after 40 games.").await;
        assert_eq!(b.text("#games-played").await, "40");
        assert!(b.js("return document.getElementById('undo-bar').hidden").await == json!(true));
        let back = b.c.execute_async(STATE, vec![]).await.unwrap();
        assert_eq!(back, trained, "every box and bead as before the reset");
    });
}

/// The boxes view's cards draw a box to the card's width, whatever its
/// board: on a card of the default size (220 px) the bead counts are at
/// least 12 px high, as the card's legend is, on Octopawn's 4×4 board (they
/// were 9 px) as on noughts and crosses' 3×3.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn box_cards_counts_are_readable_at_the_default_size() {
    on_one_tab("card-counts", async |b, _url, shots| {
        // The default size, on the slider too (its steps of 40 from 160 showed 240).
        assert_eq!(
            b.js("return document.getElementById('box-size').value").await,
            json!("220")
        );
        assert_eq!(
            b.js("return document.getElementById('boxes-list').style.getPropertyValue('--card')")
                .await,
            json!("220px")
        );
        for spec in ["hexapawn:4x4", "tictactoe"] {
            b.js("document.querySelector('#setup details').open = true").await;
            b.type_into("#custom-game", spec).await;
            b.js("document.getElementById('message').textContent = ''").await;
            b.replace_machine("#new-machine").await;
            b.wait_for_text("#message", "A new machine").await;
            b.not_busy().await;
            b.until("document.querySelectorAll('#boxes-list .box-card .count text').length > 0")
                .await;
            // Each count's height on screen: its font size in the box's
            // units, times the card's pixels to a unit.
            let heights = b
                .js("return [...document.querySelectorAll('#boxes-list .box-card svg')].flatMap(svg => {
                       const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                       return [...svg.querySelectorAll('.count text')].map(t => parseFloat(t.getAttribute('font-size')) * scale);
                     })")
                .await;
            let heights: Vec<f64> = heights
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert!(
                !heights.is_empty() && heights.iter().all(|&h| h >= 12.0 - 0.05),
                "{spec}: count heights {heights:?}"
            );
            b.screenshot(&shots.join(format!("cards-{}.png", spec.replace(':', "-"))))
                .await;
        }
    });
}
