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
        // one page, after the instructions and the board.
        assert_eq!(read.pages, 3, "{paper}");
        assert!(read.boxes.values().all(|&p| p == 3));
        let instructions = page_text(&pdf, 1);
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
        let labels = page_text(&pdf, 3);
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
    // 21 labels a page: 14 pages hold 294, the 15th the last 10.
    assert_eq!(read.pages, 2 + 15);
    assert_eq!(read.boxes.values().filter(|&&p| p == 17).count(), 10);
    let text = page_text(&pdf, 1).replace('\n', " ");
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
/// (a line longer than a fresh one's) still fit one page of A4 or Letter,
/// so the sheet is the instructions, the board and the label pages
/// (MENACE on Letter after 30 games took a page for its last 6 lines).
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
            let pages = page_sizes(&pdf).len();
            assert_eq!(pages, 2 + usize::div_ceil(boxes, 21), "{game} on {paper}");
            assert!(page_text(&pdf, 1).contains("after 30 games of training"));
            assert!(page_text(&pdf, 2).contains("A board for"), "{game} on {paper}");
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
    for k in 1..=3 {
        let page = std::fs::read_to_string(dir.join(format!("her-{k}.svg"))).unwrap();
        assert!(page.contains("width=\"215.9mm\" height=\"279.4mm\" viewBox=\"0 0 215.9 279.4\""));
    }
    assert!(!dir.join("her-4.svg").exists());
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
        assert_eq!(read.pages, 3);
        assert!(page_text(&pdf, 1).contains("19 empty matchboxes"));
    }
    let bad = common::http::call("GET", &format!("{base}/api/sessions/{id}/labels.pdf?paper=a5"), None);
    assert_eq!(bad.status, 400);
    assert!(bad.error().contains("paper 'a5'"), "{}", bad.body);
    running.shut_down();
}
