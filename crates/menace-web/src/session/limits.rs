//! Bounds on what one session may hold and do.

/// Bounds on what one session may hold.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Games one training request may ask for.
    pub max_games: u64,
    /// Boxes a machine may open before training stops (memory).
    pub max_boxes: usize,
    /// Points kept per curve (older ones are thinned out).
    pub curve_points: usize,
    /// Games in the rolling win/draw/loss rates.
    pub window: u64,
    /// The most MCTS playouts a move an opponent may use (time).
    pub max_playouts: u32,
    /// The most positions a perfect opponent's solve may store (time and
    /// memory: about a second and 100 MB at a million).
    pub max_perfect_positions: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_games: 1_000_000,
            max_boxes: 50_000,
            curve_points: 1000,
            window: 20,
            max_playouts: 10_000,
            max_perfect_positions: 1_000_000,
        }
    }
}
