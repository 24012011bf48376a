"""benchmarks/paired_backgammon.py: the difference of two runs, pair by pair."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from paired_backgammon import compare


def test_compare_counts_common_pairs_only() -> None:
    new = {0: [1, -1], 1: [2, 1], 2: [-1, -1], 7: [1, 1]}
    old = {0: [1, -1], 1: [-1, 1], 2: [-1, 1]}
    r = compare(new, old)
    assert (r["pairs"], r["games"], r["new_wins"], r["old_wins"]) == (3, 6, 3, 3)
    assert r["pairs_differing"] == 2
    # per pair: 0, +1, -1 wins out of 2 games -> 0, +0.5, -0.5: mean 0
    assert r["diff"] == 0.0
    assert r["diff_ci"] == pytest.approx(1.96 * 0.5 / 3**0.5)


def test_same_runs_differ_by_nothing() -> None:
    runs = {k: [1, -1] for k in range(5)}
    r = compare(runs, dict(runs))
    assert r["pairs_differing"] == 0 and r["diff"] == 0.0 and r["diff_ci"] == 0.0
