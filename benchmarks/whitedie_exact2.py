"""White Die with two players solved exactly: tic-tac-toe valued by the order of the
worth of its scores wherever a point can be worth less than none, and (``--free``) the
reading where the player arranges Pips freely and may decline the claim.

    python benchmarks/whitedie_exact2.py [--free] [--save]
                                         [--cache benchmarks/results/whitedie_orders.npz]

Solves the default game (target 21, standard chart) by policy iteration per score pair
from the highest total down, with the shipped matching and tic-tac-toe score tables.
The tic-tac-toe order tables it needs (about a minute of search each) are kept in
``--cache`` as they are found, so a stopped run resumes. Prints the first player's
chance, how far the solution moved from the score-minimax one (the previous shipped
table) and the order tables used. ``--save`` writes the win table and its order tables
into src/dicehall/bots/whitedie/tables.npz: with ``--free`` as ``winprob_21_standard_free``
(the default game, whose player arranges Pips and decides the claim), without it as
``winprob_21_standard`` (the game with ``free_choices=false``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: one thread is fastest

import argparse
import time
from pathlib import Path

import numpy as np

from dicehall.bots.whitedie.tables import (
    PACKAGE_TABLES,
    OrderKey,
    load_tables,
    order_key,
    order_key_name,
    winprob_key,
)
from dicehall.bots.whitedie.winprob import solve_two_player


class _Saving(dict[OrderKey, np.ndarray]):
    """Order tables, written to ``path`` each time one is added."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        if path.exists():
            with np.load(path) as data:
                for k in data.files:
                    super().__setitem__(order_key(k), data[k].astype(np.int64))

    def __setitem__(self, key: OrderKey, value: np.ndarray) -> None:
        super().__setitem__(key, value)
        tmp = self.path.with_name(self.path.name + ".tmp.npz")
        arrays = {order_key_name(k): v.astype(np.int8) for k, v in self.items()}
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(self.path)
        print(f"  order table {order_key_name(key)} searched ({len(self)} kept)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--free", action="store_true")
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--cache", type=Path, default=Path("benchmarks/results/whitedie_orders.npz"))
    args = ap.parse_args()
    target, chart = 21, "standard"
    tables = load_tables()
    key = winprob_key(target, chart, args.free)
    start = time.time()
    approx = solve_two_player(target, chart, tables, exact=False).win
    print(f"score-minimax solution: first player {approx[0, 0]:.6f} ({time.time() - start:.0f} s)")
    computed = _Saving(args.cache)
    sol = solve_two_player(
        target, chart, tables, exact=True, free=args.free, computed=computed, start=approx
    )
    win = sol.win
    what = "free arrangement and claim" if args.free else "exact tic-tac-toe order"
    print(f"{what}: first player {win[0, 0]:.6f}; {sol.sweeps} sweeps, {time.time() - start:.0f} s")
    print(f"  pairs whose worth is not increasing in the score: {sol.nonmonotone}")
    print(f"  order tables used: {len(sol.orders)}")
    diff = np.abs(win - approx)
    a, b = np.unravel_index(int(diff.argmax()), diff.shape)
    print(f"  largest change from the score-minimax table: {diff.max():.2e} at {a}-{b}")
    shipped = tables.winprob.get(key)
    if shipped is not None:
        print(f"  largest change from the shipped table: {np.abs(win - shipped).max():.2e}")
    if args.save:
        with np.load(PACKAGE_TABLES) as data:
            # keep the other reading's table and order tables (claim fixed or free)
            kept = f"tttorder_{int(not args.free)}_"
            arrays = {
                k: data[k]
                for k in data.files
                if not k.startswith("tttorder_") or k.startswith(kept)
            }
        arrays[key] = win
        arrays.update({order_key_name(k): v.astype(np.int8) for k, v in sol.orders.items()})
        tmp = PACKAGE_TABLES.with_name(PACKAGE_TABLES.name + ".tmp.npz")
        np.savez_compressed(tmp, **arrays)
        tmp.replace(PACKAGE_TABLES)
        print(f"saved {PACKAGE_TABLES}")


if __name__ == "__main__":
    main()
