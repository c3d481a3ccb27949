//! Why a machine's whole learning life cannot be computed exactly.

/// Why a machine's life cannot be computed exactly.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LifeError {
    /// The scheme adds beads (or refills a box): the machines it can become
    /// are not a finite graph that only goes down.
    #[error("under {0} a machine can gain beads, so the machines it can become are not finite; exact learning is for schemes that only take beads away (Gardner's rule)")]
    AddsBeads(String),
    /// More machines than the state budget.
    #[error("more than {0} distinct machines (bead counts) reachable: over the state budget")]
    States(usize),
    /// More game-tree nodes than the node budget.
    #[error("more than {0} game-tree nodes walked: over the node budget")]
    Nodes(u64),
    /// The machine plays positions it has no box for; the game is too large to make every box.
    #[error("the machine's boxes cannot all be made up front: {0}")]
    Boxes(String),
    /// The opponent's moves cannot be known exactly here.
    #[error("{0}")]
    Opponent(String),
}
