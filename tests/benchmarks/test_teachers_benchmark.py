"""benchmarks/teachers_backgammon.py: teachers' errors against a reference's values."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
from teachers_backgammon import errors, ours  # noqa: E402


def test_errors_are_the_mean_absolute_differences() -> None:
    ref = np.array([[0.5, 0.1, 0.0, 0.1, 0.0], [0.6, 0.2, 0.0, 0.1, 0.0]])
    other = ref.copy()
    other[0, 0] += 0.02  # 2 points more wins: 0.04 more equity
    assert errors(ref, ref) == (0.0, 0.0)
    win, eq = errors(other, ref)
    assert win == pytest.approx(1.0) and eq == pytest.approx(0.02)


def test_our_teacher_in_processes_is_our_search() -> None:
    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.search import evaluate_1ply

    with np.load(BENCH / "results" / "backgammon_holdout_gnubg2ply.npz") as f:
        boards = f["boards"][:70]
    values = ours(boards, 1, None, 2)
    y = np.empty(5)
    evaluate_1ply(boards[63].copy(), *Network.load().params(), False, y)
    assert values.shape == (70, 5) and np.array_equal(values[63], y)


def test_the_command_prints_a_row_for_every_teacher() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH / "teachers_backgammon.py"), "--positions", "8"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    rows = {line.split("  ")[0].strip() for line in run.stdout.splitlines()}
    assert {"dicehall 0-ply", "dicehall 1-ply", "dicehall 2-ply"} <= rows
    if shutil.which("/usr/games/gnubg"):
        assert {"gnubg 0-ply", "gnubg 1-ply", "0.5 dicehall 2 + gnubg 1"} <= rows
    bad = subprocess.run(
        [sys.executable, str(BENCH / "teachers_backgammon.py"), "--positions", "0"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "--positions and --procs must be >= 1" in bad.stderr
