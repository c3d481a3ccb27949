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
