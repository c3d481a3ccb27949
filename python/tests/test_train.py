"""`menace.train`, `Machine` and their state files against the `menace`
command for the same seeds, and facts worked out by hand."""

import json

import numpy as np
import pytest

import menace

CODES = {"win": 1, "draw": 0, "loss": -1}

RUNS = [
    # (game, keyword arguments, the same as command-line flags)
    ("hexapawn", dict(side="black", opponent="perfect", games=50, seed=7, reinforcement="gardner")),
    ("hexapawn", dict(opponent="random", games=300, seed=1, preset="gardner")),
    ("tictactoe", dict(opponent="random", games=400, seed=3, preset="michie")),
    ("tictactoe", dict(opponent="perfect", games=300, seed=2, preset="scroggs")),
    ("tictactoe", dict(opponent="perfect", games=200, seed=11, beads="2", reinforcement="1/0/-1:last", empty_box="restock")),
    ("hexapawn:4x4,pawn=berolina", dict(side="black", opponent="random", games=200, seed=5, symmetry=False, reinforcement="3/1/-1")),
    ("hex:3", dict(opponent="random", games=100, seed=9)),
]


def flags(kwargs):
    out = []
    for key, value in kwargs.items():
        if key == "symmetry":
            if value is False:
                out.append("--no-symmetry")
            continue
        out += [f"--{key.replace('_', '-')}", str(value)]
    return out


@pytest.mark.parametrize("game,kwargs", RUNS)
def test_train_plays_the_commands_games(cli_json, game, kwargs):
    summary, records = cli_json(game, *flags(kwargs))
    run = menace.train(game, **kwargs)
    assert (run.wins, run.draws, run.losses) == (summary["wins"], summary["draws"], summary["losses"])
    assert run.outcomes.dtype == np.int8
    assert run.outcomes.tolist() == [CODES[r["result"]] for r in records]
    assert run.last_loss == summary["last_loss"]
    assert run.learned_after == summary["learned_after"]
    assert run.machine.total_beads == summary["beads"]
    assert len(run.machine) == summary["boxes"]
    assert run.machine.games_played == summary["games_played"]


def test_the_issue_example_matches_the_command(cli):
    out = cli("train", "hexapawn", "--side", "black", "--opponent", "perfect", "--games", "50", "--seed", "7",
              "--reinforcement", "gardner").stdout
    line = next(l for l in out.splitlines() if l.startswith("results: "))
    run = menace.train("hexapawn", side="black", opponent="perfect", games=50, seed=7, reinforcement="gardner")
    assert line == f"results: {run.wins} wins, {run.draws} draws, {run.losses} losses"


def test_counts_add_up_and_outcomes_are_the_counts():
    run = menace.train("tictactoe", games=500, seed=2)
    assert run.games == 500
    assert run.wins + run.draws + run.losses == 500
    assert (run.outcomes == 1).sum() == run.wins
    assert (run.outcomes == 0).sum() == run.draws
    assert (run.outcomes == -1).sum() == run.losses
    assert np.flatnonzero(run.outcomes == -1)[-1] + 1 == run.last_loss


def test_a_saved_machine_is_the_commands_state_file(cli, tmp_path):
    args = ["hexapawn", "--opponent", "random", "--games", "40", "--seed", "4"]
    cli("train", *args, "--save", tmp_path / "cli.json")
    run = menace.train("hexapawn", opponent="random", games=40, seed=4)
    run.machine.save(tmp_path / "py.json")
    assert json.loads((tmp_path / "py.json").read_text()) == json.loads((tmp_path / "cli.json").read_text())


def test_the_command_resumes_a_machine_saved_from_python(cli, cli_json, tmp_path):
    run = menace.train("tictactoe", opponent="random", games=100, seed=6)
    path = tmp_path / "state.json"
    run.machine.save(path)
    summary, records = cli_json("tictactoe", "--resume", path, "--save", path, "--games", "50")
    more = menace.train_more(run.machine, 50)
    assert more.outcomes.tolist() == [CODES[r["result"]] for r in records]
    assert summary["games_played"] == 150 == run.machine.games_played
    # And the file the command saved back loads, bead for bead the machine that went on in Python.
    back = menace.Machine.load(path)
    assert back.boxes() == run.machine.boxes()
    assert back.to_json() == run.machine.to_json()


def test_a_machine_goes_on_as_if_never_saved(tmp_path):
    whole = menace.train("hexapawn", opponent="random", games=80, seed=12)
    half = menace.train("hexapawn", opponent="random", games=30, seed=12)
    half.machine.save(tmp_path / "m.json")
    rest = menace.train_more(menace.Machine.load(tmp_path / "m.json"), 50)
    assert np.concatenate([half.outcomes, rest.outcomes]).tolist() == whole.outcomes.tolist()
    assert rest.machine.boxes() == whole.machine.boxes()


def test_boxes_are_the_published_counts():
    # Gardner's HER: 19 boxes up to mirror images, 37 without merging them.
    assert len(menace.train("hexapawn", preset="gardner", games=0).machine) == 19
    assert len(menace.train("hexapawn", preset="gardner", symmetry=False, games=0).machine) == 37
    # Michie's MENACE: 304 canonical positions, 287 in his own set.
    assert len(menace.train("tictactoe", games=0).machine) == 304
    assert len(menace.train("tictactoe", box_set="michie", games=0).machine) == 287


def test_a_machine_made_from_settings_is_trains_fresh_machine():
    made = menace.Machine("tictactoe", opponent="perfect", seed=4, beads="2", box_set="michie")
    trained = menace.train("tictactoe", opponent="perfect", seed=4, beads="2", box_set="michie", games=0).machine
    assert made.to_json() == trained.to_json()
    assert (made.games_played, len(made), made.opponent) == (0, 287, "perfect")
    with pytest.raises(ValueError, match="empty_box 'never'|empty box|'never'"):
        menace.Machine("hexapawn", empty_box="never")


def test_a_fresh_her_box_has_one_bead_a_move():
    m = menace.Machine("hexapawn", preset="gardner")
    assert m.side == "Black"
    first = [b for b in m.boxes() if b["own_move"] == 1]
    # White's first move up to mirror images: a2 (= c2) or b2.
    assert sorted(b["position"] for b in first) == ["ppp/1P1/P1P b", "ppp/P2/1PP b"]
    for b in m.boxes():
        assert b["beads"] == [1] * len(b["moves"])
    assert m.total_beads == m.initial_beads == sum(len(b["moves"]) for b in m.boxes())


def test_her_against_perfect_play_loses_three_games_on_every_seed():
    # Gardner's rule against a perfect White: every loss takes away the
    # last losing bead, and HER has exactly three losing lines to unlearn.
    for seed in range(20):
        assert menace.train("hexapawn", opponent="perfect", preset="gardner", games=60, seed=seed).losses == 3


@pytest.mark.parametrize(
    "kwargs,args",
    [
        (dict(game="chess"), ["chess"]),
        (dict(game="hexapawn", opponent="bogus"), ["hexapawn", "--opponent", "bogus"]),
        (dict(game="hexapawn", reinforcement="2/2"), ["hexapawn", "--reinforcement", "2/2"]),
        (dict(game="hexapawn", side="purple"), ["hexapawn", "--side", "purple"]),
        (dict(game="hexapawn", beads="x"), ["hexapawn", "--beads", "x"]),
        (dict(game="hex:4,swap=maybe"), ["hex:4,swap=maybe"]),
    ],
)
def test_errors_carry_the_commands_message(cli, kwargs, args):
    with pytest.raises(ValueError) as raised:
        menace.train(kwargs.pop("game"), **kwargs)
    out = cli("train", *args, check=False)
    assert out.returncode == 2
    assert str(raised.value) in out.stderr


def test_bad_counts_and_files_raise_value_errors(tmp_path):
    with pytest.raises(ValueError, match="games -1"):
        menace.train("hexapawn", games=-1)
    with pytest.raises(ValueError, match="seed"):
        menace.train("hexapawn", seed=2**64)
    with pytest.raises(ValueError, match="state file"):
        bad = tmp_path / "bad.json"
        bad.write_text("{}")
        menace.Machine.load(bad)


def test_perfect_on_a_game_too_large_says_so():
    with pytest.raises(ValueError, match="mcts"):
        menace.train("chessapawn", opponent="perfect", games=1)


def test_exact_result_is_the_commands(cli_json):
    summary, _ = cli_json("hexapawn", "--games", "20", "--seed", "3")
    exact = menace.train("hexapawn", games=20, seed=3).machine.exact()
    for who in ("perfect", "random"):
        for k in ("win", "draw", "loss"):
            assert exact[who][k] == pytest.approx(summary["exact"][who][k], abs=1e-12)


def test_exact_life_of_her_against_perfect_play():
    life = menace.exact_life("hexapawn", opponent="perfect", preset="gardner", games=10)
    # Three losses on every line (the samples above), so exactly three expected, surely.
    assert life["expected_losses"] == pytest.approx(3.0)
    assert life["losses"][3] == pytest.approx(1.0)
    assert life["loss_at"].shape == (10,)
    assert life["loss_at"].sum() == pytest.approx(life["expected_losses_in_games"])


def test_exact_life_agrees_with_the_command(cli_json):
    summary, _ = cli_json("hexapawn", "--opponent", "random", "--games", "50", "--seed", "0")
    life = menace.exact_life("hexapawn", opponent="random", games=50)
    assert life["machines"] == summary["life"]["machines"]
    assert life["expected_losses"] == pytest.approx(summary["life"]["expected_losses"], rel=1e-12)
    assert life["expected_losses_in_games"] == pytest.approx(summary["life"]["expected_losses_in_run"], rel=1e-12)


def test_exact_life_refuses_schemes_that_add_beads():
    with pytest.raises(ValueError, match="exact learning"):
        menace.exact_life("tictactoe", preset="michie")


def test_solver_values_are_the_known_results():
    three = menace.solve("hexapawn")
    assert (three["to_move"], three["result"], three["winner"], three["plies"]) == ("White", "loss", "Black", 6)
    assert sorted(three["moves"]) == ["a2", "b2", "c2"]
    assert menace.solve("octopawn")["winner"] == "White"
    assert menace.solve("hexapawn:3x4")["winner"] == "Black"
    assert menace.solve("tictactoe")["result"] == "draw"
    # X to move with two in a row: wins at once.
    won = menace.solve("tictactoe", position=".../oo./xx. x")
    assert (won["result"], won["plies"], won["moves"]["c1"]["plies"]) == ("win", 1, 1)


def test_solver_refuses_a_finished_position():
    with pytest.raises(ValueError, match="the game is over"):
        menace.solve("tictactoe", position=".../oo./xxx o")
