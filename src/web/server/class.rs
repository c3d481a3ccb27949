//! The classroom (`menace serve --classroom`): one machine the whole class
//! plays from its own devices. Who may do what is decided by the door a
//! request came in by and what it carries: the teacher (the computer's own
//! loopback address, or the teacher's token) may do everything; a student
//! (the join code, then a cookie naming them) may play the class machine in
//! turn and watch it; anyone else may only open the page and join.
//! Students' games are queued, one at a time: each finished game reinforces
//! the machine in the order the games end, and is logged.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use axum::http::HeaderMap;
use serde::Serialize;

use crate::web::server::error::{ApiError, ErrorKind};
use crate::web::server::joins::Joins;
use crate::web::server::slot::lock;

/// The listener a connection came in by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Door {
    /// The computer's own (loopback) address, or a server that is not a
    /// classroom's: whoever comes in here is the teacher.
    Teacher,
    /// The classroom's network: a request needs the token or the join code.
    Room,
}

/// The address a request's connection came from (the server hands it to
/// every request): a join code's misses are counted by it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Peer(pub(super) IpAddr);

/// Who a request is, in a classroom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Teacher,
    Student(String),
    Guest,
}

/// The cookie a student's device keeps (their id), and the teacher's (the token).
const STUDENT_COOKIE: &str = "menace_student";
const TEACHER_COOKIE: &str = "menace_teacher";

/// Letters of a join code: no 0/O, 1/I/L, read aloud or off a projector.
const CODE_LETTERS: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Students a class holds at most, and games its log keeps (the oldest go).
pub(super) const MAX_STUDENTS: usize = 64;
const LOG_KEPT: usize = 1000;
const NAME_CHARS: usize = 24;

/// A classroom: its secrets, its machine's session, its students and queue.
pub(super) struct Class {
    pub(super) token: String,
    /// The join code (the teacher may ask for a new one).
    code: Mutex<String>,
    /// The class machine's session id, set when the server starts.
    pub(super) session: OnceLock<String>,
    state: Mutex<ClassState>,
    /// Wrong codes, by device and from everywhere.
    joins: Mutex<Joins>,
}

#[derive(Default)]
struct ClassState {
    students: HashMap<String, Student>,
    /// Students waiting for a game, in order; the first plays.
    queue: VecDeque<String>,
    /// Whose game is on the board now.
    playing: Option<String>,
    /// Finished games, in the order they ended (the last [`LOG_KEPT`]).
    log: VecDeque<Logged>,
    games: u64,
}

#[derive(Clone, Debug, Serialize)]
struct Student {
    name: String,
    wins: u32,
    draws: u32,
    losses: u32,
}

/// A finished game of the class: its number, who played, the moves, the result.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Logged {
    pub(super) game: u64,
    pub(super) student: String,
    pub(super) moves: Vec<String>,
    pub(super) result: String,
}

fn random_code(len: usize) -> String {
    (0..len)
        .map(|_| char::from(CODE_LETTERS[rand::random_range(0..CODE_LETTERS.len())]))
        .collect()
}

/// A classroom's secrets: the code students join with, and the token of
/// the teacher's link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassKeys {
    /// Eight letters and digits, easy to read off a projector.
    pub code: String,
    /// 128 random bits, in hex.
    pub token: String,
}

impl ClassKeys {
    /// New random keys.
    pub fn random() -> ClassKeys {
        ClassKeys {
            code: random_code(8),
            token: format!("{:016x}{:016x}", rand::random::<u64>(), rand::random::<u64>()),
        }
    }
}

impl Class {
    pub(super) fn new(keys: ClassKeys) -> Class {
        Class {
            token: keys.token,
            code: Mutex::new(keys.code),
            session: OnceLock::new(),
            state: Mutex::new(ClassState::default()),
            joins: Mutex::new(Joins::default()),
        }
    }

    /// The join code now.
    pub(super) fn code(&self) -> String {
        lock(&self.code).clone()
    }

    /// A new join code, at the teacher's request: joining opens again.
    pub(super) fn new_code(&self) -> String {
        let code = random_code(8);
        *lock(&self.code) = code.clone();
        lock(&self.joins).reopen();
        code
    }

    /// Who a request is: by its door, its token (cookie or `?teacher=`) or its student cookie.
    pub(super) fn role(&self, door: Door, headers: &HeaderMap, query: Option<&str>) -> Role {
        if door == Door::Teacher {
            return Role::Teacher;
        }
        let token = query
            .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("teacher=")))
            .or_else(|| cookie(headers, TEACHER_COOKIE));
        if token.is_some_and(|t| same(t, &self.token)) {
            return Role::Teacher;
        }
        match cookie(headers, STUDENT_COOKIE) {
            Some(id) if lock(&self.state).students.contains_key(id) => Role::Student(id.to_string()),
            _ => Role::Guest,
        }
    }

    /// A student joins with the code, named as they ask (or numbered),
    /// from `device` (its address): their id, and the cookie that keeps it.
    /// A device that missed too often is refused before its code is read.
    pub(super) fn join(&self, code: &str, name: &str, device: IpAddr) -> Result<(String, String), ApiError> {
        let now = Instant::now();
        {
            let mut joins = lock(&self.joins);
            joins
                .check(device, now)
                .map_err(|c| ApiError::new(ErrorKind::Full, c.words()))?;
            if !same(&code.trim().to_ascii_uppercase(), &self.code()) {
                joins.missed(device, now);
                return Err(ApiError::new(ErrorKind::Forbidden, "that is not the class's join code"));
            }
            joins.joined(device);
        }
        let mut state = lock(&self.state);
        if state.students.len() >= MAX_STUDENTS {
            return Err(ApiError::new(
                ErrorKind::Full,
                format!("the class is full ({MAX_STUDENTS} students)"),
            ));
        }
        let mut name: String = name.chars().filter(|c| !c.is_control()).take(NAME_CHARS).collect();
        if name.trim().is_empty() {
            name = format!("student {}", state.students.len() + 1);
        }
        let id = format!("{:016x}{:016x}", rand::random::<u64>(), rand::random::<u64>());
        state.students.insert(
            id.clone(),
            Student {
                name: name.trim().to_string(),
                wins: 0,
                draws: 0,
                losses: 0,
            },
        );
        let cookie = format!("{STUDENT_COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict");
        Ok((id, cookie))
    }

    /// The teacher's cookie, set when the teacher's link is opened.
    pub(super) fn teacher_cookie(&self) -> String {
        format!("{TEACHER_COOKIE}={}; Path=/; HttpOnly; SameSite=Strict", self.token)
    }

    /// `id` joins the queue (once); whether it is their turn now.
    pub(super) fn enqueue(&self, id: &str) -> bool {
        let mut state = lock(&self.state);
        if state.playing.as_deref() != Some(id) && !state.queue.iter().any(|q| q == id) {
            state.queue.push_back(id.to_string());
        }
        state.playing.is_none() && state.queue.front().map(String::as_str) == Some(id)
    }

    /// The next student in the queue takes the board, if it is free: their id.
    pub(super) fn next_player(&self) -> Option<String> {
        let mut state = lock(&self.state);
        if state.playing.is_some() {
            return None;
        }
        let next = state.queue.pop_front()?;
        state.playing = Some(next.clone());
        Some(next)
    }

    /// The teacher ends the turn of the student on the board (gone, or
    /// stuck): their id, if one was playing. Their game is dropped unplayed.
    pub(super) fn skip(&self) -> Option<String> {
        lock(&self.state).playing.take()
    }

    /// A student's place in the queue, from 1, if they wait in it.
    pub(super) fn place(&self, id: &str) -> Option<usize> {
        lock(&self.state).queue.iter().position(|q| q == id).map(|k| k + 1)
    }

    /// Whose game is on the board.
    pub(super) fn playing(&self) -> Option<String> {
        lock(&self.state).playing.clone()
    }

    /// The game on the board ended: logged, counted for its player (the
    /// machine won: +1, drew: 0, lost: −1), the board free.
    pub(super) fn finished(&self, moves: Vec<String>, machine: &str, machine_score: i8) {
        let mut state = lock(&self.state);
        let Some(id) = state.playing.take() else { return };
        state.games += 1;
        let game = state.games;
        let student = match state.students.get_mut(&id) {
            Some(s) => {
                match machine_score.signum() {
                    1 => s.losses += 1,
                    0 => s.draws += 1,
                    _ => s.wins += 1,
                }
                s.name.clone()
            }
            None => "a student who left".to_string(),
        };
        let result = match machine_score.signum() {
            1 => format!("{machine} wins."),
            0 => "A draw.".to_string(),
            _ => format!("{student} wins."),
        };
        state.log.push_back(Logged {
            game,
            student,
            moves,
            result,
        });
        if state.log.len() > LOG_KEPT {
            state.log.pop_front();
        }
    }

    /// What the class page shows of the class: the queue, who plays, the
    /// students' results, the log's last games; the join code for the teacher.
    pub(super) fn json(&self, role: &Role) -> serde_json::Value {
        let state = lock(&self.state);
        let name = |id: &String| state.students.get(id).map_or("?".to_string(), |s| s.name.clone());
        let mut students: Vec<&Student> = state.students.values().collect();
        students.sort_by(|a, b| a.name.cmp(&b.name));
        let (role_name, you) = match role {
            Role::Teacher => ("teacher", None),
            Role::Student(id) => ("student", Some(id)),
            Role::Guest => ("guest", None),
        };
        if *role == Role::Guest {
            // Who is in the class, and how they did, is for the class.
            return serde_json::json!({ "role": role_name });
        }
        serde_json::json!({
            "role": role_name,
            "code": matches!(role, Role::Teacher).then(|| self.code()),
            "you": you.map(name),
            "your_turn": you.is_some_and(|id| state.playing.as_ref() == Some(id)),
            "queued": you.and_then(|id| state.queue.iter().position(|q| q == id)).map(|k| k + 1),
            "playing": state.playing.as_ref().map(name),
            "queue": state.queue.iter().map(name).collect::<Vec<_>>(),
            "students": students,
            "games": state.games,
            "log": state.log.iter().rev().take(20).collect::<Vec<_>>(),
        })
    }

    /// The whole log, oldest first (for the teacher, and the test that replays it).
    pub(super) fn log(&self) -> Vec<Logged> {
        lock(&self.state).log.iter().cloned().collect()
    }
}

/// A cookie's value from the request's `Cookie` headers.
fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| kv.trim().strip_prefix(name)?.strip_prefix('='))
}

/// Secrets compared in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}
