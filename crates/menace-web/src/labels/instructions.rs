//! The front pages of a sheet: how to build the machine and run it by hand
//! under its own rules (bead key, reinforcement, empty boxes), and a board
//! to play on.

use std::fmt::Write;

use super::paper::{
    mm, move_words, move_words_short, numbered, page_svg, scaled_board, text_at, LabelSize, Paper, Subject,
};
use super::text::{fitted, width, wrap};
use crate::svg::{board_size, box_colours, n, BeadColour, Options};
use menace_core::game::About;
use menace_core::machine::settings::{EmptyBox, Reinforcement, Scope};
use menace_core::picture::Picture;
use menace_core::symmetry::Symmetry;

const MARGIN: f64 = 18.0;
const BODY_PT: f64 = 10.0;
const HEAD_PT: f64 = 12.5;
const TITLE_PT: f64 = 16.0;
/// A last page used less than this much is near empty: the instructions
/// are set smaller (to 85% at least) to save it.
const NEAR_EMPTY: f64 = 0.3;

/// Text set down a page, onto a new page when it is full.
struct Flow {
    paper: Paper,
    pages: Vec<String>,
    body: String,
    y: f64,
    /// The type's size, as a share of the sizes above (smaller to fit a page).
    scale: f64,
}

impl Flow {
    fn new(paper: Paper) -> Flow {
        Flow::scaled(paper, 1.0)
    }

    fn scaled(paper: Paper, scale: f64) -> Flow {
        Flow {
            paper,
            pages: Vec::new(),
            body: String::new(),
            y: MARGIN,
            scale,
        }
    }

    /// A type size of the flow: `pt` at its scale.
    fn pt(&self, pt: f64) -> f64 {
        pt * self.scale
    }

    /// How full its last page is, from 0 (empty) to 1.
    fn last_page_used(&self) -> f64 {
        (self.y - MARGIN) / (self.bottom() - MARGIN)
    }

    fn width(&self) -> f64 {
        self.paper.size_mm().0 - 2.0 * MARGIN
    }

    fn bottom(&self) -> f64 {
        self.paper.size_mm().1 - MARGIN
    }

    /// Room for `height` more millimetres, on a new page if need be.
    fn room(&mut self, height: f64) {
        if self.y + height > self.bottom() && !self.body.is_empty() {
            self.pages.push(page_svg(self.paper, &std::mem::take(&mut self.body)));
            self.y = MARGIN;
        }
    }

    fn lines(&mut self, text: &str, pt: f64, indent: f64, fill: &str) {
        let leading = mm(pt) * 1.3;
        for line in wrap(text, pt, self.width() - indent) {
            self.room(leading);
            self.y += leading;
            self.body.push_str(&text_at(
                MARGIN + indent,
                self.y - 0.25 * leading,
                pt,
                "start",
                fill,
                &line,
            ));
        }
    }

    fn title(&mut self, text: &str) {
        self.lines(text, self.pt(TITLE_PT), 0.0, "#111");
        self.y += 1.0;
    }

    fn heading(&mut self, text: &str) {
        self.room(4.0 * mm(self.pt(HEAD_PT)));
        self.y += 2.5;
        self.lines(text, self.pt(HEAD_PT), 0.0, "#111");
        self.y += 0.5;
    }

    fn para(&mut self, text: &str) {
        self.lines(text, self.pt(BODY_PT), 0.0, "#222");
        self.y += 1.2;
    }

    /// A numbered step, its text hanging beside its number.
    fn step(&mut self, number: usize, text: &str) {
        let leading = mm(self.pt(BODY_PT)) * 1.3;
        self.room(leading);
        self.body.push_str(&text_at(
            MARGIN + 4.0,
            self.y + 0.75 * leading,
            self.pt(BODY_PT),
            "end",
            "#222",
            &format!("{number}."),
        ));
        self.lines(text, self.pt(BODY_PT), 6.0, "#222");
        self.y += 0.8;
    }

    /// The bead key: a disc, the colour's name (and, where a colour is a
    /// cell's, the cell) and the beads to buy, in columns.
    fn colour_key(&mut self, counts: &[(BeadColour, u64)], cells: Option<&[String]>) {
        const COLUMNS: usize = 3;
        let row = 6.0;
        let column = self.width() / COLUMNS as f64;
        for chunk in counts.chunks(COLUMNS) {
            self.room(row);
            for (k, &(c, beads)) in chunk.iter().enumerate() {
                let css = c.css();
                let name = match (c, cells) {
                    (BeadColour::Named(i), Some(cells)) => {
                        format!("{}: {}", c.name(), cells.get(usize::from(i)).map_or("", String::as_str))
                    }
                    _ => c.name(),
                };
                let x = MARGIN + k as f64 * column;
                let _ = write!(
                    self.body,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"2\" fill=\"{css}\" stroke=\"#222\" stroke-width=\"0.2\"/>",
                    n(x + 2.5),
                    n(self.y + row / 2.0)
                );
                let base = self.y + row / 2.0 + 0.35 * mm(self.pt(BODY_PT));
                self.body
                    .push_str(&text_at(x + 6.0, base, self.pt(BODY_PT), "start", "#222", &name));
                self.body.push_str(&text_at(
                    x + column - 6.0,
                    base,
                    self.pt(BODY_PT),
                    "end",
                    "#111",
                    &format!("{beads} bead{}", if beads == 1 { "" } else { "s" }),
                ));
            }
            self.y += row;
        }
        self.y += 1.5;
    }

    /// The pages.
    fn finish(mut self) -> Vec<String> {
        if !self.body.is_empty() {
            self.pages.push(page_svg(self.paper, &std::mem::take(&mut self.body)));
        }
        self.pages
    }
}

/// What a bead change does, in words: `it` is the bead (or beads) it applies to.
fn change_words(delta: i32, it: &str, its: &str) -> String {
    match delta {
        d if d > 0 => format!("put {it} back with {d} more of {its} colour"),
        0 => format!("put {it} back"),
        -1 => format!("take {it} away (keep it out of the box)"),
        d => format!(
            "take {it} away, and {} more of {its} colour from the same box (as many as it holds)",
            -d - 1
        ),
    }
}

/// The reinforcement after a game, in words, one sentence per result.
fn reinforcement_steps(r: &Reinforcement, name: &str, draws: bool) -> Vec<String> {
    let mut results = vec![("a win", r.win)];
    if draws {
        results.push(("a draw", r.draw));
    }
    results.push(("a loss", r.loss));
    results
        .into_iter()
        .map(|(result, delta)| match r.scope {
            Scope::All => format!(
                "After {result}: for every box {name} drew from, {}.",
                change_words(delta, "the bead drawn", "its")
            ),
            Scope::Last if delta == 0 => {
                format!("After {result}: put every drawn bead back in its box; nothing else changes.")
            }
            Scope::Last => format!(
                "After {result}: {} — the bead of {name}'s last move; put every other drawn bead back in its box.",
                change_words(delta, "one bead", "its")
            ),
        })
        .collect()
}

/// The history of the machine a sheet is for: the game's own historical
/// machine where it has one, else the idea's.
fn lineage(game: &impl About) -> &'static str {
    game.machine_history()
        .unwrap_or("A matchbox machine in the manner of Michie's MENACE (1961) and Gardner's HER (1962).")
}

/// How a box's board may differ from the one on the table, in the game's words.
fn symmetry_words(game: &impl About, count: usize) -> String {
    game.symmetry_words()
        .map_or_else(|| format!("in one of its {count} symmetric forms"), str::to_string)
}

/// The kinds of bead a key lists: `in 4 colours`, or `in 10 colours and
/// numbered 1 to 25`.
fn kinds(counts: &[(BeadColour, u64)]) -> String {
    let named = counts.iter().filter(|(c, _)| matches!(c, BeadColour::Named(_))).count();
    let numbered = counts
        .iter()
        .filter_map(|(c, _)| match c {
            BeadColour::Numbered(k) => Some(*k),
            BeadColour::Named(_) => None,
        })
        .max();
    let colours = format!("in {named} colour{}", if named == 1 { "" } else { "s" });
    match numbered {
        Some(k) => format!("{colours} and numbered 1 to {k}"),
        None => colours,
    }
}

/// One box as the index lists it: the machine's move it is for, its
/// position string (as its label prints it) and its number.
pub(super) struct IndexEntry {
    pub(super) own_move: u32,
    pub(super) position: String,
    pub(super) number: usize,
}

/// The instructions page (or pages), the board page, the tally sheet and,
/// for a sheet of more than one page of labels, the index of boxes by
/// position; and the line their footers begin with.
pub(super) fn pages<G: Picture>(
    subject: &Subject<'_, G>,
    paper: Paper,
    label: LabelSize,
    per_page: usize,
    label_pages: usize,
    counts: &[(BeadColour, u64)],
    index: &[IndexEntry],
) -> (Vec<String>, String) {
    let Subject {
        game,
        machine,
        name,
        games_played,
    } = subject;
    let title = game.title();
    let settings = machine.settings();
    let draws = game.can_draw();
    let with_index = label_pages > 1;
    let side = machine.side();
    let boxes = machine.boxes().len();
    // The instructions at full size; where their last page would hold only
    // a few lines, a little smaller, so that no page is near empty.
    let write = |scale: f64| {
        let mut flow = Flow::scaled(paper, scale);
        flow.title(&format!(
            "{name}: build it from {boxes} matchboxes, and play it by hand"
        ));
        flow.para(&format!(
            "{} {name} plays {} in {title}; you, or a pupil, play the other side.",
            lineage(*game),
            game.player_name(side)
        ));

        flow.heading(&format!("The rules of {title}"));
        let history = game.history();
        for rule in game.rules().iter().filter(|r| **r != history) {
            flow.para(rule);
        }

        flow.heading("What you need");
        let total: u64 = counts.iter().map(|&(_, b)| b).sum();
        flow.para(&format!(
            "{boxes} empty matchboxes; glue or tape; the {} of labels that follow{} ({per_page} labels a page, each {} × {} mm{}); and {total} beads (or sweets, or buttons) {}, of each as many as this key says:",
            if label_pages == 1 { "page".to_string() } else { format!("{label_pages} pages") },
            if label_pages == 1 { "s" } else { "" },
            n(label.width),
            n(label.height),
            if label == LabelSize::MATCHBOX { ", the top of a common matchbox" } else { "" },
            kinds(counts)
        ));
        let cells: Option<Vec<String>> = game
            .colours_by_cell()
            .then(|| game.board().cells.into_iter().map(|c| c.name).collect());
        flow.colour_key(counts, cells.as_deref());
        if cells.is_some() {
            flow.para("Each colour is one cell, the same in every box, as in Michie's MENACE: a bead of that colour plays on that cell of the box's own picture.");
        }
        let r = settings.reinforcement;
        if r.win > 0 || (draws && r.draw > 0) {
            let after = if draws { "after a win or a draw" } else { "after a win" };
            flow.para(&format!("This rule adds beads {after}: keep a spare bag of each colour, at least as many again as the key says."));
        } else {
            flow.para("This rule only ever takes beads away: you need no spares.");
        }
        if counts.iter().any(|(c, _)| matches!(c, BeadColour::Numbered(_))) {
            flow.para(&format!("A box with more moves than there are colours ({}) uses numbered beads instead (\"no. 12\"): write the numbers on plain beads, counters or buttons.", crate::svg::BEAD_COLOURS.len()));
        }
        if let Some(g) = games_played {
            flow.para(&format!(
                "The labels give the beads of this machine after {g} games of training, not those of a fresh machine."
            ));
        }

        flow.heading("Build it");
        let example_move = machine.boxes().iter().map(|b| b.own_move).max().unwrap_or(1).min(2);
        flow.step(1, "Cut out the labels along their thin grey lines. The black marks in the margins continue those lines, so that one straight cut runs across a whole row or column.");
        flow.step(2, "Glue one label on the top of each matchbox.");
        let placements = machine.boxes().iter().any(|b| {
            let pos = b.position(*game);
            b.moves(*game, machine.settings().symmetry)
                .into_iter()
                .any(|mv| game.move_cells(&pos, mv).from.is_none())
        });
        flow.step(
            3,
            &format!(
                "Fill each box as its label lists: for each coloured disc, as many beads of that colour as the number after the move (\"×1\" is one bead). The {} of that colour on the label's board is the move the colour stands for.",
                if placements { "disc (a cell to place on)" } else { "arrow" }
            ),
        );
        flow.step(
            4,
            &format!(
                "Stand the boxes in the order of their numbers. Each label says which of {name}'s moves it is for: \"{}\" on a label is {}. {name}'s moves are counted on their own; the game's moves count both players' moves, from the first.{}",
                move_words_short(name, side, example_move),
                move_words(name, side, example_move),
                if with_index { " The index after the tally sheet lists every box by its position, to find one quickly." } else { "" }
            ),
        );

        flow.heading("Play a game");
        let first = game.player_name(game.turn(&game.start()));
        let mover = if game.turn(&game.start()) == side {
            format!("{name} plays {}, so it moves first", game.player_name(side))
        } else {
            format!("{name} plays {}, so it moves second", game.player_name(side))
        };
        flow.step(
            1,
            &format!("Set up the board (the page after this one is one to print). {first} moves first; {mover}."),
        );
        let symmetries = <G::Symmetry as Symmetry>::ALL.len();
        let symmetry = if settings.symmetry && symmetries > 1 {
            format!(
                " A box also stands for its board {}: if the board you play on shows a label's board that way, play the bead's move that way too (an example follows).",
                symmetry_words(*game, symmetries)
            )
        } else {
            String::new()
        };
        flow.step(
            2,
            &format!("When it is {name}'s turn, find the box whose label shows the position on the board, among the boxes for that move.{symmetry}"),
        );
        flow.step(3, "Shake the box, open it, and take out one bead without looking.");
        flow.step(4, &format!("Play the move of that bead's colour for {name} (its {} on the label). Put the bead on top of its box, or beside it with the box left open: after the game you need to know which bead came from which box.", if placements { "disc" } else { "arrow" }));
        flow.step(5, "Make the other side's move, and go on until the game ends.");
        if settings.symmetry && symmetries > 1 {
            mirror_example(&mut flow, subject);
        }

        let rule = if r == Reinforcement::GARDNER {
            "Gardner's rule".to_string()
        } else if r == Reinforcement::MICHIE {
            "Michie's rule".to_string()
        } else {
            format!("the rule {r}")
        };
        flow.heading(&format!("After the game: {rule}"));
        for line in reinforcement_steps(&r, name, draws) {
            flow.para(&line);
        }

        flow.heading("An empty box");
        match settings.empty_box {
            EmptyBox::Resign => {
                let gardner = if r.scope == Scope::Last {
                    format!(" and, as after any loss, the bead of {name}'s last move (the one that led there) is taken away")
                } else {
                    String::new()
                };
                flow.para(&format!(
                    "If the box for the position is empty, {name} resigns: the game counts as a loss{gardner}. A box that empties this way tells you the move that led to it loses."
                ));
            }
            EmptyBox::Restock => flow.para(&format!(
                "If the box for the position is empty, fill it again with its starting beads (for {name}'s move k, as many of each colour as the schedule {} gives for k) and draw from it.",
                settings.beads
            )),
            EmptyBox::Floor(k) => flow.para(&format!(
                "No colour ever drops below {k} bead{} in a box: where taking one away would leave fewer, leave it in. So no box ever empties.",
                if k == 1 { "" } else { "s" }
            )),
        }

        flow.para(&format!(
            "Write every game on the tally sheet (after the board): who played, the result{} and, after a loss, the bead taken. {name} should lose less and less often.",
            if draws { " (win, draw or loss)" } else { " (win or loss)" }
        ));
        flow
    };
    let mut flow = write(1.0);
    for scale in [0.95, 0.9, 0.85] {
        if flow.pages.is_empty() || flow.last_page_used() > NEAR_EMPTY {
            break;
        }
        let smaller = write(scale);
        if smaller.pages.len() < flow.pages.len() {
            flow = smaller;
            break;
        }
    }
    let footer = format!("{name} for {title}: {}", settings.describe());

    // The board to play on: the cells named, and the start position beside.
    let mut board_page = Flow::new(paper);
    board_page.title(&format!("A board for {title}"));
    board_page.para("Play with coins or counters on this board; the start position is shown below it.");
    let board = game.board();
    let (bw, bh) = board_size(&board, 1.0);
    let big = (board_page.width() / bw).min(150.0 / bh).min(45.0);
    let left = MARGIN + (board_page.width() - bw * big) / 2.0;
    let named = Options {
        names: true,
        ..Options::default()
    };
    board_page
        .body
        .push_str(&scaled_board(&board, &[], named, left, board_page.y + 2.0, big));
    board_page.y += bh * big + 6.0;
    let small = (60.0 / bw).min(60.0 / bh).min(15.0);
    let start = game.start();
    board_page.para(&format!("The start position ({}):", game.position_string(&start)));
    let left = MARGIN + (board_page.width() - bw * small) / 2.0;
    board_page.body.push_str(&scaled_board(
        &board,
        &game.pieces(&start),
        Options::default(),
        left,
        board_page.y + 1.0,
        small,
    ));

    let mut pages = flow.finish();
    pages.extend(board_page.finish());
    pages.extend(tally_sheet(subject, paper));
    if with_index {
        pages.extend(index_pages(subject, paper, index));
    }
    (pages, footer)
}

/// A box's board and the same board under one of the game's symmetries,
/// side by side, with one bead's move on each: how one box serves both.
fn mirror_example<G: Picture>(flow: &mut Flow, subject: &Subject<'_, G>) {
    let Subject { game, machine, .. } = subject;
    let game = *game;
    // The first box, by number, with a choice and a move that reads
    // differently on the board's image.
    let found = numbered(machine).into_iter().enumerate().find_map(|(k, i)| {
        let b = machine.boxes().get(i);
        let pos = b.position(game);
        let seen = game.position_string(&pos);
        let moves = machine.box_moves(i as u32);
        let colours = box_colours(game, &pos, &moves);
        <G::Symmetry as Symmetry>::ALL
            .iter()
            .copied()
            .filter(|s| !s.is_identity())
            .find_map(|s| {
                let image = game.map_position(&pos, s);
                if moves.len() < 2 || game.position_string(&image) == seen {
                    return None;
                }
                moves.iter().zip(&colours).find_map(|(&mv, &c)| {
                    let there = game.map_move(mv, s);
                    let (here_name, there_name) = (game.move_name(&pos, mv), game.move_name(&image, there));
                    (here_name != there_name)
                        .then(|| (k + 1, pos.clone(), image.clone(), (mv, there, c, here_name, there_name)))
                })
            })
    });
    let Some((number, pos, image, (mv, there, colour, here_name, there_name))) = found else {
        return;
    };
    let words = symmetry_words(game, <G::Symmetry as Symmetry>::ALL.len());
    let heading = format!("One box for a board {words}: an example");
    let said = format!(
        "On the left, the board of box {number}'s label. On the right, the same position {words}: it has no box of its own, so when the board you play on looks like it, open box {number}. A {} bead there is {here_name} on the label's board; play that move {words} too: {there_name} on the board you play on.",
        colour.name()
    );
    let board = game.board();
    let (bw, bh) = board_size(&board, 1.0);
    let unit = (32.0 / bw).min(32.0 / bh);
    let caption = mm(flow.pt(BODY_PT)) * 1.5;
    // The words and the boards on one page.
    let text_height = 4.0 * mm(flow.pt(HEAD_PT))
        + wrap(&said, flow.pt(BODY_PT), flow.width()).len() as f64 * mm(flow.pt(BODY_PT)) * 1.3;
    flow.room(text_height + caption + bh * unit + 4.0);
    flow.heading(&heading);
    flow.para(&said);
    flow.room(caption + bh * unit + 4.0);
    let half = flow.width() / 2.0;
    for (k, (p, m, said)) in [
        (&pos, mv, format!("box {number}'s label: {here_name}")),
        (&image, there, format!("the board you play on: {there_name}")),
    ]
    .into_iter()
    .enumerate()
    {
        let centre = MARGIN + half * (k as f64 + 0.5);
        flow.body.push_str(&text_at(
            centre,
            flow.y + mm(flow.pt(BODY_PT)),
            flow.pt(BODY_PT),
            "middle",
            "#222",
            &said,
        ));
        let options = Options {
            arrows: vec![(game.move_cells(p, m), colour, 1, false)],
            bare_arrows: true,
            ..Options::default()
        };
        flow.body.push_str(&scaled_board(
            &board,
            &game.pieces(p),
            options,
            centre - bw * unit / 2.0,
            flow.y + caption,
            unit,
        ));
    }
    flow.y += caption + bh * unit + 4.0;
}

/// A page to record the games on: one row a game, with who played, the
/// result, the beads the rule changed and the losses so far.
fn tally_sheet<G: Picture>(subject: &Subject<'_, G>, paper: Paper) -> Vec<String> {
    let Subject {
        game, machine, name, ..
    } = subject;
    let r = machine.settings().reinforcement;
    let draws = game.can_draw();
    let takes_one = r.scope == Scope::Last && r.win <= 0 && (!draws || r.draw <= 0);
    let beads = if takes_one { "Bead taken" } else { "Beads changed" };
    let mut page = Flow::new(paper);
    page.title(&format!("Tally sheet: {name} playing {}", game.title()));
    let result = if draws {
        format!("{name} won, drew or lost")
    } else {
        format!("{name} won or lost")
    };
    let change = if takes_one {
        "after a loss, the number of the box and the colour of the bead taken from it".to_string()
    } else {
        "the change the rule made to the beads, if any".to_string()
    };
    page.para(&format!(
        "One row a game. Who played: the pupil's name, or the teacher's. Result: {result}. {beads}: {change}. Lost so far: {name}'s losses up to and including this game."
    ));
    let columns: [(&str, f64); 5] = [
        ("Game", 0.1),
        ("Who played", 0.3),
        ("Result", 0.17),
        (beads, 0.27),
        ("Lost so far", 0.16),
    ];
    let width = page.width();
    let row = 7.5;
    let pt = page.pt(BODY_PT);
    let top = page.y + 2.0;
    let rows = ((page.bottom() - top) / row).floor() as usize;
    let mut x = MARGIN;
    let _ = write!(page.body, "<g stroke=\"#555\" stroke-width=\"0.25\">");
    for r in 0..=rows {
        let y = top + r as f64 * row;
        let _ = write!(
            page.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            n(MARGIN),
            n(y),
            n(MARGIN + width),
            n(y)
        );
    }
    let bottom = top + rows as f64 * row;
    let mut edges = vec![MARGIN];
    for &(_, share) in &columns {
        x += share * width;
        edges.push(x);
    }
    for &e in &edges {
        let _ = write!(
            page.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            n(e),
            n(top),
            n(e),
            n(bottom)
        );
    }
    page.body.push_str("</g>");
    let base = |r: usize| top + r as f64 * row + row / 2.0 + 0.35 * mm(pt);
    for (k, &(head, _)) in columns.iter().enumerate() {
        page.body
            .push_str(&text_at(edges[k] + 1.5, base(0), pt, "start", "#111", head));
    }
    for r in 1..rows {
        page.body
            .push_str(&text_at(edges[1] - 1.5, base(r), pt, "end", "#777", &r.to_string()));
    }
    page.y = bottom;
    page.finish()
}

/// The index: every box once, under the machine's move it is for, in the
/// order of its position string, with its number, in columns.
fn index_pages<G: Picture>(subject: &Subject<'_, G>, paper: Paper, index: &[IndexEntry]) -> Vec<String> {
    let Subject {
        game, machine, name, ..
    } = subject;
    let side = machine.side();
    let mut page = Flow::new(paper);
    page.title(&format!("Index: {name}'s {} boxes by position", index.len()));
    let mut characters: Vec<char> = index.iter().flat_map(|e| e.position.chars()).collect();
    characters.sort_unstable();
    characters.dedup();
    let order: Vec<String> = characters
        .iter()
        .filter(|c| !c.is_whitespace())
        .map(char::to_string)
        .collect();
    let symmetries = <G::Symmetry as Symmetry>::ALL.len();
    let symmetry = if machine.settings().symmetry && symmetries > 1 {
        format!(
            " A box stands for its board {} too, but is listed once, as its label shows it: if the board you play on is not listed, turn or reflect it (or read it so) and look again.",
            symmetry_words(*game, symmetries)
        )
    } else {
        String::new()
    };
    page.para(&format!(
        "Each box is listed under {name}'s move it is for, by its position string (the text at the top right of its label; the start position is {}), in the order of their characters: {}. The number after it is the box's.{symmetry}",
        game.position_string(&game.start()),
        order.join(" ")
    ));
    let pt = page.pt(BODY_PT);
    let leading = mm(pt) * 1.35;
    let widest = index.iter().map(|e| width(&e.position, pt)).fold(0.0, f64::max);
    let number_width = width(&index.len().to_string(), pt);
    let column = widest + number_width + 8.0;
    let columns = ((page.width() / column).floor() as usize).max(1);
    let column = page.width() / columns as f64;
    let mut moves: Vec<u32> = index.iter().map(|e| e.own_move).collect();
    moves.sort_unstable();
    moves.dedup();
    for m in moves {
        let mut entries: Vec<&IndexEntry> = index.iter().filter(|e| e.own_move == m).collect();
        entries.sort_by(|a, b| a.position.cmp(&b.position).then(a.number.cmp(&b.number)));
        let mut heading = format!(
            "{}: {} box{}",
            move_words(name, side, m),
            entries.len(),
            if entries.len() == 1 { "" } else { "es" }
        );
        let mut rest = &entries[..];
        while !rest.is_empty() {
            page.heading(&heading);
            let rows = (((page.bottom() - page.y) / leading).floor() as usize).max(1);
            let take = rest.len().min(rows * columns);
            let used = take.div_ceil(columns).min(rows);
            for (k, e) in rest[..take].iter().enumerate() {
                let (c, r) = (k / used, k % used);
                let x = MARGIN + c as f64 * column;
                let y = page.y + (r as f64 + 1.0) * leading - 0.25 * leading;
                page.body.push_str(&text_at(
                    x,
                    y,
                    pt,
                    "start",
                    "#222",
                    &fitted(&e.position, pt, widest + 1.0),
                ));
                page.body
                    .push_str(&text_at(x + column - 4.0, y, pt, "end", "#111", &e.number.to_string()));
            }
            page.y += used as f64 * leading + 1.0;
            rest = &rest[take..];
            heading = format!("{} (continued)", move_words(name, side, m));
            if !rest.is_empty() {
                page.room(f64::INFINITY);
            }
        }
    }
    page.finish()
}
