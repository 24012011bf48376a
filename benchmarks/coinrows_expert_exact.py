"""How often the Coin Rows bots choose worse than perfect play, on exactly solved
variants (prints the figures).

    python benchmarks/coinrows_expert_exact.py [--purses 5 6 7 8] [--games 20]
                                               [--levels greedy expert] [--seed 1]

For each purse (``leaving=false``, ``capture=row``; the table comes from the cache or
is solved first, see benchmarks/coinrows_solve.py) each level plays ``--games`` games
against itself, seats alternating, dice from ``--seed``. At every decision with more
than one legal action the exact values of all actions are read from the solution: a
choice is an error when its value is below the best by more than 1e-9, and the loss is
the difference in expected result (+1 win, -1 loss). Printed per level and purse:
decisions, errors (rate, in Phase A and in moves), the mean loss per decision, and the
largest single loss.
"""

from __future__ import annotations

import argparse
import time

from dicehall import load_game
from dicehall.bots.coinrows import Bot
from dicehall.bots.coinrows.solver import action_values, load_or_solve
from dicehall.core import SeededDice, resolve_chance
from dicehall.games.coinrows import Phase


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--purses", type=int, nargs="+", default=[5, 6, 7, 8])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--levels", nargs="+", default=["greedy", "expert"])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for purse in args.purses:
        sol = load_or_solve(purse, False)
        game = load_game("coinrows", purse=purse, leaving=False)
        for level in args.levels:
            start = time.time()
            decisions = errors = errors_a = errors_b = 0
            loss = worst = 0.0
            for g in range(args.games):
                bots = [Bot(level, seed=args.seed + 2 * g), Bot(level, seed=args.seed + 2 * g + 1)]
                dice = SeededDice(args.seed * 7919 + g)
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state = state.apply(resolve_chance(state, dice))
                        continue
                    action = bots[state.current_player()].act(state)
                    if len(state.legal_actions()) > 1:
                        values = dict(
                            (state.action_to_text(a), v) for a, v in action_values(sol, state)
                        )
                        best = max(values.values())
                        gap = best - values[state.action_to_text(action)]
                        decisions += 1
                        if gap > 1e-9:
                            errors += 1
                            errors_a += state.phase is Phase.A
                            errors_b += state.phase is Phase.B
                            loss += gap
                            worst = max(worst, gap)
                    state = state.apply(action)
            print(
                f"purse {purse} {level}: {decisions} decisions in {args.games} games, "
                f"{errors} errors ({errors / max(decisions, 1):.1%}; {errors_a} in Phase A, "
                f"{errors_b} moves), mean loss {loss / max(decisions, 1):.4f} per decision, "
                f"largest {worst:.3f} ({time.time() - start:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
