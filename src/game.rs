//! The one abstraction every game implements.

use std::fmt;

use crate::error::InvalidValue;
use std::hash::Hash;

/// One of the two players. Each game names them in its own words
/// (`White`/`Black`, `X`/`O`, `Red`/`Blue`); `One` is the colour named first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Player {
    One,
    Two,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for `One`, 1 for `Two`: an index into per-player arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a position stands: still in play, won by a player, or drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Ongoing,
    Win(Player),
    Draw,
}

impl Outcome {
    /// True once the game is over.
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
}

/// A move text that was refused, and why: the kind of problem, the text as
/// the user gave it, and what a message needs (what was expected, the legal
/// moves, the moves it could mean).
///
/// ```
/// use menace::{Game, Hexapawn, MoveError};
/// let game = Hexapawn::new(3, 3).unwrap();
/// let err = game.parse_move(&game.start(), "b3").unwrap_err();
/// assert!(matches!(err, MoveError::Illegal { .. }));
/// assert_eq!(err.to_string(), "move 'b3': no legal step to that cell; legal moves: a2 b2 c2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is a move in no notation the game reads.
    Unreadable {
        text: String,
        /// What a move looks like (`expected a move like b2, axb2 or a1-b2`).
        expected: String,
    },
    /// The text reads as a move, but no legal one.
    Illegal {
        text: String,
        /// Why not (`no legal step to that cell`).
        why: String,
        /// The legal moves, by name.
        legal: Vec<String>,
    },
    /// The text fits more than one legal move.
    Ambiguous {
        text: String,
        /// What would tell them apart (`name the starting file or rank too`).
        hint: String,
        /// The moves it fits, by name.
        candidates: Vec<String>,
    },
    /// The game is over: no move is legal.
    GameOver { text: String },
}

impl MoveError {
    /// The text as the user gave it.
    pub fn text(&self) -> &str {
        match self {
            MoveError::Unreadable { text, .. }
            | MoveError::Illegal { text, .. }
            | MoveError::Ambiguous { text, .. }
            | MoveError::GameOver { text } => text,
        }
    }

    /// Text that is a move in no notation the game reads.
    pub fn unreadable(text: &str, expected: impl Into<String>) -> MoveError {
        MoveError::Unreadable {
            text: text.to_string(),
            expected: expected.into(),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // What the user typed is escaped; so are the parts a game wrote, which
        // may quote it (the move names listed are kept whole).
        let said = |s: &str| crate::error::shown_to(s, usize::MAX);
        write!(f, "move '{}': ", crate::error::shown(self.text()))?;
        match self {
            MoveError::Unreadable { expected, .. } => f.write_str(&said(expected)),
            MoveError::Illegal { why, legal, .. } if legal.is_empty() => {
                write!(f, "{}; legal moves: none (the game is over)", said(why))
            }
            MoveError::Illegal { why, legal, .. } => write!(f, "{}; legal moves: {}", said(why), legal.join(" ")),
            MoveError::Ambiguous { hint, candidates, .. } => {
                write!(f, "ambiguous: it could be {} ({})", or_list(candidates), said(hint))
            }
            MoveError::GameOver { .. } => f.write_str("the game is over; no move is legal"),
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl std::error::Error for MoveError {}

/// A position string that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub text: String,
    pub reason: String,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = crate::error::shown_to(&self.reason, crate::error::REASON_CHARS);
        write!(f, "position '{}': {reason}", crate::error::shown(&self.text))
    }
}

impl std::error::Error for PositionError {}

/// An exhaustive computation (solving, enumerating boxes, an exact
/// evaluation) would need to store more positions than its limit allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} has too many positions to handle exactly (more than {limit})")]
pub struct TooLarge {
    /// The game's spec string.
    pub game: String,
    /// The limit on stored positions that was reached.
    pub limit: usize,
}

/// A solver of a game's own that decides positions one at a time, keeping
/// what it proved across calls within a bounded memory: the perfect
/// opponent's engine where the whole game cannot be stored.
pub trait PositionSolver<G: Game>: Send {
    /// The moves a perfect player may choose in `pos` (not over): every
    /// winning move when the side to move wins, else moves that resist by
    /// the rule the game states. Never empty.
    fn best_moves(&mut self, pos: &G::Position) -> Vec<G::Move>;
}

/// A two-player game with perfect information, as the matchbox machine, the
/// opponents, the solver, the trainer and the command line all see it.
///
/// An implementor supplies the rules (`start`, `turn`, `legal_moves`, `play`,
/// `outcome`), the notation, and its symmetry group; the rest is provided.
/// How each game maps onto it:
/// - Hexapawn W×H: square board in bitboards; no draws; group {identity, mirror}.
/// - Noughts and crosses: draws on a full board; the 8 symmetries of the square.
/// - Hex N×N: the swap is an ordinary `Move` legal only on the second player's
///   first turn; who places first is part of the game value (decided by its
///   seed); group {identity, 180° rotation}.
/// - Chessapawn: the en passant square lives in the position; no draws; trivial group.
/// - Mini Hexchess: the position carries the fifty-move counter and the history
///   needed for threefold repetition, so `outcome` can see repetition draws;
///   trivial group.
///
/// `legal_moves` fills a caller-owned buffer, so the hot path (legal moves,
/// play, outcome) does not allocate per move once the buffer has grown.
///
/// ```
/// use menace::{Game, Hexapawn, Outcome, Player};
/// let game = Hexapawn::new(3, 3).unwrap();
/// let mut pos = game.start();
/// for m in ["b2", "axb2", "cxb2", "c2", "a2", "c1#"] {
///     pos = game.try_play(&pos, m).unwrap();
/// }
/// assert_eq!(game.outcome(&pos), Outcome::Win(Player::Two));
/// ```
pub trait Game: Clone + Send + Sync + 'static {
    /// Everything that decides the legal moves and the result from here on.
    type Position: Clone + Eq + Ord + Hash + fmt::Debug + Send + Sync;
    /// A small value naming one move in one position.
    type Move: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync;
    /// The key of a matchbox: the board and side to move (packed, where the
    /// position is large), without the history a position carries for its
    /// rules (repetition, move clocks), so that a box belongs to a board and
    /// a side to move however reached. A game whose positions carry no
    /// history uses the position itself.
    type BoxKey: Clone + Eq + Ord + Hash + fmt::Debug + Send + Sync;

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
    /// unspecified (but memory-safe); use [`Game::try_play`] on user input.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// Whether the game is over, and how.
    fn outcome(&self, pos: &Self::Position) -> Outcome;

    /// How many elements the symmetry group has (1 = no symmetry). Element 0
    /// is the identity.
    fn symmetry_count(&self) -> usize {
        1
    }

    /// The image of a position under symmetry `sym`.
    fn map_position(&self, pos: &Self::Position, sym: usize) -> Self::Position {
        debug_assert!(sym < self.symmetry_count());
        pos.clone()
    }

    /// The image of a move under symmetry `sym`.
    fn map_move(&self, mv: Self::Move, sym: usize) -> Self::Move {
        debug_assert!(sym < self.symmetry_count());
        mv
    }

    /// The element that undoes `sym`.
    fn inverse_symmetry(&self, sym: usize) -> usize {
        sym
    }

    /// A move in the game's notation (as a player would write it).
    fn move_name(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// Read a move in any notation the game accepts; it must be legal in `pos`.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, MoveError>;

    /// A compact one-line string that [`Game::parse_position`] reads back.
    fn position_string(&self, pos: &Self::Position) -> String;

    /// Read a position string.
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError>;

    /// A text diagram of the board for people.
    fn diagram(&self, pos: &Self::Position) -> String;

    /// The key of the matchbox for a position (see [`Game::BoxKey`]).
    fn box_key(&self, pos: &Self::Position) -> Self::BoxKey;

    /// The position a box stands for: the board and side to move of `key`
    /// with no history (a fresh repetition record and move clock). It has
    /// the legal moves of every position with that key, and its key is `key`.
    fn key_position(&self, key: &Self::BoxKey) -> Self::Position;

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

    /// A diagram that also marks the last move, where the game can.
    fn diagram_after(&self, pos: &Self::Position, last: Option<Self::Move>) -> String {
        let _ = last;
        self.diagram(pos)
    }

    /// A dedicated solver's answer to who wins each of `positions` (solved
    /// together, sharing what they learn), for games that have one (`None`:
    /// use the generic solver).
    fn winner_oracle(&self, positions: &[Self::Position], limit: usize) -> Option<Result<Vec<Outcome>, TooLarge>> {
        let _ = (positions, limit);
        None
    }

    /// True for games far too large for exhaustive search (a chess board):
    /// the solver and exact evaluations give up at once instead of filling
    /// memory first.
    fn too_large_for_exhaustive_search(&self) -> bool {
        false
    }

    /// An upper bound on the positions reachable from the start, where the
    /// game can give one cheaply (Hex: the ways to place the stones). An
    /// exhaustive computation whose limit is below it refuses at once
    /// instead of filling memory first. `None`: no bound known.
    fn position_bound(&self) -> Option<f64> {
        None
    }

    /// The game's own position-by-position solver, for a perfect opponent
    /// where exhaustive solving is over its limit (`None`: there is none,
    /// and such an opponent is refused).
    fn position_solver(&self) -> Option<Box<dyn PositionSolver<Self>>> {
        None
    }

    // ---- provided ----

    /// Whether an exhaustive computation storing at most `limit` positions
    /// is bound to fail: the game is far too large, or its position bound
    /// is over the limit.
    fn exceeds(&self, limit: usize) -> bool {
        self.too_large_for_exhaustive_search() || self.position_bound().is_some_and(|b| b > limit as f64)
    }

    /// [`Game::exceeds`] as the error an exhaustive computation refuses with
    /// at once, before storing any position.
    fn check_exhaustive(&self, limit: usize) -> Result<(), TooLarge> {
        if self.exceeds(limit) {
            return Err(TooLarge {
                game: self.spec(),
                limit,
            });
        }
        Ok(())
    }

    /// The moves in a fresh vector (for code off the hot path).
    fn moves(&self, pos: &Self::Position) -> Vec<Self::Move> {
        let mut out = Vec::new();
        self.legal_moves(pos, &mut out);
        out
    }

    /// Play a move given as text, refusing unreadable or illegal ones.
    fn try_play(&self, pos: &Self::Position, text: &str) -> Result<Self::Position, MoveError> {
        let mv = self.parse_move(pos, text)?;
        Ok(self.play(pos, mv))
    }

    /// The canonical representative of a position's symmetry class (the
    /// smallest image), and a symmetry that maps `pos` onto it.
    fn canonical(&self, pos: &Self::Position) -> (Self::Position, usize) {
        let mut best = pos.clone();
        let mut best_sym = 0;
        for sym in 1..self.symmetry_count() {
            let image = self.map_position(pos, sym);
            if image < best {
                best = image;
                best_sym = sym;
            }
        }
        (best, best_sym)
    }

    /// The key of the box for `pos` under the symmetry group: the key of its
    /// canonical image ([`Game::canonical`]), and a symmetry that maps `pos`
    /// onto that image.
    fn canonical_key(&self, pos: &Self::Position) -> (Self::BoxKey, usize) {
        if self.symmetry_count() == 1 {
            return (self.box_key(pos), 0);
        }
        let (image, sym) = self.canonical(pos);
        (self.box_key(&image), sym)
    }

    /// Read a player name: the game's own (`white`, `x`, `red`), or `first`/`second`.
    fn parse_player(&self, text: &str) -> Result<Player, InvalidValue> {
        let t = text.trim().to_ascii_lowercase();
        for p in [Player::One, Player::Two] {
            if t == self.player_name(p).to_ascii_lowercase() {
                return Ok(p);
            }
        }
        match t.as_str() {
            "first" | "1" => Ok(Player::One),
            "second" | "2" => Ok(Player::Two),
            _ => Err(InvalidValue::new(
                "side",
                text,
                format!(
                    "expected {} or {} (or first/second)",
                    self.player_name(Player::One).to_ascii_lowercase(),
                    self.player_name(Player::Two).to_ascii_lowercase()
                ),
            )),
        }
    }

    /// The names of the legal moves, for error messages.
    fn legal_move_list(&self, pos: &Self::Position) -> Vec<String> {
        self.moves(pos).into_iter().map(|m| self.move_name(pos, m)).collect()
    }

    /// The legal moves as a readable list, for prompts.
    fn legal_move_names(&self, pos: &Self::Position) -> String {
        let names = self.legal_move_list(pos);
        if names.is_empty() {
            "none (the game is over)".to_string()
        } else {
            names.join(" ")
        }
    }

    /// A `MoveError` for text that names no legal move, listing the legal
    /// ones (or that the game is over, where there are none).
    fn illegal(&self, pos: &Self::Position, text: &str, why: &str) -> MoveError {
        let legal = self.legal_move_list(pos);
        if legal.is_empty() {
            return MoveError::GameOver { text: text.to_string() };
        }
        MoveError::Illegal {
            text: text.to_string(),
            why: why.to_string(),
            legal,
        }
    }

    /// A `MoveError` for text that fits each of `candidates`, all legal in `pos`.
    fn ambiguous(&self, pos: &Self::Position, text: &str, hint: &str, candidates: &[Self::Move]) -> MoveError {
        MoveError::Ambiguous {
            text: text.to_string(),
            hint: hint.to_string(),
            candidates: candidates.iter().map(|&m| self.move_name(pos, m)).collect(),
        }
    }
}

/// How a game is chosen by a game spec string (`hexapawn:4x4`,
/// `hex:5,swap=off`), and the machine history knows it for. The registry's
/// one table lists the types that implement it.
pub trait GameSpec: Game + Sized {
    /// The names that select this game; the first is its own (`hexapawn`, `octopawn`).
    const NAMES: &'static [&'static str];
    /// The spec forms it accepts, for help and error messages.
    const FORMS: &'static str;
    /// Spec strings of small instances, each of which the shared rule suite checks.
    const EXAMPLES: &'static [&'static str];

    /// Make the game from a spec's parts: the `name` used (one of
    /// [`GameSpec::NAMES`], lower case), the `size` after `:` and the
    /// `options` after the first `,` (case kept). The error says what was
    /// expected; the registry adds the spec.
    fn from_spec(name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue>;

    /// The side its historical machine played (HER: Black; MENACE: X).
    fn machine_side(&self) -> Player {
        Player::One
    }

    /// Whether a machine's default side is the one that wins with best play,
    /// where that can be found quickly (Hexapawn: Black on 3×3 as Gardner
    /// had it, White on Octopawn); otherwise [`GameSpec::machine_side`].
    const SIDE_WINS: bool = false;

    /// What its historical machine is called (`HER`, `MENACE`).
    fn machine_name(&self) -> &'static str {
        "MENACE"
    }

    /// The preset its historical machine's settings come from.
    fn machine_preset(&self) -> MachinePreset {
        MachinePreset::Michie
    }
}

/// The settings of a historical machine, by whose they were (the machine
/// layer turns one into settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MachinePreset {
    /// Gardner's HER.
    Gardner,
    /// Michie's MENACE.
    Michie,
}

impl MachinePreset {
    /// Its name on the command line and in files: `gardner`, `michie`.
    pub fn name(self) -> &'static str {
        match self {
            MachinePreset::Gardner => "gardner",
            MachinePreset::Michie => "michie",
        }
    }
}

/// A game that takes neither a size nor options: the error for either.
pub fn no_size_or_options(
    name: &str,
    size: Option<&str>,
    options: Option<&str>,
    why: &str,
) -> Result<(), InvalidValue> {
    if let Some(s) = size {
        return Err(InvalidValue::new("size", s, format!("{name} takes no size ({why})")));
    }
    if let Some(o) = options {
        return Err(unknown_option(o, &format!("{name} takes no options")));
    }
    Ok(())
}

/// An option after the comma of a game spec that the game does not take.
pub fn unknown_option(option: &str, expected: &str) -> InvalidValue {
    InvalidValue::new("unknown option", option, expected)
}
