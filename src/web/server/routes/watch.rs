//! A watched game: one game against an opponent played on the server, a
//! step at a time, for the page to show move by move.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::Router;
use serde_json::Value as Json;

use crate::web::server::error::{ApiError, ApiResult};
use crate::web::server::extract::{JsonBody, Param};
use crate::web::server::reply::json_response;
use crate::web::server::routes::checks::{
    known_unsolvable, not_a_students_turn, not_while_training, refuse_to_drop, remember_unsolvable,
};
use crate::web::server::schedule::SLICE;
use crate::web::server::shared::Shared;
use crate::web::server::slot::Entry;
use crate::web::session::apart::{Pending, Watched};
use crate::web::session::opponents::parse_opponent;
use crate::web::session::requests::WatchRequest;
use menace_core::training::opponent::OpponentSpec;

/// A session's watched game.
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new().route("/api/sessions/{id}/watch", post(watch))
}

/// One game against an opponent, played on the server for the page to show
/// move by move: a step at a time under the session's lock (the opponent
/// made and its slow moves chosen without it), in a task of its own, so
/// that a request abandoned halfway still ends the game and frees the
/// session. Stop ends it within a move (an MCTS search within a playout).
async fn watch(
    State(shared): State<Arc<Shared>>,
    Param(id): Param,
    JsonBody(ask): JsonBody<WatchRequest>,
) -> ApiResult {
    let opponent = parse_opponent(&ask.opponent, shared.config.limits)?;
    shared.refuse_while_stopping()?;
    let runtime = tokio::runtime::Handle::current();
    let (over, ended) = tokio::sync::oneshot::channel();
    let entry = shared
        .work(move |shared| {
            let entry = shared.entry(&id)?;
            not_while_training(&entry)?;
            let generation = shared.change(&entry, |slot| {
                slot.idle()?;
                not_a_students_turn(shared, &id)?;
                refuse_to_drop(slot.session.as_ref(), ask.discard)?;
                slot.session.check_opponent(&opponent)?;
                known_unsolvable(shared, slot, &opponent)?;
                slot.note = None;
                // The session is the watched game's from now on (its opponent is made next).
                slot.watching = true;
                entry.signals.cancel.store(false, Ordering::Relaxed);
                Ok(slot.generation)
            })?;
            let game = WatchGame {
                opponent,
                frames: ask.frames,
            };
            runtime.spawn(run_watch(shared.clone(), entry.clone(), generation, game, over));
            Ok(entry)
        })
        .await?;
    let game = ended
        .await
        .map_err(|_| ApiError::conflict("the machine was closed or reset during the game"))??;
    let mut answer = (*entry.view()).clone();
    answer["watched"] = game;
    Ok(json_response(StatusCode::OK, &answer))
}

/// The game a watch request asks for.
struct WatchGame {
    opponent: OpponentSpec,
    frames: bool,
}

/// How a step of a watched game ended, under the lock.
enum WatchSlice {
    More,
    Apart(Pending),
    Over(Json),
}

/// Make the watched game's opponent, play the game to its end (or until
/// it is stopped, or its session changes), and send its moves.
async fn run_watch(
    shared: Arc<Shared>,
    entry: Arc<Entry>,
    generation: u64,
    game: WatchGame,
    over: tokio::sync::oneshot::Sender<Result<Json, ApiError>>,
) {
    let made = match shared.make_apart(&entry, generation, &game.opponent).await {
        Some(made) => made,
        None => return,
    };
    let cancel = entry.signals.cancel.clone();
    let begun = shared
        .slice(&shared.work, &entry, generation, move |shared, slot| {
            let WatchGame { opponent, frames } = game;
            made.and_then(|made| slot.session.begin_watch(&opponent, made, frames, cancel))
                .inspect_err(|e| {
                    slot.watching = false;
                    remember_unsolvable(shared, slot, &opponent, e);
                })
        })
        .await;
    match begun {
        Some(Ok(())) => {}
        Some(Err(e)) => {
            let _ = over.send(Err(e.into()));
            return;
        }
        None => return,
    }
    loop {
        let playing = entry.clone();
        let step = shared
            .slice(&shared.work, &entry, generation, move |shared, slot| {
                match slot.session.watch_step(Instant::now() + SLICE, &playing.signals) {
                    Watched::More => WatchSlice::More,
                    Watched::Pending(p) => WatchSlice::Apart(p),
                    Watched::Over(game) => {
                        slot.watching = false;
                        slot.note = shared.save(slot);
                        WatchSlice::Over(game)
                    }
                }
            })
            .await;
        match step {
            Some(WatchSlice::More) => {}
            Some(WatchSlice::Apart(pending)) => {
                if shared.think_apart(&entry, generation, pending).await.is_none() {
                    return;
                }
            }
            Some(WatchSlice::Over(game)) => {
                let _ = over.send(Ok(game));
                return;
            }
            // The session was closed or reset: nothing to answer.
            None => return,
        }
    }
}
