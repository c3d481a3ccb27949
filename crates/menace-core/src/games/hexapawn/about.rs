//! Hexapawn in words: its rules as this board and pawn type make them, and
//! where it comes from.

use super::{Hexapawn, Pawn};
use crate::game::About;

/// Written numbers for the pawns of a rank, up to the widest board.
const NUMBERS: [&str; 17] = [
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen",
];

impl Hexapawn {
    /// Gardner's own game: 3×3 with chess pawns.
    fn is_gardners(&self) -> bool {
        (self.width, self.height, self.pawn) == (3, 3, Pawn::Normal)
    }
}

impl About for Hexapawn {
    fn title(&self) -> String {
        let mut title = "Hexapawn".to_string();
        if (self.width, self.height) != (3, 3) {
            title.push_str(&format!(" on {}×{}", self.width, self.height));
        }
        if self.pawn != Pawn::Normal {
            title.push_str(&format!(" with {}", self.pawn.title()));
        }
        title
    }

    fn rules(&self) -> Vec<String> {
        let pawns = NUMBERS.get(usize::from(self.width)).copied().unwrap_or("its");
        let board = if self.is_gardners() {
            "A board of three by three squares".to_string()
        } else {
            format!("A board of {} files and {} ranks", self.width, self.height)
        };
        vec![
            format!(
                "{board}. White's {pawns} pawn{} start on the bottom rank, Black's on the top rank. White moves first.",
                if self.width == 1 { "" } else { "s" }
            ),
            self.pawn.rule().to_string(),
            "You win by moving a pawn onto the far rank, or when the other side cannot move on its turn (no pawns left counts). There are no draws.".to_string(),
            self.history(),
        ]
    }

    fn history(&self) -> String {
        let gardner = "Martin Gardner described Hexapawn, and a machine of matchboxes that learns it, in Scientific American in March 1962";
        let mut said = if (self.width, self.height) == (3, 3) {
            gardner.to_string()
        } else {
            format!(
                "{gardner}; this is his game on a board of {}×{}",
                self.width, self.height
            )
        };
        if self.pawn != Pawn::Normal {
            said.push_str(&format!(
                ", played with {} as on Robert Price's Hexapawn page",
                self.pawn.title()
            ));
        }
        said.push('.');
        said
    }

    fn can_draw(&self) -> bool {
        false
    }

    /// The board's size (`3x3`), and the pawn type where it is not the
    /// chess pawn (`4x4,pawn=berolina`).
    fn short_name(&self) -> String {
        let size = format!("{}x{}", self.width, self.height);
        match self.pawn {
            Pawn::Normal => size,
            pawn => format!("{size},pawn={}", pawn.name()),
        }
    }

    fn symmetry_words(&self) -> Option<&'static str> {
        Some("mirrored left for right")
    }

    fn machine_history(&self) -> Option<&'static str> {
        self.is_gardners().then_some(
            "Martin Gardner's Hexapawn Educable Robot (Scientific American, March 1962): a machine of matchboxes that learns to play Hexapawn by losing beads.",
        )
    }
}
