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
    /// The lists are made on every core; the scores, which follow the
    /// order, on one.
    pub(super) fn make<P: Sync>(found: &Found<P>, node: &[Node], new_id: &[u32], over_score: Vec<i32>) -> Lists {
        let n = node.len();
        let children = Flat::par_rows(
            n,
            || (),
            |_, i, row| {
                row.extend(
                    found
                        .kids_of(found.finished[i as usize])
                        .iter()
                        .map(|&c| new_id[c as usize]),
                );
                Some(())
            },
        )
        .expect("a row is never refused");
        let mut score = over_score;
        for i in 0..n as u32 {
            if !matches!(node[i as usize], Node::Over(_)) {
                let best = children.get(i).iter().map(|&c| parent_score(score[c as usize])).max();
                score[i as usize] = best.unwrap_or(i32::MIN);
            }
        }
        let best = Flat::par_rows(
            n,
            || (),
            |_, i, row| {
                if node[i as usize] == Node::Opponent {
                    let top = score[i as usize];
                    let kids = children.get(i).iter().copied();
                    row.extend(kids.filter(|&c| parent_score(score[c as usize]) == top));
                }
                Some(())
            },
        )
        .expect("a row is never refused");
        Lists { children, best }
    }
}
