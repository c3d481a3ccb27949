//! Perft: the number of move sequences of a given length from a position,
//! the standard check and speed measure of a move generator.

use crate::game::Game;

/// The leaves of the tree of legal moves `depth` plies deep from `pos`
/// (positions where the game is over before that count nothing). The last
/// ply is counted from the length of the move list, as is usual, not played.
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::search::perft::perft;
/// use menace_core::{Game, TicTacToe};
/// assert_eq!(perft(&TicTacToe, &TicTacToe.start(), 2), 72);
/// ```
pub fn perft<G: Game>(game: &G, pos: &G::Position, depth: u32) -> u64 {
    fn go<G: Game>(game: &G, pos: &G::Position, depth: u32, lists: &mut Vec<Vec<G::Move>>) -> u64 {
        if depth == 0 {
            return 1;
        }
        // One move list per depth, reused: nothing allocated after the first line.
        let mut moves = lists.pop().unwrap_or_default();
        game.legal_moves(pos, &mut moves);
        let n = if depth == 1 {
            moves.len() as u64
        } else {
            moves
                .iter()
                .map(|&m| go(game, &game.play(pos, m), depth - 1, lists))
                .sum()
        };
        lists.push(moves);
        n
    }
    go(game, pos, depth, &mut Vec::new())
}
