//! Every game's rules in a few lines for the page: how the pieces move, how
//! a game is won, and what a box and a bead are.

use serde_json::{json, Value as Json};

use crate::registry::AnyGame;

/// What a box and a bead are, the same for every game.
const MACHINE: &str = "The machine keeps one matchbox for each position it may face. A box holds beads of one colour for each move it may make there. To move, it draws a bead at random and plays that colour's move. After the game the beads it drew are punished (taken away) for a loss and rewarded (added) for a win or a draw, so good moves get likelier.";

/// The rules of `game` as a title and a few short paragraphs.
pub fn rules(game: &AnyGame) -> Json {
    let spec = game.spec();
    let (title, lines): (&str, Vec<String>) = match game {
        AnyGame::Hexapawn(_) => {
            let pawn = if spec.contains("berolina-plus") {
                "A Berolina Plus pawn steps one square diagonally forward onto an empty square, captures one square straight forward, and may also capture one square sideways."
            } else if spec.contains("berolina") {
                "A Berolina pawn steps one square diagonally forward onto an empty square and captures one square straight forward."
            } else {
                "A pawn moves one square straight forward onto an empty square, or captures an enemy pawn one square diagonally forward. No double step, no en passant."
            };
            (
                "Hexapawn",
                vec![
                    "White's pawns start on the bottom rank, Black's on the top rank. White moves first.".into(),
                    pawn.into(),
                    "You win by moving a pawn onto the far rank, or when the other side cannot move on its turn (no pawns left counts). There are no draws.".into(),
                ],
            )
        }
        AnyGame::TicTacToe(_) => (
            "Noughts and crosses",
            vec![
                "X moves first; the players take turns to put their mark in an empty cell.".into(),
                "Three in a row, across, down or diagonally, wins. A full board without a row is a draw.".into(),
            ],
        ),
        AnyGame::Hex(_) => {
            let mut lines = vec![
                "Players take turns to put one stone of their colour on any empty cell.".into(),
                "Red wins by joining the left and right edges with a chain of touching red stones; Blue wins by joining the top and bottom edges. Corner cells belong to both edges. There is never a draw.".into(),
            ];
            if !spec.contains("swap=off") {
                lines.push("The swap: on the second player's first turn only, they may take the opening stone instead of placing one (it becomes theirs, mirrored across the long diagonal), and the first player moves again.".into());
            }
            lines.push("Who places first is decided by the game's seed.".into());
            ("Hex", lines)
        }
        AnyGame::Chessapawn(_) => (
            "Chessapawn",
            vec![
                "The chess pieces in their usual places, but every piece is also a pawn: nothing ever moves backward, and a piece moves sideways only to capture. White moves first.".into(),
                "Pawn: as in chess, one forward (two from its first rank), capturing one diagonally forward; en passant by any piece that could capture onto the square passed over. Knight: the four forward knight leaps, or as a pawn. Bishop: slides diagonally forward, or steps one straight forward. Rook: slides straight forward, captures one diagonally forward, slides sideways only to capture. Queen: bishop and rook together. King: one step straight or diagonally forward, or captures beside it; no check.".into(),
                "You win when the other side cannot move, or by reaching the far rank where no enemy can capture the piece at once (if it can be captured but still stands there on your next turn, you win then). There are no draws.".into(),
            ],
        ),
        AnyGame::MiniHexchess(_) => (
            "Mini Hexchess",
            vec![
                "37 hexagonal cells; each side has a king, a rook, a bishop, a knight and five pawns. White moves first.".into(),
                "The rook slides through cell edges (6 directions), the bishop through cell corners (6 diagonal directions), the king steps one cell in any of those 12 directions, the knight leaps one straight step then one diagonal step onward. A pawn moves one cell straight forward and captures to the two forward diagonal cells; on the far edge it becomes a rook, bishop or knight.".into(),
                "Checkmate wins. Stalemate, threefold repetition, 100 plies without a capture or pawn move, and bare kings are draws.".into(),
            ],
        ),
    };
    json!({"title": title, "rules": lines, "machine": MACHINE})
}
