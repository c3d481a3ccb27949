//! Every game draws itself consistently: cells named as the game names
//! them, pieces on cells of the board, moves joining cells where a piece of
//! the mover stands; and the SVG drawings hold what they should.

use menace::prelude::*;
use std::collections::HashSet;

use menace::picture::{Look, Picture};
use menace::web::svg::{
    board_svg, box_colours, box_svg, escape, game_move, BeadColour, BeadMark, Options, BEAD_COLOURS,
};
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
            colour: BeadColour::Named(c as u8),
            drawn: c == 1,
        })
        .collect();
    let svg = box_svg(&game, &pos, &marks, 30.0);
    assert_eq!(svg.matches("class=\"drawn\"").count(), 1);
    // The colour with no beads left is dashed.
    assert_eq!(svg.matches("stroke-dasharray").count(), 1);
    assert!(svg.contains(BEAD_COLOURS[0].1) && svg.contains(BEAD_COLOURS[1].1));
}

#[test]
fn colours_names_and_move_numbers() {
    assert_eq!(BeadColour::Named(0).name(), "red");
    assert_eq!(BeadColour::Named(0).css(), "#e6194b");
    assert_eq!(BeadColour::Numbered(12).name(), "no. 12");
    assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    // HER (Black) meets her boxes at moves 2, 4 and 6; MENACE (X) at 1, 3, 5, 7.
    assert_eq!([1, 2, 3].map(|k| game_move(Player::Two, k)), [2, 4, 6]);
    assert_eq!([1, 2, 3, 4].map(|k| game_move(Player::One, k)), [1, 3, 5, 7]);
}

/// CIEDE2000 colour difference (Sharma, Wu and Dalal, "The CIEDE2000
/// color-difference formula: implementation notes", 2005), written here
/// from the paper, of two CIELAB colours.
fn ciede2000((l1, a1, b1): (f64, f64, f64), (l2, a2, b2): (f64, f64, f64)) -> f64 {
    let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |b: f64, a: f64| {
        if b == 0.0 && a == 0.0 {
            0.0
        } else {
            b.atan2(a).to_degrees().rem_euclid(360.0)
        }
    };
    let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
    let dl = l2 - l1;
    let dc = c2p - c1p;
    let dh = if c1p * c2p == 0.0 {
        0.0
    } else if (h2p - h1p).abs() <= 180.0 {
        h2p - h1p
    } else if h2p - h1p > 180.0 {
        h2p - h1p - 360.0
    } else {
        h2p - h1p + 360.0
    };
    let d_big_h = 2.0 * (c1p * c2p).sqrt() * (dh / 2.0).to_radians().sin();
    let l_bar = (l1 + l2) / 2.0;
    let cp_bar = (c1p + c2p) / 2.0;
    let hp_bar = if c1p * c2p == 0.0 {
        h1p + h2p
    } else if (h1p - h2p).abs() <= 180.0 {
        (h1p + h2p) / 2.0
    } else if h1p + h2p < 360.0 {
        (h1p + h2p + 360.0) / 2.0
    } else {
        (h1p + h2p - 360.0) / 2.0
    };
    let cos = |deg: f64| deg.to_radians().cos();
    let t = 1.0 - 0.17 * cos(hp_bar - 30.0) + 0.24 * cos(2.0 * hp_bar) + 0.32 * cos(3.0 * hp_bar + 6.0)
        - 0.20 * cos(4.0 * hp_bar - 63.0);
    let d_theta = 30.0 * (-((hp_bar - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (cp_bar.powi(7) / (cp_bar.powi(7) + 25f64.powi(7))).sqrt();
    let s_l = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
    let s_c = 1.0 + 0.045 * cp_bar;
    let s_h = 1.0 + 0.015 * cp_bar * t;
    let r_t = -(2.0 * d_theta).to_radians().sin() * r_c;
    ((dl / s_l).powi(2) + (dc / s_c).powi(2) + (d_big_h / s_h).powi(2) + r_t * (dc / s_c) * (d_big_h / s_h)).sqrt()
}

/// An sRGB colour `#rrggbb` in CIELAB (D65 white).
fn lab(css: &str) -> (f64, f64, f64) {
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&css[i..i + 2], 16).unwrap()) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let (r, g, b) = (channel(1), channel(3), channel(5));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > (6.0f64 / 29.0).powi(3) {
            t.cbrt()
        } else {
            t / (3.0 * (6.0f64 / 29.0).powi(2)) + 4.0 / 29.0
        }
    };
    (116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z)))
}

/// The bead colours are few enough and far enough apart to tell across a
/// room. The threshold, ΔE00 ≥ 20, is ten times a just-noticeable
/// difference (about 2), room for a projector's washed-out contrast; the
/// old twelve-colour list failed it (cyan and teal were 13.6 apart).
#[test]
fn bead_colours_are_told_apart_at_a_distance() {
    // The formula against the paper's own test pairs (its Table 1).
    let pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
        ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
        ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
    ];
    for (a, b, want) in pairs {
        assert!(
            (ciede2000(a, b) - want).abs() < 1e-4,
            "{a:?} {b:?}: {} not {want}",
            ciede2000(a, b)
        );
        assert!((ciede2000(b, a) - want).abs() < 1e-4);
    }
    assert!(
        BEAD_COLOURS.len() <= 10,
        "about as many colours as a person tells apart at a distance"
    );
    for (i, (n1, c1)) in BEAD_COLOURS.iter().enumerate() {
        for (n2, c2) in &BEAD_COLOURS[i + 1..] {
            let d = ciede2000(lab(c1), lab(c2));
            assert!(d >= 20.0, "{n1} {c1} and {n2} {c2} are only {d:.1} apart");
            assert_ne!(n1, n2);
        }
    }
}

#[test]
fn boxes_take_colours_in_turn_by_cell_or_by_number() {
    // After White's b2, Black's four moves (a2, c2, axb2, cxb2) take the first four colours.
    let hexapawn = menace::Hexapawn::new(3, 3).unwrap();
    let pos = hexapawn.try_play(&hexapawn.start(), "b2").unwrap();
    let moves = hexapawn.moves(&pos);
    let names: Vec<String> = box_colours(&hexapawn, &pos, &moves).iter().map(|c| c.name()).collect();
    assert_eq!(names, ["red", "blue", "green", "orange"]);
    // Noughts and crosses: a colour is a cell, whatever the box (Michie's nine colours).
    let ttt = menace::TicTacToe;
    let start = ttt.start();
    let all = box_colours(&ttt, &start, &ttt.moves(&start));
    assert_eq!(all, (0..9).map(BeadColour::Named).collect::<Vec<_>>());
    let after = ttt.try_play(&ttt.try_play(&start, "a1").unwrap(), "b2").unwrap();
    let left: Vec<String> = ttt.moves(&after).iter().map(|&m| ttt.move_name(&after, m)).collect();
    let colours = box_colours(&ttt, &after, &ttt.moves(&after));
    let cells = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    for (name, c) in left.iter().zip(&colours) {
        let cell = cells.iter().position(|x| x == name).unwrap();
        assert_eq!(*c, BeadColour::Named(cell as u8), "{name}");
    }
    // Hex 4×4's first box has 16 moves: more than the colours, so numbered 1 to 16.
    let hex = menace::Hex::new(4, false, None).unwrap();
    let start = hex.start();
    let moves = hex.moves(&start);
    assert!(moves.len() > BEAD_COLOURS.len());
    let numbered = box_colours(&hex, &start, &moves);
    assert_eq!(
        numbered,
        (1..=moves.len() as u16).map(BeadColour::Numbered).collect::<Vec<_>>()
    );
}
