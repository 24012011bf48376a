"""Rollouts: reproducible, variance reduction that is exact where values are exact,
standard errors that shrink, and the same numbers from processes and from Ray."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dicehall.bots.backgammon import bearoff as bo
from dicehall.bots.backgammon.rollout import rollout_many
from dicehall.games.backgammon import fast
from dicehall.games.backgammon.notation import decode_position_id


def opening_plays(count: int) -> list[np.ndarray]:
    board = fast.to_array(decode_position_id("4HPwATDgc/ABMA"))
    _, _, boards, _ = fast.plays(board, 3, 1)
    return [boards[i].copy() for i in range(count)]


def test_rollouts_are_reproducible_and_seeded() -> None:
    starts = opening_plays(2)
    a = rollout_many(starts, trials=36, seed=5, truncate=6)
    b = rollout_many(starts, trials=36, seed=5, truncate=6)
    c = rollout_many(starts, trials=36, seed=6, truncate=6)
    assert a == b
    assert a[0].equity != c[0].equity
    for r in a:
        assert r.trials == 36 and 0.0 <= r.win <= 1.0 and r.stderr > 0


def test_processes_give_the_same_numbers_as_one_process() -> None:
    starts = opening_plays(2)
    one = rollout_many(starts, trials=80, seed=2, truncate=4)
    two = rollout_many(starts, trials=80, seed=2, truncate=4, workers=2)
    assert one == two


def test_the_standard_error_shrinks_with_more_trials() -> None:
    start = opening_plays(1)
    small = rollout_many(start, trials=36, seed=1, truncate=5, vr=False)[0]
    large = rollout_many(start, trials=324, seed=1, truncate=5, vr=False)[0]
    # 9 times the trials: about a third of the error
    assert large.stderr < 0.5 * small.stderr
    assert abs(large.equity - small.equity) < 3 * small.stderr


def test_variance_reduction_lowers_the_error() -> None:
    start = opening_plays(1)
    plain = rollout_many(start, trials=144, seed=4, truncate=8, vr=False)[0]
    reduced = rollout_many(start, trials=144, seed=4, truncate=8, vr=True)[0]
    assert reduced.stderr < 0.5 * plain.stderr
    # both estimate the same equity: they differ by less than 3 standard errors of the
    # difference (with 72 trials and the 12d net this seed came to 3.0: more trials)
    assert abs(reduced.equity - plain.equity) < 3 * math.hypot(plain.stderr, reduced.stderr)


def test_variance_reduction_is_exact_where_the_values_are() -> None:
    """In a two-sided bear-off the 0-ply values are exact, so each trial's result less
    its luck telescopes to the exact value: every trial gives the database's number."""
    db = bo.load(progress=False)
    after = np.zeros((2, 26), dtype=np.int8)
    after[0, 6], after[0, 2], after[0, 1], after[0, 0] = 1, 2, 1, 11  # we have just moved
    after[1, 5], after[1, 3], after[1, 0] = 2, 1, 12  # he is on roll
    exact = 1.0 - db.win_on_roll([0, 0, 1, 0, 2, 0], [1, 2, 0, 0, 0, 1])
    r = rollout_many([after], trials=72, seed=9)[0]
    assert r.win == pytest.approx(exact, abs=1e-5)
    assert r.stderr < 1e-5
    raw = rollout_many([after], trials=720, seed=9, vr=False)[0]
    assert raw.win == pytest.approx(exact, abs=3 * raw.stderr)


def test_bad_arguments_are_refused() -> None:
    start = opening_plays(1)
    with pytest.raises(ValueError, match="trials must be between 1"):
        rollout_many(start, trials=0)
    with pytest.raises(ValueError, match="truncate must be"):
        rollout_many(start, trials=1, truncate=-1)
    with pytest.raises(ValueError, match="prune must be 0"):
        rollout_many(start, trials=1, prune=-2)


def test_pruned_rollouts_are_reproducible_and_agree_with_unpruned_ones() -> None:
    """The pruning net changes which plays the players value, not the dice: the same
    seed gives the same numbers, in one process or two, and the values stay within a
    few standard errors of the unpruned rollout's (``benchmarks/rollout_backgammon.py``:
    rms 0.71 standard errors over 8 positions)."""
    starts = opening_plays(2)
    a = rollout_many(starts, trials=72, seed=5, truncate=6, prune=6)
    assert a == rollout_many(starts, trials=72, seed=5, truncate=6, prune=6, workers=2)
    full = rollout_many(starts, trials=72, seed=5, truncate=6)
    assert a != full  # the pruner did change some choices
    for p, f in zip(a, full, strict=True):
        assert abs(p.equity - f.equity) < 4 * f.stderr
    # a cut wider than any roll's plays is no pruning at all
    assert rollout_many(starts, trials=36, seed=5, truncate=6, prune=10_000) == (
        rollout_many(starts, trials=36, seed=5, truncate=6)
    )


def test_the_ray_path_equals_the_process_path() -> None:
    ray = pytest.importorskip("ray")
    starts = opening_plays(2)
    processes = rollout_many(starts, trials=72, seed=3, truncate=4, workers=2)
    try:
        on_ray = rollout_many(starts, trials=72, seed=3, truncate=4, workers=2, ray_address="local")
    finally:
        ray.shutdown()
    assert on_ray == processes


def test_rollout_command_end_to_end() -> None:
    """``dicehall rollout`` as a user types it: the opening 3-1 is best by far."""
    import subprocess
    import sys

    args = ["rollout", "start", "3-1", "--trials", "36", "--truncate", "4", "--workers", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "dicehall.cli", *args, "--candidates", "3"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert len(lines) == 3 and "8/5 6/5" in lines[0]
    assert "36 trials, truncated at 4 plies" in done.stdout and "s.e." in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "dicehall.cli", "rollout", "start", "7-1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "is not a roll" in bad.stderr
    pruned = subprocess.run(
        [sys.executable, "-m", "dicehall.cli", *args, "--candidates", "2", "--prune", "6"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert pruned.returncode == 0, pruned.stderr
    assert "pruned to 6" in " ".join(pruned.stdout.split()) and "8/5 6/5" in pruned.stdout


def test_hint_rollout_in_play() -> None:
    from rich.console import Console

    from dicehall import load_game
    from dicehall.cli.views import backgammon, get_view

    state = load_game("backgammon").new_initial_state().apply_text("6-5")
    small = {"candidates": 2, "trials": 36, "truncate": 3}
    old = dict(backgammon.HINT_ROLLOUT)
    backgammon.HINT_ROLLOUT.update(small)
    try:
        table = get_view("backgammon").rollout_hint(state)
    finally:
        backgammon.HINT_ROLLOUT.update(old)
    console = Console(width=140, record=True)
    console.print(table)
    text = console.export_text()
    assert "24/13" in text and "36 trials" in text
    assert "pruned to 6" in " ".join(text.split())  # the title may wrap
    assert get_view("coinrows").rollout_hint(load_game("coinrows").new_initial_state()) is None
