//! Which positions a machine faces: the box sets and their counts.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::InvalidValue;
use crate::game::{Game, Outcome, Player};
use crate::search::solver::TooLarge;

/// A rule for which positions get a box. All count only positions where the
/// game is not over and the machine is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoxSet {
    /// Every position the machine may face (Gardner's HER: even a box with one bead).
    All,
    /// Only positions with a choice (more than one legal move); forced moves are played without a box.
    Choices,
    /// Choices, less the hopeless ones: no immediate win, and every move lets
    /// the opponent win at once (Michie left these 17 out of MENACE).
    Michie,
}

impl BoxSet {
    /// Every box set, in order.
    pub const ALL: [BoxSet; 3] = [BoxSet::All, BoxSet::Choices, BoxSet::Michie];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            BoxSet::All => "all",
            BoxSet::Choices => "choices",
            BoxSet::Michie => "michie",
        }
    }

    /// Read a box set name.
    pub fn parse(text: &str) -> Result<BoxSet, InvalidValue> {
        BoxSet::ALL
            .into_iter()
            .find(|b| b.name() == text)
            .ok_or_else(|| InvalidValue::new("box set", text, "expected all, choices or michie"))
    }

    /// Whether a (not finished) position with these legal moves gets a box.
    pub fn includes<G: Game>(self, game: &G, pos: &G::Position, moves: &[G::Move]) -> bool {
        match self {
            BoxSet::All => !moves.is_empty(),
            BoxSet::Choices => moves.len() > 1,
            BoxSet::Michie => moves.len() > 1 && !hopeless(game, pos, moves),
        }
    }
}

/// The mover cannot win at once, and every move lets the opponent win at once.
fn hopeless<G: Game>(game: &G, pos: &G::Position, moves: &[G::Move]) -> bool {
    let me = game.turn(pos);
    let mut replies = Vec::new();
    moves.iter().all(|&mv| {
        let next = game.play(pos, mv);
        if game.outcome(&next) != Outcome::Ongoing {
            return false;
        }
        game.legal_moves(&next, &mut replies);
        replies
            .iter()
            .any(|&r| game.outcome(&game.play(&next, r)) == Outcome::Win(me.other()))
    })
}

/// One position a machine faces, found by enumeration.
#[derive(Clone, Debug)]
pub struct FoundBox<P> {
    /// The machine's move number there (1 = the game's first move).
    pub move_number: u32,
    /// The position (canonical when enumerated with symmetry).
    pub position: P,
}

/// Every position a machine playing `side` can face, reachable from the
/// start by any play, in the box set `set`; merged under symmetry when
/// `symmetry` is set. A position reachable at several move numbers is listed
/// once, at the first. Sorted by move number, then position.
pub fn enumerate<G: Game>(
    game: &G,
    side: Player,
    set: BoxSet,
    symmetry: bool,
    limit: usize,
) -> Result<Vec<FoundBox<G::Position>>, TooLarge> {
    let limit = crate::search::solver::memory_bounded::<G::Position>(limit);
    game.check_enumerable(limit)?;
    let mut found: FxHashMap<G::Position, u32> = FxHashMap::default();
    let mut seen: FxHashSet<G::Position> = FxHashSet::default();
    let mut layer: Vec<G::Position> = game.starts().into_iter().map(|(p, _)| p).collect();
    let mut moves = Vec::new();
    let mut ply = 0u32;
    while !layer.is_empty() {
        let mut next_layer = Vec::new();
        for pos in layer {
            game.legal_moves(&pos, &mut moves);
            if game.turn(&pos) == side && set.includes(game, &pos, &moves) {
                let key = if symmetry { game.canonical(&pos).0 } else { pos.clone() };
                found.entry(key).or_insert(ply + 1);
            }
            for &mv in &moves {
                let child = game.play(&pos, mv);
                if seen.insert(child.clone()) {
                    next_layer.push(child);
                }
            }
            if seen.len() > limit {
                return Err(TooLarge {
                    game: game.spec(),
                    limit,
                });
            }
        }
        layer = next_layer;
        ply += 1;
    }
    let mut boxes: Vec<FoundBox<G::Position>> = found
        .into_iter()
        .map(|(position, move_number)| FoundBox { move_number, position })
        .collect();
    boxes.sort_by(|a, b| (a.move_number, &a.position).cmp(&(b.move_number, &b.position)));
    Ok(boxes)
}

/// How many boxes a set needs at each move number: `(move number, count)`.
pub fn counts_by_move<P>(boxes: &[FoundBox<P>]) -> Vec<(u32, usize)> {
    let mut out: Vec<(u32, usize)> = Vec::new();
    for b in boxes {
        match out.last_mut() {
            Some((m, n)) if *m == b.move_number => *n += 1,
            _ => out.push((b.move_number, 1)),
        }
    }
    out
}
