//! The parts a game is made of: its rules, notation, symmetry, matchbox
//! keys and its description for people (the limits of search on it are in
//! [`super::limits`]).

use std::fmt;
use std::hash::Hash;

use super::error::{MoveError, PositionError};
use super::players::{Outcome, Player};
use crate::symmetry::Symmetry;

/// A two-player game with perfect information: its rules. The other parts
/// of a game are its notation ([`Notation`]), its board's symmetry
/// ([`Symmetric`]), its matchbox keys ([`Boxes`]), its description for
/// people ([`About`]) and the limits of exhaustive search on it
/// ([`crate::search::SearchLimits`]); a type with all six is a [`Game`](crate::Game).
///
/// `legal_moves` fills a caller-owned buffer, so the hot path (legal moves,
/// play, outcome) does not allocate per move once the buffer has grown.
pub trait Rules: Clone + Send + Sync + 'static {
    /// Everything that decides the legal moves and the result from here on.
    type Position: Clone + Eq + Ord + Hash + fmt::Debug + Send + Sync;
    /// A small value naming one move in one position.
    type Move: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync;

    /// The game spec string that makes this game again (e.g. `hexapawn:4x4`).
    fn spec(&self) -> String;

    /// The name of a player in this game (`White`, `X`, `Red`, ...).
    fn player_name(&self, player: Player) -> &'static str;

    /// The starting position.
    fn start(&self) -> Self::Position;

    /// Whose turn it is.
    fn turn(&self, pos: &Self::Position) -> Player;

    /// Fill `out` with the legal moves (cleared first); empty once the game is over.
    fn legal_moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// The position after a legal move. Behaviour for an illegal move is
    /// unspecified (but memory-safe); use [`Game::try_play`](super::Game::try_play) on user input.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// Whether the game is over, and how.
    fn outcome(&self, pos: &Self::Position) -> Outcome;

    /// The possible starting positions with their probabilities, where the
    /// start depends on each game's seed (Hex: who places first). One start
    /// by default.
    fn starts(&self) -> Vec<(Self::Position, f64)> {
        vec![(self.start(), 1.0)]
    }

    /// The start of a game with this seed (the default ignores the seed).
    fn seeded_start(&self, seed: u64) -> Self::Position {
        let _ = seed;
        self.start()
    }

    /// The position as a number of at most 64 bits, different for every
    /// position of this game, where this game's positions all fit (the
    /// default: none do). The compiled table then finds positions by the
    /// number alone, without comparing whole positions.
    fn pack(&self, pos: &Self::Position) -> Option<u64> {
        let _ = pos;
        None
    }
}

/// How people write a game's moves and positions, and see its board.
pub trait Notation: Rules {
    /// A move in the game's notation (as a player would write it).
    fn move_name(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// Read a move in any notation the game accepts; it must be legal in `pos`.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, MoveError>;

    /// A compact one-line string for people that [`Notation::parse_position`]
    /// reads back: the same board, side and counts (a history the rules
    /// keep for repetition, as Mini Hexchess's, stays with the game played,
    /// not in the string; read back, it starts afresh).
    fn position_string(&self, pos: &Self::Position) -> String;

    /// Read a position string.
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError>;

    /// A text diagram of the board for people.
    fn diagram(&self, pos: &Self::Position) -> String;

    /// A diagram that also marks the last move, where the game can.
    fn diagram_after(&self, pos: &Self::Position, last: Option<Self::Move>) -> String {
        let _ = last;
        self.diagram(pos)
    }
}

/// The symmetries of a game's board: elements of a group that map
/// positions onto positions and moves onto moves, commuting with play.
pub trait Symmetric: Rules {
    /// The group ([`Unit`](crate::symmetry::Unit) where the board has none).
    type Symmetry: Symmetry;

    /// The image of a position under `sym`.
    fn map_position(&self, pos: &Self::Position, sym: Self::Symmetry) -> Self::Position;

    /// The image of a move under `sym`.
    fn map_move(&self, mv: Self::Move, sym: Self::Symmetry) -> Self::Move;
}

/// The matchbox a position belongs to.
pub trait Boxes: Rules {
    /// The key of a matchbox: the board and side to move (packed, where the
    /// position is large), without the history a position carries for its
    /// rules (repetition, move clocks), so that a box belongs to a board and
    /// a side to move however reached. A game whose positions carry no
    /// history uses the position itself.
    type BoxKey: Clone + Eq + Ord + Hash + fmt::Debug + Send + Sync;

    /// The key of the matchbox for a position (see [`Boxes::BoxKey`]).
    fn box_key(&self, pos: &Self::Position) -> Self::BoxKey;

    /// The position a box stands for: the board and side to move of `key`
    /// with no history (a fresh repetition record and move clock). It has
    /// the legal moves of every position with that key, and its key is `key`.
    fn key_position(&self, key: &Self::BoxKey) -> Self::Position;
}

/// What a game is, in words for people: its title, its rules, where it
/// comes from, and the few facts front ends word differently by game. The
/// page's rules panel, the printed labels' instructions and chart titles ask
/// the game; none of them knows a game by its name, and each game says what
/// its own options (a pawn type, the swap) change.
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::{Hexapawn, TicTacToe};
/// let her = Hexapawn::new(3, 3).unwrap();
/// assert!(!her.can_draw());
/// assert_eq!(her.short_name(), "3x3");
/// assert!(TicTacToe.can_draw());
/// assert!(TicTacToe.rules().iter().any(|r| r.contains("draw")));
/// ```
pub trait About: Rules {
    /// Its name for people, with what sets this instance apart (`Hexapawn`,
    /// `Hexapawn on 4×4 with Berolina pawns`, `Hex on 5×5`).
    fn title(&self) -> String;

    /// The rules in a few short paragraphs, each a sentence or three: the
    /// board and pieces, how they move, how a game is won, whether it can be
    /// drawn, any special rule (the swap), and who moves first.
    fn rules(&self) -> Vec<String>;

    /// Where the game comes from, in a sentence.
    fn history(&self) -> String;

    /// Whether a game can end in a draw (the shared rule suite checks that
    /// one that says it cannot never does).
    fn can_draw(&self) -> bool;

    /// A short name on a chart that compares games (`3x3`, `hex:3`,
    /// `tictactoe`): the size, and only the options that change the rules.
    fn short_name(&self) -> String;

    /// How a board looks under its symmetries, in a person's words
    /// (`mirrored left for right`), for the instructions of a machine whose
    /// boxes merge them; `None` for a board with no symmetry.
    fn symmetry_words(&self) -> Option<&'static str>;

    /// The historical matchbox machine that learned exactly this game, in a
    /// sentence, where there is one (Gardner's HER for 3×3 Hexapawn, Michie's
    /// MENACE for noughts and crosses).
    fn machine_history(&self) -> Option<&'static str> {
        None
    }
}
