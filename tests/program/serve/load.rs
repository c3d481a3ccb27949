//! Load tests: many tabs training at once while others read.

use super::*;

#[test]
#[ignore = "a load test of 32 tabs: tens of seconds (.ci/run runs it)"]
fn thirty_two_tabs_train_while_others_poll_and_views_stay_quick() {
    let (mut child, line) = start_serve(&["--test-stats".as_ref()]);
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
    let waits = waits.json();
    assert!(waits["lock_waits"].as_u64().unwrap() >= 4000, "{waits}");
    assert!(waits["most_moves_waited"].as_u64().unwrap() <= 8, "{waits}");
    assert!(threads < 64, "{threads} threads");
    assert!(peak < 3 << 20, "{peak} kB");
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
