"""The OpenSpiel bridge: OpenSpiel's own algorithms run on every dicehall game, and
its playouts follow dicehall's rules step by step."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot

from dicehall import load_game
from dicehall.core.encoding import encoding_for
from dicehall.envs.openspiel import PREFIX, register

CASES = [
    ("backgammon", {}),
    ("backgammon", {"scoring": "standard"}),
    ("backgammon", {"cube": True, "beavers": True, "raccoons": True, "scoring": "standard"}),
    ("backgammon", {"match_length": 3}),
    ("coinrows", {}),
    ("coinrows", {"leaving": False, "turn_limit": 40, "capture": "adjacent"}),
    ("whitedie", {}),
    ("whitedie", {"players": 4, "target": 10}),
]


def test_every_game_is_registered_once() -> None:
    names = register()
    assert names == [PREFIX + g for g in ("backgammon", "coinrows", "whitedie")]
    assert register() == names
    assert set(names) <= set(pyspiel.registered_names())
    game = pyspiel.load_game(PREFIX + "whitedie", {"players": 5})
    assert game.num_players() == 5
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == encoding_for(load_game("whitedie")).num_actions


@pytest.mark.parametrize(("name", "options"), CASES)
def test_openspiel_playouts_follow_dicehall_state_by_state(name: str, options: dict) -> None:
    game = pyspiel.load_game(PREFIX + name, options)
    ours = load_game(name, **options)
    enc = encoding_for(ours)
    rng = np.random.default_rng(7)
    for _ in range(2):
        state = game.new_initial_state()
        mirror = ours.new_initial_state()
        steps = 0
        while not state.is_terminal():
            assert state.current_player() == (
                pyspiel.PlayerId.CHANCE if mirror.is_chance_node() else mirror.current_player()
            )
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                exact = {enc.action_to_id(mirror, o): float(p) for o, p in mirror.chance_outcomes()}
                assert dict(zip(outcomes, probs, strict=True)) == exact
                action = int(rng.choice(outcomes, p=probs))
            else:
                legal = state.legal_actions()
                assert legal == enc.legal_ids(mirror)
                player = state.current_player()
                assert state.observation_tensor(player) == pytest.approx(
                    enc.observation(mirror, player).tolist()
                )
                action = int(rng.choice(legal))
            chosen = enc.id_to_action(mirror, action)
            assert state.action_to_string(state.current_player(), action) == (
                mirror.action_to_text(chosen)
            )
            mirror = mirror.apply(chosen)
            state.apply_action(action)
            assert state.dicehall_state == mirror
            steps += 1
        assert mirror.is_terminal()
        assert state.returns() == mirror.returns()
        assert steps >= 1


MCTS_CASES = [
    ("backgammon", {}),
    ("backgammon", {"cube": True}),
    ("coinrows", {}),
    ("coinrows", {"leaving": False, "turn_limit": 12}),
    ("whitedie", {"target": 6}),
    ("whitedie", {"players": 3, "target": 5}),
]


@pytest.mark.parametrize(("name", "options"), MCTS_CASES)
def test_evaluate_bots_with_openspiel_mcts_and_random(name: str, options: dict) -> None:
    game = pyspiel.load_game(PREFIX + name, options)
    n = game.num_players()
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    sims = 4 if name == "backgammon" else 12
    bots = [mcts.MCTSBot(game, 1.4, sims, evaluator, random_state=rng, solve=False)]
    bots += [UniformRandomBot(p, rng) for p in range(1, n)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == n
    assert sum(returns) == pytest.approx(0.0)
    low, high = game.min_utility(), game.max_utility()
    assert all(low <= r <= high for r in returns)
    assert any(r != 0 for r in returns) or name == "coinrows"
