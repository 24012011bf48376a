"""Backgammon search settings compared by gnubg's judgement of the plays they choose.

    python benchmarks/search_backgammon.py VARIANT [VARIANT ...] [--positions 400]
        [--seed 1] [--weights W.npz] [--gnubg-plies 2] [--cache FILE] [--out FILE]

A VARIANT is a level of ``Bot`` (``expert``, ``2ply``, ...), optionally with some of
its ``Settings`` changed: ``expert:keep2=5,margin2=0.2,reply_keep=2``. Every variant
decides the same positions (``filter_backgammon.sample_positions``: seeded 0-ply
self-play, every decision with a choice, bear-offs left out), each decision timed in
CPU seconds (``time.process_time``, so the machine's load does not count) after a
warm-up. Wherever the variants do not all agree, GNU Backgammon (cubeless,
``--gnubg-plies`` deep) values each distinct resulting position once. For each
variant the report gives, against the first one: decisions changed, its mean gain in
gnubg's win probability per changed decision and per decision (95% intervals, paired
on the same positions), better/worse counts, and its CPU time per decision (mean,
99th percentile, slowest).

``--cache FILE`` (JSON) keeps each variant's choices and times (under its settings,
not its name) and gnubg's values, so a variant added later costs only its own
decisions and the new positions it reaches;
``--out FILE`` writes the report's figures as JSON.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from filter_backgammon import GNUBG, Gnubg, sample_positions


def make_bot(variant: str, weights: str | None) -> Any:
    """``Bot`` of ``LEVEL[:name=value,...]`` (settings changed by name)."""
    from dicehall.bots.backgammon import Bot, load_network

    level, _, changes = variant.partition(":")
    bot = Bot(level, network=load_network(weights) if weights else None)
    fields = {f.name: f for f in dataclasses.fields(bot.settings)}
    updates: dict[str, Any] = {}
    for item in filter(None, changes.split(",")):
        name, _, value = item.partition("=")
        if name not in fields:
            sys.exit(f"{variant}: no setting {name!r} (settings: {', '.join(fields)})")
        kind = type(getattr(bot.settings, name))
        updates[name] = kind(value)
    bot.settings = dataclasses.replace(bot.settings, **updates)
    return bot


def key(board: Any) -> str:
    return bytes(np.asarray(board, dtype=np.int8).tobytes()).hex()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", default=None, help="the net (default: the shipped one)")
    parser.add_argument("--gnubg-plies", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    from dicehall.games.backgammon.fast import plays, to_array
    from dicehall.games.backgammon.notation import decode_position_id

    cache: dict[str, Any] = {"choices": {}, "gnubg": {}}
    if args.cache and args.cache.exists():
        cache = json.loads(args.cache.read_text())
    tag = f"{args.weights or 'shipped'}|seed {args.seed}|gnubg {args.gnubg_plies}"
    values: dict[str, float] = cache["gnubg"].setdefault(f"gnubg {args.gnubg_plies}", {})

    def save() -> None:
        if args.cache:
            args.cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = args.cache.with_suffix(".tmp")
            tmp.write_text(json.dumps(cache))
            tmp.replace(args.cache)

    positions = sample_positions(args.positions, args.seed)
    warm = to_array(decode_position_id("ttsACgPbzg0AIA"))
    picks: dict[str, list[int]] = {}
    cpu: dict[str, list[float]] = {}
    for variant in args.variants:
        bot = make_bot(variant, args.weights)
        name = f"{bot.settings}|{tag}"  # the settings themselves: a level's may change
        done = cache["choices"].get(name, {"picks": [], "cpu": []})
        if len(done["picks"]) < len(positions):
            bot.choose(warm, 6, 4)  # compiles and loads outside the timing
            for board, d1, d2 in positions[len(done["picks"]) :]:
                started = time.process_time()
                done["picks"].append(int(bot.choose(board, d1, d2)))
                done["cpu"].append(time.process_time() - started)
                if len(done["picks"]) % 50 == 0:
                    cache["choices"][name] = done
                    save()
                    print(f"  {variant}: {len(done['picks'])} decisions", flush=True)
            cache["choices"][name] = done
            save()
        picks[variant] = done["picks"][: len(positions)]
        cpu[variant] = done["cpu"][: len(positions)]

    wins = np.zeros((len(args.variants), len(positions)))
    todo: dict[str, Any] = {}
    afters: list[list[str]] = []
    for p, (board, d1, d2) in enumerate(positions):
        chosen = {picks[v][p] for v in args.variants}
        _, _, boards, _ = plays(board, d1, d2)
        row = [key(boards[picks[v][p]]) for v in args.variants]
        afters.append(row)
        if len(chosen) > 1:
            for i in chosen:
                k = key(boards[i])
                if k not in values:
                    todo[k] = boards[i].copy()
    if todo:
        if not Path(GNUBG).exists():
            sys.exit(f"{GNUBG} is not installed")
        gnubg = Gnubg(args.gnubg_plies)
        try:
            for n, (k, after) in enumerate(todo.items(), 1):
                values[k] = gnubg.win(after)
                if n % 50 == 0:
                    save()
        finally:
            gnubg.close()
        save()
    for p, row in enumerate(afters):
        if len(set(row)) > 1:
            wins[:, p] = [values[k] for k in row]

    count = len(positions)
    print(f"{count} positions from 0-ply self-play (seed {args.seed}), bear-offs left out")
    print(f"net: {args.weights or 'shipped'}; judge: gnubg {args.gnubg_plies}-ply, cubeless")
    base = args.variants[0]
    report: dict[str, Any] = {"positions": count, "seed": args.seed, "weights": args.weights}
    report["gnubg_plies"] = args.gnubg_plies
    report["variants"] = {}
    for v_i, variant in enumerate(args.variants):
        c = np.array(cpu[variant])
        line: dict[str, Any] = {
            "cpu_mean_s": float(c.mean()),
            "cpu_p99_s": float(np.quantile(c, 0.99)),
            "cpu_max_s": float(c.max()),
        }
        text = (
            f"  {variant}: CPU {1000 * c.mean():.0f} ms mean, {1000 * line['cpu_p99_s']:.0f} ms"
            f" 99th pct, {c.max():.2f} s slowest"
        )
        if v_i:
            differ = np.array([picks[variant][p] != picks[base][p] for p in range(count)])
            g = (wins[v_i] - wins[0])[differ]
            per = (wins[v_i] - wins[0]).astype(float)
            half = 1.96 * float(g.std(ddof=1)) / math.sqrt(len(g)) if len(g) > 1 else math.nan
            per_half = 1.96 * float(per.std(ddof=1)) / math.sqrt(count)
            line |= {
                "differ": int(differ.sum()),
                "gain_per_differing": float(g.mean()) if len(g) else 0.0,
                "gain_per_differing_ci": half,
                "gain_per_decision": float(per.mean()),
                "gain_per_decision_ci": per_half,
                "better": int((g > 0).sum()),
                "worse": int((g < 0).sum()),
            }
            text += (
                f"; differs from {base} in {differ.sum()}: "
                f"{100 * line['gain_per_differing']:+.2f} +- {100 * half:.2f} points where it"
                f" differs, {100 * per.mean():+.3f} +- {100 * per_half:.3f} per decision"
                f" (better {line['better']}, worse {line['worse']})"
            )
        report["variants"][variant] = line
        print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
