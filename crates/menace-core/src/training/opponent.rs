//! The machine's opponents: random, perfect (from the solver), mixtures of
//! the two, and a second matchbox machine.

use crate::clock::Instant;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rand::Rng;
use rustc_hash::FxHashMap;

use crate::error::InvalidValue;
use crate::game::Game;
use crate::machine::settings::MachineSettings;
use crate::machine::{uniform, Choice, Machine};
use crate::search::mcts::Mcts;
use crate::search::solver::{Solver, TooLarge};
use crate::search::PositionSolver;

/// An opponent as named on the command line and in experiment files.
#[derive(Clone, Debug, PartialEq)]
pub enum OpponentSpec {
    /// A uniformly random legal move.
    Random,
    /// A person, whose moves come from outside (`menace play`).
    Human,
    /// With probability `p` a perfect move, else a random one (`perfect` is p = 1).
    Perfect(f64),
    /// A second matchbox machine that learns too (self-play), with these settings.
    Menace(Option<Box<MachineSettings>>),
    /// Monte Carlo tree search with this many playouts a move and exploration constant.
    Mcts {
        /// Playouts a move.
        playouts: u32,
        /// The UCT exploration constant.
        exploration: f64,
    },
}

/// The opponents that are programs, as an error lists them.
const PROGRAMS: &str =
    "random, perfect, perfect:P (P from 0 to 1), menace, mcts:N (N playouts from 1 to 10000000, optionally ,c=C)";

impl OpponentSpec {
    /// [`OpponentSpec::parse`] for where only a program can play (`train`,
    /// experiments): `human` is refused, and the error lists programs only.
    pub fn parse_program(text: &str) -> Result<OpponentSpec, InvalidValue> {
        match OpponentSpec::parse(text) {
            Ok(OpponentSpec::Human) => Err(InvalidValue::new(
                "opponent",
                text,
                format!("a person plays at the terminal with `menace play`; expected a program: {PROGRAMS}"),
            )),
            Ok(spec) => Ok(spec),
            // The general list names `human` too: name the programs only.
            Err(_) => Err(InvalidValue::new("opponent", text, format!("expected {PROGRAMS}"))),
        }
    }

    /// Read `random`, `perfect`, `perfect:0.8`, `menace`, `mcts:1000` or `mcts:1000,c=1.4`.
    pub fn parse(text: &str) -> Result<OpponentSpec, InvalidValue> {
        let err = || InvalidValue::new("opponent", text, format!("expected {PROGRAMS}, or human"));
        match text.trim() {
            "random" => Ok(OpponentSpec::Random),
            "human" => Ok(OpponentSpec::Human),
            "perfect" => Ok(OpponentSpec::Perfect(1.0)),
            "menace" => Ok(OpponentSpec::Menace(None)),
            t if t.starts_with("mcts:") => {
                let rest = &t["mcts:".len()..];
                let (n, c) = match rest.split_once(',') {
                    Some((n, opt)) => (n, Some(opt)),
                    None => (rest, None),
                };
                let playouts = n
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=10_000_000).contains(n))
                    .ok_or_else(err)?;
                let exploration = match c {
                    None => crate::search::mcts::DEFAULT_EXPLORATION,
                    Some(opt) => opt
                        .trim()
                        .strip_prefix("c=")
                        .and_then(|v| v.parse::<f64>().ok())
                        .filter(|c| c.is_finite() && *c >= 0.0)
                        .ok_or_else(err)?,
                };
                Ok(OpponentSpec::Mcts { playouts, exploration })
            }
            t => match t.strip_prefix("perfect:").map(str::parse::<f64>) {
                Some(Ok(p)) if (0.0..=1.0).contains(&p) => Ok(OpponentSpec::Perfect(p)),
                _ => Err(err()),
            },
        }
    }
}

impl fmt::Display for OpponentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpponentSpec::Random => write!(f, "random"),
            OpponentSpec::Human => write!(f, "human"),
            OpponentSpec::Perfect(p) if *p == 1.0 => write!(f, "perfect"),
            OpponentSpec::Perfect(p) => write!(f, "perfect:{p}"),
            OpponentSpec::Menace(_) => write!(f, "menace"),
            OpponentSpec::Mcts { playouts, exploration }
                if *exploration == crate::search::mcts::DEFAULT_EXPLORATION =>
            {
                write!(f, "mcts:{playouts}")
            }
            OpponentSpec::Mcts { playouts, exploration } => write!(f, "mcts:{playouts},c={exploration}"),
        }
    }
}

/// The most positions the perfect opponent solves before giving up (a few
/// seconds' work; hexapawn up to 5×5 and noughts and crosses fit easily).
pub const PERFECT_LIMIT: usize = 5_000_000;

/// Plays perfectly: uniformly among the moves that keep the best value
/// (fastest win, slowest loss, from the exhaustive solver), or, where the
/// game is too large to solve whole, among the moves its own position
/// solver gives ([`SearchLimits::position_solver`](crate::SearchLimits::position_solver)). Best moves are cached per
/// position.
pub struct PerfectPlayer<G: Game> {
    engine: Engine<G>,
    best: FxHashMap<G::Position, Vec<G::Move>>,
    /// The position solver's last answer.
    last: Vec<G::Move>,
}

/// What a perfect player asks for its best moves.
enum Engine<G: Game> {
    /// The whole game solved from the start, with distances.
    Exhaustive(Solver<G>),
    /// Positions decided as games reach them.
    OnDemand(Box<dyn PositionSolver<G>>),
}

impl<G: Game> PerfectPlayer<G> {
    /// Solve the game from its start, or use the game's position solver if
    /// it needs more than [`PERFECT_LIMIT`] positions; an error if it has none.
    pub fn new(game: G) -> Result<PerfectPlayer<G>, TooLarge> {
        PerfectPlayer::with_limit(game, PERFECT_LIMIT)
    }

    /// [`PerfectPlayer::new`] storing at most `limit` positions.
    pub fn with_limit(game: G, limit: usize) -> Result<PerfectPlayer<G>, TooLarge> {
        // Where the estimate says the exhaustive solve would run out, the position solver at once.
        let at_once = if game.expects_to_exceed(limit) {
            game.position_solver()
        } else {
            None
        };
        let engine = match at_once {
            Some(solver) => Engine::OnDemand(solver),
            None => match PerfectPlayer::exhaustive(&game, limit) {
                Ok(solver) => Engine::Exhaustive(solver),
                Err(too_large) => Engine::OnDemand(game.position_solver().ok_or(too_large)?),
            },
        };
        Ok(PerfectPlayer {
            engine,
            best: FxHashMap::default(),
            last: Vec::new(),
        })
    }

    /// A perfect player that asks `solver` position by position.
    pub fn on_demand(solver: Box<dyn PositionSolver<G>>) -> PerfectPlayer<G> {
        PerfectPlayer {
            engine: Engine::OnDemand(solver),
            best: FxHashMap::default(),
            last: Vec::new(),
        }
    }

    /// [`PerfectPlayer::with_limit`] from the exhaustive solver only.
    pub fn exhaustive_with_limit(game: G, limit: usize) -> Result<PerfectPlayer<G>, TooLarge> {
        Ok(PerfectPlayer {
            engine: Engine::Exhaustive(PerfectPlayer::exhaustive(&game, limit)?),
            best: FxHashMap::default(),
            last: Vec::new(),
        })
    }

    /// A perfect player from the exhaustive solver with the game not solved
    /// yet: each position is solved when first asked, with the same values
    /// and so the same moves as after a whole solve. Only for a game known
    /// to fit under [`PERFECT_LIMIT`], as a compiled table shows (see
    /// [`crate::training::compiled::Table::against_perfect`]): elsewhere a
    /// solve that runs out would do so in the middle of a game.
    pub(crate) fn solved_when_asked(game: G) -> PerfectPlayer<G> {
        PerfectPlayer {
            engine: Engine::Exhaustive(Solver::with_limit(game, PERFECT_LIMIT)),
            best: FxHashMap::default(),
            last: Vec::new(),
        }
    }

    fn exhaustive(game: &G, limit: usize) -> Result<Solver<G>, TooLarge> {
        // Where the game's position bound is already over the limit, say so at once.
        game.check_exhaustive(limit)?;
        let mut solver = Solver::with_limit(game.clone(), limit);
        solver.value(&game.start())?;
        Ok(solver)
    }

    /// Positions the exhaustive solver has stored (0 for a position solver).
    #[cfg(test)]
    pub(crate) fn solved_positions(&self) -> usize {
        match &self.engine {
            Engine::Exhaustive(solver) => solver.positions(),
            Engine::OnDemand(_) => 0,
        }
    }

    /// Whether the whole game was solved (distances known), rather than
    /// positions decided as they come.
    pub fn is_exhaustive(&self) -> bool {
        matches!(self.engine, Engine::Exhaustive(_))
    }

    /// One of the best moves in `pos`, uniformly at random: one draw among
    /// them from the exhaustive solver, the position solver's own choice
    /// otherwise ([`PositionSolver::choose_best`]).
    pub fn choose_best<R: Rng>(&mut self, pos: &G::Position, rng: &mut R) -> G::Move {
        match &mut self.engine {
            Engine::Exhaustive(_) => uniform(self.best_moves(pos), rng),
            Engine::OnDemand(solver) => solver.choose_best(pos, rng),
        }
    }

    /// [`PerfectPlayer::choose_best`], giving up (`None`) once `deadline`
    /// passes (see [`PositionSolver::choose_before`]); the exhaustive
    /// solver's choice is a look-up, never late.
    pub fn choose_best_before<R: Rng>(&mut self, pos: &G::Position, rng: &mut R, deadline: Instant) -> Option<G::Move> {
        match &mut self.engine {
            Engine::Exhaustive(_) => Some(self.choose_best(pos, rng)),
            Engine::OnDemand(solver) => solver.choose_before(pos, rng, deadline),
        }
    }

    /// A position solver's searches stop soon after `stop` is set (see
    /// [`PositionSolver::set_interrupt`]); the exhaustive solver's choices
    /// are look-ups.
    pub fn set_interrupt(&mut self, stop: Arc<AtomicBool>) {
        if let Engine::OnDemand(solver) = &mut self.engine {
            solver.set_interrupt(stop);
        }
    }

    /// The best moves in `pos`.
    pub fn best_moves(&mut self, pos: &G::Position) -> &[G::Move] {
        match &mut self.engine {
            Engine::Exhaustive(solver) => {
                if !self.best.contains_key(pos) {
                    // Every position reachable from the start is solved already, or
                    // known to fit (`solved_when_asked`), so this cannot fail.
                    let moves = solver.best_moves(pos).unwrap_or_default();
                    self.best.insert(pos.clone(), moves);
                }
                &self.best[pos]
            }
            // The position solver keeps what it proved within its own bound;
            // a cache here would grow with the positions games reach.
            Engine::OnDemand(solver) => {
                self.last = solver.best_moves(pos);
                &self.last
            }
        }
    }
}

/// Whether an opponent that plays perfectly with chance `p` (else at
/// random) plays one of its best moves this turn: the one rule of both
/// training paths, which then pick uniformly ([`uniform`]) among the best
/// moves or all of them. It draws from `rng` only where the chance is not
/// certain, on both paths alike.
#[inline(always)]
pub(crate) fn plays_best<R: Rng>(p: f64, rng: &mut R) -> bool {
    p >= 1.0 || rng.random_bool(p)
}

/// An opponent ready to play.
pub enum Opponent<G: Game> {
    /// Uniformly random legal moves.
    Random,
    /// A person: the match driver waits for their moves.
    Human,
    /// The perfect player, who plays a best move with chance `p` and a
    /// random legal move otherwise.
    Perfect {
        /// The chance of a best move (1: always).
        p: f64,
        /// The solved game's best moves.
        player: Box<PerfectPlayer<G>>,
    },
    /// A second matchbox machine, which learns too.
    Menace(Box<Machine<G>>),
    /// Monte Carlo tree search.
    Mcts(Box<Mcts<G>>),
}

impl<G: Game> Opponent<G> {
    /// Choose a move in `pos`, the opponent's `own_move`-th; `None` to resign.
    pub fn choose<R: Rng>(
        &mut self,
        game: &G,
        pos: &G::Position,
        own_move: u32,
        rng: &mut R,
        buf: &mut Vec<G::Move>,
    ) -> Option<G::Move> {
        match self {
            Opponent::Random => {
                game.legal_moves(pos, buf);
                Some(uniform(buf, rng))
            }
            Opponent::Perfect { p, player } => {
                if plays_best(*p, rng) {
                    return Some(player.choose_best(pos, rng));
                }
                game.legal_moves(pos, buf);
                Some(uniform(buf, rng))
            }
            Opponent::Menace(machine) => match machine.choose(pos, own_move, rng) {
                Choice::Play(m) => Some(m),
                Choice::Resign => None,
            },
            Opponent::Mcts(search) => Some(search.choose(pos, rng)),
            // A person's moves come through the match driver, never from here.
            Opponent::Human => None,
        }
    }

    /// [`Opponent::choose`], giving up (`None`) once `deadline` passes
    /// where the choice is a perfect player's search that can be cut
    /// short ([`PerfectPlayer::choose_best_before`]): asked again with
    /// `rng` as it was, it goes on and draws the same.
    pub fn choose_before<R: Rng>(
        &mut self,
        game: &G,
        pos: &G::Position,
        own_move: u32,
        rng: &mut R,
        buf: &mut Vec<G::Move>,
        deadline: Instant,
    ) -> Option<Option<G::Move>> {
        match self {
            // The same draws as `choose`: first whether to play a best move.
            Opponent::Perfect { p, player } => {
                if plays_best(*p, rng) {
                    return player.choose_best_before(pos, rng, deadline).map(Some);
                }
                game.legal_moves(pos, buf);
                Some(Some(uniform(buf, rng)))
            }
            _ => Some(self.choose(game, pos, own_move, rng, buf)),
        }
    }

    /// Searches stop soon after `stop` is set (by another thread): MCTS
    /// plays its best move so far, a position solver a legal move; for a
    /// caller dropping its game.
    pub fn set_interrupt(&mut self, stop: Arc<AtomicBool>) {
        match self {
            Opponent::Mcts(search) => search.set_interrupt(stop),
            Opponent::Perfect { player, .. } => player.set_interrupt(stop),
            _ => {}
        }
    }

    /// A new game starts: forget what belonged to the last one.
    pub fn new_game(&mut self) {
        if let Opponent::Mcts(search) = self {
            search.reset();
        }
    }

    /// The learning opponent, if this is one.
    pub fn machine(&self) -> Option<&Machine<G>> {
        match self {
            Opponent::Menace(m) => Some(m),
            _ => None,
        }
    }

    /// The learning opponent, mutably.
    pub fn machine_mut(&mut self) -> Option<&mut Machine<G>> {
        match self {
            Opponent::Menace(m) => Some(m),
            _ => None,
        }
    }
}
