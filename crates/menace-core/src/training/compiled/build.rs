//! Building a compiled table for a machine and an opponent: explore the
//! game; number its positions children first while the machine's
//! positions are grouped by box key; list the children in the new ids;
//! then the perfect player's choices and the machine's boxes over them, at
//! the same time.

use hashbrown::HashTable;
use rustc_hash::FxHashMap;

use crate::game::{Game, Player};
use crate::machine::beads::Beads;
use crate::machine::{GameResult, Machine};
use crate::search::solver::{memory_bounded, Value};
use crate::training::exact::EXACT_LIMIT;
use crate::training::opponent::{Opponent, PerfectPlayer, PERFECT_LIMIT};

use super::classes::{Classes, Grouped};
use super::explore::{explore, Explored, PackedIds};
use super::lists;
use super::table::{Node, Table};

/// The most positions a compiled table holds; larger games take the general
/// path. The exact evaluation's limit: every game compiled can be evaluated
/// exactly on the general path too, so both give the same records.
pub const COMPILED_LIMIT: usize = EXACT_LIMIT;

/// A position's state for the machine playing `side`, and the solver's
/// score of it where the game is over (`i32::MIN` where not).
fn state<G: Game>(game: &G, side: Player, pos: &G::Position) -> (Node, i32) {
    let outcome = game.outcome(pos);
    match Value::of_outcome(game, pos, outcome) {
        Some(v) => (Node::Over(GameResult::for_player(outcome, side)), v.score()),
        None if game.turn(pos) == side => (Node::Machine, i32::MIN),
        None => (Node::Opponent, i32::MIN),
    }
}

impl<G: Game> Table<G> {
    /// The table for this machine and opponent, or `None` where the general
    /// path must play: a large or cyclic game, or an opponent other than
    /// random or perfect (from the whole game solved).
    pub(crate) fn build(machine: &Machine<G>, opponent: &Opponent<G>) -> Option<Table<G>> {
        match opponent {
            Opponent::Random => {}
            Opponent::Perfect { player, .. } if player.is_exhaustive() => {}
            _ => return None,
        }
        let game = machine.game();
        let limit = memory_bounded::<G::Position>(COMPILED_LIMIT);
        if game.exceeds(limit) {
            return None;
        }
        let side = machine.side();
        let starts = game.starts();
        // Each position's state (and the solver's score of those over)
        // and, where the machine moves, its box key, worked out as its
        // children are made.
        let Explored {
            mut found,
            states,
            keyed,
        } = explore(game, &starts, limit, |pos, id| {
            let state = state(game, side, pos);
            let key = (state.0 == Node::Machine).then(|| {
                let (key, sym) = machine.key(pos);
                (key, id, sym)
            });
            (state, key)
        })?;
        // The positions by value are not needed from here: their memory back before the tables are made.
        found.ids = HashTable::new();
        found.packed = PackedIds::new();
        found.over = FxHashMap::default();
        let n = found.positions.len();
        // The order children first, a walk on one core; at the same time,
        // on the others, the machine's positions grouped by box key, each
        // key's box found, which need no order.
        let (finished, grouped) = crate::par::join(
            || found.children_first(),
            || Grouped::new(machine, &found.positions, keyed),
        );
        found.finished = finished?;
        // Renumber in the order finished: children before parents.
        let mut new_id = vec![0u32; n];
        for (k, &old) in found.finished.iter().enumerate() {
            new_id[old as usize] = k as u32;
        }
        // The positions in the new ids, read in that order from here on.
        let by_old = std::mem::take(&mut found.positions);
        let positions: Vec<G::Position> = found.finished.iter().map(|&old| by_old[old as usize].clone()).collect();
        drop(by_old);
        let node: Vec<Node> = found.finished.iter().map(|&old| states[old as usize].0).collect();
        let over_score: Vec<i32> = found.finished.iter().map(|&old| states[old as usize].1).collect();
        drop(states);
        // The children, then the perfect player's choices and the machine's
        // boxes apart, at the same time.
        let children = lists::children(&found, &new_id);
        let roots = std::mem::take(&mut found.roots);
        drop(found);
        let (best, classes) = crate::par::join(
            || lists::best(&children, &node, over_score),
            || Classes::find(machine, grouped, &positions, &children, &new_id),
        );
        let classes = classes?;
        let start_id = |k: usize| new_id[roots[k] as usize];
        let start_ids = if starts.len() > 1 {
            (0..starts.len()).map(|k| (starts[k].0.clone(), start_id(k))).collect()
        } else {
            FxHashMap::default()
        };
        let starts = (0..starts.len()).map(|k| (start_id(k), starts[k].1)).collect();
        let settings = machine.settings();
        let most_colours = classes.colours.at.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let fresh = (0..=most_colours as usize)
            .map(|k| Beads::filled(settings.beads.beads(1), k))
            .collect();
        Some(Table {
            node,
            children,
            best,
            class_of: classes.class_of,
            colours: classes.colours,
            class_box: classes.class_box,
            class_position: classes.position,
            box_class: classes.box_class,
            fresh,
            starts,
            start_ids,
            exact: None,
        })
    }

    /// The table against a perfect opponent that plays with chance `p`,
    /// and that opponent, made without solving the game first: the table
    /// works out the perfect player's choices itself, so the whole-game
    /// solve [`PerfectPlayer::new`] would do (half a second on Hexapawn
    /// 5×5) is put off until a game is played another way. `None` where
    /// the perfect opponent would not be the exhaustive solver, or the game
    /// does not compile: then make it as usual.
    ///
    /// The solve cannot run out once put off: it stores the canonical
    /// positions not over reachable from the start, no more than the
    /// table's positions, which are bounded by [`COMPILED_LIMIT`], below the
    /// solve's [`PERFECT_LIMIT`].
    pub(crate) fn against_perfect(machine: &Machine<G>, p: f64) -> Option<(Opponent<G>, Table<G>)> {
        const { assert!(COMPILED_LIMIT <= PERFECT_LIMIT) };
        let game = machine.game();
        // As `PerfectPlayer::new` decides: the position solver where the estimate says so.
        if game.expects_to_exceed(PERFECT_LIMIT) || game.exceeds(PERFECT_LIMIT) {
            return None;
        }
        let opponent = Opponent::Perfect {
            p,
            player: Box::new(PerfectPlayer::solved_when_asked(game.clone())),
        };
        let table = Table::build(machine, &opponent)?;
        Some((opponent, table))
    }
}
