//! The compiled fast path against the general one: for the same seed, the
//! same games, records, exact results (to the last bit), beads and random
//! stream, over games, machine settings and opponents.

use menace::machine::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement};
use menace::training::opponent::OpponentSpec;
use menace::training::trainer::Trainer;
use menace::{parse_spec, AnyGame, Game, Hexapawn, Player, TicTacToe};
use rand::RngCore;

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
    let beads = |t: &Trainer<G>| t.machine.boxes().iter().map(|b| b.beads.clone()).collect::<Vec<_>>();
    assert_eq!(beads(&fast), beads(&general));
    assert_eq!(fast.rng.next_u64(), general.rng.next_u64(), "the random streams part");
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

#[test]
fn what_is_not_compiled_plays_the_general_way() {
    let game = Hexapawn::new(3, 3).unwrap();
    let first_visit = MachineSettings {
        box_mode: BoxMode::FirstVisit,
        ..MachineSettings::gardner()
    };
    let mut t = Trainer::new(game.clone(), Player::Two, first_visit, OpponentSpec::Random, 1).unwrap();
    assert!(!t.is_compiled(), "boxes opened on first visit");
    for opponent in ["menace", "mcts:20"] {
        let spec = OpponentSpec::parse(opponent).unwrap();
        let mut t = Trainer::new(game.clone(), Player::Two, MachineSettings::gardner(), spec, 1).unwrap();
        assert!(!t.is_compiled(), "{opponent}");
    }
    // An opponent swapped for one the table can serve is picked up.
    let spec = OpponentSpec::parse("mcts:20").unwrap();
    let mut t = Trainer::new(game.clone(), Player::Two, MachineSettings::gardner(), spec, 1).unwrap();
    t.play_game(false);
    t.opponent = menace::training::opponent::Opponent::Random;
    assert!(t.is_compiled());
}
