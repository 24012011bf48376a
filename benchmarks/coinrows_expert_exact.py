"""How often the Coin Rows bots choose worse than perfect play, on exactly solved
variants (prints the figures).

    python benchmarks/coinrows_expert_exact.py [--purses 5 6 7 8] [--games 20]
                                               [--levels greedy expert] [--seed 1]
                                               [--out PATH]

For each purse (``leaving=false``, ``capture=row``; the table comes from the cache or
is solved first, see benchmarks/coinrows_solve.py) each level plays ``--games`` games
against itself, seats alternating, dice from ``--seed``. At every decision with more
than one legal action the exact values of all actions are read from the solution: a
choice is an error when its value is below the best by more than 1e-9, and the loss is
the difference in expected result (+1 win, -1 loss). Printed per level and purse:
decisions, errors (rate, in Phase A and in moves), the mean loss per decision, and the
largest single loss. Every finished game is appended to ``--out`` at once (purse, level,
seed, game and its counts), and a rerun plays only the games the file does not hold, so a
long measurement resumes and a larger ``--games`` extends it (default
benchmarks/results/coinrows_expert_exact.jsonl).

``--versus A B`` plays ``A`` against ``B`` instead (``--games`` games per purse, seats
alternated, the same dice for each pair of games) and prints ``A``'s wins, draws and
losses and the Wilson interval of its score; each game goes to ``--out`` (default
benchmarks/results/coinrows_versus.jsonl) as it ends, and a rerun resumes.

A level ``mcts:N`` is UCT with ``N`` simulations per decision and a fast playout: the
playout captures whenever a capture takes an opponent's coin, else rolls, moves at
random, and is cut after 12 decisions and scored by the heuristic evaluation of the
bot (``dicehall.bots.coinrows.evaluate``), so a simulation costs a few dozen state
steps instead of a whole game.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from dicehall import load_game
from dicehall.bots.coinrows import Bot, evaluate
from dicehall.bots.coinrows.solver import action_values, load_or_solve
from dicehall.bots.mcts import MCTSBot
from dicehall.core import SeededDice, resolve_chance
from dicehall.core.game import Action, State
from dicehall.games.coinrows import LEAVE, Capture, CoinRowsState, Phase

EXACT_OUT = Path("benchmarks/results/coinrows_expert_exact.jsonl")
VERSUS_OUT = Path("benchmarks/results/coinrows_versus.jsonl")


def fast_playout(state: State, rng: random.Random) -> Action:
    """Capture a row holding an opponent's coin when there is one, else roll (or move
    at random); never leave."""
    assert isinstance(state, CoinRowsState)
    actions = state.legal_actions()
    if state.phase is Phase.A:
        seat = state.turn
        for a in actions:
            if isinstance(a, Capture) and any(
                state.board[c] is not None and state.board[c].owner != seat  # type: ignore[union-attr]
                for c in a.columns
            ):
                return a
        return next(a for a in actions if not isinstance(a, Capture) and a is not LEAVE)
    return actions[rng.randrange(len(actions))]


def make_bot(level: str, seed: int) -> Bot | MCTSBot:
    if level.startswith("mcts:"):
        return MCTSBot(
            int(level.split(":")[1]),
            rollout_policy=fast_playout,
            rollout_limit=12,
            evaluate=evaluate,
            seed=seed,
            name=level,
        )
    return Bot(level, seed=seed)


def versus(purse: int, a: str, b: str, games: int, seed: int, out: Path | None) -> None:
    """``a`` against ``b`` with seats alternated (leaving=false): W/D/L of ``a`` with the
    Wilson interval of its score (a draw counts half). Games ``2k`` and ``2k + 1`` share
    their dice, ``a`` first in one and second in the other. With ``out`` each game is
    appended to that file as it ends and a rerun plays only the games it lacks."""
    game = load_game("coinrows", purse=purse, leaving=False)
    key = {"purse": purse, "a": a, "b": b, "seed": seed}
    done: dict[int, dict[str, Any]] = {}
    if out is not None and out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            if all(row.get(k) == v for k, v in key.items()):
                done[row["game"]] = row
    start = time.time()
    for g in range(games):
        if g in done:
            continue
        seat = g % 2
        bots = [make_bot(a, seed + g), make_bot(b, seed + g + 1)]
        if seat == 1:
            bots.reverse()
        dice = SeededDice(seed * 104729 + g // 2)
        state = game.new_initial_state()
        began = time.process_time()
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(resolve_chance(state, dice))
            else:
                state = state.apply(bots[state.current_player()].act(state))
        done[g] = row = key | {
            "game": g,
            "seat": seat,
            "result": state.returns()[seat],
            "turns": state.turn_number,
            "cpu_seconds": round(time.process_time() - began, 2),
        }
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
    results = [done[g]["result"] for g in range(games)]
    wins, draws = sum(r > 0 for r in results), sum(r == 0 for r in results)
    losses = games - wins - draws
    lo, hi = wilson(wins + draws / 2, games)
    by_seat = [sum(done[g]["result"] > 0 for g in range(s, games, 2)) for s in (0, 1)]
    print(
        f"purse {purse}, leaving=false: {a} vs {b}: {wins}/{draws}/{losses} (W/D/L of {games}, "
        f"seats alternated, the same dice for each pair); score {(wins + draws / 2) / games:.1%} "
        f"[{lo:.1%}, {hi:.1%}]; {a} won {by_seat[0]} of {len(range(0, games, 2))} as first "
        f"player, {by_seat[1]} of {len(range(1, games, 2))} as second; "
        f"{sum(done[g]['cpu_seconds'] for g in range(games)):.0f} CPU-s in all "
        f"({time.time() - start:.0f} s now)",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--purses", type=int, nargs="+", default=[5, 6, 7, 8])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--levels", nargs="+", default=["greedy", "expert"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--versus", nargs=2, metavar=("A", "B"), help="play A against B instead")
    ap.add_argument("--out", type=Path, help=f"default {EXACT_OUT} ({VERSUS_OUT} with --versus)")
    args = ap.parse_args()
    if args.versus:
        for purse in args.purses:
            versus(purse, *args.versus, args.games, args.seed, args.out or VERSUS_OUT)
        return
    args.out = args.out or EXACT_OUT
    done: dict[tuple[int, str, int], dict[int, dict[str, Any]]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done.setdefault((row["purse"], row["level"], row["seed"]), {})[row["game"]] = row
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for purse in args.purses:
        sol = None
        game = load_game("coinrows", purse=purse, leaving=False)
        for level in args.levels:
            start = time.time()
            rows = done.setdefault((purse, level, args.seed), {})
            for g in range(args.games):
                if g in rows:
                    continue
                if sol is None:
                    sol = load_or_solve(purse, False)
                rows[g] = row = _play(sol, game, level, args.seed, g) | {"purse": purse}
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            report(purse, level, [rows[g] for g in range(args.games)], time.time() - start)


def _play(sol: object, game: object, level: str, seed: int, g: int) -> dict[str, Any]:
    """One self-play game of ``level`` scored against the exact values."""
    bots = [make_bot(level, seed + 2 * g), make_bot(level, seed + 2 * g + 1)]
    dice = SeededDice(seed * 7919 + g)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    decisions = errors = errors_a = errors_b = 0
    loss = worst = 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(resolve_chance(state, dice))
            continue
        action = bots[state.current_player()].act(state)
        if len(state.legal_actions()) > 1:
            values = dict((state.action_to_text(a), v) for a, v in action_values(sol, state))  # type: ignore[arg-type]
            gap = max(values.values()) - values[state.action_to_text(action)]
            decisions += 1
            if gap > 1e-9:
                errors += 1
                errors_a += state.phase is Phase.A
                errors_b += state.phase is Phase.B
                loss += gap
                worst = max(worst, gap)
        state = state.apply(action)
    return {"level": level, "seed": seed, "game": g, "decisions": decisions, "errors": errors,
            "errors_a": errors_a, "errors_b": errors_b, "loss": loss, "worst": worst}  # fmt: skip


def wilson(k: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return centre - half, centre + half


def report(purse: int, level: str, rows: list[dict[str, Any]], seconds: float) -> None:
    """The figures of one level and purse over its games."""
    decisions = sum(r["decisions"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    loss = sum(r["loss"] for r in rows)
    lo, hi = wilson(errors, decisions)
    print(
        f"purse {purse} {level}: {decisions} decisions in {len(rows)} games, "
        f"{errors} errors ({errors / max(decisions, 1):.1%} [{lo:.1%}, {hi:.1%}]; "
        f"{sum(r['errors_a'] for r in rows)} in Phase A, {sum(r['errors_b'] for r in rows)} "
        f"moves), mean loss {loss / max(decisions, 1):.4f} per decision, "
        f"largest {max((r['worst'] for r in rows), default=0.0):.3f} ({seconds:.0f} s)",
        flush=True,
    )


if __name__ == "__main__":
    main()
