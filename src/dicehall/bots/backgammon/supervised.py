"""Supervised training of the contact net on a stronger teacher's evaluations.

    python -m dicehall.bots.backgammon.supervised --out runs/sup --chunks 60 \
        --per-chunk 1000 --teacher-plies 2 --gnubg-procs 6 --epochs 30 --hidden 256 \
        --export FILE

TD(0) self-play alone (``td.py``) leaves the contact net well below GNU Backgammon's
0-ply. As wildbg does with rollouts, this module fits the net to deeper values of
many positions instead, in three resumable stages:

1. **positions** (``OUT/positions-NNNN.npz``): contact positions after a play, from
   seeded self-play of the shipped net at 0-ply with a share ``--explore`` of random
   plays (so the positions are not only those the net already likes). At every
   decision the play made is kept, and so is one other legal play drawn at random:
   choosing a move means ranking the positions after all the plays, so the net must
   also know the ones it would not pick. Only contact positions are kept: races go
   to the race net and bear-offs to the databases (``search.evaluate_after``).
2. **targets** (``OUT/targets-NNNN.npz``): each position valued by the teacher. The
   teacher is GNU Backgammon (``/usr/games/gnubg``, its embedded Python, cubeless,
   ``--teacher-plies`` deep), used as an independent reference: only its numbers are
   used, never its code. gnubg values the side on roll, so its five probabilities
   are flipped to the side that just moved, as our outputs are. gnubg's embedded
   ``evaluate`` spends most of each call waiting rather than computing, so
   ``--gnubg-procs`` processes are driven at once, one thread each, each sent
   ``BATCH`` positions a line. ``--ray ADDRESS`` (or ``local``; the optional extra
   ``dicehall[cluster]``) values each chunk in ``--gnubg-procs`` Ray tasks instead,
   each with a gnubg of its own wherever the cluster runs it: the same targets.
   ``--teacher self`` makes our own search the teacher instead (``--teacher-net``,
   ``--teacher-plies`` 0 to 2, ``--procs`` processes or Ray tasks): no gnubg needed.
   ``--boards-from RUN`` takes another run's positions, so that a second teacher
   values the same boards, and ``--blend FIRST SECOND`` writes the mean of two
   teachers' targets (``--blend-weight``): gnubg 1-ply and our 2-ply are each about
   as far from gnubg 2-ply, and their mean is closer than either.
3. **fit** (``OUT/sup-checkpoint.npz`` every epoch, ``OUT/log.jsonl``): mini-batch
   Adam on the cross-entropy between the net's sigmoid outputs and the teacher's
   probabilities, starting from the shipped TD weights. ``--hidden`` larger than
   theirs adds hidden units whose output weights start at zero, so the start is the
   TD net exactly. The last chunk is held out; the log reports its mean squared
   error per output and its win-probability error, before and after. ``--resume``
   continues bit for bit (the order of every epoch comes from ``(seed, epoch)``).
   ``--fit-only`` skips stages 1 and 2 and fits the target files already in ``OUT``
   (for instance links to the chunks of several runs, each file holding its boards).

A chunk is named by its index and seeded by ``(seed, index)``: a stopped run, rerun
with the same arguments, skips every file already written and makes the same data.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from dicehall.bots.backgammon.features import NUM_INPUTS, encode, is_race
from dicehall.bots.backgammon.neural import equity
from dicehall.bots.backgammon.search import (
    choose_0ply,
    evaluate_after,
)
from dicehall.games.backgammon.fast import (
    CHECKERS,
    outcome,
    plays,
    roll_dice,
    start_board,
    swap,
)

# numba caches a kernel by its own file only: edit this file when features.encode changes
# (the inputs grew from 201 to 207 on 1 Dec 2026, to 219 on 2 Dec 2026)
GNUBG = "/usr/games/gnubg"
CHECKPOINT = "sup-checkpoint.npz"

# -- 1. positions ----------------------------------------------------------------------


@njit(cache=True)
def sample_positions(
    count: int, seed: int, explore: float, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any
) -> Any:
    """``count`` contact positions after a play (mover in row 0) from seeded self-play."""
    out = np.zeros((count, 2, 26), dtype=np.int8)
    np.random.seed(seed)
    k = 0
    while k < count:
        board = start_board()
        while k < count:
            d1, d2 = roll_dice()
            n, _, after_set, _ = plays(board, d1, d2)
            if np.random.random() < explore:
                i = np.random.randint(0, n)
            else:
                i = choose_0ply(board, d1, d2, w1, b1, w2, b2, ext, True)
            after = after_set[i]
            if not is_race(after) and after[0, 0] < CHECKERS:
                out[k] = after
                k += 1
                if n > 1 and k < count:
                    j = np.random.randint(0, n - 1)
                    j = j + 1 if j >= i else j
                    if not is_race(after_set[j]) and after_set[j, 0, 0] < CHECKERS:
                        out[k] = after_set[j]
                        k += 1
            if outcome(after[0], after[1]) > 0 or is_race(after):
                break  # the contact part of this game is over
            board = swap(after)
    return out


@njit(cache=True)
def sample_candidates(
    count: int,
    seed: int,
    explore: float,
    candidates: int,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
) -> Any:
    """``count`` contact positions after a play from seeded self-play, as
    :func:`sample_positions`, but at every decision the ``candidates`` plays the net
    ranks highest at 0-ply are kept (best first, the first of equals first; those that
    are races or bear every checker off are skipped), then the play made when it is
    not among them (a random one, a share ``explore`` of the time). The close plays
    are the ones a net must rank right; the one random other play of
    :func:`sample_positions` is mostly a clearly bad position.

    Returns the boards (mover in row 0), and for each the board before the play
    (the player to move in row 0), the dice, and the play's rank by the net (0 the
    best; -1 the play made when it is not among the ``candidates``)."""
    out = np.zeros((count, 2, 26), dtype=np.int8)
    before = np.zeros((count, 2, 26), dtype=np.int8)
    dice = np.zeros((count, 2), dtype=np.int64)
    rank = np.zeros(count, dtype=np.int64)
    np.random.seed(seed)
    y = np.empty(5)
    k = 0
    while k < count:
        board = start_board()
        while k < count:
            d1, d2 = roll_dice()
            n, _, after_set, _ = plays(board, d1, d2)
            eq = np.empty(n)
            pick, won = 0, False  # choose_0ply's pick: the first play that wins at once,
            for j in range(n):  # else the first of the best
                evaluate_after(after_set[j], w1, b1, w2, b2, ext, y)
                eq[j] = equity(y, True)
                if not won and after_set[j, 0, 0] == CHECKERS:
                    pick, won = j, True
                elif not won and eq[j] > eq[pick]:
                    pick = j
            i = np.random.randint(0, n) if np.random.random() < explore else pick
            taken = np.zeros(n, dtype=np.bool_)
            for r in range(min(candidates, n)):
                best = -1
                for j in range(n):
                    if not taken[j] and (best < 0 or eq[j] > eq[best]):
                        best = j
                taken[best] = True
                cand = after_set[best]
                if k < count and not is_race(cand) and cand[0, 0] < CHECKERS:
                    out[k], before[k], rank[k] = cand, board, r
                    dice[k, 0], dice[k, 1] = d1, d2
                    k += 1
            after = after_set[i]
            if k < count and not taken[i] and not is_race(after) and after[0, 0] < CHECKERS:
                out[k], before[k], rank[k] = after, board, -1
                dice[k, 0], dice[k, 1] = d1, d2
                k += 1
            if outcome(after[0], after[1]) > 0 or is_race(after):
                break  # the contact part of this game is over
            board = swap(after)
    return out, before, dice, rank


def _chunk_seed(seed: int, index: int) -> int:
    return int(np.random.default_rng([seed, index]).integers(1, 2**31 - 1))


def make_positions(
    out: Path,
    chunks: int,
    per_chunk: int,
    seed: int,
    explore: float,
    start: Path | None = None,
    candidates: int = 0,
    source: Path | None = None,
) -> None:
    """Write ``OUT/positions-NNNN.npz`` for every chunk not already there, from
    self-play of the net in ``start`` (default: the shipped one); with ``candidates``
    the net's best plays at each decision (:func:`sample_candidates`).

    With ``source`` (another run's folder) chunk ``i`` takes instead the boards of that
    run's chunk ``i`` (its ``positions-`` or ``targets-NNNN.npz``), so that a second
    teacher values the very positions a first one did (:func:`blend_targets`).
    Raises ``FileNotFoundError`` when ``source`` lacks a chunk."""
    from dicehall.bots.backgammon.network import Network

    out.mkdir(parents=True, exist_ok=True)
    if source is not None:
        for i in range(chunks):
            path = out / f"positions-{i:04d}.npz"
            if not path.exists():
                _save(path, boards=_boards_of(source, i))
        return
    params = Network.load(start).params()
    for i in range(chunks):
        path = out / f"positions-{i:04d}.npz"
        if not path.exists():
            if candidates > 0:
                boards, _, _, rank = sample_candidates(
                    per_chunk, _chunk_seed(seed, i), explore, candidates, *params
                )
                _save(path, boards=boards, rank=rank)
            else:
                boards = sample_positions(per_chunk, _chunk_seed(seed, i), explore, *params)
                _save(path, boards=boards)


def _boards_of(run: Path, i: int) -> Any:
    """The boards of chunk ``i`` of another run (its positions, else its targets)."""
    for name in (f"positions-{i:04d}.npz", f"targets-{i:04d}.npz"):
        if (run / name).exists():
            with np.load(run / name) as f:
                return f["boards"]
    raise FileNotFoundError(f"{run} has no chunk {i} (positions- or targets-{i:04d}.npz)")


def _save(path: Path, **arrays: Any) -> None:
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as fh:
        np.savez_compressed(fh, **arrays)
    tmp.replace(path)


# -- 2. the teacher ----------------------------------------------------------------------

_SERVER = """
import sys
for c in ("set player 0 human", "set player 1 human", "new session", "new game"):
    gnubg.command(c)
ctx = {"cubeful": 0, "plies": PLIES, "deterministic": 1, "prune": 1, "noise": 0.0}
ci = gnubg.cubeinfo()
out = sys.__stdout__
for line in sys.stdin:
    v = [int(t) for t in line.split()]
    if not v:
        break
    vals = []
    for s in range(0, len(v), 50):
        p = gnubg.evaluate((tuple(v[s : s + 25]), tuple(v[s + 25 : s + 50])), ci, ctx)
        vals.extend(repr(x) for x in p[:5])
    out.write("EVAL " + " ".join(vals) + "\\n")
    out.flush()
"""

# positions sent to gnubg in one line: one round trip through its pipes costs about
# as much as a 0-ply evaluation many times over
BATCH = 64
#: who values the positions: GNU Backgammon, or our own search (``--teacher``)
TEACHERS = ("gnubg", "self")


class GnubgTeacher:
    """GNU Backgammon's cubeless evaluator at ``plies``, in one process of its own."""

    def __init__(self, plies: int) -> None:
        if not shutil.which(GNUBG):
            raise RuntimeError(f"{GNUBG} is not installed (apt-get install gnubg)")
        self._dir = tempfile.TemporaryDirectory()
        script = Path(self._dir.name) / "teacher.py"
        script.write_text(_SERVER.replace("PLIES", str(int(plies))))
        self.proc = subprocess.Popen(
            [GNUBG, "-t", "-q", "-r", "-p", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def value(self, after: Any) -> np.ndarray[Any, Any]:
        """Probabilities for the side that just moved (row 0), as our net's outputs."""
        row: np.ndarray[Any, Any] = self.values(after[None])[0]
        return row

    def values(self, boards: Any) -> np.ndarray[Any, Any]:
        """:meth:`value` of every board in ``boards``, in one round trip to gnubg."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        words: list[int] = []
        for after in boards:
            # gnubg's board: (side not on roll, side on roll), points 1..24 then the bar
            words += after[0, 1:26].tolist() + after[1, 1:26].tolist()
        self.proc.stdin.write(" ".join(map(str, words)) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("gnubg stopped")
            if line.startswith("EVAL"):
                break
        p = np.array([float(t) for t in line.split()[1:]]).reshape(len(boards), 5)
        return np.stack([1.0 - p[:, 0], p[:, 3], p[:, 4], p[:, 1], p[:, 2]], axis=1)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self._dir.cleanup()


def label_chunk(boards: Any, teachers: list[GnubgTeacher]) -> Any:
    """The teachers' values of ``boards``, the positions split among their processes."""
    targets = np.zeros((boards.shape[0], 5))
    parts = np.array_split(np.arange(boards.shape[0]), len(teachers))

    def work(t: int) -> None:
        for s in range(0, parts[t].shape[0], BATCH):
            idx = parts[t][s : s + BATCH]
            targets[idx] = teachers[t].values(boards[idx])

    with ThreadPoolExecutor(len(teachers)) as pool:
        list(pool.map(work, range(len(teachers))))
    return targets


def _label_task(job: tuple[Any, int]) -> Any:
    """One share of a chunk valued by a gnubg of its own (a Ray task)."""
    boards, plies = job
    teacher = GnubgTeacher(plies)
    try:
        return np.concatenate(
            [teacher.values(boards[s : s + BATCH]) for s in range(0, boards.shape[0], BATCH)]
        )
    finally:
        teacher.close()


# -- 2b. our own search as the teacher ----------------------------------------------------

#: positions in one job of our own teacher: small, so that every process stays busy to
#: the end of a run
SELF_SHARE = 50
#: the depths our own teacher searches (``search.evaluate_1ply`` and ``evaluate_2ply``)
SELF_PLIES = (0, 1, 2)


def _self_label_task(job: tuple[Any, int, bytes, int]) -> Any:
    """Our net's ``plies``-deep probabilities of each board (mover in row 0), its
    opponent's replies chosen by cubeless money equity as gnubg's cubeless evaluation
    does, the pruning net choosing the ``prune`` plays of each inner roll valued (0:
    all); a module-level function, so that a process or a Ray task can run it."""
    from dicehall.bots.backgammon.rollout import _params_from
    from dicehall.bots.backgammon.search import _evaluate_1ply, _evaluate_2ply

    boards, plies, weights, prune = job
    params = _params_from(weights, True)
    out = np.zeros((boards.shape[0], 5))
    counter = np.zeros(1, dtype=np.int64)
    for k in range(boards.shape[0]):
        board = boards[k].copy()
        if plies == 0:
            evaluate_after(board, *params, out[k])
        elif plies == 1:
            _evaluate_1ply(board, *params, False, out[k], counter, prune)
        else:
            _evaluate_2ply(board, *params, False, 1, 0.0, out[k], counter, 0, prune)
    return out


def self_teacher_name(net: Path | None, plies: int, prune: int = 0) -> str:
    """How target files name our own teacher: its depth, its net's weights' digest, and
    its pruning (``prune.py``) if any."""
    import hashlib

    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.rollout import _weights_bytes

    digest = hashlib.sha256(_weights_bytes(Network.load(net))).hexdigest()[:12]
    return f"dicehall {plies}-ply (net {digest}" + (f", pruned to {prune})" if prune else ")")


def _self_targets(
    out: Path,
    todo: list[int],
    chunks: int,
    plies: int,
    procs: int,
    net: Path | None,
    progress: bool,
    ray_address: str | None,
    prune: int = 0,
) -> None:
    """:func:`make_targets` with our own search as the teacher: each chunk is cut into
    shares of ``SELF_SHARE`` positions, valued by ``procs`` processes (one pool for the
    whole run) or by Ray tasks; a chunk is written as soon as its shares are in."""
    import multiprocessing

    from rich.console import Console
    from rich.progress import Progress

    from dicehall.bots.backgammon.network import Network
    from dicehall.bots.backgammon.rollout import _weights_bytes, run_tasks

    if plies not in SELF_PLIES:
        raise ValueError(f"our own teacher searches {SELF_PLIES} plies deep, not {plies}")
    weights = _weights_bytes(Network.load(net))
    name = self_teacher_name(net, plies, prune)
    boards = {i: _boards_of(out, i) for i in todo}
    shares = {i: range(0, boards[i].shape[0], SELF_SHARE) for i in todo}
    jobs = [(boards[i][s : s + SELF_SHARE], plies, weights, prune) for i in todo for s in shares[i]]

    def results() -> Any:
        if ray_address is not None:  # a few chunks a call, so that a stop loses little
            step = max(1, procs) * 4
            for s in range(0, len(jobs), step):
                yield from run_tasks(_self_label_task, jobs[s : s + step], procs, ray_address)
        elif procs <= 1:
            yield from map(_self_label_task, jobs)
        else:  # compiled once here, before the fork, not once in every process
            _self_label_task((jobs[0][0][:1], plies, weights, prune))
            with multiprocessing.get_context("fork").Pool(procs) as pool:
                yield from pool.imap(_self_label_task, jobs, chunksize=1)

    with Progress(console=Console(stderr=True), disable=not progress) as bar:
        task = bar.add_task(f"{name} targets", total=chunks, completed=chunks - len(todo))
        stream = results()
        for i in todo:
            # float32: seven digits are more than a teacher's accuracy, at half the size
            targets = np.concatenate([next(stream) for _ in shares[i]]).astype(np.float32)
            _save(
                out / f"targets-{i:04d}.npz",
                boards=boards[i],
                targets=targets,
                plies=plies,
                teacher=np.array(name),
            )
            bar.advance(task)
        stream.close()


def make_targets(
    out: Path,
    chunks: int,
    plies: int,
    procs: int,
    progress: bool = True,
    ray_address: str | None = None,
    teacher: str = "gnubg",
    net: Path | None = None,
    prune: int = 0,
) -> None:
    """Write ``OUT/targets-NNNN.npz`` for every chunk of positions not yet valued.

    The ``teacher`` is GNU Backgammon (``"gnubg"``) or our own search (``"self"``:
    the net in ``net``, default the shipped one, ``plies`` deep; see
    :func:`_self_targets`; ``prune`` > 0 lets the pruning net choose the plays of its
    inner rolls, about 2.5 times as fast). By default ``procs`` gnubg processes here share each
    chunk. With ``ray_address`` (a Ray cluster's address, or ``"local"``) each chunk
    is cut into ``procs`` shares valued by Ray tasks, each with a gnubg of its own on
    whatever machine runs it; gnubg is deterministic, so the targets are the same
    either way. Raises ``ValueError`` for an unknown teacher or a depth it lacks."""
    from rich.console import Console
    from rich.progress import Progress

    if teacher not in TEACHERS:
        raise ValueError(f"unknown teacher {teacher!r}: one of {', '.join(TEACHERS)}")
    todo = [i for i in range(chunks) if not (out / f"targets-{i:04d}.npz").exists()]
    if not todo:
        return
    if teacher == "self":
        _self_targets(out, todo, chunks, plies, procs, net, progress, ray_address, prune)
        return
    teachers = [] if ray_address else [GnubgTeacher(plies) for _ in range(max(1, procs))]
    stop = threading.Event()
    try:
        with Progress(console=Console(stderr=True), disable=not progress) as bar:
            task = bar.add_task(
                f"gnubg {plies}-ply targets", total=chunks, completed=chunks - len(todo)
            )
            for i in todo:
                if stop.is_set():
                    break
                with np.load(out / f"positions-{i:04d}.npz") as f:
                    boards = f["boards"]
                if ray_address:
                    from dicehall.bots.backgammon.rollout import run_tasks

                    shares = np.array_split(boards, max(1, procs))
                    jobs = [(share, plies) for share in shares if share.shape[0]]
                    targets = np.concatenate(run_tasks(_label_task, jobs, procs, ray_address))
                else:
                    targets = label_chunk(boards, teachers)
                _save(
                    out / f"targets-{i:04d}.npz",
                    boards=boards,
                    targets=targets,
                    plies=plies,
                    teacher=np.array(f"gnubg {plies}-ply"),
                )
                bar.advance(task)
    finally:
        for t in teachers:
            t.close()


def teacher_of(path: Path) -> str:
    """The teacher a target file names (files made before 6 Dec 2026 name none: gnubg)."""
    with np.load(path) as f:
        if "teacher" in f.files:
            return str(f["teacher"])
        return f"gnubg {int(f['plies'])}-ply"


def teachers_summary(names: set[str]) -> str:
    """One line for the teachers of a fit's target files: gnubg's depths together
    (``"gnubg 1/2-ply"``), then any other teacher, ``"; "`` between them."""
    plies = sorted(int(n[6:-4]) for n in names if re.fullmatch(r"gnubg \d-ply", n))
    others = sorted(n for n in names if not re.fullmatch(r"gnubg \d-ply", n))
    gnubg = ["gnubg " + "/".join(map(str, plies)) + "-ply"] if plies else []
    return "; ".join(gnubg + others)


def blend_targets(first: Path, second: Path, out: Path, chunks: int, weight: float = 0.5) -> None:
    """Write ``OUT/targets-NNNN.npz`` (those not there yet) as ``weight`` times the
    targets of ``first``'s chunk plus ``1 - weight`` times ``second``'s, for chunks
    that value the same boards by two teachers (``make_positions(source=...)``).
    Two teachers whose errors are independent average to a better one: on 2,000
    positions of the 2-ply set, gnubg 1-ply and our 2-ply are each 0.020 equity from
    gnubg 2-ply, their mean 0.016.

    Raises ``ValueError`` when a chunk's boards differ between the two runs or
    ``weight`` is not within [0, 1], and ``FileNotFoundError`` when one lacks a chunk."""
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"the blend's weight is a share, between 0 and 1, not {weight}")
    out.mkdir(parents=True, exist_ok=True)
    for i in range(chunks):
        path = out / f"targets-{i:04d}.npz"
        if path.exists():
            continue
        parts = []
        for run in (first, second):
            name = run / f"targets-{i:04d}.npz"
            if not name.exists():
                raise FileNotFoundError(f"{run} has no targets-{i:04d}.npz")
            with np.load(name) as f:
                parts.append((f["boards"], f["targets"], int(f["plies"]), teacher_of(name)))
        (ba, ta, pa, na), (bb, tb, pb, nb) = parts
        if ba.shape != bb.shape or not (ba == bb).all():
            raise ValueError(f"chunk {i}: {first} and {second} value different boards")
        _save(
            path,
            boards=ba,
            targets=weight * ta + (1.0 - weight) * tb,
            plies=max(pa, pb),
            teacher=np.array(f"{weight:g} {na} + {1.0 - weight:g} {nb}"),
        )


def read_targets(out: Path, chunks: int) -> tuple[Any, Any]:
    boards, targets = [], []
    for i in range(chunks):
        with np.load(out / f"targets-{i:04d}.npz") as f:
            boards.append(f["boards"])
            targets.append(f["targets"])
    return np.concatenate(boards), np.concatenate(targets)


# -- 3. the fit --------------------------------------------------------------------------


@njit(cache=True)
def encode_all(boards: Any) -> Any:
    """The net's inputs of every board, one row each (float32 to save memory)."""
    x = np.zeros((boards.shape[0], NUM_INPUTS), dtype=np.float32)
    row = np.empty(NUM_INPUTS)
    for i in range(boards.shape[0]):
        encode(boards[i], row)
        x[i] = row
    return x


def _sig(z: Any) -> Any:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def predict(x: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
    """Raw outputs of the net on input rows ``x`` (numpy, for the fit and its log)."""
    return _sig(_sig(x @ w1 + b1) @ w2 + b2)


def start_weights(hidden: int, seed: int, start: Path | None = None) -> list[Any]:
    """The net in ``start`` (default: the shipped one), widened to ``hidden`` units by
    units that start silent."""
    from dicehall.bots.backgammon.network import Network

    net = Network.load(start)
    w1, b1, w2, b2 = (a.copy() for a in net.weights())
    extra = hidden - w1.shape[1]
    if extra < 0:
        raise ValueError(f"--hidden {hidden} is below the shipped net's {w1.shape[1]} units")
    rng = np.random.default_rng([seed, 7])
    w1 = np.concatenate([w1, rng.normal(0.0, 0.1, (NUM_INPUTS, extra))], axis=1)
    b1 = np.concatenate([b1, np.zeros(extra)])
    w2 = np.concatenate([w2, np.zeros((extra, w2.shape[1]))], axis=0)
    return [w1, b1, w2, b2]


def _errors(x: Any, t: Any, weights: list[Any]) -> dict[str, float]:
    y = predict(x, *weights)
    return {
        "mse": float(((y - t) ** 2).mean()),
        "win_mae": float(np.abs(y[:, 0] - t[:, 0]).mean()),
    }


def adam_step(
    weights: list[Any], m: list[Any], v: list[Any], grads: list[Any], step: int, lr: float
) -> None:
    """One Adam update (0.9, 0.999, 1e-8) of ``weights`` and its moments, in place;
    ``step`` counts from 1."""
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    c1, c2 = 1.0 - b1_**step, 1.0 - b2_**step
    for k in range(len(weights)):
        m[k] = b1_ * m[k] + (1.0 - b1_) * grads[k]
        v[k] = b2_ * v[k] + (1.0 - b2_) * grads[k] ** 2
        weights[k] = weights[k] - lr * (m[k] / c1) / (np.sqrt(v[k] / c2) + eps)


def save_checkpoint(
    path: Path,
    meta: dict[str, Any],
    step: int,
    weights: list[Any],
    m: list[Any],
    v: list[Any],
) -> None:
    """A fit's state, float64 with Adam's moments, so that a resumed fit goes on bit
    for bit; ``meta`` has at least the epoch, the seed and the width (``hidden``)."""
    arrays = {f"w{k}": weights[k] for k in range(4)}
    arrays |= {f"m{k}": m[k] for k in range(4)} | {f"v{k}": v[k] for k in range(4)}
    _save(path, meta=np.array(json.dumps(meta)), step=np.array(step), **arrays)


def load_checkpoint(
    path: Path, seed: int, hidden: int
) -> tuple[list[Any], list[Any], list[Any], int, int]:
    """``(weights, m, v, step, epoch)`` from ``save_checkpoint``'s file; raises
    ``ValueError`` when it was made with another seed or width."""
    with np.load(path) as f:
        meta = json.loads(str(f["meta"]))
        weights = [f[f"w{k}"] for k in range(4)]
        m = [f[f"m{k}"] for k in range(4)]
        v = [f[f"v{k}"] for k in range(4)]
        step = int(f["step"])
    if meta["seed"] != seed or meta["hidden"] != hidden:
        raise ValueError(f"{path} was made with {meta}; pass the same --seed and --hidden")
    return weights, m, v, step, int(meta["epoch"])


def fit(
    out: Path,
    boards: Any,
    targets: Any,
    *,
    epochs: int,
    hidden: int,
    seed: int,
    lr: float,
    batch: int,
    holdout: int,
    resume: bool = False,
    stop_after: int | None = None,
    start: Path | None = None,
) -> list[Any]:
    """Adam on the cross-entropy, a checkpoint (float64, with Adam's moments) after
    every epoch; ``resume`` continues bit for bit. The step size falls linearly to a
    tenth over ``epochs``; ``stop_after`` ends this session after that many epochs."""
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / CHECKPOINT
    x = encode_all(boards).astype(np.float64)
    xtr, ttr = x[:-holdout], targets[:-holdout]
    xte, tte = x[-holdout:], targets[-holdout:]
    epoch = 0
    if resume and ckpt.exists():
        weights, m, v, step, epoch = load_checkpoint(ckpt, seed, hidden)
    else:
        weights = start_weights(hidden, seed, start)
        m = [np.zeros_like(w) for w in weights]
        v = [np.zeros_like(w) for w in weights]
        step = 0
        before = _errors(xte, tte, weights)
        line = {"epoch": 0, "holdout_mse": before["mse"], "holdout_win_mae": before["win_mae"]}
        with (out / "log.jsonl").open("a") as log:
            log.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)
    session = 0
    while epoch < epochs and (stop_after is None or session < stop_after):
        session += 1
        a = lr * (1.0 - 0.9 * epoch / max(1, epochs))
        order = np.random.default_rng([seed, epoch]).permutation(xtr.shape[0])
        total = 0.0
        for s in range(0, order.shape[0], batch):
            idx = order[s : s + batch]
            xb, tb = xtr[idx], ttr[idx]
            h = _sig(xb @ weights[0] + weights[1])
            y = _sig(h @ weights[2] + weights[3])
            total += float(((y - tb) ** 2).sum())
            dz = (y - tb) / idx.shape[0]  # cross-entropy through the sigmoid
            dh = (dz @ weights[2].T) * h * (1.0 - h)
            grads = [xb.T @ dh, dh.sum(axis=0), h.T @ dz, dz.sum(axis=0)]
            step += 1
            adam_step(weights, m, v, grads, step, a)
        epoch += 1
        test = _errors(xte, tte, weights)
        meta = {"epoch": epoch, "seed": seed, "hidden": hidden, "positions": int(x.shape[0])}
        save_checkpoint(ckpt, meta, step, weights, m, v)
        line = {"epoch": epoch, "lr": round(a, 6), "train_mse": total / (5 * xtr.shape[0])}
        line |= {"holdout_mse": test["mse"], "holdout_win_mae": test["win_mae"]}
        with (out / "log.jsonl").open("a") as log:
            log.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)
    return weights


def export(path: Path, weights: list[Any], meta: dict[str, Any]) -> None:
    """Compact float32 weights that ``Network.load`` reads (what ships)."""
    from dicehall.bots.backgammon.network import Network

    w1, b1, w2, b2 = weights
    Network(w1, b1, w2, b2, meta).save(path, compact=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Fit the backgammon contact net to a teacher (gnubg or our own search)."
    )
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--chunks", type=int, default=60, help="chunks (the last held out)")
    parser.add_argument("--per-chunk", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--start", type=Path, default=None, help="weights to sample with and start from"
    )
    parser.add_argument("--explore", type=float, default=0.1, help="share of random plays")
    parser.add_argument(
        "--candidates",
        type=int,
        default=0,
        help="keep the net's best K plays at each decision, not one random other play",
    )
    parser.add_argument(
        "--teacher",
        default="gnubg",
        choices=TEACHERS,
        help="gnubg, or our own search (self) with --teacher-net",
    )
    parser.add_argument(
        "--teacher-net", type=Path, default=None, help="our own teacher's net (default: shipped)"
    )
    parser.add_argument("--teacher-plies", type=int, default=2, choices=(0, 1, 2, 3))
    parser.add_argument(
        "--teacher-prune",
        type=int,
        default=0,
        help="--teacher self: value only the N plays of each inner roll the pruning net "
        "ranks best (0: all)",
    )
    parser.add_argument(
        "--gnubg-procs", "--procs", dest="procs", type=int, default=4, help="teacher processes"
    )
    parser.add_argument(
        "--boards-from",
        type=Path,
        default=None,
        help="value another run's boards (its chunk i as chunk i) instead of self-play",
    )
    parser.add_argument(
        "--blend",
        nargs=2,
        type=Path,
        default=None,
        metavar=("FIRST", "SECOND"),
        help="write --out's targets as a blend of two runs' targets of the same boards",
    )
    parser.add_argument("--blend-weight", type=float, default=0.5, help="FIRST's share in --blend")
    parser.add_argument(
        "--ray", default=None, help="value the positions on Ray: a cluster's address, or local"
    )
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.001)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--stop-after", type=int, default=None, help="epochs in this session")
    parser.add_argument("--data-only", action="store_true", help="positions and targets only")
    parser.add_argument(
        "--fit-only", action="store_true", help="fit the targets-NNNN.npz already in --out"
    )
    parser.add_argument("--export", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.chunks < 2 or args.per_chunk < 2 or args.epochs < 1 or args.batch < 1:
        parser.error("--chunks must be >= 2, --per-chunk >= 2, --epochs and --batch >= 1")
    if args.candidates < 0:
        parser.error("--candidates must be >= 0")
    if not 0.0 <= args.explore <= 1.0:
        parser.error("--explore is a share, between 0 and 1")
    if args.data_only and args.fit_only:
        parser.error("--data-only and --fit-only exclude each other")
    if args.teacher == "self" and args.teacher_plies not in SELF_PLIES:
        parser.error(f"--teacher self searches {', '.join(map(str, SELF_PLIES))} plies deep")
    if args.teacher_prune < 0 or (args.teacher_prune and args.teacher != "self"):
        parser.error("--teacher-prune is a number of plays (>= 0), for --teacher self only")
    if args.blend:
        if not 0.0 <= args.blend_weight <= 1.0:
            parser.error("--blend-weight is a share, between 0 and 1")
        try:
            blend_targets(args.blend[0], args.blend[1], args.out, args.chunks, args.blend_weight)
        except (ValueError, FileNotFoundError) as exc:
            parser.error(str(exc))
        print(f"blended {args.chunks} chunks into {args.out}")
        return
    if not args.fit_only:
        try:
            make_positions(
                args.out,
                args.chunks,
                args.per_chunk,
                args.seed,
                args.explore,
                args.start,
                args.candidates,
                source=args.boards_from,
            )
        except FileNotFoundError as exc:
            parser.error(str(exc))
        make_targets(
            args.out,
            args.chunks,
            args.teacher_plies,
            args.procs,
            ray_address=args.ray,
            teacher=args.teacher,
            net=args.teacher_net,
            prune=args.teacher_prune,
        )
    if args.data_only:
        return
    boards, targets = read_targets(args.out, args.chunks)
    weights = fit(
        args.out,
        boards,
        targets,
        epochs=args.epochs,
        hidden=args.hidden,
        seed=args.seed,
        lr=args.lr,
        batch=args.batch,
        holdout=args.per_chunk,
        resume=args.resume,
        stop_after=args.stop_after,
        start=args.start,
    )
    if args.export:
        from dicehall.bots.backgammon.network import Network

        meta = dict(Network.load(args.start).meta)  # the start net's TD games and so on
        meta |= {"hidden": args.hidden, "seed": args.seed, "epochs": args.epochs}
        # this fit's own settings, not the start net's note (which it would inherit)
        started = args.start.name if args.start else "the shipped net"
        meta |= {
            "start": f"{started}, then lr {args.lr:g} falling to a tenth over "
            f"{args.epochs} epochs, batch {args.batch}, seed {args.seed}",
            "made": datetime.date.today().isoformat(),
        }
        names = {teacher_of(args.out / f"targets-{i:04d}.npz") for i in range(args.chunks)}
        teacher = teachers_summary(names)
        meta |= {"positions": int(boards.shape[0]), "teacher": teacher}
        export(args.export, weights, meta)
        print(f"exported {args.export}")


if __name__ == "__main__":
    main()
