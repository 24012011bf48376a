"""White Die figures, computed exactly (and one measured): run

    python benchmarks/whitedie_figures.py [--games 16000] [--seed 1] [--free-choices true|false]

``--free-choices`` is the game's option (default true, the default game: the player
arranges Pips and decides the claim; its shipped table is the one used). The figures of
``false`` are the game where the best square and the claim are taken for him.

Prints
* the exact expected score of each challenge under optimal play and without skill
  (standing pat; for matching, blind rerolls),
* how the white die matters: the chance of each outcome per roll and per turn, and
  what each first white die is worth to the starting player,
* the exact expected length of a two-player game with perfect play and the first
  player's exact winning chance,
* the exact winning chance of ``perfect`` against ``greedy``, and a measured one over
  ``--games`` games with the real bots (95% confidence interval),
* how long a bot decision takes.

The figures are published in docs/rules/whitedie.md.
"""

from __future__ import annotations

import os

# small matrices: several BLAS threads only fight each other (and other work)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import math
import time
from fractions import Fraction

import numpy as np

from dicehall import Match, load_game
from dicehall.bots.whitedie import Bot, matching, reroll
from dicehall.bots.whitedie.dice import FOUR_PROB, FOUR_WAYS
from dicehall.bots.whitedie.solved import winprob_table
from dicehall.bots.whitedie.tables import load_tables
from dicehall.bots.whitedie.winprob import (
    TurnModel,
    evaluate,
    expected_counts,
    greedy_policy,
    perfect_policy,
    utility_for,
)

TARGET = 21
CHART = "standard"


def frac(x: Fraction) -> str:
    return f"{float(x):.4f} (= {x.numerator}/{x.denominator})"


def challenge_figures() -> None:
    print("## Expected score of each challenge (exact)")
    print(f"{'challenge':<12} {'optimal play':>38} {'without skill':>38}")
    names = {2: "Poker", 5: "Pips", 6: "Sixes"}
    for white in (2, 3, 4, 5, 6):
        if white in names:
            best = reroll.expected_score(white, CHART)
            stand = reroll.expected_score(white, CHART, optimal=False)
            print(f"{names[white]:<12} {frac(best):>38} {frac(stand):>38}  (standing pat)")
        elif white == 4:
            best = matching.expected_score()
            blind = matching.no_choice_score()
            print(f"{'Matching':<12} {frac(best):>38} {frac(blind):>38}  (blind rerolls)")
        else:
            table = load_tables().tictactoe
            best = Fraction(int(FOUR_WAYS @ table @ FOUR_WAYS), 1296**2)
            print(f"{'Tic-tac-toe':<12} {frac(best):>38} {'(both sides play minimax)':>38}")


def white_die_figures(win: np.ndarray, free: bool) -> None:
    print("\n## The white die")
    print("per roll: each face 1/6. per turn: a player leading or tied loses the turn with")
    print("probability 1/6 and plays each challenge with 1/6; a trailing player rerolls a")
    print("white 1, so he plays each challenge with probability 1/5 and never loses the turn.")
    model = TurnModel(CHART, load_tables(), free=free)
    u = utility_for(win, TARGET, 0, 0)
    print("\nwinning chance of the starting player (perfect play) after his first white die:")
    print(f"  white 1 (turn over, 0-0): {1 - win[0, 0]:.4f}")
    from dicehall.bots.whitedie.winprob import matching_distribution, reroll_distribution

    for white in (2, 3, 4, 5, 6):
        if white in (2, 5, 6):
            dist = reroll_distribution(white, u, CHART, free)
        elif white == 4:
            dist = matching_distribution(u, u, model.tables.matching)
        else:
            table = model.tables.tictactoe
            dist = np.bincount(table.ravel(), np.outer(FOUR_PROB, FOUR_PROB).ravel(), minlength=13)
        value = float(dist @ u)
        print(f"  white {white}: {value:.4f}   (expected points {float(dist @ np.arange(13)):.3f})")


def game_figures(win: np.ndarray, free: bool) -> tuple[float, float]:
    print("\n## Two-player games (exact)")
    perfect = perfect_policy(win, TARGET)
    greedy = greedy_policy(TARGET)
    t0 = time.time()
    counts = expected_counts(perfect, perfect, TARGET, CHART, free=free)
    turns = counts["turns"]
    print(f"first player's winning chance, perfect against perfect: {win[0, 0]:.6f}")
    print(
        f"expected length, perfect against perfect: {turns:.2f} turns, "
        f"{counts['rolls']:.2f} rolls of all five"
    )
    print(
        "expected per game: "
        + ", ".join(f"{k} {v:.2f}" for k, v in counts.items() if k not in ("rolls", "turns"))
    )
    e_pg = evaluate(perfect, greedy, TARGET, CHART, free=free)
    e_gp = evaluate(greedy, perfect, TARGET, CHART, free=free)
    e_gg = evaluate(greedy, greedy, TARGET, CHART, free=free)
    turns_g = expected_counts(greedy, greedy, TARGET, CHART, free=free)["turns"]
    print(f"greedy against greedy: first player wins {e_gg[0, 0]:.4f}; {turns_g:.2f} turns")
    starts = 0.5 * (e_pg[0, 0] + (1 - e_gp[0, 0]))
    print(
        f"perfect against greedy: perfect wins {e_pg[0, 0]:.4f} when it starts, "
        f"{1 - e_gp[0, 0]:.4f} when greedy starts; {starts:.4f} overall (exact)"
    )
    worst = float((e_pg - win).min())
    print(
        f"perfect never does worse than its guarantee: min over scores of "
        f"P(perfect beats greedy) - P(perfect vs perfect) = {worst:+.2e}"
    )
    print(f"[exact figures in {time.time() - t0:.0f} s]")
    return starts, turns


def simulate(games: int, seed: int, exact: float, free: bool) -> None:
    print(f"\n## perfect against greedy, {games} games")
    print("(in pairs: the same dice twice, seats swapped; the interval is over the pairs)")
    game = load_game("whitedie", free_choices=free)
    perfect, greedy = Bot("perfect", seed=seed), Bot("greedy", seed=seed + 1)
    wins = 0
    lengths: list[int] = []
    results: list[bool] = []
    decision_times: list[float] = []
    t0 = time.time()
    for i in range(games):
        agents = [perfect, greedy] if i % 2 == 0 else [greedy, perfect]
        match = Match(game, agents, seed=seed * 1_000_003 + i // 2)
        turns = 0
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance_node():
                match.roll()
            else:
                start = time.perf_counter()
                match.step()
                decision_times.append(time.perf_counter() - start)
            after = match.state
            # a turn ends when the turn passes on or the game ends
            if state.phase != "start" and (  # type: ignore[attr-defined]
                after.is_terminal() or after.turn != state.turn  # type: ignore[attr-defined]
            ):
                turns += 1
        lengths.append(turns)
        winner = match.state.winner  # type: ignore[attr-defined]
        won = winner == (0 if i % 2 == 0 else 1)
        wins += won
        results.append(won)
    # each pair shares its dice: the pair averages are independent
    pairs = np.array(results[: len(results) // 2 * 2], dtype=float).reshape(-1, 2).mean(axis=1)
    p = wins / games
    half = 1.96 * float(pairs.std(ddof=1)) / math.sqrt(len(pairs))
    print(
        f"perfect won {wins}/{games} = {p:.4f} ± {half:.4f} (95% CI "
        f"[{p - half:.4f}, {p + half:.4f}]); exact {exact:.4f}"
    )
    print(f"mean game length {np.mean(lengths):.2f} turns")
    times = np.array(decision_times) * 1000
    print(
        f"decisions: {len(times)}, mean {times.mean():.2f} ms, 99th percentile "
        f"{np.percentile(times, 99):.1f} ms, max {times.max():.1f} ms "
        f"({time.time() - t0:.0f} s in all)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=16000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--free-choices", choices=("true", "false"), default="true")
    args = parser.parse_args()
    free = args.free_choices == "true"
    print(f"two players, target {TARGET}, {CHART} chart, free_choices={args.free_choices}")
    win = winprob_table(TARGET, CHART, free)
    challenge_figures()
    white_die_figures(win, free)
    exact, _ = game_figures(win, free)
    if args.games:
        simulate(args.games, args.seed, exact, free)


if __name__ == "__main__":
    main()
