//! One rule suite that every game runs: each game's test file calls
//! [`check_game`] (and adds its own known facts).

use std::collections::HashSet;

use menace::error::shown;
use menace::prelude::*;
use menace::{MoveError, Outcome};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Visit positions: every reachable one when there are at most `exhaustive`
/// of them, otherwise those met in `playouts` seeded random games.
pub fn sample_positions<G: Game>(game: &G, exhaustive: usize, playouts: usize) -> Vec<G::Position> {
    let mut seen = HashSet::new();
    let mut stack = vec![game.start()];
    seen.insert(game.start());
    while let Some(pos) = stack.pop() {
        if seen.len() > exhaustive {
            break;
        }
        for mv in game.moves(&pos) {
            let child = game.play(&pos, mv);
            if seen.insert(child.clone()) {
                stack.push(child);
            }
        }
    }
    if seen.len() <= exhaustive {
        return seen.into_iter().collect();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut out = Vec::new();
    for _ in 0..playouts {
        let mut pos = game.start();
        loop {
            out.push(pos.clone());
            let moves = game.moves(&pos);
            let Some(&mv) = moves.choose(&mut rng) else { break };
            pos = game.play(&pos, mv);
        }
    }
    out
}

/// The position string `text` of `pos` reads back: as `pos`, or (Mini
/// Hexchess, whose positions keep the repetition history, which the string a
/// person reads leaves to the game played) as a position with a fresh
/// history that reads the same and has the same box.
pub fn assert_reads_back<G: Game>(game: &G, pos: &G::Position, text: &str, back: &G::Position) {
    if game.spec().starts_with("minihexchess") {
        assert_eq!(
            game.position_string(back),
            text,
            "{}: '{text}' reads back as another string",
            game.spec()
        );
        assert_eq!(
            game.box_key(back),
            game.box_key(pos),
            "{}: '{text}' reads back as another box",
            game.spec()
        );
    } else {
        assert_eq!(back, pos, "{}: '{text}' reads back as another position", game.spec());
    }
}

/// One random game from the start of game `seed`, its moves drawn by a
/// generator seeded with `seed`: at every ply the position string reads back
/// as the position, and every legal move's name reads back as that move.
/// Returns the number of plies played.
pub fn check_playout_notation<G: Game>(game: &G, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = game.seeded_start(seed);
    for ply in 0.. {
        assert!(ply < 10_000, "{}: game {seed} did not end", game.spec());
        let text = game.position_string(&pos);
        match game.parse_position(&text) {
            Ok(back) => assert_reads_back(game, &pos, &text, &back),
            Err(e) => panic!("{}: game {seed}, ply {ply}: {e}", game.spec()),
        }
        let moves = game.moves(&pos);
        for &mv in &moves {
            let name = game.move_name(&pos, mv);
            match game.parse_move(&pos, &name) {
                Ok(back) => assert_eq!(back, mv, "{}: {text}: '{name}' reads back as another move", game.spec()),
                Err(e) => panic!("{}: game {seed}, {text}: {e}", game.spec()),
            }
        }
        let Some(&mv) = moves.choose(&mut rng) else { return ply };
        pos = game.play(&pos, mv);
    }
    unreachable!()
}

/// The shared rules every game must keep, checked on sampled positions.
pub fn check_game<G: Game>(game: &G, exhaustive: usize, playouts: usize) {
    let positions = sample_positions(game, exhaustive, playouts);
    assert!(!positions.is_empty());
    for pos in &positions {
        check_position(game, pos);
    }
    check_packing(game, &positions);
    check_games_end(game);
    check_description(game, &positions);
    check_garbage_is_refused(game);
    for seed in 0..8 {
        check_playout_notation(game, seed);
    }
}

/// A game that packs its positions into numbers packs all of them, each
/// into its own number (the compiled table finds positions by it).
fn check_packing<G: Game>(game: &G, positions: &[G::Position]) {
    let packs = game.pack(&game.start()).is_some();
    let mut seen = std::collections::HashMap::new();
    for pos in positions {
        let code = game.pack(pos);
        assert_eq!(
            code.is_some(),
            packs,
            "{}: packs some positions but not others",
            game.spec()
        );
        if let Some(code) = code {
            if let Some(other) = seen.insert(code, pos.clone()) {
                assert!(other == *pos, "{}: two positions pack into {code}", game.spec());
            }
        }
    }
}

fn check_position<G: Game>(game: &G, pos: &G::Position) {
    let moves = game.moves(pos);
    let outcome = game.outcome(pos);
    let text = game.position_string(pos);
    // Finished positions have no moves; positions in play have some.
    assert_eq!(
        outcome.is_over(),
        moves.is_empty(),
        "{text}: outcome {outcome:?} with {} moves",
        moves.len()
    );
    // No duplicate moves.
    let unique: HashSet<_> = moves.iter().collect();
    assert_eq!(unique.len(), moves.len(), "{text}: duplicate moves");
    // Position strings round-trip.
    let back = game
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("{text} does not parse back: {e}"));
    assert_reads_back(game, pos, &text, &back);
    // The diagram is not empty and mentions every rank.
    assert!(game.diagram(pos).lines().count() >= 2);
    for &mv in &moves {
        // Notation round-trips, and names a legal move.
        let name = game.move_name(pos, mv);
        let parsed = game
            .parse_move(pos, &name)
            .unwrap_or_else(|e| panic!("{text}: '{name}' does not parse back: {e}"));
        assert_eq!(parsed, mv, "{text}: '{name}' parses to another move");
        // The mover's turn passes (two-player alternation), unless the game ended.
        let child = game.play(pos, mv);
        if game.outcome(&child) == Outcome::Ongoing {
            assert_ne!(
                game.turn(&child),
                game.turn(pos),
                "{text}: {name} does not pass the turn"
            );
        }
    }
    check_box_key(game, pos, &moves);
    check_symmetry(game, pos, &moves);
}

/// A box key keeps the board and side to move: the position it stands for
/// has the same key, the same side to move and the same legal moves, and
/// every image under a symmetry has the key of the canonical image.
fn check_box_key<G: Game>(game: &G, pos: &G::Position, moves: &[G::Move]) {
    let text = game.position_string(pos);
    let key = game.box_key(pos);
    let stands_for = game.key_position(&key);
    assert_eq!(
        game.box_key(&stands_for),
        key,
        "{text}: the key's position has another key"
    );
    assert_eq!(
        game.turn(&stands_for),
        game.turn(pos),
        "{text}: the key changes the side to move"
    );
    if !game.outcome(pos).is_over() {
        let mut theirs = game.moves(&stands_for);
        let mut ours = moves.to_vec();
        theirs.sort();
        ours.sort();
        assert_eq!(theirs, ours, "{text}: the key's position has other legal moves");
    }
    let (canon, _) = game.canonical(pos);
    for &s in G::Symmetry::ALL {
        let (k, sym) = game.canonical_key(&game.map_position(pos, s));
        assert_eq!(k, game.box_key(&canon), "{text}: image {s:?} has another box");
        assert_eq!(game.box_key(&game.map_position(&game.map_position(pos, s), sym)), k);
    }
}

fn check_symmetry<G: Game>(game: &G, pos: &G::Position, moves: &[G::Move]) {
    let text = game.position_string(pos);
    let identity = G::Symmetry::ALL[0];
    assert_eq!(
        &game.map_position(pos, identity),
        pos,
        "the first symmetry must be the identity"
    );
    assert!(identity.is_identity() && G::Symmetry::ALL[1..].iter().all(|s| !s.is_identity()));
    let distinct: HashSet<_> = G::Symmetry::ALL.iter().collect();
    assert_eq!(
        distinct.len(),
        G::Symmetry::ALL.len(),
        "the group lists each element once"
    );
    for &sym in G::Symmetry::ALL {
        let image = game.map_position(pos, sym);
        let inv = sym.inverse();
        assert_eq!(
            &game.map_position(&image, inv),
            pos,
            "{text}: symmetry {sym:?} then its inverse {inv:?}"
        );
        // Outcome and turn are invariant.
        assert_eq!(
            game.outcome(&image),
            game.outcome(pos),
            "{text}: outcome under symmetry {sym:?}"
        );
        assert_eq!(game.turn(&image), game.turn(pos));
        // The moves of the image are the images of the moves.
        let mapped: HashSet<_> = moves.iter().map(|&m| game.map_move(m, sym)).collect();
        let image_moves: HashSet<_> = game.moves(&image).into_iter().collect();
        assert_eq!(mapped, image_moves, "{text}: moves under symmetry {sym:?}");
        // Symmetry commutes with play.
        for &mv in moves {
            let a = game.map_position(&game.play(pos, mv), sym);
            let b = game.play(&image, game.map_move(mv, sym));
            assert_eq!(a, b, "{text}: symmetry {sym:?} does not commute with {mv:?}");
        }
    }
    // The canonical form is the same for every image.
    let (canon, sym) = game.canonical(pos);
    assert_eq!(game.map_position(pos, sym), canon);
    for &s in G::Symmetry::ALL {
        assert_eq!(game.canonical(&game.map_position(pos, s)).0, canon);
    }
}

/// The game describes itself in words, none of them empty; it names how its
/// board looks under its symmetries exactly when it has some; and a game that
/// says it cannot be drawn is drawn in none of the positions visited and in
/// no random game (from the start of games 0 to 99).
fn check_description<G: Game>(game: &G, positions: &[G::Position]) {
    let spec = game.spec();
    assert!(!game.title().trim().is_empty(), "{spec}: no title");
    let rules = game.rules();
    assert!(
        !rules.is_empty() && rules.iter().all(|r| !r.trim().is_empty()),
        "{spec}: rules {rules:?}"
    );
    assert!(!game.history().trim().is_empty(), "{spec}: no history");
    assert!(!game.short_name().trim().is_empty(), "{spec}: no short name");
    assert_eq!(
        game.symmetry_words().is_some_and(|w| !w.trim().is_empty()),
        G::Symmetry::ALL.len() > 1,
        "{spec}: symmetry words {:?} for a group of {}",
        game.symmetry_words(),
        G::Symmetry::ALL.len()
    );
    assert!(
        !game.machine_history().is_some_and(|h| h.trim().is_empty()),
        "{spec}: an empty machine history"
    );
    if game.can_draw() {
        return;
    }
    for pos in positions {
        assert_ne!(
            game.outcome(pos),
            Outcome::Draw,
            "{spec} says it cannot be drawn, but {} is a draw",
            game.position_string(pos)
        );
    }
    for seed in 0..100 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pos = game.seeded_start(seed);
        while let Some(&mv) = game.moves(&pos).choose(&mut rng) {
            pos = game.play(&pos, mv);
        }
        assert_ne!(
            game.outcome(&pos),
            Outcome::Draw,
            "{spec} says it cannot be drawn, but random game {seed} ends drawn at {}",
            game.position_string(&pos)
        );
    }
}

/// Random games end, and the result names a side or a draw consistently.
fn check_games_end<G: Game>(game: &G) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..50 {
        let mut pos = game.start();
        for ply in 0.. {
            assert!(ply < 10_000, "a random game did not end");
            let moves = game.moves(&pos);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            pos = game.play(&pos, mv);
        }
        assert!(game.outcome(&pos).is_over());
        // Moves by text are refused once the game is over, saying so.
        let err = game.parse_move(&pos, "a1").unwrap_err();
        assert!(matches!(err, MoveError::GameOver { .. }), "{err}");
        assert!(err.to_string().contains("the game is over"), "{err}");
    }
}

/// Unreadable input is refused with an error that quotes it, never a panic
/// (multi-byte characters included: no slicing inside one).
fn check_garbage_is_refused<G: Game>(game: &G) {
    let start = game.start();
    let moves = [
        "",
        "zz",
        "a0",
        "??",
        "a1a1a1",
        "-",
        "9999",
        "a99",
        "é",
        "ｂ2",
        "aé2",
        "é2é2",
        "b２",
        "€€€€",
        "a\u{0}1",
        "𝕒𝟙",
    ];
    for text in moves {
        match game.parse_move(&start, text) {
            Err(e) => assert!(e.to_string().contains(&format!("'{}'", shown(text))), "{e}"),
            Ok(m) => panic!("{}: garbage move '{text}' read as {m:?}", game.spec()),
        }
    }
    for text in [
        "",
        "garbage",
        "/ / /",
        "ppp/3/PPP q",
        "x",
        "é/é/é",
        "\u{0}",
        "ｐｐｐ/3/PPP w",
    ] {
        match game.parse_position(text) {
            Err(e) => assert!(e.to_string().contains(&format!("'{}'", shown(text))), "{e}"),
            Ok(p) => panic!("{}: garbage position '{text}' read as {p:?}", game.spec()),
        }
    }
}
