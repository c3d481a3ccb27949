//! What the two chess variants share: pieces with a letter each, the short
//! algebraic notation both read and write, the parts of their position
//! strings that are alike, how their pieces are drawn, and the compile-time
//! tables of their boards' geometry.

pub mod geometry;
mod notation;
mod picture;
mod piece;
mod position;

pub use notation::{move_name, parse_move, san, ChessLike, Described};
pub use picture::{move_cells, picture_pieces};
pub use piece::{colour_name, pack_cells, unpack_cells, Piece, PieceKind};
pub use position::{decode_run, parse_side, side_char, RowError, SideError};

/// The rules every chess variant has alike, for its `impl Rules`: White
/// and Black, and the side to move kept in the position.
macro_rules! chess_rules_methods {
    () => {
        fn turn(&self, pos: &Self::Position) -> $crate::game::Player {
            pos.turn
        }

        fn player_name(&self, player: $crate::game::Player) -> &'static str {
            $crate::games::chesslike::colour_name(player)
        }
    };
}
pub(crate) use chess_rules_methods;

/// The parts of a game every chess variant has alike: the shared notation,
/// its position strings and diagram from the variant's own
/// `write_position`, `read_position` and `draw` (associated functions of its
/// files `position.rs` and `picture.rs`), no symmetry, and a board far too
/// large for exhaustive search.
macro_rules! chess_parts {
    ($game:ty) => {
        impl $crate::game::Notation for $game {
            fn move_name(&self, pos: &Self::Position, mv: Self::Move) -> String {
                $crate::games::chesslike::move_name(self, pos, mv)
            }

            fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, $crate::game::MoveError> {
                $crate::games::chesslike::parse_move(self, pos, text)
            }

            fn position_string(&self, pos: &Self::Position) -> String {
                Self::write_position(pos)
            }

            fn parse_position(&self, text: &str) -> Result<Self::Position, $crate::game::PositionError> {
                Self::read_position(text)
            }

            fn diagram(&self, pos: &Self::Position) -> String {
                Self::draw(pos)
            }
        }

        impl $crate::game::Symmetric for $game {
            type Symmetry = $crate::symmetry::Unit;

            fn map_position(&self, pos: &Self::Position, _sym: $crate::symmetry::Unit) -> Self::Position {
                pos.clone()
            }

            fn map_move(&self, mv: Self::Move, _sym: $crate::symmetry::Unit) -> Self::Move {
                mv
            }
        }

        impl $crate::search::SearchLimits for $game {
            fn too_large_for_exhaustive_search(&self) -> bool {
                true
            }
        }
    };
}
pub(crate) use chess_parts;
