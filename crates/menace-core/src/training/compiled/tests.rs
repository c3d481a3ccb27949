//! The table's invariants: children numbered before parents, and a
//! perfect opponent solved only when asked.

use crate::game::{Game, Outcome, Player, Rules};
use crate::games::hexapawn::Hexapawn;
use crate::games::tictactoe::TicTacToe;
use crate::machine::settings::MachineSettings;
use crate::machine::Machine;
use crate::training::opponent::{Opponent, PerfectPlayer};

use super::table::Table;

/// Every child's id is below its parent's, and the parents listed are
/// exactly the positions listing the child: incremental evaluation relies on both.
fn children_come_first<G: Game>(game: G) {
    let machine = Machine::new(game, Player::One, MachineSettings::gardner()).unwrap();
    let table = Table::build(&machine, &Opponent::Random).expect("small enough to compile");
    let n = table.node.len() as u32;
    let mut edges = Vec::new();
    for i in 0..n {
        for &c in table.children.get(i) {
            assert!(c < i, "child {c} not before its parent {i}");
            edges.push((c, i));
        }
    }
    let parents = table.parents();
    let mut back: Vec<(u32, u32)> = (0..n)
        .flat_map(|c| parents.get(c).iter().map(move |&p| (c, p)))
        .collect();
    edges.sort_unstable();
    back.sort_unstable();
    assert_eq!(edges, back);
}

/// Against perfect play the table comes first and the game is not
/// solved up front; asked later, the perfect player gives the best moves
/// of one that solved the whole game first, in every reachable position.
#[test]
fn against_perfect_solves_only_when_asked() {
    let game = Hexapawn::new(4, 4).unwrap();
    let machine = Machine::new(game.clone(), Player::One, MachineSettings::gardner()).unwrap();
    let (mut opponent, table) = Table::against_perfect(&machine, 1.0).expect("4×4 compiles");
    let Opponent::Perfect { player, .. } = &mut opponent else {
        panic!("a perfect opponent");
    };
    assert!(player.is_exhaustive());
    assert_eq!(player.solved_positions(), 0);
    let mut whole = PerfectPlayer::new(game.clone()).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![game.start()];
    while let Some(pos) = todo.pop() {
        if !seen.insert(pos) || game.outcome(&pos) != Outcome::Ongoing {
            continue;
        }
        assert_eq!(player.best_moves(&pos), whole.best_moves(&pos), "{pos:?}");
        todo.extend(game.moves(&pos).into_iter().map(|mv| game.play(&pos, mv)));
    }
    assert!(player.solved_positions() > 0);
    assert!(player.solved_positions() <= table.positions());
    // Where the position solver plays (an estimate over the limit), no table.
    let large = Machine::new(Hexapawn::new(6, 6).unwrap(), Player::One, MachineSettings::gardner()).unwrap();
    assert!(Table::against_perfect(&large, 1.0).is_none());
}

#[test]
fn ids_put_children_before_parents() {
    children_come_first(TicTacToe);
    // Boards where captures let one position be reached in different numbers of plies.
    for (w, h) in [(3, 3), (4, 4), (3, 5), (4, 3), (3, 6)] {
        children_come_first(Hexapawn::new(w, h).unwrap());
    }
}
