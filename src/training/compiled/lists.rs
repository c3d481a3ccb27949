//! The moves between a compiled table's positions: children and the
//! perfect player's choices among them.

use crate::search::solver::parent_score;

use super::explore::Found;
use super::flat::Flat;
use super::table::Node;

/// The moves between the table's positions.
pub(super) struct Lists {
    /// Children in legal-move order.
    pub(super) children: Flat,
    /// Where the opponent moves, the children the perfect player may choose.
    pub(super) best: Flat,
}

impl Lists {
    /// The lists in the new ids (`new_id`: children before parents), the
    /// perfect player's choices scored as the solver scores them (given
    /// `over_score` where the game is over, and worked out children first).
    pub(super) fn make<P>(found: &Found<P>, node: &[Node], new_id: &[u32], over_score: Vec<i32>) -> Lists {
        let n = node.len();
        let mut children = Flat::with_capacity(n, found.kids.len());
        let mut score = over_score;
        for (i, &old) in found.finished.iter().enumerate() {
            children.push(found.kids_of(old).iter().map(|&c| new_id[c as usize]));
            if !matches!(node[i], Node::Over(_)) {
                let s = children
                    .get(i as u32)
                    .iter()
                    .map(|&c| parent_score(score[c as usize]))
                    .max();
                score[i] = s.unwrap_or(i32::MIN);
            }
        }
        let mut best = Flat::with_capacity(n, 0);
        for i in 0..n as u32 {
            let kids = children.get(i);
            if node[i as usize] == Node::Opponent {
                let top = score[i as usize];
                best.push(kids.iter().copied().filter(|&c| parent_score(score[c as usize]) == top));
            } else {
                best.push(std::iter::empty());
            }
        }
        Lists { children, best }
    }
}
