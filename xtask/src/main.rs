//! The project's own tasks. `cargo xtask page` builds `site/menace.html`:
//! the page with its styles, script modules, font and the engine built for
//! WebAssembly all inside one file, which opens from disk with no server.
//!
//! The engine is built with rustup's `wasm32-unknown-unknown` target where
//! it is installed, and otherwise with Debian's `rustc-web`, `cargo-web`,
//! `rust-web-src` and `lld` (which build the standard library from source).

mod inputs;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["page"] => root().and_then(|r| page(&r.join("site/menace.html"))),
        ["page", "--out", out] => page(Path::new(out)),
        ["page-digest"] => root()
            .and_then(|r| inputs::digest(&r).map_err(|e| e.to_string()))
            .map(|d| println!("{d}")),
        _ => Err(
            "usage: cargo xtask page [--out FILE] (build site/menace.html, or FILE) | cargo xtask page-digest"
                .to_string(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The repository's root: the folder above this task's own.
fn root() -> Result<PathBuf, String> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| "no repository above xtask/".to_string())
}

/// The page's script modules, in the order the server lists them.
const MODULES: &[&str] = &[
    "app.js",
    "state.js",
    "api.js",
    "engine.js",
    "offline.js",
    "board.js",
    "render.js",
    "boxes.js",
    "actions.js",
    "classroom.js",
    "charts.js",
];

fn page(out: &Path) -> Result<(), String> {
    let root = root()?;
    let digest = inputs::digest(&root).map_err(|e| format!("reading the inputs: {e}"))?;
    let wasm = build_wasm(&root)?;
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let text = |name: &str| {
        let p = root.join("src/web/page").join(name);
        std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))
    };
    let wasm_gz = base64(&gzip(&read(&wasm)?)?);
    let font_gz = base64(&gzip(&read(&root.join("assets/DejaVuSans.ttf"))?)?);
    let html = text("index.html")?;
    let css = text("style.css")?;
    // The font comes from the file's own bytes (see `offline.js`), not a URL.
    let css = match (css.find("@font-face"), css.find(":root")) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &css[..a], &css[b..]),
        _ => return Err("style.css: expected its @font-face rule before :root".to_string()),
    };
    let mut imports = Vec::new();
    for name in MODULES {
        let source = relinked(&text(name)?);
        imports.push(format!(
            "\"menace/{name}\": \"data:text/javascript;base64,{}\"",
            base64(source.as_bytes())
        ));
    }
    let head = format!(
        "<!-- Built by `cargo xtask page` from the sources whose digest follows; a test checks it. -->\n\
         <meta name=\"menace-inputs\" content=\"{digest}\">\n\
         <style>\n{css}</style>\n\
         <script>\nglobalThis.MENACE_WASM = \"{wasm_gz}\";\nglobalThis.MENACE_FONT = \"{font_gz}\";\n</script>\n\
         <script type=\"importmap\">\n{{\"imports\": {{\n{}\n}}}}\n</script>\n\
         <script type=\"module\">import \"menace/app.js\";</script>",
        imports.join(",\n")
    );
    let wanted = "<link rel=\"stylesheet\" href=\"/style.css\">\n<script type=\"module\" src=\"/app.js\"></script>";
    if !html.contains(wanted) {
        return Err("index.html: expected its stylesheet link and app.js script, one after the other".to_string());
    }
    let page = html.replace(wanted, &head);
    let folder = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let partial = folder.join(".menace.html.part");
    std::fs::write(&partial, page.as_bytes()).map_err(|e| format!("{}: {e}", partial.display()))?;
    std::fs::rename(&partial, out).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "wrote {} ({} bytes; the engine {} bytes before compression; inputs {digest})",
        out.display(),
        page.len(),
        read(&wasm)?.len()
    );
    Ok(())
}

/// A module's imports of its siblings (`from "./state.js"`) named as the
/// page file's import map names them (`from "menace/state.js"`).
fn relinked(source: &str) -> String {
    source.replace("from \"./", "from \"menace/")
}

/// Build the engine for wasm32-unknown-unknown: the module's path.
fn build_wasm(root: &Path) -> Result<PathBuf, String> {
    let rustup_has_target = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == "wasm32-unknown-unknown")
        });
    let build = [
        "build",
        "--release",
        "-p",
        "menace-wasm",
        "--target",
        "wasm32-unknown-unknown",
    ];
    let mut cargo;
    if rustup_has_target {
        cargo = Command::new("cargo");
        cargo.args(build);
    } else if Path::new("/usr/bin/rustc").exists() && Path::new("/usr/bin/cargo").exists() {
        // Debian's toolchain, with the standard library built from source.
        cargo = Command::new("/usr/bin/cargo");
        cargo
            .args(build)
            .args(["-Zbuild-std=std,panic_abort"])
            .env("RUSTC", "/usr/bin/rustc")
            .env("RUSTC_BOOTSTRAP", "1")
            .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", "wasm-ld");
    } else {
        return Err("no way to build for wasm32: `rustup target add wasm32-unknown-unknown`, or on Debian `apt-get install rustc-web cargo-web rust-web-src lld`".to_string());
    }
    let status = cargo
        .current_dir(root)
        .env("CARGO_TARGET_DIR", root.join("target/wasm"))
        // Small: one unit, whole-program optimisation, no symbols, no unwinding.
        .env("CARGO_PROFILE_RELEASE_LTO", "true")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true")
        .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
        .status()
        .map_err(|e| format!("running cargo for wasm32: {e}"))?;
    if !status.success() {
        return Err(format!("the wasm32 build failed ({status})"));
    }
    Ok(root.join("target/wasm/wasm32-unknown-unknown/release/menace_wasm.wasm"))
}

/// `bytes` compressed by `gzip -9 -n` (no name, no time: the same bytes every build).
fn gzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Write;
    let mut child = Command::new("gzip")
        .args(["-9", "-n", "-c"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("running gzip: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("gzip: no input")?;
    let input = bytes.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().map_err(|e| format!("gzip: {e}"))?;
    writer
        .join()
        .map_err(|_| "gzip: the writer failed")?
        .map_err(|e| format!("gzip: {e}"))?;
    if !out.status.success() {
        return Err(format!("gzip failed ({})", out.status));
    }
    Ok(out.stdout)
}

/// Standard base64, padded.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_rfc_4648_gives_it() {
        // RFC 4648, section 10.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn sibling_imports_are_renamed_and_nothing_else() {
        assert_eq!(
            relinked("import { a } from \"./state.js\";\nconst s = \"./x\";"),
            "import { a } from \"menace/state.js\";\nconst s = \"./x\";"
        );
    }
}
