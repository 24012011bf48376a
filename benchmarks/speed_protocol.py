"""Games per second through the public protocol, for every game.

    python benchmarks/speed_protocol.py [--seconds 5] [--seed 1] [--only coinrows ...]
                                        [--against SRC [--rounds 4]]

Plays whole games with uniformly random decisions through ``legal_actions()`` and
``apply()`` only, the dice rolled as fair dice through ``chance_dice()`` and
``outcome_from_dice()`` (so each chance outcome comes with its exact probability),
and prints games/s and actions/s per CPU-second (``time.process_time``) for:

* backgammon;
* Coin Rows with the default rules and with ``leaving=false`` (random players who
  may leave end most games within a few actions);
* White Die with 2 and with 4 players.

Each line plays for about ``--seconds`` of CPU time (at least 3 games).

``--against SRC`` measures another tree side by side with this one: ``SRC`` is the
``src`` folder of another checkout (e.g. ``git archive b23af98 src | tar -x -C
/tmp/before`` and ``--against /tmp/before/src``). Each line is measured in a fresh
process per tree, the two trees alternately (which one goes first alternates too),
for ``--rounds`` rounds, and the games/s of both and the ratio this / other of each
round are printed (range and median): on a shared machine the load changes from
minute to minute, so only figures taken in the same minutes compare.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from dicehall import load_game

FACES = range(1, 7)
CASES: list[tuple[str, dict[str, Any]]] = [
    ("backgammon", {}),
    ("coinrows", {}),
    ("coinrows", {"leaving": False}),
    ("whitedie", {}),
    ("whitedie", {"players": 4}),
]


def play(game: Any, rng: random.Random) -> int:
    """One random game through the protocol; returns the number of actions."""
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            faces = rng.choices(FACES, k=state.chance_dice())
            state = state.apply(state.outcome_from_dice(faces))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        actions += 1
    return actions


def measure(name: str, options: dict[str, Any], seconds: float, seed: int) -> tuple[float, float]:
    """(games/s, actions/s) of random games of ``name`` with ``options``."""
    game = load_game(name, **options)
    rng = random.Random(seed)
    play(game, rng)  # warm up (compiles the backgammon kernel once)
    games = actions = 0
    start = time.process_time()
    while games < 3 or time.process_time() - start < seconds:
        actions += play(game, rng)
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only", nargs="+", metavar="GAME", help="measure only these games (default: all)"
    )
    parser.add_argument("--against", type=Path, help="another tree's src folder to compare")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--case", type=int, help=argparse.SUPPRESS)  # one line, for --against
    args = parser.parse_args()
    if args.case is not None:
        name, options = CASES[args.case]
        print(measure(name, options, args.seconds, args.seed)[0])
        return
    if args.against is not None:
        compare(args)
        return
    print("random games through legal_actions()/apply(), per CPU-second")
    for name, options in CASES:
        if args.only and name not in args.only:
            continue
        games, actions = measure(name, options, args.seconds, args.seed)
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"  {label:32} {games:10,.1f} games/s {actions:12,.0f} actions/s", flush=True)


def compare(args: argparse.Namespace) -> None:
    """This tree against ``args.against``, alternately in fresh processes."""
    here = Path(__file__).resolve().parents[1] / "src"
    trees = {"this": here, "other": args.against.resolve()}
    print(f"games/s per CPU-second, this tree ({here}) and the other ({trees['other']}),")
    print(f"{args.rounds} rounds of {args.seconds:g} s each, alternately; ratio = this / other")
    for i, (name, options) in enumerate(CASES):
        if args.only and name not in args.only:
            continue
        rates: dict[str, list[float]] = {"this": [], "other": []}
        for r in range(args.rounds):
            for tree in ("this", "other") if r % 2 == 0 else ("other", "this"):
                env = dict(os.environ, PYTHONPATH=str(trees[tree]))
                cmd = [sys.executable, __file__, "--case", str(i), "--seconds", str(args.seconds)]
                cmd += ["--seed", str(args.seed + r)]
                out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
                rates[tree].append(float(out.stdout.split()[-1]))
        ratios = [a / b for a, b in zip(rates["this"], rates["other"], strict=True)]
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(
            f"  {label:32} this {min(rates['this']):,.1f}-{max(rates['this']):,.1f}  "
            f"other {min(rates['other']):,.1f}-{max(rates['other']):,.1f}  ratio "
            f"{min(ratios):.2f}-{max(ratios):.2f}x, median {statistics.median(ratios):.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
