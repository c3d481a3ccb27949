//! The two chess variants answer "is the game over?" in two ways that must
//! agree: `outcome` looks outward from the squares that matter (an arrived
//! piece, the king) and stops at the first legal move, while `legal_moves`
//! generates every move once. Many seeded random games check that the two
//! agree in every position met, including the rare ends (far-rank arrivals,
//! mates, stalemates, repetitions).

use menace::games::chessapawn::{Kind, Piece};
use menace::prelude::*;
use menace::{Chessapawn, Game, MiniHexchess, Outcome, Player};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Play `games` seeded random games; in every position the game is over
/// exactly when there is no legal move, and the outcome is the same one
/// whether asked before or after generating the moves. Returns how the games
/// ended, for a check that the ends were actually met.
fn over_exactly_without_moves<G: Game>(game: &G, games: usize, seed: u64) -> Vec<Outcome> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut ends = Vec::new();
    for _ in 0..games {
        let mut pos = game.start();
        loop {
            let outcome = game.outcome(&pos);
            game.legal_moves(&pos, &mut moves);
            assert_eq!(
                outcome.is_over(),
                moves.is_empty(),
                "{}: outcome {outcome:?} with {} moves",
                game.position_string(&pos),
                moves.len()
            );
            let Some(&mv) = moves.choose(&mut rng) else {
                ends.push(outcome);
                break;
            };
            pos = game.play(&pos, mv);
        }
    }
    ends
}

#[test]
fn chessapawn_outcome_agrees_with_the_generated_moves() {
    let ends = over_exactly_without_moves(&Chessapawn, 3000, 7);
    assert!(
        ends.iter().all(|o| matches!(o, Outcome::Win(_))),
        "no draws in Chessapawn"
    );
}

/// Arrivals on the far rank are rare in random games, so make them: in each
/// position met, put a piece of the player who just moved on each empty
/// square of its far rank, and ask again whether the game is over. That rank
/// is the side to move's back rank, so its sideways captures (RookPawn,
/// QueenPawn, KingPawn) from wherever random play left them decide it.
#[test]
fn chessapawn_arrivals_are_seen_as_capturable_exactly_when_a_move_captures_them() {
    let game = Chessapawn;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..400 {
        let mut pos = game.start();
        while let Some(&mv) = game.moves(&pos).choose(&mut rng) {
            pos = game.play(&pos, mv);
            let last = pos.turn.other();
            let far = if last == Player::One { 7 } else { 0 };
            for f in 0..8 {
                let s = far * 8 + f;
                if pos.squares[s].is_some() {
                    continue;
                }
                let mut arrived = pos;
                arrived.squares[s] = Some(Piece {
                    owner: last,
                    kind: Kind::Pawn,
                });
                let outcome = game.outcome(&arrived);
                game.legal_moves(&arrived, &mut moves);
                assert_eq!(
                    outcome.is_over(),
                    moves.is_empty(),
                    "{}: outcome {outcome:?} with {} moves",
                    game.position_string(&arrived),
                    moves.len()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn minihexchess_outcome_agrees_with_the_generated_moves() {
    let ends = over_exactly_without_moves(&MiniHexchess::new(), 300, 7);
    assert!(ends.contains(&Outcome::Draw));
    assert!(
        ends.iter().any(|o| matches!(o, Outcome::Win(_))),
        "some random game ends in mate"
    );
}
