//! Noughts and crosses: the shared rule suite and its own known facts.

use crate::common;

use menace::machine::boxes::{counts_by_move, enumerate, BoxSet};
use menace::prelude::*;
use menace::symmetry::Square;
use menace::{Game, Outcome, Player, TicTacToe};

#[test]
fn shared_rules() {
    common::rules::check_game(&TicTacToe, 10_000, 0);
}

#[test]
fn reachable_positions_and_finished_games_match_known_counts() {
    // The standard counts: 5478 reachable positions (the empty board
    // included), 958 of them finished games.
    let all = common::rules::sample_positions(&TicTacToe, 10_000, 0);
    assert_eq!(all.len(), 5478);
    let over = all.iter().filter(|p| TicTacToe.outcome(p).is_over()).count();
    assert_eq!(over, 958);
}

#[test]
fn menace_box_counts() {
    let x = |set| enumerate(&TicTacToe, Player::One, set, true, 100_000).unwrap();
    let all = x(BoxSet::All);
    assert_eq!(all.len(), 338);
    let choices = x(BoxSet::Choices);
    assert_eq!(counts_by_move(&choices), vec![(1, 1), (3, 12), (5, 108), (7, 183)]);
    assert_eq!(choices.len(), 304);
    let michie = x(BoxSet::Michie);
    assert_eq!(michie.len(), 287);
    assert_eq!(counts_by_move(&michie)[3], (7, 183 - 17));
}

#[test]
fn cells_and_numbers() {
    let start = TicTacToe.start();
    assert_eq!(
        TicTacToe.parse_move(&start, "1").unwrap(),
        TicTacToe.parse_move(&start, "a3").unwrap()
    );
    assert_eq!(
        TicTacToe.parse_move(&start, "9").unwrap(),
        TicTacToe.parse_move(&start, "c1").unwrap()
    );
    assert_eq!(
        TicTacToe.parse_move(&start, "5").unwrap(),
        TicTacToe.parse_move(&start, "B2").unwrap()
    );
    let err = TicTacToe.parse_move(&start, "d4").unwrap_err().to_string();
    assert!(err.contains("'d4'") && err.contains("a1..c3"), "{err}");
    let pos = TicTacToe.try_play(&start, "b2").unwrap();
    let err = TicTacToe.parse_move(&pos, "b2").unwrap_err().to_string();
    assert!(err.contains("taken"), "{err}");
}

#[test]
fn lines_and_full_board() {
    let win = TicTacToe.parse_position("xxx/oo./... o").unwrap();
    assert_eq!(TicTacToe.outcome(&win), Outcome::Win(Player::One));
    let draw = TicTacToe.parse_position("xox/xoo/oxx x").unwrap();
    assert_eq!(TicTacToe.outcome(&draw), Outcome::Draw);
    let diagonal = TicTacToe.parse_position("o.x/.x./x.o o").unwrap();
    assert_eq!(TicTacToe.outcome(&diagonal), Outcome::Win(Player::One));
}

#[test]
fn the_eight_symmetries_are_distinct_and_form_a_group() {
    let pos = TicTacToe.parse_position("x../.../.o. x").unwrap();
    let images: std::collections::HashSet<_> = Square::ALL.iter().map(|&s| TicTacToe.map_position(&pos, s)).collect();
    assert_eq!(images.len(), 8);
}

#[test]
fn random_against_random_exactly() {
    // The published values: X wins 737/1260, O wins 363/1260, draws 160/1260.
    let p = menace::training::exact::random_play(&TicTacToe, &TicTacToe.start(), 100_000).unwrap();
    assert!((p.one_wins - 737.0 / 1260.0).abs() < 1e-12, "{p:?}");
    assert!((p.two_wins - 363.0 / 1260.0).abs() < 1e-12, "{p:?}");
    assert!((p.draw - 160.0 / 1260.0).abs() < 1e-12, "{p:?}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["solve", "tictactoe", "--random"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("X wins 0.5849") && text.contains("O wins 0.2881") && text.contains("draw   0.1270"),
        "{text}"
    );
}

#[test]
fn menace_learns_to_draw_against_perfect_play_when_boxes_restock() {
    use menace::machine::settings::{EmptyBox, MachineSettings};
    use menace::training::opponent::OpponentSpec;
    use menace::training::trainer::Trainer;
    let settings = MachineSettings {
        empty_box: EmptyBox::Restock,
        ..MachineSettings::michie()
    };
    let mut finals = Vec::new();
    for seed in 0..20 {
        let mut t = Trainer::new(
            TicTacToe,
            Player::One,
            settings.clone(),
            OpponentSpec::Perfect(1.0),
            seed,
        )
        .unwrap();
        let untrained = t.exact().perfect.unwrap().loss;
        assert!(
            untrained > 0.5,
            "an untrained MENACE loses most games to perfect play: {untrained}"
        );
        for _ in 0..600 {
            t.play_game(false);
        }
        let e = t.exact().perfect.unwrap();
        assert_eq!(e.win, 0.0, "nobody beats perfect play");
        finals.push(e.loss);
    }
    finals.sort_by(f64::total_cmp);
    assert!(finals[19] < 0.05, "{finals:?}");
    assert!(finals[10] < 0.01, "median {finals:?}");
}

#[test]
fn under_the_resign_rule_menace_can_resign_for_ever() {
    use menace::machine::settings::MachineSettings;
    use menace::training::opponent::OpponentSpec;
    use menace::training::trainer::Trainer;
    // The historical rule: an empty first box means resigning every game.
    let mut stuck = 0;
    for seed in 0..10 {
        let mut t = Trainer::new(
            TicTacToe,
            Player::One,
            MachineSettings::michie(),
            OpponentSpec::Perfect(1.0),
            seed,
        )
        .unwrap();
        for _ in 0..300 {
            t.play_game(false);
        }
        if t.machine().first_move_beads() == 0 {
            stuck += 1;
            assert_eq!(t.exact().perfect.unwrap().loss, 1.0);
            assert_eq!(t.play_game(false).plies, 0, "it resigns before its first move");
        }
    }
    assert!(stuck > 0 && stuck < 10, "{stuck} of 10 seeds stuck");
}
