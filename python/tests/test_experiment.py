"""`menace.run_experiment` against `menace run`'s files for the same experiment."""

import json

import pandas as pd
import pytest

import menace
from conftest import REPO

SMALL = {
    "name": "small",
    "title": "Two machines, two boards",
    "description": "A test: HER on Hexapawn and MENACE on noughts and crosses.",
    "game": "hexapawn",
    "games": 60,
    "seeds": 4,
    "exact_every": 10,
    "window": 5,
    "charts": [],
    "arms": [
        {"name": "HER", "side": "black", "opponent": "random", "preset": "gardner"},
        {"name": "MENACE", "game": "tictactoe", "side": "x", "opponent": "random", "preset": "michie"},
    ],
}


def cli_outputs(cli, file, out):
    cli("run", file, "--out", out, "--threads", "2")
    return pd.read_csv(out / "curves.csv"), json.loads((out / "summary.json").read_text())


def test_gardner_curves_are_the_commands_cell_for_cell(cli, tmp_path):
    file = REPO / "experiments" / "gardner.json"
    curves, summary = cli_outputs(cli, file, tmp_path / "out")
    result = menace.run_experiment(file)
    assert list(result.curves.columns) == list(curves.columns)
    pd.testing.assert_frame_equal(result.curves, curves, check_exact=True)
    assert result.summary == summary


def test_an_experiment_as_a_dict_is_the_file(cli, tmp_path):
    file = tmp_path / "small.json"
    file.write_text(json.dumps(SMALL))
    curves, summary = cli_outputs(cli, file, tmp_path / "out")
    result = menace.run_experiment(SMALL, threads=1)
    pd.testing.assert_frame_equal(result.curves, curves, check_exact=True)
    assert result.summary == summary


def test_the_curves_say_what_was_run():
    result = menace.run_experiment(SMALL)
    c = result.curves
    assert sorted(c["arm"].unique()) == ["HER", "MENACE"]
    assert set(c[c["arm"] == "MENACE"]["game_spec"]) == {"tictactoe"}
    # Game 0 and every game to 60, per arm; losses per game are a rate.
    her = c[c["arm"] == "HER"]
    assert her["game"].tolist() == list(range(61))
    # Game 0 has no rate yet; every game after it has one.
    assert her["loss_rate_mean"].isna().tolist() == [True] + [False] * 60
    assert her["loss_rate_mean"][1:].between(0, 1).all()
    assert [a["name"] for a in result.summary["arms"]] == ["HER", "MENACE"]


def test_out_keeps_the_files(tmp_path):
    result = menace.run_experiment(SMALL, out=tmp_path / "kept")
    assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == ["curves.csv", "summary.json"]
    assert len(result.files) == 2


def test_a_bad_experiment_names_the_field():
    bad = dict(SMALL, arms=[dict(SMALL["arms"][0], opponent="bogus")])
    with pytest.raises(ValueError, match=r"arms\[0\]\.opponent"):
        menace.run_experiment(bad)
    with pytest.raises(ValueError, match="no-such-file.json"):
        menace.run_experiment("no-such-file.json")
