"""The contact inputs beyond Tesauro's (shots, primes, escapes, pip loss, double shots,
dancing, anchors, break contact, containment) on hand-worked positions, and a
symmetry and range property of them all."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.bots.backgammon.features import (
    BASE_INPUTS,
    NUM_INPUTS,
    break_contact,
    dance,
    escapes,
    escapes_from,
    features,
    forward_anchor,
    hit_stats,
    longest_prime,
    min_escapes,
    shots,
)
from dicehall.bots.backgammon.network import Network
from dicehall.games.backgammon.fast import swap
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


# -- the contact inputs of 2 Dec 2026 (207 to 218) ----------------------------------------


def test_pip_loss_and_double_shots_of_one_blot() -> None:
    # the 17 rolls that hit my blot on my 20 (his 5, see above) each send it back 5
    # pips (from my 20 to my bar); his blot on his 11 (my 14) loses 14 when I hit it
    b = board_with({20: 1, 6: 14}, {11: 1, 1: 14})
    assert hit_stats(b, 1) == (17, 17 * 5, 0)
    assert hit_stats(b, 0) == (17, 17 * 14, 0)
    x = features(b)
    assert x[207] == 17 * 5 / (36 * 12) and x[208] == 17 * 14 / (36 * 12)
    assert x[209] == x[210] == 0.0


def test_pip_loss_and_double_shots_of_two_blots() -> None:
    # my blots on my 20 and 18 are his 5 and 7, 6 and 4 pips from his checker on 11.
    # The 4 away (loss 7): any 4 (11), 3-1 (2), 2-2 and 1-1 (1 each) = 15 rolls; only
    # the 6 away (loss 5): any 6 but 6-4, 5-1, 3-3 = 9 + 2 + 1 = 12 rolls. Both: 6-4
    # and 4-2 (2 each) and 2-2 (11-9-7-5) = 5.
    b = board_with({20: 1, 18: 1, 6: 13}, {11: 1, 1: 14})
    assert shots(b, 1) == 27
    assert hit_stats(b, 1) == (27, 15 * 7 + 12 * 5, 5)
    assert features(b)[209] == 5 / 36


def test_dancing_against_a_four_point_board() -> None:
    # I hold my 3- to 6-points: he enters only with a 1 or a 2
    mine = {3: 2, 4: 2, 5: 2, 6: 2, 13: 7}
    for bar, p in ((1, (4 / 6) ** 2), (2, 1 - (2 / 6) ** 2), (3, 1 - 2 / 36), (5, 1.0)):
        b = board_with(mine, {25: bar, 1: 15 - bar})
        assert dance(b, 1) == p and features(b)[212] == p
        assert dance(b, 0) == 0.0 and features(b)[211] == 0.0


def test_forward_anchor() -> None:
    b = board_with({24: 2, 20: 2, 6: 11}, {6: 5, 8: 3, 13: 7})
    assert forward_anchor(b, 0) == 5 / 6  # the 20-point, not the 24
    assert forward_anchor(b, 1) == 0.0
    assert features(b)[213] == 5 / 6 and features(b)[214] == 0.0


def test_break_contact() -> None:
    # his rearmost checker is on his 20 = my 5: my 24 has 19 pips to pass it, each
    # of my 14 on my 6 one pip; my rearmost on my 24 = his 1: his 20 has 19 to go
    b = board_with({24: 1, 6: 14}, {20: 1, 1: 14})
    assert break_contact(b, 0) == 19 + 14
    assert break_contact(b, 1) == 19
    assert features(b)[215] == 33 / 100


def test_containment_by_a_full_prime_and_by_nothing() -> None:
    # his 2- to 7-points (my 18 to 23) hold my checker on my 24: no roll escapes
    b = board_with({24: 1, 6: 14}, {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2})
    assert escapes_from(b, 0, 24) == 0 and min_escapes(b, 0) == 0
    assert features(b)[218] == 1.0
    # all mine on my 1-point (his 24, behind every point he could come from): none
    b2 = board_with({1: 15}, {25: 1, 6: 14})
    assert min_escapes(b2, 1) == 36 and features(b2)[217] == 0.0


def test_new_inputs_are_zero_in_a_race() -> None:
    b = board_with({6: 5, 5: 10}, {6: 5, 5: 10})
    assert not features(b)[207:].any()


@st.composite
def boards(draw: st.DrawFn) -> np.ndarray:
    """A legal compact board: 15 checkers a side, no point held by both."""
    b = np.zeros((2, 26), dtype=np.int8)
    for side in range(2):
        for _ in range(15):
            p = draw(st.integers(0, 25))
            if 1 <= p <= 24 and b[1 - side, 25 - p] > 0:
                p = 0  # that point is the other side's: borne off instead
            b[side, p] += 1
    return b


@settings(deadline=None, max_examples=300)
@given(boards())
def test_contact_inputs_are_symmetric_and_in_range(b: np.ndarray) -> None:
    x = features(b)
    y = features(swap(b))
    for a, c in ((201, 202), (203, 204), (205, 206), *((i, i + 1) for i in range(207, 219, 2))):
        assert x[a] == y[c] and x[c] == y[a]
    assert (x[207:209] >= 0.0).all() and (x[207:209] <= 2.0).all()
    assert (x[209:215] >= 0.0).all() and (x[209:215] <= 1.0).all()
    assert (x[215:217] >= 0.0).all() and (x[217:219] >= 0.0).all() and (x[217:219] <= 1.0).all()
    assert x[209] <= x[201] and x[210] <= x[202]  # two blots reached: a shot too
    assert hit_stats(b, 1)[0] == shots(b, 1) and hit_stats(b, 0)[0] == shots(b, 0)
    if x[200] == 0.0:
        assert not x[207:].any()
