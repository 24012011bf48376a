"""Backgammon move filter: what re-admitting filtered-out plays changes, judged by gnubg.

    python benchmarks/filter_backgammon.py [--positions 400] [--seed 1] [--old expert]
                                           [--new expert-readmit] [--gnubg-plies 2]
                                           [--new-budget N]

Positions come from seeded 0-ply self-play games (every decision with a choice,
bear-offs left out since the databases decide those). Each is decided by level
``--old`` and by level ``--new``; where the two choose different plays, GNU
Backgammon (``/usr/games/gnubg``, cubeless, ``--gnubg-plies`` deep) values both
resulting positions, and the difference in its cubeless win probability is the
new level's gain on that decision. Prints how many decisions changed, the mean gain
per changed decision and per decision with 95% intervals, how many got worse, and
each level's decision time (mean and slowest). Also prints the issue's position
``ttsACgPbzg0AIA`` 6-4 with both levels' choices.

``--new-budget N`` gives the new level a cap of N evaluated positions on its 2-ply
stage (``Settings.budget``; past it the 1-ply values decide): with ``--new expert``
it measures what a smaller cap costs the expert, and how much time it saves. Each
decision is timed in wall-clock and CPU seconds after both bots have warmed up.
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

GNUBG = "/usr/games/gnubg"

_SCRIPT = """
import sys
for c in ("set player 0 human", "set player 1 human", "new session", "new game"):
    gnubg.command(c)
ctx = {"cubeful": 0, "plies": PLIES, "deterministic": 1, "prune": 1, "noise": 0.0}
out = sys.__stdout__
for line in sys.stdin:
    v = [int(t) for t in line.split()]
    if not v:
        break
    p = gnubg.evaluate((tuple(v[0:25]), tuple(v[25:50])), gnubg.cubeinfo(), ctx)
    out.write("EVAL " + " ".join(repr(x) for x in p) + "\\n")
    out.flush()
"""


class Gnubg:
    """gnubg's cubeless evaluator on positions after our play (opponent on roll)."""

    def __init__(self, plies: int) -> None:
        self._dir = tempfile.TemporaryDirectory()
        script = Path(self._dir.name) / "eval.py"
        script.write_text(_SCRIPT.replace("PLIES", str(plies)))
        self.proc = subprocess.Popen(
            [GNUBG, "-t", "-q", "-r", "-p", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def win(self, after: Any) -> float:
        """Our cubeless win probability after our play (``after``: we are row 0)."""
        if after[0, 0] == 15:
            return 1.0
        assert self.proc.stdin is not None and self.proc.stdout is not None
        mine, theirs = after[0].tolist(), after[1].tolist()
        # gnubg's board: (the side not on roll, the side on roll), points 1..24 and bar
        self.proc.stdin.write(" ".join(map(str, [*mine[1:26], *theirs[1:26]])) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("gnubg stopped")
            if line.startswith("EVAL"):
                return 1.0 - float(line.split()[1])

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self._dir.cleanup()


def sample_positions(count: int, seed: int) -> list[tuple[Any, int, int]]:
    """Decisions with a choice from seeded 0-ply self-play, bear-offs left out."""
    from dicehall.bots.backgammon import Bot
    from dicehall.games.backgammon.fast import outcome, plays, swap

    bot = Bot("medium")
    rng = np.random.default_rng(seed)
    out: list[tuple[Any, int, int]] = []
    while len(out) < count:
        board = np.zeros((2, 26), dtype=np.int8)
        board[:, 24], board[:, 13], board[:, 8], board[:, 6] = 2, 5, 3, 5
        while True:
            a, b = (int(x) for x in rng.integers(1, 7, size=2))
            d1, d2 = max(a, b), min(a, b)
            n, _, boards, _ = plays(board, d1, d2)
            home = bool((board[:, 7:] == 0).all())  # both home: the databases decide
            if n > 1 and not home:
                out.append((board.copy(), d1, d2))
            i = bot.choose(board, d1, d2) if n > 1 else 0
            after = boards[i]
            if outcome(after[0], after[1]):
                break
            board = swap(after)
    return out[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--old", default="expert")
    parser.add_argument("--new", default="expert-readmit")
    parser.add_argument("--gnubg-plies", type=int, default=2)
    parser.add_argument("--new-budget", type=int, default=None, help="the new level's cap")
    args = parser.parse_args()
    from dataclasses import replace

    from dicehall.bots.backgammon import Bot
    from dicehall.games.backgammon.fast import plays, to_array
    from dicehall.games.backgammon.notation import decode_position_id, format_play

    old, new = Bot(args.old), Bot(args.new)
    new_name = args.new
    if args.new_budget is not None:
        new.settings = replace(new.settings, budget=args.new_budget)
        new_name = f"{args.new} (budget {args.new_budget:,})"
    board = decode_position_id("ttsACgPbzg0AIA")
    arr = to_array(board)
    _, _, _, steps = plays(arr, 6, 4)
    for name, bot in ((args.old, old), (new_name, new)):  # also warms both up
        i = bot.choose(arr, 6, 4)
        text = format_play(board, [tuple(s) for s in steps[i].tolist() if s[0] != s[1]])
        print(f"ttsACgPbzg0AIA 6-4: {name} plays {text}")
    if not shutil.which(GNUBG):
        print(f"skipped: {GNUBG} is not installed")
        return
    positions = sample_positions(args.positions, args.seed)
    gnubg = Gnubg(args.gnubg_plies)
    names = (args.old, new_name)
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    gains: list[float] = []
    try:
        for board, d1, d2 in positions:
            picks = []
            for name, bot in zip(names, (old, new), strict=True):
                started, cpu_started = time.perf_counter(), time.process_time()
                picks.append(bot.choose(board, d1, d2))
                times[name].append(time.perf_counter() - started)
                cpu[name].append(time.process_time() - cpu_started)
            if picks[0] != picks[1]:
                _, _, boards, _ = plays(board, d1, d2)
                gains.append(gnubg.win(boards[picks[1]]) - gnubg.win(boards[picks[0]]))
    finally:
        gnubg.close()
    n = len(positions)
    g = np.array(gains)
    print(f"{n} positions from 0-ply self-play (seed {args.seed}), bear-offs left out")
    print(f"  {new_name} chooses differently from {args.old} in {len(g)} ({100 * len(g) / n:.1f}%)")
    if len(g):
        ci = 1.96 * float(g.std(ddof=1)) / math.sqrt(len(g)) if len(g) > 1 else float("nan")
        print(
            f"  gnubg {args.gnubg_plies}-ply win probability gained where they differ: "
            f"{100 * g.mean():+.2f} +- {100 * ci:.2f} points; better {int((g > 0).sum())}, "
            f"worse {int((g < 0).sum())}, equal {int((g == 0).sum())}"
        )
        per = g.sum() / n
        print(f"  per decision: {100 * per:+.3f} points of win probability")
    for name, t in times.items():
        c = cpu[name]
        print(
            f"  {name}: mean {1000 * np.mean(t):.1f} ms, slowest {max(t):.2f} s per decision"
            f" (CPU: mean {1000 * np.mean(c):.1f} ms, slowest {max(c):.2f} s)"
        )


if __name__ == "__main__":
    sys.exit(main())
