"""The games as PettingZoo AEC environments with action masks.

``env("kalah")`` (or any rule file, ``players=4`` for a game of several player counts, ``variant=``) gives an
environment whose agents are ``player_0``, ``player_1``, ...; an action is one decision of the engine (as in
``mancala.State.legal_actions``), so the same agent may act several times in a row within a ply, and in an
``opponent may`` answer another agent acts in the middle of a ply. Each observation is a dict:
``observation`` (``mancala.State.observation``, float32) and ``action_mask`` (int8, 1 for a legal action of the
agent observing, all 0 for the others). Rewards come at the end: ``mancala.State.returns``. A game ended by its
ply limit is truncated, every other end terminated.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import mancala

__all__ = ["env", "raw_env", "MancalaAECEnv"]

# The largest value of an observation: pieces of a place (at most 255), an owner or a mark (at most 9).
OBSERVATION_HIGH = 255.0


class MancalaAECEnv(AECEnv):
    """A game of the mancala language as an AEC environment."""

    metadata = {"render_modes": ["human", "ansi"], "name": "mancala_v0", "is_parallelizable": False}

    def __init__(self, name: str = "kalah", players: Optional[int] = None, variant: Optional[str] = None,
                 render_mode: Optional[str] = None):
        super().__init__()
        self.game = mancala.load(name, variant=variant, players=players)
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._actions = self.game.num_distinct_actions()
        size = self.game.observation_size()
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, OBSERVATION_HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self._actions,), np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._actions) for a in self.possible_agents}
        self.state_: Optional[mancala.State] = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        # The games are deterministic: the seed has nothing to draw.
        self.state_ = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player()]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        assert self.state_ is not None, "reset() first"
        mask = np.zeros(self._actions, np.int8)
        current = self.state_.current_player()
        if current >= 0 and self.possible_agents[current] == agent:
            mask[self.state_.legal_actions()] = 1
        return {"observation": np.asarray(self.state_.observation(), np.float32), "action_mask": mask}

    def step(self, action) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply_action(int(action))
        if self.state_.is_terminal():
            returns = self.state_.returns()
            truncated = self.state_.end_reason() == "limit"
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
            index = self.agents.index(agent)
            self.agent_selection = self.agents[(index + 1) % len(self.agents)]
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[self.state_.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.state_ is None:
            return None
        text = self.state_.board()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(name: str = "kalah", players: Optional[int] = None, variant: Optional[str] = None,
            render_mode: Optional[str] = None) -> MancalaAECEnv:
    """The environment without PettingZoo's wrappers."""
    return MancalaAECEnv(name, players=players, variant=variant, render_mode=render_mode)


def env(name: str = "kalah", players: Optional[int] = None, variant: Optional[str] = None,
        render_mode: Optional[str] = None) -> AECEnv:
    """The AEC environment of a shipped game or rule file, in PettingZoo's usual wrappers (an illegal action
    ends the game for the agent that made it; actions outside the space are refused)."""
    from pettingzoo.utils import wrappers

    e: AECEnv = raw_env(name, players=players, variant=variant, render_mode=render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
