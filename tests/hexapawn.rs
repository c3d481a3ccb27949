//! Hexapawn: the shared rule suite on several boards, and its own known facts.

mod common;

use menace::games::hexapawn::{HexapawnMove, HexapawnPosition};
use menace::machine::boxes::{counts_by_move, enumerate, BoxSet};
use menace::prelude::*;
use menace::symmetry::Mirror;
use menace::{parse_spec, Game, Hexapawn, Outcome, Player};

fn board(w: u8, h: u8) -> Hexapawn {
    Hexapawn::new(w, h).unwrap()
}

#[test]
fn shared_rules_on_many_boards() {
    for (w, h) in [(3, 3), (4, 4), (3, 4), (2, 3), (1, 3), (5, 3), (8, 8), (16, 4), (4, 16)] {
        common::rules::check_game(&board(w, h), 20_000, 200);
    }
}

/// A deliberately simple move generator on a 2-D grid, to cross-check the bitboards.
fn simple_moves(game: &Hexapawn, pos: &HexapawnPosition) -> Vec<(u8, u8)> {
    let (w, h) = (i32::from(game.width()), i32::from(game.height()));
    let at = |f: i32, r: i32| -> char {
        let bit = 1u64 << (r * w + f);
        if pos.white & bit != 0 {
            'W'
        } else if pos.black & bit != 0 {
            'B'
        } else {
            '.'
        }
    };
    // The game is over when someone stands on the far rank.
    for f in 0..w {
        if at(f, h - 1) == 'W' || at(f, 0) == 'B' {
            return vec![];
        }
    }
    let (me, them, dir) = if pos.turn == Player::One {
        ('W', 'B', 1)
    } else {
        ('B', 'W', -1)
    };
    let mut out = vec![];
    for r in 0..h {
        for f in 0..w {
            if at(f, r) != me {
                continue;
            }
            let r2 = r + dir;
            if !(0..h).contains(&r2) {
                continue;
            }
            if at(f, r2) == '.' {
                out.push(((r * w + f) as u8, (r2 * w + f) as u8));
            }
            for f2 in [f - 1, f + 1] {
                if (0..w).contains(&f2) && at(f2, r2) == them {
                    out.push(((r * w + f) as u8, (r2 * w + f2) as u8));
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn bitboard_moves_match_a_simple_generator() {
    for (w, h) in [(3, 3), (4, 4), (5, 3), (2, 5), (8, 8), (7, 4)] {
        let game = board(w, h);
        for pos in common::rules::sample_positions(&game, 50_000, 300) {
            let mut fast: Vec<(u8, u8)> = game.moves(&pos).iter().map(|m| (m.from, m.to)).collect();
            fast.sort();
            assert_eq!(fast, simple_moves(&game, &pos), "{}", game.position_string(&pos));
            // The side to move loses when it has no move and nobody has arrived.
            if fast.is_empty() {
                assert!(game.outcome(&pos).is_over());
            }
        }
    }
}

#[test]
fn gardners_game_in_notation() {
    // Gardner's sample game: 1. b2 axb2 2. cxb2 c2 3. a2 c1#
    let game = board(3, 3);
    let mut pos = game.start();
    let mut names = vec![];
    for m in ["b2", "axb2", "cxb2", "c2", "a2", "c1"] {
        let mv = game.parse_move(&pos, m).unwrap();
        names.push(game.move_name(&pos, mv));
        pos = game.play(&pos, mv);
    }
    assert_eq!(names, ["b2", "axb2", "cxb2", "c2", "a2", "c1#"]);
    assert_eq!(game.outcome(&pos), Outcome::Win(Player::Two));
}

#[test]
fn coordinate_notation_is_accepted() {
    let game = board(3, 3);
    let start = game.start();
    let b2 = game.parse_move(&start, "b2").unwrap();
    assert_eq!(game.parse_move(&start, "b1b2").unwrap(), b2);
    assert_eq!(game.parse_move(&start, "b1-b2").unwrap(), b2);
    assert_eq!(b2, HexapawnMove { from: 1, to: 4 });
    let pos = game.play(&start, b2);
    let capture = game.parse_move(&pos, "axb2").unwrap();
    assert_eq!(game.parse_move(&pos, "a3-b2").unwrap(), capture);
    assert_eq!(game.parse_move(&pos, "a3xb2").unwrap(), capture);
    assert_eq!(game.parse_move(&pos, "A3B2").unwrap(), capture);
    assert_eq!(capture, HexapawnMove { from: 6, to: 4 });
}

#[test]
fn position_strings() {
    let game = board(3, 3);
    assert_eq!(game.position_string(&game.start()), "ppp/3/PPP w");
    let pos = game.parse_position("p1p/1P1/P1P b").unwrap();
    assert_eq!(pos.white, 0b000_010_101);
    assert_eq!(pos.black, 0b101_000_000);
    assert_eq!(pos.turn, Player::Two);
    let big = board(12, 4);
    let s = "12/p10P/12/pppppppppppp w";
    assert_eq!(big.position_string(&big.parse_position(s).unwrap()), s);
}

#[test]
fn win_by_blockade_and_by_arrival() {
    let game = board(3, 3);
    // White to move with its only pawn blocked: Black wins.
    let blocked = game.parse_position("3/p2/P2 w").unwrap();
    assert_eq!(game.outcome(&blocked), Outcome::Win(Player::Two));
    assert!(game.moves(&blocked).is_empty());
    // A white pawn on rank 3 has won, whoever is to move.
    let arrived = game.parse_position("P1p/3/3 b").unwrap();
    assert_eq!(game.outcome(&arrived), Outcome::Win(Player::One));
    // No pawns left: the side to move loses.
    let bare = game.parse_position("1p1/3/3 w").unwrap();
    assert_eq!(game.outcome(&bare), Outcome::Win(Player::Two));
}

#[test]
fn mirror_maps_files() {
    let game = board(4, 3);
    let pos = game.parse_position("pp2/P3/1PPP b").unwrap();
    let mirrored = game.map_position(&pos, Mirror::Reflect);
    assert_eq!(game.position_string(&mirrored), "2pp/3P/PPP1 b");
    let mv = game.parse_move(&pos, "bxa2").unwrap();
    assert_eq!(game.move_name(&mirrored, game.map_move(mv, Mirror::Reflect)), "cxd2");
}

#[test]
fn box_counts_for_her() {
    let game = board(3, 3);
    let black = enumerate(&game, Player::Two, BoxSet::All, true, 1000).unwrap();
    assert_eq!(counts_by_move(&black), vec![(2, 2), (4, 10), (6, 7)]);
    assert_eq!(black.len(), 19);
    let black_raw = enumerate(&game, Player::Two, BoxSet::All, false, 1000).unwrap();
    assert_eq!(black_raw.len(), 37);
    let white_raw = enumerate(&game, Player::One, BoxSet::All, false, 1000).unwrap();
    assert_eq!(white_raw.len(), 33);
}

#[test]
fn bad_specs_moves_and_positions_are_explained() {
    for (spec, needle) in [
        ("hexapawn:4", "not WxH"),
        ("hexapawn:0x3", "width '0': out of range"),
        ("hexapawn:3x2", "height '2': out of range"),
        ("hexapawn:9x9", "more than 64 cells"),
        ("hexapawn:axb", "not WxH"),
        ("chess", "unknown game 'chess'"),
        ("hexapawn,swap=off", "unknown option"),
    ] {
        let err = parse_spec(spec).unwrap_err().to_string();
        assert!(
            err.contains(&format!("'{spec}'")) && err.contains(needle),
            "{spec}: {err}"
        );
    }
    let game = board(3, 3);
    let start = game.start();
    let err = game.parse_move(&start, "b3").unwrap_err();
    assert_eq!(
        err,
        menace::MoveError::Illegal {
            text: "b3".into(),
            why: "no legal step to that cell".into(),
            legal: vec!["a2".into(), "b2".into(), "c2".into()],
        }
    );
    let err = err.to_string();
    assert!(err.contains("'b3'") && err.contains("legal moves: a2 b2 c2"), "{err}");
    let err = game.parse_move(&start, "hello").unwrap_err().to_string();
    assert!(
        err.contains("'hello'") && err.contains("expected a step like b2"),
        "{err}"
    );
    let err = game.parse_move(&start, "d2").unwrap_err().to_string();
    assert!(err.contains("'d2'"), "{err}");
    let err = game.parse_position("ppp/3/PPP").unwrap_err().to_string();
    assert!(err.contains("'ppp/3/PPP'") && err.contains("expected 3 ranks"), "{err}");
    let err = game.parse_position("pppp/3/PPP w").unwrap_err().to_string();
    assert!(err.contains("rank 3 is longer than 3 cells"), "{err}");
    let err = game.parse_position("ppp/3/PPP x").unwrap_err().to_string();
    assert!(err.contains("side to move 'x'"), "{err}");
}
