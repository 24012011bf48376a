"""Add up arena runs saved with ``--out`` (e.g. a long match played in chunks of seeds).

    python benchmarks/arena_merge.py runs/cr_random_noleave_seed*.json

All files must be the same pairing, game and options. Prints bot A's wins, draws and
losses, its share of wins with a Wilson 95% interval (sound near 0% and 100%, where
the normal approximation is not), its score (win 1, draw 1/2) with the arena's
interval (over whole deals when the runs used ``--common-dice``), and the Elo
difference.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dicehall.arena.summary import elo_difference, outcome, score_summary, wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    first: tuple[object, ...] | None = None
    scores: list[float] = []
    groups: list[int] = []
    counts = {"win": 0, "draw": 0, "loss": 0}
    seeds = []
    for path in args.files:
        report = json.loads(path.read_text())
        if report.get("kind") != "arena":
            sys.exit(f"{path}: not an arena report")
        key = (report["game"], report["options"], report["lineup"])
        if first is None:
            first = key
        elif key != first:
            sys.exit(f"{path}: another pairing or other options ({key} vs {first})")
        seeds.append(report["seed"])
        for r in report["results"]:
            result = outcome(r["returns"], r["seats"].index(report["lineup"][0]))
            counts[result] += 1
            scores.append({"win": 1.0, "draw": 0.5, "loss": 0.0}[result])
            # with common dice the rotations of one deal share their luck: one unit
            deal = r["index"] // len(r["seats"]) if report.get("common_dice") else r["index"]
            groups.append(len(seeds) * 1_000_000 + deal)
    assert first is not None
    game, options, (a, b) = first  # type: ignore[misc]
    n = len(scores)
    low, high = wilson(counts["win"], n)
    score = score_summary(scores, groups)
    print(f"{game} {options or '(default rules)'}: {a} vs {b}, {n} games, seeds {seeds}")
    print(f"  wins / draws / losses: {counts['win']} / {counts['draw']} / {counts['loss']}")
    print(f"  {a} wins {counts['win'] / n:.1%} (95% interval {low:.1%} to {high:.1%}, Wilson)")
    print(f"  score {score}; Elo {elo_difference(score.mean, n):+.0f}")


if __name__ == "__main__":
    main()
