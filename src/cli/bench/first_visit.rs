//! The speed of light for first-visit training on the large games, where
//! nearly every machine move opens a box: games against a random opponent
//! in which, at each of the machine's positions, a loop written for speed
//! alone computes the box key and stores a new box of its moves' beads (a
//! byte a move) in a hash map, and does nothing else. The machine's own
//! choice is uniform among its legal moves, as a fresh box's is. What it
//! cannot avoid is what the trainer cannot: the rules (outcome, legal
//! moves, the move played), the box set's test, the key (under symmetry)
//! and the map.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use menace::machine::settings::MachineSettings;
use menace::{Game, Outcome, Player};

use super::row::Row;

/// Play `n` games of `game` (the machine on `side`, boxes as `settings`
/// says) against random, storing a box at each new machine position.
pub fn row<G: Game>(what: &str, game: &G, side: Player, settings: &MachineSettings, n: u64) -> Row {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut boxes: FxHashMap<G::BoxKey, Box<[u8]>> = FxHashMap::default();
    let mut moves = Vec::new();
    let mut plies = 0u64;
    let t = Instant::now();
    for _ in 0..n {
        let mut pos = game.seeded_start(rng.random());
        let mut own_move = 0u32;
        while game.outcome(&pos) == Outcome::Ongoing {
            game.legal_moves(&pos, &mut moves);
            if game.turn(&pos) == side {
                own_move += 1;
                if settings.box_set.includes(game, &pos, &moves) {
                    let key = if settings.symmetry {
                        game.canonical_key(&pos).0
                    } else {
                        game.box_key(&pos)
                    };
                    let beads = settings.beads.beads(own_move).min(255) as u8;
                    boxes
                        .entry(key)
                        .or_insert_with(|| vec![beads; moves.len()].into_boxed_slice());
                }
            }
            pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
            plies += 1;
        }
    }
    let seconds = t.elapsed().as_secs_f64();
    Row::games(
        what,
        n,
        seconds,
        format!(
            "{:.1} plies a game, {} boxes: key, legal moves and a byte a move stored, nothing else",
            plies as f64 / n as f64,
            boxes.len()
        ),
    )
}
