//! The classroom page in a real browser: headless Chromium driven through
//! chromedriver by the `fantoccini` WebDriver client, against `menace serve`
//! started as the command line starts it.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`/usr/bin/chromium`,
//! `/usr/bin/chromedriver`), and `pdftoppm` (poppler-utils) to read the
//! printed page, so these tests are ignored in the fast tier; run with
//! `--include-ignored` (as `.ci/run` does, which installs them) without
//! them, they fail. Waits are on the page's own state (a script that
//! resolves once a condition holds), never sleeps.

use crate::common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::http::{call, wait_until};
use fantoccini::wd::{Capabilities, PrintConfiguration};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const PDFTOPPM: &str = "/usr/bin/pdftoppm";
const PATIENCE: Duration = Duration::from_secs(120);

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Fail, saying how to install them, unless the browser and its driver
/// (and poppler, to read what it prints) are here.
fn require_browser() {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER, PDFTOPPM]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return;
    }
    let how = "install them with `apt-get update && apt-get install -y chromium chromium-driver poppler-utils` (as root), then run `cargo test --release --test program browser -- --include-ignored`";
    panic!("the browser test needs {} ({how})", missing.join(" and "));
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menace-browser-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `menace serve` on a free port: the child and the page's address.
fn start_server() -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in: {line}"))
        .to_string();
    (Killed(child), url)
}

/// chromedriver on a free port, ready: the child and its address.
fn start_driver() -> (Killed, String) {
    let port = free_port();
    let driver = Killed(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let root = format!("http://127.0.0.1:{port}");
    wait_until("chromedriver answers", PATIENCE, || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
            && call("GET", &format!("{root}/status"), None).json()["value"]["ready"] == true
    });
    (driver, root)
}

/// The page in one browser tab, and the few things the test does with it.
struct Page {
    c: Client,
}

impl Page {
    async fn open(driver: &str, downloads: &Path, profile: &Path) -> Page {
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--window-size=1280,720",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": args,
                "prefs": {
                    "download.default_directory": downloads.display().to_string(),
                    "download.prompt_for_download": false,
                },
            },
            "goog:loggingPrefs": {"browser": "ALL"},
            "timeouts": {"script": PATIENCE.as_millis() as u64},
        });
        let caps: Capabilities = serde_json::from_value(caps).unwrap();
        let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(driver)
            .await
            .expect("a WebDriver session in headless Chromium");
        Page { c }
    }

    async fn go(&self, url: &str) {
        self.c.goto(url).await.unwrap();
        self.until("document.body.dataset.ready === 'yes'").await;
    }

    async fn js(&self, script: &str) -> Value {
        self.c
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Wait, in the page, until the expression `cond` holds (checked on every
    /// change to the page and every animation frame); fails after the script timeout.
    async fn until(&self, cond: &str) {
        let script = format!(
            "const done = arguments[arguments.length - 1];
             const ok = () => {{ try {{ return !!({cond}); }} catch (e) {{ return false; }} }};
             if (ok()) {{ done(true); return; }}
             const seen = new MutationObserver(() => {{ if (ok()) {{ seen.disconnect(); done(true); }} }});
             seen.observe(document, {{subtree: true, childList: true, characterData: true, attributes: true}});
             const frame = () => {{ if (ok()) {{ seen.disconnect(); done(true); }} else requestAnimationFrame(frame); }};
             requestAnimationFrame(frame);"
        );
        if let Err(e) = self.c.execute_async(&script, vec![]).await {
            // What the page said and showed then, to tell why.
            let shown = self
                .js("return ['message', 'status', 'progress-text'].map(id => id + ': ' + (document.getElementById(id)?.textContent ?? ''))")
                .await;
            panic!("waiting until {cond}: {e}; the page showed {shown}");
        }
    }

    /// The page's text as it is shown (hidden parts left out, line breaks as laid out).
    async fn shown_text(&self) -> String {
        self.js("return document.body.innerText")
            .await
            .as_str()
            .unwrap()
            .to_string()
    }

    async fn text(&self, css: &str) -> String {
        let script = format!("const e = document.querySelector({css:?}); return e ? e.textContent : '';");
        self.js(&script).await.as_str().unwrap_or_default().to_string()
    }

    async fn wait_for_text(&self, css: &str, words: &str) {
        self.until(&format!(
            "(document.querySelector({css:?})?.textContent || '').includes({words:?})"
        ))
        .await;
    }

    /// A real click on the first element `css` selects.
    async fn click(&self, css: &str) {
        self.c
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap();
    }

    async fn type_into(&self, css: &str, text: &str) {
        let e = self.c.find(Locator::Css(css)).await.unwrap();
        e.clear().await.unwrap();
        e.send_keys(text).await.unwrap();
    }

    async fn count(&self, css: &str) -> u64 {
        self.js(&format!("return document.querySelectorAll({css:?}).length"))
            .await
            .as_u64()
            .unwrap()
    }

    async fn not_busy(&self) {
        self.until("document.body.dataset.busy !== 'yes'").await;
    }

    /// Make the page's viewport `w`×`h` CSS pixels (the window is larger by its frame).
    async fn viewport(&self, w: u32, h: u32) {
        self.c.set_window_size(w, h).await.unwrap();
        let inner = self.js("return [window.innerWidth, window.innerHeight]").await;
        let (iw, ih) = (inner[0].as_u64().unwrap() as u32, inner[1].as_u64().unwrap() as u32);
        self.c
            .set_window_size(2 * w - iw.min(w), 2 * h - ih.min(h))
            .await
            .unwrap();
        self.until(&format!("window.innerWidth === {w} && window.innerHeight === {h}"))
            .await;
    }

    async fn screenshot(&self, path: &Path) {
        self.js("window.scrollTo(0, 0)").await;
        let png = self.c.screenshot().await.unwrap();
        std::fs::write(path, &png).unwrap();
        assert!(png.len() > 10_000, "{} is a picture", path.display());
    }

    /// Nothing wider than the viewport: no sideways scrolling.
    async fn fits(&self, what: &str) {
        let (scroll, client) = (
            self.js("return document.documentElement.scrollWidth").await,
            self.js("return document.documentElement.clientWidth").await,
        );
        assert_eq!(scroll, client, "overflow at {what}");
    }

    /// No console errors; the browser closed.
    async fn done(self, driver: &str) {
        let errors = self.console_errors(driver).await;
        assert!(errors.is_empty(), "console errors: {errors:?}");
        self.c.close().await.unwrap();
    }

    /// Console messages at error level (Chromium's log command, not in the W3C standard).
    async fn console_errors(&self, driver: &str) -> Vec<String> {
        let id = self.c.session_id().await.unwrap().unwrap();
        let body = json!({"type": "browser"}).to_string();
        let logs = call("POST", &format!("{driver}/session/{id}/se/log"), Some(&body)).json();
        logs["value"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|l| l["level"] == "SEVERE")
            .map(|l| l["message"].as_str().unwrap_or_default().to_string())
            .collect()
    }
}

/// `test` run on one tab of a fresh `menace serve`, the page open at
/// 1280×720, given the page's address and a scratch directory `name` for
/// its screenshots; the browser's console must be free of errors at the end.
fn on_one_tab(name: &str, test: impl AsyncFnOnce(&Page, &str, &Path)) {
    require_browser();
    let (_server, url) = start_server();
    let (_driver, driver) = start_driver();
    let shots = scratch(name);
    let profile = scratch(&format!("{name}-profile"));
    runtime().block_on(async {
        let b = Page::open(&driver, &shots, &profile).await;
        b.go(&url).await;
        b.viewport(1280, 720).await;
        test(&b, &url, &shots).await;
        b.done(&driver).await;
    });
}

/// A runtime for a test's browser sessions.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The cell of the board named `name` (`b2`), as a selector.
fn cell(name: &str) -> String {
    format!("#board [data-name=\"{name}\"]")
}

/// Every pair of bead-count labels drawn in one picture that overlap, by
/// their boxes on the page (in CSS pixels): none is the answer wanted.
const OVERLAPS: &str = "
  const out = [];
  for (const svg of document.querySelectorAll('svg')) {
    const r = [...svg.querySelectorAll('.count')].map((c) => c.getBoundingClientRect());
    for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
      const a = r[i], b = r[j];
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) out.push([a.x, a.y, b.x, b.y]);
    }
  }
  return {overlaps: out.length, labels: document.querySelectorAll('svg .count').length};";

/// A box's picture with its counts taken out (they change after the game),
/// and the move name of the marked colour, as the page shows them.
const DRAWN: &str = "
  const strip = (svg) => svg.outerHTML.replace(/<g class=\"count\"[^]*?<\\/g>/g, '').replace(/ stroke-dasharray=\"[^\"]*\"/g, '');
  const d = document.querySelector('#drawn');
  const title = d.querySelector('#drawn-title');
  if (!title) return null;
  const box = Number(title.textContent.match(/from box (\\d+)/)[1]);
  const marked = d.querySelector('.legend li.marked').textContent;
  return {box, svg: strip(d.querySelector('svg')), move: d.querySelector('.move-name').textContent,
          legend: marked.replace(/\\s*←.*/, '').replace(/, \\d+ beads?$/, ''), note: d.querySelector('.mirror-note')?.textContent || null};";

const CHANGES: &str = "
  const strip = (svg) => svg.outerHTML.replace(/<g class=\"count\"[^]*?<\\/g>/g, '').replace(/ stroke-dasharray=\"[^\"]*\"/g, '');
  return [...document.querySelectorAll('#changes .change')].map((c) => {
    const t = c.querySelector('.change-title').textContent;
    return {box: Number(c.dataset.box), svg: strip(c.querySelector('svg')), move: c.querySelector('.move-name').textContent,
            colour: t.match(/box \\d+: ([^,]+),/)[1], note: c.querySelector('.mirror-note')?.textContent || null, title: t};
  });";

/// Colours of a PPM picture (`pdftoppm`'s output), counted.
fn ppm_colours(bytes: &[u8]) -> HashMap<[u8; 3], usize> {
    // P6, width, height, maxval, each separated by white space, then the pixels.
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..i]).to_string());
    }
    assert_eq!(fields[0], "P6");
    let mut counts = HashMap::new();
    for px in bytes[i + 1..].chunks_exact(3) {
        *counts.entry([px[0], px[1], px[2]]).or_insert(0) += 1;
    }
    counts
}

fn rgb(css: &str) -> [u8; 3] {
    let h = css.trim_start_matches('#');
    let c = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).unwrap();
    [c(0), c(2), c(4)]
}

#[test]
#[ignore = "needs Chromium, chromedriver and poppler (.ci/run installs them)"]
fn the_page_in_a_browser() {
    require_browser();
    let (_server, url) = start_server();
    let (_driver, driver) = start_driver();
    let downloads = scratch("downloads");
    let profile = scratch("profile");
    let runtime = runtime();
    runtime.block_on(async {
        let b = Page::open(&driver, &downloads, &profile).await;
        b.go(&url).await;
        b.viewport(1280, 720).await;
        lesson(&b, &url, &downloads).await;
        // The misspelt game's 400 is the answer wanted; anything else is a fault.
        let errors: Vec<String> = b
            .console_errors(&driver)
            .await
            .into_iter()
            .filter(|e| {
                !e.contains("/api/games/hexapwan - Failed to load resource: the server responded with a status of 400")
            })
            .collect();
        assert!(errors.is_empty(), "console errors: {errors:?}");
        b.c.close().await.unwrap();
    });
}

async fn lesson(b: &Page, url: &str, downloads: &Path) {
    assert_eq!(b.text("#machine-title").await, "HER");
    assert_eq!(b.count("#board .cell").await, 9);
    assert_eq!(
        b.count("#boxes-list .box-card").await,
        19,
        "Gardner's 19 boxes fit one page"
    );
    assert!(b
        .text("#rules")
        .await
        .contains("captures an enemy pawn one square diagonally forward"));
    // An empty curve says so, and game 0 is a point.
    assert_eq!(
        b.count("#chart-score circle.point").await,
        2,
        "game 0 of both score curves"
    );

    // A fresh HER with seed 3: after 1. b2 she draws a2 from box 2, and bxc3 wins.
    b.click("#setup summary").await;
    b.type_into("#seed", "3").await;
    b.click("#new-machine").await;
    b.wait_for_text("#message", "A new machine: HER plays Black in hexapawn.")
        .await;
    assert_eq!(b.count("#board .cell.movable").await, 3);
    b.click(&cell("b1")).await;
    let targets = b
        .js("return [...document.querySelectorAll('#board .cell.target')].map(c => c.dataset.name).join(' ')")
        .await;
    assert_eq!(targets, "b2");
    b.click(&cell("b2")).await;
    b.wait_for_text(
        "#drawn",
        "HER's move 1 (move 2 of the game): HER drew a bead from box 2 and played a2.",
    )
    .await;
    assert!(b.text("#drawn .legend").await.contains("red: a2, 1 bead  ← drawn"));
    assert_eq!(b.count("#drawn svg .drawn").await, 1);
    assert!(b.text("#status").await.contains("Your move (White)"));
    // Training now would drop this game: the page asks first, and keeps it when told to.
    b.type_into("#train-games", "3").await;
    b.click("#train").await;
    b.until("!document.getElementById('confirm-drop').hidden").await;
    assert!(b
        .text("#confirm-text")
        .await
        .contains("A game is in progress (1 move of yours)"));
    b.click("#keep-game").await;
    assert!(b.text("#history").await.contains("b2 a2"));
    b.click(&cell("b2")).await;
    b.click(&cell("c3")).await;
    b.wait_for_text("#status", "You win.").await;
    b.wait_for_text(
        "#changes",
        "HER's move 1 (move 2 of the game), box 2: red, a2: 1 → 0 −1",
    )
    .await;
    b.wait_for_text("#last-game .box-card.changed", "red: a2, 0 beads")
        .await;
    assert_eq!(b.text("#losses").await, "1");
    assert!(b.count("#chart-score circle.point").await >= 4, "one game draws a line");

    // Games by clicks until HER loses from a box she drew as a mirror image:
    // the after-game picture and move names are the ones drawn during the game.
    let mut checked = false;
    for game in 0..40 {
        b.click("#new-game").await;
        b.wait_for_text("#status", "Your move").await;
        let mut drawn: HashMap<u64, Value> = HashMap::new();
        // Odd games open on the a-file, even ones on the c-file: both mirror images come up.
        let first = if game % 2 == 0 { "a1" } else { "c1" };
        let mut opened = false;
        loop {
            b.not_busy().await;
            if b.text("#status").await.contains("Press New game") {
                break;
            }
            if let Value::Object(d) = b.js(DRAWN).await {
                drawn.insert(d["box"].as_u64().unwrap(), Value::Object(d));
            }
            if !opened {
                opened = true;
                b.click(&cell(first)).await;
                b.click("#board .cell.target").await;
            } else if b.count("#board .cell.selected").await > 0 {
                b.click("#board .cell.target").await;
            } else {
                b.click("#board .cell.movable").await;
            }
        }
        for change in b.js(CHANGES).await.as_array().unwrap() {
            let d = &drawn[&change["box"].as_u64().unwrap()];
            assert_eq!(change["svg"], d["svg"], "box {} after the game as drawn", change["box"]);
            assert_eq!(change["move"], d["move"], "{}", change["title"]);
            assert_eq!(
                d["legend"],
                json!(format!(
                    "{}: {}",
                    change["colour"].as_str().unwrap(),
                    d["move"].as_str().unwrap()
                ))
            );
            assert_eq!(change["note"], d["note"], "the mirror said in the same words");
            checked |= change["note"].is_string();
        }
        if checked {
            break;
        }
    }
    assert!(checked, "no game punished a box drawn as a mirror image");
    let words = b.text("#changes .mirror-note").await;
    assert!(
        words.starts_with("Box ") && words.contains("holds the mirror image of this position"),
        "{words}"
    );
    assert_eq!(
        b.count("#changes .mirror-note").await,
        b.count("#changes .change:has(.mirror-note)").await
    );

    // No two bead counts overlap, on any picture of the page (all 19 boxes listed).
    let o = b.js(OVERLAPS).await;
    assert!(o["labels"].as_u64().unwrap() > 40, "{o}");
    assert_eq!(o["overlaps"], 0, "{o}");
    b.js("document.querySelector('#setup details').open = false").await;
    b.screenshot(&plots().join("serve.png")).await;
    let wide = b.js("return document.documentElement.scrollWidth").await;
    assert_eq!(wide, 1280, "nothing wider than the projector's 1280 px");

    // Watch mode: three games at two a second, every move shown on the board.
    b.click("#new-game").await;
    b.wait_for_text("#status", "Your move").await;
    b.js("document.getElementById('speed').value = '2'; document.getElementById('speed').dispatchEvent(new Event('input'))").await;
    assert_eq!(b.text("#speed-text").await, "2 games a second");
    b.type_into("#train-games", "3").await;
    let before = b
        .js("return Number(document.body.dataset.boardUpdates)")
        .await
        .as_u64()
        .unwrap();
    let played = b.text("#games-played").await.parse::<u64>().unwrap();
    b.click("#train").await;
    b.until("document.body.dataset.watched === '3' && document.getElementById('stop').disabled")
        .await;
    let after = b
        .js("return Number(document.body.dataset.boardUpdates)")
        .await
        .as_u64()
        .unwrap();
    let plies: u64 = b
        .js("return [...document.querySelectorAll('#watch-log li')].map(l => Number(l.dataset.plies)).reduce((a, b) => a + b, 0)")
        .await
        .as_u64()
        .unwrap();
    assert_eq!(b.count("#watch-log li").await, 3);
    // One board a move, and the finished game drawn once more after each.
    assert_eq!(after - before, plies + 3, "{plies} moves in 3 games");
    assert_eq!(b.text("#games-played").await, (played + 3).to_string());
    assert!(b
        .text("#progress-text")
        .await
        .contains("3 of 3 games watched against random"));

    // The colour key prints in colour, background graphics off: with the
    // pictures hidden, the swatches alone carry the bead colours.
    let key: Vec<String> = serde_json::from_value(
        b.js("return [...new Set([...document.querySelectorAll('#boxes-list .swatch')].map(s => s.dataset.css))]")
            .await,
    )
    .unwrap();
    assert!(key.len() >= 3, "{key:?}");
    b.js("const s = document.createElement('style'); s.id = 'no-pictures'; s.textContent = '@media print { .box-card svg { display: none } }'; document.head.appendChild(s)").await;
    let pdf = b.c.print(PrintConfiguration::default()).await.unwrap();
    b.js("document.getElementById('no-pictures').remove()").await;
    assert!(pdf.starts_with(b"%PDF"));
    let pdf_file = downloads.join("boxes.pdf");
    std::fs::write(&pdf_file, &pdf).unwrap();
    let out = Command::new(PDFTOPPM)
        .args(["-r", "60", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&pdf_file)
        .arg(downloads.join("page"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let colours = ppm_colours(&std::fs::read(downloads.join("page.ppm")).unwrap());
    for css in &key {
        let want = rgb(css);
        let near = colours
            .iter()
            .filter(|(c, _)| c.iter().zip(want).all(|(&a, b)| a.abs_diff(b) <= 12))
            .map(|(_, n)| n)
            .sum::<usize>();
        assert!(near >= 10, "the key's {css} printed: {near} pixels");
    }

    // The state downloads as the file the command line reads.
    b.click("#download").await;
    let file = downloads.join("menace-hexapawn.json");
    wait_until("the state file is downloaded", PATIENCE, || {
        file.exists() && !downloads.join("menace-hexapawn.json.crdownload").exists()
    });
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "hexapawn", "--state"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let listing = String::from_utf8_lossy(&out.stdout);
    let games = b.text("#games-played").await;
    assert!(
        listing.contains(&format!(
            "19 boxes of a machine playing Black in hexapawn, after {games} games"
        )),
        "{listing}"
    );

    // 400 px wide: nothing overflows.
    b.viewport(400, 860).await;
    let (scroll, client) = (
        b.js("return document.documentElement.scrollWidth").await,
        b.js("return document.documentElement.clientWidth").await,
    );
    assert_eq!(scroll, client, "no overflow at 400 px");
    b.screenshot(&plots().join("serve-400.png")).await;
    b.viewport(1280, 720).await;

    // A misspelt game keeps the menu and says what is wrong.
    let sides = b.count("#side option").await;
    b.type_into("#custom-game", "hexapwan").await;
    b.js("document.getElementById('custom-game').dispatchEvent(new Event('change'))")
        .await;
    b.wait_for_text("#spec-error", "hexapwan").await;
    assert_eq!(b.count("#side option").await, sides);
    b.type_into("#custom-game", "").await;

    // Chessapawn after 200 games: a page of boxes, not thousands of cards.
    b.js("document.getElementById('game').value = 'chessapawn'; document.getElementById('game').dispatchEvent(new Event('change'))").await;
    b.until("[...document.querySelectorAll('#side option')].length === 2")
        .await;
    b.click("#new-machine").await;
    b.wait_for_text("#message", "in chessapawn").await;
    b.js("document.getElementById('speed').value = '7'; document.getElementById('speed').dispatchEvent(new Event('input'))").await;
    b.type_into("#train-games", "200").await;
    b.click("#train").await;
    b.wait_for_text("#progress-text", "200 of 200 games against random done")
        .await;
    b.until("document.getElementById('boxes-list').dataset.games === '200'")
        .await;
    let total: u64 = b
        .text("#boxes-summary")
        .await
        .split(": ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .map(|t| t.replace('\u{202F}', ""))
        .and_then(|t| t.parse().ok())
        .unwrap();
    let cards = b.count(".box-card").await;
    assert!(total > 500, "Chessapawn opens boxes by the hundred: {total}");
    assert!(cards <= 300, "{cards} cards in the page for {total} boxes");
    let o = b.js(OVERLAPS).await;
    assert_eq!(o["overlaps"], 0, "{o}");
    // Names unique within each box, however many moves.
    let repeated = b
        .js("return [...document.querySelectorAll('.box-card .legend')].filter(l => { const n = [...l.children].map(li => li.textContent.split(':')[0]); return new Set(n).size !== n.length; }).length")
        .await;
    assert_eq!(repeated, 0);
    let _ = url;
}

/// The perfect Hex player on the page, on 4×4 (the page's exhaustive limit
/// is far below it, so it is the on-demand solver): without the swap, Red
/// first, a machine playing Blue loses every game to it (the first player
/// wins Hex); against perfect:0.5 a game is still won or lost. Screenshots
/// at 1280×720 and 400 px wide go to the test's scratch directory.
#[test]
#[ignore = "needs Chromium, chromedriver and poppler (.ci/run installs them)"]
fn perfect_hex_on_the_page() {
    on_one_tab("perfect-hex", async |b, _url, shots| {
        b.type_into("#custom-game", "hex:4,swap=off,first=red").await;
        // Leaving the field is what asks the server for the game's sides.
        b.js("document.getElementById('custom-game').blur()").await;
        b.until("[...document.querySelectorAll('#side option')].some(o => o.value === 'blue')")
            .await;
        b.js("document.getElementById('side').value = 'blue'").await;
        b.click("#new-machine").await;
        b.wait_for_text("#message", "plays Blue in hex:4,swap=off,first=red")
            .await;
        b.not_busy().await;
        assert_eq!(b.js("return document.getElementById('side').value").await, "blue");
        // Perfect, as fast as possible.
        b.js(
            "const o = document.getElementById('opponent'); o.value = 'perfect'; o.dispatchEvent(new Event('change'))",
        )
        .await;
        b.until("!document.getElementById('chance-label').hidden").await;
        b.js("document.getElementById('speed').value = '7'; document.getElementById('speed').dispatchEvent(new Event('input'))").await;
        b.type_into("#train-games", "30").await;
        b.click("#train").await;
        b.wait_for_text("#progress-text", "30 of 30 games against perfect done")
            .await;
        b.until("document.getElementById('games-played').textContent === '30'")
            .await;
        assert_eq!(b.text("#wins").await, "0");
        assert_eq!(b.text("#losses").await, "30");
        // perfect:0.5: a best move half the time, else a random one.
        b.type_into("#chance", "0.5").await;
        b.type_into("#train-games", "10").await;
        b.click("#train").await;
        b.wait_for_text("#progress-text", "10 of 10 games against perfect:0.5 done")
            .await;
        b.until("document.getElementById('games-played').textContent === '40'")
            .await;
        let (wins, losses) = (
            b.text("#wins").await.parse::<u64>().unwrap(),
            b.text("#losses").await.parse::<u64>().unwrap(),
        );
        assert_eq!((wins + losses, b.text("#draws").await.as_str()), (40, "0"));
        // One game watched move by move against perfect play: it wins.
        b.type_into("#chance", "1").await;
        b.js("document.getElementById('speed').value = '3'; document.getElementById('speed').dispatchEvent(new Event('input'))").await;
        b.type_into("#train-games", "1").await;
        b.click("#train").await;
        b.until("document.body.dataset.watched === '1' && document.getElementById('stop').disabled")
            .await;
        b.not_busy().await;
        assert!(
            b.text("#status").await.contains("Perfect wins."),
            "{}",
            b.text("#status").await
        );
        assert!(b
            .text("#progress-text")
            .await
            .contains("1 of 1 games watched against perfect"));
        assert_eq!(b.text("#losses").await, (losses + 1).to_string());
        b.screenshot(&shots.join("perfect-hex4.png")).await;
        let wide = b.js("return document.documentElement.scrollWidth").await;
        assert_eq!(wide, 1280, "nothing wider than the projector's 1280 px");
        b.viewport(400, 860).await;
        b.fits("400 px").await;
        b.screenshot(&shots.join("perfect-hex4-400.png")).await;
        eprintln!("screenshots in {}", shots.display());
    });
}

/// The rules panel says what each machine does, as worked out by hand from
/// its settings: HER (Gardner's rule: one bead a move, after a loss only the
/// last move's box loses its bead, a win changes nothing, no draws in
/// Hexapawn), MENACE (Michie's: 4/3/2/1 beads, +3/+1/−1 on every box drawn
/// from) and a custom machine; and the bead changes the page shows after
/// HER's games are the ones its text says. Screenshots of the panel at
/// 1280×720 go to the test's scratch directory.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn the_rules_panel_says_what_each_machine_does() {
    on_one_tab("rules-panel", async |b, _url, shots| {
        rules_panels(b, shots).await;
    });
}

/// The rules panel's machine text, one line a paragraph.
async fn machine_text(b: &Page) -> String {
    b.js("return [...document.querySelectorAll('#machine-rules p')].map(p => p.textContent).join('\\n')")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// Scroll the rules panel to the top of the 1280×720 window and take it.
async fn shoot_rules(b: &Page, path: &Path) {
    b.js("document.getElementById('rules-panel').scrollIntoView({block: 'start'})")
        .await;
    let png = b.c.screenshot().await.unwrap();
    std::fs::write(path, &png).unwrap();
    assert!(png.len() > 10_000, "{} is a picture", path.display());
}

/// A new machine from the setup form: `game` from the menu, the other
/// fields as given (empty: the game's own), waiting for the page to say so.
async fn new_machine(b: &Page, game: &str, fields: [(&str, &str); 4], said: &str) {
    b.js(&format!(
        "document.getElementById('game').value = {game:?}; document.getElementById('game').dispatchEvent(new Event('change'))"
    ))
    .await;
    b.js("document.querySelector('#setup details').open = true").await;
    for (id, value) in fields {
        if id == "preset" {
            b.js(&format!("document.getElementById('preset').value = {value:?}"))
                .await;
        } else {
            b.type_into(&format!("#{id}"), value).await;
        }
    }
    // The message may already say the same (a machine of the same game
    // before): cleared first, so that the wait is for this machine's.
    b.js("document.getElementById('message').textContent = ''").await;
    b.click("#new-machine").await;
    b.wait_for_text("#message", said).await;
    b.not_busy().await;
}

async fn rules_panels(b: &Page, shots: &Path) {
    // HER, as the page starts: Gardner's rule on 3×3 Hexapawn.
    assert_eq!(b.text("#rules-title").await, "Hexapawn");
    assert!(b.text("#rules").await.contains("There are no draws."));
    let her = machine_text(b).await;
    for said in [
        "HER plays Black. HER keeps a matchbox for each position it may face.",
        "to start, one bead of each colour.",
        "After a win, no bead changes.",
        "After a loss, only the box of HER's last move changes: it loses 1 bead of the colour drawn from it; no other bead changes.",
        "This is Gardner's rule.",
        "HER resigns: the game counts as a loss",
    ] {
        assert!(her.contains(said), "HER's text does not say {said:?}:\n{her}");
    }
    // Hexapawn is never drawn, and Gardner's rule never adds a bead.
    for unsaid in ["a draw", "gains", "added", "every box"] {
        assert!(!her.contains(unsaid), "HER's text says {unsaid:?}:\n{her}");
    }
    assert!(
        b.text("#symmetry-note")
            .await
            .starts_with("A position and the same board mirrored left for right share one box"),
        "{}",
        b.text("#symmetry-note").await
    );
    shoot_rules(b, &shots.join("rules-her.png")).await;

    // Games against HER, seed 5, until she wins one by play: her losses
    // take one bead, from the box of her last move; her win takes none.
    b.js("document.querySelector('#setup details').open = true").await;
    b.type_into("#seed", "5").await;
    b.click("#new-machine").await;
    b.wait_for_text("#message", "A new machine: HER plays Black in hexapawn.")
        .await;
    b.type_into("#seed", "").await;
    let (mut wins, mut losses) = (0, 0);
    for game in 0..40 {
        if wins > 0 && losses > 0 {
            break;
        }
        b.not_busy().await;
        if game > 0 {
            b.click("#new-game").await;
        }
        b.wait_for_text("#status", "Your move").await;
        let beads_before = b.text("#boxes-beads").await;
        let mut last_box = None;
        loop {
            b.not_busy().await;
            if b.text("#status").await.contains("Press New game") {
                break;
            }
            if let Value::Object(d) = b.js(DRAWN).await {
                last_box = d["box"].as_u64();
            }
            // White plays its first movable pawn's first move: rarely well.
            if b.count("#board .cell.selected").await > 0 {
                b.click("#board .cell.target").await;
            } else {
                b.click("#board .cell.movable").await;
            }
        }
        let status = b.text("#status").await;
        let changes = b.js(CHANGES).await;
        let changes = changes.as_array().unwrap();
        let title = b.text("#changes-title").await;
        if status.contains("HER wins.") {
            wins += 1;
            assert_eq!(title, "After the game, HER's beads are unchanged.", "{status}");
            assert!(changes.is_empty(), "a win changed {changes:?}");
            assert_eq!(b.text("#boxes-beads").await, beads_before, "a win keeps every bead");
        } else {
            assert!(status.contains("You win."), "{status}");
            losses += 1;
            assert_eq!(title, "After the game, HER's beads changed:", "{status}");
            assert_eq!(changes.len(), 1, "only the last move's box changes: {changes:?}");
            assert_eq!(changes[0]["box"].as_u64(), last_box, "the box of HER's last move");
            assert!(
                changes[0]["title"].as_str().unwrap().ends_with("1 → 0 −1"),
                "{}",
                changes[0]["title"]
            );
        }
    }
    assert!(wins > 0 && losses > 0, "{wins} wins and {losses} losses for HER");
    assert_eq!(machine_text(b).await, her, "the same machine, the same words");

    // MENACE: Michie's rule on noughts and crosses.
    new_machine(
        b,
        "tictactoe",
        [("preset", ""), ("beads", ""), ("reinforcement", ""), ("empty-box", "")],
        "A new machine: MENACE plays X in tictactoe.",
    )
    .await;
    assert_eq!(b.text("#rules-title").await, "Noughts and crosses");
    assert!(b.text("#rules").await.contains("A full board without a row is a draw."));
    let menace = machine_text(b).await;
    for said in [
        "MENACE plays X. MENACE keeps a matchbox for each position it may face where it has a choice of moves",
        "to start, 4 beads of each colour in a box for its 1st move, 3 for its 2nd, 2 for its 3rd, and 1 for its 4th and later.",
        "After a win, every box MENACE drew from gains 3 beads of the colour drawn from it.",
        "After a draw, every box MENACE drew from gains 1 bead of the colour drawn from it.",
        "After a loss, every box MENACE drew from loses 1 bead of the colour drawn from it.",
        "This is Michie's rule.",
        "MENACE resigns: the game counts as a loss",
    ] {
        assert!(menace.contains(said), "MENACE's text does not say {said:?}:\n{menace}");
    }
    assert!(!menace.contains("last move"), "{menace}");
    assert!(
        b.text("#symmetry-note")
            .await
            .starts_with("A position and the same board turned or reflected share one box"),
        "{}",
        b.text("#symmetry-note").await
    );
    shoot_rules(b, &shots.join("rules-menace.png")).await;

    // A machine of one's own: 3 beads a colour, +2 a win, +1 a draw, −2 a
    // loss on every move, an empty box restocked.
    new_machine(
        b,
        "tictactoe",
        [
            ("preset", "michie"),
            ("beads", "3"),
            ("reinforcement", "2/1/-2"),
            ("empty-box", "restock"),
        ],
        "A new machine: MENACE plays X in tictactoe.",
    )
    .await;
    let custom = machine_text(b).await;
    for said in [
        "to start, 3 beads of each colour.",
        "After a win, every box MENACE drew from gains 2 beads of the colour drawn from it.",
        "After a draw, every box MENACE drew from gains 1 bead of the colour drawn from it.",
        "After a loss, every box MENACE drew from loses 2 beads of the colour drawn from it (as many as it holds).",
        "This is the rule +2/+1/-2.",
        "If the box MENACE must draw from is empty, it is filled again with its starting beads, and MENACE draws from it.",
    ] {
        assert!(custom.contains(said), "the custom text does not say {said:?}:\n{custom}");
    }
    for unsaid in ["Michie's rule", "resigns", "4 beads"] {
        assert!(!custom.contains(unsaid), "the custom text says {unsaid:?}:\n{custom}");
    }
    shoot_rules(b, &shots.join("rules-custom.png")).await;

    // And one on Hexapawn, the last move only, with a floor: still no draws.
    new_machine(
        b,
        "hexapawn",
        [
            ("preset", ""),
            ("beads", "2"),
            ("reinforcement", "1/5/-1:last"),
            ("empty-box", "floor:1"),
        ],
        "A new machine: HER plays Black in hexapawn.",
    )
    .await;
    let floor = machine_text(b).await;
    for said in [
        "After a win, only the box of HER's last move changes: it gains 1 bead of the colour drawn from it; no other bead changes.",
        "After a loss, only the box of HER's last move changes: it loses 1 bead of the colour drawn from it; no other bead changes.",
        "No colour in a box ever drops below 1 bead",
    ] {
        assert!(floor.contains(said), "the floor text does not say {said:?}:\n{floor}");
    }
    assert!(!floor.contains("draw "), "no draws in Hexapawn:\n{floor}");
    eprintln!("screenshots in {}", shots.display());
}

fn plots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("plots")
}

/// The counters follow a training run while it runs; a new machine leaves
/// nothing of the old one on screen (progress, games watched, the boxes
/// view's filter, the counters); numbers never break at their separator.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn counters_follow_training_and_a_new_machine_starts_clean() {
    on_one_tab("new-machine", async |b, _url, shots| {
        new_machine(
            b,
            "tictactoe",
            [("preset", ""), ("beads", ""), ("reinforcement", ""), ("empty-box", "")],
            "A new machine",
        )
        .await;
        // 2 000 games against a searching opponent of 3 000 playouts a move:
        // tens of seconds, so that it is surely seen running (with 300 it
        // could end, under the whole suite's load, before the page showed a
        // count while running), and stopped long before the end.
        b.js("document.getElementById('opponent').value = 'mcts'; document.getElementById('opponent').dispatchEvent(new Event('change'))")
            .await;
        b.type_into("#playouts", "3000").await;
        b.type_into("#train-games", "2000").await;
        b.click("#train-form button[type=submit]").await;
        let counted = "(['wins', 'draws', 'losses'].map(id => Number(document.getElementById(id).textContent.replace(/\\D/g, ''))).reduce((a, b) => a + b, 0))";
        b.until(&format!(
            "document.getElementById('progress-text').textContent.includes('…') && {counted} > 0"
        ))
        .await;
        let played = b.text("#games-played").await.replace(|c: char| !c.is_ascii_digit(), "");
        assert!(played.parse::<u64>().unwrap() < 2000, "{played}");
        eprintln!("{played} games played when the page showed them running");
        b.click("#stop").await;
        b.until("!document.getElementById('progress-text').textContent.includes('…')")
            .await;
        b.not_busy().await;
        // A filter on the boxes view.
        b.js("const m = document.getElementById('box-move'); m.value = m.options[2].value; m.dispatchEvent(new Event('change'))")
            .await;
        b.wait_for_text("#boxes-summary", "shown by the filter").await;
        b.not_busy().await;
        b.screenshot(&shots.join("stopped-1280.png")).await;
        eprintln!("screenshots in {}", shots.display());
        // Nothing wraps at a thousands separator, and none is a breaking space.
        let text = b.shown_text().await;
        assert!(!text.contains('\u{2009}'), "a breaking thin space in: {text}");
        assert!(text.contains('\u{202F}'), "some number over 999 is shown");

        new_machine(
            b,
            "hexapawn",
            [("preset", ""), ("beads", ""), ("reinforcement", ""), ("empty-box", "")],
            "A new machine",
        )
        .await;
        assert_eq!(b.text("#progress-text").await, "");
        assert_eq!(b.count("#watch-log li").await, 0);
        for id in ["#games-played", "#wins", "#draws", "#losses"] {
            assert_eq!(b.text(id).await, "0", "{id}");
        }
        let summary = b.text("#boxes-summary").await;
        assert!(!summary.contains("filter"), "{summary}");
        assert!(summary.contains("19 boxes"), "{summary}");
        // No word of the old machine (MENACE, noughts and crosses) is left in any panel.
        for panel in [
            "#play-panel",
            "#box-panel",
            "#train-panel",
            "#charts-panel",
            "#rules-panel",
            "#boxes-panel",
            "#message",
        ] {
            let text = b.text(panel).await;
            assert!(
                !text.contains("MENACE") && !text.contains("tictactoe"),
                "{panel}: {text}"
            );
        }
    });
}

/// The rectangle of the first element `css` selects, in CSS pixels of the
/// viewport: [left, top, right, bottom], or null.
fn rect(css: &str) -> String {
    format!(
        "const e = document.querySelector({css:?}); if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];"
    )
}

/// In the projector layout at 1280×720, after HER loses a game, the board,
/// the box she drew from (drawn large, its counts readable) and the bead
/// the game took away are all in view without scrolling; the layout is
/// remembered, and the boxes view's pictures grow with its size control.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn the_projector_layout_keeps_the_moment_of_learning_in_view() {
    on_one_tab("projector", async |b, url, shots| {
        b.click("#projector").await;
        assert_eq!(
            b.js("return document.body.classList.contains('projector')").await,
            json!(true)
        );
        // A fresh HER with seed 3: after 1. b2 she draws a2, and bxc3 wins for White.
        b.click("#setup summary").await;
        b.type_into("#seed", "3").await;
        b.click("#new-machine").await;
        b.wait_for_text("#message", "A new machine: HER plays Black in hexapawn.")
            .await;
        b.js("document.querySelector('#setup details').open = false").await;
        b.click(&cell("b1")).await;
        b.click(&cell("b2")).await;
        b.wait_for_text("#drawn", "HER drew a bead from box 2 and played a2.")
            .await;
        b.not_busy().await;
        b.click(&cell("b2")).await;
        b.click(&cell("c3")).await;
        b.wait_for_text("#status", "You win.").await;
        b.wait_for_text("#changes", "box 2: red, a2: 1 → 0 −1").await;
        b.not_busy().await;
        b.js("window.scrollTo(0, 0)").await;
        let inside = |r: &Value, what: &str| {
            let r: Vec<f64> = r
                .as_array()
                .unwrap_or_else(|| panic!("{what} is shown"))
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert!(
                r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= 1280.0 && r[3] <= 720.0,
                "{what} at {r:?} is not inside 1280×720"
            );
            (r[2] - r[0], r[3] - r[1])
        };
        let (board_w, _) = inside(&b.js(&rect("#board svg")).await, "the board");
        inside(&b.js(&rect("#drawn-title")).await, "the drawn box's title");
        let (box_w, _) = inside(&b.js(&rect("#drawn .box-picture svg")).await, "the drawn box");
        inside(&b.js(&rect("#drawn .legend")).await, "the drawn box's beads");
        inside(
            &b.js(&rect("#changes .change-title")).await,
            "the change after the game",
        );
        inside(
            &b.js(&rect("#changes .change .box-picture svg")).await,
            "the changed box",
        );
        assert!(
            board_w >= 300.0 && box_w >= 300.0,
            "board {board_w} px and box {box_w} px wide"
        );
        // The bead counts on the drawn box: at least 24 px high, read from the back of a room.
        let counts = b
            .js("return [...document.querySelectorAll('#drawn svg .count text')].map(t => t.getBoundingClientRect().height)")
            .await;
        let counts: Vec<f64> = counts.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert!(
            !counts.is_empty() && counts.iter().all(|&h| h >= 24.0),
            "count heights {counts:?}"
        );
        let wide = b.js("return document.documentElement.scrollWidth").await;
        assert_eq!(wide, 1280, "nothing wider than the projector");
        b.screenshot(&shots.join("projector-1280.png")).await;
        b.screenshot(&plots().join("serve-projector.png")).await;
        // Remembered: a reload keeps the layout.
        b.go(url).await;
        assert_eq!(
            b.js("return document.body.classList.contains('projector')").await,
            json!(true)
        );
        // The boxes view's pictures grow with the size control.
        let before = b.js(&rect("#boxes-list .box-card svg")).await;
        b.js("const s = document.getElementById('box-size'); s.value = '440'; s.dispatchEvent(new Event('input'))")
            .await;
        let after = b.js(&rect("#boxes-list .box-card svg")).await;
        let width = |r: &Value| r[2].as_f64().unwrap() - r[0].as_f64().unwrap();
        assert!(width(&after) > 1.8 * width(&before), "{before} then {after}");
        // A phone: one column, nothing wider than the screen.
        b.viewport(400, 860).await;
        b.fits("400 px").await;
        eprintln!("screenshots in {}", shots.display());
    });
}

/// Watching games at 2 a second shows one game at a time: every board
/// shown comes with that game's own moves so far and its own move number,
/// and a second machine is named as the page names it throughout.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn watch_mode_shows_one_game_at_a_time() {
    on_one_tab("watch", async |b, _url, shots| {
        // Every board shown, with the status and move list beside it at that moment.
        b.js("window.seen = []; new MutationObserver(() => window.seen.push([document.getElementById('status').textContent, document.getElementById('history').textContent])).observe(document.body, {attributes: true, attributeFilter: ['data-board-updates']})")
            .await;
        b.js("document.getElementById('opponent').value = 'menace'; document.getElementById('opponent').dispatchEvent(new Event('change'))")
            .await;
        b.js("const s = document.getElementById('speed'); s.value = '2'; s.dispatchEvent(new Event('input'))")
            .await;
        assert_eq!(b.text("#speed-text").await, "2 games a second");
        b.type_into("#train-games", "3").await;
        b.click("#train-form button[type=submit]").await;
        b.until("document.body.dataset.watched === '3'").await;
        b.until("!document.getElementById('train').disabled").await;
        let seen = b.js("return window.seen").await;
        let frames: Vec<(String, String)> = seen
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_str().unwrap().to_string()))
            .filter(|(status, _)| status.contains(" plays "))
            .collect();
        assert!(
            frames.len() >= 9,
            "three games of Hexapawn are at least 9 moves: {frames:?}"
        );
        for (status, history) in &frames {
            // "HER plays a2 (move 2 of the game)." beside "Moves: b2 a2".
            let ply = common::move_number(status);
            let mv = status.split(" plays ").nth(1).unwrap().split(' ').next().unwrap();
            let moves: Vec<&str> = history.trim_start_matches("Moves: ").split(' ').collect();
            assert_eq!(moves.len(), ply, "{status} beside {history}");
            assert_eq!(moves.last().copied(), Some(mv), "{status} beside {history}");
            assert!(
                status.starts_with("HER plays") || status.starts_with("A second HER plays"),
                "{status}"
            );
        }
        let page = b.shown_text().await;
        assert!(
            !page.contains("menace wins") && !page.contains("menace plays"),
            "{page}"
        );
        assert!(b
            .text("#progress-text")
            .await
            .contains("3 of 3 games watched against a second HER"));
        b.screenshot(&shots.join("watched.png")).await;
        // The second machine's boxes open like HER's.
        b.until("!document.getElementById('box-machine-label').hidden").await;
        b.js("const m = document.getElementById('box-machine'); m.value = 'second'; m.dispatchEvent(new Event('change'))").await;
        b.wait_for_text("#boxes-summary", "A second HER plays White in hexapawn")
            .await;
        assert!(b.count("#boxes-list .box-card").await > 0);
        assert!(b
            .text("#boxes-list .box-card .title")
            .await
            .contains("a second HER's move"));
    });
}

/// `menace serve --classroom` on the second loopback address (127.0.0.2,
/// standing in for the classroom's network) and 127.0.0.1 (the teacher's
/// computer): the child, the room's address, the join code and the teacher's token.
fn start_classroom() -> (Killed, String, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["serve", "--classroom", "--host", "127.0.0.2", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut printed = String::new();
    while !printed.contains("teacher, from another device") {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server stopped: {printed}");
        printed.push_str(&line);
    }
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let word_after = |marker: &str| {
        printed
            .split(marker)
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no {marker:?} in:\n{printed}"))
            .to_string()
    };
    let room = word_after("the class joins at ");
    let code = word_after(" code ");
    let token = word_after("?teacher=");
    assert!(room.starts_with("http://127.0.0.2:"), "{printed}");
    assert!(
        printed.contains('▀') || printed.contains('▄'),
        "a QR code is printed:\n{printed}"
    );
    (Killed(child), room, code, token)
}

/// A student plays the class machine on their own page: pieces clicked
/// until the game is no longer theirs.
async fn play_the_class_game(b: &Page) {
    b.wait_for_text("#class-turn", "Your").await;
    if b.text("#class-turn").await.contains("Start your game") {
        // The game before stays on the board until this student starts theirs.
        b.click("#class-play").await;
    }
    b.wait_for_text("#class-turn", "Your game").await;
    for _ in 0..40 {
        b.not_busy().await;
        if !b.text("#class-turn").await.contains("Your game") {
            return;
        }
        if b.count("#board .cell.selected").await > 0 {
            b.click("#board .cell.target").await;
        } else if b.count("#board .cell.movable").await > 0 {
            b.click("#board .cell.movable").await;
        }
    }
    panic!("the game did not end: {}", b.text("#status").await);
}

/// A class plays one machine: a teacher and two students, each their own
/// browser; both students' games reinforce the one machine in the order
/// they ended; a student may not change the machine; nobody without the
/// code or the token gets anything but the page.
#[test]
#[ignore = "needs Chromium and chromedriver (.ci/run installs them)"]
fn a_class_plays_one_machine_from_three_browsers() {
    require_browser();
    let (_server, room, code, token) = start_classroom();
    let port = room.trim_end_matches('/').rsplit(':').next().unwrap().to_string();
    let own = format!("http://127.0.0.1:{port}/");
    let (_driver, driver) = start_driver();
    let shots = scratch("class");
    let runtime = runtime();
    runtime.block_on(async {
        let teacher = Page::open(&driver, &shots, &scratch("class-teacher")).await;
        teacher.go(&own).await;
        teacher.viewport(1280, 720).await;
        assert_eq!(teacher.js("return document.body.dataset.role").await, json!("teacher"));
        assert!(teacher.text("#class-code").await.contains(&format!("Join at {room} with the code {code}")));
        let ada = Page::open(&driver, &shots, &scratch("class-ada")).await;
        let bo = Page::open(&driver, &shots, &scratch("class-bo")).await;
        for (b, name) in [(&ada, "Ada"), (&bo, "Bo")] {
            b.go(&format!("{room}?code={code}")).await;
            assert_eq!(b.js("return document.getElementById('join-code').value").await, json!(code));
            b.type_into("#join-name", name).await;
            b.click("#join").await;
            b.wait_for_text("#class-code", &format!("You are {name}.")).await;
            b.click("#class-play").await;
        }
        ada.wait_for_text("#class-turn", "Your game").await;
        bo.wait_for_text("#class-turn", "You are number 1 in the queue. Ada is playing.").await;
        bo.viewport(400, 860).await;
        play_the_class_game(&ada).await;
        // Bo's turn comes by itself.
        play_the_class_game(&bo).await;
        teacher.until("document.body.dataset.classGames === '2'").await;
        teacher.until("document.getElementById('games-played').textContent === '2'").await;
        let log = teacher
            .js("return [...document.querySelectorAll('#class-log li')].map(li => li.textContent)")
            .await;
        let log: Vec<&str> = log.as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        assert_eq!(log.len(), 2, "{log:?}");
        assert!(log[0].starts_with("Bo: ") && log[1].starts_with("Ada: "), "latest first: {log:?}");
        // The machine's log, oldest first: Ada's game reinforced it first.
        let games = call("GET", &format!("{own}api/class/log"), None).json();
        let players: Vec<&str> = games["games"].as_array().unwrap().iter().map(|g| g["student"].as_str().unwrap()).collect();
        assert_eq!(players, ["Ada", "Bo"]);
        let class = call("GET", &format!("{own}api/class"), None).json();
        assert_eq!(class["view"]["games_played"], 2);
        let session = class["session"].as_str().unwrap().to_string();
        // The log replays exactly: its games, in its order, played on a fresh
        // HER with her beads given (referee), make the class machine.
        let fresh = call("POST", &format!("{own}api/sessions"), Some(r#"{"game": "hexapawn"}"#)).json();
        let replay = format!("{own}api/sessions/{}", fresh["session"].as_str().unwrap());
        call("POST", &format!("{replay}/referee"), Some(r#"{"on": true}"#));
        for game in games["games"].as_array().unwrap() {
            let mut v = call("POST", &format!("{replay}/game"), None).json();
            for mv in game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()) {
                v = match v["awaiting_bead"].as_object() {
                    Some(d) => {
                        let bead = d["beads"].as_array().unwrap().iter().find(|b| b["move"] == mv).unwrap();
                        let body = json!({"colour": bead["colour"]}).to_string();
                        call("POST", &format!("{replay}/bead"), Some(&body)).json()
                    }
                    None => call("POST", &format!("{replay}/move"), Some(&json!({"move": mv}).to_string())).json(),
                };
            }
            if v["awaiting_bead"].is_object() {
                // Her box was empty: she resigned.
                v = call("POST", &format!("{replay}/bead"), Some(r#"{"colour": null}"#)).json();
            }
            // The same end: HER's win is "HER wins." in both; the student's, "You win." here.
            let her_won = game["result"] == "HER wins.";
            assert_eq!(v["board"]["over"], true, "{game}");
            assert_eq!(v["board"]["result"].as_str().unwrap().ends_with("HER wins."), her_won, "{game}: {}", v["board"]);
        }
        let state = |api: &str| -> Value { serde_json::from_str(&call("GET", &format!("{api}/state"), None).body).unwrap() };
        assert_eq!(state(&replay)["machine"]["boxes"], state(&format!("{own}api/sessions/{session}"))["machine"]["boxes"]);
        // The projector: the class in a band, and the board, the box drawn
        // and the change after the last game all in view at 1280×720.
        teacher.click("#projector").await;
        teacher.js("window.scrollTo(0, 0)").await;
        for what in ["#class-code", "#board svg", "#drawn .box-picture svg", "#changes"] {
            let r = teacher.js(&rect(what)).await;
            let r: Vec<f64> = r.as_array().unwrap_or_else(|| panic!("{what} shown")).iter().map(|x| x.as_f64().unwrap()).collect();
            assert!(r[1] >= 0.0 && r[3] <= 720.0 && r[2] <= 1280.0, "{what} at {r:?} is not inside 1280×720");
        }
        teacher.screenshot(&plots().join("class-teacher.png")).await;
        bo.screenshot(&plots().join("class-student-400.png")).await;
        // A student's reset, upload, training and download are refused (their own cookie, their page).
        let refused = ada
            .js(&format!(
                "const at = '/api/sessions/{session}';
                 const asks = [['POST', at + '/machine', '{{}}'], ['PUT', at + '/state', '{{}}'],
                               ['POST', at + '/train', '{{\"opponent\": \"random\", \"games\": 10}}'], ['GET', at + '/state', null],
                               ['GET', '/api/class/log', null]];
                 return Promise.all(asks.map(([method, path, body]) => fetch(path, {{method, body, headers: body ? {{'content-type': 'application/json'}} : {{}}}}).then(r => r.status)));"
            ))
            .await;
        assert_eq!(refused, json!([403, 403, 403, 403, 403]));
        // Ada queues again and leaves without a move: the teacher skips her
        // turn, and her game is dropped (no game counted, no bead changed).
        ada.click("#class-play").await;
        ada.wait_for_text("#class-turn", "Your game").await;
        let before = state(&format!("{own}api/sessions/{session}"));
        teacher.until("!document.getElementById('class-skip').hidden").await;
        teacher.click("#class-skip").await;
        ada.wait_for_text("#class-turn", "Press Play a game").await;
        let after = state(&format!("{own}api/sessions/{session}"));
        assert_eq!(after["machine"], before["machine"]);
        assert_eq!(after["games_played"], 2);
        let skip = ada.js("return fetch('/api/class/skip', {method: 'POST'}).then(r => r.status)").await;
        assert_eq!(skip, json!(403), "only the teacher skips");
        // A device that joined stays one student, whatever it asks again.
        let again = ada
            .js("return fetch('/api/class/join', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({code: 'X', name: 'Eve'})}).then(r => r.json()).then(k => [k.class.you, k.class.students.length, k.view.state_file])")
            .await;
        assert_eq!(again, json!(["Ada", 2, null]));
        // Nobody without the code or the token gets more than the page.
        assert_eq!(call("GET", &room, None).status, 200);
        let guest = call("GET", &format!("{room}api/class"), None).json();
        assert_eq!(guest["class"], json!({"role": "guest"}), "a guest is told nothing of the class");
        assert!(guest["view"].is_null());
        for (method, path) in [("GET", format!("api/sessions/{session}")), ("GET", "api/class/log".to_string()), ("POST", "api/sessions".to_string())] {
            let r = call(method, &format!("{room}{path}"), if method == "POST" { Some("{}") } else { None });
            assert_eq!(r.status, 403, "{method} {path}: {}", r.body);
        }
        assert_eq!(call("POST", &format!("{room}api/class/join"), Some(r#"{"code": "WRONG1"}"#)).status, 403);
        // The teacher's link works from the room's side.
        assert_eq!(call("GET", &format!("{room}api/class/log?teacher={token}"), None).status, 200);
        for b in [&teacher, &ada, &bo] {
            let errors = b.console_errors(&driver).await;
            assert!(errors.iter().all(|e| e.contains("403")), "console errors: {errors:?}");
        }
        eprintln!("screenshots in {}", plots().display());
        for b in [teacher, ada, bo] {
            b.c.close().await.unwrap();
        }
    });
}

/// The bead colours in the order a box's moves take them (the palette the
/// labels print, as docs/teaching.md lists it).
const COLOURS: [&str; 10] = [
    "red", "blue", "green", "orange", "purple", "yellow", "pink", "brown", "black", "cyan",
];

/// Each label of a sheet's label pages as `pdftotext -layout` sets them
/// side by side: its number, position, and (colour, beads) in order.
fn labels_of(pdf: &Path) -> HashMap<u64, (String, Vec<(String, u64)>)> {
    let out = Command::new("pdftotext")
        .args(["-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut labels = HashMap::new();
    for (row, line) in lines.iter().enumerate() {
        let starts: Vec<usize> = line.match_indices("Box ").map(|(i, _)| i).collect();
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(usize::MAX);
            let head: Vec<&str> = line[start..end.min(line.len())].split_whitespace().collect();
            let (Some(number), Some(pos), Some(side)) = (
                head.get(1).and_then(|n| n.parse::<u64>().ok()),
                head.get(2),
                head.get(3),
            ) else {
                continue;
            };
            let mut beads = Vec::new();
            for below in lines.iter().skip(row + 1).take_while(|l| !l.contains("Box ")) {
                let cut: String = below.chars().skip(start).take(end.saturating_sub(start)).collect();
                let words: Vec<&str> = cut.split_whitespace().collect();
                if let (Some(c), Some(count)) = (words.first(), words.last().and_then(|w| w.strip_prefix('×'))) {
                    if COLOURS.contains(c) {
                        beads.push((c.to_string(), count.parse().unwrap()));
                    }
                }
            }
            labels.insert(number, (format!("{pos} {side}"), beads));
        }
    }
    labels
}

/// Referee for a real HER: the test plays White on the page and draws
/// HER's beads itself, clicking the colour it chose. The machine the page
/// keeps is the one Gardner's rule gives for those draws (worked out here
/// from the fresh machine's file), and every box the page names is the
/// printed label of that number: the same position and the same colours.
#[test]
#[ignore = "needs Chromium, chromedriver and poppler (.ci/run installs them)"]
fn referee_for_a_real_her() {
    require_browser();
    let (_server, url) = start_server();
    let (_driver, driver) = start_driver();
    let shots = scratch("referee");
    let labels_pdf = shots.join("her.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "hexapawn", "--pdf"])
        .arg(&labels_pdf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let labels = labels_of(&labels_pdf);
    assert_eq!(labels.len(), 19, "{labels:?}");
    let runtime = runtime();
    runtime.block_on(async {
        let b = Page::open(&driver, &shots, &scratch("referee-profile")).await;
        b.go(&url).await;
        b.viewport(1280, 720).await;
        let id = b
            .js("return sessionStorage.getItem('menace-session')")
            .await
            .as_str()
            .unwrap()
            .to_string();
        let api = format!("{url}api/sessions/{id}");
        let mut expected: Value = serde_json::from_str(&call("GET", &format!("{api}/state"), None).body).unwrap();
        b.click("#referee").await;
        b.until("document.getElementById('referee').checked").await;
        let (mut named, mut losses) = (0, 0);
        for game in 0..4 {
            b.click("#new-game").await;
            b.not_busy().await;
            let mut last_draw: Option<(String, usize)> = None;
            for _ in 0..20 {
                b.not_busy().await;
                let v = call("GET", &api, None).json();
                if v["board"]["over"] == true {
                    break;
                }
                if let Some(d) = v["awaiting_bead"].as_object() {
                    // The box the page names is the label of that number.
                    let number = d["box"].as_u64().unwrap();
                    let (position, beads) = &labels[&number];
                    assert_eq!(d["position"].as_str().unwrap(), position, "box {number}");
                    let shown: Vec<(String, u64)> = d["beads"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| (x["colour"].as_str().unwrap().to_string(), x["beads"].as_u64().unwrap()))
                        .collect();
                    if game == 0 {
                        assert_eq!(&shown, beads, "box {number}'s colours as its label prints them");
                    }
                    named += 1;
                    b.wait_for_text("#drawn-title", &format!("take box {number}, draw one bead"))
                        .await;
                    // The test's draw: the last colour the box holds a bead of.
                    let colour = shown.iter().rev().find(|(_, n)| *n > 0).map(|(c, _)| c.clone());
                    match &colour {
                        Some(c) => b.click(&format!("#bead-choices button[data-colour=\"{c}\"]")).await,
                        None => b.click("#bead-choices button").await,
                    }
                    if let Some(c) = colour {
                        last_draw = Some((position.clone(), COLOURS.iter().position(|x| *x == c).unwrap()));
                    }
                    continue;
                }
                // White: the first piece that can move, to its first target.
                b.click("#board .cell.movable").await;
                b.click("#board .cell.target").await;
            }
            b.wait_for_text("#status", "Press New game").await;
            let status = b.text("#status").await;
            if status.contains("You win") {
                // Gardner's rule: HER's last bead drawn is taken away.
                let (position, colour) = last_draw.clone().expect("HER drew before losing");
                let boxes = expected["machine"]["boxes"].as_array_mut().unwrap();
                let entry = boxes.iter_mut().find(|x| x["position"] == position.as_str()).unwrap();
                let count = entry["beads"][colour][1].as_u64().unwrap();
                entry["beads"][colour][1] = json!(count.saturating_sub(1));
                losses += 1;
                // What to do to the real boxes, in the labels' words.
                let steps = b.text("#changes .referee-steps").await;
                assert!(steps.contains("Put every bead drawn back in its box, then:"), "{steps}");
                assert!(
                    steps.contains(&format!("take 1 {} bead out", COLOURS[colour])),
                    "{steps}"
                );
                if losses == 1 {
                    b.screenshot(&plots().join("referee.png")).await;
                }
            }
        }
        assert!(named >= 4, "HER drew {named} beads");
        assert!(losses >= 1, "no game lost: nothing reinforced");
        let got: Value = serde_json::from_str(&call("GET", &format!("{api}/state"), None).body).unwrap();
        assert_eq!(got["machine"]["boxes"], expected["machine"]["boxes"]);
        assert_eq!(got["games_played"], 4);
        b.c.close().await.unwrap();
    });
    // MENACE refereed: each box it draws from is the printed label of that
    // number, with Michie's colours (one a cell) as the label lists them.
    let menace_pdf = shots.join("menace.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["boxes", "tictactoe", "--pdf"])
        .arg(&menace_pdf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let labels = labels_of(&menace_pdf);
    assert_eq!(labels.len(), 304);
    let made = call("POST", &format!("{url}api/sessions"), Some(r#"{"game": "tictactoe"}"#)).json();
    let api = format!("{url}api/sessions/{}", made["session"].as_str().unwrap());
    call("POST", &format!("{api}/referee"), Some(r#"{"on": true}"#));
    let mut v = call("POST", &format!("{api}/game"), None).json();
    // A bead not named is refused, not read as an empty box.
    assert_eq!(call("POST", &format!("{api}/bead"), Some("{}")).status, 400);
    let mut checked = 0;
    while v["board"]["over"] == false {
        if let Some(d) = v["awaiting_bead"].as_object() {
            let number = d["box"].as_u64().unwrap();
            let (position, beads) = &labels[&number];
            assert_eq!(d["position"].as_str().unwrap(), position, "box {number}");
            let shown: Vec<(String, u64)> = d["beads"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| (x["colour"].as_str().unwrap().to_string(), x["beads"].as_u64().unwrap()))
                .collect();
            assert_eq!(&shown, beads, "box {number}'s colours as its label prints them");
            checked += 1;
            let colour = &shown[0].0;
            v = call(
                "POST",
                &format!("{api}/bead"),
                Some(&format!(r#"{{"colour": "{colour}"}}"#)),
            )
            .json();
        } else {
            let mv = v["board"]["moves"][0]["name"].as_str().unwrap().to_string();
            v = call("POST", &format!("{api}/move"), Some(&format!(r#"{{"move": "{mv}"}}"#))).json();
        }
    }
    assert!(checked >= 3, "MENACE drew {checked} beads");
}
