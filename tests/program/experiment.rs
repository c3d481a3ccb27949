//! Experiment files and `menace run` / `menace plot` end to end.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::scratch;

use menace::experiment::Experiment;

fn menace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(args)
        .output()
        .expect("the binary runs")
}

const SMALL: &str = r#"{
  "name": "small",
  "game": "hexapawn",
  "games": 30,
  "seeds": 12,
  "exact_every": 10,
  "arms": [
    { "name": "vs random", "opponent": "random" },
    { "name": "vs perfect", "opponent": "perfect", "reinforcement": "michie", "beads": [3, 2, 1] },
    { "name": "self-play", "opponent": "menace", "empty_box": "restock" }
  ]
}"#;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn thread_count_does_not_change_a_byte() {
    let dir = scratch("threads");
    let file = write(&dir, "small.json", SMALL);
    let one = dir.join("one");
    let two = dir.join("two");
    let three = dir.join("three");
    for (out, threads) in [(&one, "1"), (&two, "2"), (&three, "3")] {
        let o = menace(&["run", &file, "--out", out.to_str().unwrap(), "--threads", threads]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for f in ["curves.csv", "summary.json"] {
        let a = std::fs::read(one.join(f)).unwrap();
        assert_eq!(a, std::fs::read(two.join(f)).unwrap(), "{f}");
        assert_eq!(a, std::fs::read(three.join(f)).unwrap(), "{f}");
    }
    // One CSV row per arm × game from game 0 (the untrained machine), plus the header.
    let csv = std::fs::read_to_string(one.join("curves.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 3 * 31);
    // Charts in both formats, PNG with its signature.
    for chart in [
        "loss_rate",
        "wins_minus_losses",
        "beads",
        "exact_perfect_loss",
        "exact_random_win",
    ] {
        let png = std::fs::read(one.join(format!("{chart}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let svg = std::fs::read_to_string(one.join(format!("{chart}.svg"))).unwrap();
        assert!(svg.contains("<svg"));
    }
    // No temporary files left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&one)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // The summary's totals agree with the curves: the last cumulative
    // wins − losses is the mean of (wins − losses) over seeds.
    let summary: serde_json::Value = serde_json::from_slice(&std::fs::read(one.join("summary.json")).unwrap()).unwrap();
    // Exact learning for Gardner's rule against random play; none for
    // Michie's scheme (it adds beads) nor against a second machine.
    assert_eq!(summary["arms"][0]["exact_life"]["machines"], 19648);
    for arm in [1, 2] {
        assert!(
            summary["arms"][arm].get("exact_life").is_none(),
            "{}",
            summary["arms"][arm]
        );
    }
    let arm = &summary["arms"][0];
    let wml = arm["wins"]["mean"].as_f64().unwrap() - arm["losses"]["mean"].as_f64().unwrap();
    let last = csv.lines().nth(30).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "wins_minus_losses_mean").unwrap();
    // Rows quote the settings field (it has commas): parse properly.
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    let from_csv: f64 = rows[30][col].parse().unwrap();
    // Game 0: no rates yet, no score, and the exact results of the untrained machine.
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    assert_eq!(&rows[0][at("game")], "0");
    assert_eq!(&rows[0][at("loss_rate_mean")], "");
    assert_eq!(&rows[0][at("wins_minus_losses_mean")], "0.000000");
    assert!(!rows[0][at("exact_perfect_loss_mean")].is_empty());
    // Bands stay within what is possible: a rate between 0 and 1.
    for r in &rows {
        for m in ["win_rate", "draw_rate", "loss_rate", "exact_perfect_loss"] {
            for end in ["low", "high", "p10", "p90"] {
                if let Ok(x) = r[at(&format!("{m}_{end}"))].parse::<f64>() {
                    assert!((0.0..=1.0).contains(&x), "{m}_{end} = {x}");
                }
            }
        }
    }
    assert!((from_csv - wml).abs() < 1e-9, "{from_csv} vs {wml} ({last})");
    // Redraw the charts from the CSV alone.
    let again = dir.join("again");
    let o = menace(&[
        "plot",
        one.join("curves.csv").to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
        "--chart",
        "michie_score",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(again.join("michie_score.png").exists() && again.join("michie_score.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn malformed_files_name_the_field() {
    let cases = [
        (
            SMALL.replace(r#""opponent": "perfect""#, r#""opponent": "wizard""#),
            "arms[1].opponent: opponent 'wizard'",
        ),
        (
            SMALL.replace(r#""empty_box": "restock""#, r#""colour": "red""#),
            "arms[2].colour: unknown field `colour`",
        ),
        (
            SMALL.replace(r#""games": 30"#, r#""games": -3"#),
            "games: invalid value",
        ),
        (SMALL.replace(r#""seeds": 12"#, r#""seeds": "many""#), "seeds"),
        (
            SMALL.replace(r#""game": "hexapawn""#, r#""game": "go""#),
            "game: game spec 'go': unknown game 'go'",
        ),
        (
            SMALL.replace(r#""beads": [3, 2, 1]"#, r#""beads": [3, 0]"#),
            "arms[1].beads: bead schedule '3,0'",
        ),
        (
            SMALL.replace(r#""name": "self-play""#, r#""name": "vs random""#),
            "arms[2].name: 'vs random' is used",
        ),
        (
            SMALL.replace(r#""exact_every": 10"#, r#""exact_every": 0"#),
            "exact_every",
        ),
        (SMALL[..SMALL.len() - 20].to_string(), "EOF while parsing"),
    ];
    for (text, needle) in cases {
        let err = Experiment::parse(&text).unwrap_err().to_string();
        assert!(err.contains(needle), "expected '{needle}' in: {err}");
    }
    // Through the command line: the file is named, exit code 1.
    let dir = scratch("bad");
    let file = write(
        &dir,
        "bad.json",
        &SMALL.replace(r#""opponent": "perfect""#, r#""opponent": "wizard""#),
    );
    let o = menace(&["run", &file]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("experiment file '{file}': arms[1].opponent")),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_folders_are_created_or_refused_clearly() {
    let dir = scratch("out");
    let file = write(
        &dir,
        "small.json",
        &SMALL.replace(r#""seeds": 12"#, r#""seeds": [1, 2]"#),
    );
    let nested = dir.join("a").join("b").join("c");
    let o = menace(&["run", &file, "--out", nested.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(nested.join("curves.csv").exists());
    // A folder that cannot be made: its parent is a plain file.
    let blocker = write(&dir, "blocker", "not a folder");
    let o = menace(&["run", &file, "--out", &format!("{blocker}/out")]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("cannot create folder '{blocker}/out'")), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perfect_on_a_game_too_large_is_refused_before_running() {
    let text = SMALL.replace(r#""game": "hexapawn""#, r#""game": "hexapawn:8x8""#);
    let exp = Experiment::parse(&text).unwrap();
    // Only check the error path of a cheap arm list: perfect needs the solver.
    let err = exp.preflight().unwrap_err().to_string();
    assert!(
        err.contains("arms[1] ('vs perfect')") && err.contains("too many positions"),
        "{err}"
    );
}

#[test]
fn a_curves_file_with_a_column_named_twice_is_refused() {
    let dir = scratch("dup");
    let csv = std::fs::read_to_string("plots/gardner/curves.csv").unwrap();
    let (header, rows) = csv.split_once('\n').unwrap();
    assert!(header.contains(",win_rate_mean,"));
    let twice = format!("{}\n{rows}", header.replacen(",win_rate_mean,", ",loss_rate_mean,", 1));
    let file = write(&dir, "curves.csv", &twice);
    // It used to fill one curve from two columns and panic indexing it.
    let o = menace(&["plot", &file, "--out", dir.join("charts").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "curves file '{file}': header: column 'loss_rate_mean' appears twice"
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn thread_counts_past_the_cap_are_refused_at_once() {
    let dir = scratch("cap");
    let file = write(&dir, "small.json", SMALL);
    let out = dir.join("out");
    let o = menace(&["run", &file, "--out", out.to_str().unwrap(), "--threads", "100000"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("threads '100000': at most 256"), "{err}");
    assert!(!out.exists(), "nothing is started");
    // One unit to run: one thread, said in the singular.
    let one = write(
        &dir,
        "one.json",
        &SMALL.replace(r#""seeds": 12"#, r#""seeds": 1"#).replace(
            r#",
    { "name": "vs perfect", "opponent": "perfect", "reinforcement": "michie", "beads": [3, 2, 1] },
    { "name": "self-play", "opponent": "menace", "empty_box": "restock" }"#,
            "",
        ),
    );
    let o = menace(&["run", &one, "--out", out.to_str().unwrap(), "--threads", "256"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("1 arms × 1 seeds × 30 games of hexapawn on 1 thread\n"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Three arms on three games, in one experiment whose own game is Hexapawn.
const GAMES: &str = r#"{
  "name": "games",
  "title": "boards",
  "game": "hexapawn",
  "games": 40,
  "seeds": 3,
  "exact_every": 5,
  "curves_every": 10,
  "charts": ["safe_vs_boxes", "loss_vs_boxes", "exact_perfect_loss"],
  "arms": [
    { "name": "HER", "game": ["hexapawn", "hexapawn:4x3"], "opponent": "perfect", "preset": "gardner" },
    { "name": "MENACE", "game": "tictactoe", "opponent": "random", "empty_box": "restock" }
  ]
}"#;

/// The same arm alone, in an experiment of its own game (the one-game path).
fn alone(game: &str, arm: &str) -> String {
    format!(
        r#"{{"name": "games", "title": "boards", "game": "{game}", "games": 40, "seeds": 3, "exact_every": 5,
            "curves_every": 10, "charts": ["exact_perfect_loss"], "arms": [{arm}]}}"#
    )
}

fn rows_of<'a>(csv: &'a str, arm: &str) -> Vec<&'a str> {
    csv.lines().filter(|l| l.contains(&format!(",{arm},"))).collect()
}

#[test]
fn an_arm_may_name_its_own_game_and_plays_as_if_alone() {
    let dir = scratch("games");
    let file = write(&dir, "games.json", GAMES);
    let whole = dir.join("whole");
    let o = menace(&["run", &file, "--out", whole.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(whole.join("curves.csv")).unwrap();
    // A row every 10 games from game 0, and the last: 5 a arm, 3 arms.
    assert_eq!(csv.lines().count(), 1 + 3 * 5, "{csv}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(whole.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["game"], "hexapawn");
    assert_eq!(summary["curves_every"], 10);
    // Each arm's curves are those of a run of that arm alone on its game.
    let cases = [
        (
            "hexapawn",
            "HER (hexapawn)",
            r#""preset": "gardner", "opponent": "perfect""#,
        ),
        (
            "hexapawn:4x3",
            "HER (hexapawn:4x3)",
            r#""preset": "gardner", "opponent": "perfect""#,
        ),
        ("tictactoe", "MENACE", r#""opponent": "random", "empty_box": "restock""#),
    ];
    for (i, (game, name, settings)) in cases.into_iter().enumerate() {
        let single = dir.join(format!("alone{i}"));
        let text = alone(game, &format!(r#"{{"name": "{name}", {settings}}}"#));
        let f = write(&dir, &format!("alone{i}.json"), &text);
        let o = menace(&["run", &f, "--out", single.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let one = std::fs::read_to_string(single.join("curves.csv")).unwrap();
        let mine = rows_of(&csv, name);
        assert_eq!(mine.len(), 5, "{name}");
        assert_eq!(mine, rows_of(&one, name), "{name}");
        assert!(mine.iter().all(|r| r.contains(&format!(",{game},{name},"))), "{name}");
        // The summary names the arm's game; its games until safe are the lone run's.
        let arm = &summary["arms"][i];
        assert_eq!(arm["game"], game);
        let lone: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(single.join("summary.json")).unwrap()).unwrap();
        assert_eq!(arm["games_until_safe"], lone["arms"][0]["games_until_safe"], "{name}");
        assert!(lone["arms"][0].get("game").is_none(), "a one-game summary is as before");
    }
    // Gardner's one-bead HER on 3x3 loses exactly 3 games to perfect play
    // (Gardner 1962; the README's demonstration), whatever its neighbours play.
    assert_eq!(summary["arms"][0]["losses"]["mean"], 3.0);
    // The boxes: 19 for HER on 3x3 with mirror images merged, counted by hand in tests/library/hexapawn.rs.
    assert_eq!(summary["arms"][0]["boxes"]["start"]["mean"], 19.0);
    // The scaling charts are drawn, naming the games at their points.
    for chart in ["safe_vs_boxes", "loss_vs_boxes"] {
        let svg = std::fs::read_to_string(whole.join(format!("{chart}.svg"))).unwrap();
        assert!(svg.contains("\n4x3\n") && svg.contains("HER"), "{chart}");
    }
    // Shards of it merge into exactly the one run.
    let mut shards = Vec::new();
    for k in 1..=2 {
        let out = dir.join(format!("shard{k}"));
        let o = menace(&[
            "run",
            &file,
            "--out",
            out.to_str().unwrap(),
            "--shard",
            &format!("{k}/2"),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        shards.push(out.to_str().unwrap().to_string());
    }
    let merged = dir.join("merged");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    let o = menace(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["curves.csv", "summary.json", "safe_vs_boxes.svg"] {
        assert_eq!(
            std::fs::read(whole.join(f)).unwrap(),
            std::fs::read(merged.join(f)).unwrap(),
            "{f}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_game_of_an_arm_is_refused_naming_the_arm() {
    let with = |game: &str| GAMES.replace(r#""game": "tictactoe""#, &format!(r#""game": {game}"#));
    let cases = [
        (
            with(r#""chess""#),
            "arms[1].game: arm 'MENACE': game spec 'chess': unknown game 'chess'",
        ),
        (
            with(r#"["tictactoe", "hexapawn:9x2"]"#),
            "arms[1].game: arm 'MENACE (hexapawn:9x2)': game spec 'hexapawn:9x2'",
        ),
        (with("[]"), "arms[1].game: an empty list"),
        (with("7"), "arms[1].game"),
        (
            GAMES
                .replace(r#""exact_every": 5"#, r#""curves_every": 0"#)
                .replace(r#""curves_every": 10,"#, ""),
            "curves_every: expected a number of games from 1 up",
        ),
        (
            GAMES.replace(r#""safe_vs_boxes""#, r#""boxes_vs_safe""#),
            "unknown chart 'boxes_vs_safe'",
        ),
    ];
    for (text, needle) in cases {
        let err = Experiment::parse(&text).unwrap_err().to_string();
        assert!(err.contains(needle), "expected '{needle}' in: {err}");
    }
    // A side the arm's own game does not have is refused too: X is not a Hexapawn side.
    let text = GAMES.replace(r#""preset": "gardner" }"#, r#""preset": "gardner", "side": "x" }"#);
    let err = Experiment::parse(&text).unwrap_err().to_string();
    assert!(err.contains("arms[0].side"), "{err}");
    // And an arm whose game is too large for its opponent, before anything runs.
    let text = GAMES.replace(
        r#""game": "tictactoe", "opponent": "random""#,
        r#""game": "hexapawn:8x8", "opponent": "perfect""#,
    );
    let err = Experiment::parse(&text).unwrap().preflight().unwrap_err().to_string();
    assert!(
        err.contains("arms[2] ('MENACE')") && err.contains("too many positions"),
        "{err}"
    );
}

/// A curves file of `rows` rows (of arm `a`, one game each) with only the
/// columns a reader requires, each row carrying `title` as its title.
fn bare_curves(path: &Path, rows: u64, title: &str) {
    use std::io::Write;
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(
        w,
        "experiment,title,game_spec,arm,side,opponent,settings,seeds,window,game"
    )
    .unwrap();
    for g in 0..rows {
        writeln!(w, "t,{title},hexapawn,a,White,random,beads 1,1,10,{g}").unwrap();
    }
    w.flush().unwrap();
}

#[test]
fn a_curves_file_as_large_as_a_run_writes_is_read_back() {
    use menace::experiment::curves::CurveTable;
    // A million games of one seed write 1 000 001 rows: with a longish
    // title, more than the 256 MiB that whole files are read up to (the
    // run used to fail there, after all its games, reading its own curves).
    let dir = scratch("big-curves");
    let path = dir.join("curves.csv");
    bare_curves(&path, 1_000_001, &"t".repeat(280));
    assert!(std::fs::metadata(&path).unwrap().len() > 256 << 20);
    let table = CurveTable::read(&path).unwrap();
    assert_eq!(table.arms.len(), 1);
    assert_eq!(table.arms[0].games.len(), 1_000_001);
    assert_eq!(table.arms[0].games[1_000_000], 1e6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_curves_file_past_what_a_run_writes_is_refused_naming_the_limit() {
    use menace::experiment::curves::{CurveTable, ReadLimits, MAX_FILE_ROWS, MAX_ROW_BYTES};
    use menace::experiment::file::{MAX_ARMS, MAX_CURVE_ROWS};
    // The reader takes every row a run can write, and no more.
    assert!(MAX_FILE_ROWS >= MAX_CURVE_ROWS + 2 * MAX_ARMS as u64);
    let dir = scratch("curves-limits");
    let path = dir.join("curves.csv");
    bare_curves(&path, 5, "t");
    let limits = ReadLimits {
        rows: 5,
        row_bytes: 100,
    };
    assert_eq!(
        CurveTable::read_metrics(&path, None, limits).unwrap().arms[0]
            .games
            .len(),
        5
    );
    let err = CurveTable::read_metrics(&path, None, ReadLimits { rows: 4, ..limits })
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 6: more than 4 rows"), "{err}");
    // One endless row is refused as it is read, not held whole.
    bare_curves(&path, 2, &"t".repeat(MAX_ROW_BYTES as usize + 20_000));
    let err = CurveTable::read(&path).unwrap_err().to_string();
    assert!(
        err.contains(&format!("a row longer than {MAX_ROW_BYTES} bytes")),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_title_too_long_for_a_curves_row_is_refused_before_running() {
    let dir = scratch("long-title");
    let long = "x".repeat(40_000);
    let file = write(
        &dir,
        "t.json",
        &format!(
            r#"{{"name":"t","title":"{long}","game":"hexapawn","games":5,"seeds":1,"arms":[{{"name":"a","opponent":"random"}}]}}"#
        ),
    );
    let out = dir.join("out");
    let o = menace(&["run", &file, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("title: too long") && err.contains("at most 65536"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is run or written");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "minutes: a million games of one seed, end to end"]
fn a_million_games_of_one_seed_run_and_plot() {
    let dir = scratch("million");
    let file = write(
        &dir,
        "t.json",
        r#"{"name":"t","game":"hexapawn","games":1000000,"seeds":1,"arms":[{"name":"a","opponent":"random"}]}"#,
    );
    let out = dir.join("out");
    let o = menace(&["run", &file, "--out", out.to_str().unwrap(), "--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("loss_rate.svg").is_file());
    let curves = out.join("curves.csv");
    let o = menace(&[
        "plot",
        curves.to_str().unwrap(),
        "--out",
        dir.join("again").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(out.join("loss_rate.svg")).unwrap(),
        std::fs::read(dir.join("again/loss_rate.svg")).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gardners_run_writes_the_exact_expectation_beside_the_seeds_mean() {
    let dir = scratch("exact-line");
    let out_dir = dir.join("out");
    let out = menace(&["run", "experiments/gardner.json", "--out", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("HER vs perfect White: 3.00 losses per run (95% band 3.00 to 3.00; exactly 3.00)"),
        "{text}"
    );
    assert!(text.contains("; exactly 9.02)"), "{text}");

    // Game 1's exact loss rate is the fresh machine's chance of losing one
    // game: the one-game evaluator's (a module apart) against random, and
    // 7/8 by hand against perfect (three boxes of a good and a bad bead on
    // the one line a perfect White keeps to).
    let her = menace::machine::Machine::new(
        menace::Hexapawn::new(3, 3).unwrap(),
        menace::Player::Two,
        menace::machine::settings::MachineSettings::gardner(),
    )
    .unwrap();
    let one_game = menace::training::exact::expected(&her, &mut menace::training::exact::Reference::Random, 1_000_000)
        .unwrap()
        .loss;
    let mut reader = csv::Reader::from_path(out_dir.join("curves.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (arm_col, game_col, mean_col, exact_col) =
        (col("arm"), col("game"), col("loss_rate_mean"), col("loss_rate_exact"));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let cells = |arm: &str, game: &str| -> (f64, f64) {
        let row = rows
            .iter()
            .find(|r| &r[arm_col] == arm && &r[game_col] == game)
            .unwrap_or_else(|| panic!("{arm} game {game}"));
        (row[exact_col].parse().unwrap(), row[mean_col].parse().unwrap())
    };
    assert!((cells("HER vs random White", "1").0 - one_game).abs() < 1e-6);
    assert!((cells("HER vs perfect White", "1").0 - 0.875).abs() < 1e-6);
    // Late on, against perfect play, both are 0.
    assert_eq!(cells("HER vs perfect White", "50"), (0.0, 0.0));

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap()).unwrap();
    let random = &summary["arms"][0]["exact_life"];
    // 65 536 bead counts; those that play alike from then on counted once.
    assert_eq!(random["machines"], 19648);
    assert!(
        (random["expected_losses_in_run"].as_f64().unwrap() - 9.020841).abs() < 1e-5,
        "{random}"
    );
    let perfect = &summary["arms"][1]["exact_life"];
    assert_eq!(perfect["expected_losses"], 3.0);
    assert!((perfect["expected_games_until_safe"].as_f64().unwrap() - 94.0 / 21.0).abs() < 1e-6);
    let svg = std::fs::read_to_string(out_dir.join("loss_rate.svg")).unwrap();
    assert!(svg.contains("the exact expectation, computed without sampling"));
}

/// The committed scaling study, as `menace run experiments/scaling.json`
/// wrote it: under Gardner's rule every seed of every game up to 4×5 got
/// safe within the budget (so the chart draws no point at the budget), and
/// the fitted trend's power matches a fit done here from the medians.
#[test]
fn the_committed_scaling_study_has_no_ceiling_under_gardners_rule() {
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("plots/scaling/summary.json").unwrap()).unwrap();
    let games = summary["games"].as_u64().unwrap();
    let mut points = Vec::new();
    for arm in summary["arms"].as_array().unwrap() {
        if !arm["name"].as_str().unwrap().starts_with("Gardner's rule") {
            continue;
        }
        let safe = &arm["games_until_safe"];
        assert_eq!(safe["not_reached"], 0, "{}", arm["name"]);
        let median = safe["median"].as_f64().unwrap();
        assert!(median < games as f64, "{}", arm["name"]);
        points.push((
            arm["boxes"]["end"]["mean"].as_f64().unwrap(),
            median,
            arm["game"].clone(),
        ));
    }
    assert_eq!(points.len(), 11);
    assert!(points.iter().any(|p| p.2 == "hexapawn:4x5"));
    // Least squares on the logarithms, written out here. The summary's medians
    // are the usual ones (the mean of the middle two of 20 seeds); the chart's
    // are the nearest rank, so the power may differ a little.
    let n = points.len() as f64;
    let xs: Vec<f64> = points.iter().map(|p| p.0.ln()).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1.ln()).collect();
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let slope = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum::<f64>()
        / xs.iter().map(|x| (x - mx).powi(2)).sum::<f64>();
    let trend = &summary["safe_trend"]["arms"][0];
    assert_eq!(trend["arm"], "Gardner's rule");
    let power = trend["power"].as_f64().unwrap();
    assert!((power - slope).abs() < 0.05, "{power} against {slope}");
    let within = trend["power_95"].as_array().unwrap();
    assert!(within[0].as_f64().unwrap() < power && power < within[1].as_f64().unwrap());
}

/// The games lost so far, per game: with a window of one game, each game's
/// `loss_rate_mean` is the share of the seeds that lost it, so the losses
/// so far are those shares added up game by game (and the exact line the
/// exact chances of losing each game, added); the chart of them is drawn,
/// and a game that cannot be drawn gets no draw chart.
#[test]
fn the_losses_so_far_are_each_games_losses_added() {
    let dir = scratch("losses");
    let file = write(
        &dir,
        "losses.json",
        r#"{"name": "losses", "title": "HER", "game": "hexapawn", "games": 50, "seeds": 4, "window": 1,
            "charts": ["losses", "loss_rate", "draw_rate", "michie_score"],
            "arms": [
              {"name": "random", "side": "black", "opponent": "random", "preset": "gardner"},
              {"name": "perfect", "side": "black", "opponent": "perfect", "preset": "gardner"}
            ]}"#,
    );
    let out_dir = dir.join("out");
    let o = menace(&["run", &file, "--out", out_dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut reader = csv::Reader::from_path(out_dir.join("curves.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let num = |r: &csv::StringRecord, c: &str| -> f64 { r[col(c)].parse().unwrap() };
    for arm in ["random", "perfect"] {
        let mine: Vec<&csv::StringRecord> = rows.iter().filter(|r| &r[col("arm")] == arm).collect();
        assert_eq!(mine.len(), 51);
        let (mut by_hand, mut exact_by_hand) = (0.0, 0.0);
        for (g, r) in mine.iter().enumerate() {
            assert_eq!(&r[col("game")], g.to_string());
            if g > 0 {
                by_hand += num(r, "loss_rate_mean");
                exact_by_hand += num(r, "loss_rate_exact");
            }
            assert!((num(r, "losses_mean") - by_hand).abs() < 1e-5, "{arm} game {g}");
            assert!((num(r, "losses_exact") - exact_by_hand).abs() < 1e-5, "{arm} game {g}");
            // A count of games: its band within 0 and the games played.
            assert!(num(r, "losses_low") >= 0.0 && num(r, "losses_high") <= g as f64);
        }
        assert_eq!(num(mine[0], "losses_mean"), 0.0);
        // No game, no loss: a plain 0 (an empty sum of floats is -0).
        assert_eq!(&mine[0][col("losses_exact")], "0.000000", "{arm}");
    }
    // Against perfect play every machine loses exactly 3 games (the README's
    // "3.00 losses per run; exactly 3.00"), all of them within 50 games.
    let last = rows.iter().rfind(|r| &r[col("arm")] == "perfect").unwrap();
    assert_eq!(
        (
            num(last, "losses_mean"),
            num(last, "losses_low"),
            num(last, "losses_high")
        ),
        (3.0, 3.0, 3.0)
    );
    assert!(out_dir.join("losses.png").is_file() && out_dir.join("losses.svg").is_file());
    let svg = std::fs::read_to_string(out_dir.join("losses.svg")).unwrap();
    assert!(
        svg.contains("Games lost so far") && svg.contains("the exact expectation"),
        "{svg}"
    );
    // Games and games lost are whole: on a chart of 0 to 3 losses over 8
    // games every tick label is a whole number (plotters would put ticks at halves).
    let file = write(
        &dir,
        "few.json",
        r#"{"name": "few", "title": "HER", "game": "hexapawn", "games": 8, "seeds": 4, "window": 1,
            "charts": ["losses"],
            "arms": [{"name": "perfect", "side": "black", "opponent": "perfect", "preset": "gardner"}]}"#,
    );
    let few = dir.join("few");
    let o = menace(&["run", &file, "--out", few.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(few.join("losses.svg")).unwrap();
    let ticks: Vec<f64> = svg
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next()?.trim().parse::<f64>().ok())
        .collect();
    assert!(ticks.len() >= 6, "{ticks:?}");
    assert!(ticks.iter().all(|t| t.fract() == 0.0), "{ticks:?}");
    // Hexapawn has no draws: no draw chart, no draw in the score's title.
    assert!(!out_dir.join("draw_rate.png").exists());
    let score = std::fs::read_to_string(out_dir.join("michie_score.svg")).unwrap();
    assert!(
        score.contains("+3 a win, −1 a loss") && !score.contains("draw"),
        "{score}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A rolling rate is drawn from its first full window, and a run shorter
/// than its window (5 games against the default window of 10) has none:
/// its rates, each over the games so far, are drawn all the same, and the
/// chart says over what.
#[test]
fn a_run_shorter_than_its_window_still_draws_its_rates() {
    let dir = scratch("short-run");
    for (games, said, not_said) in [
        (5, "share of the games so far lost", "the first full window"),
        (30, "from game 10, the first full window", "the games so far"),
    ] {
        let file = write(
            &dir,
            "short.json",
            &format!(
                r#"{{"name": "short", "title": "HER", "game": "hexapawn", "games": {games}, "seeds": 2,
                    "charts": ["loss_rate"], "arms": [{{"name": "a", "opponent": "random"}}]}}"#
            ),
        );
        let out_dir = dir.join(format!("out-{games}"));
        let o = menace(&["run", &file, "--out", out_dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            out_dir.join("loss_rate.png").is_file(),
            "{games} games: no loss_rate.png"
        );
        let svg = std::fs::read_to_string(out_dir.join("loss_rate.svg")).unwrap();
        assert!(svg.contains(said) && !svg.contains(not_said), "{games} games:\n{svg}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
