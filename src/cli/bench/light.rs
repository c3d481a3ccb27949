//! The speed of light for HER on 3×3 Hexapawn: Gardner's rule (one bead a
//! move, the bead of the last move lost after a defeat, resign on an empty
//! box) against a random White, in a loop written for speed alone, to
//! measure the trainer against. Every position is numbered up front and a
//! game is a walk through flat tables of a few bytes a position, spending
//! one ChaCha8 draw a game: each choice among `n` takes the high part of
//! the 64-bit draw times `n` and keeps the low part for the next choice
//! (`n` ≤ 4 and at most 8 plies on 3×3: 16 of its 64 bits).
//!
//! The games follow HER's rule, each choice uniform among the beads or the
//! moves, but are not the trainer's games for a seed: the trainer spends a
//! draw a choice, as both of its paths must to agree.

use std::collections::HashMap;
use std::time::Instant;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use menace::machine::settings::MachineSettings;
use menace::machine::Machine;
use menace::prelude::*;
use menace::{Hexapawn, Outcome, Player};

use super::row::Row;

const MACHINE: u8 = 0;
const OPPONENT: u8 = 1;
const WON: u8 = 2;
const LOST: u8 = 3;

/// The tables for one machine: per position its kind, its children (the
/// opponent's moves, or the child each bead colour leads to) and, where the
/// machine moves, where its box's beads start.
struct Tables {
    kind: Vec<u8>,
    first: Vec<u16>,
    count: Vec<u8>,
    child: Vec<u16>,
    bead_at: Vec<u16>,
    beads: Vec<u32>,
}

fn tables() -> anyhow::Result<Tables> {
    let game = Hexapawn::new(3, 3).map_err(|e| anyhow::anyhow!("{e}"))?;
    let machine = Machine::new(game.clone(), Player::Two, MachineSettings::gardner())?;
    let mut box_at = Vec::new();
    let mut beads = Vec::new();
    for b in machine.boxes() {
        box_at.push(beads.len() as u16);
        beads.extend(b.beads.iter());
    }
    let mut ids: HashMap<_, u16> = HashMap::new();
    let mut positions = vec![game.start()];
    ids.insert(game.start(), 0);
    let mut t = Tables {
        kind: Vec::new(),
        first: Vec::new(),
        count: Vec::new(),
        child: Vec::new(),
        bead_at: Vec::new(),
        beads,
    };
    let mut i = 0;
    while i < positions.len() {
        let pos = positions[i];
        let kids: Vec<_> = match game.outcome(&pos) {
            Outcome::Ongoing if game.turn(&pos) == Player::Two => {
                let (b, sym) = machine
                    .box_for(&pos)
                    .ok_or_else(|| anyhow::anyhow!("a box for every position"))?;
                t.kind.push(MACHINE);
                t.bead_at.push(box_at[b as usize]);
                let inverse = sym.inverse();
                machine
                    .box_moves(b)
                    .into_iter()
                    .map(|m| game.play(&pos, game.map_move(m, inverse)))
                    .collect()
            }
            Outcome::Ongoing => {
                t.kind.push(OPPONENT);
                t.bead_at.push(0);
                game.moves(&pos).into_iter().map(|m| game.play(&pos, m)).collect()
            }
            Outcome::Win(Player::Two) => {
                t.kind.push(WON);
                t.bead_at.push(0);
                Vec::new()
            }
            _ => {
                t.kind.push(LOST);
                t.bead_at.push(0);
                Vec::new()
            }
        };
        t.first.push(t.child.len() as u16);
        t.count.push(kids.len() as u8);
        for kid in kids {
            let next = ids.len() as u16;
            let id = *ids.entry(kid).or_insert_with(|| {
                positions.push(kid);
                next
            });
            t.child.push(id);
        }
        i += 1;
    }
    Ok(t)
}

/// Play `n` games; the machine's wins.
fn play(t: &mut Tables, n: u64, rng: &mut ChaCha8Rng) -> u64 {
    let mut wins = 0;
    for _ in 0..n {
        let mut x = rng.next_u64();
        let mut at = 0usize;
        let mut last = usize::MAX;
        loop {
            let first = usize::from(t.first[at]);
            let count = u64::from(t.count[at]);
            match t.kind[at] {
                OPPONENT => {
                    let r = u128::from(x) * u128::from(count);
                    x = r as u64;
                    at = usize::from(t.child[first + (r >> 64) as usize]);
                }
                MACHINE => {
                    let b = usize::from(t.bead_at[at]);
                    let box_beads = &t.beads[b..b + count as usize];
                    let total: u32 = box_beads.iter().sum();
                    if total == 0 {
                        // Resigned: a loss, the bead of the last move lost.
                        if last != usize::MAX {
                            t.beads[last] -= 1;
                        }
                        break;
                    }
                    let r = u128::from(x) * u128::from(total);
                    x = r as u64;
                    let pick = (r >> 64) as u32;
                    let mut below = 0;
                    let mut colour = 0;
                    for &k in box_beads {
                        below += k;
                        colour += usize::from(below <= pick);
                    }
                    last = b + colour;
                    at = usize::from(t.child[first + colour]);
                }
                WON => {
                    wins += 1;
                    break;
                }
                _ => {
                    if last != usize::MAX {
                        t.beads[last] -= 1;
                    }
                    break;
                }
            }
        }
    }
    wins
}

/// Every whole game from the start as the beads stand: the chance of each
/// (running total), the bead its last move of the machine's drew (to be
/// lost if it loses; `usize::MAX`: none) and whether the machine wins.
fn whole_games(t: &Tables, out: &mut Vec<(f64, usize, bool)>) {
    fn walk(t: &Tables, at: usize, chance: f64, last: usize, out: &mut Vec<(f64, usize, bool)>) {
        let first = usize::from(t.first[at]);
        let count = usize::from(t.count[at]);
        let mut end = |won: bool| {
            let before = out.last().map_or(0.0, |g: &(f64, usize, bool)| g.0);
            out.push((before + chance, last, won));
        };
        match t.kind[at] {
            OPPONENT => {
                for k in 0..count {
                    walk(t, usize::from(t.child[first + k]), chance / count as f64, last, out);
                }
            }
            MACHINE => {
                let b = usize::from(t.bead_at[at]);
                let total: u32 = t.beads[b..b + count].iter().sum();
                if total == 0 {
                    return end(false);
                }
                for k in 0..count {
                    let beads = t.beads[b + k];
                    if beads > 0 {
                        let p = chance * f64::from(beads) / f64::from(total);
                        walk(t, usize::from(t.child[first + k]), p, b + k, out);
                    }
                }
            }
            WON => end(true),
            _ => end(false),
        }
    }
    out.clear();
    walk(t, 0, 1.0, usize::MAX, out);
}

/// Walker's alias table over the games (Vose's construction): game `i`
/// is kept with chance `keep[i]` (as a fraction of 2^32), else replaced by
/// `alias[i]`, so that one draw picks a game: its high half the slot, its
/// low half the coin.
fn alias_table(games: &[(f64, usize, bool)], keep: &mut Vec<u64>, alias: &mut Vec<u32>) {
    let n = games.len();
    let total = games.last().map_or(1.0, |g| g.0);
    let mut before = 0.0;
    let mut scaled: Vec<f64> = games
        .iter()
        .map(|g| {
            let p = (g.0 - before) / total * n as f64;
            before = g.0;
            p
        })
        .collect();
    keep.clear();
    keep.resize(n, 1 << 32);
    alias.clear();
    alias.extend(0..n as u32);
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| scaled[i] < 1.0);
    while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
        keep[s] = (scaled[s] * (1u64 << 32) as f64) as u64;
        alias[s] = l as u32;
        scaled[l] -= 1.0 - scaled[s];
        if scaled[l] < 1.0 {
            large.pop();
            small.push(l);
        }
    }
}

/// Play `n` games, each drawn whole from the table of games with one
/// draw (rebuilt after a loss, the only change to the beads); the wins.
fn play_whole(t: &mut Tables, n: u64, rng: &mut ChaCha8Rng) -> u64 {
    let mut games = Vec::new();
    let (mut keep, mut alias) = (Vec::new(), Vec::new());
    whole_games(t, &mut games);
    alias_table(&games, &mut keep, &mut alias);
    let mut wins = 0;
    for _ in 0..n {
        let x = rng.next_u64();
        let slot = (((x >> 32) * games.len() as u64) >> 32) as usize;
        let i = if (x & 0xffff_ffff) < keep[slot] {
            slot
        } else {
            alias[slot] as usize
        };
        let (_, last, won) = games[i];
        if won {
            wins += 1;
        } else if last != usize::MAX {
            t.beads[last] -= 1;
            whole_games(t, &mut games);
            alias_table(&games, &mut keep, &mut alias);
        }
    }
    wins
}

/// The row of the whole-game loop: `n` games, seed 1.
pub fn whole_row(n: u64) -> anyhow::Result<Row> {
    let mut t = tables()?;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let start = Instant::now();
    let wins = play_whole(&mut t, n, &mut rng);
    let seconds = start.elapsed().as_secs_f64();
    Ok(Row::games(
        "  the same rule, each game drawn whole",
        n,
        seconds,
        format!(
            "one ChaCha8 draw a game from an alias table of whole games, {:.3} of games won",
            wins as f64 / n as f64
        ),
    ))
}

/// The row: `n` games of the speed-of-light loop, seed 1.
pub fn row(n: u64) -> anyhow::Result<Row> {
    let mut t = tables()?;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let start = Instant::now();
    let wins = play(&mut t, n, &mut rng);
    let seconds = start.elapsed().as_secs_f64();
    Ok(Row::games(
        "  the same rule in a speed-of-light loop",
        n,
        seconds,
        format!(
            "one ChaCha8 draw a game, {} positions, {:.3} of games won",
            t.kind.len(),
            wins as f64 / n as f64
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loop plays HER's rule: trained on 10 000 games against random
    /// play it wins nearly all of the next 10 000, as the trainer's HER
    /// does (its exact chance of beating random play is 0.9998 on average
    /// after 500 games: README, `experiments/gardner-long.json`).
    #[test]
    fn the_loop_learns_as_her_does() {
        let mut t = tables().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        play(&mut t, 10_000, &mut rng);
        let wins = play(&mut t, 10_000, &mut rng);
        assert!(wins > 9_900, "{wins}");
    }

    /// The table of whole games: the chances add up to 1, the untrained
    /// machine wins with the chance the trainer's exact evaluation gives
    /// (a second computation, over the general game tree), and the
    /// whole-game loop learns as the ply-by-ply one does.
    #[test]
    fn whole_games_have_the_exact_chances() {
        use menace::training::opponent::OpponentSpec;
        use menace::training::trainer::Trainer;
        let mut t = tables().unwrap();
        let mut games = Vec::new();
        whole_games(&t, &mut games);
        let total = games.last().unwrap().0;
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        let mut won = 0.0;
        let mut before = 0.0;
        for &(cum, _, w) in &games {
            if w {
                won += cum - before;
            }
            before = cum;
        }
        let game = Hexapawn::new(3, 3).unwrap();
        let mut trainer = Trainer::new(game, Player::Two, MachineSettings::gardner(), OpponentSpec::Random, 1).unwrap();
        let exact = trainer.exact().random.unwrap();
        assert!((won - exact.win).abs() < 1e-12, "{won} {}", exact.win);
        // The alias table gives each game its chance back: summed over the
        // slots, a game's share of keeping and of being the alias.
        let (mut keep, mut alias) = (Vec::new(), Vec::new());
        alias_table(&games, &mut keep, &mut alias);
        let n = games.len() as f64;
        let mut share = vec![0.0; games.len()];
        for (slot, (&k, &a)) in keep.iter().zip(&alias).enumerate() {
            let kept = k as f64 / (1u64 << 32) as f64;
            share[slot] += kept / n;
            share[a as usize] += (1.0 - kept) / n;
        }
        let mut before = 0.0;
        for (g, got) in games.iter().zip(&share) {
            assert!((got - (g.0 - before)).abs() < 1e-8, "{got} {}", g.0 - before);
            before = g.0;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        play_whole(&mut t, 10_000, &mut rng);
        let wins = play_whole(&mut t, 10_000, &mut rng);
        assert!(wins > 9_900, "{wins}");
    }
}
