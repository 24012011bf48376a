"""Backgammon evaluator accuracy: nets against a teacher's values of held-out positions.

    python benchmarks/accuracy_backgammon.py TARGETS [WEIGHTS ...]

TARGETS is a ``.npz`` with ``boards`` and ``targets`` (as ``supervised.py`` writes
them, or several of its ``targets-NNNN.npz`` given as a folder). Each WEIGHTS file
(default: the shipped net) is run at 0-ply on every position and compared with the
teacher: mean squared error per output, mean absolute error of the win probability
and of the cubeless money equity. Prints one line per net.
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", type=Path)
    parser.add_argument("weights", nargs="*", default=[None])
    args = parser.parse_args()
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
