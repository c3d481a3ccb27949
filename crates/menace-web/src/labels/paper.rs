//! What every page of a sheet shares: the paper, a label's size, the
//! machine the sheet is for, the words for its moves, and the drawing
//! helpers (millimetres, text, a page, a board) the labels and the
//! instructions page both use.

use crate::svg::{board_group, escape, game_move, n, Options};
use menace_core::game::{Game, Player};
use menace_core::machine::Machine;
use menace_core::picture::Board;

use super::text::MM_PER_PT;

/// Why a sheet cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// A bad paper name or label size.
    #[error("{0}")]
    Invalid(String),
    /// The labels do not fit the size asked for, or the paper.
    #[error("{0}")]
    DoesNotFit(String),
    /// The PDF could not be written.
    #[error("PDF: {0}")]
    Pdf(String),
}

/// A paper size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

/// Regions whose locales print on Letter (glibc's `LC_PAPER` for them).
const LETTER_REGIONS: [&str; 15] = [
    "US", "CA", "MX", "PH", "CL", "CO", "VE", "PR", "CR", "GT", "PA", "DO", "SV", "NI", "BZ",
];

impl Paper {
    /// Width and height in millimetres.
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// `a4` or `letter`.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// Read `a4` or `letter` (any case).
    pub fn parse(text: &str) -> Result<Paper, LabelError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" | "us-letter" => Ok(Paper::Letter),
            other => Err(LabelError::Invalid(format!("paper '{other}': expected a4 or letter"))),
        }
    }

    /// The paper of a locale (`en_US.UTF-8`) or a language tag (`en-US`):
    /// Letter in the regions that use it, A4 in any other region, none
    /// when it names no region (`C`, `en`).
    pub fn of_locale(locale: &str) -> Option<Paper> {
        let name = locale.split(['.', '@']).next().unwrap_or("");
        let region = name.split(['_', '-']).nth(1)?;
        if region.len() != 2 {
            return None;
        }
        let region = region.to_ascii_uppercase();
        Some(if LETTER_REGIONS.contains(&region.as_str()) {
            Paper::Letter
        } else {
            Paper::A4
        })
    }

    /// The paper of this environment's locale (`LC_ALL`, else `LC_PAPER`,
    /// else `LANG`, as POSIX orders them), A4 when none names a region.
    pub fn from_env() -> Paper {
        ["LC_ALL", "LC_PAPER", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
            .next()
            .and_then(|l| Paper::of_locale(&l))
            .unwrap_or(Paper::A4)
    }

    /// The paper of an HTTP `Accept-Language` header (its first language).
    pub fn of_accept_language(header: &str) -> Option<Paper> {
        let first = header.split([',', ';']).next()?.trim();
        Paper::of_locale(first)
    }
}

/// A label's size in millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelSize {
    /// Width in millimetres.
    pub width: f64,
    /// Height in millimetres.
    pub height: f64,
}

impl LabelSize {
    /// The top of a common household matchbox (about 53 × 36 mm): room for
    /// a 3×3 board of 8 mm cells beside a legend of up to 8 moves in 7 pt type.
    pub const MATCHBOX: LabelSize = LabelSize {
        width: 53.0,
        height: 36.0,
    };

    /// Read `WxH` in millimetres, e.g. `53x36` (also `53×36`).
    pub fn parse(text: &str) -> Result<LabelSize, LabelError> {
        let bad = |why: &str| LabelError::Invalid(format!("label size '{text}': {why}"));
        let lower = text.trim().to_ascii_lowercase();
        let (w, h) = lower
            .split_once('x')
            .or_else(|| lower.split_once('×'))
            .ok_or_else(|| bad("expected WIDTHxHEIGHT in millimetres, e.g. 53x36"))?;
        let number = |s: &str| {
            s.trim()
                .trim_end_matches("mm")
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0)
                .ok_or_else(|| bad(&format!("'{}' is not a positive number of millimetres", s.trim())))
        };
        Ok(LabelSize {
            width: number(w)?,
            height: number(h)?,
        })
    }
}

/// The machine a sheet is for.
pub struct Subject<'a, G: Game> {
    /// The game the machine plays.
    pub game: &'a G,
    /// The machine: its boxes and beads.
    pub machine: &'a Machine<G>,
    /// The machine's name (`HER`, `MENACE`).
    pub name: &'a str,
    /// Games played, for a trained machine's labels.
    pub games_played: Option<u64>,
}

/// A machine's move as the sheets, the terminal and the page say it: its
/// own count, then the game's, e.g. `HER's move 2 (move 4 of the game)`.
pub fn move_words(name: &str, side: Player, own_move: u32) -> String {
    format!(
        "{name}'s move {own_move} (move {} of the game)",
        game_move(side, own_move)
    )
}

/// The same, short, for a label: `HER's move 2 · game move 4`.
pub fn move_words_short(name: &str, side: Player, own_move: u32) -> String {
    format!("{name}'s move {own_move} · game move {}", game_move(side, own_move))
}

/// Millimetres of `pt` points.
pub(super) fn mm(pt: f64) -> f64 {
    pt * MM_PER_PT
}

/// A `<text>` element at (x, y) in millimetres, `pt` points.
pub(super) fn text_at(x: f64, y: f64, pt: f64, anchor: &str, fill: &str, body: &str) -> String {
    format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" fill=\"{fill}\">{}</text>",
        n(x),
        n(y),
        n(mm(pt)),
        escape(body)
    )
}

/// A whole page of `paper` as an SVG document whose user unit is a millimetre.
pub(super) fn page_svg(paper: Paper, body: &str) -> String {
    let (w, h) = paper.size_mm();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>\n{body}</svg>\n",
        w = n(w),
        h = n(h)
    )
}

/// Pixels a cell in the pictures drawn for a page, whose lines and marks are
/// sized for it: printed pictures are those, scaled.
const SCREEN_UNIT: f64 = 40.0;

/// A board as the page draws it, scaled to `unit` millimetres a cell with
/// its top left corner at (`left`, `top`).
pub(super) fn scaled_board(
    board: &Board,
    pieces: &[menace_core::picture::Piece],
    options: Options,
    left: f64,
    top: f64,
    unit: f64,
) -> String {
    let options = Options {
        unit: SCREEN_UNIT,
        ..options
    };
    format!(
        "<g transform=\"translate({} {}) scale({})\">{}</g>",
        n(left),
        n(top),
        unit / SCREEN_UNIT,
        board_group(board, pieces, &options, 0.0, 0.0)
    )
}

/// Boxes in the order sheets and listings number them: by the machine's move.
pub fn numbered<G: Game>(machine: &Machine<G>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..machine.boxes().len()).collect();
    order.sort_by_key(|&i| (machine.boxes().get(i).own_move, i));
    order
}
