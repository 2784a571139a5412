"""The games as OpenSpiel games, through OpenSpiel's Python game API.

``register_all()`` registers every shipped game and variant (``mancala_kalah``, ``mancala_bao_la_kiswahili``,
``mancala_kalah_empty_capture``, ...) and returns their names; ``register(path, name)`` registers any rule
file. Then ``pyspiel.load_game(name)`` gives a game that every OpenSpiel algorithm can play.

An OpenSpiel action is one decision of the tool's engine (``State.legal_actions`` of ``mancala``), so a ply
that takes several decisions (a direction, the kind of each piece dropped) is several actions of the same
player. The language has neither chance nor simultaneous moves: every game is sequential, deterministic and
of perfect information. Returns are terminal: zero-sum for two or more players (each loser -1, the winners
share what they lose), 1 or 0 for a solitaire won or lost.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import mancala

__all__ = ["register_all", "register", "registered", "spiel_name", "game_type", "game_info"]

# The games registered by this process: OpenSpiel refuses a name twice, so a second call is a no-op.
_REGISTERED: Dict[str, "mancala.Game"] = {}
# How each was loaded (path or name, variant, players), to load it again with a game parameter.
_SOURCES: Dict[str, Tuple[str, Optional[str], Optional[int]]] = {}


def spiel_name(game: str, variant: Optional[str] = None) -> str:
    """The OpenSpiel name of a shipped game and variant: ``mancala_`` and the names, ``-`` as ``_``."""
    parts = [game] + ([variant] if variant and variant != "default" else [])
    return "mancala_" + "_".join(re.sub(r"[^0-9A-Za-z]+", "_", p).lower() for p in parts)


def game_type(name: str, game: "mancala.Game") -> pyspiel.GameType:
    """The OpenSpiel game type of a loaded game."""
    players = game.num_players()
    long_name = game.name + (f" ({game.variant})" if game.variant else "")
    return pyspiel.GameType(
        short_name=name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if players >= 2 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        # Bounds on long games, 0 for as the file says: `mancala_dakon(max_rounds=1)`, `(ply_limit=500)`.
        parameter_specification={"max_rounds": 0, "ply_limit": 0},
    )


def game_info(game: "mancala.Game") -> pyspiel.GameInfo:
    """The OpenSpiel game info of a loaded game (``max_game_length`` in decisions: ``Game.max_decisions``)."""
    players = game.num_players()
    if players >= 2:
        low, high, total = -1.0, float(players - 1), 0.0
    else:
        low, high, total = 0.0, 1.0, None
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=0,
        num_players=players,
        min_utility=low,
        max_utility=high,
        utility_sum=total,
        max_game_length=game.max_decisions(),
    )


class MancalaObserver:
    """The observation of ``mancala.State.observation`` as OpenSpiel's observer (the same for every player:
    the games are of perfect information)."""

    def __init__(self, game: "mancala.Game", params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(game.observation_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: "MancalaSpielState", player: int) -> None:
        del player
        self.tensor[:] = state.inner.observation()

    def string_from(self, state: "MancalaSpielState", player: int) -> str:
        del player
        return state.inner.position()


class MancalaSpielGame(pyspiel.Game):
    """A ``mancala.Game`` as an OpenSpiel game (made by ``register``)."""

    # The OpenSpiel name, set by `register` on the subclass it makes for each game.
    spiel_name = ""

    def __init__(self, params=None):
        game = _REGISTERED[self.spiel_name]
        rounds = (params or {}).get("max_rounds", 0)
        plies = (params or {}).get("ply_limit", 0)
        if rounds or plies:
            path, variant, players = _SOURCES[self.spiel_name]
            game = mancala.load(path, variant=variant, players=players, max_rounds=rounds or None,
                                ply_limit=plies or None)
        super().__init__(game_type(self.spiel_name, game), game_info(game), params or dict())
        self.mancala = game

    def new_initial_state(self) -> "MancalaSpielState":
        return MancalaSpielState(self, self.mancala.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return MancalaObserver(self.mancala, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class MancalaSpielState(pyspiel.State):
    """A ``mancala.State`` as an OpenSpiel state: ``inner`` is the mancala state."""

    def __init__(self, game: MancalaSpielGame, inner: "mancala.State"):
        super().__init__(game)
        self.inner = inner

    def current_player(self) -> int:
        # -4 is pyspiel.PlayerId.TERMINAL; no other negative id occurs.
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> List[int]:
        if player != self.inner.current_player():
            return []
        return self.inner.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        del player
        return self.inner.game().action_to_string(action, self.inner)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> List[float]:
        return self.inner.returns()

    def __str__(self) -> str:
        return self.inner.position()


def _register(name: str, game: "mancala.Game", source: Tuple[str, Optional[str], Optional[int]]) -> str:
    if name in _REGISTERED:
        return name
    _REGISTERED[name] = game
    _SOURCES[name] = source
    # OpenSpiel keeps the factory until the process's very end, past the interpreter's, and releases it
    # then: it must not be freed there (a function or a partial would be, and abort the process). A class is
    # not (it refers to itself), and it owns only the name, not the native game.
    factory = type(f"MancalaSpielGame_{name}", (MancalaSpielGame,), {"spiel_name": name})
    pyspiel.register_game(game_type(name, game), factory)
    return name


def register(path: str, name: Optional[str] = None, variant: Optional[str] = None,
             players: Optional[int] = None) -> str:
    """Registers a rule file (or shipped game) with OpenSpiel as ``name`` (by default ``spiel_name`` of the
    file's stem and the variant); returns the name, for ``pyspiel.load_game``."""
    game = mancala.load(path, variant=variant, players=players)
    if name is None:
        stem = re.sub(r"\.mancala$", "", path.replace("\\", "/").rsplit("/", 1)[-1])
        name = spiel_name(stem, variant)
    return _register(name, game, (path, variant, players))


def register_all() -> List[str]:
    """Registers every shipped game and each of its variants, at the file's number of players; returns
    their OpenSpiel names (``mancala_kalah``, ``mancala_kalah_empty_capture``, ...)."""
    names = []
    for shipped in mancala.shipped_games():
        for variant in mancala.variants(shipped):
            v = None if variant == "default" else variant
            names.append(_register(spiel_name(shipped, v), mancala.load(shipped, variant=v), (shipped, v, None)))
    return names


def registered() -> Dict[str, "mancala.Game"]:
    """The games this process registered, by OpenSpiel name."""
    return dict(_REGISTERED)
