//! Noughts and crosses: the shared rule suite and its own known facts.

mod common;

use menace::boxes::{counts_by_move, enumerate, BoxSet};
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
    let images: std::collections::HashSet<_> = (0..8).map(|s| TicTacToe.map_position(&pos, s)).collect();
    assert_eq!(images.len(), 8);
}
