//! Chessapawn in words: how each piece moves as a pawn, how a game is won,
//! and where it comes from.

use super::Chessapawn;
use crate::game::About;

impl About for Chessapawn {
    fn title(&self) -> String {
        "Chessapawn".to_string()
    }

    fn rules(&self) -> Vec<String> {
        vec![
            "The chess pieces in their usual places, but every piece is also a pawn: nothing ever moves backward, and a piece moves sideways only to capture. White moves first.".to_string(),
            "Pawn: as in chess, one forward (two from its first rank), capturing one diagonally forward; en passant by any piece that could capture onto the square passed over. Knight: the four forward knight leaps, or as a pawn. Bishop: slides diagonally forward, or steps one straight forward. Rook: slides straight forward, captures one diagonally forward, slides sideways only to capture. Queen: bishop and rook together. King: one step straight or diagonally forward, or captures beside it; no check.".to_string(),
            "You win when the other side cannot move, or by reaching the far rank where no enemy can capture the piece at once (if it can be captured but still stands there on your next turn, you win then). There are no draws: every move goes forward or captures, so every game ends.".to_string(),
            self.history(),
        ]
    }

    fn history(&self) -> String {
        "Robert Price carried Hexapawn to the chess board in 2001.".to_string()
    }

    fn can_draw(&self) -> bool {
        false
    }

    fn short_name(&self) -> String {
        "chessapawn".to_string()
    }

    /// The king and queen break the mirror of the start.
    fn symmetry_words(&self) -> Option<&'static str> {
        None
    }
}
