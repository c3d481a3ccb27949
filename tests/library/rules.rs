//! The shared rule suite on every game in the registry's table, and on a
//! registry built the same way with a toy game: a game added to a table is
//! checked without any edit here.

use crate::common;

use common::toy::Subtraction;
use menace::{with_game, AnyGame, Hexapawn};

#[test]
fn every_game_in_the_table_passes_the_shared_rules() {
    let examples = AnyGame::examples();
    // Each game contributes its own examples (five games today).
    for name in ["hexapawn", "tictactoe", "hex:", "chessapawn", "minihexchess"] {
        assert!(examples.iter().any(|e| e.starts_with(name)), "no example of {name}");
    }
    for spec in examples {
        let game = AnyGame::parse(spec).unwrap_or_else(|e| panic!("example {spec}: {e}"));
        assert_eq!(
            game.spec(),
            AnyGame::parse(&game.spec()).unwrap().spec(),
            "{spec}: spec round trip"
        );
        with_game!(game, g => common::rules::check_game(&g, 20_000, 40));
    }
}

mod toys {
    use super::{Hexapawn, Subtraction};
    menace::game_table! {
        $ enum ToyGames, macro with_toy, in toys;
        Subtraction(Subtraction),
        Hexapawn(Hexapawn),
    }
    #[allow(clippy::single_component_path_imports)] // makes the macro reachable as toys::with_toy
    pub(crate) use with_toy;
}

#[test]
fn a_toy_game_added_with_one_line_gets_parsing_and_the_rule_suite() {
    use toys::{with_toy, ToyGames};
    assert_eq!(
        ToyGames::examples(),
        [
            "subtraction:1",
            "subtraction:7",
            "hexapawn",
            "octopawn",
            "hexapawn:3x4",
            "hexapawn,pawn=berolina",
            "hexapawn:4x4,pawn=berolina-plus"
        ]
    );
    assert!(matches!(
        ToyGames::parse("subtraction:9"),
        Ok(ToyGames::Subtraction(Subtraction { pile: 9 }))
    ));
    let err = ToyGames::parse("tictactoe").unwrap_err().to_string();
    assert!(
        err.contains("unknown game 'tictactoe'") && err.contains("subtraction:N"),
        "{err}"
    );
    let mut checked = 0;
    for spec in ToyGames::examples() {
        with_toy!(ToyGames::parse(spec).unwrap(), g => common::rules::check_game(&g, 1_000, 10));
        checked += 1;
    }
    assert_eq!(checked, 7);
}

#[test]
fn a_position_error_says_what_kind_of_thing_is_wrong() {
    use menace::prelude::*;
    use menace::PositionErrorKind as Kind;
    // The start of Mini Hexchess as it writes it, with a clock or history that cannot be.
    let mini = with_game!(AnyGame::parse("minihexchess").unwrap(), g => g.position_string(&g.start()));
    let mini = mini.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    let (clock, history) = (format!("{mini} 101"), format!("{mini} 0 zz"));
    // The game, the text, its kind of error and words of the message.
    #[rustfmt::skip]
    let cases = [
        ("hexapawn", "ppp w b extra", Kind::Form, "expected 3 ranks of 3 cells"),
        ("hexapawn", "ppp/3/PPP x", Kind::SideToMove, "side to move 'x' is not 'w' or 'b'"),
        ("hexapawn", "ppp/3 w", Kind::RowCount, "found 2 ranks"),
        ("hexapawn", "ppp/3/PP w", Kind::RowLength, "rank 1 has 2 cells, not 3"),
        ("hexapawn", "ppp/3/PPQ w", Kind::UnknownPiece, "unexpected character 'Q' in rank 1"),
        ("tictactoe", "x", Kind::Form, "expected three rows"),
        ("tictactoe", "xx./.o./... q", Kind::SideToMove, "the side to move must be 'x' or 'o'"),
        ("tictactoe", "xx./.o. x", Kind::RowCount, "expected three rows"),
        ("tictactoe", "xx./.o./.. x", Kind::RowLength, "expected three rows"),
        ("tictactoe", "xx./.o./..z x", Kind::UnknownPiece, "expected three rows"),
        ("hex:3", "3/3/3 g", Kind::SideToMove, "side to move 'g' is not 'r' or 'b'"),
        ("hex:3", "3/3/rrrr r", Kind::RowLength, "rank 1 is longer than 3 cells"),
        ("hex:3", "3/3/2q r", Kind::UnknownPiece, "unexpected character 'q' in rank 1"),
        ("chessapawn", "8/8 w -", Kind::RowCount, "found 2 ranks"),
        ("chessapawn", "8/8/8/8/8/8/8/7x w -", Kind::UnknownPiece, "unexpected character 'x'"),
        ("chessapawn", "8/8/8/8/8/8/8/8 x -", Kind::SideToMove, "'x'"),
        ("chessapawn", "8/8/8/8/8/8/8/8 w e4", Kind::EnPassant, "en passant square 'e4'"),
        ("minihexchess", clock.as_str(), Kind::Clock, "expected 0 to 100"),
        ("minihexchess", history.as_str(), Kind::History, "history 'zz'"),
    ];
    for (spec, text, kind, words) in cases {
        let err = with_game!(AnyGame::parse(spec).unwrap(), g => g.parse_position(text).map(|_| ()))
            .expect_err(&format!("{spec} '{text}' is no position"));
        assert_eq!(err.kind, kind, "{spec} '{text}': {err}");
        assert!(err.reason.contains(words), "{spec} '{text}': {err}");
        assert_eq!(err.to_string(), format!("position '{text}': {}", err.reason));
    }
}

/// Each game's words follow its own options, as worked out from the
/// options by hand: the pawn type, the swap, who places first, the board.
#[test]
fn a_games_words_follow_its_options() {
    let game = |spec: &str| AnyGame::parse(spec).unwrap();
    let rules = |spec: &str| game(spec).rules().join(" ");
    assert_eq!(game("hexapawn").title(), "Hexapawn");
    assert_eq!(game("octopawn").title(), "Hexapawn on 4×4");
    assert_eq!(
        game("hexapawn:4x4,pawn=berolina-plus").title(),
        "Hexapawn on 4×4 with Berolina Plus pawns"
    );
    assert!(rules("hexapawn").contains("White's three pawns start on the bottom rank"));
    assert!(rules("hexapawn").contains("captures an enemy pawn one square diagonally forward"));
    assert!(rules("hexapawn,pawn=berolina").contains("A Berolina pawn steps one square diagonally forward"));
    assert!(!rules("hexapawn,pawn=berolina").contains("Berolina Plus"));
    assert!(rules("hexapawn:4x4,pawn=berolina-plus").contains("may also capture one square sideways"));
    assert!(rules("hexapawn:5x4").contains("A board of 5 files and 4 ranks. White's five pawns"));
    for spec in ["hexapawn", "hex:5", "chessapawn"] {
        assert!(!game(spec).can_draw(), "{spec}");
    }
    for spec in ["tictactoe", "minihexchess"] {
        assert!(game(spec).can_draw(), "{spec}");
    }
    assert!(rules("hex:5").contains("The swap"));
    assert!(!rules("hex:5,swap=off").contains("swap"));
    assert!(rules("hex:5").contains("decided by the game's seed"));
    assert!(rules("hex:4,first=blue").contains("Blue places first."));
    assert_eq!(game("hex:4,swap=off,first=red").short_name(), "hex:4");
    assert_eq!(game("hexapawn:4x4,pawn=berolina").short_name(), "4x4,pawn=berolina");
}
