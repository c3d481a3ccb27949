//! `menace play` driven through stdin, as a pipe, against fixed-seed machines.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common::scratch;

fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_win_and_the_bead_it_costs_her() {
    // Seed 3: after 1. b2 HER draws a2, and 2. bxc3 wins for White.
    let o = play(&["hexapawn", "--seed", "3"], "b2\nbxc3\nquit\n");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = text(&o);
    assert!(out.contains("HER draws from box 2: a2: 1 <- drawn, axb2: 1"), "{out}");
    assert!(out.contains("You play bxc3#"), "{out}");
    assert!(out.contains("You win."), "{out}");
    assert!(
        out.contains("HER loses 1 bead of a2 in box 2 (ppp/1P1/P1P b): 1 -> 0"),
        "{out}"
    );
    assert!(out.contains("Score: you 1, HER 0, draws 0."), "{out}");
}

#[test]
fn a_loss_leaves_her_beads_alone() {
    // Seed 3: 1. a2 bxa2 2. c2 and HER wins at once.
    let o = play(&["hexapawn", "--seed", "3"], "a2\nc2\n");
    let out = text(&o);
    assert!(out.contains("HER wins."), "{out}");
    assert!(out.contains("HER's beads are unchanged."), "{out}");
    assert!(out.contains("Score: you 0, HER 1, draws 0."), "{out}");
}

#[test]
fn resignation_and_a_refused_move_retried() {
    let o = play(&["hexapawn", "--seed", "3"], "b3\nfoo\nb2\nresign\n");
    let out = text(&o);
    assert!(
        out.contains("Refused: move 'b3': no legal step to that cell; legal moves: a2 b2 c2"),
        "{out}"
    );
    assert!(out.contains("Refused: move 'foo'"), "{out}");
    assert!(out.contains("You play b2"), "{out}");
    assert!(out.contains("You resign. HER wins."), "{out}");
    assert!(out.contains("Score: you 0, HER 1, draws 0."), "{out}");
    // The board is not drawn again after a refused move.
    let before_b2 = out.split("You play b2").next().unwrap();
    assert_eq!(before_b2.matches("1 | P P P").count(), 1, "{out}");
}

#[test]
fn end_of_input_saves_and_the_reloaded_machine_remembers() {
    let dir = scratch("state");
    let state = dir.join("her.json");
    let s = state.to_str().unwrap();
    // A won game, then input ends in the middle of the second.
    let o = play(&["hexapawn", "--seed", "3", "--state", s], "b2\nbxc3\nb2\n");
    assert!(o.status.success());
    assert!(text(&o).contains("Bye. Score: you 1, HER 0, draws 0."));
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games_played"], 1);
    // The state says truly who the machine played.
    assert_eq!(saved["opponent"], "human");
    // The unfinished second game (HER had drawn a bead in it) left no trace:
    // the file is the same as when input ends right after the first game.
    let after_one = dir.join("after-one.json");
    let o = play(
        &["hexapawn", "--seed", "3", "--state", after_one.to_str().unwrap()],
        "b2\nbxc3\n",
    );
    assert!(o.status.success());
    assert_eq!(std::fs::read(&after_one).unwrap(), std::fs::read(&state).unwrap());
    // The box after 1. b2 shows the lost bead when printed from the state file...
    let boxes = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "hexapawn", "--state", s])
        .output()
        .unwrap();
    let listing = text(&boxes);
    assert!(listing.contains("after 1 games (44 beads)"), "{listing}");
    assert!(listing.contains("beads  a2: 0   axb2: 1"), "{listing}");
    // ...and in play again: the reloaded HER can only capture there.
    let o = play(&["hexapawn", "--state", s], "b2\n");
    let out = text(&o);
    assert!(out.contains("=== Game 2 ==="), "{out}");
    assert!(out.contains("HER draws from box 2: a2: 0, axb2: 1 <- drawn"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_deadline_that_expires_loses_the_game() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["play", "hexapawn", "--deadline", "300ms"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Input stays open and silent, so the clock runs out however fast or
    // slow the machine is. Read (no sleep) until the second game asks for a
    // move, then end the input. (The game lost on time is not counted, so
    // the machine's next game is its game 1 again.)
    let stdin = child.stdin.take().unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !(seen.matches("=== Game 1 ===").count() == 2 && seen.ends_with("this game)\n")) {
        let mut line = String::new();
        assert!(std::io::BufRead::read_line(&mut out, &mut line).unwrap() > 0, "{seen}");
        seen.push_str(&line);
    }
    drop(stdin);
    std::io::Read::read_to_string(&mut out, &mut seen).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(seen.contains("(0.3 s left for your moves this game)"), "{seen}");
    let game1 = seen.split("=== Game 1 ===").nth(1).unwrap();
    assert!(game1.contains("Time is up: you lose this game."), "{seen}");
    // Lost on time, the game is scored but neither reinforced nor counted:
    // nobody may be at the keyboard, and a forfeit says nothing of HER's moves.
    assert!(game1.contains("HER nothing: its beads are unchanged"), "{seen}");
    assert!(
        game1.contains("Score: you 0, HER 1, draws 0. (This session; HER has played 0 games in all.)"),
        "{seen}"
    );
    assert!(!game1.contains("HER gains"), "{seen}");
    // Game 2 was left unfinished when input ended: not counted.
    assert!(seen.contains("Bye. Score: you 0, HER 1, draws 0."), "{seen}");
}

#[test]
fn noughts_and_crosses_against_menace() {
    let o = play(&["tictactoe", "--seed", "1"], "b2\n");
    let out = text(&o);
    // MENACE plays X and moves first, from its first box of three colours.
    assert!(out.contains("You play O; MENACE plays X."), "{out}");
    assert!(out.contains("MENACE draws from box 1: a1: 4"), "{out}");
    let o = play(&["tictactoe", "--deadline", "soon"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("duration 'soon'"));
}

#[test]
fn ctrl_c_saves_and_exits_cleanly() {
    let dir = scratch("ctrlc");
    let state = dir.join("her.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["play", "hexapawn", "--seed", "3", "--state", state.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"b2\nbxc3\nb2\n").unwrap();
    stdin.flush().unwrap();
    // Wait, by reading its output (no sleep), until it asks for White's
    // second move of game 2: the input so far is all used. Then Ctrl-C.
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    let mut asks = 0;
    while asks < 2 {
        let mut line = String::new();
        assert!(std::io::BufRead::read_line(&mut out, &mut line).unwrap() > 0, "{seen}");
        if seen.contains("=== Game 2 ===") && line.starts_with("Your move") {
            asks += 1;
        }
        seen.push_str(&line);
    }
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    std::io::Read::read_to_string(&mut out, &mut seen).unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    assert!(status.success(), "{status:?}");
    assert!(seen.contains("Bye. Score: you 1, HER 0, draws 0."), "{seen}");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games_played"], 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_machine_saved_by_play_trains_on_against_the_opponent_named() {
    let dir = scratch("then-train");
    let state = dir.join("her.json");
    let s = state.to_str().unwrap();
    let o = play(&["hexapawn", "--seed", "3", "--state", s], "b2\nbxc3\n");
    assert!(o.status.success());
    let train = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_menace"))
            .args(["train", "hexapawn", "--resume", s, "--save", s, "--games", "5"])
            .args(extra)
            .output()
            .unwrap()
    };
    // The file says the machine last met a person: train asks whom to play now.
    let o = train(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("give --opponent"),
        "{:?}",
        o
    );
    let o = train(&["--opponent", "random"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(
        (saved["opponent"].as_str(), saved["games_played"].as_u64()),
        (Some("random"), Some(6))
    );
    // A person is not a training opponent.
    let o = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["train", "hexapawn", "--opponent", "human"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_report_shows_boxes_and_moves_as_on_the_board_played() {
    // After 1. c2 HER's box is stored as the mirror image (pawn on a2); it
    // draws b2, and 2. a2 wins for White. The lost bead is named as played.
    let o = play(&["hexapawn", "--seed", "1"], "c2\na2\nquit\n");
    let out = text(&o);
    assert!(out.contains("HER plays b2"), "{out}");
    assert!(out.contains("Mirror images share one box"), "{out}");
    assert!(
        out.contains("HER loses 1 bead of b2 in box 1 (ppp/2P/PP1 b): 1 -> 0"),
        "{out}"
    );
    // Help says truly that nothing is saved without --state.
    let o = play(&["hexapawn"], "help\nquit\n");
    assert!(text(&o).contains("the machine is not saved (give --state FILE to keep it)"));
}

#[test]
fn a_loaded_machine_is_announced_and_ignored_options_said() {
    let dir = scratch("loaded");
    let state = dir.join("her.json");
    let s = state.to_str().unwrap();
    assert!(play(&["hexapawn", "--seed", "3", "--state", s], "b2\nbxc3\n")
        .status
        .success());
    let o = play(&["hexapawn", "--state", s, "--seed", "9", "--beads", "3"], "quit\n");
    let out = text(&o);
    assert!(out.contains(&format!("Loaded {s}: HER has played 1 game.")), "{out}");
    assert!(out.contains("--seed is ignored"), "{out}");
    assert!(out.contains("machine options are ignored"), "{out}");
    assert!(out.contains("=== Game 2 ==="), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nobody_at_the_keyboard_teaches_the_machine_nothing() {
    // Three games lost on time in a row end the session, and the state file
    // is as before them: the forfeits were not reinforced as wins.
    let dir = scratch("nobody");
    let state = dir.join("menace.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args([
            "play",
            "tictactoe",
            "--deadline",
            "1ms",
            "--state",
            state.to_str().unwrap(),
        ])
        .args(["--preset", "michie"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Input open and silent: every clock runs out.
    let stdin = child.stdin.take().unwrap();
    let mut seen = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut seen).unwrap();
    assert!(child.wait().unwrap().success(), "{seen}");
    drop(stdin);
    assert_eq!(seen.matches("Time is up").count(), 3, "{seen}");
    assert!(seen.contains("No move in 3 games in a row: stopping"), "{seen}");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games_played"], 0, "{seen}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_won_before_the_person_moves_waits_for_them() {
    // On a 1x3 board White's one pawn steps to a2 and Black has no move: the
    // machine as White wins every game without a move of yours. Play waits
    // for Enter between such games, so quit, end of input (and Ctrl-C) stop it.
    let o = play(&["hexapawn:1x3", "--side", "white"], "\n\nquit\n");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = text(&o);
    assert_eq!(out.matches("HER wins.").count(), 3, "{out}");
    assert_eq!(out.matches("Press Enter for the next game").count(), 3, "{out}");
    assert!(out.contains("Bye. Score: you 0, HER 3, draws 0."), "{out}");
    let o = play(&["hexapawn:1x3", "--side", "white"], "");
    assert!(text(&o).contains("Bye. Score: you 0, HER 1, draws 0."), "{}", text(&o));
}

#[test]
fn endless_input_is_refused_not_read_for_ever() {
    // /dev/zero never sends a newline: the first 4096 bytes end the input.
    let o = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["play", "hexapawn"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = text(&o);
    assert!(
        out.contains("a line of more than 4096 bytes is not a move; input stops here"),
        "{out}"
    );
    assert!(out.contains("Bye. Score: you 0, HER 0, draws 0."), "{out}");
    // Endless lines that are no moves (`yes`, or blank lines) stop after 100.
    let o = play(&["hexapawn"], &"zz\n\n".repeat(60));
    let out = text(&o);
    assert_eq!(out.matches("Refused: ").count(), 50, "{out}");
    assert!(out.contains("100 lines in a row without a move: stopping"), "{out}");
}

#[test]
fn a_cell_off_the_board_is_called_off_the_board() {
    let o = play(&["hexapawn", "--seed", "3"], "e5\nb9\na1e5\nquit\n");
    let out = text(&o);
    assert!(
        out.contains("Refused: move 'e5': e5 is off the board: files a to c, ranks 1 to 3"),
        "{out}"
    );
    assert!(out.contains("Refused: move 'b9': b9 is off the board"), "{out}");
    assert!(out.contains("Refused: move 'a1e5': e5 is off the board"), "{out}");
    assert!(!out.contains("expected a step like b2"), "{out}");
}
