"""Strength of the Coin Rows bot, measured in the arena (prints the figures).

    python benchmarks/arena_coinrows.py [--games 100] [--workers 2] [--seed 7]

Plays, each with seats alternated:
  1. expert vs random with leaving=false (the random player cannot leave a level game);
  2. expert vs greedy under the default rules;
  3. expert vs random under the default rules (mostly draws: see docs/bots/coinrows.md);
and the time the expert takes per decision on positions from random games.
"""

from __future__ import annotations

import argparse
import time

from dicehall.arena import run_arena
from dicehall.arena.summary import ArenaSummary
from dicehall.bots import RandomBot
from dicehall.bots.coinrows import Bot
from dicehall.core import SeededDice, load_game, resolve_chance

PAIRINGS = [
    ("bot:expert", "random", {"leaving": False}),
    ("bot:expert", "bot:greedy", {}),
    ("bot:expert", "random", {}),
]


def show(summary: ArenaSummary, options: dict[str, object]) -> None:
    s = summary
    print(
        f"{s.bot_a} vs {s.bot_b} {options or '(default rules)'}: "
        f"{s.wins}/{s.draws}/{s.losses} (W/D/L of {s.games}); "
        f"wins {s.wins / s.games:.1%}; score {s.score.mean:.3f} "
        f"[{s.score.low:.3f}, {s.score.high:.3f}]; Elo {s.elo:+.0f} "
        f"[{s.elo_low:+.0f}, {s.elo_high:+.0f}]; {s.decisions_per_second:.0f} decisions/s; "
        f"{s.seconds:.0f} s"
    )


def decision_times(positions: int = 120) -> None:
    game = load_game("coinrows", leaving=False)
    states = []
    seed = 0
    while len(states) < positions:
        state, dice, rnd = game.new_initial_state(), SeededDice(seed), RandomBot(seed=seed)
        while not state.is_terminal() and len(states) < positions:
            if state.is_chance_node():
                state = state.apply(resolve_chance(state, dice))
                continue
            if len(state.legal_actions()) > 1:
                states.append(state)
            state = state.apply(rnd.act(state))
        seed += 1
    bot = Bot("expert", seed=1)
    times = []
    for state in states:
        start = time.perf_counter()
        bot.act(state)
        times.append(time.perf_counter() - start)
    times.sort()
    print(
        f"expert decision time over {len(times)} positions: mean {sum(times) / len(times):.3f} s, "
        f"median {times[len(times) // 2]:.3f} s, 95% {times[int(0.95 * len(times))]:.3f} s, "
        f"max {times[-1]:.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    decision_times()
    for bot_a, bot_b, options in PAIRINGS:
        report = run_arena(
            "coinrows",
            bot_a,
            bot_b,
            args.games,
            seed=args.seed,
            workers=args.workers,
            options=options,
            keep_records=False,
        )
        assert isinstance(report.summary, ArenaSummary)
        show(report.summary, options)


if __name__ == "__main__":
    main()
