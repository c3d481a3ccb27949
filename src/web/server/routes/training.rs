//! Training: a run started, its slices played on the training pool until
//! its games are done or it is stopped, and the machine handed back.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde_json::json;

use crate::web::server::error::{ApiError, ApiResult};
use crate::web::server::extract::{JsonBody, Param};
use crate::web::server::reply::{json_response, ok_json};
use crate::web::server::routes::checks::{known_unsolvable, not_a_students_turn, refuse_to_drop, remember_unsolvable};
use crate::web::server::schedule::{RunToken, SLICE};
use crate::web::server::shared::Shared;
use crate::web::server::slot::{Entry, Progress};
use crate::web::session::apart::Pending;
use crate::web::session::opponents::parse_opponent;
use crate::web::session::requests::TrainRequest;
use menace_core::training::opponent::OpponentSpec;

/// A session's training started and stopped.
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/sessions/{id}/train", post(train))
        .route("/api/sessions/{id}/stop", post(stop))
}

async fn train(
    State(shared): State<Arc<Shared>>,
    Param(id): Param,
    JsonBody(ask): JsonBody<TrainRequest>,
) -> ApiResult {
    let limits = shared.config.limits;
    if !(1..=limits.max_games).contains(&ask.games) {
        return Err(ApiError::bad(format!(
            "games {}: expected 1 to {} games a run",
            ask.games, limits.max_games
        )));
    }
    let opponent = parse_opponent(&ask.opponent, limits)?;
    shared.refuse_while_stopping()?;
    let runtime = tokio::runtime::Handle::current();
    let (began, begun) = tokio::sync::oneshot::channel();
    let entry = shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            if entry.running() {
                return Err(ApiError::conflict("the machine is already training"));
            }
            let generation = shared.change(&entry, |slot| {
                if slot.progress.running {
                    return Err(ApiError::conflict("the machine is already training"));
                }
                not_a_students_turn(shared, &id)?;
                refuse_to_drop(slot.session.as_ref(), ask.discard)?;
                // Refused by estimate now, or as it was before; the solve itself is the run's first step.
                slot.session.check_opponent(&opponent)?;
                known_unsolvable(shared, slot, &opponent)?;
                shared.refuse_while_stopping()?;
                slot.note = None;
                slot.progress = Progress {
                    running: true,
                    opponent: opponent.to_string(),
                    done: 0,
                    total: ask.games,
                };
                entry.signals.cancel.store(false, Ordering::Relaxed);
                shared.runs.fetch_add(1, Ordering::SeqCst);
                Ok(slot.generation)
            })?;
            // Spawned here, not after the answer: a request dropped now (its
            // client gone) must not leave the session marked as training.
            runtime.spawn(run_training(shared.clone(), entry.clone(), generation, opponent, began));
            Ok(entry)
        })
        .await?;
    // Answered once the opponent is made (a perfect player's solve, within the page's limits).
    match begun.await {
        Ok(Ok(())) => {
            let (mut parts, body) = ok_json(&entry.view()).into_parts();
            parts.status = StatusCode::ACCEPTED;
            Ok(Response::from_parts(parts, body))
        }
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ApiError::conflict(
            "the machine was replaced or closed before training could start",
        )),
    }
}

async fn stop(State(shared): State<Arc<Shared>>, Param(id): Param) -> ApiResult {
    let entry = shared.entry(&id)?;
    entry.stop();
    Ok(json_response(StatusCode::OK, &json!({"stopping": entry.running()})))
}

/// How a training slice ended.
enum Slice {
    /// More to play (within a game left unfinished, if true).
    More(bool),
    /// More to play, the opponent's move first (chosen apart).
    Apart(Pending),
    /// The run is over: end it (save, hand the machine back to the person).
    Done,
}

/// A training run: make the opponent, play slice after slice until the
/// games are done or it is stopped, then hand the machine back and save.
async fn run_training(
    shared: Arc<Shared>,
    entry: Arc<Entry>,
    generation: u64,
    opponent: OpponentSpec,
    began: tokio::sync::oneshot::Sender<Result<(), ApiError>>,
) {
    let _token = RunToken(shared.clone());
    let made = match shared.make_apart(&entry, generation, &opponent).await {
        Some(Ok(made)) => Ok(made),
        Some(Err(e)) => Err(e),
        None => return,
    };
    let cancel = entry.signals.cancel.clone();
    let begun = shared
        .slice(&shared.work, &entry, generation, move |shared, slot| {
            let games = slot.progress.total;
            made.and_then(|made| slot.session.begin_training(&opponent, made, cancel, games))
                .inspect_err(|e| {
                    // Nothing changed: the machine is still the person's.
                    slot.progress = Progress::default();
                    remember_unsolvable(shared, slot, &opponent, e);
                })
        })
        .await;
    // Told once the view is published: a request after the answer sees it.
    match begun {
        Some(Ok(())) => {
            let _ = began.send(Ok(()));
        }
        Some(Err(e)) => {
            let _ = began.send(Err(e.into()));
            return;
        }
        None => return,
    }
    let gate = shared.hooks.gate.clone();
    // Within a game (after a move chosen apart), the gate was passed already.
    let mut mid_game = false;
    loop {
        if entry.signals.cancelled() {
            break;
        }
        if let Some(gate) = gate.as_ref().filter(|_| !mid_game) {
            tokio::select! {
                permit = gate.0.acquire() => match permit {
                    Ok(p) => p.forget(),
                    Err(_) => break,
                },
                // A wake-up left from a stop before this run is not one for it: the flag decides.
                _ = entry.stopped.notified() => continue,
            }
        }
        let one_game = gate.is_some();
        let playing = entry.clone();
        let slice = shared
            .slice(&shared.train, &entry, generation, move |_, slot| {
                let p = &slot.progress;
                let left = p.total.saturating_sub(p.done);
                let (games, deadline) = if one_game {
                    (left.min(1), Instant::now() + Duration::from_secs(86_400))
                } else {
                    (left, Instant::now() + SLICE)
                };
                let signals = &playing.signals;
                let trained = slot.session.train(games, deadline, signals);
                slot.progress.done += trained.games;
                if trained.halted || slot.progress.done >= slot.progress.total || signals.cancelled() {
                    Slice::Done
                } else if let Some(pending) = trained.pending {
                    Slice::Apart(pending)
                } else {
                    Slice::More(trained.mid_game)
                }
            })
            .await;
        match slice {
            // A slice that let go within a game goes on with it, past the gate.
            Some(Slice::More(within)) => mid_game = within,
            // The opponent's move, chosen without the session's lock.
            Some(Slice::Apart(pending)) => {
                if shared.think_apart(&entry, generation, pending).await.is_none() {
                    return;
                }
                mid_game = true;
            }
            Some(Slice::Done) => break,
            // The session was replaced, reset or closed: touch nothing more.
            None => return,
        }
    }
    shared
        .slice(&shared.work, &entry, generation, |shared, slot| {
            slot.session.end_training();
            slot.note = shared.save(slot);
            slot.progress.running = false;
        })
        .await;
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::web::server::config::Config;
    use crate::web::server::error::ErrorKind;
    use crate::web::server::hooks::TestHooks;
    use crate::web::server::routes::build;
    use crate::web::session::apart::{Made, Signals, Trained};
    use crate::web::session::error::SessionError;
    use crate::web::session::limits::Limits;
    use crate::web::session::make::new_session;
    use crate::web::session::requests::NewMachine;
    use crate::web::session::traits::{Session, Trains, Wraps};

    /// A machine whose training panics, to see the server survive it.
    struct Faulty(Box<dyn Session>);

    impl Wraps for Faulty {
        fn inner(&self) -> &dyn Session {
            self.0.as_ref()
        }
        fn inner_mut(&mut self) -> &mut dyn Session {
            self.0.as_mut()
        }
    }

    impl Trains for Faulty {
        fn begin_training(
            &mut self,
            o: &OpponentSpec,
            made: Option<Made>,
            cancel: Arc<AtomicBool>,
            games: u64,
        ) -> Result<(), SessionError> {
            self.0.begin_training(o, made, cancel, games)
        }
        fn train(&mut self, _: u64, _: Instant, _: &Signals) -> Trained {
            panic!("a fault in training")
        }
        fn end_training(&mut self) {
            self.0.end_training()
        }
    }

    #[test]
    fn a_panic_in_training_or_a_request_resets_the_session_and_nothing_stays_running() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (_, shared) = build(
                Config::default(),
                TestHooks::default(),
                "127.0.0.1:8000".parse().unwrap(),
            );
            let inner = new_session(&NewMachine::default(), Limits::default()).unwrap();
            let (_, entry) = shared.insert(Box::new(Faulty(inner))).unwrap();
            // As the train request does.
            let generation = shared
                .change(&entry, |slot| {
                    slot.progress.running = true;
                    slot.progress.total = 10;
                    shared.runs.fetch_add(1, Ordering::SeqCst);
                    Ok(slot.generation)
                })
                .unwrap();
            assert!(entry.running());
            let (began, begun) = tokio::sync::oneshot::channel();
            run_training(shared.clone(), entry.clone(), generation, OpponentSpec::Random, began).await;
            assert!(matches!(begun.await, Ok(Ok(()))));
            assert!(!entry.running());
            assert_eq!(shared.runs.load(Ordering::SeqCst), 0);
            let view = entry.view();
            let message = view["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("internal error (the training run failed: a fault in training)"),
                "{message}"
            );
            assert_eq!(view["training"]["running"], false);
            // The fresh machine plays; a panic inside a request resets it too.
            shared.change(&entry, |slot| Ok(slot.session.new_game()?)).unwrap();
            let e = shared
                .change(&entry, |_| -> Result<(), ApiError> { panic!("a fault in a request") })
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Internal);
            assert!(e.message().contains("a fault in a request"), "{}", e.message());
            assert!(shared.change(&entry, |slot| Ok(slot.session.play("b2")?)).is_ok());
        });
    }
}
