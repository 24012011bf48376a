"""Two strength runs on the same dice, compared pair by pair.

    python benchmarks/paired_backgammon.py NEW.jsonl OLD.jsonl [NEW2.jsonl OLD2.jsonl ...]

Both files are ``strength_backgammon.py --out`` files of the same seed and scoring
against the same B (their A may differ): the pairs both played have the same dice,
so the difference in A's wins is measured pair by pair (each pair of games is one
unit; its difference is NEW's wins minus OLD's, -2 to 2). Prints each side's share
on the common pairs with its Wilson 95% interval, the pairs whose results differ,
and the mean difference in points of win share with its 95% interval.

Several NEW OLD couples (one per seed, say) are compared one by one, then pooled:
the pairs of every couple together, each still one unit, so the pooled interval is
that of all the games (``make.sh`` 12g and 13b report 8,000 games on four seeds).
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


def compare(new: dict[Any, list[int]], old: dict[Any, list[int]]) -> dict[str, Any]:
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


def _report(title: str, r: dict[str, Any], new_name: str, old_name: str) -> None:
    print(title)
    for side, name in (("new", new_name), ("old", old_name)):
        low, high = r[f"{side}_wilson"]
        print(
            f"  {name}: {r[f'{side}_wins']} of {r['games']} = "
            f"{100 * r[f'{side}_wins'] / r['games']:.2f}% [{100 * low:.2f}, {100 * high:.2f}]"
        )
    print(
        f"  {r['pairs_differing']} of {r['pairs']} pairs differ; paired difference "
        f"{100 * r['diff']:+.2f} +- {100 * r['diff_ci']:.2f} points (95%)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+", metavar="NEW OLD")
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give the files in couples: NEW OLD [NEW OLD ...]")
    pooled_new: dict[Any, list[int]] = {}
    pooled_old: dict[Any, list[int]] = {}
    names = ("", "")
    for i in range(0, len(args.files), 2):
        h_new, new = load(args.files[i])
        h_old, old = load(args.files[i + 1])
        for k in ("b", "seed", "scoring"):
            if h_new.get(k) != h_old.get(k):
                sys.exit(f"not the same dice or opponent: {h_new} against {h_old}")
        r = compare(new, old)
        if not r["pairs"]:
            sys.exit(f"no pair in common in {args.files[i]} and {args.files[i + 1]}")
        names = (h_new["a"], h_old["a"])
        versus = f"{h_new['a']} against {h_old['a']}, both against {h_new['b']}"
        _report(f"{versus}, seed {h_new['seed']}", r, *names)
        # keyed by (couple, pair): the same pair number of two seeds is two pairs
        pooled_new |= {(i, k): v for k, v in new.items()}
        pooled_old |= {(i, k): v for k, v in old.items()}
    if len(args.files) > 2:
        _report(f"pooled, {len(args.files) // 2} couples", compare(pooled_new, pooled_old), *names)


if __name__ == "__main__":
    sys.exit(main())
