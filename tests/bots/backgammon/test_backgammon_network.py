"""The evaluator: inputs, valid probabilities, the shipped weights."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicehall.bots.backgammon import default_network
from dicehall.bots.backgammon.features import NUM_INPUTS, features
from dicehall.bots.backgammon.network import Network
from dicehall.bots.backgammon.search import evaluate_1ply, evaluate_after
from dicehall.games.backgammon import fast
from dicehall.games.backgammon.rules import START_SIDE


def random_positions(count: int, seed: int) -> list[np.ndarray]:
    """After-positions (mover in row 0) met in random games."""
    rng = random.Random(seed)
    start = np.array([START_SIDE, START_SIDE], dtype=np.int8)
    board = start.copy()
    out = []
    while len(out) < count:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        n, _, boards, _ = fast.plays(board, max(a, b), min(a, b))
        after = boards[rng.randrange(n)].copy()
        out.append(after)
        board = start.copy() if after[0, 0] == 15 else fast.swap(after)
    return out


def test_inputs_of_the_start_position() -> None:
    x = features([START_SIDE, START_SIDE])
    assert x.shape == (NUM_INPUTS,) and NUM_INPUTS >= 198
    # 24 point, two checkers: units 92, 93 of the mover; 6 point, five: 20..23
    assert list(x[92:96]) == [1.0, 1.0, 0.0, 0.0]
    assert list(x[20:24]) == [1.0, 1.0, 1.0, 1.0]
    assert x[196] == pytest.approx(1.67) and x[200] == 1.0


def assert_valid(p: np.ndarray) -> None:
    win, gammon, bg, lose_gammon, lose_bg = p
    assert 0.0 <= win <= 1.0
    assert 0.0 <= bg <= gammon <= win
    assert 0.0 <= lose_bg <= lose_gammon <= 1.0 - win + 1e-12


@pytest.mark.parametrize("net", ["shipped", "random"])
def test_probabilities_are_valid(net: str) -> None:
    network = default_network() if net == "shipped" else Network.create(hidden=16, seed=3)
    y = np.zeros(5)
    for board in random_positions(300, 1):
        evaluate_after(board, *network.params(), y)
        assert_valid(y)
    for board in random_positions(5, 2):
        evaluate_1ply(board, *network.params(), True, y)
        assert_valid(y)


def test_finished_game_is_valued_exactly() -> None:
    b = np.zeros((2, 26), dtype=np.int8)
    b[0, 0] = 15
    b[1, 19] = 15  # the loser still in the winner's home board: a backgammon
    assert list(default_network().evaluate(b)) == [1.0, 1.0, 1.0, 0.0, 0.0]


def test_shipped_weights_are_trained_and_small(tmp_path) -> None:  # type: ignore[no-untyped-def]
    net = default_network()
    assert net.meta["games"] >= 100_000
    path = tmp_path / "w.npz"
    net.save(path, compact=True)
    assert path.stat().st_size < 1_000_000
    again = Network.load(path)
    assert np.allclose(again.w1, net.w1, atol=1e-6)


def test_the_trained_net_prefers_sensible_openings() -> None:
    from dicehall import load_game
    from dicehall.bots.backgammon import Bot

    state = load_game("backgammon").new_initial_state().apply_text("3-1")
    assert state.action_to_text(Bot(level="medium").act(state)) == "8/5 6/5"


def test_compiled_forward_pass_equals_plain_numpy() -> None:
    """The tabulated sigmoid and the register-held outputs change nothing that matters:
    the compiled pass agrees with ``sigmoid(sigmoid(x W1 + b1) W2 + b2)`` to 1e-6."""
    from dicehall.bots.backgammon.network import forward, sigmoid

    net = default_network()
    w1, b1, w2, b2 = net.weights()
    worst = 0.0
    for board in random_positions(300, seed=7):
        x = features(board)
        h, y = np.empty(net.hidden), np.empty(5)
        forward(x, w1, b1, w2, b2, h, y)
        hidden = 1.0 / (1.0 + np.exp(-(x @ w1 + b1)))
        expected = 1.0 / (1.0 + np.exp(-(hidden @ w2 + b2)))
        worst = max(worst, float(np.abs(y - expected).max()))
    assert worst < 1e-6
    # the table's edges and the exact tails
    for z in (-50.0, -40.5, -16.0, -15.9999, -3.3, 0.0, 0.0004, 7.25, 15.9999, 16.0, 39.0, 45.0):
        assert sigmoid(z) == pytest.approx(1.0 / (1.0 + np.exp(-z)), abs=2e-8)
