//! The two players and how a game ends.

/// One of the two players. Each game names them in its own words
/// (`White`/`Black`, `X`/`O`, `Red`/`Blue`); `One` is the colour named first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Player {
    /// The player who moves first (White, X, Red).
    One,
    /// The player who moves second.
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
    /// The game goes on.
    Ongoing,
    /// This player has won.
    Win(Player),
    /// Drawn: no one won.
    Draw,
}

impl Outcome {
    /// True once the game is over.
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
}
