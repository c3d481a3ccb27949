//! The solver, first on toy games with values known by hand, then on real ones.

mod common;

use common::toy::{Subtraction, Tree};
use menace::prelude::*;
use menace::search::solver::{winner, Solver, Value};
use menace::{Hexapawn, Outcome, Player, TicTacToe};

#[test]
fn subtraction_game_values_match_the_hand_formula() {
    for pile in 1..=30u32 {
        let game = Subtraction { pile };
        let mut solver = Solver::new(game.clone());
        let expected = if pile % 3 == 0 {
            Value::Loss(2 * pile / 3)
        } else {
            Value::Win(2 * (pile / 3) + 1)
        };
        assert_eq!(solver.value(&game.start()).unwrap(), expected, "pile {pile}");
        let (w, _) = winner(&game, &game.start(), 1000).unwrap();
        let expected_winner = if pile % 3 == 0 { Player::Two } else { Player::One };
        assert_eq!(w, Outcome::Win(expected_winner));
    }
}

#[test]
fn subtraction_best_moves_leave_a_multiple_of_three() {
    let game = Subtraction { pile: 7 };
    let mut solver = Solver::new(game.clone());
    assert_eq!(solver.best_moves(&game.start()).unwrap(), vec![1]);
    // A lost position: the loser holds out, but both moves lose equally slowly.
    let mut lost = Solver::new(Subtraction { pile: 6 });
    assert_eq!(lost.best_moves(&(6, Player::One)).unwrap(), vec![1, 2]);
}

#[test]
fn tree_with_draws_is_a_draw_and_the_loser_avoids_the_loss() {
    let game = Tree::with_draws();
    let mut solver = Solver::new(game.clone());
    assert_eq!(solver.value(&0).unwrap(), Value::Draw);
    assert_eq!(solver.value(&1).unwrap(), Value::Draw);
    assert_eq!(solver.value(&6).unwrap(), Value::Win(1));
    assert_eq!(solver.best_moves(&2).unwrap(), vec![5]);
    assert_eq!(winner(&game, &0, 100).unwrap().0, Outcome::Draw);
}

#[test]
fn tree_prefers_the_long_win_to_the_quick_loss() {
    let game = Tree::long_win();
    let mut solver = Solver::new(game.clone());
    assert_eq!(solver.value(&0).unwrap(), Value::Win(4));
    assert_eq!(solver.principal_line(&0).unwrap(), vec![2, 4, 5, 6]);
}

#[test]
fn hexapawn_3x3_is_a_black_win_in_three_white_moves() {
    let game = Hexapawn::new(3, 3).unwrap();
    let mut solver = Solver::new(game.clone());
    // White loses after 3 moves of its own: 6 plies.
    assert_eq!(solver.value(&game.start()).unwrap(), Value::Loss(6));
    let line = solver.principal_line(&game.start()).unwrap();
    assert_eq!(line.len(), 6);
}

#[test]
fn known_hexapawn_results() {
    let cases = [((3, 3), Player::Two), ((4, 4), Player::One), ((3, 4), Player::Two)];
    for ((w, h), expected) in cases {
        let game = Hexapawn::new(w, h).unwrap();
        let mut solver = Solver::new(game.clone());
        let value = solver.value(&game.start()).unwrap();
        let exact_winner = match value {
            Value::Win(_) => Player::One,
            Value::Loss(_) => Player::Two,
            Value::Draw => panic!("hexapawn has no draws"),
        };
        assert_eq!(exact_winner, expected, "{w}x{h}");
        assert_eq!(
            winner(&game, &game.start(), 1_000_000).unwrap().0,
            Outcome::Win(expected)
        );
    }
}

#[test]
fn the_two_solvers_agree_on_every_small_hexapawn_board() {
    for w in 1..=4u8 {
        for h in 3..=5u8 {
            let game = Hexapawn::new(w, h).unwrap();
            let mut exact = Solver::new(game.clone());
            let v = exact.value(&game.start()).unwrap();
            let (fast, _) = winner(&game, &game.start(), 10_000_000).unwrap();
            let from_exact = match v {
                Value::Win(_) => Outcome::Win(Player::One),
                Value::Loss(_) => Outcome::Win(Player::Two),
                Value::Draw => Outcome::Draw,
            };
            assert_eq!(fast, from_exact, "{w}x{h}");
        }
    }
}

#[test]
fn noughts_and_crosses_is_a_draw() {
    let mut solver = Solver::new(TicTacToe);
    assert_eq!(solver.value(&TicTacToe.start()).unwrap(), Value::Draw);
    // Every first move draws too.
    for (_, v) in solver.move_values(&TicTacToe.start()).unwrap() {
        assert_eq!(v, Value::Draw);
    }
}

#[test]
fn the_position_limit_gives_a_clear_error() {
    let game = Hexapawn::new(4, 4).unwrap();
    let mut solver = Solver::with_limit(game.clone(), 10);
    let err = solver.value(&game.start()).unwrap_err();
    assert!(
        err.to_string()
            .contains("hexapawn:4x4 has too many positions to handle exactly (more than 10)"),
        "{err}"
    );
    assert!(winner(&game, &game.start(), 10).is_err());
}

#[test]
fn no_limit_lets_a_search_past_a_gigabyte() {
    // `--max-positions 1000000000` once grew a table to 3.2 GB. A Hexapawn
    // position is 24 bytes; with its value, 32, and a control byte: 33 bytes
    // an entry, about 3 times that at the peak of a table's growth.
    assert_eq!(std::mem::size_of::<menace::games::hexapawn::HexapawnPosition>(), 24);
    let most = (1usize << 30) / (3 * 33);
    let game = menace::Hexapawn::new(8, 8).unwrap();
    assert_eq!(
        menace::search::solver::Solver::with_limit(game, 1_000_000_000).limit(),
        most
    );
    assert_eq!(
        menace::search::solver::memory_bounded::<menace::games::hexapawn::HexapawnPosition>(5_000_000),
        5_000_000
    );
}

#[test]
fn a_long_search_reports_its_progress() {
    // Hexapawn 4x7 stores 94 528 positions (as `solve --table` prints them):
    // one report, at 65 536.
    let game = Hexapawn::new(4, 7).unwrap();
    let mut seen = Vec::new();
    let (outcome, stored) =
        menace::search::solver::winner_reporting(&game, &game.start(), 5_000_000, &mut |n| seen.push(n)).unwrap();
    assert_eq!((outcome, stored), (Outcome::Win(Player::Two), 94_528));
    assert_eq!(seen, vec![65_536]);
}
