"""benchmarks/cube_backgammon.py: the match loop with the cube, the interval, and the
runs against gnubg (skipped where gnubg is not installed)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "cube_backgammon.py"
spec = importlib.util.spec_from_file_location("cube_backgammon", SCRIPT)
assert spec is not None and spec.loader is not None
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

needs_gnubg = pytest.mark.skipif(not shutil.which(bench.GNUBG), reason="gnubg not installed")


def test_wilson_interval() -> None:
    lo, hi = bench.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = bench.wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and 0.27 < hi < 0.28


class Recorder:
    """Our bot's side, remembering the cube state of every double it offers."""

    def __init__(self, level: str, seed: int) -> None:
        self.side = bench.OurSide(level, seed)
        self.offers: list[Any] = []

    def doubles(self, board: Any, info: Any) -> bool:
        wants = self.side.doubles(board, info)
        if wants:
            self.offers.append(info)
        return wants

    def takes(self, board: Any, info: Any) -> bool:
        return self.side.takes(board, info)

    def play(self, board: Any, d1: int, d2: int, info: Any) -> int:
        return self.side.play(board, d1, d2, info)


def test_a_match_with_the_cube_follows_the_rules() -> None:
    """Two medium bots play 5-point matches: each ends with one side on 5 or more,
    the games add up to the score, and nobody doubles in the Crawford game or a
    cube that is not his."""
    a, b = Recorder("medium", 1), Recorder("medium", 2)
    for m in range(2):
        result = bench.play_match((a, b), 5, np.random.default_rng([9, m]))
        score = result["score"]
        assert max(score) >= 5 and min(score) < 5
        assert score[result["winner"]] >= 5
        won = [0, 0]
        for winner, points in result["games"]:
            won[winner] += points
        assert won == score
    offers = a.offers + b.offers
    assert offers, "no double in two matches"
    for info in offers:
        assert not info.crawford and info.may_double()


@needs_gnubg
def test_agreement_run_against_gnubg(tmp_path: Path) -> None:
    out = tmp_path / "agree.jsonl"
    args = [sys.executable, str(SCRIPT), "agreement", "--positions", "8", "--level", "medium"]
    run = subprocess.run([*args, "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "double/no double agrees with gnubg 2-ply" in run.stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["kind"] == "agreement" and len(rows) == 9
    assert all(len(r["gnubg"]) == 3 and r["gnubg"][2] == pytest.approx(1.0) for r in rows[1:])
    again = subprocess.run([*args, "--out", str(out), "--resume"], capture_output=True, text=True)
    assert "resuming: 8 already done" in again.stdout


@needs_gnubg
def test_one_match_against_gnubg(tmp_path: Path) -> None:
    out = tmp_path / "matches.jsonl"
    args = ["matches", "--matches", "1", "--length", "1", "--level", "medium"]
    run = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--out", str(out)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "1-point matches with the cube: 1 played" in run.stdout
    row = json.loads(out.read_text().splitlines()[1])
    assert row["match"] == 0 and len(row["games"]) == 1
