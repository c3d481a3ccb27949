//! The command line end to end: outputs, errors and exit codes.

use std::process::{Command, Output};

fn menace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn train_with_the_scroggs_preset_says_its_beads_and_rule() {
    // Scroggs's page: 8/4/2/1 beads by MENACE's move, +3/+1/−1 on every box
    // used, an empty box resigns, 304 boxes (values written out by hand).
    let out = menace(&["train", "tictactoe", "--preset", "scroggs", "--games", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = |prefix: &str| {
        text.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' line in {text}"))
            .to_string()
    };
    assert_eq!(
        line("settings: "),
        "settings: beads 8/4/2/1, reinforcement michie, empty box resign, boxes choices"
    );
    assert_eq!(
        line("preset "),
        "preset scroggs (MENACE as M. Scroggs's page sets it up): beads by move 8, 4, 2, 1; Michie's rule, +3/+1/−1; resigns at an empty box; boxes only where there is a choice"
    );
    assert!(line("boxes: ").starts_with("boxes: 304 (all made up front"), "{text}");
    // As Michie's preset says its own, in the same words but for the beads.
    let michie = stdout(&menace(&["train", "tictactoe", "--preset", "michie", "--games", "1"]));
    assert!(
        michie.contains("\npreset michie (Michie's MENACE): beads by move 4, 3, 2, 1; Michie's rule, +3/+1/−1; resigns at an empty box; boxes only where there is a choice\n"),
        "{michie}"
    );
    // No preset named, no preset line; an unknown one lists all three.
    assert!(!stdout(&menace(&["train", "tictactoe", "--games", "1"])).contains("\npreset "));
    let bad = menace(&["train", "tictactoe", "--preset", "scrogs"]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("preset 'scrogs': expected gardner, michie or scroggs"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn solve_hexapawn_says_black_wins() {
    let out = menace(&["solve", "hexapawn"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Black wins with best play"), "{text}");
    assert!(text.contains("loses in 6 plies (3 of White's own moves)"), "{text}");
    assert!(text.contains("Principal line: 1. "), "{text}");
}

#[test]
fn solve_json_has_the_documented_fields() {
    let out = menace(&["solve", "hexapawn:4x4", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "hexapawn:4x4");
    assert_eq!(v["result"], "White wins");
    assert_eq!(v["value"]["result"], "win");
    assert_eq!(v["first_moves"].as_array().unwrap().len(), 4);
    assert!(v["principal_line"].as_array().unwrap().len() as u64 == v["value"]["plies"].as_u64().unwrap());
}

/// `menace solve --table hexapawn --json` for `pawn` up to `files` × `ranks`.
fn table_json(pawn: &str, files: u8, ranks: u8) -> serde_json::Value {
    let (files, ranks) = (files.to_string(), ranks.to_string());
    let out = menace(&[
        "solve",
        "--table",
        "hexapawn",
        "--pawn",
        pawn,
        "--max-files",
        &files,
        "--max-ranks",
        &ranks,
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn solve_table_covers_small_boards() {
    let v = table_json("normal", 4, 4);
    let boards = v["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 8);
    let find = |w: u64, h: u64| boards.iter().find(|b| b["files"] == w && b["ranks"] == h).unwrap()["winner"].clone();
    assert_eq!(find(3, 3), "black");
    assert_eq!(find(4, 4), "white");
    assert_eq!(find(3, 4), "black");
}

/// Who wins Hexapawn with best play, by a plain search written here: a
/// grid of cells, each pawn type's steps and captures as the rules say
/// them (games.md), every position remembered. `true`: White wins.
fn plain_winner(w: i32, h: i32, pawn: &str) -> bool {
    use std::collections::HashMap;
    // The side to move (0 White, 1 Black) wins from (white cells, black cells)?
    fn wins(w: i32, h: i32, pawn: &str, pos: (u64, u64, u8), memo: &mut HashMap<(u64, u64, u8), bool>) -> bool {
        if let Some(&k) = memo.get(&pos) {
            return k;
        }
        let (white, black, turn) = pos;
        let cell = |f: i32, r: i32| 1u64 << (r * w + f);
        let at = |f: i32, r: i32| -> u8 {
            if white & cell(f, r) != 0 {
                1
            } else if black & cell(f, r) != 0 {
                2
            } else {
                0
            }
        };
        // The one who just moved has arrived on its far rank: the side to move has lost.
        if (0..w).any(|f| at(f, h - 1) == 1 || at(f, 0) == 2) {
            memo.insert(pos, false);
            return false;
        }
        let (me, them, dir) = if turn == 0 { (1, 2, 1) } else { (2, 1, -1) };
        let mut next = Vec::new();
        for r in 0..h {
            for f in 0..w {
                if at(f, r) != me || !(0..h).contains(&(r + dir)) {
                    continue;
                }
                let r2 = r + dir;
                let mut go = |f2: i32, r2: i32, needs: u8| {
                    if (0..w).contains(&f2) && (0..h).contains(&r2) && at(f2, r2) == needs {
                        let (from, to) = (cell(f, r), cell(f2, r2));
                        let (mut mine, mut theirs) = if me == 1 { (white, black) } else { (black, white) };
                        mine = (mine & !from) | to;
                        theirs &= !to;
                        next.push(if me == 1 { (mine, theirs, 1) } else { (theirs, mine, 0) });
                    }
                };
                if pawn == "normal" {
                    go(f, r2, 0);
                    go(f - 1, r2, them);
                    go(f + 1, r2, them);
                } else {
                    go(f - 1, r2, 0);
                    go(f + 1, r2, 0);
                    go(f, r2, them);
                    if pawn == "berolina-plus" {
                        go(f - 1, r, them);
                        go(f + 1, r, them);
                    }
                }
            }
        }
        // No move: the side to move loses.
        let won = next.into_iter().any(|p| !wins(w, h, pawn, p, memo));
        memo.insert(pos, won);
        won
    }
    let whites = (0..w).fold(0u64, |b, f| b | 1 << f);
    let blacks = whites << ((h - 1) * w);
    wins(w, h, pawn, (whites, blacks, 0), &mut HashMap::new())
}

#[test]
fn the_table_agrees_with_a_plain_search_on_every_small_board() {
    // Every board of the three pawn types up to 5 files and 4 ranks (20 cells), by both.
    for pawn in ["normal", "berolina", "berolina-plus"] {
        let v = table_json(pawn, 5, 4);
        let boards = v["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 10);
        for b in boards {
            let (w, h) = (b["files"].as_i64().unwrap() as i32, b["ranks"].as_i64().unwrap() as i32);
            let plain = if plain_winner(w, h, pawn) { "white" } else { "black" };
            assert_eq!(b["winner"], plain, "{pawn} {w}x{h}");
        }
    }
    // Gardner's 3×3 by hand: Black wins.
    assert!(!plain_winner(3, 3, "normal"));
}

#[test]
fn solve_table_for_berolina_pawns_and_bad_table_options() {
    let out = menace(&[
        "solve",
        "--table",
        "hexapawn",
        "--pawn",
        "berolina",
        "--max-files",
        "3",
        "--max-ranks",
        "3",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pawn"], "berolina");
    // 1×3: White's one Berolina pawn has no diagonal to step to, and loses.
    assert_eq!(v["boards"][0]["winner"], "black");
    assert_eq!(v["boards"][0]["unsolved"], serde_json::Value::Null);
    for (args, needle) in [
        (&["--pawn", "knight"][..], "pawn 'knight'"),
        (&["--max-seconds", "0"][..], "--max-seconds '0'"),
    ] {
        let mut all = vec!["solve", "--table", "hexapawn"];
        all.extend_from_slice(args);
        let out = menace(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{}", stderr(&out));
    }
}

#[test]
fn boxes_for_her() {
    let out = menace(&["boxes", "hexapawn", "--side", "black", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["sets"][0]["set"], "all");
    assert_eq!(v["sets"][0]["total"], 19);
    let per: Vec<u64> = v["sets"][0]["per_move"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["boxes"].as_u64().unwrap())
        .collect();
    assert_eq!(per, [2, 10, 7]);
    // The `all` column of the total row.
    let total = |out: &Output| {
        let text = stdout(out);
        let row = text
            .lines()
            .find(|l| l.trim_start().starts_with("total "))
            .unwrap_or_default();
        row.split_whitespace().nth(1).unwrap_or_default().to_string()
    };
    let out = menace(&["boxes", "hexapawn", "--side", "black", "--no-symmetry"]);
    assert_eq!(total(&out), "37", "{}", stdout(&out));
    // The machine's own move, then the game's.
    assert!(
        stdout(&out).contains("HER's move 2 (move 4 of the game)       20"),
        "{}",
        stdout(&out)
    );
    let out = menace(&["boxes", "hexapawn", "--side", "white", "--no-symmetry"]);
    assert_eq!(total(&out), "33", "{}", stdout(&out));
    assert!(
        stdout(&out).contains("HER's move 1 (move 1 of the game)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn errors_are_one_clear_line_with_the_right_exit_code() {
    // A bad value on the command line is a usage error: exit 2.
    let out = menace(&["solve", "hexapawn:4"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("Error: game spec 'hexapawn:4'"), "{err}");
    let out = menace(&["boxes", "hexapawn", "--side", "purple"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("side 'purple': expected white or black"));
    let out = menace(&["train", "hexapawn", "--preset", "turing"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("preset 'turing'"));
    // A game too large for what was asked is a runtime error: exit 1
    // (noughts and crosses has no winner-only search to fall back on).
    let out = menace(&["solve", "tictactoe", "--max-positions", "100"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("has too many positions to handle exactly (more than 100): raise --max-positions"),
        "{err}"
    );
    let out = menace(&["train", "hexapawn:8x8", "--opponent", "perfect", "--games", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("opponent 'perfect' needs the game solved") && err.contains("mcts:1000"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(menace(&["solve"]).status.code(), Some(2));
    assert_eq!(menace(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        menace(&["boxes", "hexapawn", "--side", "purple"]).status.code(),
        Some(2)
    );
    assert_eq!(menace(&["boxes", "chess"]).status.code(), Some(2));
    assert_eq!(menace(&["solve", "--table", "chess"]).status.code(), Some(2));
    // --side defaults as in train: Black on 3x3 (HER), White on octopawn (it wins there).
    let out = menace(&["boxes", "hexapawn"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("playing Black in hexapawn"));
    let out = menace(&["boxes", "octopawn"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("playing White in hexapawn:4x4"));
}

/// `train` gives exact learning where the scheme only takes beads away and
/// says why not where it adds them (Michie's, or Gardner's with empty
/// boxes restocked), against a random or a perfect opponent; against a
/// search it says nothing, as no exact value is known of its moves.
#[test]
fn train_says_why_a_scheme_that_adds_beads_has_no_exact_learning() {
    let lines = |args: &[&str]| -> Vec<String> {
        let o = menace(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
            .lines()
            .filter(|l| l.starts_with("exact learning"))
            .map(String::from)
            .collect()
    };
    let her = lines(&["train", "hexapawn", "--games", "10"]);
    assert!(
        her[0].starts_with("exact learning against random: ") && her[0].contains("over the 19648 machines"),
        "{her:?}"
    );
    for (args, scheme) in [
        (
            &["train", "tictactoe", "--games", "10"][..],
            "reinforcement michie (empty box resign)",
        ),
        (
            &[
                "train",
                "hexapawn",
                "--preset",
                "michie",
                "--opponent",
                "perfect",
                "--games",
                "10",
            ][..],
            "reinforcement michie (empty box resign)",
        ),
        (
            &[
                "train",
                "hexapawn",
                "--empty-box",
                "restock",
                "--opponent",
                "perfect:0.5",
                "--games",
                "10",
            ][..],
            "reinforcement gardner (empty box restock)",
        ),
    ] {
        let said = lines(args);
        assert_eq!(said.len(), 1, "{args:?}: {said:?}");
        assert!(
            said[0].contains(&format!("not computed: under {scheme} a machine can gain beads")),
            "{args:?}: {said:?}"
        );
    }
    assert!(lines(&[
        "train",
        "hexapawn",
        "--preset",
        "michie",
        "--opponent",
        "mcts:10",
        "--games",
        "10"
    ])
    .is_empty());
}

#[test]
fn train_is_deterministic_and_summarises() {
    let args = [
        "train",
        "hexapawn",
        "--side",
        "black",
        "--opponent",
        "perfect",
        "--games",
        "50",
        "--seed",
        "7",
        "--reinforcement",
        "gardner",
    ];
    let a = menace(&args);
    let b = menace(&args);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(a.stdout, b.stdout);
    let text = stdout(&a);
    assert!(text.contains("results: "), "{text}");
    assert!(
        text.contains("exact expected result against perfect: win 1.0000"),
        "{text}"
    );
    let json = menace(&[
        "train",
        "hexapawn",
        "--games",
        "20",
        "--seed",
        "1",
        "--json",
        "--exact-every",
        "10",
    ]);
    // One line a game as it is played, then the summary.
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&json.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (v, records) = lines.split_last().unwrap();
    assert_eq!(records.len(), 20);
    assert_eq!(v["games"], 20);
    assert!(records[9]["exact"]["random"]["win"].is_number());
    assert!(records[8]["exact"].is_null());
    let wins = records.iter().filter(|r| r["result"] == "win").count();
    assert_eq!(v["wins"].as_u64().unwrap() as usize, wins);
}

#[test]
fn train_save_resume_and_bad_inputs() {
    let dir = std::env::temp_dir().join(format!("menace-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("her.json");
    let f = file.to_str().unwrap();
    let out = menace(&["train", "hexapawn", "--games", "10", "--save", f]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = menace(&["boxes", "hexapawn", "--state", f]);
    assert!(
        stdout(&out).contains("19 boxes of a machine playing Black"),
        "{}",
        stdout(&out)
    );
    // Another game's state file.
    let out = menace(&["train", "hexapawn:4x4", "--resume", f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the file is for 'hexapawn', not 'hexapawn:4x4'"),
        "{}",
        stderr(&out)
    );
    // A truncated one.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, &text[..100]).unwrap();
    let out = menace(&["train", "hexapawn", "--resume", f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!("state file '{f}': not a valid state file")),
        "{}",
        stderr(&out)
    );
    // Usage errors: unknown opponent, negative games, bad reinforcement.
    for (args, needle) in [
        (vec!["train", "hexapawn", "--opponent", "god"], "opponent 'god'"),
        (vec!["train", "hexapawn", "--games", "-5"], "--games"),
        (vec!["train", "hexapawn", "--games", "0"], "--games"),
        (
            vec!["train", "hexapawn", "--reinforcement", "more"],
            "reinforcement 'more'",
        ),
    ] {
        let out = menace(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bench --quick` runs every row; its counts (not its speeds, which are
/// never asserted) match the known perft values and Hex 6x6's openings.
#[test]
fn bench_quick_runs_every_row() {
    let out = menace(&["bench", "--quick", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 28);
    // Each large game's first-visit training, its speed of light and the ratio.
    for game in ["chessapawn", "minihexchess", "hex:11"] {
        let at = rows
            .iter()
            .position(|r| {
                r["what"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("train {game}, MENACE (first visit"))
            })
            .unwrap_or_else(|| panic!("a first-visit row for {game}"));
        assert!(
            rows[at + 1]["what"].as_str().unwrap().contains("speed-of-light loop"),
            "{game}"
        );
        assert!(
            rows[at + 1]["note"].as_str().unwrap().contains("a byte a move stored"),
            "{game}"
        );
        assert_eq!(rows[at + 2]["unit"], "x slower", "{game}");
    }
    let note = |what: &str| -> String {
        let row = rows
            .iter()
            .find(|r| r["what"].as_str().unwrap().starts_with(what))
            .unwrap();
        assert!(row["rate"].as_f64().unwrap() > 0.0, "{what}");
        row["note"].as_str().unwrap().to_string()
    };
    // Counted independently in tests/library/chessapawn.rs and tests/library/minihexchess.rs.
    assert_eq!(note("Chessapawn perft"), "201334 leaves");
    assert_eq!(note("Mini Hexchess perft"), "681 leaves");
    // 6x6 as in tests/library/hex.rs (Benzene's published openings, opening by
    // opening); the 7x7 centre as published, checked here alone.
    assert!(note("solve hex:6,swap=off").starts_with("24 of 36 win"));
    assert!(note("solve hex:7,swap=off").starts_with("1 of 1 win, as published"));
    assert!(note("train hexapawn").starts_with("compiled path"));
    // The speed-of-light loop plays HER's rule: trained over its 100 000
    // games against random play it wins nearly all (the trainer's HER: an
    // exact chance of 0.9998 of beating random play after 500 games).
    let light = note("the same rule in a speed-of-light loop");
    let won: f64 = light
        .split(", ")
        .find_map(|part| part.strip_suffix(" of games won"))
        .unwrap()
        .parse()
        .unwrap();
    assert!(won > 0.99, "{light}");
    assert!(light.starts_with("one ChaCha8 draw a game"), "{light}");
    assert!(note("the same rule, each game drawn whole").starts_with("one ChaCha8 draw a game"));
    assert_eq!(
        note("HER's rate against the speed of light"),
        "against the faster loop; the goal: within 10x"
    );
    for board in ["5x5", "6x6"] {
        let row = rows
            .iter()
            .find(|r| r["what"].as_str().unwrap() == format!("train hexapawn:{board} vs perfect, set-up included"))
            .unwrap();
        assert_eq!(row["note"], "not run under --quick: its set-up alone takes seconds");
    }
    let exact_row = rows
        .iter()
        .find(|r| r["what"] == "the same, exact results every 100 games")
        .unwrap();
    assert_eq!(
        exact_row["note"],
        "not run under --quick: its set-up alone takes seconds"
    );
    assert!(note("train chessapawn").starts_with("general path"));
    assert_eq!(note("train hex:5"), "refused at once");
    // 5 arms × 20 seeds, 100 games each.
    assert_eq!(
        note("merge 100 units from 100 shards"),
        "10000 games, read an arm at a time"
    );
}

#[test]
fn resume_without_save_is_refused_before_any_game() {
    let dir = std::env::temp_dir().join(format!("menace-cli-{}-resume", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("her.json");
    let f = file.to_str().unwrap();
    assert!(menace(&["train", "hexapawn", "--games", "3", "--save", f])
        .status
        .success());
    let before = std::fs::read(&file).unwrap();
    // It used to play the games and drop them unsaid.
    let out = menace(&["train", "hexapawn", "--games", "5", "--resume", f]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "--resume {f} without --save would throw the games away: give --save {f}"
        )),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    // Asked for in so many words, the games are played and not kept.
    let out = menace(&["train", "hexapawn", "--games", "5", "--resume", f, "--no-save"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("games 4..8"), "{}", stdout(&out));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn messages_say_what_is_so() {
    // A loss in the last game: not "no loss in the 0 games after it".
    // Seed 0 (as `train` prints it): HER loses its first game of one.
    let out = menace(&["train", "hexapawn", "--games", "1", "--seed", "0"]);
    let text = stdout(&out);
    assert!(text.contains("results: 0 wins, 0 draws, 1 losses"), "{text}");
    assert!(
        text.contains("last loss in game 1, the last one played: not learned yet"),
        "{text}"
    );
    assert!(!text.contains("0 games after it"), "{text}");
    // A human opponent is neither listed nor accepted where programs play.
    let out = menace(&["train", "hexapawn", "--opponent", "god"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains("human"), "{}", stderr(&out));
    let out = menace(&["train", "hexapawn", "--opponent", "human"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a person plays at the terminal with `menace play`"),
        "{}",
        stderr(&out)
    );
    // No --max-positions counts Chessapawn's boxes: the advice does not say to raise it.
    let out = menace(&["boxes", "chessapawn", "--max-positions", "1000000000"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("far too large to count its boxes exactly, whatever --max-positions"),
        "{err}"
    );
    assert!(!err.contains("raise --max-positions"), "{err}");
    let out = menace(&["solve", "minihexchess"]);
    assert!(!stderr(&out).contains("raise --max-positions"), "{}", stderr(&out));
}

#[test]
fn a_closed_pipe_ends_quietly_and_a_full_disk_is_an_error() {
    use std::io::BufRead;
    use std::process::Stdio;
    // 20 000 lines of JSON, far more than a pipe holds: read one, close the pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["train", "hexapawn", "--games", "20000", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    assert!(first.starts_with("{\"game\":1,"), "{first}");
    drop(reader);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    // A full disk: exit 1 and one line that says so.
    for args in [
        vec!["boxes", "hexapawn"],
        vec!["train", "hexapawn", "--games", "100", "--json"],
        vec!["solve", "hexapawn"],
        // The server's first line, before it serves anything.
        vec!["serve", "--port", "0"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_menace"))
            .args(&args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert_eq!(
            stderr(&out),
            "Error: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn help_lists_the_games_of_the_registry() {
    let forms = menace::AnyGame::forms();
    for sub in ["train", "play", "boxes", "solve"] {
        let out = menace(&[sub, "--help"]);
        assert!(out.status.success());
        // Clap may wrap the line: compare with whitespace folded.
        let folded = stdout(&out).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(folded.contains(&format!("The game spec: {forms}")), "{sub}: {folded}");
    }
}

/// `solve --position`: a Hex position as `play` prints it, a noughts and
/// crosses position by the exact solver, and the refusals.
#[test]
fn solve_a_position_given() {
    // 4x4 without the swap, Red to move on the empty board: the short
    // diagonal's four cells win (the first-move table of tests/library/hex.rs).
    let out = menace(&["solve", "hex:4,swap=off", "--position", "4/4/4/4 r"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Red wins with best play"), "{text}");
    assert!(
        text.contains("winning moves (4, dead and captured cells aside): d1 c2 b3 a4"),
        "{text}"
    );
    // With the swap, Red's winning opening c2 is taken by Blue's swap, the only winning reply.
    let out = menace(&["solve", "hex:4", "--position", "4/4/2r1/4 b", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], "Blue wins");
    assert_eq!(v["winning_moves"], serde_json::json!(["swap"]));
    // Noughts and crosses from a corner and the centre: a draw, by the exact solver.
    let out = menace(&["solve", "tictactoe", "--position", "x../.o./... x"]);
    assert!(stdout(&out).contains("draw with best play"), "{}", stdout(&out));
    // Refusals: a bad position (exit 2), a finished game (exit 2), a board
    // beyond the Hex solver (exit 1), a budget that runs out (exit 1).
    let out = menace(&["solve", "hex:4", "--position", "4/4/4/4 q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("side to move 'q' is not 'r' or 'b'"),
        "{}",
        stderr(&out)
    );
    let out = menace(&["solve", "hex:2,swap=off", "--position", "rr/2 b"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the game is over, Red has won"),
        "{}",
        stderr(&out)
    );
    let out = menace(&["solve", "hex:9", "--position", "9/9/9/9/9/9/9/9/9 r"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the Hex solver takes boards up to 8x8"),
        "{}",
        stderr(&out)
    );
    let out = menace(&[
        "solve",
        "hex:7,swap=off",
        "--position",
        "7/7/7/7/7/7/7 b",
        "--max-positions",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not solved within the budget of 100 positions"),
        "{}",
        stderr(&out)
    );
    let out = menace(&["solve", "hex:4", "--max-seconds", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The temporary files beside `state` that a write to it makes (`.NAME.XXXXXX.menace-tmp`).
fn temp_files_of(state: &std::path::Path) -> Vec<std::path::PathBuf> {
    let name = state.file_name().unwrap().to_str().unwrap();
    let mut found: Vec<_> = std::fs::read_dir(state.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_str().unwrap();
            n.strip_prefix(&format!(".{name}."))
                .and_then(|r| r.strip_suffix(".menace-tmp"))
                .is_some_and(|r| r.len() == 6 && !r.contains('.'))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn a_killed_save_leaves_nothing_behind_once_the_next_run_writes() {
    use std::time::Instant;
    let dir = std::env::temp_dir().join(format!("menace-cli-{}-kills", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("m.json");
    let state_arg = state.to_str().unwrap().to_string();
    // Chessapawn: 300 games make a state of some 8 MB, so a kill often lands in its save.
    let train = |games: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_menace"));
        c.args(["train", "chessapawn", "--games", games, "--save", &state_arg]);
        c.stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        c
    };
    let started = Instant::now();
    assert!(train("300").status().unwrap().success());
    let whole = started.elapsed();
    let complete = |why: &str| {
        let text = std::fs::read_to_string(&state).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap_or_else(|e| panic!("{why}: {e}"));
    };
    // kill -9 at points spread over a whole run, the save at its end among them.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut left = 0;
    for i in 0..30 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let at = whole.mul_f64((x % 1000) as f64 / 1000.0 * 1.1);
        let mut child = train("300").spawn().unwrap();
        std::thread::sleep(at);
        let _ = child.kill();
        let _ = child.wait();
        // The state is always old-complete or new-complete.
        complete(&format!("after kill {i} at {at:?}"));
        left = left.max(temp_files_of(&state).len());
    }
    // Should no kill have landed in a write, one is left as a kill leaves it.
    if temp_files_of(&state).is_empty() {
        std::fs::write(dir.join(".m.json.Ab3dE9.menace-tmp"), b"{\"format\": \"men").unwrap();
    }
    // Not ours to remove: another file's temporary file, and one a live writer holds.
    let other = dir.join(".m.json.x.Zq81Lm.menace-tmp");
    std::fs::write(&other, b"another file's").unwrap();
    let live = dir.join(".m.json.Lv0123.menace-tmp");
    let held = std::fs::File::create(&live).unwrap();
    held.lock().unwrap();
    assert!(train("20").status().unwrap().success());
    complete("after the next run");
    assert_eq!(
        temp_files_of(&state),
        vec![live.clone()],
        "only the live writer's temp file is left"
    );
    assert!(other.exists(), "another file's temporary file is kept");
    drop(held);
    // Once its writer is gone, the next run takes it too.
    assert!(train("20").status().unwrap().success());
    assert_eq!(temp_files_of(&state), Vec::<std::path::PathBuf>::new());
    eprintln!("kills left up to {left} temp files at once; whole run {whole:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_falls_back_on_the_winner_only_search_and_agrees_with_the_exact_solver() {
    // With too few positions for the exact solve, `solve` answers who wins
    // each first move by Hexapawn's own winner-only search, and says so; the
    // exact solver (with distances, given room) is the second implementation.
    // --max-positions bounds both: the positions the exact solver stores,
    // the positions the winner-only search searches. A third of what the
    // exact solve stores is too few for it and room enough for the
    // winner-only search on every board here (it needs 7 of 3x3's 37
    // positions, 899 of 5x4's 92 258).
    let json = |args: &[&str]| -> serde_json::Value {
        let out = menace(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let mut mixed = 0;
    for board in [
        "hexapawn",
        "hexapawn:4x4",
        "hexapawn:3x4",
        "hexapawn:4x3",
        "hexapawn:5x4",
        "hexapawn:4x5",
    ] {
        let exact = json(&["solve", board, "--json"]);
        let budget = (exact["positions"].as_u64().unwrap() / 3).to_string();
        let fallback = json(&["solve", board, "--json", "--max-positions", &budget]);
        assert!(fallback["value"].is_null(), "{board} within {budget}: {fallback}");
        let mover = fallback["to_move"].as_str().unwrap().to_string();
        let mut winning = 0;
        for m in exact["first_moves"].as_array().unwrap() {
            let name = m["move"].as_str().unwrap();
            let wins = m["value"]["result"] == "win";
            winning += usize::from(wins);
            let found = fallback["first_moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["move"] == name)
                .unwrap_or_else(|| panic!("{board}: {name} missing"));
            assert_eq!(found["winner"] == mover.as_str(), wins, "{board} {name}: {found}");
        }
        mixed += usize::from(winning > 0 && winning < exact["first_moves"].as_array().unwrap().len());
    }
    assert!(mixed > 0, "some board has winning and losing first moves");
    let out = menace(&["solve", "hexapawn:4x4", "--max-positions", "1000"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("winners found by the game's own solver"), "{text}");
    // Too few for either search: the winner-only search stops too, and
    // says which budget stopped it; nothing is claimed solved.
    let out = menace(&["solve", "hexapawn:4x4", "--max-positions", "10"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "Error: hexapawn:4x4: not solved within the budget of 10 positions searched (--max-positions); raise --max-seconds or --max-positions"
    );
}
