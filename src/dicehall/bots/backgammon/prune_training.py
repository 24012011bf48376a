"""Training of the pruning net (``prune.py``): distillation of the shipped evaluator.

    python -m dicehall.bots.backgammon.prune_training --out runs/prune --hidden 32 \
        --export src/dicehall/bots/backgammon/prune_weights.npz

1. ``OUT/plays.npz``: ``--positions`` after-positions from seeded 0-ply self-play of
   the shipped net, all the plays of each contact decision together (``group``), with
   the shipped evaluator's 0-ply probabilities as targets. Made once; a rerun reuses it.
2. The fit (``fit``): the centred loss of ``prune.py``, a checkpoint every epoch in
   ``OUT``; ``--resume`` continues bit for bit. The last ``--holdout`` decisions are
   held out.
3. On them, for k = 2 to 8 and both equities: the share of decisions whose best play
   (by the targets) is outside the pruner's best ``k`` and the equity that loses
   (``misses``), printed and logged.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from dicehall.bots.backgammon.features import CHEAP_INPUTS, encode_base, is_race
from dicehall.bots.backgammon.neural import NUM_OUTPUTS, equity
from dicehall.bots.backgammon.prune import PRUNE_OUTPUTS
from dicehall.bots.backgammon.search import evaluate_after
from dicehall.bots.backgammon.supervised import adam_step, load_checkpoint, save_checkpoint
from dicehall.games.backgammon.fast import outcome, plays, roll_dice, start_board, swap

# numba caches a kernel by its own file only: edit this file when features.encode changes

CHECKPOINT = "prune-checkpoint.npz"


@njit(cache=True)
def sample_plays(count: int, seed: int, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any) -> Any:
    """``count`` after-positions from seeded 0-ply self-play: at each decision from a
    contact position with two or more plays, the positions after all of them (the last
    decision cut to fit), and their 0-ply probabilities. Returns ``(boards, targets,
    group)``: ``group[i]`` numbers the decision of row ``i`` (rows of one decision are
    consecutive), so a test of the pruner can ask which play of each it would keep."""
    boards = np.zeros((count, 2, 26), dtype=np.int8)
    targets = np.zeros((count, NUM_OUTPUTS))
    group = np.zeros(count, dtype=np.int64)
    np.random.seed(seed)
    k = 0
    g = 0
    y = np.empty(NUM_OUTPUTS)
    while k < count:
        board = start_board()
        while k < count:
            d1, d2 = roll_dice()
            n, _, after_set, _ = plays(board, d1, d2)
            best = -1e9
            pick = 0
            for i in range(n):
                evaluate_after(after_set[i], w1, b1, w2, b2, ext, y)
                eq = equity(y, True)
                if eq > best:
                    best = eq
                    pick = i
                if n > 1 and not is_race(board) and k < count:
                    boards[k] = after_set[i]
                    targets[k] = y
                    group[k] = g
                    k += 1
            g += 1
            after = after_set[pick]
            if outcome(after[0], after[1]) > 0 or is_race(after):
                break  # the contact part of this game is over
            board = swap(after)
    return boards, targets, group


def encode_all(boards: Any) -> Any:
    """The pruning net's inputs of every board, one row each."""
    x = np.zeros((boards.shape[0], CHEAP_INPUTS))
    _encode_rows(boards, x)
    return x


@njit(cache=True)
def _encode_rows(boards: Any, x: Any) -> None:
    for i in range(boards.shape[0]):
        encode_base(boards[i], x[i])


def equities(targets: Any) -> Any:
    """The two equities the pruner learns from five probabilities (rows): win-only and
    money (cubeless)."""
    t = np.asarray(targets, dtype=np.float64)
    win_only = 2.0 * t[:, 0] - 1.0
    return np.stack([win_only, win_only + t[:, 1] - t[:, 3] + t[:, 2] - t[:, 4]], axis=1)


def _sig(z: Any) -> Any:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def predict(x: Any, weights: list[Any]) -> Any:
    """The pruner's two outputs on input rows ``x`` (numpy)."""
    w1, b1, w2, b2 = weights
    return _sig(x @ w1 + b1) @ w2 + b2


def _bounds(group: Any) -> tuple[Any, Any]:
    """First and one-past-last row of each decision (rows of one group are together)."""
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    return starts, np.r_[starts[1:], group.shape[0]]


def misses(x: Any, eqs: Any, group: Any, weights: list[Any], keep: int, col: int = 0) -> Any:
    """``(share, loss)`` over the decisions of more than ``keep`` plays: the share whose
    best play by the target equities ``eqs[:, col]`` is not among the ``keep`` best by
    the net, and the mean equity lost by taking the best of those ``keep`` instead."""
    pred = predict(x, weights)[:, col]
    true = eqs[:, col]
    total = missed = 0
    lost = 0.0
    for s, e in zip(*_bounds(group), strict=True):
        if e - s <= keep:
            continue
        total += 1
        kept = s + np.argsort(-pred[s:e], kind="stable")[:keep]
        gap = float(true[s:e].max() - true[kept].max())
        missed += gap > 0.0
        lost += gap
    return missed / max(1, total), lost / max(1, total)


def fit(
    out: Path,
    x: Any,
    eqs: Any,
    group: Any,
    *,
    hidden: int,
    epochs: int,
    seed: int,
    lr: float,
    groups_per_batch: int,
    resume: bool = False,
) -> list[Any]:
    """Adam on the centred squared error (outputs and targets each minus their
    decision's mean), ``groups_per_batch`` decisions a step, the step size falling
    linearly to a tenth; a checkpoint (float64, with Adam's moments) after every epoch
    in ``OUT/prune-checkpoint.npz``, and ``resume`` continues bit for bit. Raises
    ``ValueError`` when the checkpoint was made with another seed or width."""
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / CHECKPOINT
    if resume and ckpt.exists():
        weights, m, v, step, epoch = load_checkpoint(ckpt, seed, hidden)
    else:
        rng = np.random.default_rng([seed, 1])
        weights = [
            rng.normal(0.0, 0.1, (CHEAP_INPUTS, hidden)),
            np.zeros(hidden),
            rng.normal(0.0, 0.1, (hidden, PRUNE_OUTPUTS)),
            np.zeros(PRUNE_OUTPUTS),
        ]
        m = [np.zeros_like(w) for w in weights]
        v = [np.zeros_like(w) for w in weights]
        step = epoch = 0
    starts, ends = _bounds(group)
    while epoch < epochs:
        a = lr * (1.0 - 0.9 * epoch / max(1, epochs))
        order = np.random.default_rng([seed, epoch]).permutation(starts.shape[0])
        total = 0.0
        for s in range(0, order.shape[0], groups_per_batch):
            chosen = order[s : s + groups_per_batch]
            sizes = ends[chosen] - starts[chosen]
            idx = np.concatenate([np.arange(starts[g], ends[g]) for g in chosen])
            seg = np.repeat(np.arange(chosen.shape[0]), sizes)
            h = _sig(x[idx] @ weights[0] + weights[1])
            pred = h @ weights[2] + weights[3]
            r = pred - eqs[idx]
            for c in range(PRUNE_OUTPUTS):  # centre on each decision's mean
                r[:, c] -= (np.bincount(seg, r[:, c]) / sizes)[seg]
            total += float((r**2).sum())
            dz = r / idx.shape[0]  # centred residuals: the gradient of the centred loss
            dh = (dz @ weights[2].T) * h * (1.0 - h)
            grads = [x[idx].T @ dh, dh.sum(axis=0), h.T @ dz, np.zeros(PRUNE_OUTPUTS)]
            step += 1
            adam_step(weights, m, v, grads, step, a)
        epoch += 1
        save_checkpoint(ckpt, {"epoch": epoch, "seed": seed, "hidden": hidden}, step, weights, m, v)
        line = {"epoch": epoch, "lr": round(a, 6), "train_mse": total / (2 * x.shape[0])}
        with (out / "log.jsonl").open("a") as log:
            log.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)
    return weights


def main(argv: list[str] | None = None) -> None:
    """``python -m dicehall.bots.backgammon.prune_training --out DIR [--export FILE]``."""
    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.race import save

    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder: data, checkpoint, log")
    ap.add_argument("--positions", type=int, default=1_500_000)
    ap.add_argument("--holdout", type=int, default=3_000, help="decisions held out")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch", type=int, default=64, help="decisions a step")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", action="store_true", help="go on from OUT's checkpoint")
    ap.add_argument("--export", type=Path, help="write the float32 weights that ship here")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    data = args.out / "plays.npz"
    if not data.exists():
        boards, targets, group = sample_plays(args.positions, args.seed, *Network.load().params())
        np.savez_compressed(data, boards=boards, targets=targets, group=group)
    with np.load(data) as f:
        boards, targets, group = f["boards"], f["targets"], f["group"]
    x, eqs = encode_all(boards), equities(targets)
    cut = int(np.searchsorted(group, group[-1] - args.holdout + 1))  # held-out decisions
    weights = fit(
        args.out,
        x[:cut],
        eqs[:cut],
        group[:cut],
        hidden=args.hidden,
        epochs=args.epochs,
        seed=args.seed,
        lr=args.lr,
        groups_per_batch=args.batch,
        resume=args.resume,
    )
    report: dict[str, Any] = {"held_out_decisions": args.holdout}
    for name, col in (("win", 0), ("money", 1)):
        for k in (2, 3, 4, 5, 6, 8):
            share, lost = misses(x[cut:], eqs[cut:], group[cut:], weights, k, col)
            report[f"{name}_miss_at_{k}"] = round(share, 4)
            report[f"{name}_loss_at_{k}"] = round(lost, 5)
    print(json.dumps(report), flush=True)
    with (args.out / "log.jsonl").open("a") as log:
        log.write(json.dumps(report) + "\n")
    if args.export:
        meta = {
            "hidden": args.hidden,
            "positions": int(boards.shape[0]),
            "epochs": args.epochs,
            "lr": args.lr,
            "batch": args.batch,
            "seed": args.seed,
            "made": datetime.date.today().isoformat(),
            "command": "python -m dicehall.bots.backgammon.prune_training "
            + " ".join(a for a in (sys.argv[1:] if argv is None else argv) if a != "--resume"),
            **report,
        }
        save(args.export, tuple(weights), meta, compact=True)


if __name__ == "__main__":
    main()
