//! Fuzz targets, as property tests: game specs, the move and position
//! strings of every game, state files, experiment files and curves files,
//! each from arbitrary text and from mutations of real examples. Whatever the
//! input, reading it never panics: it is accepted (and what is accepted reads
//! back the same) or refused with a clear, short error.
//!
//! Each target runs a fixed number of cases from a fixed seed, so a run is
//! repeatable and bounded (the whole file takes seconds in release). Longer
//! fuzzing: `MENACE_FUZZ_SCALE=50 MENACE_FUZZ_SEED=7 cargo test --release
//! --test fuzz`. A failure found is saved under `proptest-regressions/` and
//! replayed first on every later run; the nasty inputs in `tests/corpus/`
//! are replayed by [`the_corpus_of_nasty_inputs_replays`].

use crate::common;

use crate::common::scratch;

use menace::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use menace::charts::draw_charts;
use menace::error::shown;
use menace::experiment::charts::DEFAULT_CHARTS;
use menace::experiment::curves::CurveTable;
use menace::experiment::file::{Experiment, MAX_EXACT_RECORDS, MAX_GAME_RECORDS, MAX_SEEDS};
use menace::registry::{default_settings, default_side};
use menace::training::opponent::OpponentSpec;
use menace::training::state;
use menace::training::trainer::Trainer;
use menace::{with_game, AnyGame, Game};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngSeed};
use serde_json::Value;

// ---- configuration ----

/// A target's configuration: `cases` cases (times `MENACE_FUZZ_SCALE`), from
/// a fixed seed (or `MENACE_FUZZ_SEED`), failures kept in `file`.
fn config(cases: u32, file: &'static str) -> ProptestConfig {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let scale = env("MENACE_FUZZ_SCALE").unwrap_or(1).max(1) as u32;
    ProptestConfig {
        cases: cases.saturating_mul(scale),
        rng_seed: RngSeed::Fixed(env("MENACE_FUZZ_SEED").unwrap_or(18)),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(file))),
        max_shrink_iters: 2_000,
        ..ProptestConfig::default()
    }
}

// ---- what every refusal must be ----

/// The most characters an error may have: values echoed in it are cut.
const MAX_ERROR_CHARS: usize = 1_500;

/// A refusal says something, briefly, with no raw control characters.
fn check_error(what: &str, message: &str) {
    assert!(!message.trim().is_empty(), "{what}: an empty error");
    let chars = message.chars().count();
    assert!(
        chars <= MAX_ERROR_CHARS,
        "{what}: an error of {chars} characters: {}",
        shown(message)
    );
    let raw = message
        .chars()
        .find(|&c| (c.is_control() && c != '\n') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'));
    assert!(
        raw.is_none(),
        "{what}: the error shows a raw {raw:?}: {}",
        shown(message)
    );
}

// ---- mutations ----

/// One edit of a text, at a place given as a fraction of its length.
#[derive(Clone, Debug)]
enum Edit {
    Delete {
        at: u16,
        len: u8,
    },
    Insert {
        at: u16,
        text: String,
    },
    Replace {
        at: u16,
        text: String,
    },
    /// Copy a slice of the text to another place.
    Duplicate {
        from: u16,
        len: u8,
        to: u16,
    },
}

/// Text that tends to break parsers.
fn nasty() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => ".{0,4}",
        2 => "[0-9]{1,25}",
        1 => prop::sample::select(vec![
            "\u{0}", "\u{202e}", "ｂ2", "é", "𝕒𝟙", "-", "-1", "1e308", "1e-400", "NaN", "inf", "-0", "18446744073709551615",
            "18446744073709551616", "4294967296", "9223372036854775808", "\"", "\\", "{", "}", "[", "]", ",", ":", "\n",
            "\r\n", "null", "true", "x", "=", "/", " ", "#", "+", "%", "\u{feff}", "\u{fffd}",
        ])
        .prop_map(str::to_string),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<u16>(), 1..8u8).prop_map(|(at, len)| Edit::Delete { at, len }),
        (any::<u16>(), nasty()).prop_map(|(at, text)| Edit::Insert { at, text }),
        (any::<u16>(), nasty()).prop_map(|(at, text)| Edit::Replace { at, text }),
        (any::<u16>(), 1..40u8, any::<u16>()).prop_map(|(from, len, to)| Edit::Duplicate { from, len, to }),
    ]
}

fn edits(most: usize) -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(edit(), 0..=most)
}

/// Apply edits to a text, on character boundaries.
fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let place = |at: u16, n: usize| (usize::from(at) * (n + 1)) >> 16;
    for e in edits {
        let n = chars.len();
        match e {
            Edit::Delete { at, len } => {
                let i = place(*at, n);
                let j = (i + usize::from(*len)).min(n);
                chars.drain(i..j);
            }
            Edit::Insert { at, text } => {
                let i = place(*at, n);
                chars.splice(i..i, text.chars());
            }
            Edit::Replace { at, text } => {
                let i = place(*at, n);
                let j = (i + text.chars().count().max(1)).min(n);
                chars.splice(i..j, text.chars());
            }
            Edit::Duplicate { from, len, to } => {
                let i = place(*from, n);
                let j = (i + usize::from(*len)).min(n);
                let slice: Vec<char> = chars[i..j].to_vec();
                let k = place(*to, n);
                chars.splice(k..k, slice);
            }
        }
    }
    chars.into_iter().collect()
}

/// One change to a JSON document: follow `path` (each step picks a member
/// or element, modulo their number), then change what is found there.
#[derive(Clone, Debug)]
struct JsonEdit {
    path: Vec<u16>,
    change: Change,
}

#[derive(Clone, Debug)]
enum Change {
    Set(Value),
    /// Edit a string's text (or a number's digits) in place.
    Text(Vec<Edit>),
    Remove,
    /// Append a copy of an element or member.
    Repeat,
}

fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::sample::select(vec![
            -1.0,
            0.5,
            1e300,
            -1e300,
            1e-300,
            4294967296.0,
            1.8446744073709552e19
        ])
        .prop_map(Value::from),
        nasty().prop_map(Value::String),
        Just(Value::Array(vec![])),
        Just(serde_json::json!({})),
        Just(serde_json::json!([[]])),
    ]
}

fn json_edit() -> impl Strategy<Value = JsonEdit> {
    let change = prop_oneof![
        3 => json_value().prop_map(Change::Set),
        3 => edits(3).prop_map(Change::Text),
        1 => Just(Change::Remove),
        1 => Just(Change::Repeat),
    ];
    (prop::collection::vec(any::<u16>(), 0..6), change).prop_map(|(path, change)| JsonEdit { path, change })
}

fn change_json(v: &mut Value, path: &[u16], change: &Change) {
    let n = match v {
        Value::Array(a) => a.len(),
        Value::Object(o) => o.len(),
        _ => 0,
    };
    if let Some((&step, rest)) = path.split_first().filter(|_| n > 0) {
        let i = usize::from(step) % n;
        // The last step may act on the container: remove or repeat the child.
        if rest.is_empty() && matches!(change, Change::Remove | Change::Repeat) {
            match v {
                Value::Array(a) => {
                    if matches!(change, Change::Remove) {
                        a.remove(i);
                    } else {
                        let c = a[i].clone();
                        a.push(c);
                    }
                }
                Value::Object(o) => {
                    let key = o.keys().nth(i).cloned().unwrap_or_default();
                    if matches!(change, Change::Remove) {
                        o.remove(&key);
                    } else {
                        let c = o[&key].clone();
                        o.insert(format!("{key}_"), c);
                    }
                }
                _ => {}
            }
            return;
        }
        let child = match v {
            Value::Array(a) => &mut a[i],
            Value::Object(o) => o.values_mut().nth(i).expect("in range"),
            _ => unreachable!(),
        };
        return change_json(child, rest, change);
    }
    match change {
        Change::Set(x) => *v = x.clone(),
        Change::Text(e) => match v {
            Value::String(s) => *s = apply(s, e),
            Value::Number(num) => {
                // Digits edited stay a number if they still read as one.
                let text = apply(&num.to_string(), e);
                *v = serde_json::from_str(&text).unwrap_or(Value::String(text));
            }
            other => *other = Value::String(apply(&other.to_string(), e)),
        },
        Change::Remove | Change::Repeat => *v = Value::Null,
    }
}

/// A JSON text changed structurally, then (a little) as text.
fn mutate_json(base: &str, changes: &[JsonEdit], text_edits: &[Edit]) -> String {
    let mut v: Value = serde_json::from_str(base).expect("a JSON base");
    for c in changes {
        change_json(&mut v, &c.path, &c.change);
    }
    apply(&serde_json::to_string_pretty(&v).expect("JSON"), text_edits)
}

// ---- game specs ----

fn spec_text() -> impl Strategy<Value = String> {
    let name = prop::sample::select(vec![
        "hexapawn",
        "octopawn",
        "tictactoe",
        "hex",
        "chessapawn",
        "minihexchess",
        "HEX",
        "Hexapawn",
        "",
    ]);
    let size = prop_oneof![
        Just(String::new()),
        "(:[0-9]{1,3})",
        "(:[0-9]{1,3}[xX][0-9]{1,3})",
        "(:[0-9x:,=+-]{0,8})",
        "(:.{0,4})",
    ];
    let cell = (-4..=4i32, -4..=4i32, "[KRBNPkrbnpQqZ ]").prop_map(|(q, r, p)| format!("{q},{r}:{p}"));
    let options = prop_oneof![
        Just(String::new()),
        "(,swap=(on|off|x|))",
        "(,first=(red|blue|RED|x|))",
        "(,swap=(on|off),first=(red|blue))",
        prop::collection::vec(cell, 0..6).prop_map(|cells| format!(",setup={}", cells.join(","))),
        "(,[a-z=,]{0,12})",
    ];
    prop_oneof![
        6 => (name, size, options).prop_map(|(n, s, o)| format!("{n}{s}{o}")),
        1 => ".{0,24}",
        1 => "[a-z:0-9x,=; -]{0,24}",
    ]
}

/// A spec is refused clearly, or makes a game whose spec reads back the
/// same and whose start position and its moves keep their notation.
fn check_spec(spec: &str) {
    match AnyGame::parse(spec) {
        Err(e) => check_error(spec, &e.to_string()),
        Ok(game) => {
            let again = AnyGame::parse(&game.spec()).unwrap_or_else(|e| panic!("{spec}: its spec {e}"));
            assert_eq!(again.spec(), game.spec(), "{spec}");
            with_game!(game, g => {
                let start = g.start();
                check_position_text(&g, &start);
                for (pos, _) in g.starts() {
                    check_position_text(&g, &pos);
                }
            });
        }
    }
}

// ---- moves and positions ----

/// A position of a game that its own strings must keep: the position string
/// reads back, and every legal move's name reads back as that move.
fn check_position_text<G: Game>(game: &G, pos: &G::Position) {
    let text = game.position_string(pos);
    let back = game
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("{}: '{text}' does not read back: {e}", game.spec()));
    common::rules::assert_reads_back(game, pos, &text, &back);
    let moves = game.moves(pos);
    assert_eq!(game.outcome(pos).is_over(), moves.is_empty(), "{}: {text}", game.spec());
    let _ = (game.turn(pos), game.diagram(pos), game.box_key(pos));
    for mv in moves {
        let name = game.move_name(pos, mv);
        assert_eq!(
            game.parse_move(pos, &name).ok(),
            Some(mv),
            "{}: {text}: '{name}'",
            game.spec()
        );
    }
}

/// The games the move and position targets run on: every registry example
/// and a custom Mini Hexchess setup.
fn fuzz_games() -> Vec<AnyGame> {
    let mut specs = AnyGame::examples();
    specs.push("minihexchess,setup=0,3:K,-1,-1:P,1,-3:k,2,-1:r");
    specs.push("hexapawn:5x4");
    specs
        .into_iter()
        .map(|s| AnyGame::parse(s).expect("an example"))
        .collect()
}

/// Per game, the position strings met in a few seeded random games.
fn sampled_positions() -> &'static Vec<(AnyGame, Vec<String>)> {
    static SAMPLES: OnceLock<Vec<(AnyGame, Vec<String>)>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        fuzz_games()
            .into_iter()
            .map(|any| {
                let texts = with_game!(any.clone(), g => common::rules::sample_positions(&g, 0, 4)
                    .iter()
                    .map(|p| g.position_string(p))
                    .collect());
                (any, texts)
            })
            .collect()
    })
}

/// Move text tried in one position: a legal move's name, edited, or any text.
fn check_move_text(game: usize, pos: usize, mv: usize, edits: &[Edit], free: &str) {
    let (any, positions) = &sampled_positions()[game % sampled_positions().len()];
    let pos_text = &positions[pos % positions.len()];
    with_game!(any.clone(), g => {
        let p = g.parse_position(pos_text).expect("a sampled position");
        let moves = g.moves(&p);
        let text = if moves.is_empty() || mv.is_multiple_of(4) {
            free.to_string()
        } else {
            apply(&g.move_name(&p, moves[mv % moves.len()]), edits)
        };
        match g.parse_move(&p, &text) {
            Ok(m) => {
                assert!(moves.contains(&m), "{}: {pos_text}: '{}' read as the illegal {m:?}", g.spec(), shown(&text));
                let name = g.move_name(&p, m);
                assert_eq!(g.parse_move(&p, &name).ok(), Some(m), "{}: {pos_text}: '{name}'", g.spec());
            }
            Err(e) => {
                let message = e.to_string();
                check_error(&text, &message);
                assert!(message.contains(&format!("'{}'", shown(&text))), "{message}");
            }
        }
    });
}

/// Position text: a sampled position's string, edited, or any text.
fn check_position_string(game: usize, pos: usize, edits: &[Edit], free: Option<&str>) {
    let (any, positions) = &sampled_positions()[game % sampled_positions().len()];
    let text = match free {
        Some(t) => t.to_string(),
        None => apply(&positions[pos % positions.len()], edits),
    };
    with_game!(any.clone(), g => match g.parse_position(&text) {
        Ok(p) => check_position_text(&g, &p),
        Err(e) => check_error(&text, &e.to_string()),
    });
}

// ---- state files ----

/// Real saved states: machines of every game after a few games, and one
/// that trains against a second machine (whose boxes the file also holds).
fn base_states() -> &'static Vec<String> {
    static STATES: OnceLock<Vec<String>> = OnceLock::new();
    STATES.get_or_init(|| {
        [
            ("hexapawn", "random", 30),
            ("hexapawn", "menace", 10),
            ("tictactoe", "random", 10),
            ("hex:3", "random", 10),
            ("chessapawn", "random", 2),
            ("minihexchess", "random", 2),
        ]
        .iter()
        .map(|&(spec, opponent, games)| {
            let any = AnyGame::parse(spec).expect("a spec");
            let settings = default_settings(&any);
            let side = default_side(&any);
            let opponent = OpponentSpec::parse(opponent).expect("an opponent");
            with_game!(any, g => {
                let mut t = Trainer::new(g, side, settings, opponent, 5).expect("a trainer");
                for _ in 0..games {
                    t.play_game(false);
                }
                state::to_json(&t)
            })
        })
        .collect()
    })
}

/// State-file text is loaded as the CLI loads it (the game named inside,
/// then the whole file) or refused clearly; a loaded state saves as the
/// same text again.
fn check_state(text: &str) {
    let spec = match state::peek_game(text) {
        Ok(s) => s,
        Err(e) => return check_error("state", &e.to_string()),
    };
    let any = match AnyGame::parse(&spec) {
        Ok(g) => g,
        Err(e) => return check_error("state", &e.to_string()),
    };
    with_game!(any, g => match state::from_json(&g, text) {
        Err(e) => check_error("state", &e.to_string()),
        Ok(t) => {
            let saved = state::to_json(&t);
            let again = state::from_json(&g, &saved).unwrap_or_else(|e| panic!("a loaded state saved does not load: {e}"));
            assert_eq!(state::to_json(&again), saved, "a state loaded and saved changes");
        }
    });
}

// ---- experiment files ----

const EXPERIMENTS: [&str; 5] = [
    include_str!("../../experiments/gardner.json"),
    include_str!("../../experiments/michie.json"),
    include_str!("../../experiments/sweep.json"),
    include_str!("../../experiments/hex.json"),
    include_str!("../../experiments/chessapawn.json"),
];

/// Experiment text is checked into an experiment within the documented
/// bounds, or refused clearly.
fn check_experiment(text: &str) {
    match Experiment::parse(text) {
        Err(e) => check_error("experiment", &e.to_string()),
        Ok(exp) => {
            assert!(exp.games >= 1 && !exp.arms.is_empty() && !exp.seeds.is_empty());
            assert!(exp.seeds.len() as u64 <= MAX_SEEDS);
            let records = exp.games as u128 * exp.seeds.len() as u128 * exp.arms.len() as u128;
            assert!(records <= MAX_GAME_RECORDS as u128, "{records} records");
            if let Some(k) = exp.exact_every {
                let exact = (exp.games / k + 1) as u128 * exp.seeds.len() as u128 * exp.arms.len() as u128;
                assert!(exact <= MAX_EXACT_RECORDS as u128, "{exact} exact records");
            }
            assert!(exp.window >= 1);
            assert_eq!(
                AnyGame::parse(&exp.game_spec).map(|g| g.spec()).ok(),
                Some(exp.game_spec.clone())
            );
        }
    }
}

// ---- curves files ----

const BASE_CURVES: &str = include_str!("../corpus/curves/base.csv");

/// A curves file is read as `plot` reads it and its charts drawn, or it is
/// refused clearly. `draw` = also draw the charts (slower).
fn check_curves(text: &str, dir: &Path, draw: bool) {
    let csv = dir.join("curves.csv");
    std::fs::write(&csv, text).expect("a scratch file");
    match CurveTable::read(&csv) {
        Err(e) => check_error("curves", &e.to_string()),
        Ok(table) => {
            assert!(!table.arms.is_empty());
            for arm in &table.arms {
                assert!(arm.columns.values().all(|c| c.len() == arm.games.len()), "{}", arm.name);
            }
            if draw {
                let names: Vec<String> = DEFAULT_CHARTS.iter().map(|s| s.to_string()).collect();
                if let Err(e) = draw_charts(&table, &names, &dir.join("charts")) {
                    check_error("charts", &e.to_string());
                }
            }
        }
    }
}

/// Curves text changed line by line: rows dropped, repeated or cut, and
/// cells set to awkward numbers.
#[derive(Clone, Debug)]
enum CurvesEdit {
    DropLine(u16),
    RepeatLine(u16),
    SetCell { line: u16, cell: u16, value: String },
}

fn curves_edit() -> impl Strategy<Value = CurvesEdit> {
    let number = prop_oneof![
        prop::sample::select(vec![
            "", "NaN", "inf", "-inf", "1e308", "-1e308", "1e-320", "-0", "0", "1", "-1", "2", "1000000", "x", "\"\"",
            ",",
        ])
        .prop_map(str::to_string),
        any::<f64>().prop_map(|f| f.to_string()),
        nasty(),
    ];
    prop_oneof![
        any::<u16>().prop_map(CurvesEdit::DropLine),
        any::<u16>().prop_map(CurvesEdit::RepeatLine),
        (any::<u16>(), any::<u16>(), number).prop_map(|(line, cell, value)| CurvesEdit::SetCell { line, cell, value }),
    ]
}

fn apply_curves(text: &str, edits: &[CurvesEdit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for e in edits {
        let n = lines.len();
        if n == 0 {
            break;
        }
        match e {
            CurvesEdit::DropLine(i) => {
                lines.remove(usize::from(*i) % n);
            }
            CurvesEdit::RepeatLine(i) => {
                let l = lines[usize::from(*i) % n].clone();
                lines.insert(usize::from(*i) % n, l);
            }
            CurvesEdit::SetCell { line, cell, value } => {
                // Data lines mostly: the header line is 1 in 8.
                let i = if line % 8 == 0 { 0 } else { usize::from(*line) % n };
                let mut cells: Vec<String> = lines[i].split(',').map(str::to_string).collect();
                let c = usize::from(*cell) % cells.len();
                cells[c] = value.clone();
                lines[i] = cells.join(",");
            }
        }
    }
    lines.join("\n") + "\n"
}

// ---- the targets ----

proptest! {
    #![proptest_config(config(3_000, "proptest-regressions/fuzz-specs.txt"))]
    #[test]
    fn game_specs_never_panic_and_round_trip(spec in spec_text()) {
        check_spec(&spec);
    }
}

proptest! {
    #![proptest_config(config(6_000, "proptest-regressions/fuzz-moves.txt"))]
    #[test]
    fn move_text_never_panics_and_what_is_read_is_legal(
        game in any::<usize>(), pos in any::<usize>(), mv in any::<usize>(), e in edits(3), free in ".{0,12}",
    ) {
        check_move_text(game, pos, mv, &e, &free);
    }
}

proptest! {
    #![proptest_config(config(4_000, "proptest-regressions/fuzz-positions.txt"))]
    #[test]
    fn position_text_never_panics_and_what_is_read_round_trips(
        game in any::<usize>(), pos in any::<usize>(), e in edits(4), free in prop::option::weighted(0.15, ".{0,40}"),
    ) {
        check_position_string(game, pos, &e, free.as_deref());
    }
}

proptest! {
    #![proptest_config(config(1_500, "proptest-regressions/fuzz-states.txt"))]
    #[test]
    fn state_files_load_or_are_refused_clearly(
        base in any::<usize>(), changes in prop::collection::vec(json_edit(), 1..4), e in edits(1),
    ) {
        let states = base_states();
        check_state(&mutate_json(&states[base % states.len()], &changes, &e));
    }
}

proptest! {
    #![proptest_config(config(300, "proptest-regressions/fuzz-state-text.txt"))]
    #[test]
    fn state_text_edited_anywhere_loads_or_is_refused_clearly(base in any::<usize>(), e in edits(6)) {
        let states = base_states();
        check_state(&apply(&states[base % states.len()], &e));
    }
}

proptest! {
    #![proptest_config(config(2_000, "proptest-regressions/fuzz-experiments.txt"))]
    #[test]
    fn experiment_files_are_checked_or_refused_clearly(
        base in any::<usize>(), changes in prop::collection::vec(json_edit(), 0..4), e in edits(2),
    ) {
        check_experiment(&mutate_json(EXPERIMENTS[base % EXPERIMENTS.len()], &changes, &e));
    }
}

proptest! {
    #![proptest_config(config(400, "proptest-regressions/fuzz-curves.txt"))]
    #[test]
    fn curves_files_are_read_or_refused_clearly(
        lines in prop::collection::vec(curves_edit(), 0..6), e in edits(3), draw in prop::bool::weighted(0.1),
    ) {
        let dir = scratch("curves");
        check_curves(&apply(&apply_curves(BASE_CURVES, &lines), &e), &dir, draw);
    }
}

proptest! {
    #![proptest_config(config(200, "proptest-regressions/fuzz-playouts.txt"))]
    /// Random games of every game in the registry, from seeds proptest picks:
    /// every move's name and every position's string read back.
    #[test]
    fn random_playouts_keep_their_notation(game in any::<usize>(), seed in any::<u64>()) {
        let games = fuzz_games();
        with_game!(games[game % games.len()].clone(), g => common::rules::check_playout_notation(&g, seed));
    }
}

// ---- the corpus ----

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(name)
}

/// The lines of a corpus list: each a JSON string, so that any character
/// can be written.
fn corpus_lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(corpus(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: {l}: {e}")))
        .collect()
}

fn corpus_files(folder: &str) -> Vec<(PathBuf, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus(folder))
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("a corpus file");
            (p, String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect()
}

#[test]
fn the_corpus_of_nasty_inputs_replays() {
    let specs = corpus_lines("specs.txt");
    assert!(specs.len() >= 10);
    for spec in &specs {
        check_spec(spec);
    }
    let moves = corpus_lines("moves.txt");
    let positions = corpus_lines("positions.txt");
    assert!(moves.len() >= 10 && positions.len() >= 10);
    for game in 0..sampled_positions().len() {
        for pos in 0..3 {
            for text in &moves {
                check_move_text(game, pos, 0, &[], text);
            }
        }
        for text in &positions {
            check_position_string(game, 0, &[], Some(text));
        }
    }
    let states = corpus_files("states");
    let experiments = corpus_files("experiments");
    let curves = corpus_files("curves");
    assert!(!states.is_empty() && !experiments.is_empty() && !curves.is_empty());
    for (path, text) in states {
        eprintln!("{}", path.display());
        check_state(&text);
    }
    for (path, text) in experiments {
        eprintln!("{}", path.display());
        check_experiment(&text);
    }
    let dir = scratch("corpus-curves");
    for (path, text) in curves {
        eprintln!("{}", path.display());
        check_curves(&text, &dir, true);
    }
}
