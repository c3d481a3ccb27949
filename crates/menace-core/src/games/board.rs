//! What the games on boards share: square names (`a1`, `b2`, ...), position-string
//! rows, pictures of square boards, and the box key of a game without history.

/// The name of the cell on file `f` and rank `r` (both from 0): `a1`, `c3`, `k11`.
pub fn cell_name(f: u32, r: u32) -> String {
    let letter = char::from(b'a' + (f % 26) as u8);
    format!("{letter}{}", r + 1)
}

/// Read a cell name (`b2`) into (file, rank) from 0; `None` if it is not one.
pub fn parse_cell(text: &str) -> Option<(u32, u32)> {
    let mut chars = text.chars();
    let letter = chars.next().filter(|c| c.is_ascii_lowercase())?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let rank: u32 = digits.parse().ok()?;
    Some((u32::from(letter as u8 - b'a'), rank - 1))
}

/// Split off a leading cell name (a letter and its digits): `("a3", "-b2")`.
pub fn split_cell(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    if !bytes.first()?.is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    (digits > 0).then(|| text.split_at(1 + digits))
}

/// One row of cells as a position string writes it: a character a piece
/// and a count for each run of empty cells (as in chess FEN): `p2P`.
pub fn encode_run(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut row = String::new();
    let mut empty = 0;
    for cell in cells {
        match cell {
            Some(c) => {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
            None => empty += 1,
        }
    }
    if empty > 0 {
        row.push_str(&empty.to_string());
    }
    row
}

/// Ranks from the top down, '/'-separated, each as [`encode_run`] writes
/// it: `ppp/3/PPP`.
pub fn encode_ranks(files: usize, ranks: usize, piece: impl Fn(usize, usize) -> Option<char>) -> String {
    let rows: Vec<String> = (0..ranks)
        .rev()
        .map(|r| encode_run((0..files).map(|f| piece(f, r))))
        .collect();
    rows.join("/")
}

/// A piece letter in the case of its side: upper case White (or the first
/// player), lower case Black, as in chess FEN.
pub fn side_letter(letter: char, owner: crate::game::Player) -> char {
    match owner {
        crate::game::Player::One => letter.to_ascii_uppercase(),
        crate::game::Player::Two => letter.to_ascii_lowercase(),
    }
}

/// A picture of a rectangle of square cells, file 0 on the left and rank 0
/// at the bottom, cell index `rank * files + file`, named `a1`, `b1`, ...;
/// `checkered` shades alternate cells as on a chess board.
pub fn square_board(files: u32, ranks: u32, checkered: bool, colours: [&'static str; 2]) -> crate::picture::Board {
    let mut cells = Vec::with_capacity((files * ranks) as usize);
    for r in 0..ranks {
        for f in 0..files {
            cells.push(crate::picture::Cell {
                name: cell_name(f, r),
                x: f64::from(f),
                y: f64::from(ranks - 1 - r),
                shade: u8::from(checkered && (f + r) % 2 == 0),
            });
        }
    }
    crate::picture::Board {
        shape: crate::picture::CellShape::Square,
        cells,
        edges: Vec::new(),
        colours,
    }
}

/// The box key of a game whose positions carry no history: the position
/// itself. Write `position_is_box_key!(Type);` beside its `impl Rules`.
macro_rules! position_is_box_key {
    ($game:ty) => {
        impl $crate::game::Boxes for $game {
            type BoxKey = <$game as $crate::game::Rules>::Position;

            fn box_key(&self, pos: &Self::Position) -> Self::Position {
                pos.clone()
            }

            fn key_position(&self, key: &Self::Position) -> Self::Position {
                key.clone()
            }
        }
    };
}
pub(crate) use position_is_box_key;
