#!/usr/bin/env bash
# The Python module end to end, as a researcher gets it: a fresh virtual
# environment, `pip install ./python[test]` (maturin builds the engine, in
# release, from source), then the pytest tests, the notebook in
# examples/ (run by a test) and the Python guide's examples.
#
# The tests compare with the `menace` command: give its binary as
# MENACE_BIN (the Rust test that runs this script does), else one in
# target/release is used. The build's target folder is CARGO_TARGET_DIR,
# by default target/python at the repository's root.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/python}"
python3 -m venv "$work/venv"
start=$SECONDS
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$here[test]"
echo "pip install ./python[test]: $((SECONDS - start)) s"
start=$SECONDS
# From outside the source tree, by pytest's own script: `python -m`
# would put the working folder first on the path, and `import menace`
# would find the sources (which have no compiled engine) rather than the
# installed module.
cd "$work"
"$work/venv/bin/pytest" -q -p no:cacheprovider "$here/tests"
echo "pytest: $((SECONDS - start)) s"
