"""OpenSpiel: every shipped game registered and passing OpenSpiel's own tests, its MCTS bot playing them, and
a lockstep cross-check against OpenSpiel's hand-written Kalah (`mancala`) and Oware (`oware`)."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import mancala  # noqa: E402
import mancala.openspiel as mos  # noqa: E402

NAMES = mos.register_all()

# random_sim_test plays its games to the end, every decision a call into Python, and its time grows faster
# than the game's length. A match of rounds, whose random games run to millions of plies, is tested one
# round long (the game parameter `max_rounds`), and every game at most 1,000 plies long (`ply_limit`):
# under `draw when endless`, most random games of Igisoro's singletons run to its limit of 20,000 plies.


def test_register_all_names_every_shipped_game_and_variant():
    expected = {mos.spiel_name(g, None if v == "default" else v)
                for g in mancala.shipped_games() for v in mancala.variants(g)}
    assert set(NAMES) == expected
    assert "mancala_kalah" in NAMES and "mancala_bao_la_kiswahili" in NAMES
    # A second call registers nothing twice.
    assert mos.register_all() == NAMES
    registered = {t.short_name for t in pyspiel.registered_games()}
    assert set(NAMES) <= registered


def test_game_type_and_info():
    game = pyspiel.load_game("mancala_kalah")
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2
    assert game.min_utility() == -1.0 and game.max_utility() == 1.0
    assert game.max_game_length() == mancala.load("kalah").ply_limit()
    solo = pyspiel.load_game("mancala_tchuka_ruma")
    assert solo.num_players() == 1
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test(name):
    inner = mos.registered()[name]
    bounds = "max_rounds=1,ply_limit=1000" if inner.has_rounds() else "ply_limit=1000"
    game = pyspiel.load_game(f"{name}({bounds})")
    assert game.max_game_length() <= inner.max_decisions()
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_max_rounds_shortens_a_match():
    full = mancala.play_random(mancala.load("dakon"), 20, seed=3)
    one = mancala.play_random(mancala.load("dakon", max_rounds=1), 20, seed=3)
    assert one.plies.max() < full.plies.max()
    game = pyspiel.load_game("mancala_dakon(max_rounds=1)")
    assert game.get_parameters() == {"max_rounds": 1, "ply_limit": 0}
    short = mancala.load("igisoro", variant="singletons", ply_limit=100)
    assert short.ply_limit() == 100
    assert mancala.play_random(short, 20, seed=1).plies.max() <= 100


def test_a_process_that_registered_exits_cleanly(tmp_path):
    # OpenSpiel releases the registered factories after the interpreter has stopped: a factory whose release
    # runs Python code (a function, a partial) aborted the process there.
    import subprocess
    import sys

    code = "import mancala.openspiel as m, pyspiel; m.register_all(); pyspiel.load_game('mancala_kalah')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_register_a_file(tmp_path):
    path = tmp_path / "kalah-five.mancala"
    path.write_text(mancala.load("kalah").source.replace("two_rows 6", "two_rows 5"))
    name = mos.register(str(path))
    assert name == "mancala_kalah_five"
    game = pyspiel.load_game(name)
    assert game.new_initial_state().legal_actions() == [0, 1, 2, 3, 4]


def test_mcts_plays_our_games():
    from open_spiel.python.algorithms import mcts

    # Bao: a ply of several decisions (a pit, a direction, a capture's side).
    for name in ["mancala_kalah", "mancala_oware", "mancala_bao_la_kiswahili"]:
        game = pyspiel.load_game(name)
        rng = np.random.RandomState(4)
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20,
                           evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == 0.0


# Lockstep against OpenSpiel's own games.
#
# Kalah: OpenSpiel's board is 0 = player 1's store (ours: store(2)), 1..6 = player 0's pits (a..f), 7 = his
# store (store(1)), 8..13 = player 1's pits (A..F), sown in that order; its actions are board indices. Ours
# are place indices: a..f = 0..5, A..F = 6..11. Oware: OpenSpiel's actions are 0..5, the mover's houses from
# his left; ours are the places a..f = 0..5 (first player) and A..F = 6..11 (second).

def kalah_action(ours: int) -> int:
    return ours + 1 if ours < 6 else ours + 2


def kalah_board(theirs):
    # Their observation: the board's 14 places, then the player to move; ours in their order. At the end
    # they leave the last seeds in their pits and count them for their owner; our file sweeps them into his
    # store (Kalah's rule): the same totals.
    t = theirs.observation_tensor(0)
    if theirs.is_terminal():
        return [0.0] * 12 + [t[7] + sum(t[1:7]), t[0] + sum(t[8:14])]
    return [t[1 + i] for i in range(6)] + [t[8 + i] for i in range(6)] + [t[7], t[0]]


def oware_action(ours: int) -> int:
    return ours % 6


def oware_board(theirs):
    # Their observation: the 12 houses (first player's first) and the two scores, each over 48 seeds.
    return [round(x * 48) for x in theirs.observation_tensor(0)]


def lockstep(ours_name, theirs_name, to_theirs, board, games, seed):
    ours = mancala.load(ours_name)
    theirs = pyspiel.load_game(theirs_name)
    places = len(ours.place_labels())
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        a = ours.new_initial_state()
        b = theirs.new_initial_state()
        while True:
            assert a.observation()[:places] == board(b), (a.position(), str(b))
            assert a.is_terminal() == b.is_terminal(), (a.position(), str(b))
            if a.is_terminal():
                break
            assert a.current_player() == b.current_player(), (a.position(), str(b))
            legal = a.legal_actions()
            assert sorted(to_theirs(x) for x in legal) == b.legal_actions(), (a.position(), str(b))
            move = rng.choice(legal)
            a.apply_action(move)
            b.apply_action(to_theirs(move))
            plies += 1
        assert np.sign(a.returns()).tolist() == np.sign(b.returns()).tolist(), (a.position(), str(b))
    return plies


def test_lockstep_kalah():
    assert lockstep("kalah", "mancala", kalah_action, kalah_board, games=1000, seed=1) > 20_000


def test_lockstep_oware():
    assert lockstep("oware", "oware", oware_action, oware_board, games=1000, seed=2) > 20_000
