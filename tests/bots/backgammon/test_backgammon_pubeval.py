"""pubeval against values worked out by hand from Tesauro's published weights."""

from __future__ import annotations

import numpy as np
import pytest

from dicehall import load_game
from dicehall.bots.backgammon import Bot
from dicehall.bots.backgammon.pubeval import WINNING_SCORE, inputs, score
from dicehall.games.backgammon.rules import START_SIDE


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    b = np.zeros((2, 26), dtype=np.int8)
    for p, n in mine.items():
        b[0, p] = n
    for p, n in theirs.items():
        b[1, p] = n
    b[0, 0] += 15 - b[0].sum()
    b[1, 0] += 15 - b[1].sum()
    return b


def test_start_position_contact() -> None:
    # 24: two checkers -> unit 2; 13: five -> units 57 and 59 (x = (5-3)/2 = 1);
    # 8: three -> units 82, 83; 6: five -> units 92 and 94 (x = 1). Contact weights:
    expected = -1.66135 + 1.78389 + 0.36797 + 1.83120 + 0.58722 + 3.35809 + 0.57353
    start = np.array([START_SIDE, START_SIDE], dtype=np.int8)
    assert score(start, False) == pytest.approx(expected)
    assert expected == pytest.approx(6.84055)


def test_race_position() -> None:
    # one checker on the 2 point (unit 5*22+1 = 111), fourteen off (unit 121: 14/15)
    b = board({2: 1}, {1: 15})
    assert score(b, True) == pytest.approx(-1.00316 + 3.42040 * 14 / 15)


def test_blot_bar_and_off_units() -> None:
    # mover: 13 off, two on the 6 point; opponent: one on the bar, a blot on his 20
    # (our 5 point), fourteen on his 1 point (our 24).
    b = board({6: 2}, {25: 1, 20: 1, 1: 13})
    x = np.zeros(122)
    inputs(b, x)
    assert x[5 * 18 + 2] == 1.0  # our 6 point: two checkers
    assert x[5 * 19] == 1.0  # an opponent blot on our 5 point
    assert x[120] == 0.5 and x[121] == pytest.approx(13 / 15)
    assert x.sum() == pytest.approx(1 + 1 + 0.5 + 13 / 15)
    expected = 3.35809 + (-0.07276) + 5.62596 * 0.5 + (-2.75800) * 13 / 15
    assert score(b, False) == pytest.approx(expected)


def test_bearing_off_the_last_checker_wins() -> None:
    assert score(board({}, {1: 15}), True) == WINNING_SCORE


@pytest.mark.parametrize(
    ("roll", "play"),
    [("3-1", "8/5 6/5"), ("6-1", "13/7 8/7"), ("4-2", "8/4 6/4"), ("5-3", "8/3 6/3")],
)
def test_pubeval_makes_the_classic_opening_points(roll: str, play: str) -> None:
    state = load_game("backgammon").new_initial_state().apply_text(roll)
    action = Bot(level="easy").act(state)
    assert state.action_to_text(action) == play
