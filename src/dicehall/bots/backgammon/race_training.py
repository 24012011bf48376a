"""Training of the race net (``race.py``) on deeper targets generated in parallel.

    python -m dicehall.bots.backgammon.race_training --out runs/race --workers 2 \
        --chunks 40 --per-chunk 2000 --epochs 20 --hidden 48 [--teacher gnubg:1] \
        --export FILE

The positions are races (no contact, not both home) from seeded 0-ply self-play. Their
targets are either the 1-ply values of our own contact net with the bear-off databases
(``--teacher net``, the default) or the cubeless values of GNU Backgammon
(``--teacher gnubg:PLIES``; ``/usr/games/gnubg``, one gnubg process per worker, used as
an independent reference: only its numbers are used, never its code).

See ``race.py`` for the inputs and the method. Targets go to ``OUT/targets-NNNN.npz``
(a rerun skips chunks already there), the fit to ``OUT/race-checkpoint.npz`` after
every epoch (``--resume`` continues bit for bit) and ``OUT/log.jsonl``.

The shipped race net was made when the shipped contact net was the TD net, now kept
as ``benchmarks/results/backgammon_supervised/0_td.npz``: pass it as ``--contact``
to remake it. The present contact net was fitted to gnubg on contact positions
only (``supervised.py``) and is not meant to value races, which is why the targets
should come from a net trained on them.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from dicehall.bots.backgammon.features import is_race
from dicehall.bots.backgammon.neural import forward
from dicehall.bots.backgammon.race import (
    RACE_INPUTS,
    create,
    encode_race,
    load,
    race_forward,
    save,
    without,
)
from dicehall.bots.backgammon.search import choose_0ply, evaluate_1ply
from dicehall.bots.backgammon.td import _backprop
from dicehall.games.backgammon.fast import outcome, plays, swap

# numba caches a kernel by its own file only: edit this file when features.encode changes
# (the inputs grew from 201 to 207 on 1 Dec 2026, to 219 on 2 Dec 2026)

CHECKPOINT = "race-checkpoint.npz"


# -- targets ------------------------------------------------------------------------


@njit(cache=True)
def _sample_chunk(
    count: int, seed: int, value: bool, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any
) -> tuple[Any, Any]:
    """``count`` race positions from seeded 0-ply self-play and, when ``value``, their
    1-ply values (else zeros: another teacher values them). The positions do not
    depend on ``value``."""
    boards = np.zeros((count, 2, 26), dtype=np.int8)
    targets = np.zeros((count, 5))
    np.random.seed(seed)
    start = np.zeros(26, dtype=np.int8)
    start[24], start[13], start[8], start[6] = 2, 5, 3, 5
    k = 0
    while k < count:
        board = np.empty((2, 26), dtype=np.int8)
        board[0] = start
        board[1] = start
        taken = 0
        while k < count:
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
            d1, d2 = max(a, b), min(a, b)
            _n, _, after_set, _ = plays(board, d1, d2)
            i = choose_0ply(board, d1, d2, w1, b1, w2, b2, ext, True)
            after = after_set[i]
            if outcome(after[0], after[1]) > 0:
                break
            home = True
            for side in range(2):
                for p in range(7, 26):
                    if after[side, p] > 0:
                        home = False
            # a few positions per game, spread over the race
            if is_race(after) and not home and np.random.random() < 0.35 and taken < 12:
                boards[k] = after
                if value:
                    evaluate_1ply(after, w1, b1, w2, b2, ext, True, targets[k])
                k += 1
                taken += 1
            board = swap(after)
    return boards, targets


_WORKER: dict[str, Any] = {}


def parse_teacher(teacher: str) -> int | None:
    """The gnubg plies of ``gnubg:PLIES``, or None for ``net`` (our own 1-ply).

    :raises ValueError: neither form, or plies outside 0..3.
    """
    if teacher == "net":
        return None
    kind, _, plies = teacher.partition(":")
    if kind != "gnubg" or plies not in ("0", "1", "2", "3"):
        raise ValueError(f"teacher {teacher!r}: expected 'net' or 'gnubg:PLIES' (PLIES 0 to 3)")
    return int(plies)


def _target_task(job: tuple[int, int, int, str | None, str]) -> tuple[int, Any, Any]:
    index, count, seed, contact, teacher = job
    plies = parse_teacher(teacher)
    if _WORKER.get("contact", "unset") != contact:
        from dicehall.bots.backgammon.network import Network

        net = Network.load(contact)
        w1, b1, w2, b2, ext = net.params()
        _WORKER["params"] = (w1, b1, w2, b2, without(ext))
        _WORKER["contact"] = contact
    boards, targets = _sample_chunk(
        count, seed * 100_003 + index, plies is None, *_WORKER["params"]
    )
    if plies is not None:
        from dicehall.bots.backgammon.supervised import GnubgTeacher, label_chunk

        if _WORKER.get("teacher_plies") != plies:
            if "teacher" in _WORKER:
                _WORKER["teacher"].close()
            _WORKER["teacher"] = GnubgTeacher(plies)
            _WORKER["teacher_plies"] = plies
        targets = label_chunk(boards, [_WORKER["teacher"]])
    return index, boards, targets


def _write_chunk(out: Path, index: int, boards: Any, targets: Any) -> None:
    tmp = out / f"targets-{index:04d}.tmp"
    with tmp.open("wb") as fh:
        np.savez_compressed(fh, boards=boards, targets=targets)
    tmp.replace(out / f"targets-{index:04d}.npz")


def generate_targets(
    out: Path,
    chunks: int,
    per_chunk: int,
    seed: int,
    workers: int,
    progress: bool = True,
    ray_address: str | None = None,
    contact: str | None = None,
    teacher: str = "net",
) -> None:
    """Write ``OUT/targets-NNNN.npz`` for every chunk not already there, in ``workers``
    processes, or as Ray tasks when ``ray_address`` is given (an address or
    ``"local"``; the chunks, seeded by their index, are the same either way).
    ``contact`` names the contact net's weights that play (and value, with ``teacher``
    ``net``; default: the shipped net); ``teacher`` ``gnubg:PLIES`` has gnubg value
    the positions instead (``parse_teacher``)."""
    from rich.console import Console
    from rich.progress import Progress

    from dicehall.bots.backgammon.network import Network

    Network.load().params()  # build the bear-off databases before the workers need them
    out.mkdir(parents=True, exist_ok=True)
    todo = [
        (i, per_chunk, seed, contact, teacher)
        for i in range(chunks)
        if not (out / f"targets-{i:04d}.npz").exists()
    ]
    with Progress(console=Console(stderr=True), disable=not progress) as bar:
        label = "1-ply" if teacher == "net" else teacher
        task = bar.add_task(f"race targets ({label})", total=chunks, completed=chunks - len(todo))
        if ray_address is not None:
            from dicehall.bots.backgammon.rollout import run_tasks

            step = max(1, workers) * 2
            for k in range(0, len(todo), step):
                for index, boards, targets in run_tasks(
                    _target_task, todo[k : k + step], workers, ray_address
                ):
                    _write_chunk(out, index, boards, targets)
                    bar.advance(task)
            return
        with multiprocessing.get_context("fork").Pool(max(1, workers)) as pool:
            for index, boards, targets in pool.imap_unordered(_target_task, todo):
                _write_chunk(out, index, boards, targets)
                bar.advance(task)


def read_targets(out: Path, chunks: int) -> tuple[Any, Any]:
    boards, targets = [], []
    for i in range(chunks):
        with np.load(out / f"targets-{i:04d}.npz") as f:
            boards.append(f["boards"])
            targets.append(f["targets"])
    return np.concatenate(boards), np.concatenate(targets)


# -- fitting --------------------------------------------------------------------------


@njit(cache=True)
def sgd_epoch(
    boards: Any, targets: Any, order: Any, alpha: float, w1: Any, b1: Any, w2: Any, b2: Any
) -> float:
    """One pass of SGD in ``order``; returns the mean squared error before each step."""
    x = np.empty(RACE_INPUTS)
    h = np.empty(b1.shape[0])
    y = np.empty(5)
    err = np.empty(5)
    total = 0.0
    for o in range(order.shape[0]):
        i = order[o]
        encode_race(boards[i], x)
        forward(x, w1, b1, w2, b2, h, y)
        for k in range(5):
            err[k] = targets[i, k] - y[k]
            total += err[k] * err[k]
        _backprop(x, h, y, err, alpha, w1, b1, w2, b2)
    return float(total / (5.0 * order.shape[0]))


@njit(cache=True)
def race_error(boards: Any, targets: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> float:
    y = np.empty(5)
    total = 0.0
    for i in range(boards.shape[0]):
        race_forward(boards[i], w1, b1, w2, b2, y)
        for k in range(5):
            total += (targets[i, k] - y[k]) ** 2
    return float(total / (5.0 * boards.shape[0]))


def contact_error(boards: Any, targets: Any) -> float:
    """Error of the contact net at 0-ply against the same targets (the baseline)."""
    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.search import rank_0ply

    w1, b1, w2, b2, ext = Network.load().params()
    probs = rank_0ply(boards, boards.shape[0], w1, b1, w2, b2, without(ext), True)
    return float(((probs - targets) ** 2).mean())


def fit(
    out: Path,
    boards: Any,
    targets: Any,
    *,
    epochs: int,
    hidden: int,
    seed: int,
    alpha: float,
    holdout: int,
    resume: bool = False,
    stop_after: int | None = None,
) -> tuple[Any, ...]:
    """SGD with a checkpoint after every epoch; ``resume`` continues bit for bit (the
    learning rate falls linearly over ``epochs``, so pass the same ``epochs``);
    ``stop_after`` ends this session after that many epochs (a budgeted run)."""
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / CHECKPOINT
    epoch = 0
    if resume and ckpt.exists():
        weights, meta = load(ckpt)
        if meta.get("seed") != seed or meta.get("hidden") != hidden:
            raise ValueError(f"{ckpt} was made with {meta}; pass the same --seed and --hidden")
        epoch = int(meta["epoch"])
    else:
        weights = create(hidden, seed)
    train_b, train_t = boards[:-holdout], targets[:-holdout]
    test_b, test_t = boards[-holdout:], targets[-holdout:]
    base = contact_error(test_b, test_t)
    session = 0
    while epoch < epochs and (stop_after is None or session < stop_after):
        session += 1
        rng = np.random.default_rng([seed, epoch])
        order = rng.permutation(train_b.shape[0])
        a = alpha * (1.0 - 0.9 * epoch / max(1, epochs))
        train_err = sgd_epoch(train_b, train_t, order, a, *weights)
        epoch += 1
        test_err = race_error(test_b, test_t, *weights)
        meta = {"epoch": epoch, "seed": seed, "hidden": hidden, "positions": int(boards.shape[0])}
        save(ckpt, weights, meta, compact=False)
        line = {"epoch": epoch, "alpha": round(a, 5), "train_mse": train_err}
        line |= {"holdout_mse": test_err, "contact_0ply_mse": base}
        with (out / "log.jsonl").open("a") as log:
            log.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)
    return weights


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Train the backgammon race net on deeper targets.")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--chunks", type=int, default=40, help="target chunks (the last held out)")
    parser.add_argument("--per-chunk", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--ray", default=None, help="generate targets on Ray: address or local")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=48)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--stop-after", type=int, default=None, help="epochs in this session")
    parser.add_argument("--export", type=Path, default=None)
    parser.add_argument(
        "--contact", default=None, help="contact net weights for the targets (default: shipped)"
    )
    parser.add_argument(
        "--teacher", default="net", help="net (our 1-ply, default) or gnubg:PLIES (0 to 3)"
    )
    args = parser.parse_args(argv)
    try:
        parse_teacher(args.teacher)
    except ValueError as exc:
        parser.error(str(exc))
    if args.chunks < 2 or args.per_chunk < 1 or args.epochs < 1 or args.hidden < 1:
        parser.error("--chunks must be >= 2; --per-chunk, --epochs, --hidden >= 1")
    generate_targets(
        args.out,
        args.chunks,
        args.per_chunk,
        args.seed,
        args.workers,
        ray_address=args.ray,
        contact=args.contact,
        teacher=args.teacher,
    )
    boards, targets = read_targets(args.out, args.chunks)
    weights = fit(
        args.out,
        boards,
        targets,
        epochs=args.epochs,
        hidden=args.hidden,
        seed=args.seed,
        alpha=args.alpha,
        holdout=args.per_chunk,
        resume=args.resume,
        stop_after=args.stop_after,
    )
    if args.export:
        meta = {"epochs": args.epochs, "seed": args.seed, "hidden": args.hidden}
        source = "1-ply contact net + bear-off" if args.teacher == "net" else args.teacher
        meta |= {"positions": int(boards.shape[0]), "targets": source}
        save(args.export, weights, meta, compact=True)
        print(f"exported {args.export}")


if __name__ == "__main__":
    main()
