"""Every game as a PettingZoo environment, and a learning HER in one."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import menace


@pytest.mark.parametrize("spec", menace.games())
def test_every_game_of_the_registry_passes_pettingzoos_api_test(spec):
    api_test(menace.env(spec, render_mode="ansi"), num_cycles=30, verbose_progress=False)


def legal_names(env):
    mask = env.observe(env.agent_selection)["action_mask"]
    return sorted(env.table.move_name(a) for a in np.flatnonzero(mask))


def test_hexapawn_starts_with_three_moves_for_white():
    env = menace.env("hexapawn")
    env.reset(seed=0)
    assert env.possible_agents == ["white", "black"]
    assert env.agent_selection == "white"
    assert legal_names(env) == ["a2", "b2", "c2"]
    # Black, not to move, may do nothing.
    assert env.observe("black")["action_mask"].sum() == 0


def test_noughts_and_crosses_starts_with_nine_moves():
    env = menace.env("tictactoe")
    env.reset()
    assert legal_names(env) == sorted(f"{f}{r}" for f in "abc" for r in "123")
    assert env.action_space("x").n == 10


def test_observations_are_seen_from_each_side():
    env = menace.env("hexapawn")
    env.reset()
    white = env.observe("white")["observation"]
    black = env.observe("black")["observation"]
    assert white.shape == (9, 2) and white.dtype == np.int8
    cells = env.table.cells
    assert [cells[i] for i in np.flatnonzero(white[:, 0])] == ["a1", "b1", "c1"]
    assert [cells[i] for i in np.flatnonzero(white[:, 1])] == ["a3", "b3", "c3"]
    assert (black[:, 0] == white[:, 1]).all() and (black[:, 1] == white[:, 0]).all()


def test_a_won_game_rewards_plus_and_minus_one():
    env = menace.env("tictactoe", render_mode="ansi")
    env.reset()
    for move in ["a1", "a2", "b1", "b2", "c1"]:
        action = next(a for a in env.table.legal_actions() if env.table.move_name(a) == move)
        env.step(action)
    assert env.terminations == {"x": True, "o": True}
    assert env.rewards == {"x": 1, "o": -1}
    assert "X X X" in env.render()


def test_an_illegal_action_is_refused():
    env = menace.env("hexapawn")
    env.reset()
    with pytest.raises(ValueError, match="not a legal move"):
        env.step(0)


def test_a_mini_hexchess_promotion_is_three_actions_on_the_same_cells():
    # A White pawn on a3, the cell before the a-file's far end, kings apart.
    t = menace.Table("minihexchess")
    t.set_position("2P1/5/6/1K3k1/6/5/4 w 0")
    promotions = sorted(t.move_name(a) for a in t.legal_actions() if t.move_name(a).startswith("a4"))
    assert promotions == ["a4=B", "a4=N+", "a4=R"]
    assert len(set(t.legal_actions())) == len(t.legal_actions()) == 3 + 10  # and the king's ten steps
    t.play_move("a4=R")
    assert "R" in t.diagram()


def mirror_hexapawn(position):
    """The mirror image of a 3-file Hexapawn position string."""
    board, side = position.split(" ")

    def expand(rank):
        return "".join("." * int(c) if c.isdigit() else c for c in rank)

    def compress(rank):
        out, run = "", 0
        for c in rank:
            if c == ".":
                run += 1
            else:
                out += (str(run) if run else "") + c
                run = 0
        return out + (str(run) if run else "")

    return " ".join(["/".join(compress(expand(r)[::-1]) for r in board.split("/")), side])


def mirror_move(move):
    return move.translate(str.maketrans("abc", "cba"))


def test_her_learning_against_random_through_the_environment_keeps_gardners_beads():
    """1 000 games of a random White against a learning HER through the
    environment; beside it, Gardner's rule worked out here from the moves
    HER made: after a loss the bead of her last move goes, nothing else
    changes, and an empty box resigns. The machine ends with those beads."""
    her = menace.train("hexapawn", preset="gardner", games=0).machine
    model = {b["position"]: dict(zip(b["moves"], b["beads"])) for b in her.boxes()}
    env = menace.env("hexapawn")
    agent = menace.MachineAgent(her, seed=1)
    white = menace.random_agent(seed=2)
    draws = []  # HER's moves this game, as (box position, move in the box's frame)

    def her_move(env, name):
        pos = env.table.position
        box, flip = (pos, False) if pos in model else (mirror_hexapawn(pos), True)
        action = agent(env, name)
        if action is None:
            assert sum(model[box].values()) == 0, "HER resigned with beads in her box"
            return None
        assert sum(model[box].values()) > 0
        move = env.table.move_name(action)
        move = mirror_move(move) if flip else move
        assert model[box][move] > 0, "HER drew a colour her box has no bead of"
        draws.append((box, move))
        return action

    results = {1: 0, -1: 0}
    for game in range(1000):
        draws.clear()
        rewards = menace.play_game(env, {"white": white, "black": her_move}, seed=game)
        agent.finish(rewards["black"])
        results[int(rewards["black"])] += 1
        if rewards["black"] < 0 and draws:
            box, move = draws[-1]
            model[box][move] = max(0, model[box][move] - 1)
    assert {b["position"]: dict(zip(b["moves"], b["beads"])) for b in her.boxes()} == model
    assert results[-1] > 0 and results[1] > results[-1]
    assert her.total_beads < her.initial_beads


def test_a_machine_of_another_game_is_refused():
    her = menace.train("hexapawn", games=0).machine
    env = menace.env("tictactoe")
    env.reset()
    with pytest.raises(ValueError, match="the machine plays hexapawn"):
        her.choose(env.table)


def test_hex_swap_is_one_action_that_places_nothing():
    env = menace.env("hex:3")
    env.reset(seed=0)
    first = env.agent_selection
    env.step(env.table.legal_actions()[0])
    second = env.agent_selection
    assert second != first
    assert env.table.move_name(env.table.action_count - 1) == "swap"
    env.step(env.table.action_count - 1)
    # The swap's mover takes the stone; the first player moves again.
    assert env.agent_selection == first


def test_seeded_resets_repeat():
    env = menace.env("hex:4")
    starts = []
    for _ in range(2):
        env.reset(seed=5)
        starts.append([env.agent_selection for _ in range(1)] + [env.table.position])
    assert starts[0] == starts[1]
