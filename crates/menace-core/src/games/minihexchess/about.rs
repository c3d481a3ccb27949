//! Mini Hexchess in words: the pieces and how they move on 37 cells, how a
//! game is won or drawn, and where it comes from.

use super::MiniHexchess;
use crate::game::About;

impl About for MiniHexchess {
    fn title(&self) -> String {
        match self.setup {
            None => "Mini Hexchess".to_string(),
            Some(_) => "Mini Hexchess from a custom setup".to_string(),
        }
    }

    fn rules(&self) -> Vec<String> {
        let pieces = match self.setup {
            None => "37 hexagonal cells; each side has a king, a rook, a bishop, a knight and five pawns, as McCooey set them. White moves first.",
            Some(_) => "37 hexagonal cells, the pieces set as the game's spec lists them. White moves first.",
        };
        vec![
            pieces.to_string(),
            "The rook slides through cell edges (6 directions), the bishop through cell corners (6 diagonal directions), the king steps one cell in any of those 12 directions, the knight leaps one straight step then one diagonal step onward. A pawn moves one cell straight forward and captures to the two forward diagonal cells; on the far edge it becomes a rook, bishop or knight.".to_string(),
            "Checkmate wins. Stalemate, threefold repetition, 100 plies without a capture or pawn move, and bare kings are draws.".to_string(),
            self.history(),
        ]
    }

    fn history(&self) -> String {
        "Dave McCooey made Mini Hexchess in 1997, a small board for his hexagonal chess.".to_string()
    }

    fn can_draw(&self) -> bool {
        true
    }

    fn short_name(&self) -> String {
        "minihexchess".to_string()
    }

    /// The rook and knight swap sides in the mirror of the start.
    fn symmetry_words(&self) -> Option<&'static str> {
        None
    }
}
