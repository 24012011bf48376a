"""Score and win-share intervals are Wilson's: sound at 0% and 100%."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicehall.arena import run_arena
from dicehall.arena.summary import running_score, score_summary, share_summary, wilson


def test_a_perfect_score_keeps_a_width() -> None:
    s = score_summary([1.0] * 120)
    assert s.mean == 1.0 and s.high == 1.0
    assert s.low == pytest.approx(0.9690, abs=1e-4)
    zero = score_summary([0.0] * 120)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.0310, abs=1e-4)


def test_known_wilson_values() -> None:
    # 20 of 20 and 7 of 10, as in Wilson (1927) / Newcombe (1998)
    assert wilson(20, 20)[0] == pytest.approx(0.8389, abs=1e-4)
    low, high = wilson(7, 10)
    assert low == pytest.approx(0.3968, abs=1e-4) and high == pytest.approx(0.8922, abs=1e-4)
    assert share_summary(0, 0).n == 0


def test_the_running_band_does_not_collapse() -> None:
    _, lows, highs = running_score([1.0] * 10)
    assert all(lo < 0.99 for lo in lows)
    assert highs == [1.0] * 10


def test_the_arena_reports_its_win_share() -> None:
    s = run_arena("whitedie", "random", "random", 6, seed=3).summary
    assert s.win_share.mean == s.wins / 6
    assert s.win_share.low < s.win_share.mean < s.win_share.high or s.wins in (0, 6)
    assert s.to_dict()["win_share"]["n"] == 6


@given(st.integers(1, 400), st.data())
def test_wilson_contains_the_share(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0
    assert high - low > 0
