//! Short algebraic notation (`Nf3`, `exd5`, `Rbxc4`, `c6=N`) and the
//! coordinate form (`g1f3`, `c6c7=N`), written and read the same way on
//! every chess-like board.

use super::piece::PieceKind;
use crate::game::{Game, MoveError, Outcome};

/// One legal move as notation sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Described<K> {
    /// The cell the piece leaves.
    pub from: u8,
    /// The cell it goes to.
    pub to: u8,
    /// The kind of the piece that moves.
    pub kind: K,
    /// Whether it takes a piece.
    pub capture: bool,
    /// What a pawn becomes, if it promotes.
    pub promotion: Option<K>,
}

/// A chess variant as its notation and pictures see it: its cells' names,
/// its pieces, and what each move does.
pub trait ChessLike: Game {
    /// The variant's kinds of piece.
    type Kind: PieceKind;

    /// The word for a cell in messages: `square` or `cell`.
    const CELL: &'static str;
    /// How many cells the board has (numbered from 0).
    const CELLS: u8;
    /// Whether a piece is told apart from another of its kind by its rank
    /// alone where the file does not tell them apart (`R1a3` in chess);
    /// otherwise by its whole cell.
    const RANK_HINTS: bool;
    /// The kinds a pawn may promote to (none: no promotion).
    const PROMOTIONS: &'static [Self::Kind];
    /// What a move looks like, for the message on an unreadable one.
    const MOVE_EXAMPLES: &'static str;
    /// What the promotion rule is, for the message on a wrong one.
    const PROMOTION_RULE: &'static str;

    /// The name of a cell (`e4`): a file letter, then the rank.
    fn cell_name(cell: u8) -> String;

    /// The cell a name names, if it is on the board.
    fn parse_cell(text: &str) -> Option<u8>;

    /// What `mv` does in `pos`.
    fn describe(&self, pos: &Self::Position, mv: Self::Move) -> Described<Self::Kind>;

    /// Whether the side to move in `pos` is in check (marked `+`).
    fn in_check_now(&self, pos: &Self::Position) -> bool;
}

/// A move's name: short algebraic notation, marked `#` where it wins and
/// `+` where it gives check.
pub fn move_name<G: ChessLike>(game: &G, pos: &G::Position, mv: G::Move) -> String {
    let mut name = san(game, pos, mv);
    let next = game.play(pos, mv);
    if game.outcome(&next) == Outcome::Win(game.turn(pos)) {
        name.push('#');
    } else if game.in_check_now(&next) {
        name.push('+');
    }
    name
}

/// Short algebraic notation without a check or win mark: `Nf3`, `exd5`,
/// `Rbxc4`, `c7=N`. A piece is told apart from others of its kind that
/// reach the same cell by its file, else its rank (where the variant uses
/// rank hints), else its whole cell.
pub fn san<G: ChessLike>(game: &G, pos: &G::Position, mv: G::Move) -> String {
    let d = game.describe(pos, mv);
    let to = G::cell_name(d.to);
    let from = G::cell_name(d.from);
    if d.kind == G::Kind::PAWN {
        let promo = d.promotion.map_or(String::new(), |k| format!("={}", k.letter()));
        return if d.capture {
            format!("{}x{to}{promo}", &from[..1])
        } else {
            format!("{to}{promo}")
        };
    }
    let others: Vec<String> = game
        .moves(pos)
        .into_iter()
        .map(|m| game.describe(pos, m))
        .filter(|o| o.to == d.to && o.from != d.from && o.kind == d.kind)
        .map(|o| G::cell_name(o.from))
        .collect();
    let dis = if others.is_empty() {
        ""
    } else if others.iter().all(|o| o[..1] != from[..1]) {
        &from[..1]
    } else if G::RANK_HINTS && others.iter().all(|o| o[1..] != from[1..]) {
        &from[1..]
    } else {
        &from
    };
    let x = if d.capture { "x" } else { "" };
    format!("{}{dis}{x}{}", d.kind.letter(), to)
}

/// Whether `hint` names the cell `name` in part: its file, its rank, or all of it.
fn names_part_of(name: &str, hint: &str) -> bool {
    hint == name || hint == &name[..1] || hint == &name[1..]
}

/// Read a move in short algebraic or coordinate form (marks `+ # ! ?` and
/// dashes ignored); it must be legal in `pos`. A bare pawn destination
/// (`d5`) is the step there, where a capture could reach it too.
pub fn parse_move<G: ChessLike>(game: &G, pos: &G::Position, text: &str) -> Result<G::Move, MoveError> {
    let clean: String = text
        .trim()
        .trim_end_matches(['#', '+', '!', '?'])
        .chars()
        .filter(|c| *c != '-')
        .collect();
    let moves: Vec<(G::Move, Described<G::Kind>)> = game
        .moves(pos)
        .into_iter()
        .map(|m| (m, game.describe(pos, m)))
        .collect();
    if moves.is_empty() {
        return Err(MoveError::GameOver { text: text.to_string() });
    }
    let unreadable = || MoveError::unreadable(text, format!("expected a move like {}", G::MOVE_EXAMPLES));
    let name_promotion = || match G::PROMOTIONS.last() {
        Some(k) => format!("name the promotion, e.g. ={}", k.letter()),
        None => "name it in full".to_string(),
    };
    let (body, promotion) = match clean.split_once('=') {
        Some((body, p)) if !G::PROMOTIONS.is_empty() => {
            let kind = p.chars().next().and_then(G::Kind::from_letter);
            match kind.filter(|k| G::PROMOTIONS.contains(k)) {
                Some(k) => (body, Some(k)),
                None => return Err(game.illegal(pos, text, G::PROMOTION_RULE)),
            }
        }
        _ => (clean.as_str(), None),
    };
    let promotes_as_named = |d: &Described<G::Kind>| promotion.is_none() || d.promotion == promotion;

    // Coordinate form: two cell names.
    let lower = body.to_ascii_lowercase().replace('x', "");
    let split = lower
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c.is_ascii_lowercase())
        .map(|(i, _)| i);
    if let Some(i) = split {
        if let (Some(from), Some(to)) = (G::parse_cell(&lower[..i]), G::parse_cell(&lower[i..])) {
            let found: Vec<G::Move> = moves
                .iter()
                .filter(|(_, d)| d.from == from && d.to == to && promotes_as_named(d))
                .map(|&(m, _)| m)
                .collect();
            return match found.as_slice() {
                [one] => Ok(*one),
                [] => Err(game.illegal(pos, text, &format!("no legal move from that {0} to that {0}", G::CELL))),
                _ => Err(game.ambiguous(pos, text, &name_promotion(), &found)),
            };
        }
    }

    // Short algebraic: [piece letter][from file, rank or cell][x]destination.
    let mut chars: Vec<char> = body.chars().filter(|&c| c != 'x').collect();
    let kind = match chars.first() {
        Some(&c) if c.is_ascii_uppercase() => {
            chars.remove(0);
            G::Kind::from_letter(c).ok_or_else(unreadable)?
        }
        _ => G::Kind::PAWN,
    };
    let digits = chars.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || chars.len() < digits + 1 {
        return Err(unreadable());
    }
    let split = chars.len() - digits - 1;
    let dest: String = chars[split..].iter().collect();
    let to = G::parse_cell(&dest).ok_or_else(unreadable)?;
    let hint: String = chars[..split].iter().collect();
    if !hint.is_empty() && !(0..G::CELLS).any(|c| names_part_of(&G::cell_name(c), &hint)) {
        return Err(unreadable());
    }
    let mut found: Vec<&(G::Move, Described<G::Kind>)> = moves
        .iter()
        .filter(|(_, d)| {
            d.to == to
                && d.kind == kind
                && promotes_as_named(d)
                && (hint.is_empty() || names_part_of(&G::cell_name(d.from), &hint))
        })
        .collect();
    if kind == G::Kind::PAWN && hint.is_empty() && found.len() > 1 && found.iter().any(|(_, d)| !d.capture) {
        found.retain(|(_, d)| !d.capture);
    }
    let candidates: Vec<G::Move> = found.iter().map(|&&(m, _)| m).collect();
    match found.as_slice() {
        [one] => Ok(one.0),
        [] => Err(game.illegal(pos, text, "no legal move matches")),
        [first, rest @ ..] if rest.iter().all(|(_, d)| d.from == first.1.from) => {
            Err(game.ambiguous(pos, text, &name_promotion(), &candidates))
        }
        _ => Err(game.ambiguous(pos, text, "name the starting file or rank too", &candidates)),
    }
}
