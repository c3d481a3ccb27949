//! What the page file is built from, and one number for all of it: the
//! file records the number, and a test recomputes it from the sources, so
//! a committed file older than its sources fails the test.

use std::path::{Path, PathBuf};

/// The files and folders the page file is made of, from the repository's
/// root: the page, the font, the engine's crates, the workspace's manifest
/// (its profiles) and lock file, and this task.
pub const INPUTS: &[&str] = &[
    "src/web/page",
    "assets/DejaVuSans.ttf",
    "crates/menace-core/Cargo.toml",
    "crates/menace-core/src",
    "crates/menace-web/Cargo.toml",
    "crates/menace-web/src",
    "crates/menace-wasm/Cargo.toml",
    "crates/menace-wasm/src",
    "Cargo.toml",
    "Cargo.lock",
    "xtask/Cargo.toml",
    "xtask/src",
];

/// Every file of the inputs under `root`, sorted by path.
pub fn files(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        if dir.is_file() {
            out.push(dir.to_path_buf());
            return Ok(());
        }
        for entry in std::fs::read_dir(dir)? {
            walk(&entry?.path(), out)?;
        }
        Ok(())
    }
    let mut out = Vec::new();
    for input in INPUTS {
        walk(&root.join(input), &mut out)?;
    }
    out.sort();
    Ok(out)
}

/// FNV-1a, 64 bits, over each input's path (from the root, with `/`) and bytes.
pub fn digest(root: &Path) -> std::io::Result<String> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for file in files(root)? {
        let name = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        eat(name.as_bytes());
        eat(&[0]);
        let bytes = std::fs::read(&file)?;
        eat(&(bytes.len() as u64).to_le_bytes());
        eat(&bytes);
    }
    Ok(format!("{hash:016x}"))
}
