//! Whose turn it is on the class machine: the queue as a state machine
//! with one owner. A turn has a number of its own, so that whatever ends
//! it (the student's last move, the teacher's skip, the clock, a removal)
//! ends that turn and no later one; and a clock, restarted by each move,
//! after which the turn passes. Time is given, never read here, so the
//! rules are checked without waiting.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The student on the board: who, which turn, and until when they may move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Turn {
    pub(super) id: String,
    pub(super) number: u64,
    pub(super) due: Option<Instant>,
}

/// The queue and the turn on the board.
#[derive(Debug, Default)]
pub(super) struct Turns {
    queue: VecDeque<String>,
    turn: Option<Turn>,
    /// Turns begun so far: the next one's number.
    begun: u64,
    /// How long a student has for each move; `None`: as long as they like.
    limit: Option<Duration>,
}

impl Turns {
    /// No queue yet, `limit` for each move.
    pub(super) fn with_limit(limit: Option<Duration>) -> Turns {
        Turns {
            limit,
            ..Turns::default()
        }
    }

    /// How long a student has for each move.
    pub(super) fn limit(&self) -> Option<Duration> {
        self.limit
    }

    /// Everyone waiting for the board, the student on it first.
    pub(super) fn waiting(&self) -> Vec<String> {
        self.playing()
            .map(str::to_string)
            .into_iter()
            .chain(self.queue.iter().cloned())
            .collect()
    }

    /// A queue as [`Turns::waiting`] gave it (a restarted class): nobody on
    /// the board yet; the first takes it when the class is next settled.
    pub(super) fn restored(limit: Option<Duration>, waiting: Vec<String>) -> Turns {
        Turns {
            queue: waiting.into(),
            ..Turns::with_limit(limit)
        }
    }

    /// `id` waits for a game (once; not while it is their turn).
    pub(super) fn enqueue(&mut self, id: &str) {
        if self.playing() != Some(id) && !self.queue.iter().any(|q| q == id) {
            self.queue.push_back(id.to_string());
        }
    }

    /// The turn on the board.
    pub(super) fn turn(&self) -> Option<&Turn> {
        self.turn.as_ref()
    }

    /// Whose turn it is.
    pub(super) fn playing(&self) -> Option<&str> {
        self.turn.as_ref().map(|t| t.id.as_str())
    }

    /// The students waiting, in order.
    pub(super) fn queue(&self) -> impl Iterator<Item = &String> {
        self.queue.iter()
    }

    /// `id`'s place in the queue, from 1.
    pub(super) fn place(&self, id: &str) -> Option<usize> {
        self.queue.iter().position(|q| q == id).map(|k| k + 1)
    }

    /// Whether [`Turns::settle`] has something to do now: a turn whose
    /// clock ran out, or a free board and somebody waiting.
    pub(super) fn unsettled(&self, board_free: bool, now: Instant) -> bool {
        self.expired(now).is_some() || (board_free && self.turn.is_none() && !self.queue.is_empty())
    }

    /// The number of the turn whose clock has run out, if one has.
    pub(super) fn expired(&self, now: Instant) -> Option<u64> {
        let t = self.turn.as_ref()?;
        t.due.filter(|due| *due <= now).map(|_| t.number)
    }

    /// The next student takes the board, if it is free (`board_free`: the
    /// machine is not training): the turn begun.
    pub(super) fn advance(&mut self, board_free: bool, now: Instant) -> Option<&Turn> {
        if !board_free || self.turn.is_some() {
            return None;
        }
        let id = self.queue.pop_front()?;
        self.begun += 1;
        self.turn = Some(Turn {
            id,
            number: self.begun,
            due: self.limit.map(|l| now + l),
        });
        self.turn.as_ref()
    }

    /// The student of turn `number` moved: their clock starts again.
    pub(super) fn moved(&mut self, number: u64, now: Instant) {
        let limit = self.limit;
        if let Some(t) = self.turn.as_mut().filter(|t| t.number == number) {
            t.due = limit.map(|l| now + l);
        }
    }

    /// Turn `number` ends (its game ended, was skipped, or its clock ran
    /// out): the turn, if it was still on the board. A later turn is left
    /// alone, so two ends of one turn cannot end the next one.
    pub(super) fn end(&mut self, number: u64) -> Option<Turn> {
        if self.turn.as_ref().is_some_and(|t| t.number == number) {
            self.turn.take()
        } else {
            None
        }
    }

    /// `id` leaves the class: out of the queue, and their turn, if it was
    /// theirs, ended.
    pub(super) fn remove(&mut self, id: &str) -> Option<Turn> {
        self.queue.retain(|q| q != id);
        let number = self.turn.as_ref().filter(|t| t.id == id)?.number;
        self.end(number)
    }

    /// A new limit for each move; the turn on the board gets it from now.
    pub(super) fn set_limit(&mut self, limit: Option<Duration>, now: Instant) {
        self.limit = limit;
        if let Some(t) = self.turn.as_mut() {
            t.due = limit.map(|l| now + l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: u64) -> Instant {
        // One base for every test's instants: only their differences matter.
        static BASE: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        *BASE.get_or_init(Instant::now) + Duration::from_secs(s)
    }

    #[test]
    fn the_queue_moves_on_only_when_the_board_is_free() {
        let mut t = Turns::default();
        t.enqueue("ada");
        t.enqueue("bob");
        t.enqueue("ada");
        assert_eq!(t.queue().count(), 2);
        // Training holds the board: nobody starts; after it, the first does.
        assert!(!t.unsettled(false, at(0)));
        assert_eq!(t.advance(false, at(0)), None);
        assert!(t.unsettled(true, at(0)));
        assert_eq!(t.advance(true, at(0)).map(|x| x.id.clone()), Some("ada".to_string()));
        assert_eq!(t.place("bob"), Some(1));
        assert!(!t.unsettled(true, at(0)));
        // A turn ends once; the second end of it leaves the next turn alone.
        assert!(t.end(1).is_some());
        assert_eq!(
            t.advance(true, at(1)).map(|x| (x.id.clone(), x.number)),
            Some(("bob".to_string(), 2))
        );
        assert_eq!(t.end(1), None);
        assert_eq!(t.playing(), Some("bob"));
    }

    #[test]
    fn the_clock_restarts_with_each_move_and_a_turn_passes_when_it_runs_out() {
        let mut t = Turns {
            limit: Some(Duration::from_secs(30)),
            ..Turns::default()
        };
        t.enqueue("ada");
        t.enqueue("bob");
        t.advance(true, at(0));
        assert_eq!(t.expired(at(29)), None);
        t.moved(1, at(20));
        assert_eq!(t.expired(at(49)), None);
        assert_eq!(t.expired(at(50)), Some(1));
        assert!(t.unsettled(false, at(50)));
        t.end(1);
        assert_eq!(t.advance(true, at(50)).map(|x| x.due), Some(Some(at(80))));
        // No limit: nobody's turn runs out.
        t.set_limit(None, at(60));
        assert_eq!(t.expired(at(10_000)), None);
    }

    #[test]
    fn a_student_removed_leaves_the_queue_and_the_board() {
        let mut t = Turns::default();
        for id in ["ada", "bob", "cy"] {
            t.enqueue(id);
        }
        t.advance(true, at(0));
        assert_eq!(t.remove("bob"), None);
        assert_eq!(t.place("cy"), Some(1));
        assert_eq!(t.remove("ada").map(|x| x.number), Some(1));
        assert_eq!(t.playing(), None);
        assert_eq!(t.advance(true, at(0)).map(|x| x.id.clone()), Some("cy".to_string()));
    }
}
