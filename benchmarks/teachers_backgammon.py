"""Backgammon teachers compared: how close each one's values are to a reference's.

    python benchmarks/teachers_backgammon.py [--positions 2000] [--procs 2]
        [--net WEIGHTS] [--reference benchmarks/results/backgammon_holdout_gnubg2ply.npz]

The supervised fit (``dicehall.bots.backgammon.supervised``) learns whatever its teacher
says, errors included, so the teacher decides how good the net can get. This values the
first ``--positions`` boards of the reference set (by default 8,000 contact positions
valued by gnubg 2-ply, cubeless) by every teacher at hand:

* our own search with ``--net`` (default: the shipped net) at 0, 1 and 2 plies, and at
  1 and 2 plies again with the pruning net choosing the plays of its inner rolls
  (``--prune``, default 6; 0 leaves these rows out);
* gnubg at 0 and 1 ply (when ``/usr/games/gnubg`` is installed);
* the blends of our 2-ply with gnubg 1-ply at 30%, 50% and 70%.

It prints, for each, the mean absolute error of the win probability (points) and of
the cubeless money equity against the reference, and the time it took. The reference
shares gnubg's net, so it favours gnubg's own lower depths: a teacher of ours that
matches them by this measure is at least as good. Two teachers whose errors are
independent average to one better than either.
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).parent
REFERENCE = HERE / "results" / "backgammon_holdout_gnubg2ply.npz"


def money(p: Any) -> Any:
    return 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def errors(values: Any, reference: Any) -> tuple[float, float]:
    """Mean absolute error of the win probability (points) and of the money equity."""
    win = 100.0 * float(np.abs(values[:, 0] - reference[:, 0]).mean())
    return win, float(np.abs(money(values) - money(reference)).mean())


def ours(boards: Any, plies: int, net: str | None, procs: int, prune: int = 0) -> Any:
    """Our search's values of ``boards`` at ``plies``, as ``supervised --teacher self``
    (``--teacher-prune prune``)."""
    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.rollout import _weights_bytes, run_tasks
    from dicehall.bots.backgammon.supervised import SELF_SHARE, _self_label_task

    weights = _weights_bytes(Network.load(net))
    jobs = [
        (boards[s : s + SELF_SHARE], plies, weights, prune)
        for s in range(0, len(boards), SELF_SHARE)
    ]
    _self_label_task((boards[:1], plies, weights, prune))  # compiled before the processes fork
    return np.concatenate(run_tasks(_self_label_task, jobs, procs, None))


def gnubg(boards: Any, plies: int, procs: int) -> Any:
    from dicehall.bots.backgammon.supervised import GnubgTeacher, label_chunk

    teachers = [GnubgTeacher(plies) for _ in range(max(1, procs))]
    try:
        return label_chunk(boards, teachers)
    finally:
        for t in teachers:
            t.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--net", default=None, help="our teacher's weights (default: shipped)")
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    parser.add_argument(
        "--prune", type=int, default=6, help="our 1- and 2-ply again with the pruning net (0: not)"
    )
    args = parser.parse_args()
    if args.positions < 1 or args.procs < 1:
        parser.error("--positions and --procs must be >= 1")
    with np.load(args.reference) as f:
        boards = f["boards"][: args.positions]
        reference = f["targets"][: args.positions].astype(np.float64)
    print(f"{len(boards)} positions of {args.reference}; errors against its values")
    print(f"{'teacher':<28} {'win MAE (points)':>17} {'equity MAE':>11} {'seconds':>8}")
    found: dict[str, Any] = {}

    def show(name: str, values: Any, seconds: float) -> None:
        found[name] = values
        win, eq = errors(values, reference)
        print(f"{name:<28} {win:>17.3f} {eq:>11.4f} {seconds:>8.1f}", flush=True)

    for plies in (0, 1, 2):
        start = time.perf_counter()
        values = ours(boards, plies, args.net, args.procs)
        show(f"dicehall {plies}-ply", values, time.perf_counter() - start)
    for plies in (1, 2) if args.prune > 0 else ():
        start = time.perf_counter()
        values = ours(boards, plies, args.net, args.procs, args.prune)
        show(f"dicehall {plies}-ply pruned {args.prune}", values, time.perf_counter() - start)
    if shutil.which("/usr/games/gnubg"):
        for plies in (0, 1):
            start = time.perf_counter()
            show(
                f"gnubg {plies}-ply", gnubg(boards, plies, args.procs), time.perf_counter() - start
            )
        for share in (0.3, 0.5, 0.7):
            mix = share * found["dicehall 2-ply"] + (1.0 - share) * found["gnubg 1-ply"]
            show(f"{share:g} dicehall 2 + gnubg 1", mix, 0.0)
        if args.prune > 0:
            mix = 0.5 * found[f"dicehall 2-ply pruned {args.prune}"] + 0.5 * found["gnubg 1-ply"]
            show("0.5 dicehall 2 pruned + gnubg 1", mix, 0.0)
    else:
        print("gnubg is not installed (apt-get install gnubg): its rows are left out")


if __name__ == "__main__":
    main()
