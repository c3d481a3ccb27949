"""Matchbox learning machines from Python: Michie's MENACE, Gardner's HER,
and the same machines on larger games.

The engine is the Rust crate of the ``menace`` command, compiled into this
module: training, experiments and exact learning run in Rust (without the
GIL) and give, for the same seed, exactly what the command prints.

>>> import menace
>>> run = menace.train("hexapawn", side="black", opponent="perfect",
...                    games=50, seed=7, reinforcement="gardner")
>>> run.losses
3
>>> len(run.outcomes)
50
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Union

import numpy as np

from . import _menace
from ._menace import Machine, Table

__all__ = [
    "Machine",
    "MachineAgent",
    "play_game",
    "random_agent",
    "Table",
    "TrainResult",
    "ExperimentResult",
    "train",
    "train_more",
    "run_experiment",
    "exact_life",
    "solve",
    "games",
    "env",
]


@dataclass(frozen=True)
class TrainResult:
    """What a training run did: its counts, each game's result for the
    machine (``outcomes``: +1 win, 0 draw, -1 loss, one per game in order),
    the game of its last loss, the game after which it had learned (never
    lost again, by ``menace train``'s rule; None: not learned), and the
    machine as it stands afterwards."""

    wins: int
    draws: int
    losses: int
    outcomes: np.ndarray
    last_loss: Optional[int]
    learned_after: Optional[int]
    machine: Machine

    @property
    def games(self) -> int:
        """Games played in this run."""
        return len(self.outcomes)


def _result(machine: Machine, raw: tuple) -> TrainResult:
    outcomes, wins, draws, losses, last_loss, learned = raw
    return TrainResult(
        wins=wins,
        draws=draws,
        losses=losses,
        outcomes=np.frombuffer(outcomes, dtype=np.int8).copy(),
        last_loss=last_loss,
        learned_after=learned,
        machine=machine,
    )


def train(
    game: str,
    *,
    side: Optional[str] = None,
    opponent: str = "random",
    games: int = 50,
    seed: int = 0,
    preset: Optional[str] = None,
    beads: Optional[str] = None,
    reinforcement: Optional[str] = None,
    empty_box: Optional[str] = None,
    box_set: Optional[str] = None,
    box_mode: Optional[str] = None,
    symmetry: Optional[bool] = None,
) -> TrainResult:
    """Train a fresh machine on ``game`` for ``games`` games, as
    ``menace train GAME --side ... --opponent ... --games ... --seed ...``
    plays them: the same seed gives the same games, bit for bit.

    Arguments are the command's flags, as text where the command takes
    text: ``game`` a spec (``"hexapawn"``, ``"hexapawn:4x4,pawn=berolina"``,
    ``"tictactoe"``, ``"hex:4,swap=off"``, ``"chessapawn"``,
    ``"minihexchess"``); ``side`` the machine's side (default: the game's
    own, e.g. black on 3x3 Hexapawn, x in noughts and crosses);
    ``opponent`` ``random``, ``perfect``, ``perfect:P``, ``menace`` or
    ``mcts:N``; ``preset`` ``gardner``, ``michie`` or ``scroggs``; ``beads`` like
    ``"4,3,2,1"``; ``reinforcement`` ``gardner``, ``michie`` or deltas like
    ``"3/1/-1"`` or ``"1/0/-1:last"``; ``empty_box`` ``resign``,
    ``restock`` or ``floor:N``; ``box_set`` ``all``, ``choices`` or
    ``michie``; ``box_mode`` ``enumerate``, ``first-visit`` or ``auto``;
    ``symmetry=False`` for ``--no-symmetry``. ``games=0`` gives a fresh
    machine. A bad value raises ``ValueError`` with the command's message.
    """
    machine, results = _menace.train(
        game,
        side=side,
        opponent=opponent,
        games=_count("games", games),
        seed=_seed(seed),
        preset=preset,
        beads=beads,
        reinforcement=reinforcement,
        empty_box=empty_box,
        box_set=box_set,
        box_mode=box_mode,
        symmetry=symmetry,
    )
    return _result(machine, results)


def train_more(machine: Machine, games: int) -> TrainResult:
    """Play ``games`` more games of ``machine`` against its opponent, as
    ``menace train --resume`` continues a saved state."""
    return _result(machine, machine.train(_count("games", games)))


@dataclass(frozen=True)
class ExperimentResult:
    """An experiment's results: ``curves``, the rows of ``menace run``'s
    ``curves.csv`` as a DataFrame (same columns, same values); ``summary``,
    its ``summary.json`` as a dict; ``files``, the files written when an
    output folder was given."""

    curves: Any  # pandas.DataFrame
    summary: Dict[str, Any]
    files: List[str]


def run_experiment(
    experiment: Union[str, "os.PathLike[str]", Mapping[str, Any]],
    *,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    threads: Optional[int] = None,
) -> ExperimentResult:
    """Run an experiment, as ``menace run FILE`` does: every arm over every
    seed, in parallel on ``threads`` threads (default: one per core; the
    results do not depend on it). ``experiment`` is an experiment file's
    path or the same JSON as a dict. With ``out`` the curves and summary are
    also written there (charts are not drawn: plot ``curves`` instead)."""
    import pandas as pd

    if isinstance(experiment, Mapping):
        csv, summary, files = _menace.run_experiment(
            text=json.dumps(experiment), out=_path(out), threads=threads
        )
    else:
        csv, summary, files = _menace.run_experiment(
            path=os.fspath(experiment), out=_path(out), threads=threads
        )
    curves = pd.read_csv(io.StringIO(csv), keep_default_na=True)
    return ExperimentResult(curves=curves, summary=json.loads(summary), files=files)


def exact_life(
    game_or_machine: Union[str, Machine],
    *,
    opponent: Optional[str] = None,
    games: int = 50,
    side: Optional[str] = None,
    preset: Optional[str] = None,
    beads: Optional[str] = None,
    reinforcement: Optional[str] = None,
    empty_box: Optional[str] = None,
    box_set: Optional[str] = None,
    symmetry: Optional[bool] = None,
    max_states: int = 2_000_000,
) -> Dict[str, Any]:
    """The exact learning life of a machine over all the randomness (no
    sampling): ``loss_at[n]``, its chance of losing game n+1 of the next
    ``games``; ``safe_by[n]``, of being safe for good after it;
    ``expected_losses`` over its whole life and ``losses``, their
    distribution; ``expected_games_until_safe``; ``machines``, the distinct
    machines it can become. Give a machine, or a game and the settings of
    ``train`` for a fresh one. Only for schemes that take beads away
    (Gardner's), against ``random``, ``perfect`` or ``perfect:P``; other
    cases raise ``ValueError`` saying why."""
    if isinstance(game_or_machine, Machine):
        machine = game_or_machine
    else:
        machine = train(
            game_or_machine,
            side=side,
            opponent=opponent or "random",
            games=0,
            preset=preset,
            beads=beads,
            reinforcement=reinforcement,
            empty_box=empty_box,
            box_set=box_set,
            symmetry=symmetry,
        ).machine
    life = _menace.exact_life(
        machine, opponent=opponent, games=_count("games", games), max_states=max_states
    )
    for key in ("loss_at", "safe_by", "losses"):
        life[key] = np.asarray(life[key], dtype=np.float64)
    return life


def solve(game: str, position: Optional[str] = None, *, max_positions: int = 20_000_000) -> Dict[str, Any]:
    """The exact solver's value of the start of ``game`` (or of
    ``position``, a compact position string) for the player to move, as
    ``menace solve`` gives it: ``result`` (``"win"``, ``"draw"``,
    ``"loss"``), ``plies`` to the end with best play, ``winner``, and
    ``moves``: each legal move's value for the player making it."""
    return _menace.solve(game, position=position, max_positions=max_positions)


def games() -> List[str]:
    """Spec strings of a small instance of every game of the registry."""
    return list(_menace.games())


def env(spec: str, *, render_mode: Optional[str] = None) -> "MenaceEnv":
    """A PettingZoo AEC environment of the game ``spec`` (any game spec,
    e.g. ``"hexapawn:4x4,pawn=berolina"``, ``"hex:5,swap=off"``): see
    :class:`menace.environment.MenaceEnv`. Needs ``pettingzoo``
    (``pip install './python[env]'``)."""
    from .environment import MenaceEnv

    return MenaceEnv(spec, render_mode=render_mode)


def _count(name: str, n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{name} {n!r}: expected a whole number from 0 up")
    return int(n)


def _seed(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n < 2**64:
        raise ValueError(f"seed {n!r}: expected a whole number from 0 to {2**64 - 1}")
    return int(n)


def _path(p: Optional[Union[str, "os.PathLike[str]"]]) -> Optional[str]:
    return None if p is None else os.fspath(p)


from .agents import MachineAgent, play_game, random_agent  # noqa: E402  (after the names it uses)

if TYPE_CHECKING:
    from .environment import MenaceEnv
