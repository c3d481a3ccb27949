//! The compiled fast path: every position reachable from the start gets a
//! compact id, and a game becomes walks through flat tables.
//!
//! A `Table` is built for one machine and one opponent (the trainer
//! builds another when either changes), for a game of at most
//! [`COMPILED_LIMIT`] positions without cycles (Hexapawn 5×5, 969 170
//! positions, fits), and a random or perfect opponent. It holds, per
//! position: whether the game is over and for whom, whether the machine
//! moves, the children in legal-move order, the perfect player's best
//! children, and, where the machine moves with a box, the box's class (its
//! key) and the child each bead colour leads to. A game then costs one bead
//! draw or one random index a ply and no hashing, position building or
//! allocation. Ids are numbered children before parents: a child's id is
//! below every parent's.
//!
//! Boxes opened on first visit are opened here too, when a game first
//! reaches their class, at the same moment and with the same move number
//! as on the general path, so the machine's boxes come in the same order.
//!
//! The random stream is spent exactly as on the general path (the same
//! draws, of the same types, in the same order), so a seed gives the same
//! games, the same beads and the same records on both: `tests/compiled.rs`
//! checks this over many seeds, settings and games.
//!
//! Exact evaluation is incremental: the values of every position against
//! random and perfect play are kept, and afterwards only the positions of
//! the boxes drawn from since are worked out again, then their parents
//! where a value changed, in the same order of additions as
//! [`crate::training::exact::expected`], so the results agree to the last
//! bit. The perfect player's choices come from the table itself (values
//! with distance, worked out children first, by the rule of
//! [`crate::search::solver::Solver`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hashbrown::HashTable;
use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::hash::BuildHasher;

use crate::game::{Game, Outcome, Player};
use crate::machine::beads::Beads;
use crate::machine::boxes::BoxSet;
use crate::machine::settings::EmptyBox;
use crate::machine::{bead_colours, uniform, Draw, GameResult, Machine};
use crate::search::solver::{memory_bounded, parent_score, Value};
use crate::symmetry::Symmetry;
use crate::training::exact::{weigh_known, Expected, Odds, EXACT_LIMIT};
use crate::training::opponent::{plays_best, Opponent, PerfectPlayer, PERFECT_LIMIT};

/// The most positions a compiled table holds; larger games take the general
/// path. The exact evaluation's limit: every game compiled can be evaluated
/// exactly on the general path too, so both give the same records.
pub const COMPILED_LIMIT: usize = EXACT_LIMIT;

/// No class, or no box yet.
const NONE: u32 = u32::MAX;

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

/// Lists of ids, one list per position (or class).
struct Flat {
    at: Vec<u32>,
    items: Vec<u32>,
}

/// What the general path would also need to know to play the same game.
pub(crate) struct Table<G: Game> {
    node: Vec<Node>,
    /// Children in legal-move order.
    children: Flat,
    /// The children the perfect player may choose where the opponent moves.
    best: Flat,
    parents: Flat,
    /// The class (the box key) of each position where the machine moves
    /// with a box, else [`NONE`]: played uniformly at random.
    class_of: Vec<u32>,
    /// The child each bead colour leads to (symmetry applied), where the
    /// position has a class.
    colours: Flat,
    /// Per class: the machine's box, or [`NONE`] where it is not opened yet.
    class_box: Vec<u32>,
    /// Per class: one of its positions, to open its box from.
    class_position: Vec<G::Position>,
    /// Per class: its positions (several under symmetry).
    members: Flat,
    /// Per box of the machine: its class, or [`NONE`].
    box_class: Vec<u32>,
    /// The beads the general path's evaluation gives a box not opened yet,
    /// by the number of colours (see [`Machine::box_to_draw`]).
    fresh: Vec<Beads>,
    starts: Vec<(u32, f64)>,
    /// Start positions by value, for games whose start is drawn (Hex).
    start_ids: FxHashMap<G::Position, u32>,
    exact: Option<ExactCache>,
}

/// Kept values for incremental exact evaluation.
struct ExactCache {
    random: Vec<Expected>,
    perfect: Vec<Expected>,
    /// Boxes drawn from since the values were worked out, each once.
    touched: Vec<u32>,
    /// Per box: whether it is in `touched`.
    is_touched: Vec<bool>,
    /// Positions waiting in the queue.
    queued: Vec<bool>,
}

impl ExactCache {
    /// Note that box `b`'s beads may have changed.
    #[inline]
    fn touch(&mut self, b: u32) {
        let b = b as usize;
        if b >= self.is_touched.len() {
            self.is_touched.resize(b + 1, false);
        }
        if !std::mem::replace(&mut self.is_touched[b], true) {
            self.touched.push(b as u32);
        }
    }
}

/// How a compiled game ended.
pub(crate) struct Played {
    pub result: GameResult,
    pub plies: u32,
    pub start_seed: Option<u64>,
}

/// The positions of a game found depth first, before renumbering. Over
/// positions are one a kind (how it ended, and who would move): nothing
/// else about them matters to a game or a value.
struct Found<P> {
    /// The ids of positions not over, found by the position's hash: eight
    /// bytes an entry (the id and the high half of the hash, its tag)
    /// where a map from positions would hold the position again. The tag
    /// rehashes the entry as the table grows and turns most mismatches
    /// away, without reading the position.
    ids: HashTable<(u32, u32)>,
    over: FxHashMap<(Outcome, Player), u32>,
    /// Each position by its id here (`Table::build` takes them, to read
    /// in the new ids' order).
    positions: Vec<P>,
    /// Per position: where its children start in `kids`, and how many.
    kids_at: Vec<(u32, u32)>,
    kids: Vec<u32>,
    mark: Vec<Mark>,
    /// Positions in the order finished: children before parents.
    finished: Vec<u32>,
    /// The id of each start.
    roots: Vec<u32>,
    limit: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    New,
    OnPath,
    Done,
}

impl<P> Found<P> {
    /// The children of the position numbered `old`, in legal-move order.
    fn kids_of(&self, old: u32) -> &[u32] {
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
fn explore<G: Game>(game: &G, starts: &[(G::Position, f64)], limit: usize) -> Option<Found<G::Position>> {
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

impl<G: Game> Table<G> {
    /// The table for this machine and opponent, or `None` where the general
    /// path must play: a large or cyclic game, or an opponent other than
    /// random or perfect (from the whole game solved).
    pub(crate) fn build(machine: &Machine<G>, opponent: &Opponent<G>) -> Option<Table<G>> {
        match opponent {
            Opponent::Random => {}
            Opponent::Perfect { player, .. } if player.is_exhaustive() => {}
            _ => return None,
        }
        let game = machine.game();
        let limit = memory_bounded::<G::Position>(COMPILED_LIMIT);
        if game.exceeds(limit) {
            return None;
        }
        let side = machine.side();
        let starts = game.starts();
        let mut found = explore(game, &starts, limit)?;
        // The positions by value are not needed from here: their memory back before the tables are made.
        found.ids = HashTable::new();
        found.over = FxHashMap::default();
        let n = found.positions.len();
        // Renumber in the order finished: children before parents.
        let mut new_id = vec![0u32; n];
        for (k, &old) in found.finished.iter().enumerate() {
            new_id[old as usize] = k as u32;
        }
        // The positions in the new ids, read in that order from here on.
        let by_old = std::mem::take(&mut found.positions);
        let positions: Vec<G::Position> = found.finished.iter().map(|&old| by_old[old as usize].clone()).collect();
        drop(by_old);
        // Each position's state, and the solver's score of those over.
        let mut node = Vec::with_capacity(n);
        let mut over_score = vec![i32::MIN; n];
        for (i, pos) in positions.iter().enumerate() {
            let outcome = game.outcome(pos);
            node.push(match Value::of_outcome(game, pos, outcome) {
                Some(v) => {
                    over_score[i] = v.score();
                    Node::Over(GameResult::for_player(outcome, side))
                }
                None if game.turn(pos) == side => Node::Machine,
                None => Node::Opponent,
            });
        }
        // The moves and the machine's boxes apart, at the same time.
        let (lists, classes) = rayon::join(
            || Lists::make(&found, &node, &new_id, over_score),
            || Classes::find(machine, &found, &positions, &node, &new_id),
        );
        let Lists {
            children,
            best,
            parents,
        } = lists;
        let classes = classes?;
        let start_id = |k: usize| new_id[found.roots[k] as usize];
        let start_ids = if starts.len() > 1 {
            (0..starts.len()).map(|k| (starts[k].0.clone(), start_id(k))).collect()
        } else {
            FxHashMap::default()
        };
        let starts = (0..starts.len()).map(|k| (start_id(k), starts[k].1)).collect();
        let settings = machine.settings();
        let most_colours = classes.colours.at.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let fresh = (0..=most_colours as usize)
            .map(|k| Beads::filled(settings.beads.beads(1), k))
            .collect();
        Some(Table {
            node,
            children,
            best,
            parents,
            class_of: classes.class_of,
            colours: classes.colours,
            class_box: classes.class_box,
            class_position: classes.position,
            members: classes.members,
            box_class: classes.box_class,
            fresh,
            starts,
            start_ids,
            exact: None,
        })
    }

    /// The table against a perfect opponent that plays with chance `p`,
    /// and that opponent, made without solving the game first: the table
    /// works out the perfect player's choices itself, so the whole-game
    /// solve [`PerfectPlayer::new`] would do (half a second on Hexapawn
    /// 5×5) is put off until a game is played another way. `None` where
    /// the perfect opponent would not be the exhaustive solver, or the game
    /// does not compile: then make it as usual.
    ///
    /// The solve cannot run out once put off: it stores the canonical
    /// positions not over reachable from the start, no more than the
    /// table's positions, which are bounded by [`COMPILED_LIMIT`], below the
    /// solve's [`PERFECT_LIMIT`].
    pub(crate) fn against_perfect(machine: &Machine<G>, p: f64) -> Option<(Opponent<G>, Table<G>)> {
        const { assert!(COMPILED_LIMIT <= PERFECT_LIMIT) };
        let game = machine.game();
        // As `PerfectPlayer::new` decides: the position solver where the estimate says so.
        if game.expects_to_exceed(PERFECT_LIMIT) || game.exceeds(PERFECT_LIMIT) {
            return None;
        }
        let opponent = Opponent::Perfect {
            p,
            player: Box::new(PerfectPlayer::solved_when_asked(game.clone())),
        };
        let table = Table::build(machine, &opponent)?;
        Some((opponent, table))
    }

    /// Bytes the table's lists hold (their capacity), its kept exact values included.
    pub(crate) fn memory_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let flats = [&self.children, &self.best, &self.parents, &self.colours, &self.members];
        let exact = self.exact.as_ref().map_or(0, |c| {
            bytes(&c.random) + bytes(&c.perfect) + bytes(&c.touched) + bytes(&c.is_touched) + bytes(&c.queued)
        });
        flats.iter().map(|f| bytes(&f.at) + bytes(&f.items)).sum::<usize>()
            + bytes(&self.node)
            + bytes(&self.class_of)
            + bytes(&self.class_box)
            + bytes(&self.class_position)
            + bytes(&self.box_class)
            + self.fresh.iter().map(|b| b.heap_bytes()).sum::<usize>()
            + exact
    }

    /// Positions in the table.
    pub(crate) fn positions(&self) -> usize {
        self.node.len()
    }

    /// Pick up boxes the machine opened away from the table (games played
    /// the general way, one step at a time).
    #[inline]
    fn sync(&mut self, machine: &Machine<G>) {
        if machine.boxes().len() != self.box_class.len() {
            self.sync_boxes(machine);
        }
    }

    /// [`Table::sync`] where there are boxes to pick up.
    #[cold]
    fn sync_boxes(&mut self, machine: &Machine<G>) {
        self.box_class.resize(machine.boxes().len(), NONE);
        for c in 0..self.class_box.len() {
            if self.class_box[c] == NONE {
                if let Some((b, _)) = machine.box_for(&self.class_position[c]) {
                    self.class_box[c] = b;
                    self.box_class[b as usize] = c as u32;
                    if let Some(cache) = self.exact.as_mut() {
                        cache.touch(b);
                    }
                }
            }
        }
    }

    /// Note the boxes of a game's draws, before its reinforcement: their
    /// values are worked out again at the next exact evaluation.
    pub(crate) fn note_draws(&mut self, draws: &[Draw]) {
        if let Some(cache) = self.exact.as_mut() {
            draws.iter().for_each(|d| cache.touch(d.box_index));
        }
    }

    /// Play one game, drawing from `rng` as [`crate::training::driver::Match`]
    /// would; the machine's draws are left in its history for reinforcement
    /// (and noted for the next exact evaluation).
    pub(crate) fn play(&mut self, machine: &mut Machine<G>, opponent: &Opponent<G>, rng: &mut ChaCha8Rng) -> Played {
        self.sync(machine);
        let (mut at, start_seed) = if self.start_ids.is_empty() {
            (self.starts[0].0, None)
        } else {
            let seed = rng.next_u64();
            (self.start_ids[&machine.game().seeded_start(seed)], Some(seed))
        };
        // The chance of a perfect move, where the opponent is the perfect
        // player; 0 otherwise, never used then. The compiler works out the
        // chance's threshold once before the loop, whatever the opponent:
        // from the chance's place in a random opponent's bytes, or in a
        // `None`, it read what was left there, and a denormal float cost a
        // slow microcode assist every game (nearly half the time on 3×3
        // Hexapawn against random play). Made opaque once chosen, the
        // number it reads is this one.
        let perfect = matches!(opponent, Opponent::Perfect { .. });
        let p_best = std::hint::black_box(match opponent {
            Opponent::Perfect { p, .. } => *p,
            _ => 0.0,
        });
        let mut plies = 0;
        let result = loop {
            at = match self.node[at as usize] {
                Node::Over(result) => break result,
                Node::Machine => {
                    let c = self.class_of[at as usize];
                    if c == NONE {
                        uniform(self.children.get(at), rng)
                    } else {
                        let mut b = self.class_box[c as usize];
                        if b == NONE {
                            b = self.open(machine, c, plies / 2 + 1);
                        }
                        match machine.draw(b, rng) {
                            Some(colour) => self.colours.get(at)[colour as usize],
                            None => break GameResult::Loss,
                        }
                    }
                }
                Node::Opponent => {
                    if perfect && plays_best(p_best, rng) {
                        uniform(self.best.get(at), rng)
                    } else {
                        uniform(self.children.get(at), rng)
                    }
                }
            };
            plies += 1;
        };
        self.note_draws(machine.history());
        Played {
            result,
            plies,
            start_seed,
        }
    }

    /// Open the box of class `c` on its first visit, at the machine's `own_move`-th move.
    #[cold]
    fn open(&mut self, machine: &mut Machine<G>, c: u32, own_move: u32) -> u32 {
        let b = machine
            .box_or_open(&self.class_position[c as usize], own_move)
            .expect("a position with a class gets a box");
        self.class_box[c as usize] = b;
        self.box_class.resize(machine.boxes().len(), NONE);
        self.box_class[b as usize] = c;
        if let Some(cache) = self.exact.as_mut() {
            cache.touch(b);
        }
        b
    }

    /// The machine's exact expected results against random and perfect
    /// play. Only positions whose box was drawn from since the last call,
    /// and their ancestors while values change, are worked out again, each
    /// child before its parents; each value is summed in the order
    /// [`crate::training::exact::expected`] uses, so the two agree exactly.
    pub(crate) fn exact(&mut self, machine: &Machine<G>) -> (Expected, Expected) {
        self.sync(machine);
        let n = self.node.len();
        let empty_box = machine.settings().empty_box;
        let cache = match self.exact.take() {
            None => {
                // Against each opponent apart, at the same time: children first.
                let values = |choices: &Flat| {
                    let mut values = Vec::with_capacity(n);
                    for i in 0..n as u32 {
                        values.push(self.value(machine, i, empty_box, &values, choices));
                    }
                    values
                };
                let (random, perfect) = rayon::join(|| values(&self.children), || values(&self.best));
                ExactCache {
                    random,
                    perfect,
                    touched: Vec::new(),
                    is_touched: Vec::new(),
                    queued: vec![false; n],
                }
            }
            Some(mut cache) => {
                self.update(machine, empty_box, &mut cache);
                cache
            }
        };
        let total = |values: &[Expected]| {
            let mut e = Expected::default();
            for &(s, w) in &self.starts {
                e.add_scaled(values[s as usize], w);
            }
            e
        };
        let out = (total(&cache.random), total(&cache.perfect));
        self.exact = Some(cache);
        out
    }

    /// Work out again the values of the touched boxes' positions, then of
    /// the parents of every position whose values changed, lowest id first
    /// (children before parents).
    fn update(&self, machine: &Machine<G>, empty_box: EmptyBox, cache: &mut ExactCache) {
        let mut queue = BinaryHeap::new();
        for b in std::mem::take(&mut cache.touched) {
            cache.is_touched[b as usize] = false;
            let Some(&c) = self.box_class.get(b as usize) else {
                continue;
            };
            if c == NONE {
                continue;
            }
            for &i in self.members.get(c) {
                if !std::mem::replace(&mut cache.queued[i as usize], true) {
                    queue.push(Reverse(i));
                }
            }
        }
        let same = |a: Expected, b: Expected| {
            a.win.to_bits() == b.win.to_bits()
                && a.draw.to_bits() == b.draw.to_bits()
                && a.loss.to_bits() == b.loss.to_bits()
        };
        while let Some(Reverse(i)) = queue.pop() {
            cache.queued[i as usize] = false;
            let random = self.value(machine, i, empty_box, &cache.random, &self.children);
            let perfect = self.value(machine, i, empty_box, &cache.perfect, &self.best);
            if same(random, cache.random[i as usize]) && same(perfect, cache.perfect[i as usize]) {
                continue;
            }
            cache.random[i as usize] = random;
            cache.perfect[i as usize] = perfect;
            for &p in self.parents.get(i) {
                if !std::mem::replace(&mut cache.queued[p as usize], true) {
                    queue.push(Reverse(p));
                }
            }
        }
    }

    /// The expected result from position `i`, its children's values known:
    /// the machine follows its beads (a box not opened yet as the general
    /// path's evaluation makes it), the opponent plays uniformly among its
    /// `choices` (every child, or the best ones), by the rule of
    /// [`crate::training::exact::weigh`], as on the general path.
    fn value(
        &self,
        machine: &Machine<G>,
        i: u32,
        empty_box: EmptyBox,
        values: &[Expected],
        choices: &Flat,
    ) -> Expected {
        let known = |c: u32| values[c as usize];
        match self.node[i as usize] {
            Node::Over(result) => Expected::certain(result),
            Node::Opponent => {
                weigh_known(Odds::Uniform, choices.get(i), known).unwrap_or_else(|| Expected::certain(GameResult::Win))
            }
            Node::Machine => {
                let c = self.class_of[i as usize];
                let weighed = if c == NONE {
                    weigh_known(Odds::Uniform, self.children.get(i), known)
                } else {
                    let colours = self.colours.get(i);
                    let beads = match self.class_box[c as usize] {
                        NONE => &self.fresh[colours.len()],
                        b => &machine.boxes()[b as usize].beads,
                    };
                    weigh_known(Odds::Beads(beads, empty_box), colours, known)
                };
                weighed.unwrap_or_else(|| Expected::certain(GameResult::Loss))
            }
        }
    }
}

/// The moves between the table's positions.
struct Lists {
    /// Children in legal-move order.
    children: Flat,
    /// Where the opponent moves, the children the perfect player may choose.
    best: Flat,
    parents: Flat,
}

impl Lists {
    /// The lists in the new ids (`new_id`: children before parents), the
    /// perfect player's choices scored as the solver scores them (given
    /// `over_score` where the game is over, and worked out children first).
    fn make<P>(found: &Found<P>, node: &[Node], new_id: &[u32], over_score: Vec<i32>) -> Lists {
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
        drop(score);
        let mut parent_count = vec![0u32; n];
        for &c in &children.items {
            parent_count[c as usize] += 1;
        }
        let parents = Flat::transposed(&children, &parent_count);
        Lists {
            children,
            best,
            parents,
        }
    }
}

/// The machine's boxes over the table's positions.
struct Classes<P> {
    class_of: Vec<u32>,
    colours: Flat,
    class_box: Vec<u32>,
    position: Vec<P>,
    members: Flat,
    box_class: Vec<u32>,
}

impl<P: Clone + Sync> Classes<P> {
    /// Where the machine moves, the class of each position (its box key)
    /// and the child each bead colour leads to: for a box the machine has,
    /// by its moves; for one it would open on first visit, by the moves it
    /// would be made with. `None` if a colour's move is not legal (the
    /// general path then plays).
    fn find<G: Game<Position = P>>(
        machine: &Machine<G>,
        found: &Found<P>,
        positions: &[P],
        node: &[Node],
        new_id: &[u32],
    ) -> Option<Classes<P>> {
        let game = machine.game();
        let n = node.len();
        let symmetry = machine.settings().symmetry;
        let box_set: BoxSet = machine.box_set();
        let position_of = |i: u32| &positions[i as usize];
        // The positions where the machine moves with their box keys, worked
        // out on every core, then grouped by sorting (on every core too,
        // where a map from keys met a cache miss a position): in key order,
        // each key's positions lowest id first.
        let mut keyed: Vec<(G::BoxKey, u32, G::Symmetry)> = (0..n as u32)
            .into_par_iter()
            .filter(|&i| node[i as usize] == Node::Machine)
            .map(|i| {
                let (key, sym) = machine.key(position_of(i));
                (key, i, sym)
            })
            .collect();
        keyed.par_sort_unstable_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        let groups: Vec<&[_]> = keyed.chunk_by(|a, b| a.0 == b.0).collect();
        // Each key's box, as its lowest id finds it, on every core: the
        // machine's own, or the moves of the one it would open on first
        // visit, or none (a position played at random).
        let boxes: Vec<Option<(u32, Vec<G::Move>)>> = groups
            .par_iter()
            .map_init(Vec::new, |moves, group| {
                let (key, first, _) = &group[0];
                match machine.find(key) {
                    Some(b) => Some((b, Vec::new())),
                    None if machine.is_enumerated() => None,
                    None => {
                        let pos = position_of(*first);
                        game.legal_moves(pos, moves);
                        let fresh = || (NONE, bead_colours(game, &game.key_position(key), symmetry));
                        box_set.includes(game, pos, moves).then(fresh)
                    }
                }
            })
            .collect();
        let mut class_of = vec![NONE; n];
        let mut sym_of = vec![G::Symmetry::identity(); n];
        let mut class_box = Vec::new();
        let mut position = Vec::new();
        // The moves of each class's colours, for classes not opened yet.
        let mut fresh_moves: Vec<Vec<G::Move>> = Vec::new();
        for (group, found_box) in groups.iter().zip(boxes) {
            let Some((b, fresh)) = found_box else {
                continue;
            };
            let c = class_box.len() as u32;
            class_box.push(b);
            fresh_moves.push(fresh);
            position.push(position_of(group[0].1).clone());
            for &(_, i, sym) in group.iter() {
                class_of[i as usize] = c;
                sym_of[i as usize] = sym;
            }
        }
        drop(groups);
        drop(keyed);
        // The child each colour leads to, on every core.
        let colours = Flat::par_rows(n, Vec::new, |moves, i, row| {
            let c = class_of[i as usize];
            if c == NONE {
                return Some(());
            }
            let stored: &[G::Move] = match class_box[c as usize] {
                NONE => &fresh_moves[c as usize],
                b => &machine.boxes()[b as usize].moves,
            };
            game.legal_moves(position_of(i), moves);
            let kids = found.kids_of(found.finished[i as usize]);
            let inverse = sym_of[i as usize].inverse();
            for &mv in stored {
                let k = moves.iter().position(|&m| m == game.map_move(mv, inverse))?;
                row.push(new_id[kids[k] as usize]);
            }
            Some(())
        })?;
        drop(sym_of);
        let mut member_count = vec![0u32; class_box.len()];
        for &c in &class_of {
            if c != NONE {
                member_count[c as usize] += 1;
            }
        }
        let mut members = Flat::with_capacity(class_box.len(), 0);
        let mut filled = vec![0u32; class_box.len()];
        members.at.clear();
        members.at.push(0);
        for &k in &member_count {
            members.at.push(members.at.last().expect("not empty") + k);
        }
        members.items = vec![0; *members.at.last().expect("not empty") as usize];
        for (i, &c) in class_of.iter().enumerate() {
            if c != NONE {
                let slot = members.at[c as usize] + filled[c as usize];
                members.items[slot as usize] = i as u32;
                filled[c as usize] += 1;
            }
        }
        let mut box_class = vec![NONE; machine.boxes().len()];
        for (c, &b) in class_box.iter().enumerate() {
            if b != NONE {
                box_class[b as usize] = c as u32;
            }
        }
        Some(Classes {
            class_of,
            colours,
            class_box,
            position,
            members,
            box_class,
        })
    }
}

impl Flat {
    fn with_capacity(lists: usize, items: usize) -> Flat {
        let mut at = Vec::with_capacity(lists + 1);
        at.push(0);
        Flat {
            at,
            items: Vec::with_capacity(items),
        }
    }

    /// The lists `row` makes for `0..n` (each into an empty `Vec`, with
    /// scratch state from `init`), made on every core a chunk at a time
    /// and joined in order; `None` if any row is.
    fn par_rows<S>(
        n: usize,
        init: impl Fn() -> S + Sync + Send,
        row: impl Fn(&mut S, u32, &mut Vec<u32>) -> Option<()> + Sync + Send,
    ) -> Option<Flat> {
        const CHUNK: usize = 1 << 14;
        let chunks: Vec<Option<(Vec<u32>, Vec<u32>)>> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map_init(init, |state, k| {
                let mut ends = Vec::with_capacity(CHUNK);
                let mut items = Vec::new();
                for i in k * CHUNK..n.min((k + 1) * CHUNK) {
                    row(state, i as u32, &mut items)?;
                    ends.push(items.len() as u32);
                }
                Some((ends, items))
            })
            .collect();
        let mut flat = Flat::with_capacity(n, 0);
        for chunk in chunks {
            let (ends, items) = chunk?;
            let base = flat.items.len() as u32;
            flat.at.extend(ends.iter().map(|&e| base + e));
            flat.items.extend_from_slice(&items);
        }
        Some(flat)
    }

    /// Add the next list.
    fn push(&mut self, list: impl Iterator<Item = u32>) {
        self.items.extend(list);
        self.at.push(self.items.len() as u32);
    }

    /// The lists of the other direction: for each item, the lists holding
    /// it, in order (`count`: how many there are of each).
    fn transposed(&self, count: &[u32]) -> Flat {
        let mut at = Vec::with_capacity(count.len() + 1);
        at.push(0u32);
        for &k in count {
            at.push(at.last().expect("not empty") + k);
        }
        let mut items = vec![0u32; self.items.len()];
        let mut next: Vec<u32> = at[..count.len()].to_vec();
        for list in 0..self.at.len() - 1 {
            for &x in self.get(list as u32) {
                items[next[x as usize] as usize] = list as u32;
                next[x as usize] += 1;
            }
        }
        Flat { at, items }
    }

    #[inline]
    fn get(&self, i: u32) -> &[u32] {
        &self.items[self.at[i as usize] as usize..self.at[i as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Player, Rules};
    use crate::games::hexapawn::Hexapawn;
    use crate::games::tictactoe::TicTacToe;
    use crate::machine::settings::MachineSettings;

    /// Every child's id is below its parent's, and the parents listed are
    /// exactly the positions listing the child: incremental evaluation relies on both.
    fn children_come_first<G: Game>(game: G) {
        let machine = Machine::new(game, Player::One, MachineSettings::gardner()).unwrap();
        let table = Table::build(&machine, &Opponent::Random).expect("small enough to compile");
        let n = table.node.len() as u32;
        let mut edges = Vec::new();
        for i in 0..n {
            for &c in table.children.get(i) {
                assert!(c < i, "child {c} not before its parent {i}");
                edges.push((c, i));
            }
        }
        let mut back: Vec<(u32, u32)> = (0..n)
            .flat_map(|c| table.parents.get(c).iter().map(move |&p| (c, p)))
            .collect();
        edges.sort_unstable();
        back.sort_unstable();
        assert_eq!(edges, back);
    }

    /// Against perfect play the table comes first and the game is not
    /// solved up front; asked later, the perfect player gives the best moves
    /// of one that solved the whole game first, in every reachable position.
    #[test]
    fn against_perfect_solves_only_when_asked() {
        let game = Hexapawn::new(4, 4).unwrap();
        let machine = Machine::new(game.clone(), Player::One, MachineSettings::gardner()).unwrap();
        let (mut opponent, table) = Table::against_perfect(&machine, 1.0).expect("4×4 compiles");
        let Opponent::Perfect { player, .. } = &mut opponent else {
            panic!("a perfect opponent");
        };
        assert!(player.is_exhaustive());
        assert_eq!(player.solved_positions(), 0);
        let mut whole = PerfectPlayer::new(game.clone()).unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![game.start()];
        while let Some(pos) = todo.pop() {
            if !seen.insert(pos) || game.outcome(&pos) != Outcome::Ongoing {
                continue;
            }
            assert_eq!(player.best_moves(&pos), whole.best_moves(&pos), "{pos:?}");
            todo.extend(game.moves(&pos).into_iter().map(|mv| game.play(&pos, mv)));
        }
        assert!(player.solved_positions() > 0);
        assert!(player.solved_positions() <= table.positions());
        // Where the position solver plays (an estimate over the limit), no table.
        let large = Machine::new(Hexapawn::new(6, 6).unwrap(), Player::One, MachineSettings::gardner()).unwrap();
        assert!(Table::against_perfect(&large, 1.0).is_none());
    }

    #[test]
    fn ids_put_children_before_parents() {
        children_come_first(TicTacToe);
        // Boards where captures let one position be reached in different numbers of plies.
        for (w, h) in [(3, 3), (4, 4), (3, 5), (4, 3), (3, 6)] {
            children_come_first(Hexapawn::new(w, h).unwrap());
        }
    }
}
