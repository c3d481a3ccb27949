//! The pawns a Hexapawn board can be played with: the chess pawn, and the
//! Berolina pawn with its "Plus" form (Piececlopedia, chessvariants.com).

use crate::error::InvalidValue;

/// How the pawns of a Hexapawn game move. None has a double step or
/// promotion: reaching the far rank wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pawn {
    /// Steps one square straight forward onto an empty square, captures
    /// one square diagonally forward.
    #[default]
    Normal,
    /// Steps one square diagonally forward onto an empty square, captures
    /// one square straight forward.
    Berolina,
    /// A Berolina pawn that may also capture one square sideways.
    BerolinaPlus,
}

impl Pawn {
    /// Every pawn type, in the order the table lists them.
    pub const ALL: [Pawn; 3] = [Pawn::Normal, Pawn::Berolina, Pawn::BerolinaPlus];

    /// Its name in a game spec (`pawn=berolina`) and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Pawn::Normal => "normal",
            Pawn::Berolina => "berolina",
            Pawn::BerolinaPlus => "berolina-plus",
        }
    }

    /// Its name for people: `normal pawns`, `Berolina pawns`, `Berolina Plus pawns`.
    pub fn title(self) -> &'static str {
        match self {
            Pawn::Normal => "normal pawns",
            Pawn::Berolina => "Berolina pawns",
            Pawn::BerolinaPlus => "Berolina Plus pawns",
        }
    }

    /// How it moves, in a sentence for people.
    pub fn rule(self) -> &'static str {
        match self {
            Pawn::Normal => "A pawn moves one square straight forward onto an empty square, or captures an enemy pawn one square diagonally forward. No double step, no en passant.",
            Pawn::Berolina => "A Berolina pawn steps one square diagonally forward onto an empty square and captures an enemy pawn one square straight forward.",
            Pawn::BerolinaPlus => "A Berolina Plus pawn steps one square diagonally forward onto an empty square, captures an enemy pawn one square straight forward, and may also capture one square sideways.",
        }
    }

    /// Read a pawn type by name (`normal`, `berolina`, `berolina-plus`).
    ///
    /// ```
    /// use menace_core::games::hexapawn::Pawn;
    /// assert_eq!(Pawn::parse("berolina-plus").unwrap(), Pawn::BerolinaPlus);
    /// assert!(Pawn::parse("knight").unwrap_err().to_string().contains("normal, berolina or berolina-plus"));
    /// ```
    pub fn parse(text: &str) -> Result<Pawn, InvalidValue> {
        let t = text.trim().to_ascii_lowercase();
        Pawn::ALL
            .into_iter()
            .find(|p| p.name() == t)
            .ok_or_else(|| InvalidValue::new("pawn", text, "expected normal, berolina or berolina-plus"))
    }
}
