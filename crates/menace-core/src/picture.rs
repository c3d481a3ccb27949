//! A game's board as a picture, for the front ends that draw one (the web
//! page, printed box labels): where each cell is, what stands on it, and
//! which cells a move joins. Drawing itself is done elsewhere; a game only
//! says what is where.

use crate::game::{Game, Player};

/// A game that can be drawn: its board, the pieces of a position, and the
/// cells a move joins. Every game of the registry's table draws itself.
pub trait Picture: Game {
    /// The board without pieces (the same for every position of the game).
    fn board(&self) -> Board;

    /// The pieces standing in `pos`.
    fn pieces(&self, pos: &Self::Position) -> Vec<Piece>;

    /// The cells a legal move of `pos` joins.
    fn move_cells(&self, pos: &Self::Position, mv: Self::Move) -> MoveCells;

    /// Whether a bead's colour names the cell its move places on, the same
    /// in every box (Michie's MENACE: nine colours, one for each square),
    /// rather than a box's moves taking the colours in turn (Gardner's HER).
    fn colours_by_cell(&self) -> bool {
        false
    }
}

/// The shape of every cell of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellShape {
    /// Squares of side 1.
    Square,
    /// Hexagons with a corner at the top, 1 across the flats.
    PointyHex,
    /// Hexagons with a flat top, 1 across the flats.
    FlatHex,
}

/// One cell: its name and the centre of it (x to the right, y downward,
/// neighbouring cells 1 apart), and a shade for boards whose cells alternate
/// colours (0 for a plain board).
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The cell's name in the game's notation (`a1`).
    pub name: String,
    /// Its centre, across.
    pub x: f64,
    /// Its centre, down.
    pub y: f64,
    /// Its shade, for boards whose cells alternate (0 for a plain board).
    pub shade: u8,
}

/// A line along the board drawn in a player's colour (Hex: the edges each
/// player joins).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    /// The player whose edge it is.
    pub owner: Player,
    /// Where the line starts.
    pub from: (f64, f64),
    /// Where it ends.
    pub to: (f64, f64),
}

/// The board without its pieces.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Whether the cells are squares or hexagons.
    pub shape: CellShape,
    /// Cells in the order [`Piece::cell`] and [`MoveCells`] count them.
    pub cells: Vec<Cell>,
    /// Lines in a player's colour along the board (Hex's edges).
    pub edges: Vec<Edge>,
    /// The colour of each player's pieces, as CSS colours (`#d33`).
    pub colours: [&'static str; 2],
}

impl Board {
    /// No board: a game that has no picture.
    pub fn none() -> Board {
        Board {
            shape: CellShape::Square,
            cells: Vec::new(),
            edges: Vec::new(),
            colours: ["#fafafa", "#222222"],
        }
    }
}

/// How a piece looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// A plain stone (Hex).
    Stone,
    /// A pawn's outline (Hexapawn).
    Pawn,
    /// A disc with a chess piece's letter (`K`, `Q`, `R`, `B`, `N`, `P`).
    Letter(char),
    /// A cross (noughts and crosses).
    Cross,
    /// A nought.
    Nought,
}

/// A piece on a cell of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The cell it stands on.
    pub cell: usize,
    /// The player whose piece it is.
    pub owner: Player,
    /// How it is drawn.
    pub look: Look,
    /// Drawn emphasised (Hex: the winning chain).
    pub marked: bool,
}

/// The cells a move joins: where a piece comes from (none when a stone is
/// placed) and where it goes (none for a move such as Hex's swap, which a
/// front end offers as a button).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCells {
    /// The cell a piece leaves, if any.
    pub from: Option<usize>,
    /// The cell a piece or stone goes to, if any.
    pub to: Option<usize>,
}
