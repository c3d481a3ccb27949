//! Running an experiment: every arm over every seed, in parallel with the
//! `parallel` feature, with results independent of the thread count.

use crate::par::*;

use super::curves::SeedRun;
use super::error::ExperimentError;
use super::file::Experiment;
use super::records::Records;
use super::units::{all_units, Unit};
use crate::game::Game;
use crate::training::run::TrainingRun;
use crate::training::trainer::Trainer;

/// One run's records, or why it failed.
type RunResult = Result<SeedRun, ExperimentError>;

impl Experiment {
    /// Build every arm's first trainer once, each on the arm's own game, so
    /// that a bad arm (say, `perfect` on a game too large to solve) is
    /// reported before anything runs.
    pub fn preflight(&self) -> Result<(), ExperimentError> {
        for (i, arm) in self.arms.iter().enumerate() {
            with_game!(arm.game.clone(), g => self.trainer(g, i, 0).map(drop))?;
        }
        Ok(())
    }

    /// Arm `arm`'s trainer on `game` (the arm's game) for `seed`.
    fn trainer<G: Game>(&self, game: G, arm: usize, seed: u64) -> Result<Trainer<G>, ExperimentError> {
        let a = &self.arms[arm];
        Trainer::new(game, a.side, a.settings.clone(), a.opponent.clone(), seed).map_err(|error| ExperimentError::Arm {
            index: arm,
            name: a.name.clone(),
            error,
        })
    }

    /// Run every arm over every seed on `threads` threads. `progress` is
    /// called with the number of games just played. The records come back
    /// indexed `[arm][seed]`, the same whatever the thread count.
    pub fn run(&self, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<Vec<Vec<SeedRun>>, ExperimentError> {
        let jobs = all_units(self);
        let runs = self.run_units(&jobs, threads, progress, &|_, _| Ok(()))?;
        let mut by_arm: Vec<Vec<SeedRun>> = vec![Vec::new(); self.arms.len()];
        for (&(a, _), run) in jobs.iter().zip(runs) {
            by_arm[a].push(run);
        }
        Ok(by_arm)
    }

    /// Run the given (arm, seed) units on `threads` threads, calling `done`
    /// with each as it finishes (to save it); the runs come back in the
    /// order of `units`, the same whatever the thread count.
    pub fn run_units(
        &self,
        units: &[Unit],
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        done: &(dyn Fn(Unit, &SeedRun) -> Result<(), ExperimentError> + Sync),
    ) -> Result<Vec<SeedRun>, ExperimentError> {
        // Each (arm, seed) unit is independent and collected in order, so the
        // records are the same whatever the number of threads.
        let run = || {
            units
                .par_iter()
                .map(|&(a, s)| {
                    let run = self.run_one(a, self.seeds[s], progress)?;
                    done((a, s), &run)?;
                    Ok(run)
                })
                .collect()
        };
        #[cfg(feature = "parallel")]
        {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads.max(1))
                .build()
                .map_err(|e| ExperimentError::Threads {
                    threads,
                    reason: e.to_string(),
                })?;
            pool.install(run)
        }
        // Without the `parallel` feature, one thread: the caller's.
        #[cfg(not(feature = "parallel"))]
        {
            let _ = threads;
            run()
        }
    }

    /// One (arm, seed) unit, on the arm's own game.
    fn run_one(&self, arm: usize, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> RunResult {
        with_game!(self.arms[arm].game.clone(), g => self.run_game(g, arm, seed, progress))
    }

    fn run_game<G: Game>(&self, game: G, arm: usize, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> RunResult {
        let mut trainer = self.trainer(game, arm, seed)?;
        // Game 0: the untrained machine, with its exact results where they are recorded.
        let start = trainer.snapshot(self.exact_every.is_some());
        let mut records = Records::with_capacity(self.games as usize);
        let mut pending = 0;
        let mut run = TrainingRun::new(self.games, self.exact_every);
        while !run.is_done() {
            // A run's games are 1, 2, … and at most MAX_GAME_RECORDS: always kept.
            records
                .push(&run.play_next(&mut trainer))
                .map_err(|e| ExperimentError::Records(e.to_string()))?;
            pending += 1;
            if pending == 256 {
                progress(pending);
                pending = 0;
            }
        }
        progress(pending);
        Ok(SeedRun { start, games: records })
    }
}
