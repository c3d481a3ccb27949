//! Who wins a Hexapawn position, without distances: a depth-first search on
//! the bitboards that stops at the first winning move and remembers
//! answers in a transposition table of fixed size (a position, its mirror
//! image, and both turned half round with the colours swapped, in one
//! entry). Before searching any move it looks at every child: a child
//! already decided (the other side stuck or arriving next, or in the
//! table, whose buckets it loads together) settles the move without a
//! search, and so does a move after which its pawn steps onto the far rank
//! next whatever the reply (none can take it). Facing a pawn of the other
//! side's that could step onto its far rank next, only the moves that take
//! it are looked at (two such pawns, and it has lost). The moves left are
//! tried threats first (a move after which the mover could arrive, were it
//! to move again), then leaving the other side the fewest replies (after a
//! threat, the fewest that capture a pawn threatening), then captures, then
//! those that have won most often elsewhere (the history heuristic), then
//! the most advanced pawns. On 6×6 with Berolina pawns this searches 19 million positions
//! (with the default table) where captures-first searched 407 million. It
//! reaches boards the exact solver cannot store, and is the perfect
//! opponent's engine there.

use crate::clock::Instant;
use std::time::Duration;

use rustc_hash::FxHashMap;

use super::table::{Table, BUCKET_BYTES};
use super::{Hexapawn, HexapawnMove, HexapawnPosition};
use crate::game::{Game, Outcome, Player, PositionSolver, Rules};

/// Why a search gave up before deciding a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unsolved {
    /// It ran past its time budget (seconds).
    Time(f64),
    /// It searched more positions than its budget.
    Work(u64),
}

impl std::fmt::Display for Unsolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsolved::Time(s) => write!(f, "not decided within {s} s"),
            Unsolved::Work(n) => write!(f, "not decided within {n} positions searched"),
        }
    }
}

/// The default table: 2^20 buckets of 64 bytes (64 MiB, four million slots).
pub const DEFAULT_TABLE_BITS: u32 = 20;

/// How often (in positions searched) the clock is read.
const CLOCK_EVERY: u64 = 1 << 14;

/// A winner-only search over one Hexapawn game, keeping its table across
/// the positions it is asked about.
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::{Hexapawn, Player};
/// use menace_core::games::hexapawn::solver::WinnerSearch;
/// let game = Hexapawn::new(4, 4).unwrap();
/// let mut search = WinnerSearch::new(game.clone(), 16);
/// assert_eq!(search.winner(&game.start()).unwrap(), Player::One); // White wins Octopawn
/// ```
pub struct WinnerSearch {
    game: Hexapawn,
    table: Table,
    /// For each cell, how far it is along each side's way (White's rank, Black's from the top).
    advance: [[u8; 64]; 2],
    file_a: u64,
    /// Each cell's mirror image (the same rank, file W−1−f): a child's
    /// mirrored bitboards are its parent's with the move's cells changed.
    mirror_cell: [u8; 64],
    /// For each side and cell, the squares of the far rank a pawn there
    /// could arrive on by a step (onto an empty square) and by a capture.
    arrivals: [[(u64, u64); 64]; 2],
    /// For each side, the rank before its far rank.
    before_goal: [u64; 2],
    /// The moves left to search of every position on the search's path,
    /// each node's above its parent's.
    stack: Vec<Open>,
    nodes: u64,
    /// The next count of positions searched at which the budget is looked at.
    next_check: u64,
    deadline: Option<(Instant, Duration)>,
    max_nodes: Option<u64>,
    /// How often each move (side, from, to) has won where it was tried:
    /// one of the move order's keys (the history heuristic).
    history: Box<[[u32; 64 * 64]; 2]>,
}

impl WinnerSearch {
    /// A search with a table of 2^`table_bits` buckets and no budget.
    pub fn new(game: Hexapawn, table_bits: u32) -> WinnerSearch {
        let w = usize::from(game.width);
        let h = usize::from(game.height);
        let mut advance = [[0u8; 64]; 2];
        let [white, black] = &mut advance;
        for (cell, (white, black)) in white.iter_mut().zip(black.iter_mut()).enumerate().take(w * h) {
            *white = (cell / w) as u8;
            *black = (h - 1 - cell / w) as u8;
        }
        let mut file_a = 0u64;
        for r in 0..h {
            file_a |= 1 << (r * w);
        }
        let mut mirror_cell = [0u8; 64];
        for (cell, m) in mirror_cell.iter_mut().enumerate().take(w * h) {
            *m = (cell / w * w + (w - 1 - cell % w)) as u8;
        }
        let mut arrivals = [[(0, 0); 64]; 2];
        for (side, turn) in [Player::One, Player::Two].into_iter().enumerate() {
            let goal = match turn {
                Player::One => game.last_rank,
                Player::Two => game.first_rank,
            };
            for (cell, arrival) in arrivals[side].iter_mut().enumerate().take(w * h) {
                let mine = 1u64 << cell;
                // Alone on the board it can only step; among the other
                // side's pawns everywhere else, only capture.
                let with = |theirs: u64| {
                    let (white, black) = if turn == Player::One {
                        (mine, theirs)
                    } else {
                        (theirs, mine)
                    };
                    reach(&game.targets(&HexapawnPosition { white, black, turn })) & goal
                };
                *arrival = (with(0), with(game.board & !mine));
            }
        }
        let before_goal = [game.last_rank >> w, game.first_rank << w];
        WinnerSearch {
            game,
            table: Table::new(table_bits),
            advance,
            file_a,
            mirror_cell,
            arrivals,
            before_goal,
            stack: Vec::new(),
            nodes: 0,
            next_check: CLOCK_EVERY,
            deadline: None,
            max_nodes: None,
            history: Box::new([[0; 64 * 64]; 2]),
        }
    }

    /// Give up once `seconds` have passed from now.
    pub fn with_time_budget(mut self, seconds: f64) -> WinnerSearch {
        let budget = Duration::from_secs_f64(seconds.max(0.0));
        self.deadline = Some((Instant::now() + budget, budget));
        self
    }

    /// Give up after searching `nodes` positions in all (checked at every
    /// position, where the clock is read every 16 384 positions).
    pub fn with_work_budget(mut self, nodes: u64) -> WinnerSearch {
        self.max_nodes = Some(nodes);
        self.next_check = self.next_check.min(nodes.saturating_add(1));
        self
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The bytes the transposition table takes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Who wins `pos` with best play.
    pub fn winner(&mut self, pos: &HexapawnPosition) -> Result<Player, Unsolved> {
        match self.game.outcome(pos) {
            Outcome::Win(p) => Ok(p),
            // Hexapawn has no draws: a position not over is decided by search.
            _ => Ok(if self.wins(pos)? { pos.turn } else { pos.turn.other() }),
        }
    }

    /// Whether the side to move wins `pos` (a position not over).
    pub fn wins(&mut self, pos: &HexapawnPosition) -> Result<bool, Unsolved> {
        // A search given up leaves its path's moves behind.
        self.stack.clear();
        let node = Node {
            white: pos.white,
            black: pos.black,
            mirrored: (self.mirror(pos.white), self.mirror(pos.black)),
            turn: pos.turn,
        };
        self.search(node)
    }

    /// For each legal move in `pos` (not over), whether it wins for the
    /// player making it.
    pub fn move_wins(&mut self, pos: &HexapawnPosition) -> Result<Vec<(HexapawnMove, bool)>, Unsolved> {
        let mut out = Vec::new();
        for mv in self.game.moves(pos) {
            out.push((mv, self.wins_by(pos, mv)?));
        }
        Ok(out)
    }

    /// Whether the legal move `mv` in `pos` (not over) wins for the player making it.
    pub fn wins_by(&mut self, pos: &HexapawnPosition, mv: HexapawnMove) -> Result<bool, Unsolved> {
        let child = self.game.play(pos, mv);
        Ok(match self.game.outcome(&child) {
            Outcome::Win(p) => p == pos.turn,
            _ => !self.wins(&child)?,
        })
    }

    fn mirror(&self, bits: u64) -> u64 {
        let w = self.game.w();
        let mut out = 0;
        for f in 0..w {
            out |= ((bits >> f) & self.file_a) << (w - 1 - f);
        }
        out
    }

    /// The table's key for a node, always a position with White to move:
    /// with Black to move, the board turned half round with the colours
    /// swapped (the rules are the same seen from either side, so the side
    /// to move wins both or neither); then the smaller of it and its
    /// mirror image, which the node carries (so that no child's is worked
    /// out file by file). On 6×6 with Berolina pawns the half turn saves a
    /// quarter of the positions searched.
    #[inline]
    fn node_key(&self, node: &Node) -> (u64, u64) {
        let (mw, mb) = node.mirrored;
        let (a, b) = if node.turn == Player::Two {
            let shift = 64 - self.game.w() * u32::from(self.game.height);
            let turned = |bits: u64| bits.reverse_bits() >> shift;
            // The half turn and the mirror image commute.
            ((turned(node.black), turned(node.white)), (turned(mb), turned(mw)))
        } else {
            ((node.white, node.black), (mw, mb))
        };
        a.min(b)
    }

    /// The node after the move from cell `from` to cell `to`, its mirror image kept up to date.
    #[inline]
    fn child(&self, node: &Node, from: usize, to: usize) -> Node {
        let (f, t) = (1u64 << from, 1u64 << to);
        let (mf, mt) = (1u64 << self.mirror_cell[from], 1u64 << self.mirror_cell[to]);
        let (mw, mb) = node.mirrored;
        match node.turn {
            Player::One => Node {
                white: (node.white & !f) | t,
                black: node.black & !t,
                mirrored: ((mw & !mf) | mt, mb & !mt),
                turn: Player::Two,
            },
            Player::Two => Node {
                white: node.white & !t,
                black: (node.black & !f) | t,
                mirrored: (mw & !mt, (mb & !mf) | mt),
                turn: Player::One,
            },
        }
    }

    fn out_of_budget(&self) -> Option<Unsolved> {
        if let Some(max) = self.max_nodes {
            if self.nodes > max {
                return Some(Unsolved::Work(max));
            }
        }
        match self.deadline {
            Some((at, budget)) if Instant::now() >= at => Some(Unsolved::Time(budget.as_secs_f64())),
            _ => None,
        }
    }

    /// The rank `turn`'s pawns arrive on.
    #[inline]
    fn goal(&self, turn: Player) -> u64 {
        match turn {
            Player::One => self.game.last_rank,
            Player::Two => self.game.first_rank,
        }
    }

    /// Whether the side to move wins, where its moves alone say so (`all`:
    /// every square its pawns can move to): it is stuck, or it arrives next.
    #[inline]
    fn decided(&self, turn: Player, all: u64) -> Option<bool> {
        let goal = self.goal(turn);
        if all == 0 {
            Some(false)
        } else if all & goal != 0 {
            Some(true)
        } else {
            None
        }
    }

    fn search(&mut self, node: Node) -> Result<bool, Unsolved> {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            let work = self.max_nodes.map_or(u64::MAX, |max| max.saturating_add(1));
            self.next_check = self.nodes.saturating_add(CLOCK_EVERY).min(work.max(self.nodes + 1));
            if let Some(why) = self.out_of_budget() {
                return Err(why);
            }
        }
        let turn = node.turn;
        let pos = node.position();
        let targets = self.game.targets(&pos);
        if let Some(win) = self.decided(turn, reach(&targets)) {
            return Ok(win);
        }
        let (kw, kb) = self.node_key(&node);
        if let Some(win) = self.table.get(kw, kb) {
            return Ok(win);
        }
        let before = self.nodes;
        let theirs = if turn == Player::One { node.black } else { node.white };
        let side = turn.index();
        // The other side's pawns that could step onto its far rank next
        // (onto an empty square, which no move fills): each must be taken
        // now, and one move takes one. Two such pawns win for them; one
        // leaves only the moves that take it.
        let other = turn.other().index();
        let empty = self.game.board & !(node.white | node.black);
        let mut near = theirs & self.before_goal[other];
        let mut stepping = 0u64;
        while near != 0 {
            let cell = near.trailing_zeros() as usize;
            near &= near - 1;
            if self.arrivals[other][cell].0 & empty != 0 {
                stepping |= 1 << cell;
            }
        }
        if stepping.count_ones() > 1 {
            return Ok(false);
        }
        let allowed = if stepping != 0 { stepping } else { u64::MAX };
        // Each move's child, looked at before any is searched: a child
        // whose side to move is stuck, or the table has lost, wins at once
        // (an enhanced transposition cutoff); one where the other side
        // arrives next, or the table has won, loses and is not searched.
        // The table's buckets for the children are loaded together.
        // The moves left to search go on the stack, each with its place in
        // the order, highest first: the moves that threaten to arrive next,
        // then the fewest replies it leaves the other side, then captures,
        // then the moves that have won most often (the history heuristic),
        // then the pawns furthest along.
        let base = self.stack.len();
        for (set, delta) in targets {
            let mut rest = set & allowed;
            while rest != 0 {
                let to = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let from = (to as i32 - delta) as usize;
                let child = self.child(&node, from, to);
                let replies = self.game.targets(&child.position());
                match self.decided(child.turn, reach(&replies)) {
                    Some(false) => {
                        self.stack.truncate(base);
                        self.table.put(kw, kb, true, self.nodes - before);
                        return Ok(true);
                    }
                    Some(true) => continue,
                    None => {}
                }
                // Whether the move threatens to arrive (the mover could,
                // were it to move again), and from which pawns: only the
                // pawn moved can, as none could before, and the far rank is
                // as it was: a move onto it would have won at once, and no
                // pawn of the mover's stands on it to leave it.
                let (step, take) = self.arrivals[side][to];
                let (mine_after, theirs_after) = match turn {
                    Player::One => (child.white, child.black),
                    Player::Two => (child.black, child.white),
                };
                let steps_on = step & self.game.board & !(mine_after | theirs_after) != 0;
                let moved = 1u64 << to;
                // A step onto the far rank that no reply can stop: the other
                // side cannot arrive first (above), cannot take the pawn, and
                // no move of theirs fills a square of its own first rank.
                if steps_on && reach(&replies) & moved == 0 {
                    self.stack.truncate(base);
                    self.table.put(kw, kb, true, self.nodes - before);
                    return Ok(true);
                }
                let key = self.node_key(&child);
                self.table.prefetch(key.0, key.1);
                let threatening = if steps_on || take & theirs_after != 0 { moved } else { 0 };
                let threat = threatening != 0;
                // The replies it leaves; after a threat, only those that
                // capture a pawn threatening. The others lose at once, save
                // a move of the pawn the threat would capture, which is
                // left out too (counting it made the order worse).
                let replies: u64 = replies
                    .iter()
                    .map(|&(set, _)| {
                        let counted = if threat { set & threatening } else { set };
                        u64::from(counted.count_ones())
                    })
                    .sum();
                let capture = u64::from(theirs & (1u64 << to) != 0);
                let advance = u64::from(self.advance[side][to]);
                let history = u64::from(self.history[side][from * 64 + to]);
                self.stack.push(Open {
                    order: u64::from(threat) << 63
                        | (255 - replies.min(255)) << 55
                        | capture << 54
                        | history << 16
                        | advance,
                    key,
                    from: from as u8,
                    to: to as u8,
                });
            }
        }
        let mut open = base;
        for k in base..self.stack.len() {
            let key = self.stack[k].key;
            match self.table.get(key.0, key.1) {
                Some(false) => {
                    self.stack.truncate(base);
                    self.table.put(kw, kb, true, self.nodes - before);
                    return Ok(true);
                }
                Some(true) => {}
                None => {
                    self.stack[open] = self.stack[k];
                    open += 1;
                }
            }
        }
        self.stack.truncate(open);
        self.stack[base..].sort_unstable_by_key(|m| std::cmp::Reverse((m.order, m.from, m.to)));
        let mut win = false;
        for k in base..open {
            let Open { from, to, .. } = self.stack[k];
            let child = self.child(&node, usize::from(from), usize::from(to));
            if !self.search(child)? {
                let h = &mut self.history[side][usize::from(from) * 64 + usize::from(to)];
                *h = h.saturating_add(1);
                win = true;
                break;
            }
        }
        self.stack.truncate(base);
        self.table.put(kw, kb, win, self.nodes - before);
        Ok(win)
    }
}

/// A position on the search's path, with its mirror image (White's and
/// Black's bitboards mirrored), which its children's keys are made from.
#[derive(Clone, Copy)]
struct Node {
    white: u64,
    black: u64,
    mirrored: (u64, u64),
    turn: Player,
}

impl Node {
    fn position(&self) -> HexapawnPosition {
        HexapawnPosition {
            white: self.white,
            black: self.black,
            turn: self.turn,
        }
    }
}

/// A move left to search: its place in the order, its child's key, and its cells.
#[derive(Clone, Copy)]
struct Open {
    order: u64,
    key: (u64, u64),
    from: u8,
    to: u8,
}

/// Every square a side's pawns can move to, from its targets by direction.
#[inline]
fn reach(targets: &[(u64, i32)]) -> u64 {
    targets.iter().fold(0, |acc, (set, _)| acc | set)
}

/// The perfect opponent's engine where the exact solver cannot store the
/// game: every winning move when the side to move wins; when it loses,
/// every move that does not let the other side reach its far rank at once
/// (all moves, where each does).
///
/// Asked for one move ([`PositionSolver::choose_best`]) in a won position,
/// it takes the moves in a random order drawn from the caller's generator
/// and plays the first it proves to win (the first winner in a uniformly
/// random order is uniform among the winners), rather than proving every
/// move; in a lost position it draws once among the resisting moves, with
/// no search of them.
///
/// What it proved is kept per position (up to a fixed number of
/// positions, starting afresh when full): the positions games reach
/// against a learning machine are few and come back game after game, and
/// a move proved once costs a lookup after. What is kept is the same
/// whether kept or searched (the search is exact), so keeping it changes
/// no game.
pub struct OnDemand {
    search: WinnerSearch,
    /// What is known of each position: over its legal moves in legal-move
    /// order (at most 60 moves on the boards this engine takes: 5 a pawn,
    /// 12 pawns on 36 cells), a bit for each move proved either way, and a
    /// bit for each proved to win; when the side to move loses, the proved
    /// bits are [`LOST`] and the others mark the resisting moves. Keyed by
    /// the bitboards, the side to move in White's top bit (a cell past any
    /// board this engine takes).
    known: FxHashMap<(u64, u64), (u64, u64)>,
    max_known: usize,
    moves: Vec<HexapawnMove>,
}

/// What [`OnDemand`] keeps of a lost position in place of the moves proved.
const LOST: u64 = 1 << 63;

/// The positions [`OnDemand`] keeps what it proved of, by default: 7/8 of
/// 2^20, the most its map holds in 2^20 slots (about 34 MB).
pub const DEFAULT_ANSWERS: usize = 917_504;

impl OnDemand {
    /// An engine with a table of 2^`table_bits` buckets kept across games,
    /// keeping what it proved of up to [`DEFAULT_ANSWERS`] positions.
    pub fn new(game: Hexapawn, table_bits: u32) -> OnDemand {
        OnDemand::with_answers(game, table_bits, DEFAULT_ANSWERS)
    }

    /// [`OnDemand::new`] keeping what it proved of at most `max_answers` positions (at least 1).
    pub fn with_answers(game: Hexapawn, table_bits: u32, max_answers: usize) -> OnDemand {
        OnDemand {
            search: WinnerSearch::new(game, table_bits),
            known: FxHashMap::default(),
            max_known: max_answers.max(1),
            moves: Vec::new(),
        }
    }

    /// The bytes its table takes.
    pub fn table_bytes(table_bits: u32) -> usize {
        BUCKET_BYTES << table_bits.max(super::table::MIN_BITS)
    }

    /// Positions whose proofs are kept now.
    pub fn answers_kept(&self) -> usize {
        self.known.len()
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.search.nodes()
    }

    /// What is known of `pos` (not over; its legal moves in `self.moves`,
    /// at most 63): kept, or a first look, which decides who wins (no
    /// budget: boards are offered this engine only where a search from the
    /// start is quick) and, if lost, marks the resisting moves.
    fn known(&mut self, key: (u64, u64), pos: &HexapawnPosition) -> (u64, u64) {
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        if self.search.wins(pos).unwrap_or(true) {
            return (0, 0);
        }
        let search = &self.search;
        let resisting = self.moves.iter().enumerate().fold(0u64, |acc, (i, &m)| {
            // A move resists where the other side does not arrive next.
            let child = search.game.play(pos, m);
            let resists = search.decided(child.turn, reach(&search.game.targets(&child))) != Some(true);
            acc | u64::from(resists) << i
        });
        let all = (1u64 << self.moves.len()) - 1;
        (LOST, if resisting == 0 { all } else { resisting })
    }

    fn remember(&mut self, key: (u64, u64), known: (u64, u64)) {
        if self.known.len() >= self.max_known && !self.known.contains_key(&key) {
            self.known.clear();
        }
        self.known.insert(key, known);
    }

    /// Whether the `i`-th legal move wins, proved once into `known`.
    fn proves(&mut self, pos: &HexapawnPosition, known: &mut (u64, u64), i: usize) -> bool {
        if known.0 >> i & 1 == 0 {
            let wins = self.search.wins_by(pos, self.moves[i]).unwrap_or(false);
            known.0 |= 1 << i;
            known.1 |= u64::from(wins) << i;
        }
        known.1 >> i & 1 != 0
    }

    /// The key of `pos`, with its legal moves in `self.moves`; `None` where
    /// what is known of it does not fit in bits (never, on the boards this engine takes).
    fn key(&mut self, pos: &HexapawnPosition) -> Option<(u64, u64)> {
        self.search.game.legal_moves(pos, &mut self.moves);
        (self.moves.len() < 64 && pos.white >> 63 == 0)
            .then(|| (pos.white | u64::from(pos.turn == Player::Two) << 63, pos.black))
    }

    /// The answer for `pos` without keeping it, where it does not fit in bits.
    fn search_answer(&mut self, pos: &HexapawnPosition) -> Vec<HexapawnMove> {
        let values = self.search.move_wins(pos).unwrap_or_default();
        let winning: Vec<HexapawnMove> = values.iter().filter(|(_, w)| *w).map(|(m, _)| *m).collect();
        if winning.is_empty() {
            self.search.game.moves(pos)
        } else {
            winning
        }
    }
}

impl PositionSolver<Hexapawn> for OnDemand {
    fn best_moves(&mut self, pos: &HexapawnPosition) -> Vec<HexapawnMove> {
        let Some(key) = self.key(pos) else {
            return self.search_answer(pos);
        };
        let mut known = self.known(key, pos);
        if known.0 != LOST {
            for i in 0..self.moves.len() {
                self.proves(pos, &mut known, i);
            }
        }
        self.remember(key, known);
        let answer: Vec<HexapawnMove> = (0..self.moves.len())
            .filter(|i| known.1 >> i & 1 != 0)
            .map(|i| self.moves[i])
            .collect();
        // Won, by the search's word, but no move proved: not reached (the search is exact).
        if answer.is_empty() {
            return self.moves.clone();
        }
        answer
    }

    fn choose_best(&mut self, pos: &HexapawnPosition, rng: &mut dyn rand::RngCore) -> HexapawnMove {
        use rand::Rng;
        let Some(key) = self.key(pos) else {
            let moves = self.search_answer(pos);
            return moves[rng.random_range(0..moves.len())];
        };
        let mut known = self.known(key, pos);
        let n = self.moves.len();
        if known.0 == LOST {
            self.remember(key, known);
            let resisting = known.1;
            let k = rng.random_range(0..resisting.count_ones() as usize);
            let i = (0..n).filter(|i| resisting >> i & 1 != 0).nth(k).unwrap_or(0);
            return self.moves[i];
        }
        // A random order, drawn as it is needed; the first move in it that wins.
        let mut order = [0u8; 64];
        for (i, slot) in order.iter_mut().enumerate().take(n) {
            *slot = i as u8;
        }
        let mut chosen = None;
        for k in 0..n {
            let j = rng.random_range(k..n);
            order.swap(k, j);
            let i = usize::from(order[k]);
            if self.proves(pos, &mut known, i) {
                chosen = Some(i);
                break;
            }
        }
        self.remember(key, known);
        // Not reached: a won position has a winning move.
        self.moves[chosen.unwrap_or(0)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The table's key for a position, as the search keeps it: the node
    /// with its mirror image worked out file by file.
    fn key(search: &WinnerSearch, white: u64, black: u64, turn: Player) -> (u64, u64) {
        let mirrored = (search.mirror(white), search.mirror(black));
        search.node_key(&Node {
            white,
            black,
            mirrored,
            turn,
        })
    }

    /// The board's mirror image, cell by cell: rank r, file f to rank r, file W−1−f.
    fn mirror_image(bits: u64, w: u32, h: u32) -> u64 {
        let mut out = 0;
        for r in 0..h {
            for f in 0..w {
                if bits >> (r * w + f) & 1 != 0 {
                    out |= 1 << (r * w + (w - 1 - f));
                }
            }
        }
        out
    }

    /// The board turned half round, cell by cell: rank r, file f to rank
    /// H−1−r, file W−1−f.
    fn half_turn(bits: u64, w: u32, h: u32) -> u64 {
        let mut out = 0;
        for r in 0..h {
            for f in 0..w {
                if bits >> (r * w + f) & 1 != 0 {
                    out |= 1 << ((h - 1 - r) * w + (w - 1 - f));
                }
            }
        }
        out
    }

    #[test]
    fn a_search_given_up_can_be_asked_again() {
        let game = Hexapawn::new(5, 5).unwrap();
        let mut search = WinnerSearch::new(game.clone(), 8).with_work_budget(1000);
        assert_eq!(search.wins(&game.start()), Err(Unsolved::Work(1000)));
        assert!(!search.stack.is_empty(), "given up deep in the search");
        // White a1 b1 against Black d5 e5, White to move: a small race.
        let race = HexapawnPosition {
            white: 0b11,
            black: 0b11 << 23,
            turn: Player::One,
        };
        // The budget is for all its searches: spent, any stops at once; given more, it answers.
        assert_eq!(search.wins(&race), Err(Unsolved::Work(1000)));
        let mut search = search.with_work_budget(1_000_000);
        let mut fresh = WinnerSearch::new(game, 8);
        assert_eq!(search.wins(&race), fresh.wins(&race));
        assert!(search.stack.is_empty());
    }

    #[test]
    fn black_to_move_shares_the_key_of_its_half_turned_twin_with_white_to_move() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        for (w, h) in [(3u8, 3u8), (5, 4), (7, 9), (8, 8), (16, 4)] {
            let search = WinnerSearch::new(Hexapawn::new(w, h).unwrap(), 8);
            let (wu, hu) = (u32::from(w), u32::from(h));
            let board = u64::MAX >> (64 - wu * hu);
            for _ in 0..500 {
                let white = rng.random::<u64>() & board;
                let black = rng.random::<u64>() & board & !white;
                let twin = (half_turn(black, wu, hu), half_turn(white, wu, hu));
                assert_eq!(
                    key(&search, white, black, Player::Two),
                    key(&search, twin.0, twin.1, Player::One),
                    "{w}x{h}"
                );
                // The mirror image too, and nothing else is folded in.
                let mirrored = (mirror_image(white, wu, hu), mirror_image(black, wu, hu));
                assert_eq!(mirrored, (search.mirror(white), search.mirror(black)), "{w}x{h}");
                assert_eq!(
                    key(&search, white, black, Player::One),
                    key(&search, mirrored.0, mirrored.1, Player::One)
                );
                let (kw, kb) = key(&search, white, black, Player::One);
                assert!([(white, black), mirrored].contains(&(kw, kb)), "{w}x{h}");
                // A child's mirror image, carried move by move, is the
                // mirror image of the board the move makes.
                for turn in [Player::One, Player::Two] {
                    let node = Node {
                        white,
                        black,
                        mirrored,
                        turn,
                    };
                    let (from, to) = (
                        rng.random_range(0..wu * hu) as usize,
                        rng.random_range(0..wu * hu) as usize,
                    );
                    let child = search.child(&node, from, to);
                    let board = search.game.play(
                        &node.position(),
                        HexapawnMove {
                            from: from as u8,
                            to: to as u8,
                        },
                    );
                    assert_eq!(child.position(), board, "{w}x{h}");
                    assert_eq!(
                        child.mirrored,
                        (mirror_image(board.white, wu, hu), mirror_image(board.black, wu, hu))
                    );
                }
            }
        }
    }
}
