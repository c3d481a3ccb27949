"""Agents for the environments, and a loop that plays one game."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import numpy as np

from ._menace import Machine


class MachineAgent:
    """A matchbox machine as an agent: it draws a bead from the box of each
    position it meets and, at the end of the game (``finish``), is
    reinforced by its scheme, exactly as ``menace`` reinforces it: it learns
    as it plays. With ``learn=False`` it plays without changing.

    Call it with the environment and its agent name for an action; ``None``
    means its box is empty and it resigns (``play_game`` does that).
    """

    def __init__(self, machine: Machine, *, learn: bool = True, seed: Optional[int] = None):
        self.machine = machine
        self.learn = learn
        if seed is not None:
            machine.seed_agent(seed)

    def __call__(self, env: Any, agent: str) -> Optional[int]:
        return self.machine.choose(env.table)

    def finish(self, reward: float) -> None:
        """Reinforce the game just ended by its result for the machine
        (the agent's reward: +1 win, 0 draw, -1 loss)."""
        if self.learn:
            self.machine.reinforce(int(np.sign(reward)))
        else:
            self.machine.abandon()


def random_agent(seed: Optional[int] = None) -> Callable[[Any, str], int]:
    """An agent that plays a uniformly random legal move."""
    rng = np.random.default_rng(seed)

    def act(env: Any, agent: str) -> int:
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        return int(rng.choice(legal))

    return act


def play_game(env: Any, agents: Dict[str, Callable[[Any, str], Optional[int]]], *, seed: Optional[int] = None) -> Dict[str, float]:
    """Play one game in ``env`` between ``agents`` (agent name to a
    callable ``(env, name) -> action or None``; None resigns); each agent
    with a ``finish`` method is given its reward at the end. The rewards
    of the game, by agent."""
    env.reset(seed=seed)
    rewards = {a: 0.0 for a in env.possible_agents}
    for name in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        rewards[name] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = agents[name](env, name)
        if action is None:
            env.resign()
        else:
            env.step(action)
    for name, agent in agents.items():
        finish = getattr(agent, "finish", None)
        if finish is not None:
            finish(rewards[name])
    return rewards
