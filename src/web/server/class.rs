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
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use serde::Serialize;

use crate::web::server::deal::{ClassMode, Deal};
use crate::web::server::error::{ApiError, ErrorKind};
use crate::web::server::joins::{device, Joins};
use crate::web::server::kept::{self, Kept, KeptGame, KeptStudent};
use crate::web::server::names;
use crate::web::server::slot::lock;
use crate::web::server::turns::{Turn, Turns};

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
/// every request): a join code's misses, and the students joined, are
/// counted by it.
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
const STUDENT_COOKIE: &str = Class::STUDENT_COOKIE;
const TEACHER_COOKIE: &str = "menace_teacher";

/// Letters of a join code: no 0/O, 1/I/L, read aloud or off a projector.
const CODE_LETTERS: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Students a class holds at most, and games its log keeps (the oldest go).
pub(super) const MAX_STUDENTS: usize = 64;
const LOG_KEPT: usize = 1000;
/// Students one device (address) may join as, unless the teacher allows more.
pub(super) const PER_DEVICE: usize = 4;
/// Seconds a student has for each move, unless the teacher says otherwise.
pub(super) const MOVE_SECONDS: u64 = 60;
/// The longest the teacher may give for a move (0: no limit at all).
const MOST_MOVE_SECONDS: u64 = 3600;

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
    /// Where the class is kept across restarts (beside the state file).
    keep_at: OnceLock<PathBuf>,
    /// The text last kept there; taken while a change is written, so
    /// that writes land in the order of their changes.
    kept: Mutex<Option<String>>,
    /// Why the class could not be kept, until it is.
    unkept: Mutex<Option<String>>,
}

struct ClassState {
    students: HashMap<String, Student>,
    turns: Turns,
    /// Finished games, in the order they ended (the last [`LOG_KEPT`]).
    log: VecDeque<Logged>,
    games: u64,
    /// Students joined so far: the next one's number.
    joined: u32,
    per_device: usize,
    /// Why a student's last turn ended without their game, numbered.
    notices: HashMap<String, (u64, String)>,
    told: u64,
    /// The class plays the machine, or is it.
    mode: ClassMode,
    /// Being the machine, the class draws from real cups (colour buttons), not on screen.
    cups: bool,
    /// Being the machine, who holds which box.
    deal: Deal,
}

impl Default for ClassState {
    fn default() -> ClassState {
        ClassState {
            students: HashMap::new(),
            turns: Turns::with_limit(Some(Duration::from_secs(MOVE_SECONDS))),
            log: VecDeque::new(),
            games: 0,
            joined: 0,
            per_device: PER_DEVICE,
            notices: HashMap::new(),
            told: 0,
            mode: ClassMode::default(),
            cups: false,
            deal: Deal::default(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
struct Student {
    /// The student's number in the class, by which the teacher names them.
    number: u32,
    name: String,
    wins: u32,
    draws: u32,
    losses: u32,
    #[serde(skip)]
    device: IpAddr,
}

/// A finished game of the class: its number, who played, the moves, the result.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Logged {
    pub(super) game: u64,
    pub(super) student: String,
    pub(super) moves: Vec<String>,
    pub(super) result: String,
    /// Whose game it was (results are told by id, never by name).
    #[serde(skip)]
    id: String,
    /// Not a game: the teacher replaced the machine, and the table and the
    /// log began again from here.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) replaced: bool,
}

/// A game that ended on the class machine, as the log tells it.
#[derive(Clone, Debug)]
pub(super) struct Ended {
    pub(super) moves: Vec<String>,
    /// The machine's name.
    pub(super) machine: String,
    /// The machine won: +1, drew: 0, lost: −1.
    pub(super) machine_score: i8,
    /// The player resigned.
    pub(super) resigned: bool,
}

impl Ended {
    /// The game that ended between the machine's views `before` and
    /// `after`, if one did.
    pub(super) fn between(before: &serde_json::Value, after: &serde_json::Value, resigned: bool) -> Option<Ended> {
        if after["games_played"] == before["games_played"] {
            return None;
        }
        let count = |v: &serde_json::Value, k: &str| v["score"][k].as_u64().unwrap_or(0);
        let machine_score = if count(after, "wins") > count(before, "wins") {
            1
        } else if count(after, "losses") > count(before, "losses") {
            -1
        } else {
            0
        };
        let moves = after["board"]["history"]
            .as_array()
            .map(|h| h.iter().filter_map(|m| m.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        Some(Ended {
            moves,
            machine: after["machine"].as_str().unwrap_or("the machine").to_string(),
            machine_score,
            resigned,
        })
    }
}

/// What the teacher may change of the class: seconds for each move (0:
/// no limit), and students one device may join as.
#[derive(Clone, Copy, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ClassSettings {
    pub(super) move_seconds: Option<u64>,
    pub(super) per_device: Option<usize>,
    /// Whether the class plays the machine or is it.
    pub(super) mode: Option<ClassMode>,
    /// Being the machine, whether the class draws from real cups.
    pub(super) cups: Option<bool>,
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

/// The keys of the class kept beside the state file `state`, if one is:
/// a restarted classroom keeps its code, and its teacher's link.
pub fn kept_keys(state: &std::path::Path) -> Result<Option<ClassKeys>, String> {
    Ok(kept::read(&kept::beside(state))?.map(|k| ClassKeys {
        code: k.code,
        token: k.token,
    }))
}

impl Class {
    /// The cookie a student's device keeps: their id.
    pub(super) const STUDENT_COOKIE: &'static str = "menace_student";

    pub(super) fn new(keys: ClassKeys) -> Class {
        Class {
            token: keys.token,
            code: Mutex::new(keys.code),
            session: OnceLock::new(),
            state: Mutex::new(ClassState::default()),
            joins: Mutex::new(Joins::default()),
            keep_at: OnceLock::new(),
            kept: Mutex::new(None),
            unkept: Mutex::new(None),
        }
    }

    /// Keep the class at `path` from now on, starting from what is kept
    /// there already (a restart: the same students, queue and log).
    pub(super) fn keep_at(&self, path: PathBuf) -> Result<(), String> {
        if let Some(k) = kept::read(&path)? {
            if k.students.len() > MAX_STUDENTS {
                return Err(format!(
                    "class file '{}': {} students; a class holds at most {MAX_STUDENTS}",
                    path.display(),
                    k.students.len()
                ));
            }
            let mut state = lock(&self.state);
            state.students = k
                .students
                .into_iter()
                .map(|s| {
                    let student = Student {
                        number: s.number,
                        name: s.name,
                        wins: s.wins,
                        draws: s.draws,
                        losses: s.losses,
                        device: s.device,
                    };
                    (s.id, student)
                })
                .collect();
            let queue = k
                .queue
                .into_iter()
                .filter(|id| state.students.contains_key(id))
                .collect();
            let limit = (k.move_seconds > 0).then(|| Duration::from_secs(k.move_seconds));
            state.turns = Turns::restored(limit, queue);
            state.log = k
                .log
                .into_iter()
                .map(|g| Logged {
                    game: g.game,
                    student: g.student,
                    moves: g.moves,
                    result: g.result,
                    id: g.id,
                    replaced: g.replaced,
                })
                .collect();
            state.games = k.games;
            state.joined = k.joined;
            state.per_device = k.per_device.clamp(1, MAX_STUDENTS);
            state.mode = k.mode;
            state.cups = k.cups;
        }
        let _ = self.keep_at.set(path);
        self.keep();
        Ok(())
    }

    /// Write the class where it is kept, if it changed since last written.
    pub(super) fn keep(&self) {
        let Some(path) = self.keep_at.get() else { return };
        let mut last = lock(&self.kept);
        let snapshot = self.snapshot();
        let text = serde_json::to_string(&snapshot).unwrap_or_default();
        if last.as_deref() == Some(text.as_str()) {
            return;
        }
        match kept::write(path, &snapshot) {
            Ok(()) => {
                *last = Some(text);
                *lock(&self.unkept) = None;
            }
            Err(e) => *lock(&self.unkept) = Some(e),
        }
    }

    /// The class as it is kept.
    fn snapshot(&self) -> Kept {
        let code = self.code();
        let state = lock(&self.state);
        let mut students: Vec<KeptStudent> = state
            .students
            .iter()
            .map(|(id, s)| KeptStudent {
                id: id.clone(),
                number: s.number,
                name: s.name.clone(),
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                device: s.device,
            })
            .collect();
        students.sort_by_key(|s| s.number);
        Kept {
            code,
            token: self.token.clone(),
            students,
            queue: state.turns.waiting(),
            log: state
                .log
                .iter()
                .map(|g| KeptGame {
                    game: g.game,
                    id: g.id.clone(),
                    student: g.student.clone(),
                    moves: g.moves.clone(),
                    result: g.result.clone(),
                    replaced: g.replaced,
                })
                .collect(),
            games: state.games,
            joined: state.joined,
            per_device: state.per_device,
            move_seconds: state.turns.limit().map_or(0, |l| l.as_secs()),
            mode: state.mode,
            cups: state.cups,
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
    /// from `from` (its address), against `machine` (whose name is not
    /// theirs to take): their id, and the cookie that keeps it. A device
    /// that missed too often is refused before its code is read.
    pub(super) fn join(
        &self,
        code: &str,
        name: &str,
        from: IpAddr,
        machine: &str,
    ) -> Result<(String, String), ApiError> {
        let (now, from) = (Instant::now(), device(from));
        {
            let mut joins = lock(&self.joins);
            joins
                .check(from, now)
                .map_err(|c| ApiError::new(ErrorKind::Full, c.words()))?;
            if !same(&code.trim().to_ascii_uppercase(), &self.code()) {
                joins.missed(from, now);
                return Err(ApiError::new(ErrorKind::Forbidden, "that is not the class's join code"));
            }
            joins.joined(from);
        }
        let mut state = lock(&self.state);
        if state.students.len() >= MAX_STUDENTS {
            return Err(ApiError::new(
                ErrorKind::Full,
                format!("the class is full ({MAX_STUDENTS} students)"),
            ));
        }
        let here = state.students.values().filter(|s| s.device == from).count();
        if here >= state.per_device {
            return Err(ApiError::new(
                ErrorKind::Full,
                format!(
                    "{here} students have joined from this device already, the most the teacher allows: the teacher can allow more"
                ),
            ));
        }
        let name = state.name(name, machine, None)?;
        state.joined += 1;
        let id = format!("{:016x}{:016x}", rand::random::<u64>(), rand::random::<u64>());
        let student = Student {
            number: state.joined,
            name,
            wins: 0,
            draws: 0,
            losses: 0,
            device: from,
        };
        state.students.insert(id.clone(), student);
        let cookie = format!("{STUDENT_COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict");
        Ok((id, cookie))
    }

    /// The teacher's cookie, set when the teacher's link is opened.
    pub(super) fn teacher_cookie(&self) -> String {
        format!("{TEACHER_COOKIE}={}; Path=/; HttpOnly; SameSite=Strict", self.token)
    }

    /// The teacher renames student `number`.
    pub(super) fn rename(&self, number: u32, name: &str, machine: &str) -> Result<(), ApiError> {
        let mut state = lock(&self.state);
        let id = state.id_of(number)?;
        let name = state.name(name, machine, Some(&id))?;
        if let Some(s) = state.students.get_mut(&id) {
            s.name = name;
        }
        Ok(())
    }

    /// The teacher removes student `number` (their place is free, their
    /// device a guest's again): the turn they had on the board, if any.
    pub(super) fn remove(&self, number: u32) -> Result<Option<Turn>, ApiError> {
        let id = lock(&self.state).id_of(number)?;
        Ok(self.leave(&id))
    }

    /// Student `id` leaves the class (their boxes, if they held any, are
    /// dealt again): the turn they had on the board, if any.
    pub(super) fn leave(&self, id: &str) -> Option<Turn> {
        let mut state = lock(&self.state);
        state.students.remove(id);
        state.turns.remove(id)
    }

    /// Whether the class plays the machine or is it.
    pub(super) fn mode(&self) -> ClassMode {
        lock(&self.state).mode
    }

    /// Whether the boxes must be dealt again, the machine having `boxes`
    /// boxes: the class is the machine, and its boxes or pupils changed.
    pub(super) fn deal_stale(&self, boxes: usize) -> bool {
        let state = lock(&self.state);
        state.mode == ClassMode::Machine && !state.deal.fits(boxes, &state.pupils())
    }

    /// Deal the boxes again among the pupils (`moves`: the machine's move
    /// of each box, by label).
    pub(super) fn deal_again(&self, moves: Vec<u32>) {
        let mut state = lock(&self.state);
        state.deal = Deal::new(moves, state.pupils());
    }

    /// The pupil holding box `label`: their id and name.
    pub(super) fn holder(&self, label: u32) -> Option<(String, String)> {
        let state = lock(&self.state);
        let number = state.deal.holder(label)?;
        state
            .students
            .iter()
            .find(|(_, s)| s.number == number)
            .map(|(id, s)| (id.clone(), s.name.clone()))
    }

    /// The teacher's settings for the class.
    pub(super) fn set(&self, ask: ClassSettings) -> Result<(), ApiError> {
        if let Some(s) = ask.move_seconds.filter(|s| *s > MOST_MOVE_SECONDS) {
            return Err(ApiError::bad(format!(
                "move_seconds is {s}; expected at most {MOST_MOVE_SECONDS} (0 for no limit)"
            )));
        }
        if let Some(n) = ask.per_device.filter(|n| !(1..=MAX_STUDENTS).contains(n)) {
            return Err(ApiError::bad(format!(
                "per_device is {n}; expected 1 to {MAX_STUDENTS}"
            )));
        }
        let mut state = lock(&self.state);
        if let Some(s) = ask.move_seconds {
            let limit = (s > 0).then(|| Duration::from_secs(s));
            state.turns.set_limit(limit, Instant::now());
        }
        if let Some(n) = ask.per_device {
            state.per_device = n;
        }
        if let Some(m) = ask.mode {
            state.mode = m;
        }
        if let Some(c) = ask.cups {
            state.cups = c;
        }
        Ok(())
    }

    /// Run `f` on the queue, under the class's lock. A caller that also
    /// changes the board holds the machine's lock first (the one order).
    pub(super) fn turns<T>(&self, f: impl FnOnce(&mut Turns) -> T) -> T {
        f(&mut lock(&self.state).turns)
    }

    /// Turn `number`'s game ended: logged, counted for its player, the
    /// turn over. A turn already ended (skipped, run out) is not charged.
    pub(super) fn finished(&self, number: u64, ended: Ended) {
        let mut state = lock(&self.state);
        let Some(turn) = state.turns.end(number) else { return };
        let student = match state.students.get_mut(&turn.id) {
            Some(s) => {
                match ended.machine_score.signum() {
                    1 => s.losses += 1,
                    0 => s.draws += 1,
                    _ => s.wins += 1,
                }
                s.name.clone()
            }
            None => "a student who left".to_string(),
        };
        state.logged(turn.id, student, ended);
    }

    /// A game the teacher played on the class machine (between students'
    /// turns) ended: it changed the machine too, so it is logged.
    pub(super) fn teacher_played(&self, ended: Ended) {
        lock(&self.state).logged(String::new(), "the teacher".to_string(), ended);
    }

    /// The name of the student whose turn is on the board.
    pub(super) fn player(&self) -> Option<String> {
        let state = lock(&self.state);
        let id = state.turns.playing()?;
        Some(
            state
                .students
                .get(id)
                .map_or_else(|| "a student".to_string(), |s| s.name.clone()),
        )
    }

    /// Tell student `id` why their turn ended without their game (shown once on their page).
    pub(super) fn tell(&self, id: &str, words: &str) {
        let mut state = lock(&self.state);
        state.told += 1;
        let told = state.told;
        state.notices.insert(id.to_string(), (told, words.to_string()));
    }

    /// What the class page shows of the class: the queue, who plays and
    /// for how long more, the students' results, the log's last games;
    /// the join code and settings for the teacher.
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
        let turn = state.turns.turn();
        let now = Instant::now();
        let teacher = matches!(role, Role::Teacher);
        serde_json::json!({
            "role": role_name,
            "code": teacher.then(|| self.code()),
            "you": you.map(name),
            "your_turn": you.is_some_and(|id| turn.is_some_and(|t| t.id == *id)),
            "your_last": you.and_then(|id| state.log.iter().rev().find(|g| g.id == *id)).map(|g| serde_json::json!({"game": g.game, "result": g.result})),
            "queued": you.and_then(|id| state.turns.place(id)),
            "notice": you.and_then(|id| state.notices.get(id)).map(|(k, words)| serde_json::json!({"number": k, "words": words})),
            "playing": turn.map(|t| name(&t.id)),
            "turn": turn.map(|t| t.number),
            "seconds_left": turn.and_then(|t| t.due).map(|d| d.saturating_duration_since(now).as_secs_f64().ceil()),
            "move_seconds": state.turns.limit().map_or(0, |l| l.as_secs()),
            "per_device": teacher.then_some(state.per_device),
            "unkept": if teacher { lock(&self.unkept).clone() } else { None },
            "queue": state.turns.queue().map(name).collect::<Vec<_>>(),
            "students": students,
            "games": state.games,
            "log": state.log.iter().rev().take(20).collect::<Vec<_>>(),
            "mode": state.mode,
            "cups": state.cups,
            "your_boxes": you
                .filter(|_| state.mode == ClassMode::Machine)
                .and_then(|id| state.students.get(id))
                .map(|s| state.deal.held_by(s.number)),
            "deal": (teacher && state.mode == ClassMode::Machine).then(|| state.dealt()),
        })
    }

    /// How the game on the board (its moves `history`) ended, in words for
    /// `role` when it was not theirs ("Ada wins.", where the board's own
    /// words, "You win.", are its player's): None when it was theirs, or
    /// is not the last game logged.
    pub(super) fn result_for(&self, role: &Role, history: &[String]) -> Option<String> {
        let state = lock(&self.state);
        let last = state.log.back()?;
        let theirs = match role {
            Role::Teacher => last.id.is_empty(),
            Role::Student(id) => last.id == *id,
            Role::Guest => false,
        };
        (!theirs && last.moves == history).then(|| last.result.clone())
    }

    /// The teacher replaced the class machine (`machine`, after `games`
    /// games): the students' table starts again, and so does the log, from
    /// a line that says so.
    pub(super) fn machine_replaced(&self, machine: &str, games: u64) {
        let mut state = lock(&self.state);
        for s in state.students.values_mut() {
            (s.wins, s.draws, s.losses) = (0, 0, 0);
        }
        state.log.clear();
        let game = state.games;
        let games = match games {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        state.log.push_back(Logged {
            game,
            student: "the teacher".to_string(),
            moves: Vec::new(),
            result: format!("The teacher replaced {machine} (after {games}): the table and the log start again."),
            id: String::new(),
            replaced: true,
        });
    }

    /// The whole log, oldest first (for the teacher, and the test that replays it).
    pub(super) fn log(&self) -> Vec<Logged> {
        lock(&self.state).log.iter().cloned().collect()
    }
}

impl ClassState {
    /// The pupils' numbers, in order.
    fn pupils(&self) -> Vec<u32> {
        let mut numbers: Vec<u32> = self.students.values().map(|s| s.number).collect();
        numbers.sort_unstable();
        numbers
    }

    /// The deal, pupil by pupil in the order they joined: their number, name and boxes.
    fn dealt(&self) -> Vec<serde_json::Value> {
        let mut students: Vec<&Student> = self.students.values().collect();
        students.sort_by_key(|s| s.number);
        students
            .iter()
            .map(|s| serde_json::json!({"number": s.number, "name": s.name, "boxes": self.deal.held_by(s.number)}))
            .collect()
    }

    /// Log a finished game of `student` (id `id`; none for the teacher).
    fn logged(&mut self, id: String, student: String, ended: Ended) {
        self.games += 1;
        let player = if id.is_empty() {
            "The teacher".to_string()
        } else {
            student.clone()
        };
        let result = match (ended.machine_score.signum(), ended.resigned) {
            (1, true) => format!("{player} resigned. {} wins.", ended.machine),
            (1, false) => format!("{} wins.", ended.machine),
            (0, _) => "A draw.".to_string(),
            _ => format!("{player} wins."),
        };
        self.log.push_back(Logged {
            game: self.games,
            student,
            moves: ended.moves,
            result,
            id,
            replaced: false,
        });
        if self.log.len() > LOG_KEPT {
            self.log.pop_front();
        }
    }

    /// The id of student `number`.
    fn id_of(&self, number: u32) -> Result<String, ApiError> {
        self.students
            .iter()
            .find(|(_, s)| s.number == number)
            .map(|(id, _)| id.clone())
            .ok_or_else(|| ApiError::new(ErrorKind::NotFound, format!("no student {number} in the class")))
    }

    /// `asked`, checked as a name in this class (`own`: the student it is
    /// for, whose present name does not count as taken); numbered when empty.
    fn name(&self, asked: &str, machine: &str, own: Option<&str>) -> Result<String, ApiError> {
        let taken = |key: &str| {
            self.students
                .iter()
                .any(|(id, s)| Some(id.as_str()) != own && names::key(&s.name) == key)
        };
        let name = names::check(asked, machine, taken).map_err(ApiError::bad)?;
        if !name.is_empty() {
            return Ok(name);
        }
        Ok((1..)
            .map(|k| format!("student {k}"))
            .find(|n| !taken(n))
            .unwrap_or_default())
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
