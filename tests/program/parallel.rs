//! The GNU parallel lines of `docs/experiments.md`, run as written from a
//! clone's root with the built program on the PATH: the shards merge into
//! exactly the outputs of one unsharded run.
//!
//! Ignored in the fast tier: it needs GNU parallel, which `.ci/run`
//! installs. Run with `--include-ignored` without it, it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ok(o: Output, what: &str) {
    assert!(
        o.status.success(),
        "{what}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Every file below `dir` (not in subfolders), by name, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (PathBuf::from(p.file_name().unwrap()), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
#[ignore = "needs GNU parallel (.ci/run installs it)"]
fn the_readme_parallel_lines_merge_equal_to_one_run() {
    assert!(
        Path::new("/usr/bin/parallel").exists(),
        "the GNU parallel test needs /usr/bin/parallel (apt-get install parallel, as root)"
    );
    let scratch = std::env::temp_dir().join(format!("menace-parallel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let clone = scratch.join("clone");
    ok(
        Command::new("git")
            .args(["clone", "-q", env!("CARGO_MANIFEST_DIR")])
            .arg(&clone)
            .output()
            .unwrap(),
        "git clone",
    );
    let readme = std::fs::read_to_string(clone.join("docs/experiments.md")).unwrap();
    let lines: Vec<&str> = readme.lines().map(str::trim).collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("parallel menace run "))
        .expect("docs/experiments.md shows the GNU parallel line");
    let merge = lines[at + 1];
    assert!(merge.starts_with("menace merge "), "the merge follows it: {merge}");
    let bin = Path::new(env!("CARGO_BIN_EXE_menace")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    // parallel's own home: its citation notice goes there, not to the user's.
    std::fs::create_dir_all(scratch.join("home/.parallel")).unwrap();
    std::fs::write(scratch.join("home/.parallel/will-cite"), "").unwrap();
    for line in [lines[at], merge] {
        ok(
            Command::new("sh")
                .args(["-c", line])
                .env("PATH", &path)
                .env("HOME", scratch.join("home"))
                .current_dir(&clone)
                .output()
                .unwrap(),
            line,
        );
    }
    ok(
        Command::new(env!("CARGO_BIN_EXE_menace"))
            .args(["run", "experiments/sweep.json", "--out", "results/whole"])
            .current_dir(&clone)
            .output()
            .unwrap(),
        "the unsharded run",
    );
    let whole = files(&clone.join("results/whole"));
    assert!(whole.len() > 3, "{} files", whole.len());
    assert!(
        files(&clone.join("results/sweep")) == whole,
        "the merge differs from the unsharded run"
    );
    std::fs::remove_dir_all(&scratch).unwrap();
}
