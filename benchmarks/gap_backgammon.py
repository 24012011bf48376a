"""Where our 0-ply play gives away games to GNU Backgammon's 0-ply, by kind of position.

    python benchmarks/gap_backgammon.py [--games 200] [--seed 1] [--weights W.npz]
        [--race-weights R.npz] [--gnubg-plies 2] [--gnubg-procs 2] [--out FILE]

Our 0-ply net and gnubg's 0-ply play seeded games against each other (the mover's own
choice is played, so the positions are those of the strength benchmark's games). At
every decision with a choice, whoever is on roll, both evaluators pick their play; where
the picks differ, gnubg (cubeless, ``--gnubg-plies`` deep) values both resulting
positions, and the difference in its win probability is what our pick gains over
gnubg's (negative: we lose). The decisions are classed by which of our evaluators values
the position after the play: the bear-off databases (both sides home), the race net (no
contact), or the contact net, the last split by whether the mover's pick hits, and by
doubles.

The report gives, per class: decisions, how many differ, our mean gain per decision
with a 95% interval, and the class's share of the total: summed over the decisions of a
game, this is the number of win-probability points a game our 0-ply is worth against
gnubg's 0-ply, by class (single-game scoring, as ``strength_backgammon.py`` plays it).
gnubg's deeper values are the judge, so the figure is as good as gnubg N-ply is: a
measure of where to look, finer than games (which the dice decide) but not a substitute
for them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength_backgammon import GNUBG, GnubgPlayer, load_nets


def classify(after: Any, before: Any) -> str:
    """The evaluator of ours that values ``after`` (the mover in row 0), and, in
    contact, whether the play hit (the opponent has more checkers on the bar)."""
    from dicehall.bots.backgammon.features import is_race

    if (after[:, 7:] == 0).all():
        return "bear-off databases"
    if is_race(after):
        return "race net"
    hit = after[1, 25] > before[1, 25]
    return "contact net, hitting" if hit else "contact net, no hit"


def play_and_collect(
    games: int, seed: int, weights: str | None, race: str | None = None
) -> tuple[list[tuple[Any, Any, str, bool]], dict[tuple[str, bool], int]]:
    """Seeded games of our 0-ply against gnubg 0-ply: the decisions where they differ
    as ``(our after, gnubg's after, class, doubles)``, and the number of decisions of
    each ``(class, doubles)``."""
    from dicehall.bots.backgammon.search import choose_0ply
    from dicehall.games.backgammon.fast import outcome, plays, start_board, swap

    params = load_nets(weights, race).params()
    gnubg = GnubgPlayer(0)
    rng = np.random.default_rng(seed)
    differ: list[tuple[Any, Any, str, bool]] = []
    counts: dict[tuple[str, bool], int] = defaultdict(int)
    total = 0
    try:
        for game in range(games):
            board = start_board()
            ours_on_roll = game % 2 == 0
            while True:
                a, b = (int(x) for x in rng.integers(1, 7, size=2))
                d1, d2 = max(a, b), min(a, b)
                n, _, boards, _ = plays(board, d1, d2)
                if n > 1:
                    mine = int(choose_0ply(board, d1, d2, *params, True))
                    theirs = gnubg.choose(board, d1, d2, True)
                    cls = classify(boards[mine], board)
                    counts[(cls, d1 == d2)] += 1
                    total += 1
                    if mine != theirs:
                        differ.append((boards[mine].copy(), boards[theirs].copy(), cls, d1 == d2))
                    i = mine if ours_on_roll else theirs
                else:
                    i = 0
                after = boards[i]
                if outcome(after[0], after[1]):
                    break
                board = swap(after)
                ours_on_roll = not ours_on_roll
            if (game + 1) % 20 == 0:
                print(f"  {game + 1} games, {total} decisions, {len(differ)} differ", flush=True)
    finally:
        gnubg.close()
    return differ, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", default=None, help="contact net (default: shipped)")
    parser.add_argument("--race-weights", default=None, help="race net (default: shipped)")
    parser.add_argument("--gnubg-plies", type=int, default=2)
    parser.add_argument("--gnubg-procs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="the report as JSON")
    args = parser.parse_args()
    import shutil

    if not shutil.which(GNUBG):
        print(f"{GNUBG} is not installed (apt-get install gnubg): nothing to compare")
        return
    from dicehall.bots.backgammon.supervised import GnubgTeacher, label_chunk

    differ, counts = play_and_collect(args.games, args.seed, args.weights, args.race_weights)
    total = sum(counts.values())
    teachers = [GnubgTeacher(args.gnubg_plies) for _ in range(args.gnubg_procs)]
    try:
        both = np.array([b for d in differ for b in d[:2]])
        values = label_chunk(both, teachers) if len(both) else np.zeros((0, 5))
    finally:
        for t in teachers:
            t.close()
    gain = values[0::2, 0] - values[1::2, 0]  # ours minus gnubg's, gnubg N-ply win prob
    per_game = total / args.games
    print(
        f"our 0-ply (contact {args.weights or 'shipped'}, race {args.race_weights or 'shipped'})"
        f" against gnubg 0-ply: {args.games} games, "
        f"{total} decisions with a choice ({per_game:.1f} a game), {len(differ)} differ; "
        f"judged by gnubg {args.gnubg_plies}-ply (win probability, points)"
    )
    print(
        f"{'class':<24} {'doubles':>7} {'decisions':>9} {'differ':>6} "
        f"{'gain/decision':>18} {'points/game':>11}"
    )
    report = []
    groups: dict[tuple[str, bool], list[float]] = defaultdict(list)
    for (_, _, cls, dbl), g in zip(differ, gain, strict=True):
        groups[(cls, dbl)].append(float(g))
    for key in sorted(counts):
        cls, dbl = key
        n = counts[key]
        g = np.array(groups.get(key, []))
        mean = g.sum() / n
        half = 1.96 * math.sqrt(len(g) * g.var(ddof=1)) / n if len(g) > 1 else 0.0
        game = 100 * mean * n / args.games
        print(
            f"{cls:<24} {'yes' if dbl else 'no':>7} {n:>9} {len(g):>6} "
            f"{100 * mean:+9.3f} +- {100 * half:.3f} {game:+11.3f}"
        )
        report.append(
            {
                "class": cls,
                "doubles": dbl,
                "decisions": n,
                "differ": len(g),
                "gain_per_decision": mean,
                "half_width": half,
                "points_per_game": game,
            }
        )
    all_mean = float(gain.sum()) / max(total, 1)
    all_half = 1.96 * math.sqrt(len(gain) * gain.var(ddof=1)) / total if len(gain) > 1 else 0.0
    print(
        f"{'all':<24} {'':>7} {total:>9} {len(gain):>6} {100 * all_mean:+9.3f} +- "
        f"{100 * all_half:.3f} {100 * all_mean * per_game:+11.3f}"
    )
    if args.out:
        args.out.write_text(
            json.dumps(
                {
                    "games": args.games,
                    "seed": args.seed,
                    "weights": args.weights,
                    "race_weights": args.race_weights,
                    "gnubg_plies": args.gnubg_plies,
                    "decisions": total,
                    "classes": report,
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
