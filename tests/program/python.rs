//! The Python module (`python/`): `python/ci.sh` makes a fresh virtual
//! environment, `pip install`s the module (maturin builds it from source)
//! with pytest, PettingZoo and Jupyter's runner, and runs the tests, which
//! compare the module's results with this binary's for the same seeds,
//! and the example notebook.
//!
//! Ignored in the fast tier: it needs Python 3 with venv and pip, and the
//! package registry for the install.

use std::process::Command;

#[test]
#[ignore = "needs python3 (venv, pip) and the package registry; a few minutes (.ci/run runs it)"]
fn python_module_installs_and_passes_its_tests() {
    let root = env!("CARGO_MANIFEST_DIR");
    let status = Command::new("bash")
        .arg(format!("{root}/python/ci.sh"))
        .env("MENACE_BIN", env!("CARGO_BIN_EXE_menace"))
        .current_dir(root)
        .status()
        .expect("bash runs python/ci.sh");
    assert!(status.success(), "python/ci.sh failed: {status}");
}
