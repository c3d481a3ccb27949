//! The compiled fast path against the general one: for the same seed, the
//! same games, records, exact results (to the last bit), beads and random
//! stream, over games (5×5 Hexapawn's 1 936 645 positions among them),
//! machine settings (every box set, boxes made up front or on first visit)
//! and opponents, by hand and generated; games played a step at a time
//! between compiled ones; and a table is never used for a machine or
//! opponent other than the one it was built for.

use menace::machine::boxes::BoxSet;
use menace::machine::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement, Scope};
use menace::machine::Machine;
use menace::training::driver::{Match, Step};
use menace::training::opponent::OpponentSpec;
use menace::training::trainer::{make_opponent, Trainer};
use menace::{parse_spec, with_game, AnyGame, Game, Hexapawn, Player, TicTacToe};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Play `games` games on both paths from `seed`, with exact results every
/// `exact_every` games, and check that everything agrees.
fn agree<G: Game>(
    game: G,
    side: Player,
    settings: &MachineSettings,
    opponent: &str,
    seed: u64,
    games: u64,
    exact_every: u64,
) {
    let spec = OpponentSpec::parse(opponent).unwrap();
    let make = || Trainer::new(game.clone(), side, settings.clone(), spec.clone(), seed).unwrap();
    let mut fast = make();
    let mut general = make();
    general.set_compiled(false);
    assert!(
        fast.is_compiled(),
        "{} against {opponent} should be compiled",
        game.spec()
    );
    assert!(!general.is_compiled());
    assert_eq!(fast.exact(), general.exact(), "{} before any game", game.spec());
    for g in 1..=games {
        let exact = g % exact_every == 0;
        let a = fast.play_game(exact);
        let b = general.play_game(exact);
        assert_eq!(a, b, "{} against {opponent}, seed {seed}, game {g}", game.spec());
    }
    same_state(&fast, &general);
}

/// The same beads in every box, and the random streams at the same point.
fn same_state<G: Game>(fast: &Trainer<G>, general: &Trainer<G>) {
    let beads = |t: &Trainer<G>| t.machine().boxes().iter().map(|b| b.beads.to_vec()).collect::<Vec<_>>();
    assert_eq!(beads(fast), beads(general));
    assert_eq!(fast.rng(), general.rng(), "the random streams part");
}

/// Both trainers play `games` games, every record the same.
fn play_both<G: Game>(fast: &mut Trainer<G>, general: &mut Trainer<G>, games: u64, exact_every: u64) {
    for g in 1..=games {
        let exact = g % exact_every == 0;
        assert_eq!(fast.play_game(exact), general.play_game(exact), "game {g}");
    }
    same_state(fast, general);
}

fn settings(beads: &[u32], reinforcement: &str, empty_box: &str, symmetry: bool) -> MachineSettings {
    MachineSettings {
        beads: BeadSchedule(beads.to_vec()),
        reinforcement: Reinforcement::parse(reinforcement).unwrap(),
        empty_box: EmptyBox::parse(empty_box).unwrap(),
        symmetry,
        ..MachineSettings::gardner()
    }
}

#[test]
fn hexapawn_agrees_for_every_setting_and_opponent() {
    let game = Hexapawn::new(3, 3).unwrap();
    let variants = [
        MachineSettings::gardner(),
        MachineSettings::michie(),
        settings(&[1], "1/0/-1", "restock", true),
        settings(&[2, 1], "3/1/-1", "floor:1", false),
        settings(&[1], "0/0/-1", "resign", false),
    ];
    for s in &variants {
        for side in [Player::One, Player::Two] {
            for opponent in ["random", "perfect", "perfect:0.6"] {
                for seed in 0..4 {
                    agree(game.clone(), side, s, opponent, seed, 300, 7);
                }
            }
        }
    }
}

#[test]
fn every_box_set_agrees() {
    // Choices and Michie's set leave positions without a box (forced moves;
    // Michie's hopeless ones), played uniformly at random on both paths.
    for box_set in BoxSet::ALL {
        for side in [Player::One, Player::Two] {
            for opponent in ["random", "perfect:0.7"] {
                let s = MachineSettings {
                    box_set,
                    ..MachineSettings::michie()
                };
                agree(Hexapawn::new(3, 3).unwrap(), side, &s, opponent, 3, 300, 30);
                agree(TicTacToe, side, &s, opponent, 4, 300, 100);
            }
        }
    }
}

fn any_settings() -> impl Strategy<Value = MachineSettings> {
    let empty_box = prop_oneof![
        Just(EmptyBox::Resign),
        Just(EmptyBox::Restock),
        (1u32..=2).prop_map(EmptyBox::Floor)
    ];
    (
        prop::collection::vec(1u32..=4, 1..=4),
        (-3i32..=3, -3i32..=3, -3i32..=3, any::<bool>()),
        empty_box,
        prop::sample::select(BoxSet::ALL.to_vec()),
        (any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(beads, (win, draw, loss, all), empty_box, box_set, (symmetry, first_visit))| MachineSettings {
                beads: BeadSchedule(beads),
                reinforcement: Reinforcement {
                    win,
                    draw,
                    loss,
                    scope: if all { Scope::All } else { Scope::Last },
                },
                empty_box,
                box_set,
                symmetry,
                box_mode: if first_visit {
                    BoxMode::FirstVisit
                } else {
                    BoxMode::Auto
                },
            },
        )
}

proptest! {
    // A fixed seed: the same cases on every run; no files written.
    #![proptest_config(ProptestConfig {
        cases: 40,
        rng_seed: RngSeed::Fixed(61),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]
    #[test]
    fn generated_seeds_and_settings_agree(
        spec in prop::sample::select(vec!["hexapawn", "hexapawn:3x4", "hexapawn:4x3", "tictactoe", "hex:3"]),
        one in any::<bool>(),
        settings in any_settings(),
        opponent in prop::sample::select(vec!["random", "perfect", "perfect:0.5", "perfect:0"]),
        seed in any::<u64>(),
        games in 1u64..150,
        exacts in 1u64..=6,
    ) {
        let side = if one { Player::One } else { Player::Two };
        let exact_every = (games / exacts).max(1);
        with_game!(parse_spec(spec).unwrap(), g => agree(g, side, &settings, opponent, seed, games, exact_every));
    }
}

#[test]
fn a_changed_machine_or_opponent_never_plays_on_an_old_table() {
    let game = Hexapawn::new(3, 3).unwrap();
    let make = || {
        Trainer::new(
            game.clone(),
            Player::Two,
            MachineSettings::gardner(),
            OpponentSpec::Random,
            5,
        )
        .unwrap()
    };
    let (mut fast, mut general) = (make(), make());
    general.set_compiled(false);
    assert!(fast.is_compiled());
    play_both(&mut fast, &mut general, 60, 10);
    // The same game, side, settings and box count, the boxes in the other
    // order: a table kept for these would draw from the wrong boxes.
    for t in [&mut fast, &mut general] {
        let m = t.machine();
        let boxes = m.boxes().iter().rev().map(|b| b.to_box()).collect();
        let reversed = Machine::from_boxes(m.game().clone(), m.side(), m.settings().clone(), true, boxes);
        *t.machine_mut() = reversed;
    }
    assert!(fast.is_compiled(), "a new table for the new machine");
    play_both(&mut fast, &mut general, 300, 10);
    // Beads edited by hand: their exact results are worked out afresh.
    for t in [&mut fast, &mut general] {
        t.machine_mut().reinforce(menace::machine::GameResult::Win);
    }
    play_both(&mut fast, &mut general, 100, 1);
    // A machine for the other side, with the same settings.
    for t in [&mut fast, &mut general] {
        let m = t.machine();
        let other = Machine::new(m.game().clone(), Player::One, m.settings().clone()).unwrap();
        *t.machine_mut() = other;
    }
    play_both(&mut fast, &mut general, 200, 20);
    // The opponent changed, and changed back.
    for spec in ["perfect:0.5", "random"] {
        let spec = OpponentSpec::parse(spec).unwrap();
        for t in [&mut fast, &mut general] {
            let m = t.machine();
            let made = make_opponent(m.game(), &spec, m.side(), m.settings()).unwrap();
            t.set_opponent(spec.clone(), made);
        }
        assert!(fast.is_compiled());
        play_both(&mut fast, &mut general, 200, 20);
    }
}

#[test]
fn larger_boards_agree() {
    for (w, h) in [(4, 4), (3, 5), (4, 3)] {
        let game = Hexapawn::new(w, h).unwrap();
        for seed in 0..3 {
            agree(
                game.clone(),
                Player::One,
                &MachineSettings::gardner(),
                "random",
                seed,
                400,
                50,
            );
            agree(
                game.clone(),
                Player::Two,
                &MachineSettings::michie(),
                "perfect:0.8",
                seed,
                200,
                40,
            );
        }
    }
}

#[test]
fn noughts_and_crosses_agrees() {
    let restock = MachineSettings {
        empty_box: EmptyBox::Restock,
        ..MachineSettings::michie()
    };
    for seed in 0..3 {
        agree(TicTacToe, Player::One, &restock, "random", seed, 2000, 500);
        agree(
            TicTacToe,
            Player::Two,
            &MachineSettings::michie(),
            "perfect",
            seed,
            300,
            100,
        );
    }
}

#[test]
fn hex_with_a_drawn_start_agrees() {
    let AnyGame::Hex(game) = parse_spec("hex:3").unwrap() else {
        panic!("hex:3 is Hex");
    };
    for seed in 0..3 {
        agree(
            game.clone(),
            Player::One,
            &MachineSettings::gardner(),
            "random",
            seed,
            300,
            30,
        );
        agree(
            game.clone(),
            Player::Two,
            &MachineSettings::michie(),
            "perfect",
            seed,
            200,
            50,
        );
    }
}

fn first_visit(settings: MachineSettings) -> MachineSettings {
    MachineSettings {
        box_mode: BoxMode::FirstVisit,
        ..settings
    }
}

#[test]
fn boxes_opened_on_first_visit_agree() {
    // The boxes open in the same order on both paths, each with the beads
    // of the move it was first met at (Michie's 4/3/2/1), and the exact
    // evaluation counts a box not yet opened as the general path makes it.
    let restock = MachineSettings {
        empty_box: EmptyBox::Restock,
        ..MachineSettings::michie()
    };
    for seed in 0..3 {
        for (w, h) in [(3, 3), (4, 4), (3, 5)] {
            let game = Hexapawn::new(w, h).unwrap();
            agree(
                game.clone(),
                Player::Two,
                &first_visit(restock.clone()),
                "perfect:0.7",
                seed,
                300,
                10,
            );
            agree(
                game,
                Player::One,
                &first_visit(MachineSettings::gardner()),
                "random",
                seed,
                300,
                25,
            );
        }
        agree(
            TicTacToe,
            Player::One,
            &first_visit(restock.clone()),
            "random",
            seed,
            500,
            50,
        );
    }
}

/// One game through the match driver, a step at a time (the way `play`
/// and the web page play), not on the compiled table.
fn step_by_step<G: Game>(t: &mut Trainer<G>) -> menace::training::trainer::GameRecord {
    let mut m = Match::start(t);
    while !matches!(m.step(t), Step::Over(..)) {}
    m.finish(t, false).0
}

#[test]
fn games_played_step_by_step_between_compiled_ones_are_taken_into_account() {
    // Boxes opened and beads changed away from the table: its next games
    // draw from those boxes, and its next exact results count them.
    let restock = MachineSettings {
        empty_box: EmptyBox::Restock,
        ..MachineSettings::michie()
    };
    let game = Hexapawn::new(4, 4).unwrap();
    let spec = OpponentSpec::parse("perfect:0.6").unwrap();
    let make = || Trainer::new(game.clone(), Player::One, first_visit(restock.clone()), spec.clone(), 9).unwrap();
    let (mut fast, mut general) = (make(), make());
    general.set_compiled(false);
    assert!(fast.is_compiled());
    for _ in 0..10 {
        play_both(&mut fast, &mut general, 20, 4);
        for _ in 0..5 {
            assert_eq!(step_by_step(&mut fast), step_by_step(&mut general));
        }
        assert_eq!(fast.exact(), general.exact());
    }
    same_state(&fast, &general);
}

#[test]
#[ignore = "slow: 5x5's 969 170 positions evaluated exactly, a minute beside the other tests (.ci/run runs it)"]
fn five_by_five_agrees() {
    // 969 170 positions: the general path's exact evaluation takes seconds
    // here, so few of them. White wins 5×5; the machine plays it as `train` does.
    let game = Hexapawn::new(5, 5).unwrap();
    let side = menace::registry::winning_or_historical_side(&game);
    agree(game.clone(), side, &MachineSettings::gardner(), "perfect", 1, 300, 150);
    let enumerated = MachineSettings {
        box_mode: BoxMode::Enumerate,
        ..MachineSettings::michie()
    };
    agree(game, side, &enumerated, "perfect:0.9", 2, 200, 200);
}

#[test]
fn what_is_not_compiled_plays_the_general_way() {
    let game = Hexapawn::new(3, 3).unwrap();
    for opponent in ["menace", "mcts:20"] {
        let spec = OpponentSpec::parse(opponent).unwrap();
        let mut t = Trainer::new(game.clone(), Player::Two, MachineSettings::gardner(), spec, 1).unwrap();
        assert!(!t.is_compiled(), "{opponent}");
    }
    // An opponent swapped for one the table can serve is picked up.
    let spec = OpponentSpec::parse("mcts:20").unwrap();
    let mut t = Trainer::new(game.clone(), Player::Two, MachineSettings::gardner(), spec, 1).unwrap();
    t.play_game(false);
    t.set_opponent(OpponentSpec::Random, menace::training::opponent::Opponent::Random);
    assert!(t.is_compiled());
}
