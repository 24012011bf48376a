"""PettingZoo and Gymnasium environments pass their libraries' own API checks."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from dicehall import load_game
from dicehall.core.errors import IllegalActionError
from dicehall.envs import DicehallAECEnv, DicehallGymEnv

AEC_GAMES = [
    ("backgammon", {}),
    ("backgammon", {"cube": True, "beavers": True, "scoring": "standard"}),
    ("backgammon", {"match_length": 3}),
    ("coinrows", {}),
    ("coinrows", {"leaving": False, "turn_limit": 60}),
    ("whitedie", {}),
    ("whitedie", {"players": 3}),
    ("whitedie", {"players": 6, "target": 8}),
]


@pytest.mark.parametrize(("name", "options"), AEC_GAMES)
def test_pettingzoo_api_and_seed_tests(name: str, options: dict) -> None:
    api_test(DicehallAECEnv(name, **options), num_cycles=300)
    seed_test(lambda: DicehallAECEnv(name, **options), num_cycles=300)


@pytest.mark.parametrize(("name", "options"), AEC_GAMES)
def test_pettingzoo_games_follow_the_rules_to_the_end(name: str, options: dict) -> None:
    """Masked random play: every state the env reaches is the state the rules give."""
    env = DicehallAECEnv(name, **options)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    game = load_game(name, **options)
    assert len(env.agents) == game.num_players
    steps = 0
    for agent in env.agent_iter(5000):
        obs, _reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert env.state.current_player() == seat
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal.tolist()) == env.encoding.legal_ids(env.state)
        before = env.state
        action = int(rng.choice(legal))
        env.step(action)
        chosen = env.encoding.id_to_action(before, action)
        after = before.apply(chosen)
        assert env.state == after or after.is_chance_node()
        steps += 1
    assert not env.agents and steps >= 1
    assert sum(env._cumulative_rewards.values()) == pytest.approx(0.0)


def test_pettingzoo_refuses_an_illegal_id_with_the_reason() -> None:
    env = DicehallAECEnv("coinrows")
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="no legal action has this id"):
        env.step(500)
    with pytest.raises(ValueError, match="not None"):
        env.step(None)


def test_pettingzoo_seeds_fix_the_dice() -> None:
    def first_obs(seed: int) -> np.ndarray:
        env = DicehallAECEnv("backgammon")
        env.reset(seed=seed)
        return env.observe(env.agent_selection)["observation"]

    assert np.array_equal(first_obs(4), first_obs(4))
    assert any(not np.array_equal(first_obs(4), first_obs(s)) for s in range(5, 12))


GYM_CASES = [
    ("backgammon", {"opponents": "random"}),
    ("backgammon", {"opponents": "bot:easy", "seat": 1}),
    ("coinrows", {"opponents": "random", "leaving": False, "turn_limit": 80}),
    ("coinrows", {"opponents": "bot"}),
    ("whitedie", {"opponents": "random"}),
    ("whitedie", {"opponents": ["random", "bot"], "players": 3, "seat": 2}),
    ("backgammon", {"opponents": "random", "cube": True, "scoring": "standard"}),
]


@pytest.mark.parametrize(("name", "kwargs"), GYM_CASES)
def test_gymnasium_check_env(name: str, kwargs: dict) -> None:
    check_env(DicehallGymEnv(name, **kwargs), skip_render_check=True)


@pytest.mark.parametrize(("name", "kwargs"), GYM_CASES[::2])
def test_gymnasium_episodes_end_with_the_seats_return(name: str, kwargs: dict) -> None:
    env = DicehallGymEnv(name, **kwargs)
    rng = np.random.default_rng(2)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
            assert env.state.current_player() == env.seat
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            assert not truncated and "illegal_action" not in info
            total += reward
        assert total == env.state.returns()[env.seat]


def test_gymnasium_illegal_id_ends_the_episode() -> None:
    env = DicehallGymEnv("coinrows", illegal_reward=-5)
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(bad)
    assert (reward, done, info["illegal_action"]) == (-5.0, True, True)


def test_gymnasium_bad_arguments_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="seat must be 0..1"):
        DicehallGymEnv("coinrows", seat=2)
    with pytest.raises(ValueError, match="one per other seat"):
        DicehallGymEnv("whitedie", players=4, opponents=["random", "random"])
    with pytest.raises(ValueError, match="human"):
        DicehallGymEnv("whitedie", opponents="human")
    with pytest.raises(ValueError, match="unknown opponent"):
        DicehallGymEnv("whitedie", opponents="gnubg")
