"""The Python guide's examples (docs/python.md), run in order as one
script from the repository's root, and the module's own doctest."""

import doctest
import os
import re

import menace
from conftest import REPO


def test_the_python_guide_runs_as_written(tmp_path, monkeypatch):
    text = (REPO / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 6
    monkeypatch.chdir(REPO)
    scope = {}
    for block in blocks:
        exec(compile(block, "docs/python.md", "exec"), scope)


def test_the_modules_docstring_runs():
    failures, tried = doctest.testmod(menace)
    assert tried > 0 and failures == 0
