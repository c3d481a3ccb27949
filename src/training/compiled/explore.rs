//! Every position reachable from a game's starts, found depth first and
//! numbered as found, with each position's children: the raw material of a
//! compiled table, before its ids are put children first.

use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::game::{Game, Outcome, Player};

/// The positions of a game found depth first, before renumbering. Over
/// positions are one a kind (how it ended, and who would move): nothing
/// else about them matters to a game or a value.
pub(super) struct Found<P> {
    /// The ids of positions not over, found by the position's hash: eight
    /// bytes an entry (the id and the high half of the hash, its tag)
    /// where a map from positions would hold the position again. The tag
    /// rehashes the entry as the table grows and turns most mismatches
    /// away, without reading the position.
    pub(super) ids: HashTable<(u32, u32)>,
    pub(super) over: FxHashMap<(Outcome, Player), u32>,
    /// Each position by its id here (`Table::build` takes them, to read
    /// in the new ids' order).
    pub(super) positions: Vec<P>,
    /// Per position: where its children start in `kids`, and how many.
    pub(super) kids_at: Vec<(u32, u32)>,
    pub(super) kids: Vec<u32>,
    pub(super) mark: Vec<Mark>,
    /// Positions in the order finished: children before parents.
    pub(super) finished: Vec<u32>,
    /// The id of each start.
    pub(super) roots: Vec<u32>,
    pub(super) limit: usize,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Mark {
    New,
    OnPath,
    Done,
}

impl<P> Found<P> {
    /// The children of the position numbered `old`, in legal-move order.
    pub(super) fn kids_of(&self, old: u32) -> &[u32] {
        let (at, len) = self.kids_at[old as usize];
        &self.kids[at as usize..(at + len) as usize]
    }
}

impl<P: Clone + Eq + std::hash::Hash> Found<P> {
    /// The id of `pos`, numbered if new; `None` past the limit.
    fn number<G: Game<Position = P>>(&mut self, game: &G, pos: P) -> Option<u32> {
        let outcome = game.outcome(&pos);
        let over = (outcome != Outcome::Ongoing).then(|| (outcome, game.turn(&pos)));
        let tag = (FxBuildHasher.hash_one(&pos) >> 32) as u32;
        let hash = spread(tag);
        let positions = &self.positions;
        let known = match over {
            Some(kind) => self.over.get(&kind).copied(),
            None => self
                .ids
                .find(hash, |&(id, t)| t == tag && positions[id as usize] == pos)
                .map(|&(id, _)| id),
        };
        if let Some(id) = known {
            return Some(id);
        }
        if self.positions.len() >= self.limit {
            return None;
        }
        let id = self.positions.len() as u32;
        match over {
            Some(kind) => {
                self.over.insert(kind, id);
            }
            None => {
                self.ids.insert_unique(hash, (id, tag), |&(_, t)| spread(t));
            }
        }
        self.positions.push(pos);
        self.kids_at.push((0, 0));
        self.mark.push(Mark::New);
        Some(id)
    }
}

/// A table hash from a position's 32-bit tag, every bit of it reaching
/// the high bits the table's control bytes take.
fn spread(tag: u32) -> u64 {
    u64::from(tag).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Every position reachable from the starts, depth first; `None` for a
/// game over the limit or with a cycle.
pub(super) fn explore<G: Game>(game: &G, starts: &[(G::Position, f64)], limit: usize) -> Option<Found<G::Position>> {
    let mut f = Found {
        ids: HashTable::new(),
        over: FxHashMap::default(),
        positions: Vec::new(),
        kids_at: Vec::new(),
        kids: Vec::new(),
        mark: Vec::new(),
        finished: Vec::new(),
        roots: Vec::new(),
        limit,
    };
    let mut moves = Vec::new();
    // Put `id` on the path, its children numbered.
    let enter = |f: &mut Found<G::Position>, id: u32, moves: &mut Vec<G::Move>| -> Option<()> {
        f.mark[id as usize] = Mark::OnPath;
        let pos = f.positions[id as usize].clone();
        let at = f.kids.len() as u32;
        if game.outcome(&pos) == Outcome::Ongoing {
            game.legal_moves(&pos, moves);
            for &mv in moves.iter() {
                let child = f.number(game, game.play(&pos, mv))?;
                f.kids.push(child);
            }
        }
        f.kids_at[id as usize] = (at, f.kids.len() as u32 - at);
        Some(())
    };
    // The path from the root: a position and the next child to visit. A
    // position is finished only once every child is; meeting one still on
    // the path is a cycle.
    let mut path: Vec<(u32, u32)> = Vec::new();
    for (start, _) in starts {
        let root = f.number(game, start.clone())?;
        f.roots.push(root);
        if f.mark[root as usize] != Mark::New {
            continue;
        }
        enter(&mut f, root, &mut moves)?;
        path.push((root, 0));
        while let Some(&(id, next)) = path.last() {
            let (at, len) = f.kids_at[id as usize];
            if next == len {
                f.mark[id as usize] = Mark::Done;
                f.finished.push(id);
                path.pop();
                continue;
            }
            path.last_mut().expect("not empty").1 += 1;
            let child = f.kids[(at + next) as usize];
            match f.mark[child as usize] {
                Mark::New => {
                    enter(&mut f, child, &mut moves)?;
                    path.push((child, 0));
                }
                Mark::OnPath => return None,
                Mark::Done => {}
            }
        }
    }
    Some(f)
}
