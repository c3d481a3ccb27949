"""What the tests share: the repository, and the `menace` command to
compare the module with (its results for the same seeds are the reference).

The command is `$MENACE_BIN` (the CI's Rust test sets it to the binary it
built), else `menace` in `$CARGO_TARGET_DIR/release` or the repository's
`target/release`; tests that need it are skipped, saying so, without one.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _find_cli():
    named = os.environ.get("MENACE_BIN")
    if named:
        if not Path(named).is_file():
            raise RuntimeError(f"MENACE_BIN={named}: no such file")
        return named
    dirs = [os.environ.get("CARGO_TARGET_DIR"), str(REPO / "target")]
    for d in filter(None, dirs):
        for profile in ("release", "debug"):
            candidate = Path(d) / profile / "menace"
            if candidate.is_file():
                return str(candidate)
    return None


CLI = _find_cli()


@pytest.fixture
def cli():
    """Run the `menace` command; its completed process (checked: exit 0)."""
    if CLI is None:
        pytest.skip("no `menace` binary: build it with `cargo build --release` or set MENACE_BIN")

    def run(*args, check=True, cwd=REPO):
        out = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, cwd=cwd)
        if check and out.returncode != 0:
            raise AssertionError(f"menace {' '.join(map(str, args))}: exit {out.returncode}\n{out.stderr}")
        return out

    return run


@pytest.fixture
def cli_json(cli):
    """`menace train ... --json`: (the summary, each game's record)."""

    def run(*args):
        lines = cli("train", *args, "--json").stdout.splitlines()
        return json.loads(lines[-1]), [json.loads(line) for line in lines[:-1]]

    return run
