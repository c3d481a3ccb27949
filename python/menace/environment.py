"""Every game of ``menace`` as a PettingZoo AEC environment.

Actions are numbered from the board's cells: in a game that places stones
(noughts and crosses, Hex) action ``c`` places on cell ``c`` and the last
action is the move that places nothing (Hex's swap); in a game that moves
pieces, action ``(from * cells + to) * 4 + k`` moves from cell ``from`` to
cell ``to`` (``k`` tells apart the moves joining the same cells: a Mini
Hexchess promotion's piece). ``action_mask`` marks the legal ones.

An observation is ``(cells, channels)`` of 0 and 1: the observing player's
own pieces in the first half of the channels, the other's in the second
half (one channel a side, or one per chess letter K Q R B N P).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._menace import Table


class MenaceEnv(AECEnv):
    """A game of ``menace`` as a two-agent AEC environment.

    The agents are named after the game's players (``white``/``black``,
    ``x``/``o``, ``red``/``blue``); the rewards are +1 to the winner and -1
    to the loser at the end, 0 to both for a draw and before the end. The
    game in progress is ``table`` (a :class:`menace.Table`), for an agent
    that reads positions or moves in the game's notation. ``render()`` with
    ``render_mode="ansi"`` gives the board as text.
    """

    metadata = {"render_modes": ["ansi"], "name": "menace_v0", "is_parallelizable": False}

    def __init__(self, spec: str, render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode '{render_mode}': expected one of {self.metadata['render_modes']} or None")
        self.table = Table(spec)
        self.spec = self.table.spec
        self.render_mode = render_mode
        names = [p.lower().replace(" ", "_") for p in self.table.players]
        if names[0] == names[1]:
            names = [f"{names[0]}_0", f"{names[1]}_1"]
        self.possible_agents: List[str] = names
        self.agents = names[:]
        count = self.table.action_count
        shape = self.table.observation_shape
        self._shape = shape
        self.action_spaces = {a: spaces.Discrete(count) for a in names}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0, high=1, shape=shape, dtype=np.int8),
                    "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
                }
            )
            for a in names
        }
        self._rng = np.random.default_rng()
        self._reset_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _reset_state(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.table.turn]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Start a new game. A game whose start is drawn (Hex: who places
        first) draws it from the environment's random stream, seeded by
        ``seed``."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.table.reset(int(self._rng.integers(0, 2**63)))
        self._reset_state()

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        index = self.possible_agents.index(agent)
        board = np.frombuffer(self.table.observation(index), dtype=np.int8).reshape(self._shape).copy()
        mask = np.zeros(self.table.action_count, dtype=np.int8)
        if agent == self.agent_selection and not self.table.is_over:
            mask[self.table.legal_actions()] = 1
        return {"observation": board, "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.table.play(int(action))
        if self.table.is_over:
            self._finish(self.table.winner)
        else:
            self.agent_selection = self.agents[self.table.turn]
        self._accumulate_rewards()

    def resign(self) -> None:
        """The agent to move resigns: it loses (-1), the other wins (+1)."""
        agent = self.agent_selection
        if self.terminations[agent]:
            raise ValueError("the game is over")
        self._cumulative_rewards[agent] = 0
        self._finish(1 - self.possible_agents.index(agent))
        self._accumulate_rewards()

    def _finish(self, winner: Optional[int]) -> None:
        for i, a in enumerate(self.agents):
            self.rewards[a] = 0 if winner is None else (1 if i == winner else -1)
            self.terminations[a] = True

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode: make the environment with render_mode='ansi'")
            return None
        return self.table.diagram()

    def close(self) -> None:
        pass
