//! The moves between a compiled table's positions: children and the
//! perfect player's choices among them.

use crate::search::solver::parent_score;

use super::explore::Found;
use super::flat::Flat;
use super::table::Node;

/// Children in legal-move order, in the new ids (`new_id`: children
/// before parents), made on every core.
pub(super) fn children<P: Sync>(found: &Found<P>, new_id: &[u32]) -> Flat {
    Flat::par_rows(
        new_id.len(),
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
    .expect("a row is never refused")
}

/// Where the opponent moves, the children the perfect player may choose,
/// scored as the solver scores them (given `over_score` where the game is
/// over, and worked out children first, on one core; the lists on every
/// core).
pub(super) fn best(children: &Flat, node: &[Node], over_score: Vec<i32>) -> Flat {
    let n = node.len();
    let mut score = over_score;
    for i in 0..n as u32 {
        if !matches!(node[i as usize], Node::Over(_)) {
            let best = children.get(i).iter().map(|&c| parent_score(score[c as usize])).max();
            score[i as usize] = best.unwrap_or(i32::MIN);
        }
    }
    Flat::par_rows(
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
    .expect("a row is never refused")
}
