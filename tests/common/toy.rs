//! Tiny hand-made games whose values are known by hand, for testing the
//! solver and the machine before real games.

use menace::error::InvalidValue;
use menace::game::GameSpec;
use menace::symmetry::Unit;
use menace::{
    About, Boxes, Game, MoveError, Notation, Outcome, Player, PositionError, PositionErrorKind, Rules, SearchLimits,
    Symmetric,
};

/// Take 1 or 2 counters from a pile; whoever takes the last counter wins.
/// From n the mover loses iff n % 3 == 0; every round of two plies removes
/// exactly 3 under best play, so n = 3k is a loss in 2k plies and
/// n = 3k + r (r > 0) a win in 2k + 1.
#[derive(Clone, Debug)]
pub struct Subtraction {
    pub pile: u32,
}

/// The toy game as a registry would list it: `subtraction:N`.
impl GameSpec for Subtraction {
    const NAMES: &'static [&'static str] = &["subtraction"];
    const FORMS: &'static str = "subtraction:N";
    const EXAMPLES: &'static [&'static str] = &["subtraction:1", "subtraction:7"];

    fn from_spec(_name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue> {
        if let Some(o) = options {
            return Err(InvalidValue::new("unknown option", o, "subtraction takes no options"));
        }
        let size = size.unwrap_or("7");
        let pile = size
            .parse()
            .map_err(|_| InvalidValue::new("size", size, "expected subtraction:N"))?;
        Ok(Subtraction { pile })
    }
}

impl Rules for Subtraction {
    type Position = (u32, Player);
    type Move = u32;

    fn spec(&self) -> String {
        format!("subtraction:{}", self.pile)
    }
    fn player_name(&self, p: Player) -> &'static str {
        if p == Player::One {
            "First"
        } else {
            "Second"
        }
    }
    fn start(&self) -> (u32, Player) {
        (self.pile, Player::One)
    }
    fn turn(&self, pos: &(u32, Player)) -> Player {
        pos.1
    }
    fn legal_moves(&self, pos: &(u32, Player), out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=2).filter(|&t| t <= pos.0));
    }
    fn play(&self, pos: &(u32, Player), mv: u32) -> (u32, Player) {
        (pos.0 - mv, pos.1.other())
    }
    fn outcome(&self, pos: &(u32, Player)) -> Outcome {
        if pos.0 == 0 {
            Outcome::Win(pos.1.other())
        } else {
            Outcome::Ongoing
        }
    }
}

impl Boxes for Subtraction {
    type BoxKey = Self::Position;

    fn box_key(&self, pos: &Self::Position) -> Self::Position {
        *pos
    }

    fn key_position(&self, key: &Self::Position) -> Self::Position {
        *key
    }
}

/// No symmetry.
impl Symmetric for Subtraction {
    type Symmetry = Unit;

    fn map_position(&self, pos: &Self::Position, _: Unit) -> Self::Position {
        *pos
    }

    fn map_move(&self, mv: Self::Move, _: Unit) -> Self::Move {
        mv
    }
}

impl SearchLimits for Subtraction {}

impl About for Subtraction {
    fn title(&self) -> String {
        format!("Subtraction from {}", self.pile)
    }
    fn rules(&self) -> Vec<String> {
        vec![
            "Take 1 or 2 counters from the pile in turn; whoever takes the last counter wins. There are no draws."
                .into(),
        ]
    }
    fn history(&self) -> String {
        "A toy game for the tests.".into()
    }
    fn can_draw(&self) -> bool {
        false
    }
    fn short_name(&self) -> String {
        self.spec()
    }
    fn symmetry_words(&self) -> Option<&'static str> {
        None
    }
}

impl Notation for Subtraction {
    fn move_name(&self, _: &(u32, Player), mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, pos: &(u32, Player), text: &str) -> Result<u32, MoveError> {
        match text.parse::<u32>() {
            _ if self.moves(pos).is_empty() => Err(MoveError::GameOver { text: text.into() }),
            Ok(t) if self.moves(pos).contains(&t) => Ok(t),
            _ => Err(MoveError::unreadable(text, "expected 1 or 2")),
        }
    }
    fn position_string(&self, pos: &(u32, Player)) -> String {
        format!("{} {}", pos.0, pos.1.index())
    }
    fn parse_position(&self, text: &str) -> Result<(u32, Player), PositionError> {
        let err = || PositionError::new(text, PositionErrorKind::Form, "expected 'N 0' or 'N 1'");
        let (n, p) = text.split_once(' ').ok_or_else(err)?;
        let n = n.parse().map_err(|_| err())?;
        let p = match p {
            "0" => Player::One,
            "1" => Player::Two,
            _ => return Err(err()),
        };
        Ok((n, p))
    }
    fn diagram(&self, pos: &(u32, Player)) -> String {
        format!("pile {}\n{} to move\n", pos.0, self.player_name(pos.1))
    }
}

/// A game given as an explicit tree: node i has children `children[i]`;
/// a leaf's result is `leaves[i]`. Players alternate, One at the root.
#[derive(Clone, Debug)]
pub struct Tree {
    pub children: Vec<Vec<usize>>,
    pub leaves: Vec<Outcome>,
}

impl Tree {
    /// A tree with draws, values worked out by hand:
    /// root(0) -> 1, 2. Node 1 (Two to move) -> 3: One wins, 4: draw.
    /// Node 2 (Two to move) -> 5: draw, 6 (One to move) -> 7: Two wins, 8: One wins.
    /// Two at node 1 picks the draw (4); at node 2, 6 is a win for One in 1
    /// ply (8), so Two picks 5 (draw). Root value: draw.
    pub fn with_draws() -> Tree {
        let w1 = Outcome::Win(Player::One);
        let w2 = Outcome::Win(Player::Two);
        let on = Outcome::Ongoing;
        Tree {
            children: vec![
                vec![1, 2],
                vec![3, 4],
                vec![5, 6],
                vec![],
                vec![],
                vec![],
                vec![7, 8],
                vec![],
                vec![],
            ],
            leaves: vec![on, on, on, w1, Outcome::Draw, Outcome::Draw, on, w2, w1],
        }
    }

    /// One wins only by a long route: root -> 1 (quick loss for One: 3 Two
    /// wins) or 2 -> 4 -> 5 -> One wins. Root value: win in 4 plies.
    pub fn long_win() -> Tree {
        let w1 = Outcome::Win(Player::One);
        let w2 = Outcome::Win(Player::Two);
        let on = Outcome::Ongoing;
        Tree {
            children: vec![vec![1, 2], vec![3], vec![4], vec![], vec![5], vec![6], vec![]],
            leaves: vec![on, on, on, w2, on, on, w1],
        }
    }

    fn depth(&self, node: usize) -> usize {
        (0..self.children.len())
            .find(|&p| self.children[p].contains(&node))
            .map_or(0, |p| self.depth(p) + 1)
    }
}

impl Rules for Tree {
    type Position = usize;
    type Move = usize;

    fn spec(&self) -> String {
        "tree".into()
    }
    fn player_name(&self, p: Player) -> &'static str {
        if p == Player::One {
            "One"
        } else {
            "Two"
        }
    }
    fn start(&self) -> usize {
        0
    }
    fn turn(&self, pos: &usize) -> Player {
        if self.depth(*pos).is_multiple_of(2) {
            Player::One
        } else {
            Player::Two
        }
    }
    fn legal_moves(&self, pos: &usize, out: &mut Vec<usize>) {
        out.clear();
        out.extend(&self.children[*pos]);
    }
    fn play(&self, _: &usize, mv: usize) -> usize {
        mv
    }
    fn outcome(&self, pos: &usize) -> Outcome {
        self.leaves[*pos]
    }
}

impl Boxes for Tree {
    type BoxKey = Self::Position;

    fn box_key(&self, pos: &Self::Position) -> Self::Position {
        *pos
    }

    fn key_position(&self, key: &Self::Position) -> Self::Position {
        *key
    }
}

/// No symmetry.
impl Symmetric for Tree {
    type Symmetry = Unit;

    fn map_position(&self, pos: &Self::Position, _: Unit) -> Self::Position {
        *pos
    }

    fn map_move(&self, mv: Self::Move, _: Unit) -> Self::Move {
        mv
    }
}

impl SearchLimits for Tree {}

impl About for Tree {
    fn title(&self) -> String {
        "A game tree".into()
    }
    fn rules(&self) -> Vec<String> {
        vec!["Move to a child node; a leaf's result ends the game, a draw included.".into()]
    }
    fn history(&self) -> String {
        "A toy game for the tests.".into()
    }
    fn can_draw(&self) -> bool {
        self.leaves.contains(&Outcome::Draw)
    }
    fn short_name(&self) -> String {
        "tree".into()
    }
    fn symmetry_words(&self) -> Option<&'static str> {
        None
    }
}

impl Notation for Tree {
    fn move_name(&self, _: &usize, mv: usize) -> String {
        mv.to_string()
    }
    fn parse_move(&self, pos: &usize, text: &str) -> Result<usize, MoveError> {
        match text.parse::<usize>() {
            _ if self.children[*pos].is_empty() => Err(MoveError::GameOver { text: text.into() }),
            Ok(t) if self.children[*pos].contains(&t) => Ok(t),
            _ => Err(MoveError::unreadable(text, "expected a child node")),
        }
    }
    fn position_string(&self, pos: &usize) -> String {
        pos.to_string()
    }
    fn parse_position(&self, text: &str) -> Result<usize, PositionError> {
        text.parse()
            .ok()
            .filter(|&n: &usize| n < self.children.len())
            .ok_or_else(|| PositionError::new(text, PositionErrorKind::NoSuchPosition, "expected a node number"))
    }
    fn diagram(&self, pos: &usize) -> String {
        format!("node {pos}\n")
    }
}
