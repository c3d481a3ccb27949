//! A training run: so many games on a trainer, exact results recorded every
//! K games of the machine's life and after the run's last game, and the
//! run's tally. The one loop under `menace train`, an experiment's seeds and
//! the page's training.

use crate::game::Game;
use crate::training::trainer::{GameRecord, Tally, Trainer};

/// A run of games and where it stands.
///
/// ```
/// use menace_core::machine::settings::MachineSettings;
/// use menace_core::training::opponent::OpponentSpec;
/// use menace_core::training::run::TrainingRun;
/// use menace_core::training::trainer::Trainer;
/// use menace_core::{Hexapawn, Player};
///
/// let mut her = Trainer::new(Hexapawn::new(3, 3)?, Player::Two, MachineSettings::gardner(), OpponentSpec::Perfect(1.0), 7)?;
/// let mut run = TrainingRun::new(10, Some(4));
/// let exact: Vec<u64> = std::iter::from_fn(|| (!run.is_done()).then(|| run.play_next(&mut her)))
///     .filter(|r| r.exact.is_some())
///     .map(|r| r.game)
///     .collect();
/// // Every 4 games of her life, and after the run's last game.
/// assert_eq!(exact, [4, 8, 10]);
/// assert_eq!(run.tally().losses, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrainingRun {
    games: u64,
    exact_every: Option<u64>,
    tally: Tally,
}

impl TrainingRun {
    /// A run of `games` games, with exact results every `exact_every` games
    /// of the machine's life (and after the run's last game), or never.
    pub fn new(games: u64, exact_every: Option<u64>) -> TrainingRun {
        TrainingRun {
            games,
            exact_every: exact_every.filter(|&k| k > 0),
            tally: Tally::default(),
        }
    }

    /// Whether every game of the run has been played.
    pub fn is_done(&self) -> bool {
        self.tally.games >= self.games
    }

    /// The games of the run.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The games played so far, won, drawn and lost.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Whether the trainer's next game records exact results: the
    /// machine's game number a multiple of K, or the run's last game.
    pub fn exact_next<G: Game>(&self, trainer: &Trainer<G>) -> bool {
        self.exact_every.is_some_and(|k| {
            trainer.games_played().saturating_add(1).is_multiple_of(k)
                || self.tally.games.saturating_add(1) == self.games
        })
    }

    /// Count a game of the run played elsewhere (a step at a time, as the
    /// page plays them).
    pub fn count(&mut self, record: &GameRecord) {
        self.tally.add(record);
    }

    /// Play the run's next game on `trainer` and count it.
    pub fn play_next<G: Game>(&mut self, trainer: &mut Trainer<G>) -> GameRecord {
        let record = trainer.play_game(self.exact_next(trainer));
        self.count(&record);
        record
    }
}
