//! [`Game`]: a type with every part of a game, and what follows from them.

use super::error::MoveError;
use super::limits::SearchLimits;
use super::parts::{About, Boxes, Notation, Rules, Symmetric};
use super::players::Player;
use crate::error::InvalidValue;
use crate::symmetry::Symmetry;

/// A two-player game with perfect information, as the matchbox machine, the
/// opponents, the solver, the trainer and the command line all see it.
///
/// A game is its six parts; this trait adds what follows from them, and
/// every type with all six parts has it.
/// How each game maps onto it:
/// - Hexapawn W×H: square board in bitboards; no draws; group {identity, mirror}.
/// - Noughts and crosses: draws on a full board; the 8 symmetries of the square.
/// - Hex N×N: the swap is an ordinary `Move` legal only on the second player's
///   first turn; who places first is part of the game value (decided by its
///   seed); group {identity, 180° rotation}.
/// - Chessapawn: the en passant square lives in the position; no draws; trivial group.
/// - Mini Hexchess: the position carries the fifty-move counter and the history
///   needed for threefold repetition, so `outcome` can see repetition draws;
///   trivial group.
///
/// `legal_moves` fills a caller-owned buffer, so the hot path (legal moves,
/// play, outcome) does not allocate per move once the buffer has grown.
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::{Game, Hexapawn, Outcome, Player};
/// let game = Hexapawn::new(3, 3).unwrap();
/// let mut pos = game.start();
/// for m in ["b2", "axb2", "cxb2", "c2", "a2", "c1#"] {
///     pos = game.try_play(&pos, m).unwrap();
/// }
/// assert_eq!(game.outcome(&pos), Outcome::Win(Player::Two));
/// ```
pub trait Game: Rules + Notation + Symmetric + Boxes + About + SearchLimits {
    /// The moves in a fresh vector (for code off the hot path).
    fn moves(&self, pos: &Self::Position) -> Vec<Self::Move> {
        let mut out = Vec::new();
        self.legal_moves(pos, &mut out);
        out
    }

    /// Play a move given as text, refusing unreadable or illegal ones.
    fn try_play(&self, pos: &Self::Position, text: &str) -> Result<Self::Position, MoveError> {
        let mv = self.parse_move(pos, text)?;
        Ok(self.play(pos, mv))
    }

    /// The canonical representative of a position's symmetry class (the
    /// smallest image), and a symmetry that maps `pos` onto it (the first
    /// such in [`Symmetry::ALL`]).
    fn canonical(&self, pos: &Self::Position) -> (Self::Position, Self::Symmetry) {
        let mut best = pos.clone();
        let mut best_sym = Self::Symmetry::identity();
        for &sym in &Self::Symmetry::ALL[1..] {
            let image = self.map_position(pos, sym);
            if image < best {
                best = image;
                best_sym = sym;
            }
        }
        (best, best_sym)
    }

    /// The key of the box for `pos` under the symmetry group: the key of its
    /// canonical image ([`Game::canonical`]), and a symmetry that maps `pos`
    /// onto that image.
    fn canonical_key(&self, pos: &Self::Position) -> (Self::BoxKey, Self::Symmetry) {
        if Self::Symmetry::ALL.len() == 1 {
            return (self.box_key(pos), Self::Symmetry::identity());
        }
        let (image, sym) = self.canonical(pos);
        (self.box_key(&image), sym)
    }

    /// Read a player name: the game's own (`white`, `x`, `red`), or `first`/`second`.
    fn parse_player(&self, text: &str) -> Result<Player, InvalidValue> {
        let t = text.trim().to_ascii_lowercase();
        for p in [Player::One, Player::Two] {
            if t == self.player_name(p).to_ascii_lowercase() {
                return Ok(p);
            }
        }
        match t.as_str() {
            "first" | "1" => Ok(Player::One),
            "second" | "2" => Ok(Player::Two),
            _ => Err(InvalidValue::new(
                "side",
                text,
                format!(
                    "expected {} or {} (or first/second)",
                    self.player_name(Player::One).to_ascii_lowercase(),
                    self.player_name(Player::Two).to_ascii_lowercase()
                ),
            )),
        }
    }

    /// The names of the legal moves, for error messages.
    fn legal_move_list(&self, pos: &Self::Position) -> Vec<String> {
        self.moves(pos).into_iter().map(|m| self.move_name(pos, m)).collect()
    }

    /// The legal moves as a readable list, for prompts.
    fn legal_move_names(&self, pos: &Self::Position) -> String {
        let names = self.legal_move_list(pos);
        if names.is_empty() {
            "none (the game is over)".to_string()
        } else {
            names.join(" ")
        }
    }

    /// A `MoveError` for text that names no legal move, listing the legal
    /// ones (or that the game is over, where there are none).
    fn illegal(&self, pos: &Self::Position, text: &str, why: &str) -> MoveError {
        let legal = self.legal_move_list(pos);
        if legal.is_empty() {
            return MoveError::GameOver { text: text.to_string() };
        }
        MoveError::Illegal {
            text: text.to_string(),
            why: why.to_string(),
            legal,
        }
    }

    /// A `MoveError` for text that fits each of `candidates`, all legal in `pos`.
    fn ambiguous(&self, pos: &Self::Position, text: &str, hint: &str, candidates: &[Self::Move]) -> MoveError {
        MoveError::Ambiguous {
            text: text.to_string(),
            hint: hint.to_string(),
            candidates: candidates.iter().map(|&m| self.move_name(pos, m)).collect(),
        }
    }
}

impl<G: Rules + Notation + Symmetric + Boxes + About + SearchLimits> Game for G {}
