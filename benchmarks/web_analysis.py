"""How long the browser waits for a hint and for the analysis of a finished game.

Plays seeded games between two bots, then times ``dicehall.server.analysis.analyse`` on each
record (what ``GET /api/games/{id}/analysis`` computes once per game: the quick level at once,
then the deep level of ``DEEP_LEVELS`` in the background) and ``hint`` on every decision of
the first game (``GET /api/games/{id}/hint``). The first call of each also pays for loading
the compiled backgammon search, so it is printed apart.

    python benchmarks/web_analysis.py [--games 3] [--deep-games 1]
"""

from __future__ import annotations

import argparse
import statistics
import time

from dicehall import Match, load_game
from dicehall.bots import make_agent
from dicehall.server.analysis import ANALYSIS_LEVELS, DEEP_LEVELS, LEVELS, analyse, hint

GAMES = {
    "backgammon": ({}, ["bot:beginner", "random"]),
    "coinrows": ({"leaving": False, "turn_limit": 60}, ["bot:greedy", "random"]),
    "whitedie": ({}, ["bot:greedy", "random"]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per game type")
    parser.add_argument(
        "--deep-games", type=int, default=1, help="games analysed at the deep level too"
    )
    args = parser.parse_args()
    print(f"{'game':<11} {'level':<13} {'decisions':>9} {'first s':>8} {'mean s':>8}   hints")
    for name, (options, specs) in GAMES.items():
        game = load_game(name, **options)
        records = [
            Match(
                game, [make_agent(name, s, seed=10 * g + i) for i, s in enumerate(specs)], seed=g
            ).play()
            for g in range(args.games)
        ]
        times, decisions = [], []
        for record in records:
            start = time.perf_counter()
            report = analyse(record)
            times.append(time.perf_counter() - start)
            decisions.append(len(report["decisions"]))
        hints = []
        for state in records[0].states():
            if state.is_terminal() or state.is_chance_node() or len(state.legal_actions()) < 2:
                continue
            start = time.perf_counter()
            try:
                hint(state, name)
            except ValueError:
                continue  # a position without advice (a resignation to answer)
            hints.append(time.perf_counter() - start)
        rest = statistics.mean(times[1:]) if len(times) > 1 else times[0]
        print(
            f"{name:<11} {ANALYSIS_LEVELS[name]:<13} {statistics.mean(decisions):>9.0f} "
            f"{times[0]:>8.2f} {rest:>8.2f}   {len(hints)} at {LEVELS[name]}: first "
            f"{hints[0]:.2f} s, median {statistics.median(hints):.3f} s, max {max(hints):.2f} s"
        )
        deep = DEEP_LEVELS.get(name)
        if deep is not None:
            for record in records[: args.deep_games]:
                start = time.perf_counter()
                report = analyse(record, deep)
                took = time.perf_counter() - start
                print(
                    f"{name:<11} {deep:<13} {len(report['decisions']):>9} {took:>8.2f} "
                    f"{took / max(1, len(report['decisions'])):>8.3f} s a decision (background)"
                )


if __name__ == "__main__":
    main()
