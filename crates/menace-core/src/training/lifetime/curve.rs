//! A machine's learning life game by game: the chance of losing each game
//! and of being safe for good after it.
//!
//! The chances move over the machines it can become as over a graph that
//! only goes down (but for staying put), so after a while nearly all of
//! them sit in machines that can no longer change what is asked: safe ones
//! (never to lose again) and stuck ones (never to leave, losing at a fixed
//! rate). Only the others, the live ones, are followed game by game, and
//! only those holding a chance worth following ([`NEGLIGIBLE`] and more):
//! once none is left, every later game is alike and is written down without
//! being played out. Early on nearly every machine is live; later, a few.

/// The ways out of one machine's state after one game.
#[derive(Default)]
pub(super) struct Ways {
    /// Chance of a loss that leaves the counts as they are.
    pub(super) stay_loss: f64,
    /// Chance of any other game that leaves them as they are.
    pub(super) stay_other: f64,
    /// To another state: its index, the chance with a loss, without.
    pub(super) to: Vec<(usize, f64, f64)>,
}

impl Ways {
    pub(super) fn loss(&self) -> f64 {
        self.stay_loss + self.to.iter().map(|t| t.1).sum::<f64>()
    }
    pub(super) fn leave(&self) -> f64 {
        self.to.iter().map(|t| t.1 + t.2).sum()
    }
}

/// A live machine's chance below this is dropped: over `g` games and `n`
/// machines the figures move by at most `g·n·NEGLIGIBLE` (10⁻¹⁸ for
/// 10⁵ games over 10⁷ machines), far below what any figure prints, and a
/// life whose live machines have all dropped below it is over.
pub(super) const NEGLIGIBLE: f64 = 1e-30;

/// The chance of losing game n (index n − 1) and of being safe for good
/// after it, for n = 1..=`games`, from state 0; `safe` says which states
/// are safe for good. States are those of [`Ways`], each with its ways out.
pub(super) fn game_by_game(ways: &[Ways], safe: &[bool], games: usize) -> (Vec<f64>, Vec<f64>) {
    let n = ways.len();
    let loss: Vec<f64> = ways.iter().map(Ways::loss).collect();
    // What happens to a chance that reaches a state.
    let live: Vec<bool> = (0..n).map(|s| !safe[s] && ways[s].leave() > 0.0).collect();
    // The ways out of each live state to live states, flat: (to, chance);
    // and, a chance of being there, what it adds to the chance of being
    // safe and to the chance of a loss a game from stuck machines (the
    // same every game: only live states are followed one by one).
    let mut at = Vec::with_capacity(n + 1);
    let mut to: Vec<(u32, f64)> = Vec::new();
    let mut to_safe = vec![0.0f64; n];
    let mut to_stuck = vec![0.0f64; n];
    for (s, w) in ways.iter().enumerate() {
        at.push(to.len());
        if !live[s] {
            continue;
        }
        for &(t, l, o) in &w.to {
            let q = l + o;
            if live[t] {
                to.push((t as u32, q));
            } else if safe[t] {
                to_safe[s] += q;
            } else {
                to_stuck[s] += q * loss[t];
            }
        }
    }
    at.push(to.len());
    let stay: Vec<f64> = ways.iter().map(|w| w.stay_loss + w.stay_other).collect();

    // The chance of being safe by now, and of a loss a game from the stuck
    // machines reached so far (they never leave).
    let mut safe_now = 0.0;
    let mut stuck_loss = 0.0;
    let mut now = vec![0.0f64; n];
    let mut next = vec![0.0f64; n];
    let mut active: Vec<u32> = Vec::new();
    let mut next_active: Vec<u32> = Vec::new();
    if n > 0 {
        if safe[0] {
            safe_now = 1.0;
        } else if live[0] {
            now[0] = 1.0;
            active.push(0);
        } else {
            stuck_loss = loss[0];
        }
    }
    let mut loss_at = Vec::with_capacity(games);
    let mut safe_by = Vec::with_capacity(games);
    while loss_at.len() < games && !active.is_empty() {
        let mut lost = stuck_loss;
        let mut stuck = 0.0;
        for &s in &active {
            let s = s as usize;
            let p = std::mem::take(&mut now[s]);
            lost += p * loss[s];
            safe_now += p * to_safe[s];
            stuck += p * to_stuck[s];
            // A chance in `next` is positive exactly while its state is listed.
            let mut go = |t: usize, q: f64| {
                if q > 0.0 {
                    if next[t] == 0.0 {
                        next_active.push(t as u32);
                    }
                    next[t] += q;
                }
            };
            go(s, p * stay[s]);
            for &(t, q) in &to[at[s]..at[s + 1]] {
                go(t as usize, p * q);
            }
        }
        loss_at.push(lost);
        safe_by.push(safe_now);
        stuck_loss += stuck;
        next_active.retain(|&t| {
            let keep = next[t as usize] >= NEGLIGIBLE;
            if !keep {
                next[t as usize] = 0.0;
            }
            keep
        });
        std::mem::swap(&mut now, &mut next);
        std::mem::swap(&mut active, &mut next_active);
        next_active.clear();
    }
    // Nothing live is left: every later game is as the last.
    loss_at.resize(games, stuck_loss);
    safe_by.resize(games, safe_now);
    (loss_at, safe_by)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random chain that only goes down: state s leads to states above
    /// it (a state's successors have higher indices), some stay put, some
    /// never leave; `safe` as the topological pass would find it.
    fn chain(n: usize, seed: u64) -> (Vec<Ways>, Vec<bool>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut ways = Vec::new();
        for s in 0..n {
            let outs = if s + 1 == n { 0 } else { rng.random_range(0..4usize) };
            let mut targets: Vec<usize> = (0..outs).map(|_| rng.random_range(s + 1..n)).collect();
            targets.sort_unstable();
            targets.dedup();
            let outs = targets.len();
            let mut weights: Vec<f64> = (0..2 * outs + 2).map(|_| rng.random_range(0.0..1.0)).collect();
            // Now and then no loss at all, or no staying put.
            if rng.random_bool(0.3) {
                weights[0] = 0.0;
                for k in 0..outs {
                    weights[2 + 2 * k] = 0.0;
                }
            }
            if rng.random_bool(0.2) {
                weights[1] = 0.0;
            }
            if weights.iter().all(|&x| x == 0.0) {
                weights[1] = 1.0;
            }
            let total: f64 = weights.iter().sum();
            let mut w = Ways {
                stay_loss: weights[0] / total,
                stay_other: weights[1] / total,
                to: Vec::new(),
            };
            for (k, &t) in targets.iter().enumerate() {
                w.to.push((t, weights[2 + 2 * k] / total, weights[3 + 2 * k] / total));
            }
            ways.push(w);
        }
        let mut safe = vec![false; n];
        for s in (0..n).rev() {
            safe[s] = ways[s].loss() == 0.0 && ways[s].to.iter().all(|t| safe[t.0]);
        }
        (ways, safe)
    }

    /// Every state's chance game by game, all of them every game, as the
    /// chain says (the plain iteration this one follows).
    fn plainly(ways: &[Ways], safe: &[bool], games: usize) -> (Vec<f64>, Vec<f64>) {
        let n = ways.len();
        let mut now = vec![0.0; n];
        now[0] = 1.0;
        let (mut loss_at, mut safe_by) = (Vec::new(), Vec::new());
        for _ in 0..games {
            let mut next = vec![0.0; n];
            let mut lost = 0.0;
            for s in 0..n {
                lost += now[s] * ways[s].loss();
                next[s] += now[s] * (ways[s].stay_loss + ways[s].stay_other);
                for &(t, l, o) in &ways[s].to {
                    next[t] += now[s] * (l + o);
                }
            }
            loss_at.push(lost);
            safe_by.push((0..n).filter(|&s| safe[s]).map(|s| next[s]).sum());
            now = next;
        }
        (loss_at, safe_by)
    }

    #[test]
    fn following_the_live_states_alone_gives_the_plain_iteration() {
        for seed in 0..200 {
            let n = 1 + (seed as usize % 40);
            let (ways, safe) = chain(n, seed);
            let games = 300;
            let (loss_at, safe_by) = game_by_game(&ways, &safe, games);
            let (want_loss, want_safe) = plainly(&ways, &safe, games);
            assert_eq!(loss_at.len(), games);
            for k in 0..games {
                assert!(
                    (loss_at[k] - want_loss[k]).abs() < 1e-12,
                    "seed {seed}, game {}: {} against {}",
                    k + 1,
                    loss_at[k],
                    want_loss[k]
                );
                assert!(
                    (safe_by[k] - want_safe[k]).abs() < 1e-12,
                    "seed {seed}, game {}: safe {} against {}",
                    k + 1,
                    safe_by[k],
                    want_safe[k]
                );
            }
        }
    }
}
