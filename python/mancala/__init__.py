"""Every ``.mancala`` rule file as a game for Python.

The rules are the Rust tool's own (a thin PyO3 skin over its library): ``load`` a shipped game by name or any
rule file by path, then play its states by move notation (``legal_moves``/``apply``) or by stable integer
actions (``legal_actions``/``apply_action``). ``mancala.openspiel``, ``mancala.pettingzoo`` and
``mancala.gym`` hand the games to those tools.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from ._mancala import (
    Game,
    IllegalMoveError,
    MancalaError,
    PositionError,
    RuleError,
    State,
    load,
    shipped_games,
    variants,
)

__all__ = [
    "Game",
    "State",
    "load",
    "shipped_games",
    "variants",
    "play_random",
    "RandomGames",
    "MancalaError",
    "RuleError",
    "IllegalMoveError",
    "PositionError",
]


class RandomGames(NamedTuple):
    """The results of ``play_random``: one entry (a row for ``returns`` and ``scores``) per game."""

    plies: np.ndarray  # uint32, plies each game lasted
    decisions: np.ndarray  # uint64, decisions made (a ply is one or more)
    winners: np.ndarray  # uint8, the winners as bits of seats (bit 0: the first player)
    returns: np.ndarray  # float64, shape (n, players), as State.returns()
    scores: np.ndarray  # int32, shape (n, players), the rule file's scores at the end
    reasons: np.ndarray  # str, why each game ended ("condition", "limit", ...)


def play_random(game: Game, n: int, seed: int = 0) -> RandomGames:
    """Plays ``n`` uniformly random games of ``game`` in Rust, on every core, and returns their results as
    NumPy arrays. Game ``i`` is the same for a seed whatever the number of cores (as ``mancala simulate``)."""
    plies, decisions, winners, returns, scores, reasons = game.play_random(n, seed)
    p = game.num_players()
    return RandomGames(
        plies=np.asarray(plies, dtype=np.uint32),
        decisions=np.asarray(decisions, dtype=np.uint64),
        winners=np.frombuffer(bytes(winners), dtype=np.uint8).copy(),
        returns=np.asarray(returns, dtype=np.float64).reshape(n, p),
        scores=np.asarray(scores, dtype=np.int32).reshape(n, p),
        reasons=np.asarray(reasons, dtype=str),
    )
