//! Exact learning (`training::lifetime`): a machine's whole learning life
//! under Gardner's rule, checked against a hand count, a brute-force
//! enumeration of every sequence of games written here, and the sampled
//! trainer's seeds.

use std::collections::HashMap;

use menace::game::Outcome;
use menace::machine::settings::MachineSettings;
use menace::machine::{GameResult, Machine};
use menace::prelude::*;
use menace::training::exact::Reference;
use menace::training::lifetime::{life, Life, LifeError, LifeLimits};
use menace::training::opponent::{OpponentSpec, PerfectPlayer};
use menace::training::trainer::Trainer;
use menace::{Game, Hexapawn, Player, TicTacToe};

fn settings(symmetry: bool) -> MachineSettings {
    let mut s = MachineSettings::gardner();
    s.symmetry = symmetry;
    s
}

fn her(symmetry: bool) -> Machine<Hexapawn> {
    Machine::new(Hexapawn::new(3, 3).unwrap(), Player::Two, settings(symmetry)).unwrap()
}

fn her_life(symmetry: bool, perfect: bool, games: usize, limits: LifeLimits) -> Result<Life, LifeError> {
    her_life_against(symmetry, if perfect { 1.0 } else { 0.0 }, games, limits)
}

/// HER's life against a White that plays a perfect move with chance
/// `best` (1: always, as `Reference::Perfect`; 0: never, as `Reference::Random`).
fn her_life_against(symmetry: bool, best: f64, games: usize, limits: LifeLimits) -> Result<Life, LifeError> {
    let m = her(symmetry);
    let mut player = PerfectPlayer::new(m.game().clone()).unwrap();
    let mut reference = if best >= 1.0 {
        Reference::Perfect(&mut player)
    } else if best > 0.0 {
        Reference::Mixed(best, &mut player)
    } else {
        Reference::Random
    };
    life(&m, &mut reference, games, limits)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// HER against a perfect White, colours merged by symmetry, by hand.
///
/// A perfect White loses whatever it does, and plays the slowest loss: 1. b2
/// always (a loss in 6 plies; a2 and c2 lose in 4). On the one line it then
/// keeps to, HER meets three boxes in turn, each with two colours of one
/// bead: one that wins, and one after which White wins before HER moves
/// again, so that Gardner's rule takes exactly that bead. A game therefore
/// goes: at each box still holding its bad bead, a loss (that bead goes)
/// with chance 1/2, else on to the next; past all three, a win. The machine
/// loses exactly 3 games in its life (P(3) = 1), can be in 2³ = 8 states,
/// loses game 1 with chance 7/8 and game 2 with 1/8·7/8 + 7/8·3/4 = 49/64,
/// and from a state of k bad beads in boxes i₁ < … < i_k, the expected
/// games until safe G satisfy G(∅) = 0, G(one) = 2, G(two) = (1 + ½·2 +
/// ¼·2)/(¾) = 10/3, G(three) = (1 + (7/8)(10/3))/(7/8) = 94/21.
///
/// The chain is small enough to run here, game by game, as a second
/// implementation: a state is the set of bad beads left.
#[test]
fn her_against_perfect_white_matches_the_hand_count() {
    let l = her_life(true, true, 200, LifeLimits::default()).unwrap();
    assert_eq!(l.states, 8);
    assert!(close(l.expected_losses, 3.0), "{}", l.expected_losses);
    assert_eq!(l.losses.len(), 4, "{:?}", l.losses);
    assert!(close(l.losses[3], 1.0), "{:?}", l.losses);
    assert!(
        close(l.expected_games_until_safe, 94.0 / 21.0),
        "{}",
        l.expected_games_until_safe
    );
    assert!(
        close(l.loss_at[0], 7.0 / 8.0) && close(l.loss_at[1], 49.0 / 64.0),
        "{:?}",
        &l.loss_at[..2]
    );
    assert_eq!(l.safe_at_start, 0.0);

    // The hand chain over the sets of bad beads left (bit i: box i's).
    let mut p = [0.0f64; 8];
    p[0b111] = 1.0;
    for n in 0..200 {
        let mut next = [0.0f64; 8];
        let mut lost = 0.0;
        for (set, &q) in p.iter().enumerate() {
            let mut reach = q;
            for i in 0..3 {
                if set & (1 << i) != 0 {
                    next[set & !(1 << i)] += reach / 2.0;
                    lost += reach / 2.0;
                    reach /= 2.0;
                }
            }
            next[set] += reach;
        }
        p = next;
        assert!(
            close(l.loss_at[n], lost),
            "game {}: {} against {lost}",
            n + 1,
            l.loss_at[n]
        );
        assert!(
            close(l.safe_by[n], p[0]),
            "game {}: {} against {}",
            n + 1,
            l.safe_by[n],
            p[0]
        );
    }
}

/// HER's boxes as the test keeps them: bead counts by the box's position
/// and its colour's move, both in notation (a second machine, written here).
type Beads = HashMap<(String, String), u32>;

/// Every game of HER (as `beads` are) against `opponent`, with its chance:
/// `visit(chance, result, last colour drawn)`.
#[allow(clippy::too_many_arguments)]
fn every_game(
    game: &Hexapawn,
    machine: &Machine<Hexapawn>,
    beads: &Beads,
    perfect: &mut Option<(f64, PerfectPlayer<Hexapawn>)>,
    pos: &<Hexapawn as Rules>::Position,
    p: f64,
    last: Option<(String, String)>,
    visit: &mut dyn FnMut(f64, GameResult, Option<(String, String)>),
) {
    match game.outcome(pos) {
        Outcome::Ongoing => {}
        o => return visit(p, GameResult::for_player(o, Player::Two), last),
    }
    if game.turn(pos) == Player::Two {
        // The box of the position (or of its mirror image, colours merged),
        // as the machine made it: its colours are moves there.
        let symmetry = machine.settings().symmetry;
        let (boxed, sym) = if symmetry {
            game.canonical(pos)
        } else {
            (*pos, <Hexapawn as Symmetric>::Symmetry::identity())
        };
        let name = game.position_string(&boxed);
        let colours: Vec<(String, u32)> = beads
            .iter()
            .filter(|((b, _), _)| *b == name)
            .map(|((_, m), &n)| (m.clone(), n))
            .collect();
        assert!(!colours.is_empty(), "no box for {name}");
        let total: u32 = colours.iter().map(|c| c.1).sum();
        if total == 0 {
            return visit(p, GameResult::Loss, last);
        }
        for (mv, n) in colours {
            if n == 0 {
                continue;
            }
            let stored = game.parse_move(&boxed, &mv).unwrap();
            let real = game.map_move(stored, sym.inverse());
            let child = game.play(pos, real);
            let here = Some((name.clone(), mv));
            every_game(
                game,
                machine,
                beads,
                perfect,
                &child,
                p * f64::from(n) / f64::from(total),
                here,
                visit,
            );
        }
    } else {
        // White's moves and chances: with chance `best` one of the best
        // moves (each alike), else any legal move (each alike).
        let legal = game.moves(pos);
        let chances: Vec<f64> = match perfect {
            Some((best, player)) => {
                let top = player.best_moves(pos).to_vec();
                legal
                    .iter()
                    .map(|m| {
                        let perfect_part = if top.contains(m) { *best / top.len() as f64 } else { 0.0 };
                        perfect_part + (1.0 - *best) / legal.len() as f64
                    })
                    .collect()
            }
            None => vec![1.0 / legal.len() as f64; legal.len()],
        };
        for (mv, c) in legal.iter().zip(chances) {
            if c == 0.0 {
                continue;
            }
            let child = game.play(pos, *mv);
            every_game(game, machine, beads, perfect, &child, p * c, last.clone(), visit);
        }
    }
}

/// The chance of losing each of the first `games` games, summed over every
/// sequence of games: after each, Gardner's rule applied to the test's own
/// bead counts.
fn brute_force(symmetry: bool, best: f64, games: usize) -> Vec<f64> {
    let game = Hexapawn::new(3, 3).unwrap();
    let machine = her(symmetry);
    let mut beads = Beads::new();
    for (i, b) in machine.boxes().iter().enumerate() {
        let pos = b.position(&game);
        for (mv, n) in machine.box_moves(i as u32).into_iter().zip(b.beads.iter()) {
            beads.insert((game.position_string(&pos), game.move_name(&pos, mv)), n);
        }
    }
    let mut player = (best > 0.0).then(|| (best, PerfectPlayer::new(game.clone()).unwrap()));
    let mut loss_at = vec![0.0; games];
    fn go(
        game: &Hexapawn,
        machine: &Machine<Hexapawn>,
        beads: &Beads,
        player: &mut Option<(f64, PerfectPlayer<Hexapawn>)>,
        p: f64,
        n: usize,
        loss_at: &mut Vec<f64>,
    ) {
        if n == loss_at.len() {
            return;
        }
        let mut ends = Vec::new();
        every_game(
            game,
            machine,
            beads,
            player,
            &game.start(),
            p,
            None,
            &mut |q, result, last| ends.push((q, result, last)),
        );
        for (q, result, last) in ends {
            let mut after = beads.clone();
            if result == GameResult::Loss {
                loss_at[n] += q;
                if let Some(key) = last {
                    let n = after.get_mut(&key).unwrap();
                    *n = n.saturating_sub(1);
                }
            }
            go(game, machine, &after, player, q, n + 1, loss_at);
        }
    }
    go(&game, &machine, &beads, &mut player, 1.0, 0, &mut loss_at);
    loss_at
}

#[test]
fn the_exact_curve_equals_every_sequence_of_games_enumerated() {
    // Three games against perfect play, two against random and against a
    // White perfect half the time (about 10⁴ sequences each), colours
    // merged and not (unmerged, only against perfect play: against the
    // others the machines are past the budget, and the refusal is checked).
    // The test's own chances of White's moves take its best moves from the
    // same solver; the band test below checks them against the trainer.
    for symmetry in [true, false] {
        for (best, games) in [(1.0, 3), (0.0, 2), (0.5, 2)] {
            let perfect = best == 1.0;
            let budget = LifeLimits {
                states: 100_000,
                ..LifeLimits::default()
            };
            let exact = her_life_against(symmetry, best, games, budget);
            let exact = match exact {
                Ok(l) => l.loss_at,
                // Past the budget, the refusal names it (unmerged, not against perfect play).
                Err(e) => {
                    assert_eq!(e, LifeError::States(100_000));
                    assert!(!symmetry && !perfect, "{e}");
                    continue;
                }
            };
            let brute = brute_force(symmetry, best, games);
            for n in 0..games {
                assert!(
                    close(exact[n], brute[n]),
                    "symmetry {symmetry}, best {best}, game {}: {} against {}",
                    n + 1,
                    exact[n],
                    brute[n]
                );
            }
        }
    }
}

/// The mean losses over the first 50 and 500 games of `seeds` seeds of the
/// sampled trainer, with each mean's 99.9% band (± 3.29 standard errors).
fn sampled(symmetry: bool, opponent: OpponentSpec, seeds: u64) -> [(f64, f64); 2] {
    let mut sums = [[0.0f64; 2]; 2];
    for seed in 0..seeds {
        let game = Hexapawn::new(3, 3).unwrap();
        let mut t = Trainer::new(game, Player::Two, settings(symmetry), opponent.clone(), seed).unwrap();
        let mut losses = 0.0;
        for g in 1..=500 {
            if t.play_game(false).result == GameResult::Loss {
                losses += 1.0;
            }
            if g == 50 || g == 500 {
                let i = usize::from(g == 500);
                sums[i][0] += losses;
                sums[i][1] += losses * losses;
            }
        }
    }
    let n = seeds as f64;
    sums.map(|[s, s2]| {
        let mean = s / n;
        let sd = ((s2 / n - mean * mean) * n / (n - 1.0)).max(0.0).sqrt();
        (mean, 3.29 * sd / n.sqrt())
    })
}

#[test]
fn against_random_white_the_exact_losses_lie_in_the_band_of_2000_seeds() {
    let l = her_life(true, false, 500, LifeLimits::default()).unwrap();
    let [(m50, b50), (m500, b500)] = sampled(true, OpponentSpec::Random, 2000);
    let (e50, e500) = (l.expected_losses_within(50), l.expected_losses_within(500));
    eprintln!(
        "HER vs random, merged: exact {e50:.4} and {e500:.4}; 2000 seeds {m50:.4} ± {b50:.4} and {m500:.4} ± {b500:.4}"
    );
    assert!((e50 - m50).abs() < b50, "50 games: exact {e50}, sampled {m50} ± {b50}");
    assert!(
        (e500 - m500).abs() < b500,
        "500 games: exact {e500}, sampled {m500} ± {b500}"
    );
    // The life's sum, its curve's sum and its distribution's mean agree.
    let mean: f64 = l.losses.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    assert!(close(mean, l.expected_losses), "{mean} {}", l.expected_losses);
    assert!((l.expected_losses - e500) < 0.01 && l.expected_losses >= e500);
    assert!(close(l.losses.iter().sum(), 1.0));
    // Unmerged, the machines HER can become are more than the budget: refused, naming it.
    let small = LifeLimits {
        states: 100_000,
        ..LifeLimits::default()
    };
    let refused = her_life(false, false, 500, small).unwrap_err();
    assert_eq!(refused, LifeError::States(100_000));
    assert!(
        refused.to_string().contains("more than 100000 distinct machines"),
        "{refused}"
    );
}

#[test]
fn against_a_white_perfect_half_the_time_the_exact_losses_lie_in_the_band_of_2000_seeds() {
    // `--opponent perfect:0.5`: a best move with chance 1/2, else any legal move.
    let l = her_life_against(true, 0.5, 500, LifeLimits::default()).unwrap();
    let [(m50, b50), (m500, b500)] = sampled(true, OpponentSpec::Perfect(0.5), 2000);
    let (e50, e500) = (l.expected_losses_within(50), l.expected_losses_within(500));
    eprintln!(
        "HER vs perfect:0.5, merged: exact {e50:.4} and {e500:.4}; 2000 seeds {m50:.4} ± {b50:.4} and {m500:.4} ± {b500:.4}"
    );
    assert!((e50 - m50).abs() < b50, "50 games: exact {e50}, sampled {m50} ± {b50}");
    assert!(
        (e500 - m500).abs() < b500,
        "500 games: exact {e500}, sampled {m500} ± {b500}"
    );
    // Neither a random nor a perfect White's.
    let random = her_life_against(true, 0.0, 500, LifeLimits::default()).unwrap();
    let perfect = her_life_against(true, 1.0, 500, LifeLimits::default()).unwrap();
    for other in [random.expected_losses_within(500), perfect.expected_losses_within(500)] {
        assert!((other - e500).abs() > 10.0 * b500, "{other} against {e500}");
    }
}

#[test]
fn schemes_that_add_beads_are_refused_saying_why() {
    let m = Machine::new(TicTacToe, Player::One, MachineSettings::michie()).unwrap();
    let e = life(&m, &mut Reference::Random, 10, LifeLimits::default()).unwrap_err();
    assert!(matches!(e, LifeError::AddsBeads(_)), "{e}");
    assert!(e.to_string().contains("can gain beads"), "{e}");
}

/// The curve, followed game by game until nothing live is left, and the
/// whole life, worked out in one pass from the machines with fewest beads
/// up, are two computations of the same losses: over enough games the
/// first sums to the second, and the chance of being safe comes to 1.
#[test]
fn the_curve_over_a_long_run_sums_to_the_whole_life() {
    for (best, games) in [(0.0, 20_000), (0.5, 20_000), (1.0, 1_000)] {
        let l = her_life_against(true, best, games, LifeLimits::default()).unwrap();
        assert_eq!(l.loss_at.len(), games);
        assert_eq!(l.safe_by.len(), games);
        let summed = l.expected_losses_within(games);
        assert!(
            (summed - l.expected_losses).abs() < 1e-9,
            "best {best}: {summed} against {}",
            l.expected_losses
        );
        assert!(
            (l.safe_by[games - 1] - 1.0).abs() < 1e-9,
            "best {best}: {}",
            l.safe_by[games - 1]
        );
        // Never less safe from one game to the next, and a chance each game.
        assert!(l.safe_by.windows(2).all(|w| w[1] >= w[0]));
        assert!(l.loss_at.iter().all(|&p| (0.0..=1.0).contains(&p)));
    }
}
