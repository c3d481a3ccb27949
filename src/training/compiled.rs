//! The compiled fast path for small games: every position reachable from
//! the start gets a dense id, and a game becomes walks through flat tables.
//!
//! A [`Table`] is built for one machine and one opponent (the trainer
//! builds another when either changes), for a game small enough (at most
//! [`COMPILED_LIMIT`] positions, no cycles), a machine whose boxes were all
//! made up front, and a random or perfect opponent. It holds, per position:
//! whether the game is over and for whom, whether the machine moves, the
//! children in legal-move order, and, where the machine moves, its box and
//! the child each bead colour leads to. A game then costs one bead draw or
//! one random index a ply and no hashing, position building or allocation.
//!
//! The random stream is spent exactly as on the general path (the same
//! draws, of the same types, in the same order), so a seed gives the same
//! games, the same beads and the same records on both: `tests/compiled.rs`
//! checks this over many seeds, settings and games.
//!
//! Exact evaluation is incremental: the values of every position against
//! random and perfect play are kept, and after a game only the positions
//! whose box changed, and their ancestors, are worked out again, in the
//! same order of additions as [`crate::training::exact::expected`], so the
//! results agree to the last bit.

use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use crate::game::{Game, Outcome};
use crate::machine::beads::Beads;
use crate::machine::settings::EmptyBox;
use crate::machine::{uniform, GameResult, Machine};
use crate::symmetry::Symmetry;
use crate::training::exact::{weigh_known, Expected, Odds};
use crate::training::opponent::{plays_best, Opponent, PerfectPlayer};

/// The most positions a compiled table holds; larger games take the general path.
pub const COMPILED_LIMIT: usize = 200_000;

/// No box here: the machine plays such positions uniformly at random.
const NO_BOX: u32 = u32::MAX;

/// A position's state in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    /// Over, with this result for the machine.
    Over(GameResult),
    /// The machine moves.
    Machine,
    /// The opponent moves.
    Opponent,
}

/// What the general path would also need to know to play the same game.
pub(crate) struct Table<G: Game> {
    game: G,
    /// Every position, by id.
    positions: Vec<G::Position>,
    node: Vec<Node>,
    /// Children in legal-move order: `children[child_at[i]..child_at[i + 1]]`.
    child_at: Vec<u32>,
    children: Vec<u32>,
    /// The machine's box where it moves, else [`NO_BOX`].
    box_of: Vec<u32>,
    /// The child each bead colour of the box leads to (symmetry applied):
    /// `colour_child[colour_at[i]..colour_at[i + 1]]`.
    colour_at: Vec<u32>,
    colour_child: Vec<u32>,
    /// The positions each box stands for (several under symmetry).
    box_positions: Vec<Vec<u32>>,
    /// The parents of each position, for incremental evaluation.
    parent_at: Vec<u32>,
    parents: Vec<u32>,
    /// Every position, children before parents.
    order: Vec<u32>,
    starts: Vec<(u32, f64)>,
    /// Start positions by value, for games whose start is drawn (Hex).
    start_ids: FxHashMap<G::Position, u32>,
    /// The perfect player's best children where the opponent moves, once asked for.
    best: Option<Flat>,
    exact: Option<ExactCache>,
}

/// Lists of ids, one list per position.
struct Flat {
    at: Vec<u32>,
    items: Vec<u32>,
}

/// Kept values for incremental exact evaluation.
struct ExactCache {
    /// The beads of every box when the values were last worked out.
    beads: Vec<Beads>,
    random: Vec<Expected>,
    perfect: Option<Vec<Expected>>,
    dirty: Vec<bool>,
}

/// How a compiled game ended.
pub(crate) struct Played {
    pub result: GameResult,
    pub plies: u32,
    pub start_seed: Option<u64>,
}

impl<G: Game> Table<G> {
    /// The table for this machine and opponent, or `None` where the general
    /// path must play: a large or cyclic game, boxes opened on first visit,
    /// or an opponent other than random or perfect.
    pub(crate) fn build(machine: &Machine<G>, opponent: &mut Opponent<G>) -> Option<Table<G>> {
        if !machine.is_enumerated() || !matches!(opponent, Opponent::Random | Opponent::Perfect { .. }) {
            return None;
        }
        let game = machine.game();
        if game.exceeds(COMPILED_LIMIT) {
            return None;
        }
        let side = machine.side();
        let starts = game.starts();
        let mut ids: FxHashMap<G::Position, u32> = FxHashMap::default();
        let mut positions: Vec<G::Position> = Vec::new();
        let mut child_lists: Vec<Vec<u32>> = Vec::new();
        let mut order = Vec::new();
        // Depth-first from each start, numbering positions as they are met.
        // A position is finished (pushed to `order`) only once every child
        // is: children come before parents, which incremental evaluation
        // needs. Meeting a position still on the path is a cycle.
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            OnPath,
            Done,
        }
        let mut marks: Vec<Mark> = Vec::new();
        let mut moves = Vec::new();
        // Number `pos` if it is new; its id.
        let mut number = |pos: G::Position, positions: &mut Vec<G::Position>, marks: &mut Vec<Mark>| {
            if let Some(&id) = ids.get(&pos) {
                return Some(id);
            }
            if positions.len() >= COMPILED_LIMIT {
                return None;
            }
            let id = positions.len() as u32;
            ids.insert(pos.clone(), id);
            positions.push(pos);
            marks.push(Mark::New);
            Some(id)
        };
        for (start, _) in &starts {
            let root = number(start.clone(), &mut positions, &mut marks)?;
            if marks[root as usize] != Mark::New {
                continue;
            }
            // The path from the root: a position and the next child to visit.
            let mut path: Vec<(u32, usize)> = Vec::new();
            // Put `id` on the path; its children, numbered.
            let mut enter = |id: u32, positions: &mut Vec<G::Position>, marks: &mut Vec<Mark>| {
                marks[id as usize] = Mark::OnPath;
                let pos = positions[id as usize].clone();
                let mut kids = Vec::new();
                if game.outcome(&pos) == Outcome::Ongoing {
                    game.legal_moves(&pos, &mut moves);
                    for &mv in &moves {
                        kids.push(number(game.play(&pos, mv), positions, marks)?);
                    }
                }
                Some(kids)
            };
            let mut visit = |id: u32,
                             path: &mut Vec<(u32, usize)>,
                             positions: &mut Vec<G::Position>,
                             marks: &mut Vec<Mark>,
                             child_lists: &mut Vec<Vec<u32>>| {
                let kids = enter(id, positions, marks)?;
                child_lists.resize(positions.len(), Vec::new());
                child_lists[id as usize] = kids;
                path.push((id, 0));
                Some(())
            };
            visit(root, &mut path, &mut positions, &mut marks, &mut child_lists)?;
            while let Some(&(id, next)) = path.last() {
                match child_lists[id as usize].get(next).copied() {
                    Some(child) => {
                        path.last_mut().expect("not empty").1 += 1;
                        match marks[child as usize] {
                            Mark::New => visit(child, &mut path, &mut positions, &mut marks, &mut child_lists)?,
                            Mark::OnPath => return None, // a cycle: not a tree of plies
                            Mark::Done => {}
                        }
                    }
                    None => {
                        marks[id as usize] = Mark::Done;
                        order.push(id);
                        path.pop();
                    }
                }
            }
        }
        child_lists.resize(positions.len(), Vec::new());
        let n = positions.len();
        let mut node = Vec::with_capacity(n);
        let mut box_of = vec![NO_BOX; n];
        let mut colour_at = Vec::with_capacity(n + 1);
        let mut colour_child = Vec::new();
        let mut box_positions = vec![Vec::new(); machine.boxes().len()];
        colour_at.push(0);
        for (i, pos) in positions.iter().enumerate() {
            let outcome = game.outcome(pos);
            node.push(if outcome != Outcome::Ongoing {
                Node::Over(GameResult::for_player(outcome, side))
            } else if game.turn(pos) == side {
                Node::Machine
            } else {
                Node::Opponent
            });
            if node[i] == Node::Machine {
                if let Some((b, sym)) = machine.box_for(pos) {
                    box_of[i] = b;
                    box_positions[b as usize].push(i as u32);
                    let inverse = sym.inverse();
                    for &stored in &machine.boxes()[b as usize].moves {
                        let child = game.play(pos, game.map_move(stored, inverse));
                        colour_child.push(*ids.get(&child)?);
                    }
                }
            }
            colour_at.push(colour_child.len() as u32);
        }
        let children = Flat::from_lists(&child_lists);
        let mut parent_lists = vec![Vec::new(); n];
        for (p, kids) in child_lists.iter().enumerate() {
            for &c in kids {
                if parent_lists[c as usize].last() != Some(&(p as u32)) {
                    parent_lists[c as usize].push(p as u32);
                }
            }
        }
        let parents = Flat::from_lists(&parent_lists);
        let mut table = Table {
            game: game.clone(),
            positions,
            node,
            child_at: children.at,
            children: children.items,
            box_of,
            colour_at,
            colour_child,
            box_positions,
            parent_at: parents.at,
            parents: parents.items,
            order,
            starts: starts.iter().map(|(p, w)| (ids[p], *w)).collect(),
            start_ids: FxHashMap::default(),
            best: None,
            exact: None,
        };
        if starts.len() > 1 {
            table.start_ids = starts.into_iter().map(|(p, _)| (p.clone(), ids[&p])).collect();
        }
        if let Opponent::Perfect { player, .. } = opponent {
            table.best = Some(table.best_children(player));
        }
        Some(table)
    }

    fn children_of(&self, i: u32) -> &[u32] {
        &self.children[self.child_at[i as usize] as usize..self.child_at[i as usize + 1] as usize]
    }

    fn colours_of(&self, i: u32) -> &[u32] {
        &self.colour_child[self.colour_at[i as usize] as usize..self.colour_at[i as usize + 1] as usize]
    }

    /// Play one game, drawing from `rng` as [`crate::training::driver::Match`]
    /// would; the machine's draws are left in its history for reinforcement.
    pub(crate) fn play(&self, machine: &mut Machine<G>, opponent: &Opponent<G>, rng: &mut ChaCha8Rng) -> Played {
        let (mut at, start_seed) = if self.start_ids.is_empty() {
            (self.starts[0].0, None)
        } else {
            let seed = rng.next_u64();
            (self.start_ids[&machine.game().seeded_start(seed)], Some(seed))
        };
        // The chance of a perfect move, where the opponent is the perfect player.
        let perfect = match (opponent, &self.best) {
            // Opaque, so that the chance is read only from a perfect
            // opponent: hoisted, the multiplication by it ran on whatever
            // bytes a random opponent holds there, and a denormal float
            // there cost a slow microcode assist every game.
            (Opponent::Perfect { p, .. }, Some(best)) => Some((std::hint::black_box(*p), best)),
            _ => None,
        };
        let mut plies = 0;
        let result = loop {
            at = match self.node[at as usize] {
                Node::Over(result) => break result,
                Node::Machine => {
                    let b = self.box_of[at as usize];
                    if b == NO_BOX {
                        uniform(self.children_of(at), rng)
                    } else {
                        match machine.draw(b, rng) {
                            Some(colour) => self.colours_of(at)[colour as usize],
                            None => break GameResult::Loss,
                        }
                    }
                }
                Node::Opponent => match perfect {
                    Some((p, best)) if plays_best(p, rng) => uniform(best.get(at), rng),
                    _ => uniform(self.children_of(at), rng),
                },
            };
            plies += 1;
        };
        Played {
            result,
            plies,
            start_seed,
        }
    }

    /// The machine's exact expected results against random play and, when
    /// a perfect player is given, against perfect play. Only positions whose
    /// box changed since the last call, and their ancestors, are worked out
    /// again; each value is summed in the order
    /// [`crate::training::exact::expected`] uses, so the two agree exactly.
    pub(crate) fn exact(
        &mut self,
        machine: &Machine<G>,
        perfect: Option<&mut PerfectPlayer<G>>,
    ) -> (Expected, Option<Expected>) {
        let n = self.node.len();
        let want_perfect = perfect.is_some();
        if let Some(player) = perfect {
            if self.best.is_none() {
                self.best = Some(self.best_children(player));
            }
        }
        let mut cache = match self.exact.take() {
            None => ExactCache {
                beads: machine.boxes().iter().map(|b| b.beads.clone()).collect(),
                random: vec![Expected::default(); n],
                perfect: None,
                dirty: vec![true; n],
            },
            Some(mut cache) => {
                for (b, (kept, now)) in cache.beads.iter_mut().zip(machine.boxes()).enumerate() {
                    if *kept != now.beads {
                        kept.clone_from(&now.beads);
                        for &i in &self.box_positions[b] {
                            self.mark(&mut cache.dirty, i);
                        }
                    }
                }
                cache
            }
        };
        if want_perfect && cache.perfect.is_none() {
            cache.perfect = Some(vec![Expected::default(); n]);
            cache.dirty.iter_mut().for_each(|d| *d = true);
        }
        let empty_box = machine.settings().empty_box;
        for &i in &self.order {
            if !std::mem::take(&mut cache.dirty[i as usize]) {
                continue;
            }
            cache.random[i as usize] = self.value(machine, i, empty_box, &cache.random, None);
            if let (Some(values), Some(best)) = (cache.perfect.as_mut(), &self.best) {
                values[i as usize] = self.value(machine, i, empty_box, values, Some(best));
            }
        }
        let total = |values: &[Expected]| {
            let mut e = Expected::default();
            for &(s, w) in &self.starts {
                e.add_scaled(values[s as usize], w);
            }
            e
        };
        let out = (
            total(&cache.random),
            cache.perfect.as_deref().filter(|_| want_perfect).map(total),
        );
        self.exact = Some(cache);
        out
    }

    /// Mark a position and every position above it as needing new values.
    fn mark(&self, dirty: &mut [bool], i: u32) {
        let mut stack = vec![i];
        while let Some(i) = stack.pop() {
            if !std::mem::replace(&mut dirty[i as usize], true) {
                let ps = &self.parents[self.parent_at[i as usize] as usize..self.parent_at[i as usize + 1] as usize];
                stack.extend_from_slice(ps);
            }
        }
    }

    /// The expected result from position `i`, its children's values known:
    /// the machine follows its beads, the opponent plays uniformly among
    /// all moves, or among the `best` ones where given (the rule of
    /// [`crate::training::exact::weigh`], as on the general path).
    fn value(
        &self,
        machine: &Machine<G>,
        i: u32,
        empty_box: EmptyBox,
        values: &[Expected],
        best: Option<&Flat>,
    ) -> Expected {
        let known = |c: u32| values[c as usize];
        match self.node[i as usize] {
            Node::Over(result) => Expected::certain(result),
            Node::Opponent => {
                let kids = best.map_or(self.children_of(i), |best| best.get(i));
                weigh_known(Odds::Uniform, kids, known).unwrap_or_else(|| Expected::certain(GameResult::Win))
            }
            Node::Machine => {
                let b = self.box_of[i as usize];
                let weighed = if b == NO_BOX {
                    weigh_known(Odds::Uniform, self.children_of(i), known)
                } else {
                    let beads = &machine.boxes()[b as usize].beads;
                    weigh_known(Odds::Beads(beads, empty_box), self.colours_of(i), known)
                };
                weighed.unwrap_or_else(|| Expected::certain(GameResult::Loss))
            }
        }
    }

    /// The perfect player's best children of every position where the opponent moves.
    fn best_children(&self, player: &mut PerfectPlayer<G>) -> Flat {
        let lists: Vec<Vec<u32>> = (0..self.node.len() as u32)
            .map(|i| {
                if self.node[i as usize] != Node::Opponent {
                    return Vec::new();
                }
                let pos = &self.positions[i as usize];
                let kids = self.children_of(i);
                player
                    .best_moves(pos)
                    .iter()
                    .map(|&mv| {
                        let child = self.game.play(pos, mv);
                        *kids
                            .iter()
                            .find(|&&c| self.positions[c as usize] == child)
                            .expect("a best move is a legal move")
                    })
                    .collect()
            })
            .collect();
        Flat::from_lists(&lists)
    }
}

impl Flat {
    fn from_lists(lists: &[Vec<u32>]) -> Flat {
        let mut at = Vec::with_capacity(lists.len() + 1);
        let mut items = Vec::new();
        at.push(0);
        for l in lists {
            items.extend_from_slice(l);
            at.push(items.len() as u32);
        }
        Flat { at, items }
    }

    fn get(&self, i: u32) -> &[u32] {
        &self.items[self.at[i as usize] as usize..self.at[i as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::games::hexapawn::Hexapawn;
    use crate::games::tictactoe::TicTacToe;
    use crate::machine::settings::MachineSettings;

    /// Every position comes once in `order`, after all of its children:
    /// incremental evaluation relies on it.
    fn children_come_first<G: Game>(game: G) {
        let machine = Machine::new(game, Player::One, MachineSettings::gardner()).unwrap();
        let table = Table::build(&machine, &mut Opponent::Random).expect("small enough to compile");
        let mut at = vec![usize::MAX; table.node.len()];
        for (k, &i) in table.order.iter().enumerate() {
            assert_eq!(at[i as usize], usize::MAX, "position {i} twice");
            at[i as usize] = k;
        }
        for i in 0..table.node.len() as u32 {
            assert_ne!(at[i as usize], usize::MAX, "position {i} missing");
            for &c in table.children_of(i) {
                assert!(at[c as usize] < at[i as usize], "child {c} after its parent {i}");
            }
        }
    }

    #[test]
    fn the_order_puts_children_before_parents() {
        children_come_first(TicTacToe);
        // Boards where captures let one position be reached in different numbers of plies.
        for (w, h) in [(3, 3), (4, 4), (3, 5), (4, 3), (3, 6)] {
            children_come_first(Hexapawn::new(w, h).unwrap());
        }
    }
}
