"""Two strength runs on the same dice, compared pair by pair.

    python benchmarks/paired_backgammon.py NEW.jsonl OLD.jsonl

Both files are ``strength_backgammon.py --out`` files of the same seed and scoring
against the same B (their A may differ): the pairs both played have the same dice,
so the difference in A's wins is measured pair by pair (each pair of games is one
unit; its difference is NEW's wins minus OLD's, -2 to 2). Prints each side's share
on the common pairs with its Wilson 95% interval, the pairs whose results differ,
and the mean difference in points of win share with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any


def load(path: Path) -> tuple[dict[str, Any], dict[int, list[int]]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows[0], {row["pair"]: row["points"] for row in rows[1:]}


def compare(new: dict[int, list[int]], old: dict[int, list[int]]) -> dict[str, Any]:
    """Figures on the pairs both played (wins are points > 0)."""
    from dicehall.arena.summary import wilson

    common = sorted(set(new) & set(old))
    n = len(common)
    if n == 0:
        return {"pairs": 0}
    w_new = [sum(p > 0 for p in new[k]) for k in common]
    w_old = [sum(p > 0 for p in old[k]) for k in common]
    diffs = [a - b for a, b in zip(w_new, w_old, strict=True)]
    mean = sum(diffs) / n / 2  # in win share per game
    var = sum((d / 2 - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.nan
    return {
        "pairs": n,
        "games": 2 * n,
        "new_wins": sum(w_new),
        "old_wins": sum(w_old),
        "new_wilson": wilson(sum(w_new), 2 * n),
        "old_wilson": wilson(sum(w_old), 2 * n),
        "pairs_differing": sum(1 for k in common if new[k] != old[k]),
        "diff": mean,
        "diff_ci": 1.96 * math.sqrt(var / n) if n > 1 else math.nan,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path)
    parser.add_argument("old", type=Path)
    args = parser.parse_args()
    h_new, new = load(args.new)
    h_old, old = load(args.old)
    for k in ("b", "seed", "scoring"):
        if h_new.get(k) != h_old.get(k):
            sys.exit(f"not the same dice or opponent: {h_new} against {h_old}")
    r = compare(new, old)
    if not r["pairs"]:
        sys.exit("no pair in common")
    print(f"{h_new['a']} against {h_old['a']}, both against {h_new['b']}, seed {h_new['seed']}")
    for side, name in (("new", h_new["a"]), ("old", h_old["a"])):
        low, high = r[f"{side}_wilson"]
        print(
            f"  {name}: {r[f'{side}_wins']} of {r['games']} = "
            f"{100 * r[f'{side}_wins'] / r['games']:.2f}% [{100 * low:.2f}, {100 * high:.2f}]"
        )
    print(
        f"  {r['pairs_differing']} of {r['pairs']} pairs differ; paired difference "
        f"{100 * r['diff']:+.2f} +- {100 * r['diff_ci']:.2f} points (95%)"
    )


if __name__ == "__main__":
    sys.exit(main())
