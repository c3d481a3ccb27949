//! Mini Hexchess: the shared rule suite, lone-piece counts by hand, perft
//! and random games against an independent generator, check, pins,
//! promotion and the draws.

use crate::common;

use menace::games::minihexchess::{axial, cell_name, HexchessPosition, Kind, Piece};
use menace::prelude::*;
use menace::{parse_spec, AnyGame, Game, MiniHexchess, MoveError, Outcome, Player};

fn game() -> MiniHexchess {
    MiniHexchess::new()
}

fn cell(name: &str) -> usize {
    (0..37)
        .find(|&i| cell_name(i) == name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

fn custom(setup: &str) -> MiniHexchess {
    match parse_spec(&format!("minihexchess,setup={setup}")).unwrap() {
        AnyGame::MiniHexchess(g) => g,
        _ => panic!("not mini hexchess"),
    }
}

fn names(g: &MiniHexchess, pos: &HexchessPosition) -> Vec<String> {
    let mut v: Vec<String> = g.moves(pos).iter().map(|&m| g.move_name(pos, m)).collect();
    v.sort();
    v
}

#[test]
fn shared_rules() {
    common::rules::check_game(&game(), 0, 40);
}

#[test]
fn the_board_and_mccooeys_setup() {
    assert_eq!(axial(cell("d4")), (0, 0));
    assert_eq!(axial(cell("a1")), (-3, 3));
    assert_eq!(axial(cell("d7")), (0, -3));
    assert_eq!(axial(cell("g4")), (3, -3));
    let g = game();
    let start = g.start();
    let at = |n: &str| start.cells[cell(n)];
    let w = |kind| {
        Some(Piece {
            owner: Player::One,
            kind,
        })
    };
    let b = |kind| {
        Some(Piece {
            owner: Player::Two,
            kind,
        })
    };
    assert_eq!(
        (at("c1"), at("d1"), at("e1"), at("d2")),
        (w(Kind::Knight), w(Kind::Bishop), w(Kind::Rook), w(Kind::King))
    );
    assert_eq!(
        (at("e6"), at("d7"), at("c6"), at("d6")),
        (b(Kind::Knight), b(Kind::Bishop), b(Kind::Rook), b(Kind::King))
    );
    for p in ["b1", "c2", "d3", "e2", "f1"] {
        assert_eq!(at(p), w(Kind::Pawn), "{p}");
    }
    for p in ["b5", "c5", "d5", "e5", "f5"] {
        assert_eq!(at(p), b(Kind::Pawn), "{p}");
    }
    assert_eq!(at("d4"), None, "no pawn on the centre");
    assert_eq!(start.cells.iter().flatten().count(), 18);
}

#[test]
fn lone_pieces_reach_the_hand_counted_cells() {
    let g = game();
    let d4 = cell("d4");
    assert_eq!(g.lone_destinations(Kind::Rook, d4), 18);
    assert_eq!(g.lone_destinations(Kind::Bishop, d4), 6);
    assert_eq!(g.lone_destinations(Kind::Knight, d4), 12);
    assert_eq!(g.lone_destinations(Kind::King, d4), 12);
    // From the corner a1 = (-3, 3), by hand: the rook 3 up the a-file, 6
    // along (1,-1) to (3,-3), 3 along (1,0) to (0,3); the bishop 3 along
    // (1,-2) and 3 along (2,-1); the knight (0,2), (0,1), (-1,0), (-2,0);
    // the king 3 edge-neighbours and 2 diagonal ones.
    let a1 = cell("a1");
    assert_eq!(g.lone_destinations(Kind::Rook, a1), 12);
    assert_eq!(g.lone_destinations(Kind::Bishop, a1), 6);
    assert_eq!(g.lone_destinations(Kind::Knight, a1), 4);
    assert_eq!(g.lone_destinations(Kind::King, a1), 5);
}

/// The rules of SPEC.md §1.5 written out again, sharing no code with
/// src/games/minihexchess.rs: its own cells and names, board, setup (from the
/// spec's words), moves, check, make-move and end of game.
mod independent {
    pub type Cell = (i32, i32);

    /// Edge directions in turn around the cell; White's forward is (0, -1).
    pub const EDGES: [Cell; 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

    /// Corner directions: between two edge directions next to each other.
    pub fn corners() -> Vec<Cell> {
        (0..6)
            .map(|i| {
                let (a, b) = (EDGES[i], EDGES[(i + 1) % 6]);
                (a.0 + b.0, a.1 + b.1)
            })
            .collect()
    }

    /// One edge step, then one corner step onward (the corners beside that edge).
    pub fn leaps() -> Vec<Cell> {
        let mut out = Vec::new();
        for (i, &e) in EDGES.iter().enumerate() {
            for j in [(i + 1) % 6, (i + 5) % 6] {
                let f = EDGES[j];
                out.push((2 * e.0 + f.0, 2 * e.1 + f.1));
            }
        }
        out
    }

    pub fn on_board((q, r): Cell) -> bool {
        q.abs() <= 3 && r.abs() <= 3 && (q + r).abs() <= 3
    }

    /// The cells of file `q` run from r = max(-3, -3 - q) (Black's end) to
    /// r = min(3, 3 - q) (White's end, rank 1).
    fn white_end(q: i32) -> i32 {
        3.min(3 - q)
    }

    fn black_end(q: i32) -> i32 {
        (-3).max(-3 - q)
    }

    pub fn cell(name: &str) -> Cell {
        let b = name.as_bytes();
        let q = i32::from(b[0]) - i32::from(b'd');
        let rank: i32 = name[1..].parse().unwrap();
        (q, white_end(q) - (rank - 1))
    }

    pub fn name((q, r): Cell) -> String {
        format!("{}{}", (b'd' as i32 + q) as u8 as char, white_end(q) - r + 1)
    }

    fn index((q, r): Cell) -> usize {
        ((q + 3) * 7 + (r + 3)) as usize
    }

    pub fn cells() -> Vec<Cell> {
        let mut v = Vec::new();
        for q in -3..=3 {
            for r in -3..=3 {
                if on_board((q, r)) {
                    v.push((q, r));
                }
            }
        }
        v
    }

    /// `.` or a piece letter, upper case White.
    pub type Board = [u8; 49];

    #[derive(Clone, Debug)]
    pub struct Pos {
        pub board: Board,
        pub white: bool,
        /// Plies since the last capture or pawn move.
        pub clock: u32,
        /// Every (board, side to move) since then, this one included.
        pub history: Vec<(Board, bool)>,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Mv {
        pub from: Cell,
        pub to: Cell,
        pub promotion: Option<u8>,
    }

    impl Mv {
        /// In coordinates, as `d3d4` or `c5c6=N`.
        pub fn coordinates(self) -> String {
            let promotion = self.promotion.map_or(String::new(), |p| format!("={}", p as char));
            format!("{}{}{promotion}", name(self.from), name(self.to))
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum End {
        Ongoing,
        WhiteWins,
        BlackWins,
        Draw,
    }

    /// McCooey's setup as SPEC.md words it.
    pub fn start() -> Pos {
        let mut board = [b'.'; 49];
        let white = [("c1", b'N'), ("d1", b'B'), ("e1", b'R'), ("d2", b'K')];
        let black = [("e6", b'n'), ("d7", b'b'), ("c6", b'r'), ("d6", b'k')];
        for (c, p) in white.into_iter().chain(black) {
            board[index(cell(c))] = p;
        }
        for c in ["b1", "c2", "d3", "e2", "f1"] {
            board[index(cell(c))] = b'P';
        }
        for c in ["b5", "c5", "d5", "e5", "f5"] {
            board[index(cell(c))] = b'p';
        }
        Pos {
            board,
            white: true,
            clock: 0,
            history: vec![(board, true)],
        }
    }

    pub fn at(board: &Board, c: Cell) -> u8 {
        board[index(c)]
    }

    fn owner_white(p: u8) -> bool {
        p.is_ascii_uppercase()
    }

    /// The two forward corner directions of a pawn.
    fn pawn_captures(white: bool) -> [Cell; 2] {
        if white {
            [(1, -2), (-1, -1)]
        } else {
            [(-1, 2), (1, 1)]
        }
    }

    /// Whether a piece `p` on `from` attacks `to` (could capture a piece there).
    fn attacks(board: &Board, from: Cell, p: u8, to: Cell) -> bool {
        let d = (to.0 - from.0, to.1 - from.1);
        let ray = |dirs: &[Cell]| {
            dirs.iter().any(|&(a, b)| {
                let mut c = (from.0 + a, from.1 + b);
                while on_board(c) {
                    if c == to {
                        return true;
                    }
                    if at(board, c) != b'.' {
                        return false;
                    }
                    c = (c.0 + a, c.1 + b);
                }
                false
            })
        };
        match p.to_ascii_lowercase() {
            b'r' => ray(&EDGES),
            b'b' => ray(&corners()),
            b'k' => EDGES.contains(&d) || corners().contains(&d),
            b'n' => leaps().contains(&d),
            b'p' => pawn_captures(owner_white(p)).contains(&d),
            other => panic!("piece {}", other as char),
        }
    }

    pub fn attacked(board: &Board, target: Cell, by_white: bool) -> bool {
        cells().into_iter().any(|c| {
            let p = at(board, c);
            p != b'.' && owner_white(p) == by_white && attacks(board, c, p, target)
        })
    }

    fn king(board: &Board, white: bool) -> Cell {
        let k = if white { b'K' } else { b'k' };
        cells().into_iter().find(|&c| at(board, c) == k).expect("a king")
    }

    pub fn in_check(board: &Board, white: bool) -> bool {
        attacked(board, king(board, white), !white)
    }

    fn pseudo_moves(pos: &Pos) -> Vec<Mv> {
        let mut out = Vec::new();
        for from in cells() {
            let p = at(&pos.board, from);
            if p == b'.' || owner_white(p) != pos.white {
                continue;
            }
            let free_or_enemy = |c: Cell| {
                let t = at(&pos.board, c);
                t == b'.' || owner_white(t) != pos.white
            };
            let mut targets = Vec::new();
            if p.eq_ignore_ascii_case(&b'p') {
                let forward = if pos.white { (0, -1) } else { (0, 1) };
                let ahead = (from.0 + forward.0, from.1 + forward.1);
                if on_board(ahead) && at(&pos.board, ahead) == b'.' {
                    targets.push(ahead);
                }
                for (a, b) in pawn_captures(pos.white) {
                    let c = (from.0 + a, from.1 + b);
                    if on_board(c) && at(&pos.board, c) != b'.' && free_or_enemy(c) {
                        targets.push(c);
                    }
                }
            } else {
                for to in cells() {
                    if to != from && free_or_enemy(to) && attacks(&pos.board, from, p, to) {
                        targets.push(to);
                    }
                }
            }
            for to in targets {
                let far = if pos.white { black_end(to.0) } else { white_end(to.0) };
                if p.eq_ignore_ascii_case(&b'p') && to.1 == far {
                    for k in [b'R', b'B', b'N'] {
                        out.push(Mv {
                            from,
                            to,
                            promotion: Some(k),
                        });
                    }
                } else {
                    out.push(Mv {
                        from,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        out
    }

    pub fn play(pos: &Pos, m: Mv) -> Pos {
        let mut board = pos.board;
        let p = at(&board, m.from);
        let captured = at(&board, m.to) != b'.';
        board[index(m.to)] = match m.promotion {
            Some(k) if pos.white => k,
            Some(k) => k.to_ascii_lowercase(),
            None => p,
        };
        board[index(m.from)] = b'.';
        let reset = captured || p.eq_ignore_ascii_case(&b'p');
        let mut history = if reset { Vec::new() } else { pos.history.clone() };
        history.push((board, !pos.white));
        Pos {
            board,
            white: !pos.white,
            clock: if reset { 0 } else { pos.clock + 1 },
            history,
        }
    }

    /// Legal moves: those that leave the mover's own king out of check.
    fn legal(pos: &Pos) -> Vec<Mv> {
        pseudo_moves(pos)
            .into_iter()
            .filter(|&m| !in_check(&play(pos, m).board, pos.white))
            .collect()
    }

    pub fn end(pos: &Pos) -> End {
        if legal(pos).is_empty() {
            return match (in_check(&pos.board, pos.white), pos.white) {
                (false, _) => End::Draw,
                (true, true) => End::BlackWins,
                (true, false) => End::WhiteWins,
            };
        }
        let bare = pos.board.iter().all(|&c| c == b'.' || c.eq_ignore_ascii_case(&b'k'));
        let now = (pos.board, pos.white);
        let repeated = pos.history.iter().filter(|&&h| h == now).count() >= 3;
        if bare || pos.clock >= 100 || repeated {
            return End::Draw;
        }
        End::Ongoing
    }

    pub fn moves(pos: &Pos) -> Vec<Mv> {
        if end(pos) != End::Ongoing {
            return Vec::new();
        }
        legal(pos)
    }

    pub fn perft(pos: &Pos, depth: u32) -> u64 {
        let moves = moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| perft(&play(pos, m), depth - 1)).sum()
    }
}

fn perft(g: &MiniHexchess, pos: &HexchessPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = g.moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft(g, &g.play(pos, m), depth - 1)).sum()
}

#[test]
fn the_independent_cells_and_setup() {
    use independent::*;
    assert_eq!(cells().len(), 37);
    let mut names: Vec<String> = cells().into_iter().map(name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 37);
    for n in ["d4", "a1", "d7", "g4", "a4", "g1"] {
        assert_eq!(name(cell(n)), n);
    }
    assert_eq!(cell("d4"), (0, 0));
    // Lone pieces on d4, as counted by hand: 18 rook, 6 bishop, 12 knight cells.
    assert_eq!(leaps().len(), 12);
    let count = |dirs: &[Cell], slide: bool| {
        dirs.iter()
            .map(|&(a, b)| {
                let mut n = 0;
                let mut c = (a, b);
                while on_board(c) {
                    n += 1;
                    if !slide {
                        break;
                    }
                    c = (c.0 + a, c.1 + b);
                }
                n
            })
            .sum::<usize>()
    };
    assert_eq!(count(&EDGES, true), 18);
    assert_eq!(count(&corners(), true), 6);
    assert_eq!(count(&leaps(), false), 12);
    let start = start();
    assert_eq!(start.board.iter().filter(|&&c| c != b'.').count(), 18);
    // The same setup as the game's, cell by cell.
    let g = game();
    for c in cells() {
        let theirs = g.start().cells[self::cell(&name(c))].map(|p| p.symbol());
        let mine = Some(at(&start.board, c) as char).filter(|&p| p != '.');
        assert_eq!(mine, theirs, "{}", name(c));
    }
}

#[test]
fn perft_matches_the_table_and_the_independent_generator() {
    let g = game();
    let table: Vec<(u32, u64)> = include_str!("../data/minihexchess_perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (d, n) = l.split_once(' ').unwrap();
            (d.parse().unwrap(), n.trim().parse().unwrap())
        })
        .collect();
    assert_eq!(table.len(), 4);
    for (depth, expected) in table {
        assert_eq!(perft(&g, &g.start(), depth), expected, "depth {depth}");
        assert_eq!(
            independent::perft(&independent::start(), depth),
            expected,
            "independent, depth {depth}"
        );
    }
}

/// Random games played by both at once: at every ply the same moves (each of
/// the independent generator's, in coordinates, is one of the game's, and
/// there are as many), the same check and the same result.
#[test]
fn random_games_agree_with_the_independent_generator() {
    use rand::{Rng, SeedableRng};
    let g = game();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut ends = std::collections::HashMap::new();
    for _ in 0..40 {
        let mut pos = g.start();
        let mut mine = independent::start();
        loop {
            let text = g.position_string(&pos);
            let end = match g.outcome(&pos) {
                Outcome::Ongoing => independent::End::Ongoing,
                Outcome::Win(Player::One) => independent::End::WhiteWins,
                Outcome::Win(Player::Two) => independent::End::BlackWins,
                Outcome::Draw => independent::End::Draw,
            };
            assert_eq!(independent::end(&mine), end, "{text}");
            assert_eq!(
                independent::in_check(&mine.board, mine.white),
                g.in_check(&pos, g.turn(&pos)),
                "{text}"
            );
            let moves = independent::moves(&mine);
            assert_eq!(moves.len(), g.moves(&pos).len(), "{text}");
            let mut seen = std::collections::HashSet::new();
            for m in &moves {
                let theirs = g
                    .parse_move(&pos, &m.coordinates())
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                assert!(seen.insert(theirs), "{text}: {}", m.coordinates());
            }
            if moves.is_empty() {
                *ends.entry(format!("{end:?}")).or_insert(0) += 1;
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos = g.try_play(&pos, &m.coordinates()).unwrap();
            mine = independent::play(&mine, m);
        }
    }
    // Random games end both ways: some by a draw rule, some by checkmate.
    assert!(ends.contains_key("Draw") && ends.len() >= 2, "{ends:?}");
}

#[test]
fn check_pins_and_checkmate() {
    // White king d1 (0,3); a Black rook on d7 (0,-3) gives check down the d-file.
    let g = custom("0,3:K,0,-3:r,-3,0:k,2,1:R");
    let pos = g.start();
    assert!(g.in_check(&pos, Player::One));
    // Every legal move gets out of check.
    for mv in g.moves(&pos) {
        assert!(!g.in_check(&g.play(&pos, mv), Player::One), "{}", g.move_name(&pos, mv));
    }
    // A pinned piece: White rook on d4 between its king on d1 and a Black rook on d7.
    let g = custom("0,3:K,0,0:R,0,-3:r,-3,0:k");
    let pos = g.start();
    let rook_moves: Vec<String> = g
        .moves(&pos)
        .iter()
        .filter(|m| usize::from(m.from) == cell("d4"))
        .map(|&m| g.move_name(&pos, m))
        .collect();
    assert!(!rook_moves.is_empty());
    assert!(
        rook_moves.iter().all(|m| m.replace('x', "").starts_with("Rd")),
        "the pinned rook stays on the d-file: {rook_moves:?}"
    );
    // Checkmate wins: Black's king on a1; White's rook slides from e7 to a3
    // (check down the a-file), the rook on b5 covers b1-b3, the king on c3 c2.
    let g = custom("-3,3:k,1,-3:R,-2,-1:R,-1,1:K");
    let pos = g.start();
    assert!(!g.in_check(&pos, Player::Two));
    let mate = g.try_play(&pos, "Ra3").unwrap();
    assert!(g.in_check(&mate, Player::Two));
    assert_eq!(g.outcome(&mate), Outcome::Win(Player::One));
    assert!(g.moves(&mate).is_empty());
    let named = names(&g, &pos);
    assert!(named.contains(&"Ra3#".to_string()), "{named:?}");
}

#[test]
fn promotion_to_rook_bishop_or_knight() {
    // A White pawn on c5 (-1,-1) steps to c6 (-1,-2), the far cell of the c-file.
    let g = custom("-1,-1:P,0,3:K,3,-3:k");
    let pos = g.start();
    let promos: Vec<String> = names(&g, &pos).into_iter().filter(|n| n.starts_with("c6")).collect();
    assert_eq!(promos, ["c6=B", "c6=N", "c6=R"]);
    let mv = g.parse_move(&pos, "c5c6=N").unwrap();
    assert_eq!(mv.promotion, Some(Kind::Knight));
    let after = g.play(&pos, mv);
    assert_eq!(
        after.cells[cell("c6")],
        Some(Piece {
            owner: Player::One,
            kind: Kind::Knight
        })
    );
    let err = g.parse_move(&pos, "c6=Q").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
    assert!(err.to_string().contains("no queen"), "{err}");
    // Three promotions share a from-to pair: the promotion tells them apart.
    let err = g.parse_move(&pos, "c5c6").unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 'c5c6': ambiguous: it could be c6=R, c6=B or c6=N (name the promotion, e.g. =N)"
    );
}

#[test]
fn the_draws() {
    // Bare kings.
    let g = custom("0,3:K,0,-3:k");
    assert_eq!(g.outcome(&g.start()), Outcome::Draw);
    // Stalemate: the knight's move to c1 takes a2 from Black's king on a1,
    // which is not in check and has no move: a draw.
    let g = custom("-3,3:k,-2,-1:R,-1,1:K,0,0:N");
    let pos = g.start();
    let stale = g.try_play(&pos, "d4c1").unwrap();
    assert!(!g.in_check(&stale, Player::Two));
    assert_eq!(g.outcome(&stale), Outcome::Draw);
    // Threefold repetition: kings and rooks shuffle back and forth.
    let g = custom("0,3:K,0,-3:k,-3,3:R,3,-3:r");
    let mut pos = g.start();
    let shuffle = ["Kc1", "Ke6", "Kd1", "Kd7"];
    let mut plies = 0;
    'outer: for _ in 0..3 {
        for m in shuffle {
            pos = g.try_play(&pos, m).unwrap_or_else(|e| panic!("{e}"));
            plies += 1;
            if g.outcome(&pos) == Outcome::Draw {
                break 'outer;
            }
        }
    }
    assert_eq!(g.outcome(&pos), Outcome::Draw);
    assert_eq!(plies, 8, "the start position's third appearance");
    // The fifty-move rule: 100 plies without a capture or pawn move.
    let text = g.position_string(&g.start());
    let fields: Vec<&str> = text.split(' ').collect();
    // No earlier position to repeat, so no hashes: board, side, plies.
    assert_eq!(fields.len(), 3, "{text}");
    assert_eq!(fields[1..], ["w", "0"]);
    // A king move keeps the history (two positions now), but the string a
    // person reads is still board, side and plies; read back, it is the same
    // board with a fresh history.
    let after = g.try_play(&g.start(), "Kc1").unwrap();
    let text = g.position_string(&after);
    let read: Vec<&str> = text.split(' ').collect();
    assert_eq!(read[1..], ["b", "1"], "{text}");
    let back = g.parse_position(&text).unwrap();
    assert_eq!(g.position_string(&back), text);
    assert_eq!(g.box_key(&back), g.box_key(&after));
    assert_eq!(g.moves(&back), g.moves(&after));
    // The history (the start, then this) stays with the game played.
    assert_ne!(back, after, "the history is the game's, not the string's");
    let late = g.parse_position(&format!("{} {} 100", fields[0], fields[1])).unwrap();
    assert_eq!(g.outcome(&late), Outcome::Draw);
    let early = g.parse_position(&format!("{} {} 99", fields[0], fields[1])).unwrap();
    assert_eq!(g.outcome(&early), Outcome::Ongoing);
}

#[test]
fn custom_setups_are_checked() {
    for (setup, needle) in [
        ("0,3:K", "Black needs exactly one king"),
        ("0,3:K,0,-3:k,0,-3:r", "has two pieces"),
        ("0,3:K,0,-3:k,4,0:R", "off the board"),
        ("0,3:K,0,-3:k,0,-3:P", "has two pieces"),
        ("0,3:K,0,-2:k,-1,-2:P", "would already have promoted"),
        ("0,3:K,0,-3:Z", "not one of"),
    ] {
        let err = parse_spec(&format!("minihexchess,setup={setup}"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(needle), "{setup}: {err}");
    }
}

#[test]
fn notation() {
    let g = game();
    let start = g.start();
    let d4 = g.parse_move(&start, "d4").unwrap();
    assert_eq!(g.parse_move(&start, "d3d4").unwrap(), d4);
    assert_eq!(g.parse_move(&start, "d3-d4").unwrap(), d4);
    assert_eq!(
        names(&g, &start),
        ["Na2", "Nb3+", "Nd4", "Ne3+", "b2", "c3", "d4", "e3", "f2"]
    );
    let err = g.parse_move(&start, "Kd3").unwrap_err().to_string();
    assert!(err.contains("'Kd3'") && err.contains("legal moves"), "{err}");
}

#[test]
fn two_rooks_on_one_file_are_told_apart_by_their_cells() {
    // Rooks on a1 and a4 both reach a2 and a3 along the a-file; neither
    // attacks Black's king on f5, but from a2 = (-3,2) a rook would, along
    // (1,-1) through (-2,1), (-1,0), (0,-1), (1,-2) (worked out by hand).
    let g = custom("-3,3:R,-3,0:R,3,0:K,2,-3:k");
    let pos = g.start();
    let named = names(&g, &pos);
    for n in ["Ra1a2+", "Ra4a2+", "Ra1a3", "Ra4a3"] {
        assert!(named.contains(&n.to_string()), "{n} in {named:?}");
    }
    let a1a2 = g.parse_move(&pos, "a1a2").unwrap();
    assert_eq!(g.parse_move(&pos, "Ra1a2").unwrap(), a1a2);
    // A rank alone tells them apart too, when read.
    assert_eq!(g.parse_move(&pos, "R1a2").unwrap(), a1a2);
    let err = g.parse_move(&pos, "Ra2").unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 'Ra2': ambiguous: it could be Ra1a2+ or Ra4a2+ (name the starting file or rank too)"
    );
    let err = g.parse_move(&pos, "Rza2").unwrap_err();
    assert!(matches!(err, MoveError::Unreadable { .. }), "{err}");
    assert!(err.to_string().contains("expected a move like"), "{err}");
}

#[test]
fn mcts_1000_beats_random() {
    use menace::search::mcts::Mcts;
    use rand::{Rng, SeedableRng};
    let g = game();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    let games = 4;
    let mut wins = 0;
    for k in 0..games {
        let side = if k % 2 == 0 { Player::One } else { Player::Two };
        let mut search = Mcts::new(g.clone(), 1000, 1.4);
        let mut pos = g.start();
        while g.outcome(&pos) == Outcome::Ongoing {
            let mv = if g.turn(&pos) == side {
                search.choose(&pos, &mut rng)
            } else {
                let moves = g.moves(&pos);
                moves[rng.random_range(0..moves.len())]
            };
            pos = g.play(&pos, mv);
        }
        if g.outcome(&pos) == Outcome::Win(side) {
            wins += 1;
        }
    }
    assert!(wins >= games - 1, "{wins} of {games}");
}

#[test]
fn two_move_orders_reaching_the_same_board_share_one_box() {
    use menace::machine::settings::{BoxMode, MachineSettings};
    use menace::machine::Machine;
    use rand::SeedableRng;
    let g = game();
    let start = g.start();
    // Knights out and back: the start board again, with White to move, but a
    // position value that differs (its repetition history has grown).
    let mut again = None;
    'search: for a in g.moves(&start) {
        let p1 = g.play(&start, a);
        for b in g.moves(&p1) {
            let p2 = g.play(&p1, b);
            for c in g.moves(&p2) {
                let p3 = g.play(&p2, c);
                for d in g.moves(&p3) {
                    let p4 = g.play(&p3, d);
                    if p4.cells == start.cells && p4.turn == start.turn {
                        again = Some(p4);
                        break 'search;
                    }
                }
            }
        }
    }
    let again = again.expect("a 4-ply return to the start board");
    assert_ne!(again, start, "the history differs");
    let settings = MachineSettings {
        box_mode: BoxMode::FirstVisit,
        ..MachineSettings::michie()
    };
    let mut m = Machine::new(g.clone(), Player::One, settings).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    m.choose(&start, 1, &mut rng);
    m.choose(&again, 3, &mut rng);
    assert_eq!(m.boxes().len(), 1, "one box for one board");
    // The key is the packed board (37 cells, four bits each) and the side to
    // move: no history, nothing like the position's 101 words.
    assert_eq!(std::mem::size_of::<<MiniHexchess as Boxes>::BoxKey>(), 19 + 1);
    assert_eq!(m.boxes().get(0).position(&g), start);
    assert_eq!(m.box_for(&start).map(|b| b.0), m.box_for(&again).map(|b| b.0));
}
