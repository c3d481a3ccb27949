//! Every file the program writes honours the umask, as any other program's
//! new file does: 0644 under umask 022, 0640 under 027, 0600 under 077, so
//! that colleagues on a shared cluster can read and merge what a run wrote.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::scratch;

/// Run the program in `dir` under `umask`, through the shell (a `Command`
/// cannot set one itself).
fn menace_under(umask: &str, dir: &Path, args: &str) {
    let script = format!("umask {umask} && exec \"$0\" {args}");
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_menace"))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "menace {args}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every regular file below `dir`, with its permission bits.
fn modes(dir: &Path) -> Vec<(PathBuf, u32)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                out.push((entry.path(), meta.permissions().mode() & 0o777));
            }
        }
    }
    out.sort();
    out
}

const SMALL: &str = r#"{"name": "small", "game": "hexapawn", "games": 5, "seeds": 2, "exact_every": 5,
  "charts": ["loss_rate"],
  "arms": [{"name": "a", "opponent": "random"}, {"name": "b", "opponent": "perfect"}]}"#;

/// Everything a user makes: a state file, a label sheet, a run's outputs,
/// two shards' units and their merge, under one umask.
fn write_everything(umask: &str, dir: &Path) {
    std::fs::write(dir.join("small.json"), SMALL).unwrap();
    menace_under(umask, dir, "train hexapawn --games 5 --save her.json");
    menace_under(umask, dir, "train hexapawn --games 5 --resume her.json --save her.json");
    menace_under(umask, dir, "boxes hexapawn --svg labels.svg --pdf labels.pdf");
    menace_under(umask, dir, "run small.json --out whole");
    menace_under(umask, dir, "run small.json --shard 1/2 --out shards/1");
    menace_under(umask, dir, "run small.json --shard 2/2 --out shards/2");
    menace_under(umask, dir, "merge shards/1 shards/2 --out merged");
    menace_under(umask, dir, "plot whole/curves.csv --out replot");
}

fn check(umask: &str, expected: u32) {
    let dir = scratch(umask);
    write_everything(umask, &dir);
    let files = modes(&dir);
    // What must be there: the kinds of file each command writes.
    for name in [
        "her.json",
        "labels-1.svg",
        "labels-3.svg",
        "labels.pdf",
        "whole/curves.csv",
        "whole/summary.json",
        "whole/loss_rate.png",
        "whole/loss_rate.svg",
        "merged/curves.csv",
        "replot/loss_rate.png",
    ] {
        assert!(dir.join(name).is_file(), "{name} was not written");
    }
    assert!(
        files.iter().any(|(p, _)| p.starts_with(dir.join("shards/1/units"))),
        "no units were written: {files:?}"
    );
    for (path, mode) in &files {
        // The test's own input is not the program's to judge.
        if path.ends_with("small.json") {
            continue;
        }
        assert_eq!(
            *mode,
            expected,
            "{} has mode {mode:o} under umask {umask}",
            path.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_are_0644_under_umask_022() {
    check("022", 0o644);
}

#[test]
fn files_follow_a_stricter_umask() {
    check("027", 0o640);
    check("077", 0o600);
}
