"""benchmarks/strength_backgammon.py: the same games for any --workers, and --resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "strength_backgammon.py"


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def pairs(path: Path) -> dict[int, list[int]]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert rows[0] == {"a": "hard", "b": "beginner", "seed": 5, "scoring": "standard"}
    return {row["pair"]: row["points"] for row in rows[1:]}


def test_workers_and_resume_give_the_same_games(tmp_path: Path) -> None:
    common = ["hard", "beginner", "--seed", "5", "--scoring", "standard"]
    one, two, resumed = tmp_path / "one.jsonl", tmp_path / "two.jsonl", tmp_path / "res.jsonl"
    report = run(*common, "--games", "8", "--workers", "1", "--out", str(one))
    assert "hard vs beginner: 8 games (4 pairs, common dice), standard scoring" in report
    run(*common, "--games", "8", "--workers", "2", "--out", str(two))
    # half the run, then the rest: the finished pairs are not played again
    run(*common, "--games", "4", "--out", str(resumed))
    again = run(*common, "--games", "8", "--out", str(resumed), "--resume")
    assert "resuming: 2 pairs already played" in again
    assert pairs(one) == pairs(two) == pairs(resumed)
    assert sorted(pairs(one)) == [0, 1, 2, 3]
    # beginner's noise is seeded by the pair too, and points are whole game values
    assert all(p != 0 and abs(p) <= 3 for pts in pairs(one).values() for p in pts)


def test_resume_refuses_another_run(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    run(
        "hard",
        "beginner",
        "--seed",
        "5",
        "--games",
        "2",
        "--scoring",
        "standard",
        "--out",
        str(out),
    )
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "hard",
            "beginner",
            "--seed",
            "6",
            "--games",
            "4",
            "--scoring",
            "standard",
            "--out",
            str(out),
            "--resume",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode != 0 and "holds another run" in done.stderr


def test_gnubg_can_be_player_a(tmp_path: Path) -> None:
    """gnubg on both sides: the same deterministic player in both seats of a pair with
    the same dice plays the same game twice, seats swapped, so A wins exactly one of
    each pair; its decisions are timed in its gnubg process's CPU."""
    import shutil

    import pytest

    if not shutil.which("/usr/games/gnubg"):
        pytest.skip("gnubg is not installed")
    out = tmp_path / "gg.jsonl"
    report = run("gnubg:0", "gnubg", "--games", "4", "--seed", "3", "--out", str(out))
    assert "gnubg:0ply vs gnubg:0ply: 4 games (2 pairs, common dice)" in report
    assert "gnubg:0ply wins 50.00%" in report
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0] == {"a": "gnubg:0", "b": "gnubg", "seed": 3, "scoring": "single"}
    assert all(row["points"][0] == -row["points"][1] for row in rows[1:])
    assert report.count("CPU mean") == 2


def test_gnubg_specs_parse_or_say_what_is_allowed() -> None:
    import pytest

    sys.path.insert(0, str(SCRIPT.parent))
    from strength_backgammon import parse_gnubg

    assert parse_gnubg("gnubg") == (0, False)
    assert parse_gnubg("gnubg:2") == (2, False)
    assert parse_gnubg("gnubg:1ply") == (1, False)
    assert parse_gnubg("gnubg:0:dmp") == (0, True)
    for bad in ("gnubg:x", "gnubg:0:money", "gnubg:9", "gnubg:0:dmp:1"):
        with pytest.raises(ValueError, match="gnubg"):
            parse_gnubg(bad)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "gnubg:0:cash", "pubeval", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 2 and "gnubg:PLIES:dmp" in done.stderr


def test_gnubg_at_double_match_point_plays_for_wins(tmp_path: Path) -> None:
    """``gnubg:0:dmp`` values plays as in a 1-point match, so gammons do not count: in
    this position (ours, with a checker on the bar, against a gammonish board; roll
    3-4) money play and play for wins choose differently. Pinned from gnubg 1.07."""
    import shutil

    import numpy as np
    import pytest

    if not shutil.which("/usr/games/gnubg"):
        pytest.skip("gnubg is not installed")
    sys.path.insert(0, str(SCRIPT.parent))
    from strength_backgammon import GnubgPlayer

    board = np.array(
        [
            [0, 0, 0, 1, 0, 0, 4, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            [0, 0, 2, 1, 0, 1, 2, 1, 0, 1, 0, 0, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0],
        ],
        dtype=np.int8,
    )
    money, wins = GnubgPlayer(0), GnubgPlayer(0, dmp=True)
    try:
        assert (money.choose(board, 3, 4, True), wins.choose(board, 3, 4, True)) == (0, 2)
        assert wins.name == "gnubg:0ply:dmp"
    finally:
        money.close()
        wins.close()
    report = run("gnubg:0:dmp", "pubeval", "--games", "2", "--seed", "3")
    assert "gnubg:0ply:dmp vs pubeval: 2 games" in report
