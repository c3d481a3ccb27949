//! The match driver: one game between the machine and its opponent (a
//! program or a person), played step by step, then reinforced. `train`,
//! `run` and `play` all play their games through it.

use crate::game::{Game, Outcome};
use crate::machine::{BeadChange, Choice, GameResult, GivenDrawError};
use crate::training::opponent::Opponent;
use crate::training::trainer::{GameRecord, Trainer};

/// Who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// The matchbox machine being trained.
    Machine,
    /// Its opponent: a program, or a person (see [`Step::AwaitingPerson`]).
    Opponent,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it (a win or a draw on the board).
    Rules,
    /// The machine resigned: its box was empty.
    MachineResigned,
    /// The opponent resigned (a learning opponent's empty box, or a person
    /// who resigned or ran out of time).
    OpponentResigned,
}

/// What one step of a match did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<M> {
    /// The machine drew a bead and played this move.
    Machine(M),
    /// The opponent (a program) played this move.
    Opponent(M),
    /// It is a person's turn: give their move to [`Match::play_person`].
    AwaitingPerson,
    /// The game is over: its result for the machine, and how it ended.
    Over(GameResult, Ending),
}

/// One game in progress between a trainer's machine and its opponent.
///
/// ```
/// use menace_core::training::driver::{Match, Step};
/// use menace_core::training::opponent::OpponentSpec;
/// use menace_core::training::trainer::Trainer;
/// use menace_core::machine::settings::MachineSettings;
/// use menace_core::{Hexapawn, Player};
/// let game = Hexapawn::new(3, 3).unwrap();
/// let mut t = Trainer::new(game, Player::Two, MachineSettings::gardner(), OpponentSpec::Random, 7).unwrap();
/// let mut m = Match::start(&mut t);
/// let result = loop {
///     if let Step::Over(result, _) = m.step(&mut t) {
///         break result;
///     }
/// };
/// let (record, _changes) = m.finish(&mut t, false);
/// assert_eq!(record.result, result);
/// assert_eq!(t.games_played(), 1);
/// ```
pub struct Match<G: Game> {
    pos: G::Position,
    start_seed: Option<u64>,
    plies: u32,
    last_move: Option<G::Move>,
    over: Option<(GameResult, Ending)>,
}

impl<G: Game> Match<G> {
    /// Start the trainer's next game: draw its start where the game has a
    /// seeded one (Hex: who places first), and reset the opponent.
    pub fn start(t: &mut Trainer<G>) -> Match<G> {
        let (pos, start_seed) = t.next_start();
        t.opponent_new_game();
        Match {
            pos,
            start_seed,
            plies: 0,
            last_move: None,
            over: None,
        }
    }

    /// The position now.
    pub fn position(&self) -> &G::Position {
        &self.pos
    }

    /// The seed that chose this game's start, where the start depends on one.
    pub fn start_seed(&self) -> Option<u64> {
        self.start_seed
    }

    /// The last move played, by either side.
    pub fn last_move(&self) -> Option<G::Move> {
        self.last_move
    }

    /// Plies played so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Who is to move now.
    pub fn mover(&self, t: &Trainer<G>) -> Mover {
        if t.machine().game().turn(&self.pos) == t.machine().side() {
            Mover::Machine
        } else {
            Mover::Opponent
        }
    }

    /// Whether the next step is the machine's move from a position it has
    /// no box for yet, so that the step would open one.
    pub fn opens_box(&self, t: &Trainer<G>) -> bool {
        self.over.is_none()
            && self.mover(t) == Mover::Machine
            && t.machine().game().outcome(&self.pos) == Outcome::Ongoing
            && t.machine().would_open(&self.pos)
    }

    /// The result and ending once the game is over.
    pub fn ending(&self) -> Option<(GameResult, Ending)> {
        self.over
    }

    /// Play the next move if a program is to move: the machine draws a
    /// bead, an opponent program chooses; a person is waited for.
    pub fn step(&mut self, t: &mut Trainer<G>) -> Step<G::Move> {
        if let Some((result, ending)) = self.over {
            return Step::Over(result, ending);
        }
        let outcome = t.machine().game().outcome(&self.pos);
        if outcome != Outcome::Ongoing {
            return self.end(GameResult::for_player(outcome, t.machine().side()), Ending::Rules);
        }
        let own_move = self.plies / 2 + 1;
        if self.mover(t) == Mover::Machine {
            return match t.machine_choose(&self.pos, own_move) {
                Choice::Play(mv) => {
                    self.apply(t.machine().game(), mv);
                    Step::Machine(mv)
                }
                Choice::Resign => self.end(GameResult::Loss, Ending::MachineResigned),
            };
        }
        if matches!(t.opponent(), Opponent::Human) {
            return Step::AwaitingPerson;
        }
        match t.opponent_choose(&self.pos, own_move) {
            Some(mv) => {
                self.apply(t.machine().game(), mv);
                Step::Opponent(mv)
            }
            None => self.end(GameResult::Win, Ending::OpponentResigned),
        }
    }

    /// Where a program opponent is to move and `slow` says its choice takes
    /// long (a search): the opponent and the random stream taken out of the
    /// trainer, to choose its move apart ([`Thinking::think`], with nothing
    /// else borrowed) and come back through [`Match::resume`]. The moves
    /// and the stream are those [`Match::step`] would have given.
    pub fn detach_opponent(&self, t: &mut Trainer<G>, slow: impl FnOnce(&Opponent<G>) -> bool) -> Option<Thinking<G>> {
        if self.over.is_some()
            || t.machine().game().outcome(&self.pos) != Outcome::Ongoing
            || self.mover(t) != Mover::Opponent
            || matches!(t.opponent(), Opponent::Human)
            || !slow(t.opponent())
        {
            return None;
        }
        let (opponent, rng) = t.lend_opponent();
        Some(Thinking {
            opponent,
            rng,
            game: t.machine().game().clone(),
            pos: self.pos.clone(),
            own_move: self.plies / 2 + 1,
            buf: Vec::new(),
            chosen: None,
        })
    }

    /// The opponent back from [`Thinking`], and its move played (as
    /// [`Match::step`] plays it). Not thought yet, it thinks now.
    pub fn resume(&mut self, t: &mut Trainer<G>, mut thinking: Thinking<G>) -> Step<G::Move> {
        let chosen = match thinking.chosen {
            Some(c) => c,
            None => {
                thinking.think();
                thinking.chosen.flatten()
            }
        };
        t.give_back_opponent(thinking.opponent, thinking.rng);
        match chosen {
            Some(mv) => {
                self.apply(t.machine().game(), mv);
                Step::Opponent(mv)
            }
            None => self.end(GameResult::Win, Ending::OpponentResigned),
        }
    }

    /// The machine's move where a person drew its bead from the real box
    /// (`None`: the box was empty): refused, saying why, where it is not the
    /// machine's turn or the box holds no such bead.
    pub fn step_given(&mut self, t: &mut Trainer<G>, colour: Option<u32>) -> Result<Step<G::Move>, GivenDrawError> {
        if self.over.is_some() || self.mover(t) != Mover::Machine {
            return Err(GivenDrawError::NotTheMachinesTurn);
        }
        let own_move = self.plies / 2 + 1;
        Ok(match t.machine_choose_given(&self.pos, own_move, colour)? {
            Choice::Play(mv) => {
                self.apply(t.machine().game(), mv);
                Step::Machine(mv)
            }
            Choice::Resign => self.end(GameResult::Loss, Ending::MachineResigned),
        })
    }

    /// A person's move, already checked legal (read it with [`Notation::parse_move`](crate::Notation::parse_move)).
    pub fn play_person(&mut self, t: &Trainer<G>, mv: G::Move) {
        if self.over.is_none() {
            self.apply(t.machine().game(), mv);
        }
    }

    /// The opponent gives up (a person resigns or runs out of time): the machine wins.
    pub fn opponent_resigns(&mut self) {
        if self.over.is_none() {
            self.over = Some((GameResult::Win, Ending::OpponentResigned));
        }
    }

    /// Reinforce the machine (and a learning opponent) with the result and
    /// count the game. Returns what the game left behind (`exact`: with the
    /// exact expected results after it) and the machine's changed beads.
    /// Call once the game is over.
    pub fn finish(self, t: &mut Trainer<G>, exact: bool) -> (GameRecord, Vec<BeadChange>) {
        let result = self.over.map_or(GameResult::Draw, |(r, _)| r);
        let changes = t.reinforce(result);
        let record = t.count_game(result, self.plies, self.start_seed, exact);
        (record, changes)
    }

    /// Drop an unfinished game: no reinforcement, and the game is not counted.
    pub fn abandon(self, t: &mut Trainer<G>) {
        t.abandon();
    }

    fn apply(&mut self, game: &G, mv: G::Move) {
        self.pos = game.play(&self.pos, mv);
        self.last_move = Some(mv);
        self.plies += 1;
    }

    fn end(&mut self, result: GameResult, ending: Ending) -> Step<G::Move> {
        self.over = Some((result, ending));
        Step::Over(result, ending)
    }
}

/// An opponent's move being chosen apart from its trainer (see
/// [`Match::detach_opponent`]): it owns what the choice needs.
pub struct Thinking<G: Game> {
    opponent: Opponent<G>,
    rng: rand_chacha::ChaCha8Rng,
    game: G,
    pos: G::Position,
    own_move: u32,
    buf: Vec<G::Move>,
    chosen: Option<Option<G::Move>>,
}

impl<G: Game> Thinking<G> {
    /// Choose the move (the slow part) unless `deadline` passes first
    /// ([`Opponent::choose_before`]): whether it is chosen. Not chosen, the
    /// random stream is put back as it was, so that the next try draws the
    /// same and the moves are still those [`Match::step`] would play.
    pub fn think_before(&mut self, deadline: crate::clock::Instant) -> bool {
        if self.chosen.is_some() {
            return true;
        }
        let before = self.rng.clone();
        let chosen = self.opponent.choose_before(
            &self.game,
            &self.pos,
            self.own_move,
            &mut self.rng,
            &mut self.buf,
            deadline,
        );
        match chosen {
            Some(mv) => {
                self.chosen = Some(mv);
                true
            }
            None => {
                self.rng = before;
                false
            }
        }
    }

    /// Choose the move (the slow part); once only.
    pub fn think(&mut self) {
        if self.chosen.is_none() {
            let mv = self
                .opponent
                .choose(&self.game, &self.pos, self.own_move, &mut self.rng, &mut self.buf);
            self.chosen = Some(mv);
        }
    }
}

impl<G: Game> Trainer<G> {
    /// Play one game against a program opponent, reinforce, and report it
    /// (`exact`: also compute the exact results after it). A person as
    /// opponent is played through [`Match`] instead (`menace play`).
    pub fn play_game(&mut self, exact: bool) -> GameRecord {
        if let Some(record) = self.play_compiled(exact) {
            return record;
        }
        let mut m = Match::start(self);
        loop {
            match m.step(self) {
                Step::Over(..) => break,
                // `train` and `run` refuse a person as opponent; were one
                // here, the game would stop as if they had resigned.
                Step::AwaitingPerson => m.opponent_resigns(),
                Step::Machine(_) | Step::Opponent(_) => {}
            }
        }
        m.finish(self, exact).0
    }
}
