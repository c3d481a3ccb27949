//! A machine's whole learning life, computed exactly, without sampling.
//!
//! Under a scheme that only ever takes beads away (Gardner's rule: after a
//! loss the last move's bead goes, and a win changes nothing), a machine's
//! bead counts form a finite graph: every game either leaves the counts as
//! they are or lowers them. So the machines it can become are finitely
//! many, and the chance of each after every game, against an opponent whose
//! move probabilities are known (random, perfect among its best moves, or
//! a best move with chance P and a random one otherwise),
//! follows by dynamic programming over that graph: the chance of losing at
//! game n, the expected losses over the machine's whole life and their
//! distribution, the expected games until it is safe (its chance of losing
//! is 0 for good) and the chance of being safe by game n.
//!
//! A state is the bead counts of the boxes a game can reach, machines that
//! must play alike from then on merged (`lumps`); boxes
//! must be made up front (a box opened on first visit is a box of the
//! enumerated set with its first beads, so [`life`] makes those itself).
//! Schemes that add beads (Michie's) or refill an empty box have no finite
//! graph and are refused, saying so.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::game::{Game, Outcome};
use crate::machine::settings::{EmptyBox, MachineSettings};
use crate::machine::{BeadRule, GameResult, Machine};
use crate::training::exact::{Reference, EXACT_LIMIT};
use crate::training::opponent::{OpponentSpec, PerfectPlayer};

mod curve;
mod error;
mod lumps;
mod tree;
use curve::Ways;
pub use error::LifeError;
use lumps::Lumps;
use tree::{moves_on_board, Layout, Node, Tree, Walk};

/// How far [`life`] may go before it refuses.
#[derive(Clone, Copy, Debug)]
pub struct LifeLimits {
    /// Distinct machines (bead counts) stored.
    pub states: usize,
    /// Game-tree nodes walked in all, over every state (time).
    pub nodes: u64,
    /// Bytes the states' bead counts may take (memory: a state is a byte a
    /// colour of every box, so a machine of many boxes stores fewer).
    pub bytes: usize,
}

impl Default for LifeLimits {
    fn default() -> LifeLimits {
        LifeLimits {
            states: 2_000_000,
            nodes: 2_000_000_000,
            bytes: 1 << 30,
        }
    }
}

/// A machine's whole learning life against one opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct Life {
    /// Machines it can become (its start included), those that must play
    /// alike from then on counted once.
    pub states: usize,
    /// Game-tree nodes walked to find them.
    pub nodes: u64,
    /// The chance of losing game n, for n = 1..=games (index n − 1).
    pub loss_at: Vec<f64>,
    /// The chance of being safe for good after game n (index n − 1; a
    /// machine safe from the start is safe after game 0 as well).
    pub safe_by: Vec<f64>,
    /// The chance that the machine is safe before its first game.
    pub safe_at_start: f64,
    /// Expected losses over the machine's whole life (infinite where it
    /// can reach a machine that loses for ever).
    pub expected_losses: f64,
    /// The chance of each number of losses over the whole life, index k;
    /// the last entry holds every count from its index on.
    pub losses: Vec<f64>,
    /// Expected games until safe for good (the game of its last loss, or
    /// later where a win still changes it); infinite where it may never be.
    pub expected_games_until_safe: f64,
}

impl Life {
    /// Expected losses over the first `n` games.
    pub fn expected_losses_within(&self, n: usize) -> f64 {
        self.loss_at.iter().take(n).sum()
    }
}

/// The whole learning life of `machine` (as it is now) against `opponent`,
/// with the chances game by game for its first `games` games.
pub fn life<G: Game>(
    machine: &Machine<G>,
    opponent: &mut Reference<'_, G>,
    games: usize,
    limits: LifeLimits,
) -> Result<Life, LifeError> {
    life_reporting(machine, opponent, games, limits, &mut |_| {})
}

/// [`life`], calling `progress` with the machines found so far every
/// [`PROGRESS_EVERY`] of them (for a progress bar on a terminal).
pub fn life_reporting<G: Game>(
    machine: &Machine<G>,
    opponent: &mut Reference<'_, G>,
    games: usize,
    limits: LifeLimits,
    progress: &mut dyn FnMut(usize),
) -> Result<Life, LifeError> {
    let settings = machine.settings();
    if let Some(adds) = adds_beads(settings) {
        return Err(adds);
    }
    // Every position of the game may be met: within the exact evaluation's bound.
    let bound = crate::search::solver::memory_bounded::<G::Position>(EXACT_LIMIT);
    if machine.game().exceeds(bound) {
        return Err(LifeError::Opponent(format!(
            "{} has more positions than the {bound} an exact walk of its games may store",
            machine.game().spec()
        )));
    }
    let machine = up_front(machine)?;
    let game = machine.game().clone();
    let side = machine.side();
    // The positions of the game met, with what is played there.
    let mut nodes: FxHashMap<G::Position, std::rc::Rc<Node<G>>> = FxHashMap::default();
    let mut node_of = |pos: &G::Position, opponent: &mut Reference<'_, G>| -> std::rc::Rc<Node<G>> {
        if let Some(n) = nodes.get(pos) {
            return n.clone();
        }
        let outcome = game.outcome(pos);
        let node = if outcome != Outcome::Ongoing {
            Node::Over(GameResult::for_player(outcome, side))
        } else if game.turn(pos) == side {
            match machine.box_for(pos) {
                Some((i, sym)) => Node::Boxed(i as usize, moves_on_board(&machine, i as usize, sym)),
                None => Node::Unboxed(game.moves(pos)),
            }
        } else {
            let moves = opponent.moves(&game, pos);
            // No move at all: the walk counts it as the machine's win.
            match opponent.chances(pos, &moves).filter(|_| !moves.is_empty()) {
                Some(chances) => Node::Mixed(moves, chances),
                None => Node::Opponent(moves),
            }
        };
        let node = std::rc::Rc::new(node);
        nodes.insert(pos.clone(), node.clone());
        node
    };

    // Only the boxes a game can reach from the machine as it is are kept
    // (against a perfect opponent, few of them), and machines that must play
    // alike from here on are one state: a box no game can reach any more,
    // colours that end the game alike, mirror images.
    let starts = game.starts();
    let every = Layout::of(&machine, |_| true);
    let kept = Lumps::new(&machine, &starts, &every, opponent, &mut node_of).reached(&every.counts(&machine));
    let layout = Layout::of(&machine, |i| kept[i]);
    let lumps = Lumps::new(&machine, &starts, &layout, opponent, &mut node_of);
    let mut start = layout.counts(&machine);
    if let Some(n) = machine
        .boxes()
        .iter()
        .zip(&kept)
        .filter(|b| *b.1)
        .flat_map(|b| b.0.beads.iter())
        .find(|&n| n > 255)
    {
        return Err(LifeError::Boxes(format!(
            "a box holds {n} beads of one colour; exact learning counts at most 255"
        )));
    }
    lumps.canonical(&mut start);
    // A state costs its counts twice (the list and the index) and about 96
    // bytes of the index and its ways out.
    let per_state = 2 * start.len() + 96;
    let most_states = limits.states.min(limits.bytes / per_state);
    let resigns = settings.empty_box == EmptyBox::Resign;

    let mut index: FxHashMap<Box<[u8]>, usize> = FxHashMap::default();
    let mut counts: Vec<Box<[u8]>> = Vec::new();
    let mut ways: Vec<Ways> = Vec::new();
    let first: Box<[u8]> = start.into_boxed_slice();
    index.insert(first.clone(), 0);
    counts.push(first);
    let mut queue = VecDeque::from([0usize]);
    let mut walked = 0u64;
    let mut tree = Tree::new();
    let start_ids: Vec<(u32, f64)> = starts
        .iter()
        .map(|(pos, p)| (tree.id(pos, opponent, &mut node_of), *p))
        .collect();
    let mut walker = Walk {
        game: &game,
        tree: &mut tree,
        opponent,
        node_of: &mut node_of,
        layout: &layout,
        resigns,
        walked: &mut walked,
        budget: limits.nodes,
    };
    while let Some(s) = queue.pop_front() {
        if s % PROGRESS_EVERY == 0 {
            progress(counts.len());
        }
        // Every game from this state: its chance, its result, and the
        // colours drawn (flat indices), in order.
        let here = counts[s].clone();
        // Each way out as the counts it changes (a loss changes a bead or
        // a few): a machine of many boxes has many ways out, and a whole
        // copy of its counts each would not fit.
        let mut ends: FxHashMap<Change, (f64, f64)> = FxHashMap::default();
        let mut stay = (0.0, 0.0);
        let mut drawn: Vec<usize> = Vec::new();
        let mut end = |p: f64, result: GameResult, drawn: &[usize]| {
            // The machine's own rule, applied to these counts.
            let rule = BeadRule::of(settings, result);
            let mut diff: Vec<(u32, u8)> = Vec::new();
            for &c in rule.touched(drawn) {
                let at = diff.iter().position(|d| d.0 as usize == c);
                let before = u32::from(at.map_or(here[c], |k| diff[k].1));
                let now = rule.after(before);
                if now != before {
                    // Only ever down (no change is positive): it fits in a byte still.
                    match at {
                        Some(k) => diff[k].1 = now as u8,
                        None => diff.push((c as u32, now as u8)),
                    }
                }
            }
            let loss = result == GameResult::Loss;
            let slot = if diff.is_empty() {
                &mut stay
            } else {
                diff.sort_unstable();
                ends.entry(diff.into_boxed_slice()).or_insert((0.0, 0.0))
            };
            if loss {
                slot.0 += p;
            } else {
                slot.1 += p;
            }
        };
        for &(id, p) in &start_ids {
            walker.walk(id, p, &here, &mut drawn, &mut end)?;
        }
        let mut w = Ways {
            stay_loss: stay.0,
            stay_other: stay.1,
            to: Vec::with_capacity(ends.len()),
        };
        // The machines it becomes, each as the one that stands for it (once
        // each, not once a game: the games far outnumber them).
        let mut lumped: FxHashMap<Box<[u8]>, (f64, f64)> = FxHashMap::default();
        let mut raw: Vec<_> = ends.into_iter().collect();
        raw.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut fresh = 0;
        for (diff, (loss, other)) in raw {
            let mut next = here.to_vec();
            for &(c, n) in diff.iter() {
                next[c as usize] = n;
            }
            lumps.canonical_after(&here, &mut next);
            let next = next.into_boxed_slice();
            if !lumped.contains_key(&next) && !index.contains_key(&next) {
                // A machine not met before: within the budget with those found.
                if counts.len() + fresh >= most_states {
                    return Err(LifeError::States(most_states));
                }
                fresh += 1;
            }
            let slot = lumped.entry(next).or_insert((0.0, 0.0));
            slot.0 += loss;
            slot.1 += other;
        }
        for (next, (loss, other)) in lumped {
            let id = match index.get(&next) {
                Some(&id) => id,
                None => {
                    if counts.len() >= most_states {
                        return Err(LifeError::States(most_states));
                    }
                    let id = counts.len();
                    index.insert(next.clone(), id);
                    counts.push(next);
                    queue.push_back(id);
                    id
                }
            };
            w.to.push((id, loss, other));
        }
        // In the order of the states, so that sums run the same way every time.
        w.to.sort_unstable_by_key(|t| t.0);
        // States are walked in the order they were found: `ways[s]` is this one's.
        debug_assert_eq!(ways.len(), s);
        ways.push(w);
    }
    drop(index);
    let n = counts.len();

    // Every move to another state lowers the total beads: the states by
    // total, fewest first, have every successor before them.
    let totals: Vec<u64> = counts.iter().map(|c| c.iter().map(|&x| u64::from(x)).sum()).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&s| (totals[s], s));
    let mut safe = vec![false; n];
    let mut expected_losses = vec![0.0f64; n];
    let mut until_safe = vec![0.0f64; n];
    let most = usize::try_from(totals[0])
        .unwrap_or(usize::MAX)
        .saturating_add(1)
        .min(4096);
    let mut dist: Vec<Vec<f64>> = vec![Vec::new(); n];
    for &s in &order {
        let w = &ways[s];
        debug_assert!(w.to.iter().all(|t| totals[t.0] < totals[s]));
        let loss = w.loss();
        let leave = w.leave();
        safe[s] = loss == 0.0 && w.to.iter().all(|t| safe[t.0]);
        let mut d = vec![0.0; most + 1];
        if safe[s] {
            d[0] = 1.0;
            dist[s] = d;
            continue;
        }
        if leave == 0.0 {
            // Never leaves, and loses: for ever.
            expected_losses[s] = f64::INFINITY;
            until_safe[s] = f64::INFINITY;
            d[most] = 1.0;
            dist[s] = d;
            continue;
        }
        let mut e = loss;
        let mut g = 1.0;
        for &(t, l, o) in &w.to {
            e += (l + o) * expected_losses[t];
            g += (l + o) * until_safe[t];
            // Leaving with a loss shifts the successor's count by one.
            for (k, &x) in dist[t].iter().enumerate() {
                d[k] += o / leave * x;
                d[(k + 1).min(most)] += l / leave * x;
            }
        }
        expected_losses[s] = e / leave;
        until_safe[s] = g / leave;
        // Losses while staying, before it leaves: geometric.
        if w.stay_loss > 0.0 {
            let stop = leave / (leave + w.stay_loss);
            let mut with = vec![0.0; most + 1];
            for (k, &x) in d.iter().enumerate() {
                let mut p = stop;
                for j in 0..=most - k {
                    with[(k + j).min(most)] += x * p;
                    p *= 1.0 - stop;
                }
                with[most] += x * p / stop;
            }
            d = with;
        }
        dist[s] = d;
    }

    // Game by game, from the start, as long as anything printed can still change.
    let safe_at_start = if safe[0] { 1.0 } else { 0.0 };
    let (loss_at, safe_by) = curve::game_by_game(&ways, &safe, games);
    let mut losses = std::mem::take(&mut dist[0]);
    while losses.len() > 1 && losses.last() == Some(&0.0) {
        losses.pop();
    }
    Ok(Life {
        states: n,
        nodes: walked,
        loss_at,
        safe_by,
        safe_at_start,
        expected_losses: expected_losses[0],
        losses,
        expected_games_until_safe: until_safe[0],
    })
}

/// A machine one game on, as the counts that changed: (where, the count now), in order.
type Change = Box<[(u32, u8)]>;

/// How often [`life_reporting`] reports: every this many machines walked.
pub const PROGRESS_EVERY: usize = 4096;

/// Positions the boxes of a machine opening boxes on first visit may be
/// enumerated from, to make them all for its life.
const UP_FRONT_LIMIT: usize = 200_000;

/// The machine with every box of its set made (a machine opening boxes on
/// first visit would open them with these beads).
fn up_front<G: Game>(machine: &Machine<G>) -> Result<std::borrow::Cow<'_, Machine<G>>, LifeError> {
    if machine.is_enumerated() {
        return Ok(std::borrow::Cow::Borrowed(machine));
    }
    let mut settings = machine.settings().clone();
    // Counted first within a bound, so that a large game is refused before it fills memory.
    crate::machine::boxes::enumerate(
        machine.game(),
        machine.side(),
        settings.box_set,
        settings.symmetry,
        UP_FRONT_LIMIT,
    )
    .map_err(|e| LifeError::Boxes(e.to_string()))?;
    settings.box_mode = crate::machine::settings::BoxMode::Enumerate;
    let fresh = Machine::new(machine.game().clone(), machine.side(), settings.clone())
        .map_err(|e| LifeError::Boxes(e.to_string()))?;
    // The boxes it has opened keep their beads; the rest start as they would open.
    let boxes = fresh
        .boxes()
        .iter()
        .map(|b| match machine.find(b.key) {
            Some(i) => machine.boxes().get(i as usize).to_box(),
            None => b.to_box(),
        })
        .collect();
    let made = Machine::from_boxes(machine.game().clone(), machine.side(), settings, true, boxes);
    Ok(std::borrow::Cow::Owned(made))
}

/// Whether a machine under `settings` only ever loses beads: no change of
/// its is positive, and an empty box is not refilled.
pub fn only_takes_beads(settings: &MachineSettings) -> bool {
    let r = settings.reinforcement;
    r.win <= 0 && r.draw <= 0 && r.loss <= 0 && settings.empty_box != EmptyBox::Restock
}

/// Why a machine under `settings` has no exact learning life, where its
/// scheme adds beads.
fn adds_beads(settings: &MachineSettings) -> Option<LifeError> {
    (!only_takes_beads(settings)).then(|| {
        LifeError::AddsBeads(format!(
            "reinforcement {} (empty box {})",
            settings.reinforcement, settings.empty_box
        ))
    })
}

/// [`life`] against the opponent `spec` names: `None` where the opponent
/// is other than a random, a perfect or a mix of the two (`perfect:P`),
/// whose moves exact learning cannot know, so that a caller says nothing
/// unasked; against those, a scheme that adds beads is the error that
/// says so.
pub fn life_against<G: Game>(
    machine: &Machine<G>,
    spec: &OpponentSpec,
    games: usize,
    limits: LifeLimits,
    progress: &mut dyn FnMut(usize),
) -> Option<Result<Life, LifeError>> {
    if !matches!(spec, OpponentSpec::Random | OpponentSpec::Perfect(_)) {
        return None;
    }
    if let Some(adds) = adds_beads(machine.settings()) {
        return Some(Err(adds));
    }
    match spec {
        // `perfect:0` never plays a best move: random, with no game to solve.
        OpponentSpec::Random => Some(life_reporting(machine, &mut Reference::Random, games, limits, progress)),
        OpponentSpec::Perfect(p) if *p <= 0.0 => {
            Some(life_reporting(machine, &mut Reference::Random, games, limits, progress))
        }
        OpponentSpec::Perfect(p) => {
            let game = machine.game();
            if game.exceeds(crate::search::solver::memory_bounded::<G::Position>(EXACT_LIMIT)) {
                return Some(Err(LifeError::Opponent(format!(
                    "{} is too large to solve for a perfect opponent's every move",
                    game.spec()
                ))));
            }
            // A machine whose boxes cannot all be made is refused before the
            // game is solved for the opponent (half a second on Hexapawn 5×5).
            let machine = match up_front(machine) {
                Ok(m) => m,
                Err(e) => return Some(Err(e)),
            };
            Some(match PerfectPlayer::new(game.clone()) {
                Ok(mut player) => {
                    let mut reference = if *p >= 1.0 {
                        Reference::Perfect(&mut player)
                    } else {
                        Reference::Mixed(p.max(0.0), &mut player)
                    };
                    life_reporting(&machine, &mut reference, games, limits, progress)
                }
                Err(e) => Err(LifeError::Opponent(e.to_string())),
            })
        }
        _ => None,
    }
}
