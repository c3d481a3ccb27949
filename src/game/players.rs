//! The two players and how a game ends.

/// One of the two players. Each game names them in its own words
/// (`White`/`Black`, `X`/`O`, `Red`/`Blue`); `One` is the colour named first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Player {
    One,
    Two,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for `One`, 1 for `Two`: an index into per-player arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a position stands: still in play, won by a player, or drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Ongoing,
    Win(Player),
    Draw,
}

impl Outcome {
    /// True once the game is over.
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
}
