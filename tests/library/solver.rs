//! The solver, first on toy games with values known by hand, then on real ones.

use crate::common;

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

/// A second, independent Hexapawn: a plain array board (0 empty, 1 White,
/// 2 Black) and a memoised minimax over it, with each pawn type's moves
/// written out from the rules.
mod plain {
    use std::collections::HashMap;

    use menace::games::hexapawn::Pawn;

    pub struct Board {
        pub w: i32,
        pub h: i32,
        pub pawn: Pawn,
        memo: HashMap<(Vec<u8>, u8), bool>,
    }

    impl Board {
        pub fn new(w: i32, h: i32, pawn: Pawn) -> Board {
            Board {
                w,
                h,
                pawn,
                memo: HashMap::new(),
            }
        }

        pub fn start(&self) -> Vec<u8> {
            let mut cells = vec![0u8; (self.w * self.h) as usize];
            for f in 0..self.w {
                cells[f as usize] = 1;
                cells[((self.h - 1) * self.w + f) as usize] = 2;
            }
            cells
        }

        /// The boards after each move of `side` (1 or 2).
        pub fn children(&self, cells: &[u8], side: u8) -> Vec<Vec<u8>> {
            let (w, h) = (self.w, self.h);
            let dir = if side == 1 { 1 } else { -1 };
            let them = 3 - side;
            let at = |f: i32, r: i32| -> Option<u8> {
                ((0..w).contains(&f) && (0..h).contains(&r)).then(|| cells[(r * w + f) as usize])
            };
            let mut out = Vec::new();
            for r in 0..h {
                for f in 0..w {
                    if at(f, r) != Some(side) {
                        continue;
                    }
                    let mut targets: Vec<(i32, i32, u8)> = Vec::new();
                    match self.pawn {
                        Pawn::Normal => {
                            targets.extend([(f, r + dir, 0), (f - 1, r + dir, them), (f + 1, r + dir, them)]);
                        }
                        Pawn::Berolina | Pawn::BerolinaPlus => {
                            targets.extend([(f - 1, r + dir, 0), (f + 1, r + dir, 0), (f, r + dir, them)]);
                            if self.pawn == Pawn::BerolinaPlus {
                                targets.extend([(f - 1, r, them), (f + 1, r, them)]);
                            }
                        }
                    }
                    for (f2, r2, needs) in targets {
                        if at(f2, r2) == Some(needs) {
                            let mut next = cells.to_vec();
                            next[(r * w + f) as usize] = 0;
                            next[(r2 * w + f2) as usize] = side;
                            out.push(next);
                        }
                    }
                }
            }
            out
        }

        fn arrived(&self, cells: &[u8], side: u8) -> bool {
            let r = if side == 1 { self.h - 1 } else { 0 };
            (0..self.w).any(|f| cells[(r * self.w + f) as usize] == side)
        }

        /// Whether `side`, to move on `cells`, wins with best play.
        pub fn wins(&mut self, cells: &[u8], side: u8) -> bool {
            if self.arrived(cells, 3 - side) {
                return false;
            }
            if let Some(&v) = self.memo.get(&(cells.to_vec(), side)) {
                return v;
            }
            let children = self.children(cells, side);
            let v = children.iter().any(|c| !self.wins(c, 3 - side));
            self.memo.insert((cells.to_vec(), side), v);
            v
        }
    }
}

#[test]
fn the_winner_search_agrees_with_a_plain_minimax_on_every_small_board() {
    use menace::games::hexapawn::solver::WinnerSearch;
    use menace::games::hexapawn::Pawn;
    let mut checked = 0;
    for pawn in Pawn::ALL {
        for w in 1..=6u8 {
            for h in 3..=6u8 {
                if u32::from(w) * u32::from(h) > 16 && (w, h) != (5, 4) && (w, h) != (4, 5) {
                    continue;
                }
                let game = Hexapawn::with_pawn(w, h, pawn).unwrap();
                let mut plain = plain::Board::new(i32::from(w), i32::from(h), pawn);
                let start = plain.start();
                let expected = if plain.wins(&start, 1) {
                    Player::One
                } else {
                    Player::Two
                };
                // A small table, so that answers are also lost and found again.
                let mut search = WinnerSearch::new(game.clone(), 6);
                assert_eq!(search.winner(&game.start()).unwrap(), expected, "{}", game.spec());
                // Every first move too.
                for (mv, wins) in search.move_wins(&game.start()).unwrap() {
                    let child = game.play(&game.start(), mv);
                    let mut cells = vec![0u8; usize::from(w) * usize::from(h)];
                    for (i, c) in cells.iter_mut().enumerate() {
                        *c = if child.white >> i & 1 == 1 {
                            1
                        } else if child.black >> i & 1 == 1 {
                            2
                        } else {
                            0
                        };
                    }
                    let black_wins = plain.wins(&cells, 2) || game.outcome(&child) == Outcome::Win(Player::Two);
                    let white_arrived = game.outcome(&child) == Outcome::Win(Player::One);
                    assert_eq!(wins, white_arrived || !black_wins, "{} {mv:?}", game.spec());
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * 16);
}

/// The positions of random games, not only the start and its children: the
/// search's shortcuts (a pawn stepping onto the far rank that no reply can
/// take, two such pawns of the other side's) act deep in a game.
#[test]
fn the_winner_search_agrees_with_a_plain_minimax_along_random_games() {
    use menace::games::hexapawn::solver::WinnerSearch;
    use menace::games::hexapawn::Pawn;
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut checked = 0;
    for pawn in Pawn::ALL {
        for (w, h) in [(4u8, 4u8), (5, 4), (4, 5), (6, 3), (3, 5)] {
            let game = Hexapawn::with_pawn(w, h, pawn).unwrap();
            let mut plain = plain::Board::new(i32::from(w), i32::from(h), pawn);
            let mut search = WinnerSearch::new(game.clone(), 6);
            for _ in 0..100 {
                let mut pos = game.start();
                while game.outcome(&pos) == Outcome::Ongoing {
                    let cells: Vec<u8> = (0..usize::from(w) * usize::from(h))
                        .map(|i| u8::from(pos.white >> i & 1 == 1) + 2 * u8::from(pos.black >> i & 1 == 1))
                        .collect();
                    let side = if pos.turn == Player::One { 1 } else { 2 };
                    let wins = search.wins(&pos).unwrap();
                    assert_eq!(wins, plain.wins(&cells, side), "{} {pos:?}", game.spec());
                    checked += 1;
                    let moves = game.moves(&pos);
                    pos = game.play(&pos, *moves.choose(&mut rng).unwrap());
                }
            }
        }
    }
    assert!(checked > 3 * 5 * 100 * 4, "{checked}");
}

#[test]
fn published_hexapawn_winners() {
    use menace::games::hexapawn::solver::WinnerSearch;
    // Gardner (Scientific American, March 1962; chessvariants.com "Hexapawn"):
    // Black wins 3×3. Octopawn, 4×4, is a forced win for White (Wikipedia, "Hexapawn").
    for ((w, h), winner) in [((3, 3), Player::Two), ((4, 4), Player::One)] {
        let game = Hexapawn::new(w, h).unwrap();
        assert_eq!(
            WinnerSearch::new(game.clone(), 10).winner(&game.start()).unwrap(),
            winner
        );
    }
}

#[test]
fn a_search_past_its_budget_says_so() {
    use menace::games::hexapawn::solver::{Unsolved, WinnerSearch};
    let game = Hexapawn::new(6, 6).unwrap();
    let mut search = WinnerSearch::new(game.clone(), 10).with_work_budget(100_000);
    let err = search.winner(&game.start()).unwrap_err();
    assert_eq!(err, Unsolved::Work(100_000));
    assert_eq!(err.to_string(), "not decided within 100000 positions searched");
}

#[test]
fn the_on_demand_perfect_player_plays_winning_moves_as_the_exact_solver_finds_them() {
    use menace::games::hexapawn::Pawn;
    use menace::training::opponent::PerfectPlayer;
    for pawn in Pawn::ALL {
        let game = Hexapawn::with_pawn(4, 4, pawn).unwrap();
        // A limit of 10 positions forces the position solver.
        let mut on_demand = PerfectPlayer::with_limit(game.clone(), 10).unwrap();
        assert!(!on_demand.is_exhaustive());
        let mut exact = Solver::new(game.clone());
        for pos in common::rules::sample_positions(&game, 5_000, 50) {
            if game.outcome(&pos).is_over() {
                continue;
            }
            let values = exact.move_values(&pos).unwrap();
            let mut winning: Vec<_> = values
                .iter()
                .filter(|(_, v)| matches!(v, Value::Win(_)))
                .map(|(m, _)| *m)
                .collect();
            let mut best = on_demand.best_moves(&pos).to_vec();
            assert!(!best.is_empty());
            if winning.is_empty() {
                // Losing: moves from the legal ones, none letting the other side arrive at once where avoidable.
                assert!(best.iter().all(|m| values.iter().any(|(n, _)| n == m)));
            } else {
                winning.sort();
                best.sort();
                assert_eq!(best, winning, "{}", game.position_string(&pos));
            }
        }
    }
    // Answers kept: asked again (from what was kept) and with a store of 7
    // answers that starts afresh when full, each answer is the searched
    // one, moves in the same order (the trainer's uniform pick reads it).
    {
        use menace::games::hexapawn::solver::OnDemand;
        use menace::search::PositionSolver;
        let game = Hexapawn::new(4, 4).unwrap();
        let mut exact = Solver::new(game.clone());
        let mut kept = OnDemand::with_answers(game.clone(), 10, 7);
        let positions: Vec<_> = common::rules::sample_positions(&game, 400, 50)
            .into_iter()
            .filter(|p| !game.outcome(p).is_over())
            .collect();
        let mut fresh_answers = Vec::new();
        for pos in &positions {
            fresh_answers.push(OnDemand::with_answers(game.clone(), 10, 1).best_moves(pos));
        }
        for round in 0..2 {
            for (pos, fresh) in positions.iter().zip(&fresh_answers) {
                let answer = kept.best_moves(pos);
                assert_eq!(&answer, fresh, "round {round}: {}", game.position_string(pos));
                assert!(kept.answers_kept() <= 7);
                // And the winning ones are the exact solver's, in legal-move order.
                let values = exact.move_values(pos).unwrap();
                let winning: Vec<_> = values
                    .iter()
                    .filter(|(_, v)| matches!(v, Value::Win(_)))
                    .map(|(m, _)| *m)
                    .collect();
                if !winning.is_empty() {
                    let legal = game.moves(pos);
                    let in_order: Vec<_> = legal.iter().copied().filter(|m| winning.contains(m)).collect();
                    assert_eq!(answer, in_order);
                }
            }
        }
    }
    // Boards the exhaustive solver handles keep it.
    assert!(PerfectPlayer::new(Hexapawn::new(5, 4).unwrap())
        .unwrap()
        .is_exhaustive());
}
