"""PettingZoo's and Gymnasium's own checkers on our environments."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import mancala  # noqa: E402
import mancala.gym  # noqa: E402
import mancala.pettingzoo  # noqa: E402


@pytest.mark.parametrize("name,players", [("kalah", None), ("oware", None), ("gulek", 4)])
def test_pettingzoo_api_test(name, players):
    from pettingzoo.test import api_test

    env = mancala.pettingzoo.env(name, players=players)
    api_test(env, num_cycles=1000, verbose_progress=False)


def test_a_four_player_game_plays_to_its_end():
    env = mancala.pettingzoo.env("gulek", players=4)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    rng = np.random.default_rng(1)
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert any(r != 0 for r in rewards.values())


@pytest.mark.parametrize("name", ["tchuka-ruma", "gulek-solo"])
def test_gymnasium_check_env(name):
    from gymnasium.utils.env_checker import check_env

    env = mancala.gym.SolitaireEnv(name)
    check_env(env, skip_render_check=True)


def test_a_solitaire_played_by_its_mask():
    env = mancala.gym.SolitaireEnv("tchuka-ruma")
    observation, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    total = 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert total in (0.0, 1.0)
    # An illegal action changes nothing.
    env.reset()
    before = env.state.position()
    _, reward, terminated, _, info = env.step(env.action_space.n - 1)
    assert info.get("illegal") and env.state.position() == before and not terminated


def test_solitaire_env_refuses_a_game_of_two():
    with pytest.raises(mancala.MancalaError, match="2 players"):
        mancala.gym.SolitaireEnv("kalah")
