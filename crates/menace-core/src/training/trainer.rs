//! Seeded training: a machine plays game after game against an opponent.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::game::{Game, Player};
use crate::machine::settings::MachineSettings;
use crate::machine::{BeadChange, Choice, GameResult, GivenDrawError, Machine};
use crate::search::solver::TooLarge;
use crate::training::compiled::Table;
use crate::training::exact::{expected, Expected, Reference, EXACT_LIMIT};
use crate::training::opponent::{Opponent, OpponentSpec, PerfectPlayer};

/// The exact expected results of the machine at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExactPair {
    /// Against a perfect opponent (absent where the game cannot be solved).
    pub perfect: Option<Expected>,
    /// Against a uniformly random opponent.
    pub random: Option<Expected>,
}

/// What one game left behind.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 1-based game number over the machine's life.
    pub game: u64,
    /// From the machine's point of view.
    pub result: GameResult,
    /// Plies played (a resignation ends the game early).
    pub plies: u32,
    /// Beads in all boxes after reinforcement.
    pub total_beads: u64,
    /// Beads in the boxes of the machine's first move.
    pub first_box_beads: u64,
    /// Boxes the machine has.
    pub boxes: usize,
    /// The exact expected results after this game, when recorded.
    pub exact: Option<ExactPair>,
    /// The seed that chose this game's start, for games whose start depends
    /// on one (Hex: who places first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_seed: Option<u64>,
}

/// The machine as it stands, before a run's first game: where curves start (game 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Beads in all boxes.
    pub total_beads: u64,
    /// Beads in the boxes of the machine's first move.
    pub first_box_beads: u64,
    /// Boxes the machine has.
    pub boxes: usize,
    /// The exact expected results, when asked for.
    pub exact: Option<ExactPair>,
}

/// A training run: a machine, an opponent, and the one random stream both draw from.
///
/// Its state is its own: the machine and opponent are changed through
/// [`Trainer::machine_mut`] and [`Trainer::set_opponent`], which start a new
/// generation, so that the compiled table (built for one machine and one
/// opponent) is never used for another. Games change only beads, which the
/// table reads afresh.
pub struct Trainer<G: Game> {
    machine: Machine<G>,
    opponent: Opponent<G>,
    opponent_spec: OpponentSpec,
    rng: ChaCha8Rng,
    games_played: u64,
    /// The seed the run started from (kept in state files across resumes).
    seed: Option<u64>,
    perfect: Option<Box<PerfectPlayer<G>>>,
    perfect_tried: bool,
    /// The exact evaluations against perfect and random play that proved too large.
    exact_too_large: [bool; 2],
    buf: Vec<G::Move>,
    /// Whether each game's start depends on a seed (Hex: who places first).
    seeded_start: bool,
    /// Counts changes of machine or opponent that a compiled table may not outlive.
    generation: u64,
    /// The compiled fast path, where the game is small enough (see
    /// [`Table`]), with the generation it was built for.
    compiled: Option<(u64, Box<Table<G>>)>,
    /// The generation a table was last tried for: no second try until the
    /// next change.
    compiled_tried: Option<u64>,
    use_compiled: bool,
}

/// Why a trainer could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainError {
    /// The machine's boxes cannot all be made up front.
    #[error("box mode 'enumerate': {0}; open boxes on first visit instead (--box-mode first-visit)")]
    TooLarge(#[from] TooLarge),
    /// The perfect opponent needs the game solved, and it is too large.
    #[error("opponent 'perfect' needs the game solved, but {0}: use a search opponent such as mcts:1000")]
    PerfectTooLarge(TooLarge),
}

/// Make the opponent a spec names, for a machine playing `side`.
pub fn make_opponent<G: Game>(
    game: &G,
    spec: &OpponentSpec,
    side: Player,
    machine_settings: &MachineSettings,
) -> Result<Opponent<G>, TrainError> {
    Ok(match spec {
        OpponentSpec::Random => Opponent::Random,
        OpponentSpec::Human => Opponent::Human,
        OpponentSpec::Perfect(p) => {
            let player = PerfectPlayer::new(game.clone()).map_err(TrainError::PerfectTooLarge)?;
            Opponent::Perfect {
                p: *p,
                player: Box::new(player),
            }
        }
        OpponentSpec::Mcts { playouts, exploration } => Opponent::Mcts(Box::new(crate::search::mcts::Mcts::new(
            game.clone(),
            *playouts,
            *exploration,
        ))),
        OpponentSpec::Menace(settings) => {
            let settings = settings.as_deref().unwrap_or(machine_settings).clone();
            Opponent::Menace(Box::new(Machine::new(game.clone(), side.other(), settings)?))
        }
    })
}

impl<G: Game> Trainer<G> {
    /// A fresh machine playing `side` against `opponent`, seeded with `seed`.
    pub fn new(
        game: G,
        side: Player,
        settings: MachineSettings,
        opponent: OpponentSpec,
        seed: u64,
    ) -> Result<Trainer<G>, TrainError> {
        let machine = Machine::new(game, side, settings)?;
        let mut trainer = Self::against(machine, opponent, ChaCha8Rng::seed_from_u64(seed), 0)?;
        trainer.seed = Some(seed);
        Ok(trainer)
    }

    /// Continue `machine` against the opponent `spec` names, made for it.
    /// Against perfect play the compiled table comes first: where it holds
    /// the game, the perfect player's whole-game solve is not needed up
    /// front (`Table::against_perfect`).
    pub fn against(
        machine: Machine<G>,
        spec: OpponentSpec,
        rng: ChaCha8Rng,
        games_played: u64,
    ) -> Result<Trainer<G>, TrainError> {
        let compiled = match &spec {
            OpponentSpec::Perfect(p) => Table::against_perfect(&machine, *p),
            _ => None,
        };
        Ok(match compiled {
            Some((opponent, table)) => {
                let mut trainer = Self::resume(machine, opponent, spec, rng, games_played);
                trainer.compiled = Some((trainer.generation, Box::new(table)));
                trainer.compiled_tried = Some(trainer.generation);
                trainer
            }
            None => {
                let opponent = make_opponent(machine.game(), &spec, machine.side(), machine.settings())?;
                Self::resume(machine, opponent, spec, rng, games_played)
            }
        })
    }

    /// Continue from saved parts.
    pub fn resume(
        machine: Machine<G>,
        opponent: Opponent<G>,
        opponent_spec: OpponentSpec,
        rng: ChaCha8Rng,
        games_played: u64,
    ) -> Trainer<G> {
        let seeded_start = machine.game().starts().len() > 1;
        Trainer {
            machine,
            opponent,
            opponent_spec,
            rng,
            games_played,
            seed: None,
            perfect: None,
            perfect_tried: false,
            exact_too_large: [false; 2],
            buf: Vec::new(),
            seeded_start,
            generation: 0,
            compiled: None,
            compiled_tried: None,
            use_compiled: true,
        }
    }

    /// The machine being trained.
    pub fn machine(&self) -> &Machine<G> {
        &self.machine
    }

    /// The machine, to change: a compiled table built for it is not used again.
    pub fn machine_mut(&mut self) -> &mut Machine<G> {
        self.generation += 1;
        &mut self.machine
    }

    /// The opponent.
    pub fn opponent(&self) -> &Opponent<G> {
        &self.opponent
    }

    /// The spec the opponent was made from.
    pub fn opponent_spec(&self) -> &OpponentSpec {
        &self.opponent_spec
    }

    /// Play against another opponent from now on; the old one is given back.
    pub fn set_opponent(&mut self, spec: OpponentSpec, opponent: Opponent<G>) -> (OpponentSpec, Opponent<G>) {
        self.generation += 1;
        (
            std::mem::replace(&mut self.opponent_spec, spec),
            std::mem::replace(&mut self.opponent, opponent),
        )
    }

    /// The run's random stream, as it stands (state files keep it).
    pub fn rng(&self) -> &ChaCha8Rng {
        &self.rng
    }

    /// Games played over the machine's life.
    pub fn games_played(&self) -> u64 {
        self.games_played
    }

    /// The seed the run started from, where known.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Note the seed the run started from (a resumed run's, from its state file).
    pub fn set_seed(&mut self, seed: Option<u64>) {
        self.seed = seed;
    }

    /// The machine draws its move in `pos`, its `own_move`-th (see [`Machine::choose`]).
    pub(crate) fn machine_choose(&mut self, pos: &G::Position, own_move: u32) -> Choice<G::Move> {
        self.machine.choose(pos, own_move, &mut self.rng)
    }

    /// The bead a person drew from the real machine (see [`Machine::choose_given`]).
    pub(crate) fn machine_choose_given(
        &mut self,
        pos: &G::Position,
        own_move: u32,
        colour: Option<u32>,
    ) -> Result<Choice<G::Move>, GivenDrawError> {
        self.machine.choose_given(pos, own_move, colour)
    }

    /// A program opponent chooses its move in `pos`; `None` where it resigns.
    pub(crate) fn opponent_choose(&mut self, pos: &G::Position, own_move: u32) -> Option<G::Move> {
        let game = self.machine.game();
        self.opponent.choose(game, pos, own_move, &mut self.rng, &mut self.buf)
    }

    /// Lend out the opponent and the random stream, for a move chosen apart
    /// from the trainer ([`crate::training::driver::Thinking`]); a random
    /// player stands in, and the stream stays as it was, until
    /// [`Trainer::give_back_opponent`].
    pub(crate) fn lend_opponent(&mut self) -> (Opponent<G>, ChaCha8Rng) {
        (
            std::mem::replace(&mut self.opponent, Opponent::Random),
            self.rng.clone(),
        )
    }

    /// The opponent and stream lent out, back where they were.
    pub(crate) fn give_back_opponent(&mut self, opponent: Opponent<G>, rng: ChaCha8Rng) {
        self.opponent = opponent;
        self.rng = rng;
    }

    /// A new game starts: the opponent forgets the last one.
    pub(crate) fn opponent_new_game(&mut self) {
        self.opponent.new_game();
    }

    /// Reinforce the machine, and a learning opponent, with the result of the
    /// game just played; the machine's changed beads.
    pub(crate) fn reinforce(&mut self, result: GameResult) -> Vec<BeadChange> {
        self.note_draws();
        let changes = self.machine.reinforce(result);
        if let Some(other) = self.opponent.machine_mut() {
            other.reinforce(result.reversed());
        }
        changes
    }

    /// Forget the draws of an unfinished game, the learning opponent's too.
    pub(crate) fn abandon(&mut self) {
        // A box restocked when drawn from keeps its new beads.
        self.note_draws();
        self.machine.abandon();
        if let Some(other) = self.opponent.machine_mut() {
            other.abandon();
        }
    }

    /// Tell the compiled table which boxes this game drew from (played the
    /// general way): its kept exact values for them are out of date.
    fn note_draws(&mut self) {
        if let Some((_, table)) = self.compiled.as_mut() {
            table.note_draws(self.machine.history());
        }
    }

    /// The start of the next game, and the seed that chose it where the
    /// start depends on one (drawn from the run's random stream).
    pub fn next_start(&mut self) -> (G::Position, Option<u64>) {
        let game = self.machine.game();
        let seed = self.seeded_start.then(|| self.rng.next_u64());
        let pos = match seed {
            Some(s) => game.seeded_start(s),
            None => game.start(),
        };
        (pos, seed)
    }

    /// The machine as it stands (`exact`: with its exact expected results).
    pub fn snapshot(&mut self, exact: bool) -> Snapshot {
        Snapshot {
            total_beads: self.machine.total_beads(),
            first_box_beads: self.machine.first_move_beads(),
            boxes: self.machine.boxes().len(),
            exact: exact.then(|| self.exact()),
        }
    }

    /// The machine's exact expected results now, against perfect and random
    /// play; each is `None` where the game is too large.
    pub fn exact(&mut self) -> ExactPair {
        // A compiled table plays perfectly from values of its own: no solve here.
        if self.compile() {
            let (_, table) = self.compiled.as_mut().expect("compiled");
            let (random, perfect) = table.exact(&self.machine);
            return ExactPair {
                perfect: Some(perfect),
                random: Some(random),
            };
        }
        if !self.perfect_tried {
            self.perfect_tried = true;
            let game = self.machine.game();
            // Refused by estimate at once, where no evaluation could fit:
            // then no solve for one either (finding both too large by
            // trying takes minutes on the largest boards).
            if game.exceeds(crate::search::solver::memory_bounded::<G::Position>(EXACT_LIMIT)) {
                self.exact_too_large = [true, true];
            } else {
                self.perfect = PerfectPlayer::new(game.clone()).ok().map(Box::new);
            }
        }
        // Once an evaluation has been too large it is not tried again: the
        // positions a machine can reach rarely shrink enough to matter.
        let machine = &self.machine;
        let mut perfect = None;
        if !self.exact_too_large[0] {
            if let Some(player) = self.perfect.as_deref_mut() {
                perfect = expected(machine, &mut Reference::Perfect(player), EXACT_LIMIT).ok();
            }
            self.exact_too_large[0] = perfect.is_none();
        }
        let mut random = None;
        if !self.exact_too_large[1] {
            random = expected(machine, &mut Reference::Random, EXACT_LIMIT).ok();
            self.exact_too_large[1] = random.is_none();
        }
        ExactPair { perfect, random }
    }

    /// Whether small games may take the compiled fast path (the default).
    /// Both paths give the same games for the same seed; turning it off is
    /// for checking that.
    pub fn set_compiled(&mut self, on: bool) {
        self.use_compiled = on;
        self.compiled = None;
        self.compiled_tried = None;
    }

    /// Whether the compiled fast path plays this trainer's games.
    pub fn is_compiled(&mut self) -> bool {
        self.compile()
    }

    /// Whether a compiled table plays this trainer's games, left in
    /// `self.compiled` to be used there: built on first need, and again
    /// after any change of machine or opponent (a new generation); a table
    /// of an older generation is never kept.
    fn compile(&mut self) -> bool {
        if !self.use_compiled {
            return false;
        }
        if matches!(&self.compiled, Some((built_for, _)) if *built_for == self.generation) {
            return true;
        }
        self.compiled = None;
        if self.compiled_tried == Some(self.generation) {
            return false;
        }
        self.compiled_tried = Some(self.generation);
        self.compiled = Table::build(&self.machine, &self.opponent).map(|t| (self.generation, Box::new(t)));
        self.compiled.is_some()
    }

    /// The bytes the compiled table holds and its positions, where one plays
    /// this trainer's games (see [`Trainer::is_compiled`]).
    pub fn compiled_memory(&mut self) -> Option<(usize, usize)> {
        if !self.compile() {
            return None;
        }
        let (_, table) = self.compiled.as_ref().expect("compiled");
        Some((table.memory_bytes(), table.positions()))
    }

    /// Play one game on the compiled table, if there is one.
    pub fn play_compiled(&mut self, exact: bool) -> Option<GameRecord> {
        if !self.compile() {
            return None;
        }
        let (_, table) = self.compiled.as_mut().expect("compiled");
        let played = table.play(&mut self.machine, &self.opponent, &mut self.rng);
        self.machine.reinforce_quietly(played.result);
        Some(self.count_game(played.result, played.plies, played.start_seed, exact))
    }

    /// Count a game just reinforced and report it (`exact`: with the exact
    /// results after it).
    pub(crate) fn count_game(
        &mut self,
        result: GameResult,
        plies: u32,
        start_seed: Option<u64>,
        exact: bool,
    ) -> GameRecord {
        self.games_played = self.games_played.saturating_add(1);
        GameRecord {
            game: self.games_played,
            result,
            plies,
            total_beads: self.machine.total_beads(),
            first_box_beads: self.machine.first_move_beads(),
            boxes: self.machine.boxes().len(),
            exact: exact.then(|| self.exact()),
            start_seed,
        }
    }
}

/// The fewest games without a loss that count as having learned.
pub const LEARNED_MIN_GAMES: u64 = 10;

/// Running totals of a run's games, in constant memory however many games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Games the machine won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the machine lost.
    pub losses: u64,
    /// The game number of the first game counted.
    pub first_game: Option<u64>,
    /// The game number of the last loss.
    pub last_loss: Option<u64>,
    /// Games counted up to and including the last loss.
    games_to_last_loss: u64,
}

impl Tally {
    /// Count one more game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        self.first_game.get_or_insert(r.game);
        match r.result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => {
                self.losses += 1;
                self.last_loss = Some(r.game);
                self.games_to_last_loss = self.games;
            }
        }
    }

    /// The game after which the machine never lost again (0: it never
    /// lost), counted as learned only when the games without a loss after it
    /// are at least [`LEARNED_MIN_GAMES`] and at least as many as the games
    /// up to it: a last loss at game 2998 of 3000 is not "learned". `None`:
    /// not learned.
    pub fn learned(&self) -> Option<u64> {
        let before = self.games_to_last_loss;
        let after = self.games - before;
        (after >= LEARNED_MIN_GAMES && after >= before).then_some(self.last_loss.unwrap_or(0))
    }

    /// The totals of these records.
    pub fn of(records: &[GameRecord]) -> Tally {
        let mut t = Tally::default();
        records.iter().for_each(|r| t.add(r));
        t
    }
}

/// The game number of the last loss, if there was one.
pub fn last_loss(records: &[GameRecord]) -> Option<u64> {
    Tally::of(records).last_loss
}

/// See [`Tally::learned`].
pub fn games_until_learned(records: &[GameRecord]) -> Option<u64> {
    Tally::of(records).learned()
}
