//! A run's games, kept compactly: an experiment holds every game of every
//! seed of every arm until its outputs are written, so a game costs 25
//! bytes here (its result, plies, beads, first boxes' beads and boxes, each
//! in a column of its own) instead of a whole [`GameRecord`]'s 120; the
//! exact results, recorded every few games, and Hex's start seeds are kept
//! only for the games that have them.

use serde::ser::{Serialize, SerializeSeq, Serializer};

use crate::machine::GameResult;
use crate::training::trainer::{ExactPair, GameRecord};

/// Games 1, 2, … of one run, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Records {
    results: Vec<GameResult>,
    plies: Vec<u32>,
    total_beads: Vec<u64>,
    first_box_beads: Vec<u64>,
    boxes: Vec<u32>,
    /// (index, exact results) of the games that recorded them, in order.
    exact: Vec<(u32, ExactPair)>,
    /// (index, start seed) of the games whose start a seed chose, in order.
    start_seeds: Vec<(u32, u64)>,
}

/// Why a game cannot be kept.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum RecordError {
    /// Games must come 1, 2, … in order.
    #[error("game {0}: expected game {1}")]
    OutOfOrder(u64, u64),
    /// More games, boxes or plies than a column holds (4 294 967 295).
    #[error("{0}: more than {max} in one run", max = u32::MAX)]
    TooMany(&'static str),
}

impl Records {
    /// Room for `games` games.
    pub fn with_capacity(games: usize) -> Records {
        Records {
            results: Vec::with_capacity(games),
            plies: Vec::with_capacity(games),
            total_beads: Vec::with_capacity(games),
            first_box_beads: Vec::with_capacity(games),
            boxes: Vec::with_capacity(games),
            exact: Vec::new(),
            start_seeds: Vec::new(),
        }
    }

    /// Keep the next game: it must be game `len() + 1`.
    pub fn push(&mut self, r: &GameRecord) -> Result<(), RecordError> {
        let next = self.results.len() as u64 + 1;
        if r.game != next {
            return Err(RecordError::OutOfOrder(r.game, next));
        }
        let index = u32::try_from(self.results.len()).map_err(|_| RecordError::TooMany("games"))?;
        let boxes = u32::try_from(r.boxes).map_err(|_| RecordError::TooMany("boxes"))?;
        self.results.push(r.result);
        self.plies.push(r.plies);
        self.total_beads.push(r.total_beads);
        self.first_box_beads.push(r.first_box_beads);
        self.boxes.push(boxes);
        if let Some(e) = r.exact {
            self.exact.push((index, e));
        }
        if let Some(s) = r.start_seed {
            self.start_seeds.push((index, s));
        }
        Ok(())
    }

    /// Every record of `records`, which must be games 1, 2, … in order.
    pub fn of(records: &[GameRecord]) -> Result<Records, RecordError> {
        let mut kept = Records::with_capacity(records.len());
        for r in records {
            kept.push(r)?;
        }
        Ok(kept)
    }

    /// The games kept.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether no game is kept.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Each game's result, in order.
    pub fn results(&self) -> &[GameResult] {
        &self.results
    }

    /// Game `i + 1`'s record.
    pub fn get(&self, i: usize) -> Option<GameRecord> {
        (i < self.len()).then(|| self.at(i))
    }

    /// Game `i + 1`'s record, `i` below [`Records::len`].
    fn at(&self, i: usize) -> GameRecord {
        // A kept game's index fits in u32 (`push` refuses more).
        let at = i as u32;
        GameRecord {
            game: i as u64 + 1,
            result: self.results[i],
            plies: self.plies[i],
            total_beads: self.total_beads[i],
            first_box_beads: self.first_box_beads[i],
            boxes: self.boxes[i] as usize,
            exact: sparse_get(&self.exact, at),
            start_seed: sparse_get(&self.start_seeds, at),
        }
    }

    /// The last game's record.
    pub fn last(&self) -> Option<GameRecord> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// Every game's record, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = GameRecord> + ExactSizeIterator + '_ {
        (0..self.len()).map(|i| self.at(i))
    }

    /// The games that recorded exact results, with them, in order.
    pub fn exact(&self) -> impl DoubleEndedIterator<Item = (u64, ExactPair)> + '_ {
        self.exact.iter().map(|&(i, e)| (u64::from(i) + 1, e))
    }
}

fn sparse_get<T: Copy>(v: &[(u32, T)], at: u32) -> Option<T> {
    v.binary_search_by_key(&at, |e| e.0).ok().map(|k| v[k].1)
}

/// Written as the list of [`GameRecord`]s it keeps (a unit file's `games`).
impl Serialize for Records {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for r in self.iter() {
            seq.serialize_element(&r)?;
        }
        seq.end()
    }
}
