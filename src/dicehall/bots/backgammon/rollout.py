"""Rollouts: Monte Carlo games from a position, cubeless, with variance reduction.

``rollout(board_after, ...)`` plays ``trials`` games from the position after one of
our plays (we are row 0, the opponent is on roll), both sides choosing at 0-ply
with the net (and the bear-off databases), and averages the results:
``[win, gammon, backgammon, gammon loss, backgammon loss]`` and the equity, with
the standard error of the equity.

As GNU Backgammon does:

* **Variance reduction** (``vr=True``): at every turn the 0-ply value of the best
  play of each of the 21 rolls is computed; the *luck* of the roll actually thrown
  is its value minus their average. Each trial's result less the sum of its luck
  (in our point of view) has the same expectation and a much smaller variance.
* **Truncation** (``truncate=N``): a trial stops after ``N`` plies and takes the
  0-ply value of the position reached instead of a finished game's result (exact
  where the bear-off databases apply).
* **Stratified first rolls and common dice**: trial ``t`` opens with roll
  ``t mod 36`` of the 36 ordered rolls, and every candidate play is rolled out with
  the same dice streams, so comparisons between plays are not swamped by luck.

The dice are seeded: trial ``t`` of seed ``s`` always throws the same dice,
whatever machine or process plays it, so a rollout is reproducible, and splitting
its trials between processes (``workers``) or a Ray cluster (``ray_address``, the
optional ``dicehall[cluster]`` extra) gives the very same numbers.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from dicehall.bots.backgammon.neural import equity, flip
from dicehall.bots.backgammon.search import ROLL_WEIGHTS, ROLLS, evaluate_after, pruned_choice
from dicehall.games.backgammon.fast import CHECKERS, outcome, plays, swap

# numba caches a kernel by its own file only: edit this file when features.encode changes
# (the inputs grew from 201 to 207 on 1 Dec 2026, to 219 on 2 Dec 2026; encode_base 6 Dec)

if TYPE_CHECKING:
    from dicehall.bots.backgammon.network import Network

#: at most this many trials per rollout (each is a whole game at most)
MAX_TRIALS = 1_000_000
#: trials per task handed to a worker process or a Ray task
CHUNK = 36


@njit(cache=True)
def _best_play(
    board: Any,
    d1: int,
    d2: int,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    y: Any,
    prune: int,
) -> Any:
    """The mover's (row 0) best 0-ply play of ``d1-d2``: returns the board after it,
    its value for him in ``y``; ``prune`` > 0 values only the plays the pruning net
    ranks best (``search.pruned_choice``)."""
    n, _, boards, _ = plays(board, d1, d2)
    i = pruned_choice(board, boards, n, w1, b1, w2, b2, ext, single, y, prune)
    if i >= 0:
        return boards[i].copy()
    best = -1e9
    pick = 0
    cur = np.empty(5)
    for i in range(n):
        evaluate_after(boards[i], w1, b1, w2, b2, ext, cur)
        eq = equity(cur, single)
        if boards[i, 0, 0] == CHECKERS:
            y[:] = cur
            return boards[i].copy()
        if eq > best:
            best = eq
            pick = i
            y[:] = cur
    return boards[pick].copy()


@njit(cache=True)
def rollout_trials(
    start: Any,
    first: int,
    count: int,
    seed: int,
    truncate: int,
    vr: bool,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    prune: int,
) -> Any:
    """Trials ``first .. first + count - 1`` from ``start`` (we are row 0 and have just
    moved). Row ``t`` of the result: the raw outcome (5 probabilities for us, 0 or
    1 for a finished game) then the variance-reduced one (5 more)."""
    out = np.zeros((count, 10))
    y = np.empty(5)
    mine = np.empty(5)
    mean = np.empty(5)
    after = np.empty((2, 26), dtype=np.int8)
    luck = np.empty(5)
    for t in range(count):
        trial = first + t
        np.random.seed((seed * 1_000_003 + trial) % 4_294_967_296)
        board = swap(start)  # the opponent on roll
        ours = False  # whether the side on roll is us
        luck[:] = 0.0
        ply = 0
        result = np.zeros(5)
        while True:
            if ply == 0:
                k = trial % 36
                a, b = k // 6 + 1, k % 6 + 1
            else:
                a = np.random.randint(1, 7)
                b = np.random.randint(1, 7)
            d1, d2 = max(a, b), min(a, b)
            if vr:
                mean[:] = 0.0
                for r in range(ROLLS.shape[0]):
                    other = _best_play(
                        board, ROLLS[r, 0], ROLLS[r, 1], w1, b1, w2, b2, ext, single, mine, prune
                    )
                    mean += ROLL_WEIGHTS[r] * mine
                    if ROLLS[r, 0] == d1 and ROLLS[r, 1] == d2:
                        after = other
                        y[:] = mine
                # the roll's luck for the side on roll, added in our point of view
                # (his win is our loss; his gammons are our gammon losses)
                if ours:
                    luck += y - mean
                else:
                    luck[0] -= y[0] - mean[0]
                    luck[1] += y[3] - mean[3]
                    luck[2] += y[4] - mean[4]
                    luck[3] += y[1] - mean[1]
                    luck[4] += y[2] - mean[2]
            else:
                after = _best_play(board, d1, d2, w1, b1, w2, b2, ext, single, y, prune)
            ply += 1
            points = outcome(after[0], after[1])
            if points > 0 or (truncate > 0 and ply >= truncate):
                if points > 0:
                    y[:] = 0.0
                    y[0] = 1.0
                    y[1] = 1.0 if points >= 2 else 0.0
                    y[2] = 1.0 if points >= 3 else 0.0
                else:
                    evaluate_after(after, w1, b1, w2, b2, ext, y)
                if ours:
                    result[:] = y
                else:
                    flip(y, result)
                break
            board = swap(after)
            ours = not ours
        out[t, :5] = result
        out[t, 5:] = result - luck
    return out


@dataclass(frozen=True)
class RolloutResult:
    """A rolled-out position: mean outcome, equity and its standard error."""

    probs: tuple[float, float, float, float, float]
    equity: float
    stderr: float
    trials: int

    @property
    def win(self) -> float:
        return self.probs[0]


def _weights_bytes(network: Network) -> bytes:
    import io

    buf = io.BytesIO()
    np.savez(buf, w1=network.w1, b1=network.b1, w2=network.w2, b2=network.b2)
    return buf.getvalue()


_NETS: dict[str, tuple[Any, Any, Any, Any, Any]] = {}


def _params_from(weights: bytes, bearoff: bool) -> tuple[Any, Any, Any, Any, Any]:
    """The compiled search's parameters for serialised weights (cached per process)."""
    import io

    from dicehall.bots.backgammon.network import Network

    key = hashlib.sha256(weights).hexdigest() + str(bearoff)
    if key not in _NETS:
        with np.load(io.BytesIO(weights)) as f:
            net = Network(f["w1"], f["b1"], f["w2"], f["b2"], {}, bearoff=bearoff)
        _NETS[key] = net.params()
    return _NETS[key]


def _task(job: tuple[Any, ...]) -> Any:
    """One chunk of trials (picklable, run by a process or a Ray task)."""
    start, first, count, seed, truncate, vr, single, weights, bearoff, prune = job
    w1, b1, w2, b2, ext = _params_from(weights, bearoff)
    return rollout_trials(
        start, first, count, seed, truncate, vr, w1, b1, w2, b2, ext, single, prune
    )


def _run(jobs: list[tuple[Any, ...]], workers: int, ray_address: str | None) -> list[Any]:
    return run_tasks(_task, jobs, workers, ray_address)


def run_tasks(
    fn: Callable[[Any], Any], jobs: Sequence[Any], workers: int, ray_address: str | None
) -> list[Any]:
    """``[fn(job) for job in jobs]`` in this process (``workers`` <= 1), in a pool of
    processes, or on a Ray cluster (``ray_address``: an address or ``"local"``); the
    results in the order of ``jobs``. ``fn`` must be a module-level function.
    Raises ``RuntimeError`` when Ray is asked for and not installed."""
    if ray_address is not None:
        from dicehall.core.cluster import connect_ray

        try:
            ray = connect_ray(ray_address, workers)
        except ImportError as exc:
            raise RuntimeError(f"{exc} to roll out on a cluster") from None
        remote = ray.remote(fn)
        return list(ray.get([remote.remote(job) for job in jobs]))
    if workers <= 1:
        return [fn(job) for job in jobs]
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(fn, jobs, chunksize=1)


def rollout_many(
    starts: Sequence[Any],
    *,
    trials: int = 1296,
    seed: int = 1,
    truncate: int = 0,
    vr: bool = True,
    single: bool = True,
    network: Network | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    prune: int = 0,
) -> list[RolloutResult]:
    """Roll out each position in ``starts`` (boards after a play, we are row 0) with
    the same ``trials`` dice streams. ``workers`` > 1 runs the trials in that many
    processes; ``ray_address`` (``"local"`` or a cluster's address) on Ray instead.
    ``prune`` > 0: each side values only the ``prune`` plays of a roll that the
    shipped pruning net ranks best (``prune.py``), about twice as fast.
    Raises ``ValueError`` for a bad number of trials, truncation or pruning."""
    if not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"trials must be between 1 and {MAX_TRIALS:,}, not {trials}")
    if truncate < 0:
        raise ValueError(
            f"truncate must be 0 (play to the end) or a number of plies, not {truncate}"
        )
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if prune < 0:
        raise ValueError(f"prune must be 0 (value every play) or a number of plays, not {prune}")
    if network is None:
        from dicehall.bots.backgammon import default_network

        network = default_network()
    if network.bearoff:
        network.params()  # build the databases once here, not in every worker
    weights = _weights_bytes(network)
    jobs = [
        (
            np.asarray(s, dtype=np.int8),
            first,
            min(CHUNK, trials - first),
            seed,
            truncate,
            vr,
            single,
            weights,
            network.bearoff,
            prune,
        )
        for s in starts
        for first in range(0, trials, CHUNK)
    ]
    per_start = math.ceil(trials / CHUNK)
    rows: list[Any] = []
    # in batches, so that a progress callback can follow a long rollout
    batch = max(1, workers) * 4
    for k in range(0, len(jobs), batch):
        rows.extend(_run(jobs[k : k + batch], workers, ray_address))
        if progress is not None:
            progress(min(k + batch, len(jobs)), len(jobs))
    results = []
    for s in range(len(starts)):
        data = np.concatenate(rows[s * per_start : (s + 1) * per_start])
        results.append(summarise(data, vr, single))
    return results


def summarise(data: Any, vr: bool, single: bool) -> RolloutResult:
    """Mean outcome, equity and standard error from ``rollout_trials`` rows."""
    cols = data[:, 5:] if vr else data[:, :5]
    probs = cols.mean(axis=0)
    if single:
        eq = 2.0 * cols[:, 0] - 1.0
    else:
        eq = 2.0 * cols[:, 0] - 1.0 + cols[:, 1] - cols[:, 3] + cols[:, 2] - cols[:, 4]
    n = cols.shape[0]
    se = float(eq.std(ddof=1) / math.sqrt(n)) if n > 1 else float("inf")
    return RolloutResult(
        tuple(float(v) for v in probs),  # type: ignore[arg-type]
        float(eq.mean()),
        se,
        n,
    )


def default_workers() -> int:
    """Processes to use when not told: the machine's cores."""
    return max(1, os.cpu_count() or 1)


__all__ = [
    "MAX_TRIALS",
    "RolloutResult",
    "default_workers",
    "rollout_many",
    "rollout_trials",
    "run_tasks",
]
