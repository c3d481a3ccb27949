//! What the server asks of a tab's machine, whatever its game.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value as Json;

use crate::training::opponent::OpponentSpec;
use crate::web::session::apart::{Deferred, Made, Pending, Signals, Trained, Watched};
use crate::web::session::error::SessionError;
use crate::web::session::requests::BoxQuery;

/// One tab's machine, whatever its game.
pub trait Session: Send {
    /// The spec of the game the machine plays.
    fn game_spec(&self) -> String;
    /// Everything the page shows, as JSON.
    fn view(&self) -> Json;
    /// Start the next game against the person (the machine moves first if it is to).
    fn new_game(&mut self) -> Result<(), SessionError>;
    /// The person's move, in notation; the machine answers.
    fn play(&mut self, text: &str) -> Result<(), SessionError>;
    /// The person resigns the game in progress.
    fn resign(&mut self) -> Result<(), SessionError>;
    /// The boxes the query asks for (at most `limit` a page), the boxes of
    /// the last game first, each with its position drawn and its beads:
    /// copied now, drawn by [`Deferred::run`] (without the session's lock).
    fn boxes(&self, query: &BoxQuery, limit: usize) -> Deferred<Json>;
    /// Moves the person has made in the game in progress (0: none, or no game).
    fn person_moves(&self) -> usize;
    /// The opponent `spec` names, made by [`Deferred::run`] without the
    /// session's lock (a perfect player's solve takes up to a second);
    /// `None` when the session holds it already.
    fn opponent_maker(&self, spec: &OpponentSpec) -> Option<Deferred<Result<Made, SessionError>>>;
    /// Start a game against `opponent` (`made` apart, or held by the
    /// session) for the page to watch: the person's game in progress is
    /// dropped. It is played by [`Session::watch_step`]; a search opponent
    /// stops searching once `cancel` is set.
    fn begin_watch(
        &mut self,
        opponent: &OpponentSpec,
        made: Option<Made>,
        frames: bool,
        cancel: Arc<AtomicBool>,
    ) -> Result<(), SessionError>;
    /// Play the watched game on, until the move after which `signals` say
    /// to let go (past `deadline`, or a request waits), an opponent's move
    /// to be chosen apart, or its end: then the game's moves (with the
    /// board after each when `frames`) and its result. Once `signals` say
    /// to stop, the game ends unfinished: no beads change, no game counted.
    fn watch_step(&mut self, deadline: Instant, signals: &Signals) -> Watched;
    /// A move chosen apart ([`Trained::pending`], [`Watched::Pending`]),
    /// played in the game it was taken from.
    fn resume(&mut self, pending: Pending);
    /// The curves so far.
    fn curves(&self) -> Json;
    /// The state file, as `menace train --save` writes it: copied now,
    /// written out by [`Deferred::run`].
    fn state(&mut self) -> Deferred<String>;
    /// Refuse an opponent the page cannot make, by estimate (before any solve).
    fn check_opponent(&self, opponent: &OpponentSpec) -> Result<(), SessionError>;
    /// Get ready to train against `opponent` (`made` apart, or held by the
    /// session): the game in progress is dropped. A search opponent stops
    /// searching once `cancel` is set.
    fn begin_training(
        &mut self,
        opponent: &OpponentSpec,
        made: Option<Made>,
        cancel: Arc<AtomicBool>,
    ) -> Result<(), SessionError>;
    /// Train for one slice: finish at most `games` games (of a run of
    /// `total`), stopping after the move after which `signals` say to let
    /// go (past `deadline`, or a request waits), or to stop, or when the
    /// machine has `max_boxes` boxes. A game cut off is resumed by the next slice.
    fn train(&mut self, games: u64, total: u64, deadline: Instant, signals: &Signals) -> Trained;
    /// Training is over: a game left unfinished is dropped (no beads
    /// change), the person is the opponent again, and a new game starts.
    fn end_training(&mut self);
    /// Boxes the machine has.
    fn box_count(&self) -> usize;
    /// Games the machine has played over its life.
    fn games_played(&self) -> u64;
}
