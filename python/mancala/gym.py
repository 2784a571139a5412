"""The solitaires (``gulek-solo``, ``tchuka-ruma``, any one-player rule file) as Gymnasium environments.

An action is one decision of the engine (``mancala.State.legal_actions``); the observation is
``mancala.State.observation`` (float32). ``info["action_mask"]`` holds the legal actions (int8), for masked
policies. An illegal action changes nothing and earns ``illegal_reward`` (default 0), so that a policy that
samples the whole action space still runs. The reward comes at the end: 1 for a solitaire won, 0 lost; a
game ended by its ply limit is truncated.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import mancala

__all__ = ["SolitaireEnv"]


class SolitaireEnv(gym.Env):
    """A one-player game of the mancala language."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, name: str = "tchuka-ruma", variant: Optional[str] = None,
                 render_mode: Optional[str] = None, illegal_reward: float = 0.0):
        self.game = mancala.load(name, variant=variant)
        if self.game.num_players() != 1:
            raise mancala.MancalaError(
                f"{name} is a game of {self.game.num_players()} players; SolitaireEnv plays solitaires "
                "(use mancala.pettingzoo.env for games of several players)")
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self._actions = self.game.num_distinct_actions()
        self.action_space = spaces.Discrete(self._actions)
        self.observation_space = spaces.Box(0.0, 255.0, (self.game.observation_size(),), np.float32)
        self.state: Optional[mancala.State] = None

    def _observation(self) -> np.ndarray:
        return np.asarray(self.state.observation(), np.float32)

    def _info(self, illegal: bool = False) -> Dict[str, Any]:
        mask = np.zeros(self._actions, np.int8)
        mask[self.state.legal_actions()] = 1
        info: Dict[str, Any] = {"action_mask": mask, "position": self.state.position()}
        if illegal:
            info["illegal"] = True
        return info

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        self.state = self.game.new_initial_state()
        return self._observation(), self._info()

    def step(self, action) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        assert self.state is not None, "reset() first"
        action = int(action)
        if action not in self.state.legal_actions():
            return self._observation(), self.illegal_reward, False, False, self._info(illegal=True)
        self.state.apply_action(action)
        if self.render_mode == "human":
            self.render()
        if self.state.is_terminal():
            truncated = self.state.end_reason() == "limit"
            return self._observation(), float(self.state.returns()[0]), not truncated, truncated, self._info()
        return self._observation(), 0.0, False, False, self._info()

    def render(self) -> Optional[str]:
        if self.state is None:
            return None
        text = self.state.board()
        if self.render_mode == "human":
            print(text)
            return None
        return text
