//! Depth-first proof-number search (Nagai's DFPN, with Pawlewicz and
//! Lew's 1+ε thresholds) for Hex boards up to 8×8, over the H-search
//! virtual connections of [`super::vc`] and the fill-in of
//! [`super::inferior`], in the manner of Benzene's solver (Arneson,
//! Hayward and Henderson, "Solving Hex: beyond humans", 2010).
//!
//! At each position, with P to move and O the opponent:
//!
//! 1. Dead cells and captured pairs are filled in (the value is kept).
//! 2. If O's stones join O's edges, P has lost; if P's do, P has won.
//! 3. A semi (or full) connection for P between P's edges wins at once.
//! 4. A full connection for O loses for P, whatever P plays.
//! 5. Otherwise P's moves are the *must-play region*, the intersection of
//!    the carriers of O's semi connections: any other move lets O play its
//!    key and connect. An empty region loses.
//!
//! The search: every position has a proof number (the least number of
//! positions still to be shown won for P to show it won) and a disproof
//! number; a position is won when one move leads to a position lost for
//! the opponent, lost when every move leads to one won for them. DFPN
//! expands, depth first, the child with the smallest disproof number until
//! its numbers pass thresholds passed down from above, so it needs memory
//! only for a transposition table: here one of fixed size, shared by the
//! threads, keyed by the position up to the 180° rotation, each entry
//! keeping the position whole (no false matches). When it is full, the
//! entry whose subtree took the least work gives way.
//!
//! Work is bounded by a budget of positions searched and an optional
//! deadline, over all threads together: past either, a search stops and
//! says so, it never guesses.
//!
//! The swap: before the opening stone every cell is a move (no connection
//! reasoning); when the swap is pending it is a move too, and no cell is
//! filled in (the swap mirrors the lone stone, which fill-in would spoil).

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::bitboard::Geometry;
use super::inferior::Inferior;
use super::table::hash;
use super::vc::HSearch;

/// A proof or disproof number that means proved (infinitely far from the other).
const INF: u64 = u64::MAX / 4;

/// A Hex position as the solver sees it: Red's and Blue's stones, who is to
/// move (0 Red, 1 Blue) and whether the swap has been used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct State {
    pub stones: [u64; 2],
    pub side: usize,
    pub swapped: bool,
}

/// A move: a cell, or the swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Cell(u32),
    Swap,
}

/// The search went past its budget of positions or its deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// What one look at a position (steps 1 to 5) finds.
#[derive(Clone, Copy, Debug)]
pub(super) enum Look {
    Won,
    Lost,
    /// The board after fill-in, the cells P must choose from, and whether
    /// the swap is a move.
    Moves {
        filled: [u64; 2],
        cells: u64,
        swap: bool,
    },
}

/// The table's key: the position in its canonical orientation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Key {
    red: u64,
    blue: u64,
    /// Bit 0 the side to move, bit 1 whether the swap is still to come, bit 2 set in a used entry.
    flags: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: Key,
    pn: u64,
    dn: u64,
    /// The look at the position, once taken (`None` is not stored: see `looked`).
    filled: [u64; 2],
    cells: u64,
    swap: bool,
    looked: bool,
    /// Positions searched below this one, the last time: what a full bucket keeps.
    work: u64,
}

/// Entries a bucket.
const WAYS: usize = 4;

/// The transposition table: 2^bits buckets of [`WAYS`] entries, each behind a lock.
struct Table {
    buckets: Vec<Mutex<[Entry; WAYS]>>,
    mask: u64,
}

impl Table {
    fn new(bits: u32) -> Table {
        Table {
            buckets: (0..1usize << bits)
                .map(|_| Mutex::new([Entry::default(); WAYS]))
                .collect(),
            mask: (1u64 << bits) - 1,
        }
    }

    fn bucket(&self, key: &Key) -> std::sync::MutexGuard<'_, [Entry; WAYS]> {
        let i = (hash(key.red, key.blue, key.flags) & self.mask) as usize;
        // A thread that panicked holding the lock left whole entries behind.
        self.buckets[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, key: &Key) -> Option<Entry> {
        self.bucket(key).iter().find(|e| e.key == *key).copied()
    }

    fn put(&self, entry: Entry) {
        let mut b = self.bucket(&entry.key);
        let slot = match b.iter().position(|e| e.key == entry.key) {
            Some(i) => i,
            None => (0..WAYS)
                .min_by_key(|&i| (b[i].key.flags & 4 != 0, b[i].work))
                .unwrap_or(0),
        };
        b[slot] = entry;
    }
}

/// Positions searched between two looks at the shared budget.
const BUDGET_STEP: u64 = 256;

/// A solver for one board: the board, the table and the budget, shared by
/// the threads searching it.
pub struct Solver {
    geometry: Geometry,
    inferior: Inferior,
    swap: bool,
    table: Table,
    searched: AtomicU64,
    max_searched: AtomicU64,
    deadline: Mutex<Option<Instant>>,
    stopped: AtomicBool,
}

impl Solver {
    /// A solver for an N×N board (N ≤ 8), with or without the swap, whose
    /// table has 2^`bits` buckets of [`WAYS`] entries (about 100 bytes an entry).
    pub(super) fn new(n: u32, swap: bool, bits: u32) -> Solver {
        let geometry = Geometry::new(n);
        Solver {
            inferior: Inferior::new(&geometry),
            geometry,
            swap,
            table: Table::new(bits),
            searched: AtomicU64::new(0),
            max_searched: AtomicU64::new(u64::MAX),
            deadline: Mutex::new(None),
            stopped: AtomicBool::new(false),
        }
    }

    /// Set a fresh budget: at most `max` positions searched from now on,
    /// and no search going past `deadline`.
    pub fn set_budget(&self, max: Option<u64>, deadline: Option<Instant>) {
        self.searched.store(0, Ordering::Relaxed);
        self.max_searched.store(max.unwrap_or(u64::MAX), Ordering::Relaxed);
        *self.deadline.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
        self.stopped.store(false, Ordering::Relaxed);
    }

    /// Whether the budget is spent: a search stopped on it, the deadline
    /// passed or the positions searched went past the most allowed.
    pub(super) fn spent(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
            || self.searched() > self.max_searched.load(Ordering::Relaxed)
            || self
                .deadline
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some_and(|d| Instant::now() >= d)
    }

    /// Positions searched since the budget was set.
    pub fn searched(&self) -> u64 {
        self.searched.load(Ordering::Relaxed)
    }

    pub(super) fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Whether the side to move in `state` wins, searched on this thread.
    pub(super) fn wins(&self, state: State) -> Result<bool, OutOfBudget> {
        let mut w = Worker::new(self);
        let r = w.solve(state);
        w.flush()?;
        r
    }

    /// The cells of `cells` (empty on the board `filled`) worth trying for
    /// `side`: those left after dropping each vulnerable cell one of whose
    /// killers is either outside `cells` (a move that loses, so the
    /// vulnerable cell loses too) or in `cells` and not vulnerable itself
    /// (so it stays, and no chain of killers prunes every cell).
    pub(super) fn prune(&self, filled: [u64; 2], cells: u64, side: usize) -> u64 {
        let mut killers = [0u64; 64];
        let mut vulnerable = 0u64;
        let mut rest = cells;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let k = self.inferior.killers(c, filled, side);
            if k != 0 {
                killers[c] = k;
                vulnerable |= 1 << c;
            }
        }
        let mut out = cells;
        let mut rest = vulnerable;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if killers[c] & !vulnerable != 0 {
                out &= !(1 << c);
            }
        }
        out
    }

    /// Help another thread solve `state`: solve its children one by one,
    /// taking them from the end of its list of moves (the searching thread
    /// tends to begin at the front) through the shared `cursor`, each into
    /// the shared table, until `finished` is set, the children run out or
    /// the budget does. Returns whether there was a child to take.
    pub(super) fn help(&self, state: State, finished: &AtomicBool, cursor: &AtomicUsize) -> bool {
        let mut w = Worker::new(self);
        w.cancel = Some(finished);
        let (st, _) = w.canonical(state);
        let Look::Moves { filled, cells, swap } = w.look_pruned(&st, true) else {
            return false;
        };
        let steps = w.steps(cells, swap);
        let mut took = false;
        loop {
            let k = cursor.fetch_add(1, Ordering::Relaxed);
            if k >= steps.len() || finished.load(Ordering::Relaxed) {
                break;
            }
            took = true;
            let child = w.child(&st, filled, steps[steps.len() - 1 - k]);
            if w.solve(child).is_err() {
                break;
            }
        }
        // Count what was searched in the budget; a stop is the owner's to report.
        let _ = w.flush();
        took
    }

    /// The board of `st` after fill-in (none while the swap is to come).
    pub(super) fn fill(&self, st: &State) -> [u64; 2] {
        let live = self.swap && !st.swapped && (st.stones[0] | st.stones[1]).count_ones() <= 1;
        if live {
            st.stones
        } else {
            self.inferior.fill(&self.geometry, st.stones)
        }
    }

    /// A worker whose searches also stop (as out of budget) soon after
    /// `stop` is set or once `deadline` passes: its caller's own limits, on
    /// top of the budget shared by every search of this solver.
    pub(super) fn worker_within<'a>(&'a self, stop: Option<&'a AtomicBool>, deadline: Option<Instant>) -> Worker<'a> {
        let mut w = Worker::new(self);
        w.cancel = stop;
        w.deadline = deadline;
        w
    }
}

/// One thread's search.
pub(super) struct Worker<'a> {
    solver: &'a Solver,
    hsearch: HSearch,
    /// Cells in order of distance from the centre.
    centre_first: Vec<u32>,
    /// Positions this worker searched, and those not yet counted in the budget.
    nodes: u64,
    unflushed: u64,
    /// Set by another thread when this worker's search is no longer wanted.
    cancel: Option<&'a AtomicBool>,
    /// This worker's own deadline, besides the solver's.
    deadline: Option<Instant>,
}

impl<'a> Worker<'a> {
    fn new(solver: &'a Solver) -> Worker<'a> {
        let n = solver.geometry.n;
        let centre = (f64::from(n) - 1.0) / 2.0;
        let dist = |i: u32| {
            let (f, r) = (f64::from(i % n) - centre, f64::from(i / n) - centre);
            (f.abs() + r.abs() + (f + r).abs()) / 2.0
        };
        let mut centre_first: Vec<u32> = (0..n * n).collect();
        centre_first.sort_by(|&a, &b| dist(a).total_cmp(&dist(b)).then(a.cmp(&b)));
        Worker {
            solver,
            hsearch: HSearch::new(),
            centre_first,
            nodes: 0,
            unflushed: 0,
            cancel: None,
            deadline: None,
        }
    }

    fn count(&mut self) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= BUDGET_STEP {
            self.flush()?;
        }
        // The worker's own limits, at every position (one costs a
        // millisecond or so on 6×6: the shared budget's step is far longer).
        if self.limited() {
            return Err(OutOfBudget);
        }
        Ok(())
    }

    /// Whether this worker's own stop is set or its deadline passed.
    fn limited(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn flush(&mut self) -> Result<(), OutOfBudget> {
        let s = self.solver;
        let total = s.searched.fetch_add(self.unflushed, Ordering::Relaxed) + self.unflushed;
        self.unflushed = 0;
        let late = s
            .deadline
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some_and(|d| Instant::now() >= d);
        if late || total > s.max_searched.load(Ordering::Relaxed) {
            s.stopped.store(true, Ordering::Relaxed);
        }
        if s.stopped.load(Ordering::Relaxed) || self.limited() {
            return Err(OutOfBudget);
        }
        Ok(())
    }

    /// Whether the side to move wins `state`.
    pub fn solve(&mut self, state: State) -> Result<bool, OutOfBudget> {
        loop {
            let (pn, dn) = self.mid(state, INF, INF)?;
            if pn == 0 {
                return Ok(true);
            }
            if dn == 0 {
                return Ok(false);
            }
        }
    }

    fn swap_live(&self, st: &State) -> bool {
        self.solver.swap && !st.swapped && (st.stones[0] | st.stones[1]).count_ones() <= 1
    }

    /// The position turned to its canonical orientation, and its key.
    fn canonical(&self, st: State) -> (State, Key) {
        let g = &self.solver.geometry;
        let rotated = [g.rotate(st.stones[0]), g.rotate(st.stones[1])];
        let stones = st.stones.min(rotated);
        let st = State { stones, ..st };
        let flags = st.side as u64 | u64::from(self.swap_live(&st)) << 1 | 4;
        let key = Key {
            red: stones[0],
            blue: stones[1],
            flags,
        };
        (st, key)
    }

    /// Steps 1 to 5 of the module's description.
    pub fn look(&mut self, st: &State) -> Look {
        self.look_at(st, true)
    }

    /// [`Self::look`], with step 3 left out unless `own_semi`. Right after
    /// the opponent's move in their must-play region, the side to move
    /// seldom has a semi connection H-search would find (each it found
    /// before the move had that cell in its carrier), so a new child skips
    /// it: if there is one, its key cell joins them next, which the look
    /// one level down sees as a full connection.
    fn look_at(&mut self, st: &State, own_semi: bool) -> Look {
        let s = self.solver;
        let g = &s.geometry;
        let side = st.side;
        if g.connects(st.stones[1 - side], 1 - side) {
            return Look::Lost;
        }
        if g.connects(st.stones[side], side) {
            return Look::Won;
        }
        let placed = (st.stones[0] | st.stones[1]).count_ones();
        let swap_live = self.swap_live(st);
        if swap_live && placed == 0 {
            return Look::Moves {
                filled: st.stones,
                cells: g.full,
                swap: false,
            };
        }
        let swap_pending = swap_live && st.stones[side] == 0;
        let filled = if swap_live {
            st.stones
        } else {
            s.inferior.fill(g, st.stones)
        };
        let (mine, theirs) = (filled[side], filled[1 - side]);
        if g.connects(theirs, 1 - side) {
            return Look::Lost;
        }
        if g.connects(mine, side) {
            return Look::Won;
        }
        if own_semi && self.hsearch.edges(g, mine, theirs, side, true).semi {
            return Look::Won;
        }
        let link = self.hsearch.edges(g, theirs, mine, 1 - side, false);
        let cells = if link.full {
            0
        } else {
            link.must_play & g.full & !(mine | theirs)
        };
        if cells == 0 && !swap_pending {
            return Look::Lost;
        }
        Look::Moves {
            filled,
            cells,
            swap: swap_pending,
        }
    }

    /// [`Self::look`], with the vulnerable cells pruned from the moves
    /// ([`Solver::prune`]; not on the empty board while the swap is to
    /// come, where a stone may yet change sides).
    fn look_pruned(&mut self, st: &State, own_semi: bool) -> Look {
        match self.look_at(st, own_semi) {
            Look::Moves { filled, cells, swap } if (st.stones[0] | st.stones[1]) != 0 => {
                let cells = self.solver.prune(filled, cells, st.side);
                if cells == 0 && !swap {
                    Look::Lost
                } else {
                    Look::Moves { filled, cells, swap }
                }
            }
            other => other,
        }
    }

    /// The position after `step` from the board `filled` of `st`.
    pub fn child(&self, st: &State, filled: [u64; 2], step: Step) -> State {
        let side = st.side;
        match step {
            Step::Cell(c) => {
                let mut stones = filled;
                stones[side] |= 1 << c;
                State {
                    stones,
                    side: 1 - side,
                    swapped: st.swapped,
                }
            }
            Step::Swap => {
                let g = &self.solver.geometry;
                let mut stones = [0u64; 2];
                stones[side] = 1 << g.transpose(filled[1 - side].trailing_zeros());
                State {
                    stones,
                    side: 1 - side,
                    swapped: true,
                }
            }
        }
    }

    /// The moves of a look, the swap first, then cells from the centre out.
    pub fn steps(&self, cells: u64, swap: bool) -> Vec<Step> {
        let mut out = Vec::with_capacity(cells.count_ones() as usize + 1);
        if swap {
            out.push(Step::Swap);
        }
        out.extend(
            self.centre_first
                .iter()
                .filter(|&&c| cells >> c & 1 == 1)
                .map(|&c| Step::Cell(c)),
        );
        out
    }

    /// The multiple-iterative-deepening step: search `st` until its proof
    /// number reaches `thpn` or its disproof number `thdn`.
    fn mid(&mut self, st: State, thpn: u64, thdn: u64) -> Result<(u64, u64), OutOfBudget> {
        self.count()?;
        let (st, key) = self.canonical(st);
        let before = self.nodes;
        let (filled, cells, swap) = match self.solver.table.get(&key) {
            Some(e) if e.pn == 0 || e.dn == 0 => return Ok((e.pn, e.dn)),
            Some(e) if e.looked => (e.filled, e.cells, e.swap),
            _ => match self.look_pruned(&st, true) {
                Look::Moves { filled, cells, swap } => (filled, cells, swap),
                end => {
                    let (pn, dn) = if matches!(end, Look::Won) { (0, INF) } else { (INF, 0) };
                    self.solver.table.put(Entry {
                        key,
                        pn,
                        dn,
                        work: 1,
                        ..Entry::default()
                    });
                    return Ok((pn, dn));
                }
            },
        };
        let states: Vec<State> = self
            .steps(cells, swap)
            .into_iter()
            .map(|step| self.child(&st, filled, step))
            .collect();
        let keys: Vec<Key> = states.iter().map(|&c| self.canonical(c).1).collect();
        // Look at each new child now: those decided by a connection are
        // known at once, and the others start with a disproof number of
        // their count of moves (more moves, harder to refute).
        for (child, key) in states.iter().zip(&keys) {
            if self.solver.table.get(key).is_none() {
                let (c, _) = self.canonical(*child);
                let entry = match self.look_pruned(&c, false) {
                    Look::Won => Entry {
                        key: *key,
                        pn: 0,
                        dn: INF,
                        work: 1,
                        ..Entry::default()
                    },
                    Look::Lost => Entry {
                        key: *key,
                        pn: INF,
                        dn: 0,
                        work: 1,
                        ..Entry::default()
                    },
                    Look::Moves { filled, cells, swap } => Entry {
                        key: *key,
                        pn: 1,
                        dn: u64::from(cells.count_ones() + u32::from(swap)),
                        filled,
                        cells,
                        swap,
                        looked: true,
                        work: 1,
                    },
                };
                self.solver.table.put(entry);
            }
        }
        // The children's numbers as last seen, for when the table has let them go.
        let mut seen: Vec<(u64, u64)> = vec![(1, 1); keys.len()];
        let (mut pn, mut dn);
        loop {
            pn = INF;
            dn = 0u64;
            let (mut best, mut best_pn, mut dn2) = (0, 0, INF);
            for (i, k) in keys.iter().enumerate() {
                if let Some(e) = self.solver.table.get(k) {
                    seen[i] = (e.pn, e.dn);
                }
                let (cpn, cdn) = seen[i];
                dn = dn.saturating_add(cpn);
                if cdn < pn {
                    dn2 = pn;
                    pn = cdn;
                    best = i;
                    best_pn = cpn;
                } else if cdn < dn2 {
                    dn2 = cdn;
                }
            }
            if pn == 0 {
                dn = INF;
            } else {
                dn = dn.min(INF - 1);
                if dn == 0 {
                    pn = INF;
                }
            }
            if pn >= thpn || dn >= thdn {
                break;
            }
            let child_thpn = thdn - dn + best_pn;
            let child_thdn = thpn.min(dn2.saturating_add(1).max(dn2.saturating_add(dn2 / 4)));
            seen[best] = self.mid(states[best], child_thpn, child_thdn)?;
        }
        self.solver.table.put(Entry {
            key,
            pn,
            dn,
            filled,
            cells,
            swap,
            looked: true,
            work: (self.nodes - before).max(1),
        });
        Ok((pn, dn))
    }
}
