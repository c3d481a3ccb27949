//! The compiled fast path: every position reachable from the start gets a
//! compact id, and a game becomes walks through flat tables.
//!
//! A `Table` is built for one machine and one opponent (the trainer
//! builds another when either changes), for a game of at most
//! [`COMPILED_LIMIT`] positions without cycles (Hexapawn 5×5, 1 936 645
//! positions, fits), and a random or perfect opponent. It holds, per
//! position: whether the game is over and for whom, whether the machine
//! moves, the children in legal-move order, the perfect player's best
//! children, and, where the machine moves with a box, the box's class (its
//! key) and the child each bead colour leads to. A game then costs one bead
//! draw or one random index a ply and no hashing, position building or
//! allocation. Ids are numbered children before parents: a child's id is
//! below every parent's.
//!
//! Boxes opened on first visit are opened here too, when a game first
//! reaches their class, at the same moment and with the same move number
//! as on the general path, so the machine's boxes come in the same order.
//!
//! The random stream is spent exactly as on the general path (the same
//! draws, of the same types, in the same order), so a seed gives the same
//! games, the same beads and the same records on both: `tests/library/compiled.rs`
//! checks this over many seeds, settings and games.
//!
//! Exact evaluation is incremental: the values of every position against
//! random and perfect play are kept (with each position's parents and each
//! class's positions, listed at the first update: a run that evaluates
//! once never needs them), and afterwards only the positions of
//! the boxes drawn from since are worked out again, then their parents
//! where a value changed, in the same order of additions as
//! [`crate::training::exact::expected`], so the results agree to the last
//! bit. The perfect player's choices come from the table itself (values
//! with distance, worked out children first, by the rule of
//! [`crate::search::solver::Solver`]).
//!
//! The files: `explore` finds the positions, `build` numbers them and
//! makes the table (`lists` for the moves, `classes` for the boxes, over
//! `flat` lists), `table` is what it holds, `play` plays a game on it and
//! `exact` evaluates the machine on it.

mod build;
mod classes;
mod exact;
mod explore;
mod flat;
mod lists;
mod play;
mod table;

pub use build::COMPILED_LIMIT;
pub(crate) use table::Table;

#[cfg(test)]
mod tests;
