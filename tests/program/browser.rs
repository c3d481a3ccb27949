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

use crate::common::scratch;

mod classroom;
mod layout;
mod lesson;
mod machine;
mod offline;
mod referee;
mod rules;

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
        Page::open_with(driver, downloads, profile, &[]).await
    }

    /// A tab whose browser is started with `extra` arguments too.
    async fn open_with(driver: &str, downloads: &Path, profile: &Path, extra: &[&str]) -> Page {
        let mut args = vec![
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
        ];
        let profile_arg = format!("--user-data-dir={}", profile.display());
        args.push(&profile_arg);
        args.extend_from_slice(extra);
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

    /// A real click on the first element `css` selects, once the page shows one.
    async fn click(&self, css: &str) {
        self.until(&format!("document.querySelector({css:?})")).await;
        self.c
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap();
    }

    /// A key (a WebDriver key code such as Tab, U+E004) pressed on the element that has the focus.
    async fn key(&self, key: &str) {
        self.c.active_element().await.unwrap().send_keys(key).await.unwrap();
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

    /// Press New machine or Reset (`css`), and say yes when the page asks
    /// first (the machine on it has played games).
    async fn replace_machine(&self, css: &str) {
        self.click(css).await;
        if self
            .js("return !document.getElementById('confirm-replace').hidden")
            .await
            == json!(true)
        {
            self.click("#replace-yes").await;
        }
    }

    /// The speed of games without the person: step `k` of the slider, from
    /// 0 (a game every 2 seconds, the lesson's and the page's first) to 7
    /// (as fast as possible).
    async fn speed(&self, k: u8) {
        self.js(&format!(
            "const s = document.getElementById('speed'); s.value = '{k}'; s.dispatchEvent(new Event('input'))"
        ))
        .await;
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

/// A fresh HER with seed 3, made from the settings, and 1. b2: she draws a2
/// from box 2, its one bead (so 2. bxc3 wins, and Gardner's rule then
/// takes that bead out: a2 goes from 1 to 0).
async fn her_seed_3_opens(b: &Page) {
    b.click("#setup summary").await;
    b.type_into("#seed", "3").await;
    b.replace_machine("#new-machine").await;
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

/// Where the screenshots go: one scratch folder for the run, printed; or,
/// with `MENACE_REFRESH_SCREENSHOTS=1`, the committed ones in `plots/`
/// (refreshed on purpose, never as a side effect of a test run).
fn screenshots() -> PathBuf {
    static SHOTS: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SHOTS
        .get_or_init(|| {
            let dir = if std::env::var_os("MENACE_REFRESH_SCREENSHOTS").is_some_and(|v| v == "1") {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("plots")
            } else {
                scratch("screenshots")
            };
            eprintln!("screenshots in {}", dir.display());
            dir
        })
        .clone()
}

/// The rectangle of the first element `css` selects, in CSS pixels of the
/// viewport: [left, top, right, bottom], or null.
fn rect(css: &str) -> String {
    format!(
        "const e = document.querySelector({css:?}); if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];"
    )
}

/// `menace serve --classroom` on the second loopback address (127.0.0.2,
/// standing in for the classroom's network) and 127.0.0.1 (the teacher's
/// computer): the child, the room's address, the join code and the teacher's token.
fn start_classroom() -> (Killed, String, String, String) {
    start_classroom_with(&[])
}

/// [`start_classroom`] with more of `menace serve`'s options.
fn start_classroom_with(more: &[&str]) -> (Killed, String, String, String) {
    let data = scratch("classroom-data");
    let mut child = Command::new(env!("CARGO_BIN_EXE_menace"))
        .args(["serve", "--classroom", "--host", "127.0.0.2", "--port", "0"])
        .args(more)
        // The class machine is kept in the data folder: this test's own.
        .env("XDG_DATA_HOME", &data)
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

/// The bead colours in the order a box's moves take them (the palette the
/// labels print, as docs/teaching.md lists it).
const COLOURS: [&str; 10] = [
    "red", "blue", "green", "orange", "purple", "yellow", "pink", "brown", "black", "cyan",
];
