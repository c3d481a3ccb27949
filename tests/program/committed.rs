//! The committed experiments reproduce: each experiment file under
//! `experiments/` rerun as the README runs it writes, byte for byte, the
//! `curves.csv` and `summary.json` committed beside its charts in `plots/`.

use std::path::Path;
use std::process::Command;

use crate::common::scratch;

/// The experiments rerun here: each takes under a minute on two cores.
const RERUN: [&str; 7] = [
    "gardner",
    "gardner-long",
    "sweep",
    "octopawn",
    "hexapawn-schemes",
    "michie",
    "scroggs",
];

/// The experiments not rerun here, each with its reason (minutes each on two
/// cores): they are rerun by hand, `menace run experiments/NAME.json --out
/// plots/NAME`, when what they show changes.
const NOT_RERUN: [(&str, &str); 7] = [
    ("minihexchess", "about 1 minute 20 s"),
    ("hex4-perfect", "about 2 minutes"),
    ("hex4", "about 5 minutes"),
    ("hex", "about 7 minutes"),
    ("chessapawn", "over 10 minutes"),
    ("scaling-5x5", "over 10 minutes"),
    ("scaling", "over 10 minutes"),
];

#[test]
fn every_committed_experiment_is_rerun_here_or_named_with_its_reason() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(workspace.join("experiments"))
        .expect("experiments/")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".json").map(str::to_string))
        .collect();
    files.sort();
    let mut named: Vec<String> = RERUN
        .iter()
        .chain(NOT_RERUN.iter().map(|(n, _)| n))
        .map(|n| n.to_string())
        .collect();
    named.sort();
    assert_eq!(files, named);
    for name in &files {
        for output in ["curves.csv", "summary.json"] {
            assert!(
                workspace.join("plots").join(name).join(output).is_file(),
                "plots/{name}/{output}"
            );
        }
    }
}

#[test]
#[ignore = "reruns seven experiments: about a minute on two cores (.ci/run runs it)"]
fn the_committed_experiments_reproduce_byte_for_byte() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = scratch("committed");
    for name in RERUN {
        let dir = out.join(name);
        let run = Command::new(env!("CARGO_BIN_EXE_menace"))
            .current_dir(workspace)
            .args(["run", &format!("experiments/{name}.json"), "--out"])
            .arg(&dir)
            .output()
            .expect("the binary runs");
        assert!(run.status.success(), "{name}: {}", String::from_utf8_lossy(&run.stderr));
        for output in ["curves.csv", "summary.json"] {
            let fresh = std::fs::read(dir.join(output)).expect("written");
            let committed = std::fs::read(workspace.join("plots").join(name).join(output)).expect("committed");
            assert!(
                fresh == committed,
                "plots/{name}/{output} differs from a fresh run ({} bytes against {}): rerun `menace run experiments/{name}.json --out plots/{name}`",
                fresh.len(),
                committed.len()
            );
        }
    }
}
