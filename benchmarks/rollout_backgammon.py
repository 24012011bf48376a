"""Rollouts with and without the pruning net: speed and agreement, in one run.

    python benchmarks/rollout_backgammon.py [--positions 12] [--trials 648] [--prune 6]
        [--seed 1] [--truncate 0]

The positions are after-positions of the shipped net's 0-ply self-play (seed
``--seed``, every fourth contact decision). Each is rolled out twice with the same
dice streams (``rollout.rollout_many``, variance reduction on, win-only equity, one
process): every play of each roll valued (``prune`` 0), then only the ``--prune``
plays the pruning net ranks best. Prints per position both equities, their
difference in units of the unpruned standard error, and in the end the CPU seconds
(``time.process_time``) and trials per CPU second of each. The same dice and the same
policy but for the plays the pruner drops: the two should agree within noise.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np


def positions(count: int, seed: int) -> list[np.ndarray]:
    """``count`` contact after-positions from seeded 0-ply self-play."""
    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.supervised import sample_positions

    boards = sample_positions(count * 4, seed, 0.0, *Network.load().params())
    return [boards[i].copy() for i in range(0, count * 4, 4)]


def main() -> None:
    from dicehall.bots.backgammon.rollout import rollout_many

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--trials", type=int, default=648)
    ap.add_argument("--prune", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--truncate", type=int, default=0)
    args = ap.parse_args()
    starts = positions(args.positions, args.seed)
    rollout_many(starts[:1], trials=36, prune=args.prune)  # compile both paths first
    rollout_many(starts[:1], trials=36)
    runs, cpu = {}, {}
    for cut in (0, args.prune):
        t0 = time.process_time()
        runs[cut] = rollout_many(starts, trials=args.trials, truncate=args.truncate, prune=cut)
        cpu[cut] = time.process_time() - t0
    print(f"{args.positions} positions, {args.trials} trials each, seed {args.seed}")
    print(f"{'#':>3} {'equity':>8} {'s.e.':>6} {'pruned':>8} {'s.e.':>6} {'diff/s.e.':>9}")
    zs = []
    for k, (a, b) in enumerate(zip(runs[0], runs[args.prune], strict=True)):
        z = (b.equity - a.equity) / a.stderr if a.stderr > 0 else 0.0
        zs.append(z)
        print(f"{k:>3} {a.equity:+8.3f} {a.stderr:6.3f} {b.equity:+8.3f} {b.stderr:6.3f} {z:+9.2f}")
    total = args.positions * args.trials
    for cut in (0, args.prune):
        print(f"prune {cut}: {cpu[cut]:.1f} CPU s, {total / cpu[cut]:.0f} trials per CPU second")
    rms = math.sqrt(sum(z * z for z in zs) / len(zs))
    print(f"speed-up {cpu[0] / cpu[args.prune]:.2f}x; rms diff/s.e. {rms:.2f}")


if __name__ == "__main__":
    main()
