"""White Die with 3 to 6 players: ``perfect`` in one seat against ``greedy`` in all the
others, and how often the starting player wins (prints the figures).

    python benchmarks/whitedie_arena.py [--players 3 4 5 6] [--games 2000] [--seed 20]
                                        [--free-choices true|false]
                                        [--out benchmarks/results/whitedie_arena_free.jsonl]

The perfect bot's seat rotates through every seat (game i: seat i mod n); each game's
dice come from its own seed. Every finished game is appended to ``--out`` at once
(players, game, perfect's seat, the seat that started after the roll-off, the winner,
turns), and a rerun resumes where the file stops. Figures: perfect's winning share
with a 95% Wilson interval (a seat with no skill edge wins 1/n), and the starting
player's winning share with its interval.

``--free-choices`` is the game's option (default true: the player arranges Pips and
decides the claim). The figures of ``whitedie_arena.jsonl`` and
``whitedie_arena_maxn21.jsonl`` were played before that option existed, under the rules
of ``--free-choices false``, which reproduces them game for game.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: one thread is fastest

import argparse
import json
import math
import time
from pathlib import Path

from dicehall import Match, load_game
from dicehall.bots.whitedie import Bot


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(players: int, index: int, seed: int, free: bool = True) -> dict[str, int]:
    game = load_game("whitedie", players=players, free_choices=free)
    seat = index % players
    agents = [
        Bot("perfect", seed=seed + index) if s == seat else Bot("greedy") for s in range(players)
    ]
    match = Match(game, agents, seed=seed * 1_000_003 + index)
    starter = None
    turns = 0
    while not match.state.is_terminal():
        before = match.state
        match.roll() if before.is_chance_node() else match.step()
        after = match.state
        if starter is None and after.phase != "start":  # type: ignore[attr-defined]
            starter = after.turn  # type: ignore[attr-defined]
        if before.phase != "start" and (after.is_terminal() or after.turn != before.turn):  # type: ignore[attr-defined]
            turns += 1
    winner = match.state.winner  # type: ignore[attr-defined]
    assert starter is not None and winner is not None
    return {"players": players, "game": index, "perfect": seat, "starter": starter,
            "winner": winner, "turns": turns}  # fmt: skip


def report(rows: list[dict[str, int]], players: int) -> None:
    n = len(rows)
    won = sum(r["winner"] == r["perfect"] for r in rows)
    first = sum(r["winner"] == r["starter"] for r in rows)
    lo, hi = wilson(won, n)
    flo, fhi = wilson(first, n)
    turns = sum(r["turns"] for r in rows) / max(n, 1)
    print(
        f"{players} players, {n} games: perfect won {won} = {won / n:.4f} "
        f"[{lo:.4f}, {hi:.4f}] (no edge: {1 / players:.4f}); the starting player won "
        f"{first} = {first / n:.4f} [{flo:.4f}, {fhi:.4f}]; {turns:.1f} turns a game",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--free-choices", choices=("true", "false"), default="true")
    ap.add_argument(
        "--out", type=Path, default=Path("benchmarks/results/whitedie_arena_free.jsonl")
    )
    args = ap.parse_args()
    free = args.free_choices == "true"
    done: dict[int, list[dict[str, int]]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done.setdefault(row["players"], []).append(row)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for players in args.players:
        rows = done.setdefault(players, [])
        start = time.time()
        with args.out.open("a") as f:
            for index in range(len(rows), args.games):
                row = play(players, index, args.seed, free)
                rows.append(row)
                f.write(json.dumps(row) + "\n")
                f.flush()
        report(rows[: args.games], players)
        print(f"  ({time.time() - start:.0f} s for the games played now)", flush=True)


if __name__ == "__main__":
    main()
