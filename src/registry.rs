//! The one place that knows games by name: game spec strings to games.

use std::fmt;

use crate::game::Player;
use crate::games::chessapawn::Chessapawn;
use crate::games::hex::Hex;
use crate::games::hexapawn::Hexapawn;
use crate::games::minihexchess::MiniHexchess;
use crate::games::tictactoe::TicTacToe;
use crate::settings::MachineSettings;

/// Any game the program can play, chosen by a spec string. Code that works
/// on games is generic over [`crate::Game`]; [`with_game!`](crate::with_game)
/// turns an `AnyGame` into a call of such code.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Hexapawn(Hexapawn),
    TicTacToe(TicTacToe),
    Hex(Hex),
    Chessapawn(Chessapawn),
    MiniHexchess(MiniHexchess),
}

/// Run a generic expression on the game inside an [`AnyGame`].
///
/// ```
/// use menace::{with_game, Game, parse_spec};
/// let any = parse_spec("hexapawn:4x4").unwrap();
/// let spec = with_game!(any, g => g.spec());
/// assert_eq!(spec, "hexapawn:4x4");
/// ```
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::AnyGame::Hexapawn($g) => $body,
            $crate::AnyGame::TicTacToe($g) => $body,
            $crate::AnyGame::Hex($g) => $body,
            $crate::AnyGame::Chessapawn($g) => $body,
            $crate::AnyGame::MiniHexchess($g) => $body,
        }
    };
}

/// A game spec string that names no game the program has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub spec: String,
    pub reason: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game spec '{}': {}", self.spec, self.reason)
    }
}

impl std::error::Error for SpecError {}

/// The game specs the program accepts, for help and error messages.
pub const KNOWN_SPECS: &str =
    "hexapawn, hexapawn:WxH (e.g. hexapawn:4x4), tictactoe, hex:N (e.g. hex:5, hex:4,swap=off,first=red), chessapawn, minihexchess";

/// Read a game spec string: `hexapawn`, `hexapawn:4x4`, `tictactoe`, ...
pub fn parse_spec(spec: &str) -> Result<AnyGame, SpecError> {
    let err = |reason: String| SpecError {
        spec: spec.to_string(),
        reason,
    };
    // Options keep their case (a custom setup's piece letters need it).
    let trimmed = spec.trim();
    let (head, options) = match trimmed.split_once(',') {
        Some((h, o)) => (h.to_ascii_lowercase(), Some(o)),
        None => (trimmed.to_ascii_lowercase(), None),
    };
    let head = head.as_str();
    let (name, size) = match head.split_once(':') {
        Some((n, s)) => (n, Some(s)),
        None => (head, None),
    };
    if name == "minihexchess" {
        if let Some(s) = size {
            return Err(err(format!(
                "size '{s}': mini hexchess takes no size (it has 37 cells)"
            )));
        }
        return match options {
            None => Ok(AnyGame::MiniHexchess(MiniHexchess::new())),
            Some(o) => match o.strip_prefix("setup=") {
                Some(setup) => MiniHexchess::with_setup(setup).map(AnyGame::MiniHexchess).map_err(err),
                None => Err(err(format!(
                    "unknown option '{o}': minihexchess takes setup=q,r:piece,..."
                ))),
            },
        };
    }
    if name == "hex" {
        return parse_hex(size, options).map(AnyGame::Hex).map_err(err);
    }
    if let Some(opts) = options {
        return Err(err(format!("unknown option '{opts}': {name} takes no options")));
    }
    match name {
        "hexapawn" | "octopawn" => {
            let default = if name == "octopawn" { (4, 4) } else { (3, 3) };
            let (w, h) = match size {
                None => default,
                Some(s) => parse_dims(s).ok_or_else(|| {
                    err(format!(
                        "size '{s}' is not WxH: expected files x ranks, like hexapawn:4x4"
                    ))
                })?,
            };
            Hexapawn::new(w, h).map(AnyGame::Hexapawn).map_err(err)
        }
        "tictactoe" | "noughtsandcrosses" | "ttt" => match size {
            None => Ok(AnyGame::TicTacToe(TicTacToe)),
            Some(s) => Err(err(format!(
                "size '{s}': noughts and crosses takes no size (it is always 3x3)"
            ))),
        },
        "chessapawn" => match size {
            None => Ok(AnyGame::Chessapawn(Chessapawn)),
            Some(s) => Err(err(format!(
                "size '{s}': chessapawn takes no size (it is played on 8x8)"
            ))),
        },

        _ => Err(err(format!("unknown game '{name}': expected one of {KNOWN_SPECS}"))),
    }
}

/// The side a machine plays unless told otherwise: Black for Hexapawn (HER),
/// X for noughts and crosses (MENACE).
pub fn default_side(game: &AnyGame) -> Player {
    match game {
        AnyGame::Hexapawn(_) => Player::Two,
        AnyGame::TicTacToe(_) => Player::One,
        AnyGame::Hex(_) => Player::One,
        AnyGame::Chessapawn(_) | AnyGame::MiniHexchess(_) => Player::One,
    }
}

/// What the machine is called in a game: HER for Hexapawn (Gardner's name),
/// MENACE for noughts and crosses (Michie's).
pub fn machine_name(game: &AnyGame) -> &'static str {
    match game {
        AnyGame::Hexapawn(_) => "HER",
        AnyGame::TicTacToe(_) => "MENACE",
        AnyGame::Hex(_) => "MENACE",
        AnyGame::Chessapawn(_) | AnyGame::MiniHexchess(_) => "MENACE",
    }
}

/// The machine settings a game's historical machine used: Gardner's for
/// Hexapawn, Michie's for noughts and crosses.
pub fn default_settings(game: &AnyGame) -> MachineSettings {
    match game {
        AnyGame::Hexapawn(_) => MachineSettings::gardner(),
        AnyGame::TicTacToe(_) => MachineSettings::michie(),
        AnyGame::Hex(_) => MachineSettings::michie(),
        AnyGame::Chessapawn(_) | AnyGame::MiniHexchess(_) => MachineSettings {
            box_mode: crate::settings::BoxMode::FirstVisit,
            ..MachineSettings::michie()
        },
    }
}

fn parse_hex(size: Option<&str>, options: Option<&str>) -> Result<Hex, String> {
    let n = match size {
        None => 11,
        Some(s) => s
            .trim()
            .parse::<u8>()
            .map_err(|_| format!("size '{s}' is not a number: expected hex:N with N from 1 to 19"))?,
    };
    let (mut swap, mut first) = (true, None);
    for opt in options.into_iter().flat_map(|o| o.split(',')) {
        match opt.trim().split_once('=') {
            Some(("swap", "on")) => swap = true,
            Some(("swap", "off")) => swap = false,
            Some(("first", "red")) => first = Some(Player::One),
            Some(("first", "blue")) => first = Some(Player::Two),
            Some(("first", "seed")) => first = None,
            _ => {
                return Err(format!(
                    "unknown option '{opt}': hex takes swap=on|off and first=red|blue|seed"
                ))
            }
        }
    }
    Hex::new(n, swap, first)
}

fn parse_dims(s: &str) -> Option<(u8, u8)> {
    let (w, h) = s.split_once(['x', '×'])?;
    Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
}
