//! Monte Carlo tree search (UCT with random playouts), written against
//! [`Game`] only: the opponent for games too large to solve.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rand::Rng;

use crate::game::{Game, Outcome, Player};

/// The default exploration constant (about √2).
pub const DEFAULT_EXPLORATION: f64 = 1.4;

const NONE: u32 = u32::MAX;

struct Node<G: Game> {
    pos: G::Position,
    /// The player who moved into this node (whose reward `wins` counts).
    mover: Player,
    mv: Option<G::Move>,
    parent: u32,
    children: Vec<u32>,
    untried: Vec<G::Move>,
    visits: u32,
    wins: f64,
}

/// A UCT searcher with `playouts` random playouts a move. Its tree is kept
/// between moves of one game: after the opponent's reply the matching
/// subtree becomes the new root.
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::search::mcts::Mcts;
/// use menace_core::{Game, TicTacToe};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let mut search = Mcts::new(TicTacToe, 2000, 1.4);
/// // X has two in a row on the top rank; O must block at c3.
/// let pos = TicTacToe.parse_position("xx./.o./... o").unwrap();
/// let mv = search.choose(&pos, &mut rng);
/// assert_eq!(TicTacToe.move_name(&pos, mv), "c3");
/// ```
pub struct Mcts<G: Game> {
    game: G,
    playouts: u32,
    exploration: f64,
    nodes: Vec<Node<G>>,
    buf: Vec<G::Move>,
    playouts_run: u64,
    /// Set from outside to cut a search short (a training run stopped).
    interrupt: Option<Arc<AtomicBool>>,
}

impl<G: Game> Mcts<G> {
    /// A searcher with `playouts` playouts a move and exploration constant `c`.
    pub fn new(game: G, playouts: u32, exploration: f64) -> Mcts<G> {
        Mcts {
            game,
            playouts: playouts.max(1),
            exploration,
            nodes: Vec::new(),
            buf: Vec::new(),
            playouts_run: 0,
            interrupt: None,
        }
    }

    /// Stop each search early once `flag` is set (the move then comes from
    /// the playouts run so far): a training run stops within a playout.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    /// Forget the tree (at the start of a game).
    pub fn reset(&mut self) {
        self.nodes.clear();
    }

    /// Playouts run since the searcher was made.
    pub fn playouts_run(&self) -> u64 {
        self.playouts_run
    }

    /// Nodes in the current tree.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    fn new_node(&mut self, pos: G::Position, mover: Player, mv: Option<G::Move>, parent: u32) -> u32 {
        let mut untried = Vec::new();
        self.game.legal_moves(&pos, &mut untried);
        self.nodes.push(Node {
            pos,
            mover,
            mv,
            parent,
            children: Vec::new(),
            untried,
            visits: 0,
            wins: 0.0,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Make `pos` the root, keeping its subtree if the tree already holds it
    /// as a child or grandchild of the old root.
    fn reroot(&mut self, pos: &G::Position) {
        let found = self.nodes.first().and_then(|root| {
            root.children
                .iter()
                .find(|&&c| self.nodes[c as usize].pos == *pos)
                .copied()
                .or_else(|| {
                    root.children
                        .iter()
                        .flat_map(|&c| self.nodes[c as usize].children.iter())
                        .find(|&&g| self.nodes[g as usize].pos == *pos)
                        .copied()
                })
        });
        let Some(keep) = found else {
            self.nodes.clear();
            let mover = self.game.turn(pos).other();
            self.new_node(pos.clone(), mover, None, NONE);
            return;
        };
        // Copy the kept subtree into a fresh arena, breadth first.
        let mut old = std::mem::take(&mut self.nodes);
        let mut map = vec![NONE; old.len()];
        let mut queue = vec![keep];
        map[keep as usize] = 0;
        let mut i = 0;
        while i < queue.len() {
            let o = queue[i] as usize;
            for &c in &old[o].children {
                map[c as usize] = (queue.len()) as u32;
                queue.push(c);
            }
            i += 1;
        }
        let mut fresh = Vec::with_capacity(queue.len());
        for &o in &queue {
            let node = &mut old[o as usize];
            let mut moved = Node {
                pos: node.pos.clone(),
                mover: node.mover,
                mv: node.mv,
                parent: if o == keep { NONE } else { map[node.parent as usize] },
                children: node.children.iter().map(|&c| map[c as usize]).collect(),
                untried: std::mem::take(&mut node.untried),
                visits: node.visits,
                wins: node.wins,
            };
            if o == keep {
                moved.mv = None;
            }
            fresh.push(moved);
        }
        self.nodes = fresh;
    }

    fn select_child(&self, node: u32) -> u32 {
        let n = &self.nodes[node as usize];
        let log_n = f64::from(n.visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, NONE);
        for &c in &n.children {
            let child = &self.nodes[c as usize];
            let v = f64::from(child.visits);
            let score = child.wins / v + self.exploration * (log_n / v).sqrt();
            if score > best.0 {
                best = (score, c);
            }
        }
        best.1
    }

    fn playout<R: Rng>(&mut self, start: &G::Position, rng: &mut R) -> Outcome {
        let mut pos = start.clone();
        loop {
            self.game.legal_moves(&pos, &mut self.buf);
            if self.buf.is_empty() {
                return self.game.outcome(&pos);
            }
            let mv = self.buf[rng.random_range(0..self.buf.len())];
            pos = self.game.play(&pos, mv);
        }
    }

    /// Search from `pos` and return the most visited move. `pos` must be in play.
    pub fn choose<R: Rng>(&mut self, pos: &G::Position, rng: &mut R) -> G::Move {
        self.reroot(pos);
        for _ in 0..self.playouts {
            if self.interrupt.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                break;
            }
            // Selection.
            let mut node = 0u32;
            while self.nodes[node as usize].untried.is_empty() && !self.nodes[node as usize].children.is_empty() {
                node = self.select_child(node);
            }
            // Expansion.
            let n = &mut self.nodes[node as usize];
            if !n.untried.is_empty() {
                let k = rng.random_range(0..n.untried.len());
                let mv = n.untried.swap_remove(k);
                let mover = self.game.turn(&n.pos);
                let child_pos = self.game.play(&n.pos, mv);
                let child = self.new_node(child_pos, mover, Some(mv), node);
                self.nodes[node as usize].children.push(child);
                node = child;
            }
            // Simulation.
            let start = self.nodes[node as usize].pos.clone();
            let outcome = self.playout(&start, rng);
            self.playouts_run += 1;
            // Backpropagation.
            let mut at = node;
            while at != NONE {
                let n = &mut self.nodes[at as usize];
                n.visits += 1;
                n.wins += match outcome {
                    Outcome::Win(p) if p == n.mover => 1.0,
                    Outcome::Draw => 0.5,
                    _ => 0.0,
                };
                at = n.parent;
            }
        }
        let root = &self.nodes[0];
        let best = root
            .children
            .iter()
            .max_by(|&&a, &&b| {
                let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                na.visits
                    .cmp(&nb.visits)
                    .then(na.wins.total_cmp(&nb.wins))
                    .then(b.cmp(&a))
            })
            .copied();
        match best.and_then(|b| self.nodes[b as usize].mv) {
            Some(mv) => mv,
            // Unreachable for a position in play: every playout expands a child of the root first.
            None => root.untried[0],
        }
    }
}
