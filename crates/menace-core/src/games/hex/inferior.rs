//! Inferior cell analysis for the Hex solver: dead cells and captured
//! pairs, found by a local test on each cell's ring of six neighbours, and
//! filled in (Björnsson, Hayward, Johanson and van Rijswijck, "Dead cell
//! analysis in Hex and the Shannon game", 2007).
//!
//! A cell is *useless* to a player X when no minimal X chain between X's
//! edges needs it: every way a chain could pass through it, entering from
//! one neighbour and leaving by another that is not next to the first, can
//! go round it instead along neighbours that are already X's (stones, or
//! X's own edge beyond the board). A cell useless to both players is
//! *dead*: its colour never matters, so it may be filled with either. An
//! empty pair of neighbouring cells is *captured* by X when, whichever of
//! the two the opponent takes, X's answer in the other leaves the
//! opponent's stone dead: X may be given both at once. Dead cells stay
//! dead as stones are added, so each fill-in keeps the value of the
//! position, and the solver works on the filled-in board.

use super::bitboard::Geometry;

/// A neighbour slot's colour as the local test sees it.
const EMPTY: u8 = 0;
const RED: u8 = 1;
const BLUE: u8 = 2;
/// Off the board at an acute corner, where two edges meet: usable by neither.
const WALL: u8 = 3;

/// The six neighbour directions (df, dr) in order round the cell, each
/// next to the one before and after it.
const RING: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// What is in one neighbour slot of a cell: another cell or an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Cell(u8),
    Edge(u8),
}

/// The neighbour rings of every cell of a board, and the dead-ring table.
pub(super) struct Inferior {
    rings: Vec<[Slot; 6]>,
    /// Whether a ring of six slot colours (two bits each) makes its cell dead.
    dead: Vec<bool>,
}

/// Whether a cell with this ring is useless to `x` (RED or BLUE).
fn useless(ring: [u8; 6], x: u8) -> bool {
    let usable = |c: u8| c == EMPTY || c == x;
    for i in 0..6 {
        for j in i + 2..6 {
            if i == 0 && j == 5 {
                continue; // next to each other round the ring
            }
            if !usable(ring[i]) || !usable(ring[j]) {
                continue;
            }
            let inside = (i + 1..j).all(|k| ring[k] == x);
            let outside = (j + 1..6).chain(0..i).all(|k| ring[k] == x);
            if !inside && !outside {
                return false;
            }
        }
    }
    true
}

fn code(ring: [u8; 6]) -> usize {
    ring.iter()
        .enumerate()
        .fold(0, |a, (k, &c)| a | usize::from(c) << (2 * k))
}

impl Inferior {
    pub fn new(g: &Geometry) -> Inferior {
        let n = g.n as i32;
        let mut rings = Vec::new();
        for r in 0..n {
            for f in 0..n {
                let mut ring = [Slot::Edge(0); 6];
                for (k, &(df, dr)) in RING.iter().enumerate() {
                    let (a, b) = (f + df, r + dr);
                    let off_file = !(0..n).contains(&a);
                    let off_rank = !(0..n).contains(&b);
                    ring[k] = match (off_file, off_rank) {
                        (false, false) => Slot::Cell((b * n + a) as u8),
                        (true, false) => Slot::Edge(RED),
                        (false, true) => Slot::Edge(BLUE),
                        (true, true) => Slot::Edge(WALL),
                    };
                }
                rings.push(ring);
            }
        }
        let dead = (0..1usize << 12)
            .map(|c| {
                let ring: [u8; 6] = std::array::from_fn(|k| (c >> (2 * k) & 3) as u8);
                useless(ring, RED) && useless(ring, BLUE)
            })
            .collect();
        Inferior { rings, dead }
    }

    /// The colours round cell `c` with Red's stones `red` and Blue's `blue`.
    fn ring(&self, c: usize, red: u64, blue: u64) -> [u8; 6] {
        self.rings[c].map(|s| match s {
            Slot::Edge(e) => e,
            Slot::Cell(i) if red >> i & 1 == 1 => RED,
            Slot::Cell(i) if blue >> i & 1 == 1 => BLUE,
            Slot::Cell(_) => EMPTY,
        })
    }

    fn is_dead(&self, c: usize, red: u64, blue: u64) -> bool {
        self.dead[code(self.ring(c, red, blue))]
    }

    /// The empty cells next to `c` where a stone of the opponent of `side`
    /// (0 Red, 1 Blue) would leave `c` dead: its *killers*. A cell with a
    /// killer d is *vulnerable* for `side`, and `side`'s move at d is at
    /// least as good as its move at `c` (play d as if it were `c`, and an
    /// answer at `c` as if it were at d: the only difference at the end is
    /// `c` and d swapped, and with the opponent on d, `c`'s colour does not
    /// matter).
    pub fn killers(&self, c: usize, stones: [u64; 2], side: usize) -> u64 {
        let [red, blue] = stones;
        let mut out = 0;
        for &slot in &self.rings[c] {
            let Slot::Cell(d) = slot else { continue };
            if (red | blue) >> d & 1 == 1 {
                continue;
            }
            let (r, b) = if side == 0 {
                (red, blue | 1 << d)
            } else {
                (red | 1 << d, blue)
            };
            if self.is_dead(c, r, b) {
                out |= 1 << d;
            }
        }
        out
    }

    /// Fill in dead cells (as Red: either colour would do) and captured
    /// pairs (as their captor) until none is left; returns the stones
    /// `[red, blue]` after.
    pub fn fill(&self, g: &Geometry, stones: [u64; 2]) -> [u64; 2] {
        let [mut red, mut blue] = stones;
        loop {
            let mut changed = false;
            let mut empty = g.full & !(red | blue);
            while empty != 0 {
                let c = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                if (red | blue) >> c & 1 == 1 {
                    continue; // filled as part of a pair meanwhile
                }
                if self.is_dead(c, red, blue) {
                    red |= 1 << c;
                    changed = true;
                    continue;
                }
                for &slot in &self.rings[c] {
                    let Slot::Cell(d) = slot else { continue };
                    let d = usize::from(d);
                    if d < c || (red | blue) >> d & 1 == 1 {
                        continue; // each pair once, from its lower cell
                    }
                    let pair = 1u64 << c | 1u64 << d;
                    // X captures {c, d}: with X on either, the other (the
                    // opponent's) is dead.
                    let with = |x_red: bool, own: u64| if x_red { (red | own, blue) } else { (red, blue | own) };
                    let captured = |x_red: bool| {
                        let (r1, b1) = with(x_red, 1 << d);
                        let (r2, b2) = with(x_red, 1 << c);
                        self.is_dead(c, r1, b1) && self.is_dead(d, r2, b2)
                    };
                    if captured(true) {
                        red |= pair;
                        changed = true;
                        break;
                    }
                    if captured(false) {
                        blue |= pair;
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                return [red, blue];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_walled_in_by_one_colour_is_dead_and_a_bridge_to_the_edge_is_captured() {
        let g = Geometry::new(4);
        let inf = Inferior::new(&g);
        // Blue on b1's ring but one slot: b2 (5), a2 (4), c1 (2), a1 (0)... take
        // b1 (1) surrounded by Blue a1, c1, a2, b2 and Blue's own edge below: dead.
        let blue = 1 << 0 | 1 << 2 | 1 << 4 | 1 << 5;
        assert!(inf.is_dead(1, 0, blue));
        // The empty board: nothing is dead.
        assert!((0..16).all(|c| !inf.is_dead(c, 0, 0)));
        // A Blue stone on b2 (5): its two cells on rank 1, b1 (1) and c1 (2),
        // form a bridge to Blue's edge, captured by Blue. Then, by hand: a1
        // (0) touches only Blue's b1 and edge, a2 and Red's edge, and a2 (4)
        // only Blue's b1 and b2, a1, a3 (which touches b2 and Red's edge
        // itself) and Red's edge: neither cell can help either side, so both
        // are dead and filled (with Red's colour, as dead cells are here).
        let [red, blue] = inf.fill(&g, [0, 1 << 5]);
        assert_eq!(blue, 1 << 5 | 1 << 1 | 1 << 2);
        assert_eq!(red, 1 << 0 | 1 << 4);
    }

    #[test]
    fn three_red_neighbours_in_a_row_make_the_cell_vulnerable() {
        // 5x5, c3 (12) with Red on d3 (13), c4 (17) and b4 (16): three
        // ring slots in a row. By hand: a fourth Red slot in a row (b3 or
        // d2) leaves c3 no use to Blue (only two empty slots, side by side)
        // nor to Red (any way through c3 goes round by Red stones): dead.
        // So for Blue, c3 is vulnerable to b3 (11) and d2 (8). For Red, a
        // Blue stone on c2 (7) kills it (Blue's way b3-c3-d2 goes round by
        // c2 itself), on b3 or d2 it does not (Red's way from b4 through c3
        // to c2 or from c4 to d2 would not go round).
        let g = Geometry::new(5);
        let inf = Inferior::new(&g);
        let stones = [1 << 13 | 1 << 17 | 1 << 16, 0];
        assert_eq!(inf.killers(12, stones, 1), 1 << 11 | 1 << 8);
        assert_eq!(inf.killers(12, stones, 0), 1 << 7);
        // On the empty board nothing is vulnerable.
        assert_eq!(inf.killers(12, [0, 0], 0), 0);
    }
}
