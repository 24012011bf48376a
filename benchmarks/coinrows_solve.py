"""Coin Rows solved exactly (capture=row, payoff=result): the value of the start for
each purse, with and without leaving, and of other openings (prints the figures).

    python benchmarks/coinrows_solve.py [--purses 5 6 7 8 10 12 15 20] [--leaving both]
                                        [--out benchmarks/results/coinrows_solve.jsonl]

Each line of output (and of ``--out``, appended as soon as a variant is solved) gives
the first player's expected result (+1 win, -1 loss) from the seed's start and from
each opening split (first, second coins on the board), the first player's winning
and losing chances are not separated (a draw is 0). Tables are cached under the user
cache dir (``DICEHALL_CACHE``), so a second run only reads them.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from dicehall.bots.coinrows.solver import load_or_solve

OPENINGS = [(5, 2), (4, 3), (3, 4), (2, 5), (6, 1), (1, 6)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--purses", type=int, nargs="+", default=[5, 6, 7, 8, 10, 12, 15, 20])
    ap.add_argument("--leaving", choices=("false", "true", "both"), default="false")
    ap.add_argument("--tolerance", type=float, default=1e-9)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--progress", action="store_true", help="print every 25 sweeps")
    args = ap.parse_args()
    leavings = {"false": [False], "true": [True], "both": [False, True]}[args.leaving]
    for leaving in leavings:
        for purse in args.purses:
            start = time.time()
            sol = load_or_solve(
                purse, leaving, tolerance=args.tolerance, log=print if args.progress else None
            )
            codes, first_purse = sol.start_codes()
            row = {
                "purse": purse,
                "leaving": leaving,
                "sweeps": sol.sweeps,
                "last_change": sol.residual,
                "bellman_residual": sol.bellman_residual,
                "solve_seconds": round(sol.seconds, 1),
                "start": sol.start_value(),
                # coins the second player hands the first at the start (negative: the
                # other way), from the seed's opening
                "compensation": {
                    c: float(sol.values[sol.model.rank(codes), first_purse + c])
                    for c in range(-3, 4)
                    if 0 <= first_purse + c <= sol.variant.purse_sum
                },
                "openings": {
                    f"{a}-{b}": sol.start_value((a, b)) for a, b in OPENINGS if purse >= max(a, b)
                },
            }
            print(
                f"purse {purse:2d} leaving={str(leaving).lower():5s}: start {row['start']:+.5f}  "
                + "  ".join(f"{k} {v:+.5f}" for k, v in row["openings"].items())
                + "  compensation "
                + " ".join(f"{c:+d}:{v:+.4f}" for c, v in row["compensation"].items())
                + f"  ({sol.sweeps} sweeps, residual {row['bellman_residual']:.1e}, "
                f"{time.time() - start:.0f} s)",
                flush=True,
            )
            if args.out is not None:
                args.out.parent.mkdir(parents=True, exist_ok=True)
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
