"""Games per second through the public protocol, for every game.

    python benchmarks/speed_protocol.py [--seconds 5] [--seed 1] [--only coinrows ...]

Plays whole games with uniformly random decisions through ``legal_actions()`` and
``apply()`` only, the dice rolled as fair dice through ``chance_dice()`` and
``outcome_from_dice()`` (so each chance outcome comes with its exact probability),
and prints games/s and actions/s per CPU-second (``time.process_time``) for:

* backgammon;
* Coin Rows with the default rules and with ``leaving=false`` (random players who
  may leave end most games within a few actions);
* White Die with 2 and with 4 players.

Each line plays for about ``--seconds`` of CPU time (at least 3 games).
"""

from __future__ import annotations

import argparse
import random
import time
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
    args = parser.parse_args()
    print("random games through legal_actions()/apply(), per CPU-second")
    for name, options in CASES:
        if args.only and name not in args.only:
            continue
        games, actions = measure(name, options, args.seconds, args.seed)
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"  {label:32} {games:10,.1f} games/s {actions:12,.0f} actions/s", flush=True)


if __name__ == "__main__":
    main()
