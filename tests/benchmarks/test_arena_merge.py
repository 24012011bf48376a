"""benchmarks/arena_merge.py: chunked arena runs added up, with a Wilson interval."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "arena_merge.py"


def report(seed: int, games: list[tuple[list[str], list[float]]], **options: object) -> dict:
    return {
        "kind": "arena",
        "game": "coinrows",
        "options": {"leaving": False, **options},
        "seed": seed,
        "lineup": ["bot:expert", "random"],
        "results": [
            {"index": i, "seats": seats, "returns": returns}
            for i, (seats, returns) in enumerate(games)
        ],
    }


def merge(tmp_path: Path, *reports: dict) -> subprocess.CompletedProcess[str]:
    files = []
    for i, r in enumerate(reports):
        files.append(tmp_path / f"r{i}.json")
        files[-1].write_text(json.dumps(r))
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, files)], capture_output=True, text=True
    )


def test_adds_up_chunks_by_seat(tmp_path: Path) -> None:
    a_first, b_first = ["bot:expert", "random"], ["random", "bot:expert"]
    one = report(1, [(a_first, [1.0, -1.0]), (b_first, [-1.0, 1.0]), (a_first, [0.0, 0.0])])
    two = report(2, [(b_first, [1.0, -1.0]), (a_first, [1.0, -1.0])])
    done = merge(tmp_path, one, two)
    assert done.returncode == 0, done.stderr
    assert "5 games, seeds [1, 2]" in done.stdout
    assert "wins / draws / losses: 3 / 1 / 1" in done.stdout
    assert "bot:expert wins 60.0%" in done.stdout


def test_wilson_interval_of_a_perfect_record(tmp_path: Path) -> None:
    games = [(["bot:expert", "random"], [1.0, -1.0])] * 20
    done = merge(tmp_path, report(3, games))
    # 20 of 20: the Wilson interval's lower end is 83.9%, not the normal approximation's 100%
    assert "wins 100.0% (95% interval 83.9% to 100.0%, Wilson)" in done.stdout


def test_refuses_to_mix_pairings(tmp_path: Path) -> None:
    games = [(["bot:expert", "random"], [1.0, -1.0])]
    done = merge(tmp_path, report(1, games), report(2, games, leaving=True))
    assert done.returncode != 0 and "other options" in done.stderr


def score_interval(out: str) -> tuple[float, float]:
    line = next(x for x in out.splitlines() if x.strip().startswith("score "))
    low, high = line.split("[", 1)[1].split("]", 1)[0].split(",")
    return float(low), float(high)


def test_common_dice_deals_are_the_units_of_the_interval(tmp_path: Path) -> None:
    # four deals: one won from both seats, three won once from each seat. With common
    # dice the deals' scores (1, 1/2, 1/2, 1/2) vary little, so the interval is narrower
    # than over eight independent games; neither collapses to a point
    a_first, b_first = ["bot:expert", "random"], ["random", "bot:expert"]
    a_wins, b_wins = [1.0, -1.0], [-1.0, 1.0]
    games = [(a_first, a_wins), (b_first, b_wins)] + [
        (a_first, a_wins),
        (b_first, a_wins),
    ] * 3
    duplicate = {**report(4, games), "common_dice": True}
    low_d, high_d = score_interval(merge(tmp_path, duplicate).stdout)
    low_i, high_i = score_interval(merge(tmp_path, report(4, games)).stdout)
    assert 0.0 < low_i < low_d < 0.625 < high_d < high_i < 1.0


def test_a_duplicate_match_without_spread_keeps_a_wilson_interval(tmp_path: Path) -> None:
    # every deal split: the normal approximation would close to [0.500, 0.500]
    a_first, b_first = ["bot:expert", "random"], ["random", "bot:expert"]
    games = [(a_first, [1.0, -1.0]), (b_first, [1.0, -1.0])] * 2
    duplicate = {**report(4, games), "common_dice": True}
    low, high = score_interval(merge(tmp_path, duplicate).stdout)
    assert low < 0.5 < high
