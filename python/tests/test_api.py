"""The package's API as a user calls it: load, states, notation, actions, errors."""

import copy
import random

import numpy as np
import pytest

import mancala


def random_game(game, rng, most=100_000):
    state = game.new_initial_state()
    for _ in range(most):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_shipped_games_load_by_name():
    names = mancala.shipped_games()
    assert "kalah" in names and "oware" in names and "bao-la-kiswahili" in names
    for name in names:
        game = mancala.load(name)
        assert game.num_players() >= 1
        assert game.new_initial_state().legal_actions()


def test_a_rule_file_loads_by_path(tmp_path):
    path = tmp_path / "mine.mancala"
    path.write_text(mancala.load("kalah").source.replace('game "Kalah"', 'game "Mine"'))
    game = mancala.load(str(path))
    assert game.name == "Mine"
    assert game.file == str(path)


def test_variants_and_players():
    assert mancala.variants("kalah")[0] == "default"
    for variant in mancala.variants("kalah"):
        assert mancala.load("kalah", variant=variant).num_players() == 2
    assert mancala.load("gulek", players=4).num_players() == 4
    assert mancala.load("kalah", variant=mancala.variants("kalah")[1]).variant == mancala.variants("kalah")[1]


def test_kalah_start():
    game = mancala.load("kalah")
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_moves() == ["a", "b", "c", "d", "e", "f"]
    # One action, so an action is the place's index: a..f are places 0..5.
    assert state.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert [game.action_to_string(a) for a in state.legal_actions()] == ["a", "b", "c", "d", "e", "f"]
    assert state.position() == "a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4 store(1)=0 store(2)=0 to_move=1"
    assert not state.is_terminal()
    assert state.returns() == [0.0, 0.0]


def test_notation_and_actions_agree():
    game = mancala.load("kalah")
    a = game.new_initial_state()
    b = game.new_initial_state()
    a.apply("c")  # the last seed falls into the store: player 1 moves again
    b.apply_action(2)
    assert a.position() == b.position()
    assert a.current_player() == 0
    assert a.last_move() == "c"


def test_explain_tells_the_last_ply():
    state = mancala.load("kalah").new_initial_state()
    with pytest.raises(mancala.MancalaError, match="no ply"):
        state.explain()
    state.apply("c")
    text = state.explain()
    assert text.startswith("ply c by player 1")
    assert "moves again" in text


def test_an_illegal_move_is_an_exception_with_the_tools_text():
    state = mancala.load("kalah").new_initial_state()
    with pytest.raises(mancala.IllegalMoveError) as e:
        state.apply("z")
    assert "`z` is not a pit" in str(e.value)
    assert "expected one of: a, b, c, d, e, f" in str(e.value)
    with pytest.raises(mancala.IllegalMoveError, match="not legal"):
        state.apply_action(7)  # A: player 2's pit
    with pytest.raises(ValueError, match="not an action"):
        state.apply_action(10_000)
    # Nothing changed.
    assert state.ply() == 0 and state.position().startswith("a4 b4")


def test_a_rule_file_with_errors_is_an_exception_with_its_diagnostics(tmp_path):
    path = tmp_path / "bad.mancala"
    path.write_text('game "Bad"\nplayers 2\nboard two_rows 6\nsetup { every pit: 4 }\nturn { sow { from pitz(mover) } }\n')
    with pytest.raises(mancala.RuleError) as e:
        mancala.load(str(path))
    text = str(e.value)
    assert "bad.mancala" in text and "mancala::" in text
    with pytest.raises(mancala.MancalaError, match="cannot read no-such-file"):
        mancala.load("no-such-file")
    with pytest.raises(mancala.RuleError, match="variant"):
        mancala.load("kalah", variant="no-such-variant")


def test_positions_round_trip():
    game = mancala.load("oware")
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
        again = game.from_position(state.position())
        assert again.position() == state.position()
        assert again.legal_actions() == state.legal_actions()
    with pytest.raises(mancala.PositionError):
        game.from_position("q9")


def test_clone_moves_on_its_own():
    game = mancala.load("kalah")
    state = game.new_initial_state()
    state.apply("a")
    for other in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        other.apply_action(other.legal_actions()[0])
        assert other.position() != state.position()
        assert state.ply() == 1


def test_returns_of_finished_games():
    rng = random.Random(1)
    for name, players in [("kalah", None), ("oware", None), ("gulek", 4), ("tchuka-ruma", None)]:
        game = mancala.load(name, players=players)
        for _ in range(5):
            state = random_game(game, rng)
            assert state.is_terminal()
            assert state.current_player() == -4
            assert state.legal_actions() == [] and state.legal_moves() == []
            r = state.returns()
            assert len(r) == game.num_players()
            if game.num_players() >= 2:
                assert sum(r) == pytest.approx(0.0)
                winners = state.winners()
                assert all((r[p] > 0) == (p in winners) for p in range(len(r)))
            else:
                assert r[0] in (0.0, 1.0)
            assert state.end_reason() is not None
            with pytest.raises(mancala.IllegalMoveError, match="over"):
                state.apply_action(0)


def test_observation_has_its_size_and_layout():
    game = mancala.load("kalah")
    state = game.new_initial_state()
    obs = state.observation()
    assert len(obs) == game.observation_size()
    places = len(game.place_labels())
    # Pieces first, then the player to decide, one-hot.
    assert obs[:places] == [4.0] * 12 + [0.0, 0.0]
    assert obs[places:places + 2] == [1.0, 0.0]
    rng = random.Random(2)
    for name in mancala.shipped_games():
        g = mancala.load(name)
        s = random_game(g, rng, most=50)
        assert len(s.observation()) == g.observation_size()


def test_a_ply_of_several_decisions():
    # Gulek Single: a sowing chooses its pit, then its direction: two decisions, one ply.
    game = mancala.load("gulek-single")
    state = game.new_initial_state()
    moves = state.legal_moves()
    assert moves[:4] == ["1ccw", "1cw", "2ccw", "2cw"]
    state.apply_action(state.legal_actions()[0])
    assert state.in_ply() and state.current_player() == 0
    assert [game.action_to_string(a, state) for a in state.legal_actions()] == ["ccw", "cw"]
    # In the middle of the ply, the whole plies that go on from the decision made.
    assert state.legal_moves() == ["1ccw", "1cw"]
    with pytest.raises(mancala.IllegalMoveError, match="does not go on"):
        state.apply("2cw")
    state.apply("1cw")
    assert not state.in_ply()
    assert state.last_move() == "1cw"
    assert state.explain().startswith("ply 1cw by player 1")


def test_actions_are_stable_and_in_range():
    rng = random.Random(5)
    for name in mancala.shipped_games():
        game = mancala.load(name)
        n = game.num_distinct_actions()
        state = game.new_initial_state()
        for _ in range(200):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            assert actions == sorted(set(actions))
            assert all(0 <= a < n for a in actions)
            state.apply_action(rng.choice(actions))


def test_play_random_returns_arrays():
    game = mancala.load("kalah")
    runs = mancala.play_random(game, 500, seed=7)
    assert runs.plies.shape == (500,) and runs.returns.shape == (500, 2)
    assert np.allclose(runs.returns.sum(axis=1), 0.0)
    assert set(runs.reasons) <= {"condition", "limit", "stuck", "repetition"}
    # The same seed, the same games.
    again = mancala.play_random(game, 500, seed=7)
    assert (again.plies == runs.plies).all() and (again.winners == runs.winners).all()
    # Decisions stay under the bound OpenSpiel is told.
    for name in ["gulek", "bao-la-kiswahili", "oware"]:
        g = mancala.load(name)
        r = mancala.play_random(g, 20, seed=1)
        assert int(r.decisions.max()) <= g.max_decisions()
        assert int(r.plies.max()) <= g.ply_limit()


def test_a_file_that_is_not_utf8_is_a_rule_error(tmp_path):
    path = tmp_path / "latin.mancala"
    path.write_bytes(b'game "x"\xff\n')
    with pytest.raises(mancala.RuleError, match="not UTF-8"):
        mancala.load(str(path))
    with pytest.raises(mancala.RuleError, match="for 2 players, not 9"):
        mancala.load("kalah", players=9)


def test_the_opponent_decides_his_answer_in_the_middle_of_a_ply():
    # Igisoro: `opponent may` answers a capture in the middle of the mover's ply.
    game = mancala.load("igisoro")
    rng = random.Random(0)
    state = game.new_initial_state()
    for _ in range(5000):
        if state.is_terminal():
            state = game.new_initial_state()
        labels = [game.action_to_string(a, state) for a in state.legal_actions()]
        if "answer" in labels:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    else:
        pytest.fail("no answer met")
    mover = int(state.position().split("to_move=")[1].split()[0]) - 1
    assert state.in_ply()
    assert state.current_player() == 1 - mover
