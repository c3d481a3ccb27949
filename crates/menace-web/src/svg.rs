//! SVG pictures: a board with its pieces, and a matchbox drawn as its
//! position with one coloured arrow per bead colour. The web page and the
//! printed labels (`web::labels`) draw with the same code.

use std::fmt::Write;

use menace_core::game::Player;
use menace_core::picture::{Board, CellShape, Look, MoveCells, Picture};

/// The bead colours a person tells apart across a room: ten of the basic
/// colour words, each pair at least 20 apart in CIEDE2000 (the closest, red
/// and brown, 26.6), a name for the legend and a CSS colour. A box with more
/// moves than colours numbers its beads instead (see [`BeadColour`]).
pub const BEAD_COLOURS: [(&str, &str); 10] = [
    ("red", "#e6194b"),
    ("blue", "#2f6fdf"),
    ("green", "#3cb44b"),
    ("orange", "#f58231"),
    ("purple", "#911eb4"),
    ("yellow", "#ffe119"),
    ("pink", "#f5a3c7"),
    ("brown", "#8b4513"),
    ("black", "#222222"),
    ("cyan", "#42d4f4"),
];

/// The colour numbered beads are drawn in: they are told apart by number.
const NUMBERED_CSS: &str = "#9a9a9a";

/// How a bead is told apart from the others of its box: one of the
/// [`BEAD_COLOURS`], or, in a box with more moves than colours, a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BeadColour {
    /// The colour `BEAD_COLOURS[i]`.
    Named(u8),
    /// A bead with a number on it (from 1).
    Numbered(u16),
}

impl BeadColour {
    /// The colour's name (`red`), or a numbered bead's (`no. 12`).
    pub fn name(self) -> String {
        match self {
            BeadColour::Named(i) => BEAD_COLOURS[usize::from(i) % BEAD_COLOURS.len()].0.to_string(),
            BeadColour::Numbered(k) => format!("no. {k}"),
        }
    }

    /// The CSS colour it is drawn in.
    pub fn css(self) -> &'static str {
        match self {
            BeadColour::Named(i) => BEAD_COLOURS[usize::from(i) % BEAD_COLOURS.len()].1,
            BeadColour::Numbered(_) => NUMBERED_CSS,
        }
    }
}

/// The bead colours of a box at `pos` (the box's own position) with these
/// `moves`, in their order. A game that colours by cell (noughts and
/// crosses, as Michie's MENACE) gives each cell its own colour, the same in
/// every box; otherwise a box's moves take the colours in turn, and a box
/// with more moves than colours numbers its beads.
pub fn box_colours<G: Picture>(game: &G, pos: &G::Position, moves: &[G::Move]) -> Vec<BeadColour> {
    let cells = game.board().cells.len();
    if game.colours_by_cell() && cells <= BEAD_COLOURS.len() {
        let by_cell: Option<Vec<BeadColour>> = moves
            .iter()
            .map(|&mv| game.move_cells(pos, mv).to.map(|c| BeadColour::Named(c as u8)))
            .collect();
        if let Some(colours) = by_cell {
            return colours;
        }
    }
    if moves.len() <= BEAD_COLOURS.len() {
        (0..moves.len()).map(|k| BeadColour::Named(k as u8)).collect()
    } else {
        (1..=moves.len())
            .map(|k| BeadColour::Numbered(u16::try_from(k).unwrap_or(u16::MAX)))
            .collect()
    }
}

/// The font the pictures name (the page ships it; elsewhere a sans-serif stands in).
const FONT: &str = "DejaVu Sans, Verdana, sans-serif";

/// Cell fills by shade: light, dark, and a middle one for three-shade boards.
const SHADES: [&str; 3] = ["#f3e6cc", "#c9a27a", "#e0c39f"];

/// Text safe inside SVG or HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One bead colour drawn on a box: the move (on the board drawn), its beads,
/// its colour index, and whether it is the bead just drawn.
#[derive(Clone, Copy, Debug)]
pub struct BeadMark<M> {
    /// The move this colour plays.
    pub mv: M,
    /// Its beads in the box.
    pub beads: u32,
    /// Its colour.
    pub colour: BeadColour,
    /// Whether it is the bead just drawn.
    pub drawn: bool,
}

/// What to draw besides the board and its pieces.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Pixels between neighbouring cells.
    pub unit: f64,
    /// Cells get `data-cell` attributes and a `cell` class, for a page to click.
    pub interactive: bool,
    /// Cells of the last move, shaded.
    pub last: Option<MoveCells>,
    /// Arrows (or, for placements, discs) in bead colours: (cells, colour,
    /// beads, drawn).
    pub arrows: Vec<(MoveCells, BeadColour, u32, bool)>,
    /// Write the cell names in the cells (in a corner, clear of the pieces).
    pub names: bool,
    /// Turned half round (180°), for a person playing the side drawn at the top.
    pub turned: bool,
    /// Arrows and discs without their bead counts: a printed label lists the
    /// counts beside the board, in type large enough to read.
    pub bare_arrows: bool,
    /// The bead counts' text height in pixels, where more than 0.18 of a
    /// cell (the height by default): a box drawn small keeps them readable.
    pub count_height: f64,
}

/// Fixed-precision numbers keep the SVG short.
pub(super) fn n(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// The corners of a cell centred at the origin, in board units.
fn outline(shape: CellShape) -> Vec<(f64, f64)> {
    let r = 1.0 / 3f64.sqrt();
    match shape {
        CellShape::Square => vec![(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)],
        CellShape::PointyHex => vec![
            (0.0, -r),
            (0.5, -r / 2.0),
            (0.5, r / 2.0),
            (0.0, r),
            (-0.5, r / 2.0),
            (-0.5, -r / 2.0),
        ],
        CellShape::FlatHex => vec![
            (r, 0.0),
            (r / 2.0, 0.5),
            (-r / 2.0, 0.5),
            (-r, 0.0),
            (-r / 2.0, -0.5),
            (r / 2.0, -0.5),
        ],
    }
}

/// Whether a CSS colour `#rrggbb` is light (dark text on it).
fn is_light(css: &str) -> bool {
    let hex = css.trim_start_matches('#');
    let channel = |i: usize| u32::from_str_radix(hex.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    channel(0) * 299 + channel(2) * 587 + channel(4) * 114 > 140_000
}

/// The extent of a board's cells in board units: (min x, min y, max x, max y).
fn extent(board: &Board) -> (f64, f64, f64, f64) {
    let corners = outline(board.shape);
    let mut e = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for c in &board.cells {
        for &(dx, dy) in &corners {
            e.0 = e.0.min(c.x + dx);
            e.1 = e.1.min(c.y + dy);
            e.2 = e.2.max(c.x + dx);
            e.3 = e.3.max(c.y + dy);
        }
    }
    for edge in &board.edges {
        for (x, y) in [edge.from, edge.to] {
            e.0 = e.0.min(x - 0.1);
            e.1 = e.1.min(y - 0.1);
            e.2 = e.2.max(x + 0.1);
            e.3 = e.3.max(y + 0.1);
        }
    }
    if board.cells.is_empty() {
        (0.0, 0.0, 1.0, 1.0)
    } else {
        e
    }
}

/// The size in pixels of a board drawn with `unit` pixels a cell.
pub fn board_size(board: &Board, unit: f64) -> (f64, f64) {
    let (x0, y0, x1, y1) = extent(board);
    ((x1 - x0 + 0.2) * unit, (y1 - y0 + 0.2) * unit)
}

/// The board, its pieces and the options' marks as an SVG group in pixels,
/// its top left corner at (`left`, `top`).
pub fn board_group(
    board: &Board,
    pieces: &[menace_core::picture::Piece],
    options: &Options,
    left: f64,
    top: f64,
) -> String {
    let u = options.unit;
    let (x0, y0, x1, y1) = extent(board);
    let turned = options.turned;
    let px = |x: f64| left + ((if turned { x0 + x1 - x } else { x }) - x0 + 0.1) * u;
    let py = |y: f64| top + ((if turned { y0 + y1 - y } else { y }) - y0 + 0.1) * u;
    let corners = outline(board.shape);
    let mut out = String::new();
    let _ = write!(out, "<g class=\"board\">");
    for edge in &board.edges {
        let _ = write!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
            n(px(edge.from.0)),
            n(py(edge.from.1)),
            n(px(edge.to.0)),
            n(py(edge.to.1)),
            board.colours[edge.owner.index()],
            n(0.16 * u)
        );
    }
    let last: Vec<usize> = options
        .last
        .map(|m| m.from.into_iter().chain(m.to).collect())
        .unwrap_or_default();
    for (i, c) in board.cells.iter().enumerate() {
        let points: Vec<String> = corners
            .iter()
            .map(|&(dx, dy)| format!("{},{}", n(px(c.x + dx)), n(py(c.y + dy))))
            .collect();
        let fill = SHADES[usize::from(c.shade) % SHADES.len()];
        if options.interactive {
            let _ = write!(
                out,
                "<polygon class=\"cell\" data-cell=\"{i}\" data-name=\"{}\" points=\"{}\" fill=\"{fill}\" stroke=\"#6b5a45\" stroke-width=\"1\"><title>{}</title></polygon>",
                escape(&c.name),
                points.join(" "),
                escape(&c.name)
            );
        } else {
            let _ = write!(
                out,
                "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"#6b5a45\" stroke-width=\"0.8\"/>",
                points.join(" ")
            );
        }
        if last.contains(&i) {
            let _ = write!(
                out,
                "<polygon points=\"{}\" fill=\"#f7d94c\" fill-opacity=\"0.55\" pointer-events=\"none\"/>",
                points.join(" ")
            );
        }
        if options.names {
            // Above the piece: a square's top left corner, a hexagon's top strip.
            let (dx, dy, size, anchor) = match board.shape {
                CellShape::Square => (-0.45, -0.33, 0.16, "start"),
                CellShape::PointyHex => (0.0, -0.4, 0.13, "middle"),
                CellShape::FlatHex => (0.0, -0.385, 0.12, "middle"),
            };
            let _ = write!(
                out,
                "<text class=\"cell-name\" x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#3b2f22\" text-anchor=\"{anchor}\" pointer-events=\"none\">{}</text>",
                n(px(c.x) + dx * u),
                n(py(c.y) + dy * u),
                n(size * u),
                escape(&c.name)
            );
        }
    }
    for p in pieces {
        let Some(c) = board.cells.get(p.cell) else { continue };
        out.push_str(&piece(board, p, px(c.x), py(c.y), u));
    }
    let any_drawn = options.arrows.iter().any(|a| a.3);
    // How much larger than 0.18 of a cell the counts are (1 by default).
    let grow = options.count_height.max(0.18 * u) / (0.18 * u);
    let mut placed: Vec<Badge> = Vec::new();
    // Placements first (their counts sit on their cells), then arrows, each
    // count moved along or beside its arrow until it overlaps no other.
    let mut order: Vec<usize> = (0..options.arrows.len()).collect();
    order.sort_by_key(|&k| options.arrows[k].0.from.is_some());
    let mut drawn = vec![(String::new(), String::new()); options.arrows.len()];
    for k in order {
        let (cells, colour, beads, is_drawn) = options.arrows[k];
        let Some(to) = cells.to.and_then(|t| board.cells.get(t)) else {
            continue;
        };
        let line = Line {
            from: cells.from.and_then(|f| board.cells.get(f)).map(|f| (px(f.x), py(f.y))),
            to: (px(to.x), py(to.y)),
        };
        let badge = place_badge(&line, beads, u, grow, &placed);
        placed.push(badge);
        drawn[k] = arrow(&line, colour, beads, is_drawn, any_drawn, u, badge);
    }
    for (body, _) in &drawn {
        out.push_str(body);
    }
    if !options.bare_arrows {
        for (_, count) in &drawn {
            out.push_str(count);
        }
    }
    out.push_str("</g>");
    out
}

fn piece(board: &Board, p: &menace_core::picture::Piece, x: f64, y: f64, u: f64) -> String {
    let fill = board.colours[p.owner.index()];
    let ink = if is_light(fill) { "#222" } else { "#fafafa" };
    let stroke = if p.marked { "#f2b705" } else { "#222" };
    let width = if p.marked { 0.09 * u } else { 0.035 * u };
    let common = format!(
        "fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\" pointer-events=\"none\"",
        n(width)
    );
    match p.look {
        Look::Stone => format!("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {common}/>", n(x), n(y), n(0.36 * u)),
        Look::Pawn => {
            let body = [(-0.24, 0.3), (0.24, 0.3), (0.1, -0.02), (-0.1, -0.02)]
                .iter()
                .map(|&(dx, dy)| format!("{},{}", n(x + dx * u), n(y + dy * u)))
                .collect::<Vec<_>>()
                .join(" ");
            format!(
                "<g {common}><polygon points=\"{body}\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\"/></g>",
                n(x),
                n(y - 0.14 * u),
                n(0.15 * u)
            )
        }
        Look::Letter(letter) => format!(
            "<g pointer-events=\"none\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" {common}/><text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\" font-family=\"{FONT}\">{}</text></g>",
            n(x),
            n(y),
            n(0.36 * u),
            n(x),
            n(y + 0.15 * u),
            n(0.42 * u),
            escape(&letter.to_string())
        ),
        Look::Cross => {
            let d = 0.27 * u;
            format!(
                "<g stroke=\"{fill}\" stroke-width=\"{}\" stroke-linecap=\"round\" pointer-events=\"none\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/></g>",
                n(0.1 * u),
                n(x - d),
                n(y - d),
                n(x + d),
                n(y + d),
                n(x - d),
                n(y + d),
                n(x + d),
                n(y - d)
            )
        }
        Look::Nought => format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{fill}\" stroke-width=\"{}\" pointer-events=\"none\"/>",
            n(x),
            n(y),
            n(0.28 * u),
            n(0.1 * u)
        ),
    }
}

/// A bead count's label: its centre and half sizes, in pixels, and how
/// much larger than 0.18 of a cell its text is.
#[derive(Clone, Copy, Debug)]
struct Badge {
    x: f64,
    y: f64,
    half_w: f64,
    half_h: f64,
    grow: f64,
}

impl Badge {
    fn overlaps(&self, other: &Badge, gap: f64) -> bool {
        (self.x - other.x).abs() < self.half_w + other.half_w + gap
            && (self.y - other.y).abs() < self.half_h + other.half_h + gap
    }
}

/// Where an arrow runs, in pixels: from a piece (none for a placement) to a cell.
struct Line {
    from: Option<(f64, f64)>,
    to: (f64, f64),
}

/// The count's size (wide enough for its digits, `grow` times the default),
/// at the first place along or beside its arrow where it overlaps no label
/// already placed.
fn place_badge(line: &Line, beads: u32, u: f64, grow: f64, placed: &[Badge]) -> Badge {
    let digits = beads.to_string().len() as f64;
    // DejaVu Sans digits are 0.636 em wide; the text is 0.18 units high.
    let half_w = (0.15 * u * grow).max(digits * 0.636 * 0.18 * u * grow / 2.0 + 0.05 * u * grow);
    let half_h = 0.15 * u * grow;
    let gap = 0.02 * u;
    let (tx, ty) = line.to;
    let Some((fx, fy)) = line.from else {
        return Badge {
            x: tx,
            y: ty,
            half_w,
            half_h,
            grow,
        };
    };
    let (dx, dy) = (tx - fx, ty - fy);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (nx, ny) = (-dy / len, dx / len);
    for side in [0.0, 0.35, -0.35, 0.7, -0.7, 1.05, -1.05, 1.4, -1.4] {
        for t in [0.45, 0.3, 0.6, 0.2, 0.7, 0.12, 0.8] {
            let b = Badge {
                x: fx + dx * t + nx * side * u,
                y: fy + dy * t + ny * side * u,
                half_w,
                half_h,
                grow,
            };
            if !placed.iter().any(|p| p.overlaps(&b, gap)) {
                return b;
            }
        }
    }
    // Nowhere near: beside the target, past every label placed so far.
    let below = placed.iter().map(|p| p.y + p.half_h).fold(ty, f64::max);
    Badge {
        x: tx,
        y: below + gap + half_h,
        half_w,
        half_h,
        grow,
    }
}

/// An arrow (or a placement's disc) and, apart, its count: counts are drawn over every arrow.
fn arrow(
    line: &Line,
    colour: BeadColour,
    beads: u32,
    drawn: bool,
    any_drawn: bool,
    u: f64,
    badge: Badge,
) -> (String, String) {
    let css = colour.css();
    let opacity = if any_drawn && !drawn { 0.45 } else { 0.95 };
    let dash = if beads == 0 {
        format!(" stroke-dasharray=\"{} {}\"", n(0.08 * u), n(0.06 * u))
    } else {
        String::new()
    };
    let class = if drawn { " class=\"drawn\"" } else { "" };
    let (tx, ty) = line.to;
    let count = {
        let Badge {
            x,
            y,
            half_w,
            half_h,
            grow,
        } = badge;
        let shape = if half_w > half_h {
            format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"#fff\" stroke=\"{css}\" stroke-width=\"{}\"/>",
                n(x - half_w),
                n(y - half_h),
                n(2.0 * half_w),
                n(2.0 * half_h),
                n(half_h),
                n(0.04 * u)
            )
        } else {
            format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#fff\" stroke=\"{css}\" stroke-width=\"{}\"/>",
                n(x),
                n(y),
                n(half_h),
                n(0.04 * u)
            )
        };
        format!(
            "<g class=\"count\" pointer-events=\"none\">{shape}<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#222\" font-family=\"{FONT}\">{beads}</text></g>",
            n(x),
            n(y + 0.065 * u * grow),
            n(0.18 * u * grow)
        )
    };
    let Some((fx, fy)) = line.from else {
        // A placement: a disc of the bead colour on the cell, with its beads.
        let ring = if drawn {
            format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#111\" stroke-width=\"{}\"/>",
                n(tx),
                n(ty),
                n(0.34 * u),
                n(0.06 * u)
            )
        } else {
            String::new()
        };
        let disc = format!(
            "<g{class} opacity=\"{opacity}\" pointer-events=\"none\">{ring}<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{css}\" stroke=\"#222\" stroke-width=\"{}\"{dash}/></g>",
            n(tx),
            n(ty),
            n(0.26 * u),
            n(0.03 * u),
        );
        return (disc, count);
    };
    let (dx, dy) = (tx - fx, ty - fy);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (ux, uy) = (dx / len, dy / len);
    // Start off the piece's centre and stop short of the target's, head included.
    let (sx, sy) = (fx + ux * 0.18 * u, fy + uy * 0.18 * u);
    let head = 0.22 * u;
    let (ex, ey) = (tx - ux * 0.12 * u, ty - uy * 0.12 * u);
    let (bx, by) = (ex - ux * head, ey - uy * head);
    let (nx, ny) = (-uy, ux);
    let width = if drawn { 0.13 * u } else { 0.08 * u };
    let halo = if drawn {
        format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#111\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
            n(sx),
            n(sy),
            n(bx),
            n(by),
            n(width + 0.07 * u)
        )
    } else {
        String::new()
    };
    let half = head * 0.55;
    let body = format!(
        "<g{class} opacity=\"{opacity}\" pointer-events=\"none\">{halo}<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{css}\" stroke-width=\"{}\" stroke-linecap=\"round\"{dash}/><polygon points=\"{},{} {},{} {},{}\" fill=\"{css}\" stroke=\"#222\" stroke-width=\"{}\"/></g>",
        n(sx),
        n(sy),
        n(bx),
        n(by),
        n(width),
        n(ex),
        n(ey),
        n(bx + nx * half),
        n(by + ny * half),
        n(bx - nx * half),
        n(by - ny * half),
        n(0.02 * u),
    );
    (body, count)
}

/// A whole `<svg>` of a board with its pieces and marks.
pub fn board_svg<G: Picture>(game: &G, pos: &G::Position, options: &Options) -> String {
    let board = game.board();
    let (w, h) = board_size(&board, options.unit);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" font-family=\"{FONT}\">{}</svg>",
        n(w),
        n(h),
        n(w),
        n(h),
        board_group(&board, &game.pieces(pos), options, 0.0, 0.0)
    )
}

/// A box drawn as its position with an arrow per bead colour: `marks` name
/// the moves on the board of `pos`.
pub fn box_svg<G: Picture>(game: &G, pos: &G::Position, marks: &[BeadMark<G::Move>], unit: f64) -> String {
    box_svg_as(game, pos, marks, unit, false)
}

/// [`box_svg`], the board turned half round when `turned`.
pub fn box_svg_as<G: Picture>(
    game: &G,
    pos: &G::Position,
    marks: &[BeadMark<G::Move>],
    unit: f64,
    turned: bool,
) -> String {
    board_svg(game, pos, &box_options(game, pos, marks, unit, turned))
}

fn box_options<G: Picture>(
    game: &G,
    pos: &G::Position,
    marks: &[BeadMark<G::Move>],
    unit: f64,
    turned: bool,
) -> Options {
    Options {
        unit,
        arrows: marks
            .iter()
            .map(|m| (game.move_cells(pos, m.mv), m.colour, m.beads, m.drawn))
            .collect(),
        turned,
        ..Options::default()
    }
}

/// The width in CSS pixels of a box on a box card of the page's default
/// size: the card's 220 px less its padding (0.3em of 15 px) and border.
pub const CARD_WIDTH_PX: f64 = 209.0;

/// The least height in CSS pixels of a bead count on a box card of the
/// default size, whatever the board: about the card's legend's 12.75 px.
pub const CARD_COUNT_PX: f64 = 12.0;

/// A box as the page's box cards draw it, scaled to the card's width: its
/// bead counts at least [`CARD_COUNT_PX`] high on a card of the default
/// size (a 4×4 board's were 9 px, an 8×8's under 5).
pub fn box_card_svg<G: Picture>(game: &G, pos: &G::Position, marks: &[BeadMark<G::Move>], turned: bool) -> String {
    let unit = 30.0;
    let (width, _) = board_size(&game.board(), unit);
    let options = Options {
        count_height: CARD_COUNT_PX * width / CARD_WIDTH_PX,
        ..box_options(game, pos, marks, unit, turned)
    };
    board_svg(game, pos, &options)
}

/// The move of the game (counting both sides' moves from 1) at which a
/// machine playing `side` makes its `own_move`-th move.
pub fn game_move(side: Player, own_move: u32) -> u32 {
    2 * own_move.saturating_sub(1) + side.index() as u32 + 1
}
