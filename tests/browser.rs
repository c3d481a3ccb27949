//! The classroom page in a real browser: headless Chromium driven through
//! chromedriver's WebDriver protocol, against `menace serve` started as the
//! command line starts it.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`/usr/bin/chromium`,
//! `/usr/bin/chromedriver`). Without them the test fails, unless
//! `MENACE_SKIP_BROWSER=1` says to skip it (which it then says on stderr).

mod common;

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::http::{call, wait_until};
use serde_json::{json, Value};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const PATIENCE: Duration = Duration::from_secs(120);
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether the browser is here; if not, fail, unless `MENACE_SKIP_BROWSER=1`
/// asks to skip (said loudly on stderr, which the test harness shows).
fn browser_present() -> bool {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let how = "install them with `apt-get update && apt-get install -y chromium chromium-driver` (as root), then run `cargo test --release --test browser`";
    let skip = std::env::var("MENACE_SKIP_BROWSER").is_ok_and(|v| v == "1");
    assert!(
        skip,
        "the browser test needs {} ({how}); set MENACE_SKIP_BROWSER=1 to skip it knowingly",
        missing.join(" and ")
    );
    eprintln!(
        "\n*** BROWSER TEST SKIPPED (MENACE_SKIP_BROWSER=1): {} missing; {how} ***\n",
        missing.join(" and ")
    );
    false
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

/// A WebDriver session in headless Chromium.
struct Browser {
    base: String,
    _driver: Killed,
}

impl Browser {
    fn start(downloads: &Path, profile: &Path) -> Browser {
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
            "--window-size=1400,1500",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
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
        }}});
        let r = call("POST", &format!("{root}/session"), Some(&caps.to_string()));
        assert_eq!(r.status, 200, "new WebDriver session: {}", r.body);
        let id = r.json()["value"]["sessionId"].as_str().unwrap().to_string();
        let browser = Browser {
            base: format!("{root}/session/{id}"),
            _driver: driver,
        };
        // Headless Chromium saves downloads only where told to.
        browser.command(
            "POST",
            "/goog/cdp/execute",
            json!({"cmd": "Browser.setDownloadBehavior", "params": {"behavior": "allow", "downloadPath": downloads.display().to_string()}}),
        );
        browser
    }

    fn command(&self, method: &str, path: &str, body: Value) -> Value {
        let body = if method == "GET" || method == "DELETE" {
            None
        } else {
            Some(body.to_string())
        };
        let r = call(method, &format!("{}{path}", self.base), body.as_deref());
        assert_eq!(r.status, 200, "WebDriver {method} {path}: {}", r.body);
        r.json()["value"].clone()
    }

    fn go(&self, url: &str) {
        self.command("POST", "/url", json!({ "url": url }));
    }

    fn script(&self, script: &str) -> Value {
        self.command("POST", "/execute/sync", json!({"script": script, "args": []}))
    }

    fn text(&self, css: &str) -> String {
        let script = format!("const e = document.querySelector({css:?}); return e ? e.textContent : null;");
        self.script(&script).as_str().unwrap_or_default().to_string()
    }

    fn find(&self, css: &str) -> String {
        let v = self.command("POST", "/element", json!({"using": "css selector", "value": css}));
        v[ELEMENT].as_str().unwrap().to_string()
    }

    /// A real click on the first element `css` selects.
    fn click(&self, css: &str) {
        let id = self.find(css);
        self.command("POST", &format!("/element/{id}/click"), json!({}));
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.command("POST", &format!("/element/{id}/clear"), json!({}));
        self.command("POST", &format!("/element/{id}/value"), json!({ "text": text }));
    }

    fn wait_for_text(&self, css: &str, words: &str) {
        let mut seen = String::new();
        let start = Instant::now();
        while !seen.contains(words) {
            assert!(
                start.elapsed() < PATIENCE,
                "timed out waiting for '{words}' in {css}; it says: {seen}"
            );
            seen = self.text(css);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Console messages at error level.
    fn console_errors(&self) -> Vec<String> {
        let logs = self.command("POST", "/se/log", json!({"type": "browser"}));
        logs.as_array()
            .into_iter()
            .flatten()
            .filter(|l| l["level"] == "SEVERE")
            .map(|l| l["message"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    fn screenshot(&self, path: &Path) {
        let data = self.command("GET", "/screenshot", json!(null));
        let bytes = base64(data.as_str().unwrap());
        std::fs::write(path, bytes).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = call("DELETE", &self.base, None);
    }
}

/// Decode standard base64 (the screenshot's encoding).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// The cell of the board named `name` (`b2`), as a selector.
fn cell(name: &str) -> String {
    format!("#board [data-name=\"{name}\"]")
}

#[test]
fn the_page_in_a_browser() {
    if !browser_present() {
        return;
    }
    let (_server, url) = start_server();
    let downloads = scratch("downloads");
    let profile = scratch("profile");
    let b = Browser::start(&downloads, &profile);
    b.go(&url);
    wait_until("the page is ready", PATIENCE, || {
        b.script("return document.body.dataset.ready || ''") == "yes"
    });
    assert_eq!(b.text("#machine-title"), "HER");
    assert_eq!(b.script("return document.querySelectorAll('#board .cell').length"), 9);
    assert_eq!(
        b.script("return document.querySelectorAll('#boxes-list .box-card').length"),
        19
    );

    // A fresh HER with seed 3: after 1. b2 she draws a2 from box 2, and bxc3 wins.
    b.click("#setup summary");
    b.type_into("#seed", "3");
    b.click("#new-machine");
    b.wait_for_text("#message", "A new machine: HER plays Black in hexapawn.");
    assert_eq!(
        b.script("return document.querySelectorAll('#board .cell.movable').length"),
        3
    );
    b.click(&cell("b1"));
    assert_eq!(
        b.script("return [...document.querySelectorAll('#board .cell.target')].map(c => c.dataset.name).join(' ')"),
        "b2"
    );
    b.click(&cell("b2"));
    b.wait_for_text("#drawn", "HER drew a bead from box 2 and played a2.");
    assert!(b.text("#drawn .legend").contains("red: a2, 1 bead  ← drawn"));
    assert_eq!(
        b.script("return document.querySelectorAll('#drawn svg .drawn').length"),
        1
    );
    assert!(b.text("#status").contains("Your move (White)"));
    b.click(&cell("b2"));
    b.click(&cell("c3"));
    b.wait_for_text("#status", "You win.");
    b.wait_for_text("#changes", "box 2, a2: 1 → 0 -1");
    b.wait_for_text("#boxes-list .box-card.changed", "red: a2, 0 beads");
    assert_eq!(b.text("#losses"), "1");

    // 200 games against random, trained on the server while the page polls.
    b.click("#new-game");
    b.wait_for_text("#status", "Your move");
    b.type_into("#train-games", "200");
    b.click("#train");
    b.wait_for_text("#progress-text", "200 of 200 games against random done");
    b.wait_for_text("#games-played", "201");
    let counted: u64 = ["#wins", "#draws", "#losses"]
        .iter()
        .map(|c| b.text(c).parse::<u64>().unwrap())
        .sum();
    assert_eq!(counted, 201);
    let points = |chart: &str| {
        b.script(&format!(
            "const p = document.querySelector('#{chart} path.series'); return p ? p.getAttribute('d').split('L').length : 0;"
        ))
        .as_u64()
        .unwrap()
    };
    assert!(points("chart-score") > 50, "the score chart has the games");
    assert!(points("chart-rates") > 50);
    assert!(points("chart-exact") > 5, "the exact chart has its points");
    assert!(!b.text("#exact-loss").contains('–'));

    // One more game by clicks, the first movable piece to its first target, to the end.
    wait_until("a game played to the end by clicks", PATIENCE, || {
        if b.script("return document.body.dataset.busy || 'no'") == "yes" {
            return false;
        }
        if b.text("#status").contains("Press New game") {
            return true;
        }
        if b.script("return document.querySelector('#board .cell.selected') !== null") == true {
            b.click("#board .cell.target");
        } else {
            b.click("#board .cell.movable");
        }
        false
    });
    b.wait_for_text("#drawn", "HER drew a bead from box");

    // The page as the README shows it.
    b.script("window.scrollTo(0, 0)");
    let shot = Path::new(env!("CARGO_MANIFEST_DIR")).join("plots").join("serve.png");
    b.screenshot(&shot);
    assert!(std::fs::metadata(&shot).unwrap().len() > 10_000);

    // The state downloads as the file the command line reads.
    b.click("#download");
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
    assert!(
        listing.contains("19 boxes of a machine playing Black in hexapawn, after 202 games"),
        "{listing}"
    );

    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
}
