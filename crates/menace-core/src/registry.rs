//! The one place that knows games by name: one table of game types, from
//! which come the [`AnyGame`] enum, spec parsing and the
//! [`with_game!`](crate::with_game) dispatch.
//!
//! Adding a game is its file(s) plus one line in the table at the bottom of
//! this file; the shared rule suite (tests/library/rules.rs) then runs on each of its
//! [`GameSpec::EXAMPLES`] without further edits.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::error::InvalidValue;
use crate::game::{GameSpec, Outcome, Player};
use crate::games::chessapawn::Chessapawn;
use crate::games::hex::Hex;
use crate::games::hexapawn::Hexapawn;
use crate::games::minihexchess::MiniHexchess;
use crate::games::tictactoe::TicTacToe;
use crate::machine::settings::{BoxMode, MachineSettings};
use crate::search::solver::winner;

/// The game a new machine plays when no game is asked for: Gardner's
/// Hexapawn, with HER.
pub const DEFAULT_SPEC: &str = "hexapawn";

/// A game spec string that names no game the program has, or names one badly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game spec '{}': {problem}", crate::error::shown(spec))]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// The part that was wrong (the name, the size, an option) and what was expected.
    pub problem: InvalidValue,
}

/// The parts of a spec: the lower-case name, the size after `:`, and the
/// options after the first `,` (their case kept: a custom setup's piece
/// letters need it).
pub fn split_spec(spec: &str) -> (String, Option<String>, Option<&str>) {
    let trimmed = spec.trim();
    let (head, options) = match trimmed.split_once(',') {
        Some((h, o)) => (h, Some(o)),
        None => (trimmed, None),
    };
    let head = head.to_ascii_lowercase();
    match head.split_once(':') {
        Some((n, s)) => (n.to_string(), Some(s.to_string()), options),
        None => (head, None, options),
    }
}

/// Make a registry from one table of game types: an enum with a variant per
/// game, spec parsing, the spec forms and examples, the facts every front
/// end asks of a game whatever its type (its sides, historical machine and
/// description), and a macro that runs generic code
/// on the game inside. `in M` names the module (or crate) that holds the
/// enum, as the macro's users reach it.
///
/// The library's own table is at the bottom of this file. A test can build
/// a registry of its own (with a toy game) the same way:
///
/// ```
/// use menace_core::prelude::*;
/// mod small {
///     use menace_core::{Hexapawn, TicTacToe};
///     menace_core::game_table! {
///         $ enum Small, macro with_small, in small;
///         Hexapawn(Hexapawn),
///         TicTacToe(TicTacToe),
///     }
///     pub(crate) use with_small;
/// }
/// use menace_core::Game;
/// use small::{with_small, Small};
/// let game = Small::parse("hexapawn:4x4").unwrap();
/// assert_eq!(with_small!(game, g => g.moves(&g.start()).len()), 4);
/// assert!(Small::examples().contains(&"tictactoe"));
/// assert!(Small::parse("hex:5").is_err());
/// ```
#[macro_export]
macro_rules! game_table {
    (
        $d:tt $(#[$attr:meta])* enum $any:ident, macro $with:ident, in $root:ident;
        $( $variant:ident($ty:ty) ),+ $(,)?
    ) => {
        /// Any game of the table, chosen by a spec string.
        #[derive(Clone, Debug)]
        pub enum $any {
            $(
                #[doc = concat!("A game of type `", stringify!($ty), "`.")]
                $variant($ty),
            )+
        }

        /// Run a generic expression on the game inside (`g` is the game by value).
        $(#[$attr])*
        macro_rules! $with {
            ($d any_game:expr, $d g:ident => $d body:expr) => {
                match $d any_game {
                    $( $root::$any::$variant($d g) => $d body, )+
                }
            };
        }

        impl $any {
            /// Read a game spec string (`hexapawn:4x4`, `hex:5,swap=off`).
            pub fn parse(spec: &str) -> Result<$any, $crate::registry::SpecError> {
                let err = |problem: $crate::error::InvalidValue| $crate::registry::SpecError {
                    spec: spec.to_string(),
                    problem,
                };
                let (name, size, options) = $crate::registry::split_spec(spec);
                $(
                    if <$ty as $crate::game::GameSpec>::NAMES.contains(&name.as_str()) {
                        return <$ty as $crate::game::GameSpec>::from_spec(&name, size.as_deref(), options)
                            .map($any::$variant)
                            .map_err(err);
                    }
                )+
                Err(err($crate::error::InvalidValue::new(
                    "unknown game",
                    name,
                    format!("expected one of {}", $any::forms()),
                )))
            }

            /// The spec forms the table accepts, for help and errors.
            pub fn forms() -> String {
                [$( <$ty as $crate::game::GameSpec>::FORMS ),+].join(", ")
            }

            /// Spec strings of small instances of every game in the table.
            pub fn examples() -> Vec<&'static str> {
                let mut all = Vec::new();
                $( all.extend_from_slice(<$ty as $crate::game::GameSpec>::EXAMPLES); )+
                all
            }

            /// The spec string that makes this game again.
            pub fn spec(&self) -> String {
                match self { $( $any::$variant(g) => $crate::game::Rules::spec(g), )+ }
            }

            /// The name of a player in this game (`White`, `X`, `Red`, ...).
            pub fn player_name(&self, player: $crate::game::Player) -> &'static str {
                match self { $( $any::$variant(g) => $crate::game::Rules::player_name(g, player), )+ }
            }

            /// Read a side in this game's words, or `first`/`second`.
            pub fn parse_player(&self, text: &str) -> Result<$crate::game::Player, $crate::error::InvalidValue> {
                match self { $( $any::$variant(g) => $crate::game::Game::parse_player(g, text), )+ }
            }

            /// The side a machine plays unless told otherwise: the side that
            /// wins with best play where the game asks for it
            /// ([`GameSpec::SIDE_WINS`](crate::game::GameSpec::SIDE_WINS)) and
            /// the solver settles it within a small limit; else the side its
            /// historical machine played.
            pub fn machine_side(&self) -> $crate::game::Player {
                match self {
                    $( $any::$variant(g) => $crate::registry::winning_or_historical_side(g), )+
                }
            }

            /// What its historical machine is called.
            pub fn machine_name(&self) -> &'static str {
                match self { $( $any::$variant(g) => $crate::game::GameSpec::machine_name(g), )+ }
            }

            /// The preset of its historical machine.
            pub fn machine_preset(&self) -> $crate::game::MachinePreset {
                match self { $( $any::$variant(g) => $crate::game::GameSpec::machine_preset(g), )+ }
            }

            /// Its name for people ([`About::title`](crate::game::About::title)).
            pub fn title(&self) -> String {
                match self { $( $any::$variant(g) => $crate::game::About::title(g), )+ }
            }

            /// Its rules in a few paragraphs ([`About::rules`](crate::game::About::rules)).
            pub fn rules(&self) -> Vec<String> {
                match self { $( $any::$variant(g) => $crate::game::About::rules(g), )+ }
            }

            /// Whether a game can end in a draw.
            pub fn can_draw(&self) -> bool {
                match self { $( $any::$variant(g) => $crate::game::About::can_draw(g), )+ }
            }

            /// Its name on a chart comparing games (`3x3`, `hex:3`).
            pub fn short_name(&self) -> String {
                match self { $( $any::$variant(g) => $crate::game::About::short_name(g), )+ }
            }

            /// True for games far too large for exhaustive search.
            pub fn too_large_for_exhaustive_search(&self) -> bool {
                match self { $( $any::$variant(g) => $crate::search::SearchLimits::too_large_for_exhaustive_search(g), )+ }
            }
        }
    };
}

/// The positions the solver may store to find a default side (a moment's work).
const SIDE_SOLVE_LIMIT: usize = 200_000;

/// The most games whose default side [`winning_or_historical_side`] keeps.
const SIDES_KEPT: usize = 256;

/// Default sides found by the solver, by game spec: worked out once, not on
/// every call (the classroom page asks on every `GET /api/games`).
static SIDES: Mutex<BTreeMap<String, Player>> = Mutex::new(BTreeMap::new());

/// See [`AnyGame::machine_side`].
pub fn winning_or_historical_side<G: GameSpec>(game: &G) -> Player {
    if !G::SIDE_WINS || game.too_large_for_exhaustive_search() {
        return game.machine_side();
    }
    let spec = game.spec();
    // A panic elsewhere while holding the lock leaves the map as it was: still usable.
    if let Some(&side) = SIDES.lock().unwrap_or_else(|e| e.into_inner()).get(&spec) {
        return side;
    }
    let side = match winner(game, &game.start(), SIDE_SOLVE_LIMIT) {
        Ok((Outcome::Win(p), _)) => p,
        _ => game.machine_side(),
    };
    let mut sides = SIDES.lock().unwrap_or_else(|e| e.into_inner());
    if sides.len() < SIDES_KEPT {
        sides.insert(spec, side);
    }
    side
}

/// Read a game spec string: `hexapawn`, `hexapawn:4x4`, `tictactoe`, ...
pub fn parse_spec(spec: &str) -> Result<AnyGame, SpecError> {
    AnyGame::parse(spec)
}

/// The side a machine plays unless told otherwise: the winning side on a
/// Hexapawn board (Black on 3×3, HER's; White on Octopawn), X for noughts and
/// crosses (MENACE's), the first player elsewhere.
pub fn default_side(game: &AnyGame) -> Player {
    game.machine_side()
}

/// What the machine is called in a game: HER for Hexapawn (Gardner's name),
/// MENACE elsewhere (Michie's).
pub fn machine_name(game: &AnyGame) -> &'static str {
    game.machine_name()
}

/// The settings of a game's historical machine (Gardner's for Hexapawn,
/// Michie's elsewhere), its boxes opened on first visit where the game is
/// far too large to enumerate them.
pub fn default_settings(game: &AnyGame) -> MachineSettings {
    let mut settings = MachineSettings::of_preset(game.machine_preset());
    if game.too_large_for_exhaustive_search() {
        settings.box_mode = BoxMode::FirstVisit;
    }
    settings
}

// The one table of games: a line a game.
game_table! {
    $
    /// `with_game!(any, g => body)`: run a generic expression on the game
    /// inside an [`AnyGame`] (`g` is the game by value).
    ///
    /// ```
    /// use menace_core::prelude::*;
    /// use menace_core::{with_game, parse_spec};
    /// let any = parse_spec("hexapawn:4x4").unwrap();
    /// let spec = with_game!(any, g => g.spec());
    /// assert_eq!(spec, "hexapawn:4x4");
    /// ```
    #[macro_export]
    enum AnyGame, macro with_game, in menace_core;
    Hexapawn(Hexapawn),
    TicTacToe(TicTacToe),
    Hex(Hex),
    Chessapawn(Chessapawn),
    MiniHexchess(MiniHexchess),
}

impl AnyGame {
    /// The game, where it has a winner solver of its own that `menace
    /// solve` asks instead of the exhaustive search (who wins each opening,
    /// or a position, within a budget of time or positions): Hex's.
    pub fn own_solver(&self) -> Option<&Hex> {
        match self {
            AnyGame::Hex(hex) => Some(hex),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_side_is_solved_once_and_kept() {
        let octopawn = Hexapawn::new(4, 4).unwrap();
        let kept = || SIDES.lock().unwrap().get(&crate::game::Rules::spec(&octopawn)).copied();
        // White wins octopawn; Black (HER's side) wins 3×3.
        assert_eq!(winning_or_historical_side(&octopawn), Player::One);
        assert_eq!(kept(), Some(Player::One));
        assert_eq!(winning_or_historical_side(&octopawn), Player::One);
        assert_eq!(winning_or_historical_side(&Hexapawn::new(3, 3).unwrap()), Player::Two);
        // Games that need no solver are not kept.
        assert_eq!(winning_or_historical_side(&TicTacToe), Player::One);
        assert!(!SIDES.lock().unwrap().contains_key("tictactoe"));
    }
}
