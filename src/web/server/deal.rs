//! The class is the machine: the machine's boxes dealt among the pupils,
//! so that when the game reaches a box its holder draws the bead, and
//! after the game the holders of the boxes that changed are told what to
//! do to them.
//!
//! A game draws from one box for each of the machine's moves, so a box for
//! the machine's first move is reached in every game, and the boxes for a
//! later move share the games between them. Each box weighs as much as the
//! games it is reached in, on that reckoning (one over the number of boxes
//! for its move), and the deal gives each box in turn, heaviest first, to
//! the pupil with the least work so far: every pupil has about as many
//! draws to make as any other.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// How a class plays: against the machine, or as it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClassMode {
    /// Pupils play the class machine in turn.
    #[default]
    Players,
    /// The class is the machine: each pupil holds some of its boxes.
    Machine,
}

impl ClassMode {
    /// Read a mode by its name, as the command line and the page say it.
    pub fn parse(text: &str) -> Result<ClassMode, String> {
        match text {
            "players" => Ok(ClassMode::Players),
            "machine" => Ok(ClassMode::Machine),
            _ => Err(format!("class mode '{text}': expected players or machine")),
        }
    }
}

/// The boxes as dealt: to whom each label goes, and what it was dealt for.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Deal {
    /// The machine's move of each box, by label (what the deal was made for).
    moves: Vec<u32>,
    /// The pupils' numbers, in order (what the deal was made for).
    pupils: Vec<u32>,
    /// The holder (pupil number) of each label, from label 1.
    holders: Vec<u32>,
}

impl Deal {
    /// Whether this deal was made for a machine of `boxes` boxes and these `pupils`.
    pub(super) fn fits(&self, boxes: usize, pupils: &[u32]) -> bool {
        self.moves.len() == boxes && self.pupils == pupils
    }

    /// Deal boxes (the machine's move of each, by label) among `pupils`
    /// (their numbers): see the module's words. No pupils, no holders.
    pub(super) fn new(moves: Vec<u32>, pupils: Vec<u32>) -> Deal {
        let mut holders = vec![0; if pupils.is_empty() { 0 } else { moves.len() }];
        if !pupils.is_empty() {
            // Whole numbers, so that equal loads are equal: a box for a move
            // with n boxes weighs SHARE / n.
            const SHARE: u64 = 720_720;
            let mut per_move = std::collections::HashMap::<u32, u64>::new();
            for m in &moves {
                *per_move.entry(*m).or_default() += 1;
            }
            let weight = |label: usize| SHARE / per_move[&moves[label]];
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by_key(|&l| (std::cmp::Reverse(weight(l)), l));
            // (work so far, boxes held, place in the class) of each pupil.
            let mut load: Vec<(u64, usize, usize)> = (0..pupils.len()).map(|k| (0, 0, k)).collect();
            for label in order {
                let least = load.iter_mut().min().expect("a pupil");
                least.0 += weight(label);
                least.1 += 1;
                holders[label] = pupils[least.2];
            }
        }
        Deal { moves, pupils, holders }
    }

    /// The holder (pupil number) of box `label` (from 1).
    pub(super) fn holder(&self, label: u32) -> Option<u32> {
        let k = usize::try_from(label).ok()?.checked_sub(1)?;
        self.holders.get(k).copied()
    }

    /// The labels pupil `number` holds, in order.
    pub(super) fn held_by(&self, number: u32) -> Vec<u32> {
        (1..)
            .zip(&self.holders)
            .filter(|(_, h)| **h == number)
            .map(|(label, _)| label)
            .collect()
    }
}

/// What to do to a box a game changed (one of the view's `last_changes`),
/// in the labels' numbers and colours: "Box 7: take 1 red bead out (red 2 → 1)."
pub(super) fn change_words(change: &Json) -> String {
    let before = change["before"].as_i64().unwrap_or(0);
    let after = change["after"].as_i64().unwrap_or(0);
    let colour = change["colour"].as_str().unwrap_or("");
    let n = (after - before).abs();
    let what = format!("{n} {colour} bead{}", if n == 1 { "" } else { "s" });
    let act = if after < before {
        format!("take {what} out")
    } else {
        format!("put {what} more in")
    };
    format!("Box {}: {act} ({colour} {before} → {after}).", change["box"])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HER's 19 boxes: 2 for her first move, 11 for her second, 6 for her third.
    fn her() -> Vec<u32> {
        [vec![1; 2], vec![2; 11], vec![3; 6]].concat()
    }

    #[test]
    fn every_box_goes_to_one_pupil_and_the_work_is_shared_evenly() {
        let deal = Deal::new(her(), vec![1, 2, 3]);
        let held: Vec<Vec<u32>> = [1, 2, 3].iter().map(|p| deal.held_by(*p)).collect();
        let mut all: Vec<u32> = held.concat();
        all.sort_unstable();
        assert_eq!(all, (1..=19).collect::<Vec<_>>());
        // Worked by hand: boxes 1 and 2 (1/2 of the games each) go to
        // pupils 1 and 2; pupil 3 takes three of the six third-move boxes
        // (1/6 each) to reach 1/2; the rest go round so that no pupil's
        // draws exceed another's by more than one box's.
        assert_eq!(deal.holder(1), Some(1));
        assert_eq!(deal.holder(2), Some(2));
        assert!([14, 15, 16].iter().all(|l| deal.holder(*l) == Some(3)));
        let work = |boxes: &[u32]| -> f64 {
            boxes
                .iter()
                .map(|l| match l {
                    1..=2 => 1.0 / 2.0,
                    3..=13 => 1.0 / 11.0,
                    _ => 1.0 / 6.0,
                })
                .sum()
        };
        let loads: Vec<f64> = held.iter().map(|h| work(h)).collect();
        let (lo, hi) = loads
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), w| (lo.min(*w), hi.max(*w)));
        assert!(hi - lo <= 1.0 / 6.0 + 1e-9, "{loads:?}");
        assert!(held.iter().all(|h| !h.is_empty()));
    }

    #[test]
    fn one_pupil_holds_every_box_and_none_holds_none() {
        let deal = Deal::new(her(), vec![7]);
        assert_eq!(deal.held_by(7).len(), 19);
        let empty = Deal::new(her(), vec![]);
        assert_eq!(empty.holder(1), None);
        assert!(empty.fits(19, &[]));
        assert!(!empty.fits(19, &[1]));
    }

    #[test]
    fn labels_out_of_range_have_no_holder() {
        let deal = Deal::new(her(), vec![1, 2]);
        assert_eq!(deal.holder(0), None);
        assert_eq!(deal.holder(20), None);
    }

    #[test]
    fn changes_are_told_as_what_to_do_to_the_real_box() {
        let taken = serde_json::json!({"box": 7, "colour": "red", "before": 2, "after": 1});
        assert_eq!(change_words(&taken), "Box 7: take 1 red bead out (red 2 → 1).");
        let added = serde_json::json!({"box": 3, "colour": "green", "before": 1, "after": 4});
        assert_eq!(change_words(&added), "Box 3: put 3 green beads more in (green 1 → 4).");
    }

    #[test]
    fn modes_are_read_by_name() {
        assert_eq!(ClassMode::parse("machine"), Ok(ClassMode::Machine));
        assert_eq!(ClassMode::parse("players"), Ok(ClassMode::Players));
        assert!(ClassMode::parse("robots")
            .unwrap_err()
            .contains("expected players or machine"));
    }
}
