//! Chessapawn: the shared rule suite, perft against a deliberately simple
//! move generator, each piece's moves, en passant and the win conditions.

mod common;

use menace::games::chessapawn::{ChessapawnMove, ChessapawnPosition, Kind};
use menace::{Chessapawn, Game, Outcome, Player};

const GAME: Chessapawn = Chessapawn;

/// The rules read literally, square pair by square pair: is `from` → `to` a
/// move, and is it an en passant capture?
fn simple_move(pos: &ChessapawnPosition, from: usize, to: usize) -> Option<bool> {
    let piece = pos.squares[from]?;
    if piece.owner != pos.turn || from == to {
        return None;
    }
    if pos.squares[to].is_some_and(|p| p.owner == piece.owner) {
        return None;
    }
    let dir = if piece.owner == Player::One { 1 } else { -1 };
    let (ff, fr, tf, tr) = ((from % 8) as i32, (from / 8) as i32, (to % 8) as i32, (to / 8) as i32);
    let df = tf - ff;
    let dr = (tr - fr) * dir;
    let enemy = pos.squares[to].is_some();
    let ep = pos.en_passant == Some(to as u8) && !enemy;
    let empty = !enemy && !ep;
    let clear = || {
        let steps = df.abs().max((tr - fr).abs());
        let (sf, sr) = (df.signum(), (tr - fr).signum());
        (1..steps).all(|k| pos.squares[((fr + sr * k) * 8 + ff + sf * k) as usize].is_none())
    };
    // Move-only patterns land on the passed square without capturing.
    let step_forward = df == 0 && dr == 1 && (empty || ep);
    let pawn_capture = df.abs() == 1 && dr == 1 && (enemy || ep);
    let result = |capturing: bool| Some(capturing && ep);
    match piece.kind {
        Kind::Pawn => {
            let home = if piece.owner == Player::One { 1 } else { 6 };
            if step_forward {
                return result(false);
            }
            if df == 0 && dr == 2 && fr == home && clear() && pos.squares[to].is_none() {
                return result(false);
            }
            pawn_capture.then_some(ep)
        }
        Kind::Knight => {
            let leap = (df.abs() == 1 && dr == 2) || (df.abs() == 2 && dr == 1);
            if leap {
                return result(true);
            }
            if step_forward {
                return result(false);
            }
            pawn_capture.then_some(ep)
        }
        Kind::Bishop => {
            if df.abs() == dr && dr >= 1 && clear() {
                return result(true);
            }
            step_forward.then_some(false)
        }
        Kind::Rook | Kind::Queen => {
            if df == 0 && dr >= 1 && clear() {
                return result(true);
            }
            if dr == 0 && df != 0 && clear() && (enemy || ep) {
                return result(true);
            }
            if piece.kind == Kind::Queen {
                if df.abs() == dr && dr >= 1 && clear() {
                    return result(true);
                }
                return None;
            }
            pawn_capture.then_some(ep)
        }
        Kind::King => {
            if dr == 1 && df.abs() <= 1 {
                return result(true);
            }
            (dr == 0 && df.abs() == 1 && (enemy || ep)).then_some(ep)
        }
    }
}

fn simple_moves(pos: &ChessapawnPosition) -> Vec<ChessapawnMove> {
    if GAME.outcome(pos).is_over() {
        return vec![];
    }
    let mut out = vec![];
    for from in 0..64 {
        for to in 0..64 {
            if let Some(en_passant) = simple_move(pos, from, to) {
                out.push(ChessapawnMove {
                    from: from as u8,
                    to: to as u8,
                    en_passant,
                });
            }
        }
    }
    out.sort();
    out
}

fn perft(pos: &ChessapawnPosition, depth: u32, simple: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = if simple { simple_moves(pos) } else { GAME.moves(pos) };
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft(&GAME.play(pos, m), depth - 1, simple))
        .sum()
}

fn perft_table() -> Vec<(u32, u64)> {
    include_str!("data/chessapawn_perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (d, n) = l.split_once(' ').unwrap();
            (d.parse().unwrap(), n.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn shared_rules() {
    common::rules::check_game(&GAME, 0, 60);
}

#[test]
fn generated_moves_match_the_simple_generator() {
    for pos in common::rules::sample_positions(&GAME, 0, 200) {
        let mut fast = GAME.moves(&pos);
        fast.sort();
        assert_eq!(fast, simple_moves(&pos), "{}", GAME.position_string(&pos));
    }
}

#[test]
fn perft_matches_the_table_and_the_simple_generator() {
    let start = GAME.start();
    for (depth, expected) in perft_table() {
        if depth <= 4 {
            assert_eq!(perft(&start, depth, false), expected, "depth {depth}");
        }
        if depth <= 3 {
            assert_eq!(perft(&start, depth, true), expected, "simple, depth {depth}");
        }
    }
}

#[test]
fn perft_deep() {
    let start = GAME.start();
    for (depth, expected) in perft_table() {
        assert_eq!(perft(&start, depth, false), expected, "depth {depth}");
        if depth <= 4 {
            assert_eq!(perft(&start, depth, true), expected, "simple, depth {depth}");
        }
    }
}

fn names(fen: &str) -> Vec<String> {
    let pos = GAME.parse_position(fen).unwrap();
    let mut v: Vec<String> = GAME.moves(&pos).iter().map(|&m| GAME.move_name(&pos, m)).collect();
    v.sort();
    v
}

#[test]
fn each_piece_moves_forward_and_sideways_only_to_capture() {
    // A lone White piece on d4, Black pawns on b4 (to the side) and e5
    // (diagonally forward), Black's king far away on a8.
    let on_d4 = |p: char| names(&format!("k7/8/8/4p3/1p1{p}4/8/8/8 w -"));
    assert_eq!(on_d4('P'), ["d5", "dxe5"]);
    assert_eq!(on_d4('N'), ["Nb5", "Nc6", "Nd5", "Ne6", "Nf5", "Nxe5"]);
    assert_eq!(on_d4('B'), ["Ba7", "Bb6", "Bc5", "Bd5", "Bxe5"]);
    assert_eq!(on_d4('R'), ["Rd5", "Rd6", "Rd7", "Rd8#", "Rxb4", "Rxe5"]);
    assert_eq!(
        on_d4('Q'),
        ["Qa7", "Qb6", "Qc5", "Qd5", "Qd6", "Qd7", "Qd8#", "Qxb4", "Qxe5"]
    );
    assert_eq!(on_d4('K'), ["Kc5", "Kd5", "Kxe5"]);
    // The king captures sideways, never moves sideways.
    assert_eq!(names("k7/8/8/8/3Kp3/8/8/8 w -"), ["Kc5", "Kd5", "Ke5", "Kxe4"]);
}

#[test]
fn en_passant_by_any_piece_that_could_capture_there() {
    // Black has just played e7-e5, passing e6: a knight takes en passant.
    let knight = GAME.parse_position("k7/8/8/4p3/3N4/8/8/7K w e6").unwrap();
    let mv = GAME.parse_move(&knight, "Nxe6").unwrap();
    assert!(mv.en_passant);
    let after = GAME.play(&knight, mv);
    assert_eq!(GAME.position_string(&after), "k7/8/4N3/8/8/8/8/7K b -");
    // A rook on the 6th rank slides sideways onto e6 only as the capture.
    let rook = GAME.parse_position("k7/8/R7/4p3/8/8/8/4R2K w e6").unwrap();
    let mv = GAME.parse_move(&rook, "a6e6").unwrap();
    assert!(mv.en_passant);
    assert_eq!(GAME.move_name(&rook, mv), "Rxe6");
    assert_eq!(GAME.position_string(&GAME.play(&rook, mv)), "k7/8/4R3/8/8/8/8/4R2K b -");
    // A pawn straight behind the passed square steps there without capturing.
    let pawn = GAME.parse_position("k7/8/8/4p3/8/4P3/8/7K w e6").unwrap();
    assert!(GAME.moves(&pawn).iter().all(|m| !m.en_passant));
    // The chance lasts one reply.
    let later = GAME.try_play(&knight, "Kg2").unwrap();
    assert_eq!(later.en_passant, None);
}

#[test]
fn the_win_conditions() {
    // An arrival on the far rank that no enemy move can capture wins at once.
    let pos = GAME.parse_position("k7/3P4/8/8/8/8/8/7K w -").unwrap();
    let win = GAME.try_play(&pos, "d8").unwrap();
    assert_eq!(GAME.outcome(&win), Outcome::Win(Player::One));
    // An arrival the king on c8 can capture sideways does not win yet...
    let threatened = GAME.parse_position("2k5/3P4/8/8/8/8/8/7K w -").unwrap();
    let arrived = GAME.try_play(&threatened, "d8").unwrap();
    assert_eq!(GAME.outcome(&arrived), Outcome::Ongoing);
    assert!(GAME
        .moves(&arrived)
        .iter()
        .any(|m| GAME.move_name(&arrived, *m) == "Kxd8"));
    // ...but if it still stands there when White is next to move, White wins.
    let survived = GAME.try_play(&arrived, "Kc7").unwrap();
    assert_eq!(GAME.outcome(&survived), Outcome::Win(Player::One));
    // Leaving the opponent without a move wins (stalemate wins).
    let stuck = GAME.parse_position("8/8/8/8/8/p7/P7/7K b -").unwrap();
    assert_eq!(GAME.outcome(&stuck), Outcome::Win(Player::One));
    assert!(GAME.moves(&stuck).is_empty());
}

#[test]
fn notation_round_trips_and_accepts_coordinates() {
    let start = GAME.start();
    assert_eq!(
        GAME.position_string(&start),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -"
    );
    let nf3 = GAME.parse_move(&start, "Nf3").unwrap();
    assert_eq!(GAME.parse_move(&start, "g1f3").unwrap(), nf3);
    assert_eq!(GAME.parse_move(&start, "g1-f3").unwrap(), nf3);
    let pos = GAME.parse_position("k7/8/8/3p4/4P3/8/8/7K w -").unwrap();
    let exd5 = GAME.parse_move(&pos, "exd5").unwrap();
    assert_eq!(GAME.move_name(&pos, exd5), "exd5");
    assert_eq!(GAME.parse_move(&pos, "e4d5").unwrap(), exd5);
    // Two knights can reach d5: the file tells them apart.
    let two = GAME.parse_position("k7/8/8/8/8/2N1N3/8/7K w -").unwrap();
    let named = names("k7/8/8/8/8/2N1N3/8/7K w -");
    assert!(
        named.contains(&"Ncd5".to_string()) && named.contains(&"Ned5".to_string()),
        "{named:?}"
    );
    assert!(GAME
        .parse_move(&two, "Nd5")
        .unwrap_err()
        .to_string()
        .contains("ambiguous"));
    let err = GAME.parse_move(&start, "Nf4").unwrap_err().to_string();
    assert!(err.contains("'Nf4'") && err.contains("legal moves"), "{err}");
    let err = GAME.parse_position("8/8 w -").unwrap_err().to_string();
    assert!(err.contains("found 2 ranks"), "{err}");
    let err = GAME.parse_position("8/8/8/8/8/8/8/8 w e4").unwrap_err().to_string();
    assert!(err.contains("en passant square 'e4'"), "{err}");
}

#[test]
fn mcts_1000_beats_random() {
    use menace::search::mcts::Mcts;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut wins = 0;
    let games = 10;
    for g in 0..games {
        let side = if g % 2 == 0 { Player::One } else { Player::Two };
        let mut search = Mcts::new(GAME, 1000, 1.4);
        let mut pos = GAME.start();
        while GAME.outcome(&pos) == Outcome::Ongoing {
            let mv = if GAME.turn(&pos) == side {
                search.choose(&pos, &mut rng)
            } else {
                let moves = GAME.moves(&pos);
                moves[rng.random_range(0..moves.len())]
            };
            pos = GAME.play(&pos, mv);
        }
        if GAME.outcome(&pos) == Outcome::Win(side) {
            wins += 1;
        }
    }
    assert!(wins >= games - 1, "{wins} of {games}");
}
