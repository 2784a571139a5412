"""Type stubs of the native module (python/src/lib.rs)."""

from typing import List, Optional, Tuple

class MancalaError(Exception):
    """Every error of the mancala package."""

class RuleError(MancalaError):
    """A rule file that cannot be played: its diagnostics, rendered as `mancala check` prints them."""

class IllegalMoveError(MancalaError):
    """A move or action that is not legal in the state (or a game that is over)."""

class PositionError(MancalaError):
    """A position text that does not fit the game."""

def load(
    name_or_path: str,
    variant: Optional[str] = None,
    players: Optional[int] = None,
    max_rounds: Optional[int] = None,
    ply_limit: Optional[int] = None,
) -> Game:
    """Loads a shipped game by name (``"kalah"``) or any rule file by path: one variant (``None`` or
    ``"default"``: the base game) for a number of players (``None``: the file's default). ``max_rounds``
    ends a match of rounds after at most that many rounds, as ``limit N rounds`` in the file would;
    ``ply_limit`` a game after at most that many plies, as ``limit N plies`` would. Raises
    ``RuleError`` with the tool's diagnostics for a file with errors, ``MancalaError`` for one that cannot
    be read."""

def shipped_games() -> List[str]:
    """The names of the shipped games, which ``load`` takes in place of a path."""

def variants(name_or_path: str) -> List[str]:
    """The variants of a rule file or shipped game, ``"default"`` (the base game) first."""

class Game:
    """One variant of a rule file for a number of players."""

    @property
    def name(self) -> str: ...
    @property
    def variant(self) -> Optional[str]: ...
    @property
    def file(self) -> str: ...
    @property
    def source(self) -> str: ...
    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int:
        """Every action of every state lies in ``range(num_distinct_actions())``."""
    def observation_size(self) -> int:
        """The length of ``State.observation()``."""
    def ply_limit(self) -> int:
        """A game (a whole match of rounds too) ends after at most this many plies."""
    def max_decisions(self) -> int:
        """A bound on the decisions (actions) of a game: OpenSpiel's ``max_game_length``."""
    def has_rounds(self) -> bool: ...
    def place_labels(self) -> List[str]:
        """The labels of the places by index (``a``, ..., ``store(1)``)."""
    def new_initial_state(self) -> State: ...
    def from_position(self, text: str) -> State:
        """A state from a position in the ``--position`` notation; ``PositionError`` if it does not fit."""
    def action_to_string(self, action: int, state: Optional[State] = None) -> str:
        """The decision an action stands for (``c``, ``cw``, ``stop``)."""
    def play_random(
        self, n: int, seed: int = 0
    ) -> Tuple[List[int], List[int], bytes, List[float], List[int], List[str]]:
        """``n`` random games played in Rust on every core; see ``mancala.play_random`` for arrays."""

class State:
    """A position of a game in play."""

    def game(self) -> Game: ...
    def current_player(self) -> int:
        """The player who decides next, from 0; -4 once the game is over (never -1 or -2: the language has no
        chance nor simultaneous decisions)."""
    def is_terminal(self) -> bool: ...
    def in_ply(self) -> bool:
        """Whether decisions were made since the last ply ended."""
    def ply(self) -> int: ...
    def legal_actions(self) -> List[int]:
        """The legal decisions as integers, stable for the game, ascending."""
    def apply_action(self, action: int) -> None:
        """Makes one decision; ``IllegalMoveError`` if it is not legal."""
    def legal_moves(self) -> List[str]:
        """The legal plies in move notation, as ``mancala play`` takes them."""
    def apply(self, move: str) -> None:
        """Plays a ply in move notation; ``IllegalMoveError`` with the tool's message if it does not fit."""
    def returns(self) -> List[float]:
        """One float per player: 0 until the end; then -1 for each loser and an equal share of their loss for
        each winner (sum 0); a solitaire: 1 won, 0 lost."""
    def scores(self) -> Optional[List[int]]: ...
    def winners(self) -> Optional[List[int]]: ...
    def end_reason(self) -> Optional[str]: ...
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: object) -> State: ...
    def position(self) -> str:
        """The position in the ``--position`` notation (``Game.from_position`` reads it back)."""
    def board(self) -> str:
        """The board drawn as ``mancala play`` draws it."""
    def observation(self) -> List[float]:
        """``Game.observation_size()`` floats; the layout is in docs/python.md."""
    def explain(self) -> str:
        """How the last ply went, rule by rule, as ``mancala explain`` tells it."""
    def last_move(self) -> Optional[str]: ...
    def to_json(self) -> str: ...
