//! Matchbox label sheets printed for real paper: `menace boxes --pdf` and
//! the page's labels link, read back with poppler's tools (`pdfinfo`,
//! `pdffonts`, `pdftotext`, `pdftoppm`, from Debian's `poppler-utils`).
//!
//! The tests that read PDFs back are ignored in the fast tier; run with
//! `--include-ignored` (as `.ci/run` does, which installs poppler-utils)
//! without poppler, they fail.

use crate::common;

use crate::common::scratch;

use std::collections::BTreeMap;
use std::io::Read;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use menace::web::server::{start, Config};

const TOOLS: [&str; 4] = ["pdfinfo", "pdffonts", "pdftotext", "pdftoppm"];

/// Fail, saying how to install them, unless poppler's tools are here.
fn require_poppler() {
    let missing: Vec<&str> = TOOLS
        .into_iter()
        .filter(|t| Command::new(t).arg("-v").output().is_err())
        .collect();
    if missing.is_empty() {
        return;
    }
    let how = "install them with `apt-get install -y poppler-utils` (as root), then run `cargo test --release --test program labels -- --include-ignored`";
    panic!("the label tests need {} ({how})", missing.join(", "));
}

fn menace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(args)
        .env("LC_ALL", "C")
        .output()
        .unwrap()
}

fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Points in a millimetre.
const PT: f64 = 72.0 / 25.4;

/// The paper sizes in points: A4 is 210 × 297 mm, Letter 8.5 × 11 in.
const A4: (f64, f64) = (210.0 * PT, 297.0 * PT);
const LETTER: (f64, f64) = (612.0, 792.0);

/// Every page's size, from `pdfinfo`.
fn page_sizes(pdf: &Path) -> Vec<(f64, f64)> {
    let p = pdf.to_str().unwrap();
    let info = tool("pdfinfo", &[p]);
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .map(|v| v.trim().parse().unwrap())
        .unwrap();
    let sizes = tool("pdfinfo", &["-f", "1", "-l", &pages.to_string(), p]);
    let out: Vec<(f64, f64)> = sizes
        .lines()
        .filter(|l| l.starts_with("Page") && l.contains(" size: "))
        .map(|l| {
            let dims = l.split(" size: ").nth(1).unwrap();
            let mut it = dims.split_whitespace();
            let w: f64 = it.next().unwrap().parse().unwrap();
            assert_eq!(it.next(), Some("x"));
            let h: f64 = it.next().unwrap().parse().unwrap();
            (w, h)
        })
        .collect();
    assert_eq!(out.len(), pages);
    out
}

/// A word `pdftotext -bbox` found: its page (from 1), box in points, text.
#[derive(Clone, Debug)]
struct Word {
    page: usize,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    text: String,
}

fn attr(tag: &str, name: &str) -> f64 {
    let start = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
    let end = start + tag[start..].find('"').unwrap();
    tag[start..end].parse().unwrap()
}

fn words(pdf: &Path) -> Vec<Word> {
    let html = tool("pdftotext", &["-bbox", pdf.to_str().unwrap(), "-"]);
    let mut page = 0;
    let mut out = Vec::new();
    for line in html.lines() {
        let line = line.trim();
        if line.starts_with("<page ") {
            page += 1;
        } else if let Some(rest) = line.strip_prefix("<word ") {
            let (tag, text) = rest.split_once('>').unwrap();
            let text = text
                .trim_end_matches("</word>")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
            out.push(Word {
                page,
                x0: attr(tag, "xMin"),
                y0: attr(tag, "yMin"),
                x1: attr(tag, "xMax"),
                y1: attr(tag, "yMax"),
                text,
            });
        }
    }
    out
}

/// The text of page `page` (from 1).
fn page_text(pdf: &Path, page: usize) -> String {
    let p = page.to_string();
    tool("pdftotext", &["-f", &p, "-l", &p, pdf.to_str().unwrap(), "-"])
}

/// Every page rendered in grey at 36 dpi: (width, height, pixels) each.
fn rendered(pdf: &Path, dir: &Path) -> Vec<(usize, usize, Vec<u8>)> {
    let prefix = dir.join("page");
    tool(
        "pdftoppm",
        &["-r", "36", "-gray", pdf.to_str().unwrap(), prefix.to_str().unwrap()],
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgm"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            // Binary PGM: "P5", width, height, 255, then a byte a pixel.
            let bytes = std::fs::read(f).unwrap();
            let mut fields = Vec::new();
            let mut at = 0;
            while fields.len() < 4 {
                while bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                let start = at;
                while !bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                fields.push(String::from_utf8(bytes[start..at].to_vec()).unwrap());
            }
            assert_eq!(fields[0], "P5");
            let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
            let pixels = bytes[at + 1..].to_vec();
            assert_eq!(pixels.len(), w * h);
            (w, h, pixels)
        })
        .collect()
}

/// What a sheet's reading found.
struct Reading {
    pages: usize,
    boxes: BTreeMap<usize, usize>,
}

/// The checks every sheet must pass: every page the paper's size, the
/// shipped font embedded and nothing else, text of 7 pt or more, every
/// label whole on one page with nothing near the paper's edge, each box's
/// label once.
fn check_sheet(pdf: &Path, paper: (f64, f64), boxes: usize, dir: &Path) -> Reading {
    let sizes = page_sizes(pdf);
    for (i, &(w, h)) in sizes.iter().enumerate() {
        assert!(
            (w - paper.0).abs() < 0.5 && (h - paper.1).abs() < 0.5,
            "page {} is {w} × {h} pt, not {paper:?}",
            i + 1
        );
    }
    let fonts = tool("pdffonts", &[pdf.to_str().unwrap()]);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "no fonts: {fonts}");
    for row in rows {
        let cols: Vec<&str> = row.split_whitespace().collect();
        // name, type (two words), encoding, emb, sub, uni, object, id
        assert!(cols[0].ends_with("+DejaVuSans"), "a font other than DejaVu Sans: {row}");
        assert_eq!(cols[cols.len() - 5], "yes", "font not embedded: {row}");
    }
    let all = words(pdf);
    // poppler makes a word's box as tall as the font's ascent less its
    // descent; for DejaVu Sans (OS/2 typographic ascender 1556, descender
    // -492, 2048 units an em) that is exactly one em: the text's size.
    let smallest = all.iter().map(|w| w.y1 - w.y0).fold(f64::MAX, f64::min);
    assert!(smallest >= 7.0 - 0.01, "text of {smallest} pt");
    // Nothing within 5 mm of the paper's edge, where printers do not print.
    let edge = 5.0 * PT;
    for w in &all {
        assert!(
            w.x0 >= edge && w.y0 >= edge && w.x1 <= paper.0 - edge && w.y1 <= paper.1 - edge,
            "{w:?} is within 5 mm of the edge"
        );
    }
    for (i, (width, height, pixels)) in rendered(pdf, dir).into_iter().enumerate() {
        let frame = (5.0 * 36.0 / 25.4) as usize - 1;
        for y in 0..height {
            for x in 0..width {
                if x < frame || y < frame || x >= width - frame || y >= height - frame {
                    assert!(
                        pixels[y * width + x] > 245,
                        "page {}: ink at pixel ({x}, {y}), within 5 mm of the edge",
                        i + 1
                    );
                }
            }
        }
    }
    // Each label: "Box N", then the machine's move; every word of a label
    // page other than its footer lies within 53 × 36 mm of the label's top
    // left corner (a label's words within 1.8 mm + a little of its edges).
    let mut seen = BTreeMap::new();
    for w in all.iter().filter(|w| w.text == "Box") {
        let on_page = || all.iter().filter(move |n| n.page == w.page);
        // Its number just to its right on the same line; the machine's move
        // below it, flush left.
        let number: usize = on_page()
            .find(|n| (n.y0 - w.y0).abs() < 0.5 && n.x0 > w.x1 && n.x0 < w.x1 + 3.0 * PT)
            .unwrap_or_else(|| panic!("{w:?} has no number"))
            .text
            .parse()
            .unwrap();
        assert!(seen.insert(number, w.page).is_none(), "box {number} twice");
        assert!(
            on_page()
                .any(|n| (n.x0 - w.x0).abs() < 0.5 && n.y0 > w.y1 && n.y0 < w.y1 + 5.0 * PT && n.text.ends_with("'s")),
            "box {number} has no machine's move under it"
        );
    }
    assert_eq!(seen.len(), boxes);
    assert_eq!(
        seen.keys().copied().collect::<Vec<_>>(),
        (1..=boxes).collect::<Vec<_>>()
    );
    let corners: Vec<(usize, f64, f64)> = all
        .iter()
        .filter(|w| w.text == "Box")
        .map(|w| (w.page, w.x0 - 2.5 * PT, w.y0 - 2.5 * PT))
        .collect();
    let label_pages: Vec<usize> = seen.values().copied().collect();
    for w in all.iter().filter(|w| label_pages.contains(&w.page)) {
        let footer = w.y0 > paper.1 - 15.0 * PT;
        let inside = corners
            .iter()
            .any(|&(p, x, y)| p == w.page && w.x0 >= x && w.y0 >= y && w.x1 <= x + 53.0 * PT && w.y1 <= y + 36.0 * PT);
        assert!(footer || inside, "{w:?} is outside every label on its page");
    }
    Reading {
        pages: sizes.len(),
        boxes: seen,
    }
}

#[test]
#[ignore = "needs poppler-utils (.ci/run installs it)"]
fn hers_19_boxes_on_a4_and_letter() {
    require_poppler();
    let dir = scratch("her");
    for (paper, size) in [("a4", A4), ("letter", LETTER)] {
        let pdf = dir.join(format!("her-{paper}.pdf"));
        let out = menace(&[
            "boxes",
            "hexapawn",
            "--side",
            "black",
            "--pdf",
            pdf.to_str().unwrap(),
            "--paper",
            paper,
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let pages = dir.join(paper);
        std::fs::create_dir_all(&pages).unwrap();
        let read = check_sheet(&pdf, size, 19, &pages);
        // By hand: 53 × 36 mm labels, 3 across (159 mm) and 7 down (252 mm)
        // fit inside A4 (210 × 297) and Letter (216 × 279) with margins of
        // 11 mm for the cut marks and a footer: 21 a page, so HER's 19 take
        // one page, the last, after the instructions (two pages, with the
        // rules and the mirror rule's example), the board and the tally sheet.
        assert_eq!(read.pages, 5, "{paper}");
        assert!(read.boxes.values().all(|&p| p == 5));
        assert!(page_text(&pdf, 3).contains("A board for Hexapawn"));
        assert!(page_text(&pdf, 4).contains("Tally sheet: HER playing Hexapawn"));
        let instructions = page_text(&pdf, 1) + &page_text(&pdf, 2);
        // HER's beads, one a move: 19 boxes have a first colour, the 17 with
        // a choice a second (the `choices` count of `menace boxes`), and by
        // hand from Gardner's boxes 7 have a third and 2 a fourth: 45 beads.
        for said in [
            "19 empty matchboxes",
            "45 beads",
            "19 beads",
            "17 beads",
            "7 beads",
            "2 beads",
            "Gardner's rule",
            "HER's move 2 (move 4 of the game)",
            "HER resigns",
            "you need no spares",
        ] {
            assert!(
                instructions.replace('\n', " ").contains(said),
                "{paper}: the instructions do not say {said:?}:\n{instructions}"
            );
        }
        let labels = page_text(&pdf, 5);
        assert!(labels.contains("HER's move 1 · game move 2"), "{labels}");
        assert!(labels.contains("HER's move 3 · game move 6"), "{labels}");
    }
}

#[test]
#[ignore = "needs poppler-utils (.ci/run installs it)"]
fn menaces_304_boxes_and_michies_rule() {
    require_poppler();
    let dir = scratch("menace");
    let pdf = dir.join("menace.pdf");
    let out = menace(&["boxes", "tictactoe", "--pdf", pdf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // LC_ALL=C names no country: A4.
    let read = check_sheet(&pdf, A4, 304, &dir);
    // 21 labels a page: 14 pages hold 294, the 15th the last 10; before
    // them the instructions (2 pages), the board, the tally sheet and the
    // index (2 pages: 304 entries and 4 headings, about 200 lines a page).
    assert_eq!(read.pages, 6 + 15);
    assert_eq!(read.boxes.values().filter(|&&p| p == 21).count(), 10);
    let text = (page_text(&pdf, 1) + &page_text(&pdf, 2)).replace('\n', " ");
    for said in [
        "304 empty matchboxes",
        "Michie's rule",
        "put the bead drawn back with 3 more of its colour",
        "MENACE's move 2 (move 3 of the game)",
        "spare bag",
        // Michie's nine colours, one a cell (a1 is the bottom left, c3 the top right).
        "9 colours",
        "red: a1",
        "blue: b1",
        "purple: b2",
        "black: c3",
        "Each colour is one cell, the same in every box",
    ] {
        assert!(text.contains(said), "the instructions do not say {said:?}:\n{text}");
    }
}

/// No sheet spends a page on a few lines: a trained machine's instructions
/// (a line longer than a fresh one's) fill their last page at least a
/// third (MENACE on Letter after 30 games once took a page for its last 6
/// lines), and the sheet is the instructions, the board, the tally sheet,
/// the index where there is more than one page of labels, and the labels.
#[test]
#[ignore = "needs poppler-utils (.ci/run installs it)"]
fn no_sheet_has_a_near_empty_page() {
    require_poppler();
    let dir = scratch("near-empty");
    for (game, boxes) in [("tictactoe", 304), ("hexapawn", 19)] {
        let state = dir.join(format!("{game}.json"));
        let out = menace(&["train", game, "--games", "30", "--save", state.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        for paper in ["a4", "letter"] {
            let pdf = dir.join(format!("{game}-{paper}.pdf"));
            let out = menace(&[
                "boxes",
                game,
                "--state",
                state.to_str().unwrap(),
                "--pdf",
                pdf.to_str().unwrap(),
                "--paper",
                paper,
            ]);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            // 21 labels a page (see hers_19_boxes_on_a4_and_letter).
            let pages = all_pages(&pdf);
            let label_pages = usize::div_ceil(boxes, 21);
            let board = pages.iter().position(|p| p.contains("A board for")).unwrap();
            let index = if label_pages > 1 { 2 } else { 0 };
            assert_eq!(pages.len(), board + 2 + index + label_pages, "{game} on {paper}");
            assert!(pages[board + 1].contains("Tally sheet"), "{game} on {paper}");
            assert!(pages[..board].concat().contains("after 30 games of training"));
            // The instructions' last page used for a third of its height at least.
            let last = words(&pdf)
                .iter()
                .filter(|w| w.page == board && w.y1 < page_sizes(&pdf)[0].1 - 15.0 * PT)
                .map(|w| w.y1)
                .fold(0.0, f64::max);
            let (top, bottom) = (18.0 * PT, page_sizes(&pdf)[0].1 - 18.0 * PT);
            assert!((last - top) / (bottom - top) > 0.3, "{game} on {paper}: {last}");
        }
    }
}

#[test]
fn bad_paper_and_sizes_are_refused_by_name() {
    let out = menace(&["boxes", "hexapawn", "--pdf", "/nonexistent/x.pdf", "--paper", "b5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("paper 'b5'"));
    let out = menace(&[
        "boxes",
        "hexapawn",
        "--pdf",
        "/nonexistent/x.pdf",
        "--label-size",
        "53by36",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("label size '53by36'"));
    // Scroggs's box fronts, 35 × 15 mm, hold no board with 7 pt text beside it.
    let out = menace(&[
        "boxes",
        "hexapawn",
        "--pdf",
        "/nonexistent/x.pdf",
        "--label-size",
        "35x15",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("labels of 35 × 15 mm are too small"), "{err}");
    let out = menace(&["boxes", "hexapawn", "--paper", "a4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --pdf FILE or --svg FILE"));
}

#[test]
fn svg_pages_in_millimetres() {
    let dir = scratch("svg");
    let svg = dir.join("her.svg");
    let out = menace(&["boxes", "hexapawn", "--svg", svg.to_str().unwrap(), "--paper", "letter"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The PDF's five pages (instructions on two, the board, the tally
    // sheet, the labels), a file each.
    for k in 1..=5 {
        let page = std::fs::read_to_string(dir.join(format!("her-{k}.svg"))).unwrap();
        assert!(page.contains("width=\"215.9mm\" height=\"279.4mm\" viewBox=\"0 0 215.9 279.4\""));
    }
    assert!(!dir.join("her-6.svg").exists());
}

/// The page's labels link: the tab's machine as the PDF the command writes,
/// on the paper of the browser's language.
#[test]
#[ignore = "needs poppler-utils (.ci/run installs it)"]
fn the_page_downloads_its_machines_labels() {
    require_poppler();
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let running = start(addr, Config::default()).expect("start the server");
    let base = format!("http://{}", running.addr);
    let made = common::http::call(
        "POST",
        &format!("{base}/api/sessions"),
        Some("{\"game\": \"hexapawn\"}"),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["session"].as_str().unwrap().to_string();
    let dir = scratch("page");
    for (language, query, size) in [
        ("en-US,en;q=0.8", "", LETTER),
        ("de-DE", "", A4),
        ("en-US", "?paper=a4", A4),
    ] {
        let reply = ureq::get(&format!("{base}/api/sessions/{id}/labels.pdf{query}"))
            .set("accept-language", language)
            .call()
            .unwrap();
        assert_eq!(reply.content_type(), "application/pdf");
        assert!(reply
            .header("content-disposition")
            .unwrap()
            .contains("menace-hexapawn-labels.pdf"));
        let mut bytes = Vec::new();
        reply.into_reader().read_to_end(&mut bytes).unwrap();
        let pdf = dir.join("page.pdf");
        std::fs::write(&pdf, &bytes).unwrap();
        let pages = dir.join(format!("pages-{}", language.len() + query.len()));
        std::fs::create_dir_all(&pages).unwrap();
        let read = check_sheet(&pdf, size, 19, &pages);
        assert_eq!(read.pages, 5);
        assert!(page_text(&pdf, 1).contains("19 empty matchboxes"));
    }
    let bad = common::http::call("GET", &format!("{base}/api/sessions/{id}/labels.pdf?paper=a5"), None);
    assert_eq!(bad.status, 400);
    assert!(bad.error().contains("paper 'a5'"), "{}", bad.body);
    running.shut_down();
}

/// Every page's text, one string a page.
fn all_pages(pdf: &Path) -> Vec<String> {
    (1..=page_sizes(pdf).len()).map(|p| page_text(pdf, p)).collect()
}

/// The words of a text that name a game's result as a draw ("draw",
/// "draws", "drawn game"), leaving the beads' sense ("a drawn bead", "drawn
/// dashed") alone.
fn draw_words(text: &str) -> Vec<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .collect();
    words
        .iter()
        .enumerate()
        .filter(|&(i, w)| {
            let next = words.get(i + 1).map_or("", String::as_str);
            w == "draw" || w == "draws" || w == "drew" || (w == "drawn" && !["bead", "beads", "dashed"].contains(&next))
        })
        .map(|(i, w)| format!("{w} (word {i})"))
        .collect()
}

/// HER's kit for a class: Hexapawn's rules in the game's own words, a
/// worked example of the mirror rule, a tally sheet, and no word of draws
/// (Hexapawn has none), the game named by its title throughout.
#[test]
#[ignore = "needs poppler-utils (.ci/run installs it)"]
fn hers_kit_has_the_rules_the_mirror_rule_and_a_tally_sheet() {
    require_poppler();
    let dir = scratch("her-kit");
    let pdf = dir.join("her.pdf");
    let out = menace(&["boxes", "hexapawn", "--side", "black", "--pdf", pdf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let read = check_sheet(&pdf, A4, 19, &dir);
    let pages = all_pages(&pdf);
    let text = pages.join(" ").replace('\n', " ");
    // The rules as Hexapawn's `About` words them (games/hexapawn/about.rs, pawn.rs).
    for said in [
        "The rules of Hexapawn",
        "A board of three by three squares. White's three pawns start on the bottom rank, Black's on the top rank. White moves first.",
        "A pawn moves one square straight forward onto an empty square, or captures an enemy pawn one square diagonally forward.",
        "You win by moving a pawn onto the far rank, or when the other side cannot move on its turn",
        "HER plays Black in Hexapawn",
        "A board for Hexapawn",
    ] {
        assert!(text.contains(said), "the kit does not say {said:?}:\n{text}");
    }
    // The game by its title, never its spec's name.
    assert!(!text.contains(" hexapawn"), "{text}");
    // The mirror rule's example: the label's move and the move on the
    // mirrored board are each other's mirror images, a file for c file.
    let example = text
        .split("One box for a board mirrored left for right: an example")
        .nth(1)
        .expect("a worked example of the mirror rule");
    let after = |cue: &str| -> String {
        let at = example.find(cue).unwrap_or_else(|| panic!("no {cue:?} in {example}")) + cue.len();
        example[at..].split_whitespace().next().unwrap().to_string()
    };
    // The captions under the two boards, and the sentence that says the same.
    let here = after("'s label: ");
    let there = after("the board you play on: ");
    assert!(
        example.contains(&format!("is {here} on the label's board; play that move mirrored left for right too: {there} on the board you play on.")),
        "{example}"
    );
    let mirrored: String = here
        .chars()
        .map(|c| match c {
            'a' => 'c',
            'c' => 'a',
            c => c,
        })
        .collect();
    assert_ne!(here, there);
    assert_eq!(there, mirrored, "{example}");
    // The tally sheet: its headings in order along one line, rows numbered from 1.
    let tally = pages
        .iter()
        .position(|p| p.contains("Tally sheet: HER playing Hexapawn"))
        .expect("a tally sheet")
        + 1;
    let all = words(&pdf);
    let on_tally: Vec<&Word> = all.iter().filter(|w| w.page == tally).collect();
    let game = on_tally
        .iter()
        .filter(|w| w.text == "Game")
        .max_by(|a, b| a.y0.total_cmp(&b.y0))
        .unwrap();
    let mut heads: Vec<&&Word> = on_tally.iter().filter(|w| (w.y0 - game.y0).abs() < 0.5).collect();
    heads.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    let line: Vec<&str> = heads.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(
        line,
        ["Game", "Who", "played", "Result", "Bead", "taken", "Lost", "so", "far"]
    );
    let numbers: Vec<usize> = on_tally
        .iter()
        .filter(|w| w.y0 > game.y1 && w.x1 < heads[1].x0 && w.y1 < A4.1 - 15.0 * PT)
        .map(|w| w.text.parse().unwrap())
        .collect();
    assert!(numbers.len() >= 20, "{numbers:?}");
    assert_eq!(numbers, (1..=numbers.len()).collect::<Vec<_>>());
    assert!(pages[tally - 1].contains("Result: HER won or lost."));
    // Hexapawn cannot be drawn: the only draws named are the rule's "There are no draws."
    let without_rule = text.replace("There are no draws.", "");
    assert_eq!(draw_words(&without_rule), Vec::<String>::new(), "{text}");
    // 19 labels fit one page: no index.
    assert!(!text.contains("Index:"));
    assert_eq!(read.boxes.values().collect::<std::collections::BTreeSet<_>>().len(), 1);
    assert_eq!(*read.boxes.values().next().unwrap(), read.pages);
}

/// Noughts and crosses positions with X to move, the game not over and more
/// than one move to choose from, reached by legal play: a second count of
/// MENACE's boxes. Each as (X's move, the orbit's position strings under
/// the square's 8 symmetries), one an orbit.
fn menaces_positions() -> Vec<(usize, std::collections::BTreeSet<String>)> {
    use std::collections::BTreeSet;
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    // Cells 0..9 as the labels read them: row by row from the top.
    fn won(b: &[u8; 9]) -> bool {
        LINES
            .iter()
            .any(|l| b[l[0]] != b'.' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]])
    }
    fn string(b: &[u8; 9]) -> String {
        let s = String::from_utf8(b.to_vec()).unwrap();
        format!("{}/{}/{}", &s[0..3], &s[3..6], &s[6..9])
    }
    fn orbit(b: &[u8; 9]) -> BTreeSet<String> {
        let turn = |b: &[u8; 9]| std::array::from_fn(|i| b[(2 - i % 3) * 3 + i / 3]);
        let flip = |b: &[u8; 9]| std::array::from_fn(|i| b[i / 3 * 3 + 2 - i % 3]);
        let mut out = BTreeSet::new();
        let mut c = *b;
        for _ in 0..4 {
            out.insert(string(&c));
            out.insert(string(&flip(&c)));
            c = turn(&c);
        }
        out
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut layer = vec![[b'.'; 9]];
    for ply in 0..9 {
        let mover = if ply % 2 == 0 { b'x' } else { b'o' };
        let mut next = Vec::new();
        for b in layer {
            let empty: Vec<usize> = (0..9).filter(|&i| b[i] == b'.').collect();
            if mover == b'x' && empty.len() > 1 {
                let o = orbit(&b);
                if seen.insert(o.iter().next().unwrap().clone()) {
                    out.push((ply / 2 + 1, o));
                }
            }
            for i in empty {
                let mut c = b;
                c[i] = mover;
                if !won(&c) {
                    next.push(c);
                }
            }
        }
        next.sort_unstable();
        next.dedup();
        layer = next;
    }
    out
}

/// MENACE's kit: an index of its boxes by position, every box once, sorted
/// under each of its moves, each entry the position its label prints; the
/// game named one way throughout ("Noughts and crosses").
#[test]
#[ignore = "needs poppler-utils (.ci/run installs it)"]
fn menaces_kit_indexes_every_box_by_position() {
    require_poppler();
    // The second count: 1 + 12 + 108 + 183 = 304 boxes, as docs/teaching.md
    // gives for the `choices` set this machine uses (Michie's own 287 also
    // leaves out hopeless positions).
    let positions = menaces_positions();
    let per_move: Vec<usize> = (1..=4)
        .map(|m| positions.iter().filter(|(k, _)| *k == m).count())
        .collect();
    assert_eq!(per_move, [1, 12, 108, 183]);
    let dir = scratch("menace-kit");
    let pdf = dir.join("menace.pdf");
    let out = menace(&["boxes", "tictactoe", "--pdf", pdf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let read = check_sheet(&pdf, A4, 304, &dir);
    let pages = all_pages(&pdf);
    let text = pages.join(" ").replace('\n', " ");
    assert!(!text.to_lowercase().contains("tictactoe"), "{text}");
    assert!(text.contains("MENACE plays X in Noughts and crosses"));
    assert!(text.contains("The rules of Noughts and crosses"));
    // The index: each entry a position string and its box number on one line.
    let first_label = *read.boxes.values().min().unwrap();
    let index_pages: Vec<usize> = (1..first_label)
        .filter(|&p| {
            pages[p - 1].contains("Index: MENACE's 304 boxes by position") || pages[p - 1].contains("(continued)")
        })
        .collect();
    assert!(!index_pages.is_empty(), "no index");
    let all = words(&pdf);
    let is_position = |s: &str| {
        s.len() == 11
            && s.chars()
                .enumerate()
                .all(|(i, c)| if i == 3 || i == 7 { c == '/' } else { ".xo".contains(c) })
    };
    let mut entries: Vec<(usize, f64, f64, String, usize)> = Vec::new();
    for w in all
        .iter()
        .filter(|w| index_pages.contains(&w.page) && is_position(&w.text))
    {
        // After it, on its line, the side to move ("x"), then the number
        // (the start position, in the index's explanation, has none).
        let number = all
            .iter()
            .filter(|n| n.page == w.page && (n.y0 - w.y0).abs() < 0.5 && n.x0 > w.x1 && n.x0 < w.x1 + 45.0 * PT)
            .filter(|n| n.text.parse::<usize>().is_ok())
            .min_by(|a, b| a.x0.total_cmp(&b.x0));
        if let Some(number) = number {
            entries.push((w.page, w.x0, w.y0, w.text.clone(), number.text.parse().unwrap()));
        }
    }
    let mut numbers: Vec<usize> = entries.iter().map(|e| e.4).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=304).collect::<Vec<_>>(), "every box once");
    // Each entry is the position its box's label prints (top right, on the "Box N" line).
    let label_position: BTreeMap<usize, String> = all
        .iter()
        .filter(|w| w.text == "Box" && w.page >= first_label)
        .map(|w| {
            let on_line = |n: &&Word| n.page == w.page && (n.y1 - w.y1).abs() < 1.5;
            // The word nearest on its right (poppler lists a line's words in
            // the order they were drawn, not always left to right).
            let number: usize = all
                .iter()
                .filter(on_line)
                .filter(|n| n.x0 > w.x1)
                .min_by(|a, b| a.x0.total_cmp(&b.x0))
                .unwrap()
                .text
                .parse()
                .unwrap();
            let position = all
                .iter()
                .filter(on_line)
                .find(|n| is_position(&n.text) && n.x0 > w.x1 && n.x0 < w.x0 + 53.0 * PT)
                .unwrap_or_else(|| panic!("box {number} has no position"))
                .text
                .clone();
            (number, position)
        })
        .collect();
    assert_eq!(label_position.len(), 304);
    for e in &entries {
        assert_eq!(label_position[&e.4], e.3, "box {}", e.4);
    }
    // One entry an orbit of the second count: each of the 304 positions once.
    let mut matched = vec![0; positions.len()];
    for e in &entries {
        let k = positions
            .iter()
            .position(|(_, o)| o.contains(&e.3))
            .unwrap_or_else(|| panic!("{} is no box", e.3));
        matched[k] += 1;
    }
    assert!(matched.iter().all(|&m| m == 1), "{matched:?}");
    // Sorted for a person: within each of MENACE's moves, down each column
    // then across, the strings in order ('.' before 'o' before 'x').
    let own_move = |s: &str| s.chars().filter(|&c| c == 'x').count() + 1;
    let mut reading = entries.clone();
    reading.sort_by(|a, b| {
        (a.0, own_move(&a.3))
            .cmp(&(b.0, own_move(&b.3)))
            .then(a.1.total_cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
    });
    for m in 1..=4 {
        let strings: Vec<&String> = reading.iter().filter(|e| own_move(&e.3) == m).map(|e| &e.3).collect();
        assert_eq!(strings.len(), per_move[m - 1]);
        assert!(strings.windows(2).all(|w| w[0] < w[1]), "move {m}: {strings:?}");
    }
}
