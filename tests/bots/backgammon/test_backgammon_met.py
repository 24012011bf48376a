"""Our match equity table: its model's known values, its shape, and gnubg's Kazaross-XG2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.bots.backgammon.met import (
    KAZAROSS_XG2,
    MAX_AWAY,
    compute_table,
    default_table,
    load_gnubg_table,
    solve,
)

aways = st.integers(min_value=1, max_value=MAX_AWAY)


def test_known_scores() -> None:
    met = default_table()
    assert met.equity(1, 1) == 0.5  # double match point
    assert met.equity(0, 5) == 1.0 and met.equity(5, 0) == 0.0  # the match is over
    # the Crawford game, 1-away against 2-away, no cube: the leader wins unless the
    # trailer wins this game and then the post-Crawford game at 1-away all (1/2)
    g = 0.28
    assert met.equity(1, 2) == pytest.approx(0.5 + 0.5 * (1 - g) * 0.5)
    # post-Crawford at 2-away the leader's pass is free: the trailer's chance is 1/2
    assert met.equity(2, 1, post_crawford=True) == pytest.approx(0.5)
    assert met.equity(1, 2, post_crawford=True) == pytest.approx(0.5)


@given(aways, aways)
@settings(deadline=None, max_examples=200)
def test_table_is_a_probability_and_symmetric(a: int, b: int) -> None:
    met = default_table()
    e = met.equity(a, b)
    assert 0.0 < e < 1.0
    assert e + met.equity(b, a) == pytest.approx(1.0, abs=1e-12)


@given(aways, aways)
@settings(deadline=None, max_examples=200)
def test_needing_fewer_points_is_better(a: int, b: int) -> None:
    met = default_table()
    if a > 1:
        assert met.equity(a - 1, b) >= met.equity(a, b)
    if b > 1:
        assert met.equity(a, b - 1) <= met.equity(a, b)


def test_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="up to 25-away"):
        default_table().equity(26, 3)


def test_solve_finds_the_crossing() -> None:
    knots = ((0.0, 0.5, 1.0), (-1.0, 0.0, 2.0))
    assert solve(knots, -0.5) == pytest.approx(0.25)
    assert solve(knots, 1.0) == pytest.approx(0.75)
    assert solve(knots, -2.0) == 0.0 and solve(knots, 3.0) == 1.0


@pytest.mark.skipif(not KAZAROSS_XG2.exists(), reason="gnubg's match equity tables absent")
def test_close_to_kazaross_xg2() -> None:
    """Our computed table against the rollout-based table gnubg uses by default."""
    theirs = load_gnubg_table(KAZAROSS_XG2)
    ours = compute_table()
    assert theirs.length == ours.length == MAX_AWAY
    diff = np.abs(ours.pre - theirs.pre)
    assert diff.max() < 0.0045
    assert diff.mean() < 0.002
    assert np.abs(ours.post - theirs.post).max() < 0.012
    # spot checks of the file as read: 2-away all, 1-away against 2-away (Crawford)
    assert theirs.equity(2, 2) == 0.5
    assert theirs.equity(1, 2) == pytest.approx(0.67736)
    assert theirs.equity(2, 1, post_crawford=True) == pytest.approx(0.48803)


def test_a_file_that_is_no_table_is_refused(tmp_path: object) -> None:
    from pathlib import Path

    bad = Path(str(tmp_path)) / "bad.xml"
    bad.write_text("<met><info><name>x</name></info></met>")
    with pytest.raises(ValueError, match="not an explicit gnubg match equity table"):
        load_gnubg_table(bad)
