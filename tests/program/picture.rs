//! Every game draws itself consistently: cells named as the game names
//! them, pieces on cells of the board, moves joining cells where a piece of
//! the mover stands; and the SVG drawings hold what they should.

use menace::prelude::*;
use std::collections::HashSet;

use menace::picture::{Look, Picture};
use menace::web::svg::{bead_colour, board_svg, box_svg, escape, game_move, BeadMark, Options};
use menace::{parse_spec, with_game, AnyGame, Game, Player};
use rand::{Rng, SeedableRng};

fn check<G: Picture>(game: &G) {
    let board = game.board();
    assert!(!board.cells.is_empty(), "{}", game.spec());
    let names: HashSet<&str> = board.cells.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), board.cells.len(), "{}: cell names are unique", game.spec());
    // Neighbouring cells are 1 apart: no two cells closer than that.
    for (i, a) in board.cells.iter().enumerate() {
        for b in &board.cells[i + 1..] {
            let d = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
            assert!(d > 0.99, "{}: {} and {} overlap", game.spec(), a.name, b.name);
        }
    }
    // Random games: every move's cells are on the board, a piece of the mover stands
    // where it comes from, and the game's own notation of a placement names its cell.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for _ in 0..20 {
        let mut pos = game.start();
        for _ in 0..60 {
            let pieces = game.pieces(&pos);
            let mut seen = HashSet::new();
            for p in &pieces {
                assert!(p.cell < board.cells.len());
                assert!(seen.insert(p.cell), "{}: two pieces on one cell", game.spec());
            }
            let moves = game.moves(&pos);
            if moves.is_empty() {
                break;
            }
            let mover = game.turn(&pos);
            for &mv in &moves {
                let cells = game.move_cells(&pos, mv);
                if let Some(from) = cells.from {
                    assert!(
                        pieces.iter().any(|p| p.cell == from && p.owner == mover),
                        "{}: {} comes from a cell without a piece of the mover",
                        game.spec(),
                        game.move_name(&pos, mv)
                    );
                    assert!(cells.to.is_some());
                }
                if let Some(to) = cells.to {
                    let name = &board.cells[to].name;
                    if cells.from.is_none() {
                        assert_eq!(&game.move_name(&pos, mv), name, "{}", game.spec());
                    } else {
                        assert!(
                            game.move_name(&pos, mv).contains(name.as_str()),
                            "{}: {} does not name {name}",
                            game.spec(),
                            game.move_name(&pos, mv)
                        );
                    }
                }
            }
            pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
        }
    }
}

#[test]
fn every_game_draws_itself_consistently() {
    for spec in AnyGame::examples()
        .into_iter()
        .chain(["hexapawn:4x5", "chessapawn", "minihexchess", "hex:5"])
    {
        let any = parse_spec(spec).unwrap();
        with_game!(any, g => check(&g));
    }
}

#[test]
fn hexapawn_is_drawn_as_gardner_drew_it() {
    let game = menace::Hexapawn::new(3, 3).unwrap();
    let board = game.board();
    // a1 at the bottom left, c3 at the top right.
    assert_eq!(
        (board.cells[0].name.as_str(), board.cells[0].x, board.cells[0].y),
        ("a1", 0.0, 2.0)
    );
    assert_eq!(
        (board.cells[8].name.as_str(), board.cells[8].x, board.cells[8].y),
        ("c3", 2.0, 0.0)
    );
    let pieces = game.pieces(&game.start());
    assert_eq!(pieces.len(), 6);
    assert!(pieces.iter().all(|p| p.look == Look::Pawn));
    assert_eq!(pieces.iter().filter(|p| p.owner == Player::One).count(), 3);

    let pos = game.try_play(&game.start(), "b2").unwrap();
    let svg = board_svg(
        &game,
        &pos,
        &Options {
            unit: 40.0,
            interactive: true,
            names: true,
            ..Options::default()
        },
    );
    assert_eq!(svg.matches("class=\"cell\"").count(), 9);
    assert!(svg.contains("data-name=\"b2\""));
    let moves = game.moves(&pos);
    let marks: Vec<_> = moves
        .iter()
        .enumerate()
        .map(|(c, &mv)| BeadMark {
            mv,
            beads: c as u32,
            colour: c,
            drawn: c == 1,
        })
        .collect();
    let svg = box_svg(&game, &pos, &marks, 30.0);
    assert_eq!(svg.matches("class=\"drawn\"").count(), 1);
    // The colour with no beads left is dashed.
    assert_eq!(svg.matches("stroke-dasharray").count(), 1);
    assert!(svg.contains(&bead_colour(0).1) && svg.contains(&bead_colour(1).1));
}

#[test]
fn colours_names_and_move_numbers() {
    let colour = |name: &str, css: &str| (name.to_string(), css.to_string());
    assert_eq!(bead_colour(0), colour("red", "#e6194b"));
    // The twelve again, 45% of the way to black, then half way to white (by
    // hand: 230·0.55 = 126.5 → 0x7f, 25·0.55 → 0x0e, 75·0.55 → 0x29; 230 + 25/2 → 0xf3, ...).
    assert_eq!(bead_colour(12), colour("dark red", "#7f0e29"));
    assert_eq!(bead_colour(24), colour("light red", "#f38ca5"));
    assert_eq!(bead_colour(36), colour("red 4", "#e6194b"));
    let names: std::collections::HashSet<String> = (0..60).map(|i| bead_colour(i).0).collect();
    assert_eq!(names.len(), 60, "no two colours of a box share a name");
    assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    // HER (Black) meets her boxes at moves 2, 4 and 6; MENACE (X) at 1, 3, 5, 7.
    assert_eq!([1, 2, 3].map(|k| game_move(Player::Two, k)), [2, 4, 6]);
    assert_eq!([1, 2, 3, 4].map(|k| game_move(Player::One, k)), [1, 3, 5, 7]);
}
