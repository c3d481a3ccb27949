//! Matchbox labels for real paper: pages of A4 or Letter, in millimetres,
//! with whole labels sized for a matchbox top, cut marks and text of at
//! least 7 pt, after a page of instructions for running the machine by hand.
//! The same pages come out as SVG (one file a page), as one PDF (`menace`
//! makes it), or printed from the page file by the browser.
//!
//! ```
//! use menace_web::labels::{LabelSize, Paper};
//! assert_eq!(Paper::parse("letter").unwrap(), Paper::Letter);
//! assert_eq!(Paper::of_locale("en_US.UTF-8"), Some(Paper::Letter));
//! assert_eq!(LabelSize::parse("53x36").unwrap(), LabelSize::MATCHBOX);
//! ```

mod instructions;
mod paper;
pub mod text;

use menace_core::with_game;
use std::fmt::Write;

use crate::svg::{board_size, box_colours, n, BeadColour, Options};
use menace_core::game::{Game, Player};
use menace_core::machine::Machine;
use menace_core::picture::{Board, Look, Picture};
pub use paper::numbered;
use paper::{mm, page_svg, scaled_board, text_at};
pub use paper::{move_words, move_words_short, LabelError, LabelSize, Paper, Subject};
use text::{fitted, width, MIN_PT};

/// What a sheet is printed on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The paper size.
    pub paper: Paper,
    /// The label size asked for; none for a matchbox top, made taller if a
    /// game's boxes need it.
    pub label: Option<LabelSize>,
}

/// A sheet: its pages as whole SVG documents in millimetres.
#[derive(Clone, Debug)]
pub struct Sheet {
    /// Every page, front pages first.
    pub pages: Vec<String>,
    /// The paper the pages are laid out for.
    pub paper: Paper,
    /// The size of one label.
    pub label: LabelSize,
    /// How many labels (one a box).
    pub labels: usize,
    /// Labels a page (the last page may hold fewer).
    pub per_page: usize,
    /// Pages before the labels (instructions, the board).
    pub front_pages: usize,
    /// The sheet's title, as the PDF names it.
    pub title: String,
}

/// The number the labels give box `index` of `machine`: its place in
/// [`numbered`]'s order (by the machine's move, then by when the box was
/// made), from 1. The page names boxes by it too.
pub fn label_number<G: Game>(machine: &Machine<G>, index: u32) -> u32 {
    let boxes = machine.boxes();
    let key = (boxes.get(index as usize).own_move, index);
    let before = boxes
        .iter()
        .enumerate()
        .filter(|&(j, b)| (b.own_move, j as u32) < key)
        .count();
    u32::try_from(before).map_or(u32::MAX, |n| n + 1)
}

/// The sheet of the machine in a state file's text (as `menace train
/// --save` writes it), on `paper`, labels of the default size: what the
/// page's labels link prints.
pub fn sheet_of_state(text: &str, paper: Paper) -> Result<Sheet, LabelError> {
    let spec = menace_core::training::state::peek_game(text).map_err(|e| LabelError::Invalid(format!("state: {e}")))?;
    let any = menace_core::registry::parse_spec(&spec).map_err(|e| LabelError::Invalid(format!("state: game: {e}")))?;
    let name = any.machine_name();
    with_game!(any, g => {
        let trainer = menace_core::training::state::from_json(&g, text).map_err(|e| LabelError::Invalid(format!("state: {e}")))?;
        let subject = Subject {
            game: &g,
            machine: trainer.machine(),
            name,
            games_played: Some(trainer.games_played()).filter(|&g| g > 0),
        };
        sheet(&subject, Layout { paper, label: None })
    })
}

// A label's parts, in millimetres and points.
const PAD: f64 = 1.8;
const NUMBER_PT: f64 = 9.0;
const LINE: f64 = 3.1;
const GAP: f64 = 1.5;
/// Cells smaller than this are hard to read on a label.
const MIN_CELL: f64 = 4.0;
/// Cut marks: this long, this far from the labels' grid.
const MARK: f64 = 4.0;
const MARK_GAP: f64 = 1.5;
/// The page keeps this clear of its edges (most printers cannot print nearer),
/// besides the marks' room.
const EDGE: f64 = 5.5;
const FOOTER_PT: f64 = 8.0;

/// One label's text and picture, measured.
struct LabelText {
    number: String,
    position: String,
    moves: String,
    /// (colour, move, beads)
    legend: Vec<(BeadColour, String, String)>,
}

/// How a label's area is shared between its board and its legend.
struct Geometry {
    label: LabelSize,
    /// Where the board's area starts below the label's top.
    body_top: f64,
    legend_width: f64,
    name_width: f64,
    move_width: f64,
    unit: f64,
}

impl Geometry {
    fn body_height(&self) -> f64 {
        self.label.height - self.body_top - PAD
    }
}

/// Labels too small for their boxes: the size asked for, the smallest cell
/// allowed, and the width and height the boxes need (mm).
#[derive(Clone, Copy, Debug, PartialEq)]
struct TooSmall {
    size: LabelSize,
    min_unit: f64,
    need_width: f64,
    need_height: f64,
}

impl std::fmt::Display for TooSmall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let TooSmall {
            size,
            min_unit,
            need_width,
            need_height,
        } = *self;
        write!(
            f,
            "labels of {} × {} mm are too small for these boxes: with text of at least {MIN_PT} pt and cells of at least {} mm they need {} × {} mm (give --label-size {}x{})",
            n(size.width),
            n(size.height),
            n(min_unit),
            n(need_width.ceil()),
            n(need_height.ceil()),
            n(size.width.max(need_width).ceil()),
            n(size.height.max(need_height).ceil())
        )
    }
}

/// The geometry of labels of `size` for these texts, or how far they fall short.
fn geometry(size: LabelSize, texts: &[LabelText], board: &Board, min_unit: f64) -> Result<Geometry, TooSmall> {
    let small = MIN_PT;
    let name_width = texts
        .iter()
        .flat_map(|t| t.legend.iter().map(|(c, _, _)| width(&c.name(), small)))
        .fold(0.0, f64::max);
    let move_width = texts
        .iter()
        .flat_map(|t| t.legend.iter().map(|(_, m, _)| width(m, small)))
        .fold(0.0, f64::max);
    let count_width = texts
        .iter()
        .flat_map(|t| t.legend.iter().map(|(_, _, b)| width(b, small)))
        .fold(0.0, f64::max);
    let legend_width = 2.8 + name_width + 1.2 + move_width + 1.2 + count_width;
    let header = texts
        .iter()
        .map(|t| width(&t.moves, small).max(width(&t.number, NUMBER_PT) + 2.0 + width("…", small)))
        .fold(0.0, f64::max);
    let body_top = PAD + 0.8 * mm(NUMBER_PT) + 3.3 + 1.4;
    let lines = texts.iter().map(|t| t.legend.len()).max().unwrap_or(0) as f64;
    let (bw, bh) = board_size(board, 1.0);
    let need_width = (2.0 * PAD + legend_width + GAP + bw * min_unit).max(2.0 * PAD + header);
    let need_height = body_top + PAD + (lines * LINE).max(bh * min_unit);
    if size.width + 1e-9 < need_width || size.height + 1e-9 < need_height {
        return Err(TooSmall {
            size,
            min_unit,
            need_width,
            need_height,
        });
    }
    let body_h = size.height - body_top - PAD;
    let unit = ((size.width - 2.0 * PAD - legend_width - GAP) / bw).min(body_h / bh);
    Ok(Geometry {
        label: size,
        body_top,
        legend_width,
        name_width,
        move_width,
        unit,
    })
}

/// The smallest label of the matchbox's width that holds these boxes, at
/// least a matchbox top.
fn default_geometry(texts: &[LabelText], board: &Board, min_unit: f64) -> Result<Geometry, TooSmall> {
    let base = LabelSize::MATCHBOX;
    match geometry(base, texts, board, min_unit) {
        Ok(g) => Ok(g),
        Err(_) => {
            // Taller first (a box's side or a card tucked in), then wider.
            let lines = texts.iter().map(|t| t.legend.len()).max().unwrap_or(0) as f64;
            let (_, bh) = board_size(board, 1.0);
            let body_top = PAD + 0.8 * mm(NUMBER_PT) + 3.3 + 1.4;
            let height = (body_top + PAD + (lines * LINE).max(bh * min_unit))
                .ceil()
                .max(base.height);
            let mut size = LabelSize {
                width: base.width,
                height,
            };
            loop {
                match geometry(size, texts, board, min_unit) {
                    Ok(g) => return Ok(g),
                    Err(e) if size.width > 200.0 => return Err(e),
                    Err(_) => size.width += 1.0,
                }
            }
        }
    }
}

/// The label pages and the front pages of a machine's sheet.
pub fn sheet<G: Picture>(subject: &Subject<'_, G>, layout: Layout) -> Result<Sheet, LabelError> {
    let Subject {
        game,
        machine,
        name,
        games_played,
    } = subject;
    if machine.boxes().is_empty() {
        return Err(LabelError::Invalid(format!(
            "{name} has no boxes yet: it opens them as it meets positions, so play or train it first"
        )));
    }
    let board = game.board();
    let order = numbered(machine);
    let mut letters = false;
    let texts: Vec<LabelText> = order
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let b = machine.boxes().get(i);
            let pos = b.position(*game);
            let moves = machine.box_moves(i as u32);
            letters |= game.pieces(&pos).iter().any(|p| matches!(p.look, Look::Letter(_)));
            LabelText {
                number: format!("Box {}", k + 1),
                position: game.position_string(&pos),
                moves: move_words_short(name, machine.side(), b.own_move),
                legend: moves
                    .iter()
                    .zip(b.beads.iter())
                    .zip(box_colours(*game, &pos, &moves))
                    .map(|((&mv, beads), c)| (c, game.move_name(&pos, mv), format!("×{beads}")))
                    .collect(),
            }
        })
        .collect();
    // A piece's letter is set at 0.42 of a cell: 7 pt needs cells of 5.9 mm.
    let min_unit = if letters { mm(MIN_PT) / 0.42 } else { MIN_CELL };
    let geometry = match layout.label {
        Some(size) => geometry(size, &texts, &board, min_unit),
        None => default_geometry(&texts, &board, min_unit),
    }
    .map_err(|e| LabelError::DoesNotFit(e.to_string()))?;
    let size = geometry.label;
    let (pw, ph) = layout.paper.size_mm();
    let margin = EDGE + MARK + MARK_GAP;
    let foot_room = mm(FOOTER_PT) + 2.0;
    let columns = ((pw - 2.0 * margin) / size.width + 1e-9).floor() as usize;
    let rows = ((ph - 2.0 * margin - foot_room) / size.height + 1e-9).floor() as usize;
    if columns == 0 || rows == 0 {
        return Err(LabelError::DoesNotFit(format!(
            "labels of {} × {} mm do not fit on {} paper with room for cut marks ({} × {} mm at most)",
            n(size.width),
            n(size.height),
            layout.paper.name(),
            n(pw - 2.0 * margin),
            n(ph - 2.0 * margin - foot_room)
        )));
    }
    let per_page = columns * rows;
    let title = sheet_title(*game, name, machine.side(), texts.len(), *games_played);
    let label_pages = texts.len().div_ceil(per_page).max(1);
    let (front, footer) = instructions::pages(
        subject,
        layout.paper,
        size,
        per_page,
        label_pages,
        &texts_beads(subject),
        &order
            .iter()
            .zip(&texts)
            .enumerate()
            .map(|(k, (&i, t))| instructions::IndexEntry {
                own_move: machine.boxes().get(i).own_move,
                position: t.position.clone(),
                number: k + 1,
            })
            .collect::<Vec<_>>(),
    );
    let front_pages = front.len();
    let total_pages = front_pages + label_pages;
    let mut pages: Vec<String> = front
        .into_iter()
        .enumerate()
        .map(|(i, page)| {
            let foot = text_at(
                pw / 2.0,
                ph - EDGE - 1.0,
                FOOTER_PT,
                "middle",
                "#555",
                &fitted(
                    &format!("{footer} · page {} of {total_pages}", i + 1),
                    FOOTER_PT,
                    pw - 2.0 * EDGE,
                ),
            );
            page.replace("</svg>\n", &format!("{foot}</svg>\n"))
        })
        .collect();
    for (p, chunk) in order.chunks(per_page).enumerate() {
        let first = p * per_page;
        let grid_w = columns as f64 * size.width;
        let used_rows = chunk.len().div_ceil(columns);
        let grid_h = rows as f64 * size.height;
        let left = (pw - grid_w) / 2.0;
        let top = margin + ((ph - 2.0 * margin - foot_room) - grid_h) / 2.0;
        let mut body = String::new();
        for (k, &i) in chunk.iter().enumerate() {
            let x = left + (k % columns) as f64 * size.width;
            let y = top + (k / columns) as f64 * size.height;
            body.push_str(&one_label(
                *game,
                &board,
                machine,
                i,
                &texts[first + k],
                &geometry,
                x,
                y,
            ));
        }
        body.push_str(&cut_marks(left, top, columns, used_rows, size));
        let last = first + chunk.len();
        let foot = format!(
            "{title} · boxes {}–{last} · page {} of {total_pages} · cut along the grey lines",
            first + 1,
            front_pages + p + 1,
        );
        body.push_str(&text_at(
            pw / 2.0,
            ph - EDGE - 1.0,
            FOOTER_PT,
            "middle",
            "#333",
            &fitted(&foot, FOOTER_PT, pw - 2.0 * EDGE),
        ));
        pages.push(page_svg(layout.paper, &body));
    }
    Ok(Sheet {
        pages,
        paper: layout.paper,
        label: size,
        labels: texts.len(),
        per_page,
        front_pages,
        title,
    })
}

/// Beads of each colour over all the boxes, as the labels list them.
fn texts_beads<G: Picture>(subject: &Subject<'_, G>) -> Vec<(BeadColour, u64)> {
    let mut counts: std::collections::BTreeMap<BeadColour, u64> = std::collections::BTreeMap::new();
    for (i, b) in subject.machine.boxes().iter().enumerate() {
        let colours = box_colours(
            subject.game,
            &b.position(subject.game),
            &subject.machine.box_moves(i as u32),
        );
        for (c, beads) in colours.into_iter().zip(b.beads.iter()) {
            *counts.entry(c).or_default() += u64::from(beads);
        }
    }
    counts.into_iter().collect()
}

/// Marks continuing the grid's lines into the margins: one cut along each
/// separates every label.
fn cut_marks(left: f64, top: f64, columns: usize, rows: usize, size: LabelSize) -> String {
    let mut out = String::from("<g stroke=\"#000\" stroke-width=\"0.25\">");
    let right = left + columns as f64 * size.width;
    let bottom = top + rows as f64 * size.height;
    let mut line = |x1: f64, y1: f64, x2: f64, y2: f64| {
        let _ = write!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            n(x1),
            n(y1),
            n(x2),
            n(y2)
        );
    };
    for c in 0..=columns {
        let x = left + c as f64 * size.width;
        line(x, top - MARK_GAP - MARK, x, top - MARK_GAP);
        line(x, bottom + MARK_GAP, x, bottom + MARK_GAP + MARK);
    }
    for r in 0..=rows {
        let y = top + r as f64 * size.height;
        line(left - MARK_GAP - MARK, y, left - MARK_GAP, y);
        line(right + MARK_GAP, y, right + MARK_GAP + MARK, y);
    }
    out.push_str("</g>\n");
    out
}

#[allow(clippy::too_many_arguments)]
fn one_label<G: Picture>(
    game: &G,
    board: &Board,
    machine: &Machine<G>,
    index: usize,
    text: &LabelText,
    g: &Geometry,
    x: f64,
    y: f64,
) -> String {
    let b = machine.boxes().get(index);
    let pos = b.position(game);
    let size = g.label;
    let mut out = format!(
        "<g class=\"label\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fffdf7\" stroke=\"#999\" stroke-width=\"0.15\"/>",
        n(x),
        n(y),
        n(size.width),
        n(size.height)
    );
    let line1 = y + PAD + 0.8 * mm(NUMBER_PT);
    out.push_str(&text_at(x + PAD, line1, NUMBER_PT, "start", "#111", &text.number));
    let room = size.width - 2.0 * PAD - width(&text.number, NUMBER_PT) - 2.0;
    out.push_str(&text_at(
        x + size.width - PAD,
        line1,
        MIN_PT,
        "end",
        "#555",
        &fitted(&text.position, MIN_PT, room),
    ));
    out.push_str(&text_at(x + PAD, line1 + 3.3, MIN_PT, "start", "#222", &text.moves));
    let moves = machine.box_moves(index as u32);
    let options = Options {
        arrows: moves
            .iter()
            .zip(b.beads.iter())
            .zip(box_colours(game, &pos, &moves))
            .map(|((&mv, beads), c)| (game.move_cells(&pos, mv), c, beads, false))
            .collect(),
        bare_arrows: true,
        ..Options::default()
    };
    let (bw, bh) = board_size(board, g.unit);
    let board_left = x + PAD + (size.width - 2.0 * PAD - g.legend_width - GAP - bw) / 2.0;
    let board_top = y + g.body_top + (g.body_height() - bh) / 2.0;
    out.push_str(&scaled_board(
        board,
        &game.pieces(&pos),
        options,
        board_left,
        board_top,
        g.unit,
    ));
    let legend_left = x + size.width - PAD - g.legend_width;
    let legend_top = y + g.body_top + (g.body_height() - text.legend.len() as f64 * LINE) / 2.0;
    for (k, (c, mv, beads)) in text.legend.iter().enumerate() {
        let (colour, css) = (c.name(), c.css());
        let base = legend_top + (k as f64 + 0.78) * LINE;
        let _ = write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"1.1\" fill=\"{css}\" stroke=\"#222\" stroke-width=\"0.15\"/>",
            n(legend_left + 1.1),
            n(base - 0.85)
        );
        out.push_str(&text_at(legend_left + 2.8, base, MIN_PT, "start", "#222", &colour));
        out.push_str(&text_at(
            legend_left + 2.8 + g.name_width + 1.2,
            base,
            MIN_PT,
            "start",
            "#111",
            mv,
        ));
        out.push_str(&text_at(
            legend_left + 2.8 + g.name_width + 1.2 + g.move_width + 1.2,
            base,
            MIN_PT,
            "start",
            "#111",
            beads,
        ));
    }
    out.push_str("</g>\n");
    out
}

/// The name a sheet goes by: `HER: 19 matchboxes for Black in Hexapawn`,
/// the game named by its own title.
pub fn sheet_title<G: Game>(
    game: &G,
    machine_name: &str,
    side: Player,
    boxes: usize,
    games_played: Option<u64>,
) -> String {
    let after = match games_played {
        Some(1) => ", after 1 game".to_string(),
        Some(g) => format!(", after {g} games"),
        None => String::new(),
    };
    let matchboxes = if boxes == 1 { "matchbox" } else { "matchboxes" };
    format!(
        "{machine_name}: {boxes} {matchboxes} for {} in {}{after}",
        game.player_name(side),
        game.title()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_from_locales_and_languages() {
        assert_eq!(Paper::of_locale("en_US.UTF-8"), Some(Paper::Letter));
        assert_eq!(Paper::of_locale("fr_CA"), Some(Paper::Letter));
        assert_eq!(Paper::of_locale("en_GB.UTF-8@euro"), Some(Paper::A4));
        assert_eq!(Paper::of_locale("C"), None);
        assert_eq!(Paper::of_locale("en"), None);
        assert_eq!(Paper::of_accept_language("en-US,en;q=0.9"), Some(Paper::Letter));
        assert_eq!(Paper::of_accept_language("de-DE;q=1"), Some(Paper::A4));
        assert!(Paper::parse("b5").unwrap_err().to_string().contains("'b5'"));
    }

    #[test]
    fn label_sizes_read_and_refuse_by_value() {
        assert_eq!(
            LabelSize::parse("35×15").unwrap(),
            LabelSize {
                width: 35.0,
                height: 15.0
            }
        );
        assert_eq!(LabelSize::parse(" 53mm x 36mm ").unwrap(), LabelSize::MATCHBOX);
        for bad in ["53", "0x36", "53x-1", "ax36", "53xinf"] {
            let e = LabelSize::parse(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("'{bad}'")), "{e}");
        }
    }

    #[test]
    fn a_sheets_title_counts_in_words() {
        let her = menace_core::Hexapawn::new(3, 3).unwrap();
        assert_eq!(
            sheet_title(&her, "HER", Player::Two, 19, Some(1)),
            "HER: 19 matchboxes for Black in Hexapawn, after 1 game"
        );
        assert_eq!(
            sheet_title(&her, "HER", Player::Two, 1, Some(50)),
            "HER: 1 matchbox for Black in Hexapawn, after 50 games"
        );
        assert_eq!(
            sheet_title(&her, "HER", Player::Two, 19, None),
            "HER: 19 matchboxes for Black in Hexapawn"
        );
    }

    #[test]
    fn moves_said_both_ways() {
        assert_eq!(move_words("HER", Player::Two, 2), "HER's move 2 (move 4 of the game)");
        assert_eq!(move_words_short("HER", Player::Two, 2), "HER's move 2 · game move 4");
        assert_eq!(
            move_words("MENACE", Player::One, 3),
            "MENACE's move 3 (move 5 of the game)"
        );
    }
}
