//! The matchbox machine, its opponents and training.

use crate::common;

use menace::machine::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement};
use menace::machine::{Choice, GameResult, Machine};
use menace::prelude::*;
use menace::training::exact::{expected, Reference, EXACT_LIMIT};
use menace::training::opponent::OpponentSpec;
use menace::training::state;
use menace::training::trainer::{games_until_learned, Trainer};
use menace::{Game, Hexapawn, Player, TicTacToe};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn hexapawn() -> Hexapawn {
    Hexapawn::new(3, 3).unwrap()
}

fn her() -> Machine<Hexapawn> {
    Machine::new(hexapawn(), Player::Two, MachineSettings::gardner()).unwrap()
}

#[test]
fn her_has_gardners_boxes_with_one_bead_a_move() {
    let m = her();
    assert_eq!(m.boxes().len(), 19);
    assert!(m.boxes().iter().all(|b| b.beads.iter().all(|n| n == 1)));
    // After White's b2 the position is its own mirror image: Black's a2 and
    // c2 share a colour, and so do axb2 and cxb2 (b3 is blocked): two colours.
    let game = hexapawn();
    let pos = game.try_play(&game.start(), "b2").unwrap();
    let (i, _) = m.box_for(&pos).unwrap();
    let names: Vec<String> = m.box_moves(i).iter().map(|&mv| game.move_name(&pos, mv)).collect();
    assert_eq!(names, ["a2", "axb2"]);
    assert_eq!(m.boxes().get(i as usize).beads.len(), 2);
}

#[test]
fn symmetric_moves_share_a_colour_in_menace_first_box() {
    let menace = Machine::new(TicTacToe, Player::One, MachineSettings::michie()).unwrap();
    let (i, _) = menace.box_for(&TicTacToe.start()).unwrap();
    let first = menace.boxes().get(i as usize);
    // Corner, edge and centre: three colours, 4 beads each (Michie's first box).
    let names: Vec<String> = menace
        .box_moves(i)
        .iter()
        .map(|&mv| TicTacToe.move_name(&TicTacToe.start(), mv))
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(first.beads.to_vec(), vec![4, 4, 4]);
    assert_eq!(menace.boxes().len(), 304);
}

#[test]
fn drawn_moves_are_legal_on_the_real_board() {
    let game = hexapawn();
    let mut m = her();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for pos in common::rules::sample_positions(&game, 10_000, 0) {
        if game.turn(&pos) != Player::Two || game.outcome(&pos).is_over() {
            continue;
        }
        for _ in 0..10 {
            match m.choose(&pos, 1, &mut rng) {
                Choice::Play(mv) => assert!(game.moves(&pos).contains(&mv)),
                Choice::Resign => panic!("a fresh machine has no empty box"),
            }
            m.abandon();
        }
    }
}

#[test]
fn gardner_reinforcement_removes_only_the_last_bead_after_a_loss() {
    let game = hexapawn();
    let mut m = her();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let p1 = game.try_play(&game.start(), "b2").unwrap();
    let Choice::Play(a) = m.choose(&p1, 1, &mut rng) else {
        panic!()
    };
    let p2 = game.play(&p1, a);
    let p3 = game.play(&p2, game.moves(&p2)[0]);
    let Choice::Play(_) = m.choose(&p3, 2, &mut rng) else {
        panic!()
    };
    let last = *m.history().last().unwrap();
    let before = m.total_beads();
    let changes = m.reinforce(GameResult::Loss);
    assert_eq!(changes.len(), 1);
    assert_eq!((changes[0].box_index, changes[0].colour), (last.box_index, last.colour));
    assert_eq!(m.total_beads(), before - 1);
    // A win changes nothing under gardner.
    let Choice::Play(_) = m.choose(&p1, 1, &mut rng) else {
        panic!()
    };
    assert!(m.reinforce(GameResult::Win).is_empty());
}

#[test]
fn michie_reinforcement_touches_every_move() {
    let mut m = Machine::new(TicTacToe, Player::One, MachineSettings::michie()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut pos = TicTacToe.start();
    for own in 1..=3 {
        let Choice::Play(mv) = m.choose(&pos, own, &mut rng) else {
            panic!()
        };
        pos = TicTacToe.play(&pos, mv);
        let reply = TicTacToe.moves(&pos)[0];
        pos = TicTacToe.play(&pos, reply);
    }
    let before = m.total_beads();
    assert_eq!(m.reinforce(GameResult::Win).len(), 3);
    assert_eq!(m.total_beads(), before + 9);
}

#[test]
fn empty_box_rules() {
    let game = hexapawn();
    let pos = game.try_play(&game.start(), "b2").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let empty_first_box = |rule: EmptyBox, rng: &mut ChaCha8Rng| {
        let settings = MachineSettings {
            empty_box: rule,
            reinforcement: Reinforcement::parse("0/0/-5").unwrap(),
            ..MachineSettings::gardner()
        };
        let mut m = Machine::new(game.clone(), Player::Two, settings).unwrap();
        for _ in 0..4 {
            if let Choice::Play(_) = m.choose(&pos, 1, rng) {
                m.reinforce(GameResult::Loss);
            }
        }
        m
    };
    // Resign: the box empties and the machine resigns there.
    let mut m = empty_first_box(EmptyBox::Resign, &mut rng);
    assert_eq!(m.choose(&pos, 1, &mut rng), Choice::Resign);
    // Restock: it refills with its initial beads and plays.
    let mut m = empty_first_box(EmptyBox::Restock, &mut rng);
    assert!(matches!(m.choose(&pos, 1, &mut rng), Choice::Play(_)));
    // Floor: counts never drop below the floor.
    let m = empty_first_box(EmptyBox::Floor(1), &mut rng);
    let (i, _) = m.box_for(&pos).unwrap();
    assert!(m.boxes().get(i as usize).beads.iter().all(|n| n >= 1));
}

#[test]
fn her_against_perfect_stops_losing_in_every_seed() {
    let mut learned = Vec::new();
    for seed in 0..100 {
        let mut t = Trainer::new(
            hexapawn(),
            Player::Two,
            MachineSettings::gardner(),
            OpponentSpec::Perfect(1.0),
            seed,
        )
        .unwrap();
        let records: Vec<_> = (0..60).map(|_| t.play_game(false)).collect();
        let n = games_until_learned(&records).expect("learned within 60 games");
        assert!(n <= 36, "seed {seed}: still losing at game {n}");
        learned.push(n);
        // And then it is a certain win against perfect play.
        let e = t.exact().perfect.unwrap();
        assert_eq!((e.win, e.draw, e.loss), (1.0, 0.0, 0.0), "seed {seed}");
    }
    assert!(
        learned.iter().all(|&n| n > 0),
        "an untrained HER loses to perfect play at first"
    );
}

#[test]
fn training_against_random_raises_the_exact_win_probability() {
    let untrained = her();
    let before = expected(&untrained, &mut Reference::Random, EXACT_LIMIT).unwrap();
    let mut t = Trainer::new(
        hexapawn(),
        Player::Two,
        MachineSettings::gardner(),
        OpponentSpec::Random,
        11,
    )
    .unwrap();
    for _ in 0..300 {
        t.play_game(false);
    }
    let after = t.exact().random.unwrap();
    assert!(after.win > before.win + 0.15, "before {before:?}, after {after:?}");
    assert!((before.win + before.draw + before.loss - 1.0).abs() < 1e-12);
    assert_eq!(before.draw, 0.0, "hexapawn has no draws");
}

/// The exact evaluation agrees with sampling many games of a frozen machine.
#[test]
fn exact_result_matches_sampling() {
    let frozen = MachineSettings {
        reinforcement: Reinforcement::parse("0/0/0").unwrap(),
        ..MachineSettings::michie()
    };
    let mut t = Trainer::new(TicTacToe, Player::One, frozen, OpponentSpec::Random, 4).unwrap();
    let exact = t.exact().random.unwrap();
    let n = 40_000;
    let mut wins = 0;
    let mut draws = 0;
    for _ in 0..n {
        match t.play_game(false).result {
            GameResult::Win => wins += 1,
            GameResult::Draw => draws += 1,
            GameResult::Loss => {}
        }
    }
    for (count, p) in [(wins, exact.win), (draws, exact.draw)] {
        let sd = (p * (1.0 - p) / n as f64).sqrt();
        let observed = count as f64 / n as f64;
        assert!((observed - p).abs() < 4.0 * sd, "observed {observed}, exact {p}");
    }
}

fn run_states(seed: u64, games: &[u64], opponent: OpponentSpec) -> String {
    let game = hexapawn();
    let mut t = Trainer::new(game.clone(), Player::Two, MachineSettings::gardner(), opponent, seed).unwrap();
    for &n in games {
        for _ in 0..n {
            t.play_game(false);
        }
        let text = state::to_json(&t);
        t = state::from_json(&game, &text).unwrap();
    }
    state::to_json(&t)
}

#[test]
fn same_seed_same_machine_and_resume_is_seamless() {
    for opponent in [
        OpponentSpec::Random,
        OpponentSpec::Perfect(0.5),
        OpponentSpec::Menace(None),
        OpponentSpec::parse("mcts:30").unwrap(),
    ] {
        let whole = run_states(9, &[50], opponent.clone());
        assert_eq!(whole, run_states(9, &[50], opponent.clone()));
        assert_eq!(whole, run_states(9, &[25, 25], opponent.clone()), "{opponent}");
        assert_eq!(whole, run_states(9, &[1, 48, 1], opponent.clone()), "{opponent}");
        assert_ne!(whole, run_states(10, &[50], opponent));
    }
}

#[test]
fn first_visit_and_enumerated_machines_play_the_same_games() {
    // Same seed, same draws: a box opened on first visit holds the same beads.
    let settings = |mode| MachineSettings {
        box_mode: mode,
        ..MachineSettings::gardner()
    };
    let mut a = Trainer::new(
        hexapawn(),
        Player::Two,
        settings(BoxMode::Enumerate),
        OpponentSpec::Random,
        1,
    )
    .unwrap();
    let mut b = Trainer::new(
        hexapawn(),
        Player::Two,
        settings(BoxMode::FirstVisit),
        OpponentSpec::Random,
        1,
    )
    .unwrap();
    assert_eq!(b.machine().boxes().len(), 0);
    for _ in 0..200 {
        assert_eq!(a.play_game(false).result, b.play_game(false).result);
    }
    assert!(b.machine().boxes().len() <= 19);
}

#[test]
fn bad_state_files_are_explained() {
    let game = hexapawn();
    let t = Trainer::new(
        game.clone(),
        Player::Two,
        MachineSettings::gardner(),
        OpponentSpec::Random,
        1,
    )
    .unwrap();
    let text = state::to_json(&t);
    let truncated = &text[..text.len() / 2];
    let err = state::from_json(&game, truncated).err().unwrap();
    assert!(matches!(err, state::StateError::Json(_)), "{err}");
    let err = err.to_string();
    assert!(err.contains("not a valid state file") && err.contains("EOF"), "{err}");
    let other = Hexapawn::new(4, 4).unwrap();
    let err = state::from_json(&other, &text).err().unwrap().to_string();
    assert!(err.contains("the file is for 'hexapawn', not 'hexapawn:4x4'"), "{err}");
    let err = state::from_json(&game, "{\"format\": \"something\"}")
        .err()
        .unwrap()
        .to_string();
    assert!(err.starts_with("format: expected \"menace-state/1\""), "{err}");
    let bad_box = text.replacen("\"position\": \"", "\"position\": \"zz", 1);
    match state::from_json(&game, &bad_box).err().unwrap() {
        state::StateError::Field(e) => assert_eq!(e.field, "machine.boxes[0].position", "{e}"),
        other => panic!("expected a field error, got {other}"),
    }
}

#[test]
fn bad_settings_are_explained() {
    let e = OpponentSpec::parse("grandmaster").unwrap_err();
    assert_eq!((e.what, e.text.as_str()), ("opponent", "grandmaster"));
    assert!(
        e.to_string().starts_with("opponent 'grandmaster': expected random"),
        "{e}"
    );
    assert!(OpponentSpec::parse("perfect:1.5").is_err());
    assert!(Reinforcement::parse("lots")
        .unwrap_err()
        .to_string()
        .contains("reinforcement 'lots'"));
    assert!(BeadSchedule::parse("4,x").unwrap_err().to_string().contains("'4,x'"));
    // i32::MIN has no absolute value in i32: refused, not overflowed.
    assert!(Reinforcement::parse("-2147483648/0/0").is_err());
}

#[test]
fn running_bead_totals_match_the_boxes() {
    for (opponent, empty) in [
        ("random", EmptyBox::Restock),
        ("menace", EmptyBox::Resign),
        ("perfect", EmptyBox::Floor(1)),
    ] {
        let settings = MachineSettings {
            empty_box: empty,
            ..MachineSettings::michie()
        };
        let mut t = Trainer::new(
            TicTacToe,
            Player::Two,
            settings,
            OpponentSpec::parse(opponent).unwrap(),
            3,
        )
        .unwrap();
        for _ in 0..300 {
            let r = t.play_game(false);
            let m = t.machine();
            let sum: u64 = m.boxes().iter().map(|b| b.total()).sum();
            let first: u64 = m.boxes().iter().filter(|b| b.own_move == 1).map(|b| b.total()).sum();
            assert_eq!((r.total_beads, r.first_box_beads), (sum, first), "{opponent}");
        }
    }
}

#[test]
fn state_files_that_make_no_sense_are_refused() {
    let game = hexapawn();
    let t = Trainer::new(
        game.clone(),
        Player::Two,
        MachineSettings::gardner(),
        OpponentSpec::Random,
        1,
    )
    .unwrap();
    let text = state::to_json(&t);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut w = v.clone();
        f(&mut w);
        state::from_json(&game, &w.to_string()).err().unwrap().to_string()
    };
    let err = with(&|w| w["machine"]["settings"]["beads"] = serde_json::json!([]));
    assert!(err.contains("machine.settings.beads"), "{err}");
    let err = with(&|w| w["machine"]["settings"]["beads"] = serde_json::json!([0]));
    assert!(err.contains("machine.settings.beads"), "{err}");
    let err = with(&|w| {
        let first = w["machine"]["boxes"][0].clone();
        w["machine"]["boxes"].as_array_mut().unwrap().push(first);
    });
    assert!(err.contains("a second box for the same position"), "{err}");
    let err = with(&|w| w["machine"]["boxes"] = serde_json::json!([]));
    assert!(
        err.contains("0 boxes, but the 'all' box set of this game has 19"),
        "{err}"
    );
    // A mirror image instead of the canonical position.
    let err = with(&|w| w["machine"]["boxes"][0]["position"] = serde_json::json!("ppp/2P/PP1 b"));
    assert!(err.contains("not in canonical form (expected 'ppp/P2/1PP b')"), "{err}");
}

/// A file whose second box repeats the first is refused at that box, the
/// field and the reason named as before, whether read from text or as a
/// stream (as the command line reads a file, each box checked as it
/// arrives), and whether the side and settings come before the boxes (as
/// files are written) or after them (issue 59).
#[test]
fn a_repeated_box_is_refused_at_the_repeat() {
    let game = hexapawn();
    let t = Trainer::new(
        game.clone(),
        Player::Two,
        MachineSettings::gardner(),
        OpponentSpec::Random,
        1,
    )
    .unwrap();
    let text = state::to_json(&t);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let first = serde_json::to_string(&v["machine"]["boxes"][0]).unwrap();
    let written = text.replacen("\"boxes\": [", &format!("\"boxes\": [{first},"), 1);
    let w: serde_json::Value = serde_json::from_str(&written).unwrap();
    let boxes_first = w.to_string();
    assert!(boxes_first.find("\"boxes\"").unwrap() < boxes_first.find("\"side\"").unwrap());
    for repeated in [&written, &boxes_first] {
        let from_text = state::from_json(&game, repeated).err().unwrap();
        let cursor = std::io::Cursor::new(repeated.as_bytes());
        let streamed = state::from_reader_within(&game, cursor, state::ReadLimits::default())
            .err()
            .unwrap();
        for err in [from_text, streamed] {
            match err {
                state::StateError::Field(e) => {
                    assert_eq!(e.field, "machine.boxes[1].position", "{e}");
                    assert_eq!(
                        e.to_string(),
                        "machine.boxes[1].position: a second box for the same position"
                    );
                }
                other => panic!("expected a field error, got {other}"),
            }
        }
    }
    // Read as a stream, the file as written still reads back.
    let cursor = std::io::Cursor::new(text.as_bytes());
    let back = state::from_reader_within(&game, cursor, state::ReadLimits::default()).unwrap();
    assert_eq!(state::to_json(&back), text);
}

#[test]
fn atomic_writes_refuse_what_is_not_a_file() {
    let dir = std::env::temp_dir().join(format!("menace-fs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let err = menace::fsutil::write_atomic(&dir, b"x").unwrap_err().to_string();
    assert!(err.contains("exists and is not a regular file"), "{err}");
    // Through a symbolic link, the target is written and the link kept.
    let target = dir.join("target.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    menace::fsutil::write_atomic(&link, b"new").unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn learned_means_a_long_enough_run_without_a_loss() {
    use menace::machine::GameResult;
    use menace::training::trainer::{last_loss, GameRecord};
    let run = |n: u64, losses: &[u64]| -> Vec<GameRecord> {
        (1..=n)
            .map(|game| GameRecord {
                game,
                result: if losses.contains(&game) {
                    GameResult::Loss
                } else {
                    GameResult::Win
                },
                plies: 3,
                total_beads: 0,
                first_box_beads: 0,
                boxes: 0,
                exact: None,
                start_seed: None,
            })
            .collect()
    };
    // A last loss two games from the end is not learning (Hex at game 2998 of 3000).
    assert_eq!(games_until_learned(&run(3000, &[5, 2998])), None);
    assert_eq!(last_loss(&run(3000, &[5, 2998])), Some(2998));
    // 30 clean games after a last loss at game 20: learned at 20.
    assert_eq!(games_until_learned(&run(50, &[3, 20])), Some(20));
    // Fewer clean games after it than before it: not yet.
    assert_eq!(games_until_learned(&run(50, &[30])), None);
    // Never lost: learned from the start, once there are at least 10 games.
    assert_eq!(games_until_learned(&run(12, &[])), Some(0));
    assert_eq!(games_until_learned(&run(5, &[])), None);
    assert_eq!(last_loss(&run(5, &[])), None);
}

#[test]
fn each_game_names_its_historical_machine_by_a_typed_preset() {
    use menace::game::MachinePreset;
    use menace::registry::default_settings;
    // HER's settings for Hexapawn boards, MENACE's elsewhere.
    for (spec, preset) in [
        ("hexapawn", MachinePreset::Gardner),
        ("hexapawn:4x4", MachinePreset::Gardner),
        ("tictactoe", MachinePreset::Michie),
        ("hex:3", MachinePreset::Michie),
    ] {
        let game = menace::parse_spec(spec).unwrap();
        assert_eq!(game.machine_preset(), preset, "{spec}");
        assert_eq!(default_settings(&game), MachineSettings::of_preset(preset), "{spec}");
    }
    // The names read back as the same settings; others are refused.
    for preset in MachinePreset::ALL {
        assert_eq!(
            MachineSettings::preset(preset.name()).unwrap(),
            MachineSettings::of_preset(preset)
        );
    }
    assert_eq!(
        MachineSettings::of_preset(MachinePreset::Gardner),
        MachineSettings::gardner()
    );
    assert!(MachineSettings::preset("her").is_err());
}
