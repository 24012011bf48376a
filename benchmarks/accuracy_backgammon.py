"""Backgammon evaluator accuracy: nets against a teacher's values of held-out positions.

    python benchmarks/accuracy_backgammon.py TARGETS [WEIGHTS ...]

TARGETS is a ``.npz`` with ``boards`` and ``targets`` (as ``supervised.py`` writes
them, or several of its ``targets-NNNN.npz`` given as a folder). Each WEIGHTS file
(default: the shipped net) is run at 0-ply on every position and compared with the
teacher: mean squared error per output, mean absolute error of the win probability
and of the cubeless money equity. Prints one line per net.

    python benchmarks/accuracy_backgammon.py --choices N [--seed 1] [--gnubg-plies 2]
        [--gnubg-procs 4] WEIGHTS_A WEIGHTS_B

``--choices N`` compares two nets' *moves* instead, judged by gnubg: N contact
decisions (a board, a roll, more than one play) from seeded 0-ply self-play of net
A (a tenth of the plays random, so not only its own kind of positions);
each net picks its 0-ply play (single-game scoring, as ``0ply`` plays in
``strength_backgammon.py``); where they differ, gnubg (cubeless, ``--gnubg-plies``)
values both resulting positions. Prints how many decisions differ and B's mean gain
in gnubg's win probability over A's, per differing decision and per decision, with
95% intervals: a paired measure of 0-ply play far more sensitive than games (where
the dice decide most results).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np


def load_targets(path: Path) -> tuple[Any, Any]:
    files = sorted(path.glob("targets-*.npz")) if path.is_dir() else [path]
    if not files:
        sys.exit(f"{path}: no targets-NNNN.npz files")
    boards, targets = [], []
    for f in files:
        with np.load(f) as z:
            boards.append(z["boards"])
            targets.append(z["targets"])
    return np.concatenate(boards), np.concatenate(targets)


def money(p: Any) -> Any:
    return 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def decisions(count: int, seed: int, weights: str | None) -> list[tuple[Any, int, int]]:
    """Contact decisions with a choice from seeded self-play of the net in ``weights``."""
    from dicehall.bots.backgammon.features import is_race
    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.search import choose_0ply
    from dicehall.games.backgammon.fast import outcome, plays, start_board, swap

    params = Network.load(weights).params()
    rng = np.random.default_rng(seed)
    out: list[tuple[Any, int, int]] = []
    board = start_board()
    while len(out) < count:
        a, b = (int(x) for x in rng.integers(1, 7, size=2))
        d1, d2 = max(a, b), min(a, b)
        n, _, boards, _ = plays(board, d1, d2)
        if n > 1 and not is_race(board):
            out.append((board.copy(), d1, d2))
        if rng.random() < 0.1:
            i = int(rng.integers(n))
        else:
            i = choose_0ply(board, d1, d2, *params, True)
        after = boards[i]
        board = start_board() if outcome(after[0], after[1]) or is_race(after) else swap(after)
    return out


def choices(args: argparse.Namespace) -> None:
    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.search import choose_0ply
    from dicehall.bots.backgammon.supervised import GnubgTeacher, label_chunk
    from dicehall.games.backgammon.fast import plays

    if len(args.weights) != 2 or None in args.weights:
        sys.exit("--choices compares two weight files: WEIGHTS_A WEIGHTS_B")
    nets = [Network.load(w).params() for w in args.weights]
    pairs = []
    for board, d1, d2 in decisions(args.choices, args.seed, args.weights[0]):
        ia, ib = (choose_0ply(board, d1, d2, *p, True) for p in nets)
        if ia != ib:
            _, _, boards, _ = plays(board, d1, d2)
            pairs.append((boards[ia].copy(), boards[ib].copy()))
    print(f"{args.choices} decisions (seed {args.seed}): {len(pairs)} differ")
    if not pairs:
        return
    teachers = [GnubgTeacher(args.gnubg_plies) for _ in range(args.gnubg_procs)]
    try:
        both = np.array([b for pair in pairs for b in pair])
        values = label_chunk(both, teachers)
    finally:
        for t in teachers:
            t.close()
    gain = values[1::2, 0] - values[0::2, 0]  # B's win probability minus A's
    m, half = gain.mean(), 1.96 * gain.std(ddof=1) / math.sqrt(len(gain)) if len(gain) > 1 else 0
    print(f"  gnubg {args.gnubg_plies}-ply: B - A win probability per differing decision")
    share = len(gain) / args.choices
    print(f"  {100 * m:+.3f} +- {100 * half:.3f} points; per decision", end="")
    print(f" {100 * m * share:+.4f} +- {100 * half * share:.4f}")
    print(f"  B better in {int((gain > 0).sum())}, worse in {int((gain < 0).sum())}")
    for name, w in zip("AB", args.weights, strict=True):
        print(f"  {name}: {w}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", type=Path, nargs="?")
    parser.add_argument("weights", nargs="*", default=[None])
    parser.add_argument("--choices", type=int, default=0, help="compare two nets' moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gnubg-plies", type=int, default=2)
    parser.add_argument("--gnubg-procs", type=int, default=4)
    args = parser.parse_args()
    if args.choices:
        # with --choices the positional arguments are the two weight files
        args.weights = [str(args.targets), *args.weights] if args.targets else []
        args.weights = [w for w in args.weights if w is not None]
        return choices(args)
    if args.targets is None:
        parser.error("TARGETS is required")
    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.search import rank_0ply

    boards, targets = load_targets(args.targets)
    print(f"{boards.shape[0]} positions from {args.targets}")
    for w in args.weights:
        net = Network.load(w)
        y = rank_0ply(boards, boards.shape[0], *net.params(), True)
        mse = float(((y - targets) ** 2).mean())
        win = float(np.abs(y[:, 0] - targets[:, 0]).mean())
        eq = float(np.abs(money(y) - money(targets)).mean())
        name = w or "shipped"
        print(f"  {name}: hidden {net.hidden}, mse {mse:.5f}, win mae {win:.4f}", end="")
        print(f", equity mae {eq:.4f}")


if __name__ == "__main__":
    sys.exit(main())
