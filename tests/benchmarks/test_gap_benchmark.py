"""benchmarks/gap_backgammon.py: the classes of positions, and a reproducible report;
strength_backgammon.py's ``--race-weights``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SCRIPT = BENCHMARKS / "gap_backgammon.py"
RACE_G2 = BENCHMARKS / "results" / "race_gnubg2ply" / "race_g2_48.npz"
sys.path.insert(0, str(BENCHMARKS))

CLASSES = {"bear-off databases", "race net", "contact net, hitting", "contact net, no hit"}


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """Mover in row 0; points 1..24, 25 the bar, 0 borne off (the rest of 15)."""
    out = np.zeros((2, 26), dtype=np.int8)
    for row, side in enumerate((mine, theirs)):
        for point, n in side.items():
            out[row, point] = n
        out[row, 0] = 15 - sum(side.values())
    return out


def test_positions_are_classed_by_the_evaluator_that_values_them() -> None:
    from gap_backgammon import classify

    home = board({1: 3, 2: 2}, {3: 4})
    assert classify(home, home) == "bear-off databases"
    race = board({1: 3, 9: 2}, {3: 4, 12: 1})  # no contact, not all home
    assert classify(race, race) == "race net"
    before = board({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 1, 20: 1})
    hit = board({6: 5, 8: 3, 13: 4, 24: 2, 5: 1}, {6: 5, 8: 3, 13: 5, 24: 1, 25: 1})
    assert classify(hit, before) == "contact net, hitting"
    quiet = board({6: 5, 8: 3, 13: 4, 24: 2, 7: 1}, {6: 5, 8: 3, 13: 5, 24: 1, 20: 1})
    assert classify(quiet, before) == "contact net, no hit"


def test_race_weights_replace_the_shipped_race_net_only() -> None:
    from strength_backgammon import load_nets

    from dicehall.bots.backgammon import default_network, race

    assert load_nets(None) is default_network()
    net = load_nets(None, str(RACE_G2))
    expected = race.load(RACE_G2)[0]
    assert all(np.array_equal(a, b) for a, b in zip(net.race, expected, strict=True))
    shipped = default_network()
    assert all(np.array_equal(a, b) for a, b in zip(net.weights(), shipped.weights(), strict=True))
    assert not np.array_equal(net.params()[4][3], shipped.params()[4][3])


@pytest.mark.skipif(not shutil.which("/usr/games/gnubg"), reason="gnubg is not installed")
def test_the_report_counts_every_decision_and_is_reproducible(tmp_path: Path) -> None:
    reports = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.json"
        done = subprocess.run(
            [sys.executable, str(SCRIPT), "--games", "2", "--seed", "3", "--gnubg-plies", "0",
             "--gnubg-procs", "1", "--out", str(out)],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "against gnubg 0-ply: 2 games" in done.stdout
        reports.append(json.loads(out.read_text()))
    report = reports[0]
    assert reports[1] == report
    classes = report["classes"]
    assert {c["class"] for c in classes} <= CLASSES
    assert sum(c["decisions"] for c in classes) == report["decisions"] > 20
    assert all(0 <= c["differ"] <= c["decisions"] for c in classes)
    # a class where both always agree gains nothing
    assert all(c["gain_per_decision"] == 0 for c in classes if c["differ"] == 0)
