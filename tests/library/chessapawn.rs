//! Chessapawn: the shared rule suite, perft from an independent generator,
//! each piece's moves, en passant and the win conditions.

use crate::common;

use menace::prelude::*;
use menace::{Chessapawn, Game, MoveError, Outcome, Player};

const GAME: Chessapawn = Chessapawn;

/// The rules of SPEC.md §1.4 written out again, sharing no code with
/// src/games/chessapawn.rs: its own board, move generation, make-move and
/// end of game, so that perft and random games check one against the other.
mod independent {
    /// A square's content: `.` or a piece letter as in chess (upper case White).
    pub type Board = [u8; 64];

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Pos {
        /// Index rank * 8 + file; rank 0 is White's first rank.
        pub board: Board,
        pub white: bool,
        /// The square a pawn passed over in a two-square step just played.
        pub passed: Option<usize>,
    }

    /// A move: from, to, and whether it takes the pawn that passed `to`.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Mv {
        pub from: usize,
        pub to: usize,
        pub en_passant: bool,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum End {
        Ongoing,
        WhiteWins,
        BlackWins,
    }

    /// The standard chess start, from its FEN board.
    pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -";

    pub fn square_name(s: usize) -> String {
        format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
    }

    /// Read `BOARD SIDE PASSED` (FEN board, `w`/`b`, a square or `-`).
    pub fn parse(text: &str) -> Pos {
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(fields.len(), 3, "{text}");
        let mut board = [b'.'; 64];
        for (i, rank) in fields[0].split('/').enumerate() {
            let r = 7 - i;
            let mut f = 0;
            for c in rank.bytes() {
                if c.is_ascii_digit() {
                    f += usize::from(c - b'0');
                } else {
                    board[r * 8 + f] = c;
                    f += 1;
                }
            }
            assert_eq!(f, 8, "{text}");
        }
        let passed = match fields[2] {
            "-" => None,
            sq => {
                let b = sq.as_bytes();
                Some(usize::from(b[1] - b'1') * 8 + usize::from(b[0] - b'a'))
            }
        };
        Pos {
            board,
            white: fields[1] == "w",
            passed,
        }
    }

    fn is_white(c: u8) -> bool {
        c.is_ascii_uppercase()
    }

    fn mine(pos: &Pos, c: u8) -> bool {
        c != b'.' && is_white(c) == pos.white
    }

    fn theirs(pos: &Pos, c: u8) -> bool {
        c != b'.' && is_white(c) != pos.white
    }

    /// The square `df` files and `dr` ranks forward (for the side to move) of `s`.
    fn step(pos: &Pos, s: usize, df: i32, dr: i32) -> Option<usize> {
        let dir = if pos.white { 1 } else { -1 };
        let (f, r) = ((s % 8) as i32 + df, (s / 8) as i32 + dr * dir);
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
    }

    /// Every move of the side to move by the patterns of its pieces, end of game aside.
    pub fn pseudo_moves(pos: &Pos) -> Vec<Mv> {
        let mut out = Vec::new();
        for from in 0..64 {
            let c = pos.board[from];
            if !mine(pos, c) {
                continue;
            }
            // A pattern that may move or capture: empty, enemy, or the passed square (a capture).
            let either = |to: usize, out: &mut Vec<Mv>| {
                let t = pos.board[to];
                if t == b'.' || theirs(pos, t) {
                    out.push(Mv {
                        from,
                        to,
                        en_passant: pos.passed == Some(to),
                    });
                }
            };
            // Capture only: an enemy piece, or the passed square.
            let capture = |to: usize, out: &mut Vec<Mv>| {
                if theirs(pos, pos.board[to]) || pos.passed == Some(to) {
                    out.push(Mv {
                        from,
                        to,
                        en_passant: pos.passed == Some(to),
                    });
                }
            };
            // Move only: an empty square, the passed one included, taking nothing.
            let quiet = |to: usize, out: &mut Vec<Mv>| {
                if pos.board[to] == b'.' {
                    out.push(Mv {
                        from,
                        to,
                        en_passant: false,
                    });
                }
            };
            // Slide along (df, dr) forward: onto empty squares unless capture only,
            // onto the passed square as a capture, and onto the first enemy piece.
            let slide = |df: i32, dr: i32, capture_only: bool, out: &mut Vec<Mv>| {
                let mut k = 1;
                while let Some(to) = step(pos, from, df * k, dr * k) {
                    let t = pos.board[to];
                    if t != b'.' {
                        if theirs(pos, t) {
                            out.push(Mv {
                                from,
                                to,
                                en_passant: false,
                            });
                        }
                        break;
                    }
                    if pos.passed == Some(to) {
                        out.push(Mv {
                            from,
                            to,
                            en_passant: true,
                        });
                    } else if !capture_only {
                        out.push(Mv {
                            from,
                            to,
                            en_passant: false,
                        });
                    }
                    k += 1;
                }
            };
            let pawn_like = |out: &mut Vec<Mv>| {
                if let Some(to) = step(pos, from, 0, 1) {
                    quiet(to, out);
                }
                for df in [-1, 1] {
                    if let Some(to) = step(pos, from, df, 1) {
                        capture(to, out);
                    }
                }
            };
            match c.to_ascii_lowercase() {
                b'p' => {
                    pawn_like(&mut out);
                    let home = if pos.white { 1 } else { 6 };
                    if from / 8 == home {
                        let (one, two) = (step(pos, from, 0, 1).unwrap(), step(pos, from, 0, 2).unwrap());
                        if pos.board[one] == b'.' && pos.board[two] == b'.' {
                            out.push(Mv {
                                from,
                                to: two,
                                en_passant: false,
                            });
                        }
                    }
                }
                b'n' => {
                    for (df, dr) in [(-1, 2), (1, 2), (-2, 1), (2, 1)] {
                        if let Some(to) = step(pos, from, df, dr) {
                            either(to, &mut out);
                        }
                    }
                    pawn_like(&mut out);
                }
                b'b' | b'r' | b'q' => {
                    let lower = c.to_ascii_lowercase();
                    if lower != b'r' {
                        slide(-1, 1, false, &mut out);
                        slide(1, 1, false, &mut out);
                    }
                    if lower != b'b' {
                        slide(0, 1, false, &mut out);
                        slide(-1, 0, true, &mut out);
                        slide(1, 0, true, &mut out);
                    }
                    match lower {
                        b'b' => {
                            if let Some(to) = step(pos, from, 0, 1) {
                                quiet(to, &mut out);
                            }
                        }
                        b'r' => {
                            for df in [-1, 1] {
                                if let Some(to) = step(pos, from, df, 1) {
                                    capture(to, &mut out);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                b'k' => {
                    for df in [-1, 0, 1] {
                        if let Some(to) = step(pos, from, df, 1) {
                            either(to, &mut out);
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(to) = step(pos, from, df, 0) {
                            capture(to, &mut out);
                        }
                    }
                }
                other => panic!("piece {}", other as char),
            }
        }
        // A square reached by two patterns (a queen's forward step) is one move;
        // onto the passed square a capturing pattern wins over a quiet step.
        out.sort_by_key(|m| (m.from, m.to, !m.en_passant));
        out.dedup_by_key(|m| (m.from, m.to));
        out
    }

    pub fn play(pos: &Pos, m: Mv) -> Pos {
        let mut next = *pos;
        let piece = pos.board[m.from];
        next.board[m.to] = piece;
        next.board[m.from] = b'.';
        if m.en_passant {
            // The pawn stands one square beyond the passed one, as its owner moves.
            let beyond = if pos.white { m.to - 8 } else { m.to + 8 };
            next.board[beyond] = b'.';
        }
        let two = (m.from as i32 - m.to as i32).abs() == 16;
        next.passed = (piece.eq_ignore_ascii_case(&b'p') && two).then(|| (m.from + m.to) / 2);
        next.white = !pos.white;
        next
    }

    fn far_rank(white: bool) -> std::ops::Range<usize> {
        if white {
            56..64
        } else {
            0..8
        }
    }

    /// The end of game rules: a piece of the side to move on its far rank
    /// survived the reply and wins; a piece the opponent just brought to its
    /// far rank that no move can capture wins; a side with no move loses.
    pub fn end(pos: &Pos) -> End {
        let winner = |white: bool| if white { End::WhiteWins } else { End::BlackWins };
        let own = |white: bool, c: u8| c != b'.' && is_white(c) == white;
        if far_rank(pos.white).any(|s| own(pos.white, pos.board[s])) {
            return winner(pos.white);
        }
        let moves = pseudo_moves(pos);
        let arrived = far_rank(!pos.white).filter(|&s| own(!pos.white, pos.board[s]));
        for s in arrived {
            if !moves.iter().any(|m| m.to == s) {
                return winner(!pos.white);
            }
        }
        if moves.is_empty() {
            return winner(!pos.white);
        }
        End::Ongoing
    }

    pub fn moves(pos: &Pos) -> Vec<Mv> {
        if end(pos) != End::Ongoing {
            return Vec::new();
        }
        pseudo_moves(pos)
    }

    pub fn perft(pos: &Pos, depth: u32) -> u64 {
        let moves = moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| perft(&play(pos, m), depth - 1)).sum()
    }
}

fn perft(pos: &<Chessapawn as Rules>::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = GAME.moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft(&GAME.play(pos, m), depth - 1)).sum()
}

fn perft_table() -> Vec<(u32, u64)> {
    include_str!("../data/chessapawn_perft.txt")
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
fn the_independent_generator_reads_the_start_as_chess_has_it() {
    let start = independent::parse(independent::START);
    let row = |r: usize| String::from_utf8(start.board[r * 8..r * 8 + 8].to_vec()).unwrap();
    assert_eq!(
        [row(0), row(1), row(6), row(7)],
        ["RNBQKBNR", "PPPPPPPP", "pppppppp", "rnbqkbnr"]
    );
    assert!(start.white && start.passed.is_none());
    assert_eq!(GAME.position_string(&GAME.start()), independent::START);
}

#[test]
fn perft_of_the_independent_generator_matches_the_table() {
    let table = perft_table();
    assert_eq!(table.len(), 5);
    let start = independent::parse(independent::START);
    for (depth, expected) in table {
        assert_eq!(independent::perft(&start, depth), expected, "depth {depth}");
    }
}

#[test]
fn perft_deep() {
    let start = GAME.start();
    for (depth, expected) in perft_table() {
        assert_eq!(perft(&start, depth), expected, "depth {depth}");
    }
}

/// Random games played by both at once: at every ply the same moves (each of
/// the independent generator's, written as coordinates, is one of the game's
/// and there are as many), the same board and the same result.
#[test]
fn random_games_agree_with_the_independent_generator() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut wins, mut plies) = ([0; 2], 0);
    for _ in 0..150 {
        let mut pos = GAME.start();
        let mut mine = independent::parse(independent::START);
        loop {
            let text = GAME.position_string(&pos);
            assert_eq!(independent::parse(&text), mine, "{text}");
            let end = match GAME.outcome(&pos) {
                Outcome::Ongoing => independent::End::Ongoing,
                Outcome::Win(Player::One) => independent::End::WhiteWins,
                Outcome::Win(Player::Two) => independent::End::BlackWins,
                Outcome::Draw => panic!("{text}: Chessapawn has no draws"),
            };
            assert_eq!(independent::end(&mine), end, "{text}");
            let moves = independent::moves(&mine);
            assert_eq!(moves.len(), GAME.moves(&pos).len(), "{text}");
            let mut seen = std::collections::HashSet::new();
            for m in &moves {
                let coords = format!("{}{}", independent::square_name(m.from), independent::square_name(m.to));
                let theirs = GAME.parse_move(&pos, &coords).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(theirs.en_passant, m.en_passant, "{text}: {coords}");
                assert!(seen.insert(theirs), "{text}: {coords}");
            }
            if moves.is_empty() {
                if end == independent::End::WhiteWins {
                    wins[0] += 1;
                } else {
                    wins[1] += 1;
                }
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            let coords = format!("{}{}", independent::square_name(m.from), independent::square_name(m.to));
            pos = GAME.try_play(&pos, &coords).unwrap();
            mine = independent::play(&mine, m);
            plies += 1;
        }
    }
    // Both sides win some random games, and they run long enough to meet the far ranks.
    assert!(wins[0] > 10 && wins[1] > 10, "{wins:?}");
    assert!(plies > 150 * 20, "{plies}");
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
    let err = GAME.parse_move(&two, "Nd5").unwrap_err();
    assert_eq!(
        err,
        MoveError::Ambiguous {
            text: "Nd5".into(),
            hint: "name the starting file or rank too".into(),
            candidates: vec!["Ncd5".into(), "Ned5".into()],
        }
    );
    assert_eq!(
        err.to_string(),
        "move 'Nd5': ambiguous: it could be Ncd5 or Ned5 (name the starting file or rank too)"
    );
    let err = GAME.parse_move(&start, "Nf4").unwrap_err();
    assert!(
        matches!(&err, MoveError::Illegal { legal, .. } if legal.len() == 20),
        "{err}"
    );
    let err = err.to_string();
    assert!(err.contains("'Nf4'") && err.contains("legal moves"), "{err}");
    let err = GAME.parse_move(&start, "e4=Q").unwrap_err();
    assert!(matches!(err, MoveError::Unreadable { .. }), "{err}");
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
