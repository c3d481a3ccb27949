//! Mini Hexchess: the shared rule suite, lone-piece counts by hand, perft
//! against a deliberately simple generator, check, pins, promotion and the
//! draws.

mod common;

use menace::games::minihexchess::{axial, cell_name, HexchessMove, HexchessPosition, Kind, Piece};
use menace::{parse_spec, AnyGame, Game, MiniHexchess, Outcome, Player};

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

const ROOK: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
const BISHOP: [(i32, i32); 6] = [(1, -2), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1)];

fn at(q: i32, r: i32) -> Option<usize> {
    (0..37).find(|&i| axial(i) == (q, r))
}

/// The rules read literally for one pair of cells: can the piece on `from`
/// move to (or capture on) `to`, ignoring whether its own king is left in check?
fn simple_reach(pos: &HexchessPosition, from: usize, to: usize) -> bool {
    let Some(p) = pos.cells[from] else { return false };
    if pos.cells[to].is_some_and(|t| t.owner == p.owner) || from == to {
        return false;
    }
    let (q0, r0) = axial(from);
    let (q1, r1) = axial(to);
    let (dq, dr) = (q1 - q0, r1 - r0);
    let capture = pos.cells[to].is_some();
    let ray = |dirs: &[(i32, i32)]| {
        dirs.iter().any(|&(a, b)| {
            (1..=6).any(|k| {
                (a * k, b * k) == (dq, dr)
                    && (1..k).all(|j| at(q0 + a * j, r0 + b * j).is_some_and(|c| pos.cells[c].is_none()))
            })
        })
    };
    match p.kind {
        Kind::Rook => ray(&ROOK),
        Kind::Bishop => ray(&BISHOP),
        Kind::King => ROOK.contains(&(dq, dr)) || BISHOP.contains(&(dq, dr)),
        Kind::Knight => {
            // One edge step, then one corner step onward: the two corner
            // directions next to the edge direction.
            ROOK.iter().any(|&(a, b)| {
                BISHOP
                    .iter()
                    .any(|&(c, d)| (a + c, b + d) == (dq, dr) && (a * c + b * d + (a + b) * (c + d)) == 3)
            })
        }
        Kind::Pawn => {
            let f = if p.owner == Player::One { -1 } else { 1 };
            if capture {
                let diag = if p.owner == Player::One {
                    [(1, -2), (-1, -1)]
                } else {
                    [(-1, 2), (1, 1)]
                };
                diag.contains(&(dq, dr))
            } else {
                (dq, dr) == (0, f)
            }
        }
    }
}

fn simple_attacked(pos: &HexchessPosition, target: usize, by: Player) -> bool {
    (0..37).any(|i| {
        pos.cells[i].is_some_and(|p| p.owner == by) && {
            // A capture onto the target: pretend an enemy stands there.
            let mut probe = *pos;
            if probe.cells[target].is_none() {
                probe.cells[target] = Some(Piece {
                    owner: by.other(),
                    kind: Kind::Pawn,
                });
            }
            simple_reach(&probe, i, target)
        }
    })
}

fn simple_moves(g: &MiniHexchess, pos: &HexchessPosition) -> Vec<HexchessMove> {
    if g.outcome(pos).is_over() {
        return vec![];
    }
    let me = pos.turn;
    let mut out = vec![];
    for from in 0..37 {
        if pos.cells[from].is_none_or(|p| p.owner != me) {
            continue;
        }
        for to in 0..37 {
            if !simple_reach(pos, from, to) {
                continue;
            }
            let pawn = pos.cells[from].is_some_and(|p| p.kind == Kind::Pawn);
            let (q, r) = axial(to);
            let last = if me == Player::One {
                at(q, r - 1).is_none()
            } else {
                at(q, r + 1).is_none()
            };
            let promotions: Vec<Option<Kind>> = if pawn && last {
                vec![Some(Kind::Rook), Some(Kind::Bishop), Some(Kind::Knight)]
            } else {
                vec![None]
            };
            for promotion in promotions {
                let mv = HexchessMove {
                    from: from as u8,
                    to: to as u8,
                    promotion,
                };
                let next = g.play(pos, mv);
                let king = (0..37).find(|&i| {
                    next.cells[i]
                        == Some(Piece {
                            owner: me,
                            kind: Kind::King,
                        })
                });
                if king.is_some_and(|k| !simple_attacked(&next, k, me.other())) {
                    out.push(mv);
                }
            }
        }
    }
    out.sort();
    out
}

fn perft(g: &MiniHexchess, pos: &HexchessPosition, depth: u32, simple: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = if simple { simple_moves(g, pos) } else { g.moves(pos) };
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft(g, &g.play(pos, m), depth - 1, simple))
        .sum()
}

#[test]
fn perft_matches_the_table_and_the_simple_generator() {
    let g = game();
    let table: Vec<(u32, u64)> = include_str!("data/minihexchess_perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (d, n) = l.split_once(' ').unwrap();
            (d.parse().unwrap(), n.trim().parse().unwrap())
        })
        .collect();
    assert_eq!(table.len(), 4);
    for (depth, expected) in table {
        assert_eq!(perft(&g, &g.start(), depth, false), expected, "depth {depth}");
        assert_eq!(perft(&g, &g.start(), depth, true), expected, "simple, depth {depth}");
    }
}

#[test]
fn generated_moves_match_the_simple_generator_in_random_games() {
    let g = game();
    for pos in common::rules::sample_positions(&g, 0, 60) {
        let mut fast = g.moves(&pos);
        fast.sort();
        assert_eq!(fast, simple_moves(&g, &pos), "{}", g.position_string(&pos));
    }
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
    assert!(g.parse_move(&pos, "c6=Q").unwrap_err().to_string().contains("no queen"));
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
#[ignore = "four MCTS games: over a minute in release mode; CI runs it"]
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
    assert_eq!(m.box_for(&start).map(|b| b.0), m.box_for(&again).map(|b| b.0));
}
