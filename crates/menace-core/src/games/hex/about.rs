//! Hex in words: its rules with this board's options (the swap, who places
//! first), and where it comes from.

use super::Hex;
use crate::game::{About, Rules};

impl About for Hex {
    fn title(&self) -> String {
        format!("Hex on {}×{}", self.size, self.size)
    }

    fn rules(&self) -> Vec<String> {
        let mut lines = vec![
            format!("A rhombus of {0}×{0} hexagonal cells. Players take turns to put one stone of their colour on any empty cell.", self.size),
            "Red wins by joining the left and right edges with a chain of touching red stones; Blue wins by joining the top and bottom edges. Corner cells belong to both edges. There is never a draw.".to_string(),
        ];
        if self.swap {
            lines.push("The swap: on the second player's first turn only, they may take the opening stone instead of placing one (it becomes theirs, mirrored across the long diagonal), and the first player moves again.".to_string());
        }
        lines.push(match self.first {
            Some(p) => format!("{} places first.", self.player_name(p)),
            None => "Who places first is decided by the game's seed.".to_string(),
        });
        lines.push(self.history());
        lines
    }

    fn history(&self) -> String {
        "Piet Hein invented Hex in 1942, and John Nash again in 1948.".to_string()
    }

    fn can_draw(&self) -> bool {
        false
    }

    /// `hex:N`: the swap and who starts change play, not the board.
    fn short_name(&self) -> String {
        format!("hex:{}", self.size)
    }

    fn symmetry_words(&self) -> Option<&'static str> {
        Some("turned half round")
    }
}
