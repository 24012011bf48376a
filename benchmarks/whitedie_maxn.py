"""White Die with three players solved by max^n value iteration (prints the figures and,
with ``--save``, writes the shipped table src/dicehall/bots/whitedie/maxn3.npz).

    python benchmarks/whitedie_maxn.py [--players 3] [--target 8] [--chart standard] [--save]
                                       [--checkpoint PATH] [--seconds S]

Prints every seat's winning chance from the start (seat order from the player who
starts after the roll-off), the positions solved, how many of them value tic-tac-toe
exactly (the score minimax is the max^n outcome there), the policy iterations, the
seconds taken, and the largest Bellman residual over every position.
The shipped table was made with ``--target 8 --save`` (about 22 minutes on this
project's shared 2-core machine under heavy load).

With ``--checkpoint PATH`` the table is written to PATH after every score total and a
rerun resumes below the last total done; ``--seconds S`` stops after the first total
finished past S seconds (a partial table, exact from its lowest total up). The
default game's table ``maxn3_21.npz`` is made that way:

    nice -n 10 python benchmarks/whitedie_maxn.py --target 21 \
        --checkpoint src/dicehall/bots/whitedie/maxn3_21.npz --seconds 6000

``--free`` solves the game with free choices (the default rules since the player arranges
his Pips square and decides the claim): ``--free --target 21 --checkpoint
src/dicehall/bots/whitedie/maxn3_21_free.npz`` and, four players at a reduced target,
``--free --players 4 --target 6 --checkpoint src/dicehall/bots/whitedie/maxn4_6_free.npz``.

``--check`` solves nothing: it prints, for every shipped table (or the tables given as
``--check PATH ...``), the largest Bellman residual over every position it holds (the
tests check every position of the small tables and a sample of the large ones; this is
the check of every position of all of them, a few minutes per thousand positions):

    nice -n 10 python benchmarks/whitedie_maxn.py --check \
        | tee benchmarks/results/whitedie_maxn_check.log
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: one thread is fastest

import argparse
import time
from pathlib import Path

from dicehall.bots.whitedie.maxn import (
    MAXN_TABLES,
    SHIPPED,
    bellman_residual,
    read_maxn,
    save,
    solve_maxn,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--target", type=int, default=8)
    ap.add_argument("--chart", default="standard")
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--checkpoint", type=Path, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--free", action="store_true", help="the game with free choices (default)")
    ap.add_argument("--check", type=Path, nargs="*", default=None, help="check shipped tables")
    args = ap.parse_args()
    if args.check is not None:
        check(args.check or [p for p in SHIPPED if p.exists()])
        return
    sol = solve_maxn(
        args.players, args.target, args.chart, log=print, checkpoint=args.checkpoint,
        seconds=args.seconds, free=args.free,
    )  # fmt: skip
    if sol.lowest_total > 0:
        todo = [x for x in _positions(args.players, args.target) if sol.solved(x)]
        print(
            f"partial: positions with a score total of {sol.lowest_total} or more are solved "
            f"({len(todo)} of {sol.positions}); {sol.iterations} policy iterations, "
            f"{sol.seconds:.0f} s in all"
        )
        print(f"largest Bellman residual over them: {bellman_residual(sol, todo):.1e}")
        return
    start = sol.values[(0,) * args.players]
    print(
        f"{args.players} players, target {args.target}: the starting player wins "
        f"{start[0]:.4f}; by seat from him: " + ", ".join(f"{x:.4f}" for x in start)
    )
    print(
        f"{sol.positions} positions, tic-tac-toe exact at {sol.ttt_exact}; "
        f"{sol.iterations} policy iterations, {sol.seconds:.0f} s"
    )
    print(f"largest Bellman residual: {bellman_residual(sol):.1e}")
    if args.save:
        print(f"saved {save(sol, MAXN_TABLES)}")


def check(paths: list[Path]) -> None:
    """The largest Bellman residual over every solved position of each table."""
    for path in paths:
        start = time.time()
        sol = read_maxn(path)
        todo = [x for x in _positions(sol.players, sol.target) if sol.solved(x)]
        residual = bellman_residual(sol, todo)
        print(
            f"{path.name}: {sol.players} players, target {sol.target}, {sol.chart}, "
            f"free {sol.free}: {len(todo)} of {sol.positions} positions solved, largest "
            f"Bellman residual over them {residual:.1e} ({time.time() - start:.0f} s)",
            flush=True,
        )


def _positions(players: int, target: int) -> list[tuple[int, ...]]:
    import itertools

    return list(itertools.product(range(target), repeat=players))


if __name__ == "__main__":
    main()
