//! Virtual connections by H-search (Anshelevich, "A hierarchical approach to
//! computer Hex", 2002), as used to solve 7×7 Hex by Hayward, Björnsson,
//! Johanson, Kan, Po and van Rijswijck (2003).
//!
//! For one player, the *nodes* are their two edges, their groups of stones
//! and the empty cells. A group touching an edge is part of that edge's node.
//! Between two nodes x and y, with the endpoints taken as the player's:
//!
//! - a *full* (second-player) connection with carrier C, a set of empty
//!   cells not containing x or y: the player joins x to y inside C even if
//!   the opponent moves first;
//! - a *semi* (first-player) connection with carrier C (its key cell
//!   included): the player joins them by moving first, in C.
//!
//! Connections are built bottom-up from these rules:
//!
//! - **Base**: two adjacent nodes are fully connected with an empty carrier.
//! - **AND**: full connections x–z (carrier A) and z–y (carrier B) with A and
//!   B disjoint and neither containing x or y give x–y: *full* with carrier
//!   A ∪ B when z is a group of the player's stones, *semi* with carrier
//!   A ∪ B ∪ {z} and key z when z is an empty cell (the player must take it).
//! - **OR**: semi connections x–y whose carriers have an empty intersection
//!   give a full connection with the union as carrier: whatever the opponent
//!   plays, one of them is untouched and the player answers with its key.
//!
//! The edges are never the middle node z. Lists are bounded, so the search
//! finds only some connections; each one it finds is sound.

use super::bitboard::Geometry;

/// At most this many nodes: two edges plus one for each cell.
const MAX_NODES: usize = 66;
/// Full connections kept a pair of nodes.
const FULL_CAP: usize = 4;
/// Semi connections kept a pair of nodes.
const SEMI_CAP: usize = 12;

/// A short list of carriers, none containing another.
#[derive(Clone, Copy)]
struct Carriers<const K: usize> {
    len: usize,
    items: [u64; K],
}

impl<const K: usize> Carriers<K> {
    const EMPTY: Self = Carriers { len: 0, items: [0; K] };

    fn as_slice(&self) -> &[u64] {
        &self.items[..self.len]
    }

    /// Whether a carrier inside `c` is here already.
    fn has_subset_of(&self, c: u64) -> bool {
        self.as_slice().iter().any(|&d| d & !c == 0)
    }

    /// Add `c`, dropping the carriers it is inside of; false if full.
    fn insert(&mut self, c: u64) -> bool {
        let mut k = 0;
        for i in 0..self.len {
            let d = self.items[i];
            if c & !d != 0 {
                self.items[k] = d;
                k += 1;
            }
        }
        self.len = k;
        if self.len == K {
            return false;
        }
        self.items[self.len] = c;
        self.len += 1;
        true
    }
}

/// What H-search found between a player's two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct EdgeLink {
    /// A full connection: the player connects even moving second.
    pub full: bool,
    /// At least one semi connection: the player connects by moving first.
    pub semi: bool,
    /// The intersection of the semi connections' carriers (every cell when
    /// there are none): the opponent, to move, must play there or lose.
    pub must_play: u64,
}

/// The workspace of H-search, reused from position to position.
pub(super) struct HSearch {
    count: usize,
    /// The empty cell each node is (0 for an edge or a group).
    cell: [u64; MAX_NODES],
    /// Whether a node is a group of stones (a middle node that adds no key).
    group: [bool; MAX_NODES],
    /// The nodes each node has a full connection with.
    partners: [u128; MAX_NODES],
    full: Vec<Carriers<FULL_CAP>>,
    semi: Vec<Carriers<SEMI_CAP>>,
    touched: Vec<u16>,
    queue: Vec<(u8, u8, u64)>,
    found: Vec<u64>,
    /// Stop as soon as the edges have a semi connection.
    stop_at_semi: bool,
    done: bool,
}

fn pair(x: usize, y: usize) -> usize {
    if x < y {
        x * MAX_NODES + y
    } else {
        y * MAX_NODES + x
    }
}

impl HSearch {
    pub fn new() -> HSearch {
        HSearch {
            count: 0,
            cell: [0; MAX_NODES],
            group: [false; MAX_NODES],
            partners: [0; MAX_NODES],
            full: vec![Carriers::EMPTY; MAX_NODES * MAX_NODES],
            semi: vec![Carriers::EMPTY; MAX_NODES * MAX_NODES],
            touched: Vec::new(),
            queue: Vec::new(),
            found: Vec::new(),
            stop_at_semi: false,
            done: false,
        }
    }

    /// The connections between `side`'s edges, for the player with stones
    /// `mine` against `theirs`. With `stop_at_semi`, stops at the first semi
    /// or full connection (all the player to move needs to know it wins).
    pub fn edges(&mut self, g: &Geometry, mine: u64, theirs: u64, side: usize, stop_at_semi: bool) -> EdgeLink {
        self.reset();
        self.stop_at_semi = stop_at_semi;
        let empty = g.full & !(mine | theirs);
        let [e0, e1] = g.edges[side];
        let start = g.flood(mine & e0, mine);
        let end = g.flood(mine & e1, mine);
        if start & end != 0 {
            return EdgeLink {
                full: true,
                semi: true,
                must_play: 0,
            };
        }
        // Nodes: 0 and 1 the edges (with the groups touching them), then the
        // other groups, then the empty cells. `touch` is the empty cells
        // next to each.
        let mut touch = [0u64; MAX_NODES];
        touch[0] = (e0 | g.around(start)) & empty;
        touch[1] = (e1 | g.around(end)) & empty;
        self.count = 2;
        let mut rest = mine & !start & !end;
        while rest != 0 {
            let grp = g.flood(rest & rest.wrapping_neg(), mine);
            rest &= !grp;
            touch[self.count] = g.around(grp) & empty;
            self.group[self.count] = true;
            self.count += 1;
        }
        let mut node_of = [0u8; 64];
        let mut cells = empty;
        while cells != 0 {
            let c = cells & cells.wrapping_neg();
            cells &= cells - 1;
            node_of[c.trailing_zeros() as usize] = self.count as u8;
            self.cell[self.count] = c;
            touch[self.count] = g.around(c) & empty;
            self.count += 1;
        }
        // Base: adjacent nodes (every adjacency involves an empty cell).
        for (x, &t) in touch.iter().enumerate().take(self.count) {
            let mut t = t;
            while t != 0 {
                let y = node_of[t.trailing_zeros() as usize] as usize;
                t &= t - 1;
                if x < y || self.cell[x] == 0 {
                    self.add_full(x, y, 0);
                }
            }
        }
        // Oldest first: connections with small carriers are found before
        // those built from them, so the short lists keep the small ones.
        let mut head = 0;
        while head < self.queue.len() {
            let (x, y, a) = self.queue[head];
            head += 1;
            if self.done {
                break;
            }
            if !self.full[pair(x as usize, y as usize)].as_slice().contains(&a) {
                continue; // replaced by a smaller carrier meanwhile
            }
            self.and_rule(x as usize, y as usize, a);
            self.and_rule(y as usize, x as usize, a);
        }
        let full = self.full[pair(0, 1)].len > 0;
        let semis = self.semi[pair(0, 1)];
        let must_play = semis.as_slice().iter().fold(g.full, |m, &c| m & c);
        EdgeLink {
            full,
            semi: full || semis.len > 0,
            must_play: if full { 0 } else { must_play },
        }
    }

    fn reset(&mut self) {
        for &p in &self.touched {
            self.full[usize::from(p)].len = 0;
            self.semi[usize::from(p)].len = 0;
        }
        self.touched.clear();
        self.queue.clear();
        self.cell[..self.count].fill(0);
        self.group[..self.count].fill(false);
        self.partners[..self.count].fill(0);
        self.count = 0;
        self.done = false;
    }

    /// AND through z: the new full connection a–z (carrier `a_c`) with each
    /// full connection z–w.
    fn and_rule(&mut self, a: usize, z: usize, a_c: u64) {
        if z < 2 {
            return;
        }
        let mut ws = self.partners[z] & !(1u128 << a);
        while ws != 0 {
            let w = ws.trailing_zeros() as usize;
            ws &= ws - 1;
            let list = self.full[pair(z, w)];
            for &b_c in list.as_slice() {
                if a_c & b_c != 0 || self.cell[a] & b_c != 0 || self.cell[w] & a_c != 0 {
                    continue;
                }
                if self.group[z] {
                    self.add_full(a, w, a_c | b_c);
                } else {
                    self.add_semi(a, w, a_c | b_c | self.cell[z]);
                }
                if self.done {
                    return;
                }
            }
        }
    }

    fn add_full(&mut self, x: usize, y: usize, c: u64) {
        let p = pair(x, y);
        let list = &mut self.full[p];
        if list.has_subset_of(c) {
            return;
        }
        if list.len == 0 && self.semi[p].len == 0 {
            self.touched.push(p as u16);
        }
        if !self.full[p].insert(c) {
            return;
        }
        self.partners[x] |= 1 << y;
        self.partners[y] |= 1 << x;
        self.queue.push((x as u8, y as u8, c));
        if p == pair(0, 1) {
            self.done = true;
        }
    }

    fn add_semi(&mut self, x: usize, y: usize, c: u64) {
        let p = pair(x, y);
        if self.full[p].has_subset_of(c) || self.semi[p].has_subset_of(c) {
            return;
        }
        if self.full[p].len == 0 && self.semi[p].len == 0 {
            self.touched.push(p as u16);
        }
        if !self.semi[p].insert(c) {
            return;
        }
        if p == pair(0, 1) && self.stop_at_semi {
            self.done = true;
            return;
        }
        // OR: this semi connection with others whose carriers leave no common cell.
        self.found.clear();
        // `insert` put `c` last.
        let list = self.semi[p];
        or_rule(&list.items[..list.len - 1], 0, c, c, &mut self.found);
        let found = std::mem::take(&mut self.found);
        for &u in &found {
            self.add_full(x, y, u);
            if self.done {
                break;
            }
        }
        self.found = found;
    }
}

/// Extend the union and intersection of semi carriers with later ones from
/// `list`, recording each union whose intersection becomes empty.
fn or_rule(list: &[u64], from: usize, union: u64, inter: u64, found: &mut Vec<u64>) {
    for i in from..list.len() {
        let meet = inter & list[i];
        if meet == inter {
            continue; // no progress: every common cell is still common
        }
        let join = union | list[i];
        if meet == 0 {
            found.push(join);
        } else {
            or_rule(list, i + 1, join, meet, found);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bridge_to_the_edge_is_a_full_connection() {
        // 3×3, Red (side 0) on b2: b2 reaches the a-file by a2 or a3... and
        // the c-file by c1 or c2: a full connection.
        let g = Geometry::new(3);
        let mut h = HSearch::new();
        let link = h.edges(&g, 1 << 4, 0, 0, false);
        assert!(link.full);
        // The empty board: a semi connection (play b2) but no full one.
        let link = h.edges(&g, 0, 0, 0, false);
        assert!(link.semi && !link.full);
        assert!(link.must_play & (1 << 4) != 0);
    }
}
