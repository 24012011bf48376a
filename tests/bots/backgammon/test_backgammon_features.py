"""The contact inputs beyond Tesauro's: shots, primes and escapes on hand-worked positions."""

from __future__ import annotations

import numpy as np

from dicehall.bots.backgammon.features import (
    BASE_INPUTS,
    NUM_INPUTS,
    escapes,
    features,
    longest_prime,
    shots,
)
from dicehall.bots.backgammon.network import Network
from dicehall.games.backgammon.rules import START_SIDE


def board_with(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """A compact board: points in each side's own numbering, the rest borne off."""
    b = np.zeros((2, 26), dtype=np.int8)
    for side, pts in enumerate((mine, theirs)):
        for p, n in pts.items():
            b[side, p] = n
        b[side, 0] = 15 - sum(pts.values())
    return b


def test_a_blot_six_away_is_hit_by_17_rolls() -> None:
    # my blot on my 20-point is his 5-point; his checker on his 11-point, 6 pips away:
    # every 6 (11), 5-1, 4-2 (2 each), 3-3 and 2-2 (1 each), nothing in the way
    b = board_with({20: 1, 6: 14}, {11: 1, 1: 14})
    assert shots(b, 1) == 17
    # block the 2-point step of 4-2 and 2-2 (my 23-point, his 9-point... his path from
    # 11 by 2 lands on his 9 = my 16): 4-2 still goes 4 first, 2-2 is stopped
    b2 = board_with({20: 1, 16: 2, 6: 12}, {11: 1, 1: 14})
    assert shots(b2, 1) == 16
    # a blot 11 away: 6-5 (2), and no double reaches 11 exactly
    b3 = board_with({20: 1, 6: 14}, {16: 1, 1: 14})
    assert shots(b3, 1) == 2
    # no blots, no shots; and the two blots face each other: my checker on my 20
    # hits his on my 14 with the same 17 rolls, my checkers on my 6 cannot go back
    assert shots(board_with({6: 15}, {11: 1, 1: 14}), 1) == 0
    assert shots(b, 0) == 17
    assert shots(board_with({6: 15}, {11: 1, 1: 14}), 0) == 0


def test_a_blot_one_away_is_hit_by_direct_ones_and_more() -> None:
    # 1 away: any 1 (11 rolls), and nothing else lands exactly on it
    b = board_with({20: 1, 6: 14}, {6: 1, 1: 14})
    assert shots(b, 1) == 11


def test_primes() -> None:
    b = board_with({4: 2, 5: 2, 6: 3, 7: 2, 8: 2, 13: 4}, {1: 15})
    assert longest_prime(b, 0) == 5 and longest_prime(b, 1) == 1
    start = np.array([START_SIDE, START_SIDE], dtype=np.int8)
    x = features(start)
    assert x.shape == (NUM_INPUTS,)
    assert x[201] == 0.0 and x[202] == 0.0  # no blots at the start
    assert x[203] == x[204] == 1 / 6  # 6, 8, 13 and 24: no two adjacent


def test_old_weights_load_with_silent_new_inputs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    net = Network.create(hidden=4, seed=1)
    for rows in (BASE_INPUTS, BASE_INPUTS + 4):
        np.savez(tmp_path / "old.npz", w1=net.w1[:rows], b1=net.b1, w2=net.w2, b2=net.b2)
        old = Network.load(tmp_path / "old.npz")
        assert old.w1.shape == (NUM_INPUTS, 4) and (old.w1[rows:] == 0).all()
        assert (old.w1[:rows] == net.w1[:rows]).all()


def test_escapes_from_behind_a_four_prime() -> None:
    # my last checker on my 24-point; he holds his 2- to 5-points (my 23 to 20): only
    # a 6 (11 rolls) or a 5 (9 more: 5-1 .. 5-4 and 5-5) jumps it, nothing else lands
    b = board_with({24: 1, 6: 14}, {2: 2, 3: 2, 4: 2, 5: 2, 24: 7})
    assert escapes(b, 0) == 20
    # nothing held in front of it: every roll
    assert escapes(board_with({24: 1, 6: 14}, {24: 15}), 0) == 36
    x = features(b)
    assert x[205] == 20 / 36
