//! A game on a compiled table: one bead draw or one random index a ply,
//! drawing from the random stream exactly as the general path does.

use rand::RngCore;
use rand_chacha::ChaCha8Rng;

use crate::game::Game;
use crate::machine::{uniform, Draw, GameResult, Machine};
use crate::training::opponent::{plays_best, Opponent};

use super::table::{Node, Played, Table, NONE};

impl<G: Game> Table<G> {
    /// Pick up boxes the machine opened away from the table (games played
    /// the general way, one step at a time).
    #[inline]
    pub(super) fn sync(&mut self, machine: &Machine<G>) {
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
}
