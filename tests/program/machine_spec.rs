//! One machine whatever the front door: the command line's flags, an
//! experiment file's arm and the page's request, given the same preset and
//! overrides, make the same settings and say them in the same words.

use std::process::Command;

use serde_json::{json, Value as Json};

use menace::experiment::Experiment;
use menace::machine::settings::MachineSettings;
use menace::web::session::{new_session, Limits, NewMachine};

use crate::common::scratch;

/// A game, then the machine's settings as each front end takes them:
/// (field, text) by the experiment file's names.
type Case = (&'static str, &'static [(&'static str, &'static str)]);

const CASES: [Case; 9] = [
    ("hexapawn", &[]),
    ("hexapawn", &[("preset", "michie")]),
    ("tictactoe", &[("preset", "scroggs")]),
    ("tictactoe", &[("preset", "gardner"), ("beads", "3")]),
    ("hex:4", &[("preset", "michie"), ("reinforcement", "1/0/-1:last")]),
    // A game too large to enumerate, named with a preset: its boxes still
    // open as they are met (the page alone kept that once).
    ("chessapawn", &[("preset", "michie"), ("empty_box", "restock")]),
    ("hex:11", &[("preset", "gardner")]),
    (
        "hexapawn:4x4",
        &[("beads", "4/3/2/1"), ("box_set", "choices"), ("empty_box", "floor:2")],
    ),
    ("minihexchess", &[("preset", "gardner"), ("reinforcement", "2/0/-1")]),
];

/// `menace train` with the case's flags, one game, saved: the settings the
/// state file holds and the summary's `settings:` line.
fn from_command_line(game: &str, fields: &[(&str, &str)], name: &str) -> (MachineSettings, String) {
    let dir = scratch(&format!("spec-{name}"));
    let save = dir.join("machine.json");
    let mut args = vec!["train".to_string(), game.to_string(), "--games".into(), "1".into()];
    for (field, text) in fields {
        args.push(format!("--{}", field.replace('_', "-")));
        args.push(text.to_string());
    }
    args.extend(["--save".into(), save.display().to_string()]);
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(&args)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let state: Json = serde_json::from_str(&std::fs::read_to_string(&save).expect("the state file")).expect("JSON");
    let settings = serde_json::from_value(state["machine"]["settings"].clone()).expect("settings");
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("settings: "))
        .unwrap_or_else(|| panic!("no settings line in {stdout}"))
        .to_string();
    (settings, line)
}

/// The case as an experiment file's one arm.
fn from_experiment(game: &str, fields: &[(&str, &str)]) -> MachineSettings {
    let mut arm = json!({ "name": "arm", "opponent": "random" });
    for (field, text) in fields {
        arm[*field] = json!(text);
    }
    let file = json!({ "name": "spec", "game": game, "games": 1, "seeds": 1, "arms": [arm] });
    let exp = Experiment::parse(&file.to_string()).expect("the experiment file");
    exp.arms[0].settings.clone()
}

/// The case as the page asks for a machine: its settings (from the state
/// the page downloads) and the words the page shows beside the rules.
fn from_page(game: &str, fields: &[(&str, &str)]) -> (MachineSettings, Json) {
    let mut ask = json!({ "game": game, "seed": 1 });
    for (field, text) in fields {
        ask[*field] = json!(text);
    }
    let ask: NewMachine = serde_json::from_value(ask).expect("a page's request");
    let mut session = new_session(&ask, Limits::default()).expect("a session");
    let state: Json = serde_json::from_str(&session.state().run()).expect("JSON");
    let settings = serde_json::from_value(state["machine"]["settings"].clone()).expect("settings");
    (settings, session.view()["rules"]["machine"].clone())
}

#[test]
fn the_command_line_an_experiment_and_the_page_make_the_same_machine() {
    for (i, (game, fields)) in CASES.iter().enumerate() {
        let (cli, cli_words) = from_command_line(game, fields, &i.to_string());
        let exp = from_experiment(game, fields);
        let (page, page_words) = from_page(game, fields);
        assert_eq!(cli, exp, "{game} {fields:?}: the command line and the experiment file");
        assert_eq!(page, exp, "{game} {fields:?}: the page and the experiment file");
        // Each front end's own words for it: the command line's summary, and
        // the page's account of what the machine does.
        assert_eq!(cli_words, exp.describe(), "{game} {fields:?}");
        let any = menace::parse_spec(game).expect("a game");
        assert_eq!(
            page_words,
            json!(exp.what_it_does(menace::registry::machine_name(&any), any.can_draw())),
            "{game} {fields:?}: the page's words"
        );
    }
}

#[test]
fn each_case_asks_for_what_it_says() {
    // The table is not vacuous: a setting given is the one made (the
    // resolved settings are compared with values written out by hand).
    let michie = from_experiment("hexapawn", &[("preset", "michie")]);
    assert_eq!(michie.beads.0, vec![4, 3, 2, 1]);
    let chessapawn = from_experiment("chessapawn", &[("preset", "michie"), ("empty_box", "restock")]);
    assert_eq!(
        serde_json::to_value(&chessapawn).expect("JSON"),
        json!({
            "beads": [4, 3, 2, 1],
            "reinforcement": { "win": 3, "draw": 1, "loss": -1, "scope": "all" },
            "empty_box": { "rule": "restock" },
            "box_set": "choices",
            "box_mode": "first-visit",
            "symmetry": true
        })
    );
    // Scroggs's page's defaults, from its menace.js.
    let scroggs = from_experiment("tictactoe", &[("preset", "scroggs")]);
    assert_eq!(
        serde_json::to_value(&scroggs).expect("JSON"),
        json!({
            "beads": [8, 4, 2, 1],
            "reinforcement": { "win": 3, "draw": 1, "loss": -1, "scope": "all" },
            "empty_box": { "rule": "resign" },
            "box_set": "choices",
            "box_mode": "auto",
            "symmetry": true
        })
    );
    let floor = from_experiment("hexapawn:4x4", &[("beads", "4/3/2/1"), ("empty_box", "floor:2")]);
    assert_eq!(floor.beads.0, vec![4, 3, 2, 1]);
    assert_eq!(
        serde_json::to_value(floor.empty_box).expect("JSON"),
        json!({"rule": "floor", "beads": 2})
    );
}
