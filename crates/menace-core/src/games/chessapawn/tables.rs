//! The board's geometry, precomputed: a step in each direction from each
//! square, and the forward knight leaps.

use crate::game::Player;
use crate::games::chesslike::geometry::offset_table;
pub(super) use crate::games::chesslike::geometry::NONE;

// ---- Precomputed geometry ----
//
// Squares are indices `rank * 8 + file`. The move generator never does
// coordinate arithmetic or bounds checks at run time: a step is a lookup in
// `STEP`, a leap a lookup in `KNIGHT_LEAPS`, built once at compile time.

/// The eight directions as (file, rank) steps, indexed by the constants below.
pub(super) const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];
pub(super) const NORTH: usize = 0;
pub(super) const SOUTH: usize = 1;
pub(super) const EAST: usize = 2;
pub(super) const WEST: usize = 3;
pub(super) const NORTH_EAST: usize = 4;
pub(super) const NORTH_WEST: usize = 5;
pub(super) const SOUTH_EAST: usize = 6;
pub(super) const SOUTH_WEST: usize = 7;

/// The directions as a player sees them: straight forward, forward to the
/// lower file (toward a), forward to the higher file, indexed by player.
pub(super) const AHEAD: [usize; 2] = [NORTH, SOUTH];
pub(super) const AHEAD_LOW: [usize; 2] = [NORTH_WEST, SOUTH_WEST];
pub(super) const AHEAD_HIGH: [usize; 2] = [NORTH_EAST, SOUTH_EAST];

/// The direction opposite `d` (in `DIRECTIONS` the pairs are 0-1, 2-3, 4-7, 5-6).
pub(super) const fn opposite(d: usize) -> usize {
    match d {
        NORTH => SOUTH,
        SOUTH => NORTH,
        EAST => WEST,
        WEST => EAST,
        NORTH_EAST => SOUTH_WEST,
        SOUTH_WEST => NORTH_EAST,
        NORTH_WEST => SOUTH_EAST,
        _ => NORTH_WEST,
    }
}

/// The (file, rank) of each square `rank * 8 + file`.
const SQUARES: [(i32, i32); 64] = {
    let mut out = [(0, 0); 64];
    let mut s = 0;
    while s < 64 {
        out[s] = ((s % 8) as i32, (s / 8) as i32);
        s += 1;
    }
    out
};

/// `STEP[s][d]`: the square one step from `s` in direction `d`, or `NONE`
/// off the board. A slide walks it until `NONE` or an occupied square.
pub(super) const STEP: [[u8; 8]; 64] = offset_table(&SQUARES, &DIRECTIONS);

/// The forward knight leaps as (file, rank) offsets for each player, in the generator's order.
const LEAPS: [[(i32, i32); 4]; 2] = [
    [(1, 2), (-1, 2), (2, 1), (-2, 1)],
    [(1, -2), (-1, -2), (2, -1), (-2, -1)],
];

/// `KNIGHT_LEAPS[p][s]`: the squares a KnightPawn of player `p` leaps to
/// from `s`, in `LEAPS` order, `NONE` where a leap leaves the board.
pub(super) const KNIGHT_LEAPS: [[[u8; 4]; 64]; 2] =
    [offset_table(&SQUARES, &LEAPS[0]), offset_table(&SQUARES, &LEAPS[1])];

/// One rank forward for `p`, in rank numbers.
pub(super) fn forward(p: Player) -> i32 {
    if p == Player::One {
        1
    } else {
        -1
    }
}

/// The rank `p` moves toward.
pub(super) fn far_rank(p: Player) -> usize {
    if p == Player::One {
        7
    } else {
        0
    }
}
