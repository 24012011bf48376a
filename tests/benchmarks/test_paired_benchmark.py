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


def _write(path: Path, a: str, seed: int, rows: dict[int, list[int]]) -> Path:
    import json

    head = {"a": a, "b": "gnubg:0", "seed": seed, "scoring": "single"}
    lines = [json.dumps(head)] + [json.dumps({"pair": k, "points": v}) for k, v in rows.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_couples_of_several_seeds_are_pooled(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Pair 0 of seed 1 and pair 0 of seed 2 are two pairs, not one: pooled, the two
    seeds' +1 and -1 game differences give 0 over 4 pairs, not one pair counted twice."""
    from paired_backgammon import main

    files = [
        _write(tmp_path / "n1.jsonl", "new", 1, {0: [1, 1], 1: [1, -1]}),
        _write(tmp_path / "o1.jsonl", "old", 1, {0: [1, -1], 1: [1, -1]}),
        _write(tmp_path / "n2.jsonl", "new", 2, {0: [-1, -1], 1: [1, 1]}),
        _write(tmp_path / "o2.jsonl", "old", 2, {0: [1, -1], 1: [1, 1]}),
    ]
    main([str(f) for f in files])
    out = capsys.readouterr().out
    assert "seed 1" in out and "seed 2" in out
    pooled = out[out.index("pooled, 2 couples") :]
    assert "new: 5 of 8 = 62.50%" in pooled and "old: 5 of 8 = 62.50%" in pooled
    assert "2 of 4 pairs differ; paired difference +0.00" in pooled


def test_couples_must_share_dice_and_come_in_twos(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from paired_backgammon import main

    a = _write(tmp_path / "a.jsonl", "new", 1, {0: [1, 1]})
    b = _write(tmp_path / "b.jsonl", "old", 2, {0: [1, 1]})
    with pytest.raises(SystemExit, match="not the same dice"):
        main([str(a), str(b)])
    with pytest.raises(SystemExit):
        main([str(a), str(b), str(a)])
