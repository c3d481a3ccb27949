//! A game session as the server sees it: each part of
//! [`Session`](crate::session::traits::Session) for any game.

use menace_core::clock::Instant;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde_json::{json, Value as Json};

use crate::session::apart::{Deferred, Made, Pending, Signals, Trained, Watched};
use crate::session::error::{invalid, SessionError};
use crate::session::game::{GameSession, Mode, Watching};
use crate::session::opponents::{opponent_for, perfect_too_large, slow};
use crate::session::requests::BoxQuery;
use crate::session::traits::{Copied, Opponents, Played, Shown, Trains, Watches};
use menace_core::picture::Picture;
use menace_core::training::driver::{Match, Mover, Step, Thinking};
use menace_core::training::opponent::{Opponent, OpponentSpec};
use menace_core::training::run::TrainingRun;
use menace_core::training::state;

impl<G: Picture> Shown for GameSession<G> {
    fn game_spec(&self) -> String {
        self.game().spec()
    }

    fn view(&self) -> Json {
        self.view_json()
    }

    fn curves(&self) -> Json {
        self.curves_json()
    }

    fn person_moves(&self) -> usize {
        if self.mode.person_game().is_some() {
            self.person_moves
        } else {
            0
        }
    }

    fn games_played(&self) -> u64 {
        self.trainer.games_played()
    }

    fn box_count(&self) -> usize {
        self.trainer.machine().boxes().len()
    }

    fn box_moves(&self) -> Vec<u32> {
        // Labels are numbered in the order of the machine's moves.
        let mut moves: Vec<u32> = self.trainer.machine().boxes().iter().map(|b| b.own_move).collect();
        moves.sort_unstable();
        moves
    }
}

impl<G: Picture> Played for GameSession<G> {
    fn new_game(&mut self) -> Result<(), SessionError> {
        // A game left unfinished is dropped: no beads change.
        self.drop_person_game();
        self.mode = Mode::Person(Some(Match::start(&mut self.trainer)));
        self.advance();
        Ok(())
    }

    fn play(&mut self, text: &str) -> Result<(), SessionError> {
        let game = self.game().clone();
        let Some(m) = self.mode.person_game_mut() else {
            return Err(SessionError::NotNow(
                "no game in progress: start a new game".to_string(),
            ));
        };
        if m.mover(&self.trainer) != Mover::Opponent {
            return Err(SessionError::NotNow(format!("it is {}'s turn", self.name)));
        }
        let pos = m.position().clone();
        let mv = game.parse_move(&pos, text).map_err(invalid)?;
        self.history.push(game.move_name(&pos, mv));
        m.play_person(&self.trainer, mv);
        self.person_moves += 1;
        self.message = None;
        self.advance();
        Ok(())
    }

    fn resign(&mut self) -> Result<(), SessionError> {
        let Some(m) = self.mode.person_game_mut() else {
            return Err(SessionError::NotNow("no game in progress to resign".to_string()));
        };
        m.opponent_resigns();
        self.advance();
        Ok(())
    }

    fn bead(&mut self, colour: Option<&str>) -> Result<(), SessionError> {
        self.given_bead(colour)
    }

    fn draw_bead(&mut self) -> Result<(), SessionError> {
        self.drawn_bead()
    }

    fn set_referee(&mut self, on: bool) {
        GameSession::set_referee(self, on);
    }
}

impl<G: Picture> Copied for GameSession<G> {
    fn boxes(&self, query: &BoxQuery, limit: usize) -> Result<Deferred<Json>, SessionError> {
        self.boxes_listed(query, limit)
    }

    fn state(&mut self) -> Deferred<String> {
        // The file names the opponent the machine last trained against, as
        // `train --save` would; a machine only ever played by hand says human.
        let frozen = match self.parked.as_mut().filter(|_| self.mode.run().is_none()) {
            Some((spec, parked)) => {
                // An opponent not made yet (from a state file) has no boxes to save.
                let opponent = parked.take().unwrap_or(Opponent::Human);
                let person = self.trainer.set_opponent(spec.clone(), opponent);
                let frozen = state::freeze(&self.trainer);
                let (_, opponent) = self.trainer.set_opponent(person.0, person.1);
                *parked = (!matches!(opponent, Opponent::Human)).then_some(opponent);
                frozen
            }
            None => state::freeze(&self.trainer),
        };
        Deferred::new(move || frozen.to_json())
    }
}

impl<G: Picture> Opponents for GameSession<G> {
    fn check_opponent(&self, spec: &OpponentSpec) -> Result<(), SessionError> {
        if let OpponentSpec::Perfect(_) = spec {
            // The page's perfect player solves the whole game first, or
            // asks the game's shared position solver (see [`opponent_for`]).
            let game = self.game();
            if let Err(e) = game.check_exhaustive(self.limits.max_perfect_positions) {
                if game.shared_position_solver().is_none() {
                    return Err(perfect_too_large(spec, e));
                }
            }
        }
        Ok(())
    }

    fn opponent_maker(&self, spec: &OpponentSpec) -> Option<Deferred<Result<Made, SessionError>>> {
        if matches!(&self.parked, Some((parked, Some(_))) if parked == spec) {
            return None;
        }
        let machine = self.trainer.machine();
        let (game, side, settings) = (machine.game().clone(), machine.side(), machine.settings().clone());
        let (limits, spec) = (self.limits, spec.clone());
        Some(Deferred::new(move || {
            opponent_for(&game, side, &settings, limits, &spec).map(|o| Made(Box::new(o)))
        }))
    }

    fn resume(&mut self, pending: Pending) {
        let Ok(thinking) = pending.0.into_any().downcast::<Thinking<G>>() else {
            return;
        };
        if let Some(w) = self.mode.watching_mut() {
            let before = w.m.position().clone();
            // An end (the opponent resigned) is found again by the next step.
            if let step @ Step::Opponent(_) = w.m.resume(&mut self.trainer, *thinking) {
                self.watched_step(before, step);
            }
        } else if let Some(m) = self.mode.training_game_mut() {
            m.resume(&mut self.trainer, *thinking);
        }
    }
}

impl<G: Picture> Trains for GameSession<G> {
    fn begin_training(
        &mut self,
        spec: &OpponentSpec,
        made: Option<Made>,
        cancel: Arc<AtomicBool>,
        games: u64,
    ) -> Result<(), SessionError> {
        let mut opponent = self.take_opponent(spec, made)?;
        opponent.set_interrupt(cancel);
        self.drop_person_game();
        // The games trained are not drawn: no box is the last game's any more.
        self.last_game.clear();
        self.trainer.set_opponent(spec.clone(), opponent);
        // About a hundred exact evaluations a run, however long, where the game is small.
        let exact_every = self.small().then_some((games / 100).max(1));
        self.mode = Mode::Training(TrainingRun::new(games, exact_every), None);
        Ok(())
    }

    fn train(&mut self, games: u64, deadline: Instant, signals: &Signals) -> Trained {
        let mut played = 0;
        let mut halted = false;
        // One move at a time (a whole game where the compiled table plays it),
        // so that a slow opponent holds the session for one move at most.
        while !signals.cancelled() {
            let exact = self.mode.run().is_some_and(|run| run.exact_next(&self.trainer));
            let full = self.trainer.machine().boxes().len() >= self.limits.max_boxes;
            match self.mode.training_game_mut() {
                None => {
                    if played >= games {
                        break;
                    }
                    if full {
                        self.say_box_cap();
                        halted = true;
                        break;
                    }
                    if let Some(record) = self.trainer.play_compiled(exact) {
                        played += 1;
                        self.count_training(&record);
                    } else {
                        let m = Match::start(&mut self.trainer);
                        self.mode.set_training_game(m);
                    }
                }
                // A game that would open a box past the cap is dropped
                // unfinished (no beads change), so the cap holds exactly.
                Some(m) if full && m.opens_box(&self.trainer) => {
                    if let Some(m) = self.mode.take_training_game() {
                        m.abandon(&mut self.trainer);
                    }
                    self.say_box_cap();
                    halted = true;
                    break;
                }
                Some(m) => match m.detach_opponent(&mut self.trainer, slow) {
                    Some(thinking) => {
                        return Trained {
                            games: played,
                            halted,
                            pending: Some(Pending(Box::new(thinking))),
                            mid_game: true,
                        };
                    }
                    None => match m.step(&mut self.trainer) {
                        Step::Over(..) => {
                            if let Some(m) = self.mode.take_training_game() {
                                let (record, _) = m.finish(&mut self.trainer, exact);
                                played += 1;
                                self.count_training(&record);
                            }
                        }
                        // Never while training (the opponent is a program); were it
                        // so, the game would end as if the person had resigned.
                        Step::AwaitingPerson => m.opponent_resigns(),
                        Step::Machine(_) | Step::Opponent(_) => {}
                    },
                },
            }
            signals.moved();
            if signals.let_go(deadline) {
                break;
            }
        }
        Trained {
            games: played,
            halted,
            pending: None,
            mid_game: self.mode.training_game().is_some(),
        }
    }

    fn end_training(&mut self) {
        if let Mode::Training(_, unfinished) = &mut self.mode {
            if let Some(m) = unfinished.take() {
                m.abandon(&mut self.trainer);
            }
            self.mode = Mode::Person(None);
            let (spec, opponent) = self.trainer.set_opponent(OpponentSpec::Human, Opponent::Human);
            self.parked = Some((spec, Some(opponent)));
        }
        if self.small() {
            self.exact = Some(self.trainer.exact());
        }
        let message = self.message.take();
        self.open_board();
        if message.is_some() {
            self.message = message;
        }
    }
}

impl<G: Picture> Watches for GameSession<G> {
    fn begin_watch(
        &mut self,
        spec: &OpponentSpec,
        made: Option<Made>,
        frames: bool,
        cancel: Arc<AtomicBool>,
    ) -> Result<(), SessionError> {
        let mut opponent = self.take_opponent(spec, made)?;
        opponent.set_interrupt(cancel);
        self.drop_person_game();
        self.trainer.set_opponent(spec.clone(), opponent);
        let m = Match::start(&mut self.trainer);
        self.mode = Mode::Watching(Watching {
            m,
            spec: spec.clone(),
            frames,
            steps: Vec::new(),
        });
        Ok(())
    }

    fn watch_step(&mut self, deadline: Instant, signals: &Signals) -> Watched {
        loop {
            if signals.cancelled() {
                return Watched::Over(self.stop_watching());
            }
            let Some(w) = self.mode.watching_mut() else {
                return Watched::Over(json!({"steps": [], "result": "", "plies": 0}));
            };
            if let Some(thinking) = w.m.detach_opponent(&mut self.trainer, slow) {
                return Watched::Pending(Pending(Box::new(thinking)));
            }
            let before = w.m.position().clone();
            let step = w.m.step(&mut self.trainer);
            signals.moved();
            if let Some(over) = self.watched_step(before, step) {
                return Watched::Over(over);
            }
            if signals.let_go(deadline) {
                return Watched::More;
            }
        }
    }
}
