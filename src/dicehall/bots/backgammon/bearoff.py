"""Bear-off databases, computed by our own code: one-sided and two-sided.

A *bear-off position* of one side is its checkers on its six home points (the rest
borne off). Such a side is indexed by the combinatorial rank of its counts
``c1..c6`` among all counts with at most ``N`` checkers (``rank``), so every one of
the ``C(N + 6, 6)`` positions has its own slot.

* **One-sided** (``N = 15``, 54,264 positions): for each position the exact
  distribution of the number of rolls needed to bear every checker off, playing each
  roll to minimise the expected number of rolls (as GNU Backgammon's one-sided
  database does). ``ONE[i, k]`` = probability that position ``i`` needs exactly ``k``
  rolls. For the 15,504 positions with all 15 checkers still on the board there is a
  second distribution, ``GAMMON[i, k]``: rolls until the *first* checker is off
  (each roll played to minimise its expectation), which is what decides gammons.
* **Two-sided** (``N = 6`` each, 924 x 924 = 853,776 pairs): the exact cubeless
  probability that the side on roll wins, both sides playing every roll to
  maximise their own chance (not an approximation from two one-sided tables).
  ``TWO[i * 924 + j]`` is that probability with ``i`` on roll against ``j``.

Both are computed in about a minute on one core the first time they are needed
(with a progress bar on stderr) and cached in the user's data directory
(``platformdirs.user_data_dir("dicehall")``, or ``$DICEHALL_DATA_DIR``), as
``bearoff-v1.npz`` (float32, about 7 MB compressed). ``python -m
dicehall.bots.backgammon.bearoff`` builds them explicitly.

The evaluator (``search.evaluate_after``) uses them whenever both sides have every
checker home: the two-sided table when both have at most six left (exact), the
one-sided distributions otherwise (exact for each side alone; combining them
assumes each side plays to bear off fast, which is what matters in such races).

>>> rank(np.array([0, 1, 0, 0, 0, 0, 0], dtype=np.int64), 15)
1
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from dicehall.games.backgammon.fast import plays

#: checkers per side in the one-sided database, and in the two-sided one
ONE_CHECKERS = 15
TWO_CHECKERS = 6
ONE_SIZE = comb(ONE_CHECKERS + 6, 6)  # 54,264
TWO_SIDE = comb(TWO_CHECKERS + 6, 6)  # 924
#: longest bear-off, in rolls, that the one-sided distribution has room for
MAX_ROLLS = 32
VERSION = 1
FILENAME = f"bearoff-v{VERSION}.npz"

#: binomial coefficients C(n, k) for n < 32, k <= 6
_BINOM = np.array([[comb(n, k) for k in range(7)] for n in range(32)], dtype=np.int64)
_ROLLS = np.array([(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)], dtype=np.int64)
_WEIGHTS = np.array([(1.0 if a == b else 2.0) / 36.0 for a, b in _ROLLS])


@njit(cache=True, nogil=True)
def rank(counts: Any, total: int) -> int:
    """Index of the home-board counts ``counts[1..6]`` among positions of at most
    ``total`` checkers (``counts[0]``, the borne-off count, is ignored)."""
    left = total
    idx = 0
    for p in range(6, 0, -1):
        c = counts[p]
        for v in range(c):
            idx += _BINOM[left - v + p - 1, p - 1]
        left -= c
    return idx


def positions(total: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Every home-board position of at most ``total`` checkers, row ``rank(row)``;
    column 0 is the number still missing from ``total`` (not the borne-off count)."""
    size = comb(total + 6, 6)
    out = np.zeros((size, 7), dtype=np.int64)
    row = np.zeros(7, dtype=np.int64)

    def fill(p: int, left: int) -> None:
        if p == 0:
            row[0] = left
            out[rank(row, total)] = row
            return
        for c in range(left + 1):
            row[p] = c
            fill(p - 1, left - c)
        row[p] = 0

    fill(6, total)
    return out


@njit(cache=True, nogil=True)
def _board(counts: Any) -> Any:
    """A compact board with ``counts`` on our home points and the opponent out of
    the way (all on his 1-point, our 24-point)."""
    board = np.zeros((2, 26), dtype=np.int8)
    on = 0
    for p in range(1, 7):
        board[0, p] = counts[p]
        on += counts[p]
    board[0, 0] = 15 - on
    board[1, 1] = 15
    return board


@njit(cache=True, nogil=True)
def _successors(pos: Any, total: int, rank_total: int) -> Any:
    """``succ[i, r, :]``: ranks (for ``rank_total`` checkers) of the positions each
    legal play of roll ``r`` leads to from position ``i``, padded with -1."""
    n_pos = pos.shape[0]
    succ = np.full((n_pos, 21, 64), -1, dtype=np.int64)
    counts = np.zeros(7, dtype=np.int64)
    for i in range(n_pos):
        on = 0
        for p in range(1, 7):
            on += pos[i, p]
        if on == 0:
            continue
        board = _board(pos[i])
        for r in range(21):
            n, _, boards, _ = plays(board, _ROLLS[r, 0], _ROLLS[r, 1])
            for k in range(n):
                for p in range(1, 7):
                    counts[p] = boards[k, 0, p]
                succ[i, r, k] = rank(counts, rank_total)
    return succ


@njit(cache=True, nogil=True)
def _one_sided_chunk(
    order: Any, start: int, stop: int, pos: Any, one: Any, gammon: Any, mean: Any, gmean: Any
) -> None:
    """Fill the distributions of ``order[start:stop]`` (their successors, having
    fewer pips, are already done)."""
    counts = np.zeros(7, dtype=np.int64)
    for o in range(start, stop):
        i = order[o]
        on = 0
        for p in range(1, 7):
            on += pos[i, p]
        if on == 0:
            one[i, 0] = 1.0
            continue
        board = _board(pos[i])
        full = on == 15
        for r in range(21):
            n, _, boards, _ = plays(board, _ROLLS[r, 0], _ROLLS[r, 1])
            best = -1
            best_mean = 1e9
            gbest = -1
            gbest_mean = 1e9
            for k in range(n):
                left = 0
                for p in range(1, 7):
                    counts[p] = boards[k, 0, p]
                    left += counts[p]
                s = rank(counts, 15)
                if mean[s] < best_mean:
                    best_mean = mean[s]
                    best = s
                if full:
                    g = 0.0 if left < 15 else gmean[s]
                    if g < gbest_mean:
                        gbest_mean = g
                        gbest = -2 if left < 15 else s
            w = _WEIGHTS[r]
            for k in range(one.shape[1] - 1):
                one[i, k + 1] += w * one[best, k]
            if full:
                if gbest == -2:
                    gammon[i, 1] += w
                else:
                    for k in range(gammon.shape[1] - 1):
                        gammon[i, k + 1] += w * gammon[gbest, k]
        m = 0.0
        for k in range(one.shape[1]):
            m += k * one[i, k]
        mean[i] = m
        if full:
            m = 0.0
            for k in range(gammon.shape[1]):
                m += k * gammon[i, k]
            gmean[i] = m


@njit(cache=True, nogil=True)
def _two_sided_chunk(order: Any, start: int, stop: int, succ: Any, two: Any) -> None:
    """Fill ``two`` for the pairs ``order[start:stop]`` (pair = i * side + j, in order
    of total pips, so every pair they depend on is done)."""
    side = succ.shape[0]
    for o in range(start, stop):
        pair = order[o]
        i = pair // side
        j = pair % side
        if i == 0:
            two[pair] = 1.0  # nothing left on roll: already won (not reachable in play)
            continue
        if j == 0:
            two[pair] = 0.0
            continue
        p = 0.0
        for r in range(21):
            best = 0.0
            for k in range(succ.shape[2]):
                s = succ[i, r, k]
                if s < 0:
                    break
                v = 1.0 if s == 0 else 1.0 - two[j * side + s]
                if v > best:
                    best = v
            p += _WEIGHTS[r] * best
        two[pair] = p


@njit(cache=True, nogil=True)
def _home_only(side: Any) -> bool:
    for p in range(7, 26):  # noqa: SIM110 (numba compiles no generator expressions)
        if side[p] > 0:
            return False
    return True


@njit(cache=True, nogil=True)
def bearoff_probs(board: Any, one: Any, gammon: Any, two: Any, y: Any) -> bool:
    """Probabilities ``[win, gammon, bg, gammon loss, bg loss]`` of the player who has
    just moved (row 0; the opponent is on roll) from the databases into ``y``, when
    both sides have every checker home. Returns False (``y`` untouched) when they do
    not apply or are empty."""
    if one.shape[0] == 0 or not _home_only(board[0]) or not _home_only(board[1]):
        return False
    mine = 15 - board[0, 0]
    theirs = 15 - board[1, 0]
    if mine == 0 or theirs == 0:
        return False  # the game is over; the caller scores it
    y[:] = 0.0
    if mine <= 6 and theirs <= 6 and two.shape[0] > 0:
        side = 924
        y[0] = 1.0 - two[rank(board[1], 6) * side + rank(board[0], 6)]
        return True
    a = one[rank(board[1], 15)]  # the opponent's rolls to finish (he rolls first)
    b = one[rank(board[0], 15)]
    n = a.shape[0]
    # I win when I need fewer rolls than he does: sum_k b[k] * P(his > k)
    tail = 0.0
    win = 0.0
    for k in range(n - 1, -1, -1):
        win += b[k] * tail
        tail += a[k]
    y[0] = win
    if theirs == 15:  # he has none off: I win a gammon if I finish before his first
        g = gammon[rank(board[1], 15)]
        tail = 0.0
        for k in range(n - 1, -1, -1):
            y[1] += b[k] * tail
            tail += g[k]
    if mine == 15:  # I have none off: he wins a gammon finishing by my first off
        g = gammon[rank(board[0], 15)]
        tail = 0.0  # P(my first off needs >= k rolls)
        for k in range(n - 1, -1, -1):
            tail += g[k]
            y[3] += a[k] * tail
    return True


def _progress(total: int, description: str) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn(description),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )


def _pips(pos: Any) -> Any:
    return (pos[:, 1:7] * np.arange(1, 7)).sum(axis=1)


def compute_one_sided(progress: bool = True) -> tuple[Any, Any]:
    """``(one, gammon)``: float64 ``(54264, MAX_ROLLS)`` distributions (see the module)."""
    pos = positions(ONE_CHECKERS)
    order = np.argsort(_pips(pos), kind="stable")
    one = np.zeros((ONE_SIZE, MAX_ROLLS))
    gammon = np.zeros((ONE_SIZE, MAX_ROLLS))
    mean = np.zeros(ONE_SIZE)
    gmean = np.zeros(ONE_SIZE)
    step = 2048
    bar = _progress(ONE_SIZE, "bear-off database, one-sided") if progress else None
    task = bar.add_task("one", total=ONE_SIZE) if bar else None
    if bar:
        bar.start()
    try:
        for start in range(0, ONE_SIZE, step):
            stop = min(ONE_SIZE, start + step)
            _one_sided_chunk(order, start, stop, pos, one, gammon, mean, gmean)
            if bar:
                bar.update(task, completed=stop)
    finally:
        if bar:
            bar.stop()
    return one, gammon


def compute_two_sided(progress: bool = True) -> Any:
    """float64 ``(924 * 924,)``: probability that the side on roll wins (see the module)."""
    pos = positions(TWO_CHECKERS)
    succ = _successors(pos, TWO_CHECKERS, TWO_CHECKERS)
    pips = _pips(pos)
    order = np.argsort((pips[:, None] + pips[None, :]).ravel(), kind="stable")
    two = np.zeros(TWO_SIDE * TWO_SIDE)
    total = two.shape[0]
    step = 65536
    bar = _progress(total, "bear-off database, two-sided") if progress else None
    task = bar.add_task("two", total=total) if bar else None
    if bar:
        bar.start()
    try:
        for start in range(0, total, step):
            stop = min(total, start + step)
            _two_sided_chunk(order, start, stop, succ, two)
            if bar:
                bar.update(task, completed=stop)
    finally:
        if bar:
            bar.stop()
    return two


@dataclass(frozen=True)
class Databases:
    """The bear-off tables, float64, ready to pass to compiled code."""

    one: np.ndarray[Any, np.dtype[np.float64]]
    gammon: np.ndarray[Any, np.dtype[np.float64]]
    two: np.ndarray[Any, np.dtype[np.float64]]

    def one_sided(self, counts: Any) -> Any:
        """Distribution of rolls to bear off home-board ``counts`` (index 1..6 used;
        a sequence of 6 is read as points 1..6)."""
        return self.one[rank(_counts(counts), ONE_CHECKERS)]

    def expected_rolls(self, counts: Any) -> float:
        """Mean number of rolls to bear off ``counts``."""
        d = self.one_sided(counts)
        return float((np.arange(d.shape[0]) * d).sum())

    def win_on_roll(self, mine: Any, theirs: Any) -> float:
        """Exact probability that the side on roll (``mine``) wins, both at most six
        checkers; raises ``ValueError`` otherwise."""
        a, b = _counts(mine), _counts(theirs)
        if a[1:].sum() > TWO_CHECKERS or b[1:].sum() > TWO_CHECKERS:
            raise ValueError(f"the two-sided database holds up to {TWO_CHECKERS} checkers a side")
        return float(self.two[rank(a, TWO_CHECKERS) * TWO_SIDE + rank(b, TWO_CHECKERS)])


def _counts(counts: Any) -> Any:
    c = np.asarray(counts, dtype=np.int64)
    if c.shape == (6,):
        c = np.concatenate([[0], c])
    if c.shape[0] < 7 or (c[1:7] < 0).any() or c[1:7].sum() > 15 or c[7:].any():
        raise ValueError(f"not a home-board position (points 1..6, at most 15): {counts!r}")
    return c[:7]


def data_dir() -> Path:
    """Where built databases are cached (``$DICEHALL_DATA_DIR`` overrides)."""
    env = os.environ.get("DICEHALL_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("dicehall"))


def build(path: Path | None = None, progress: bool = True) -> Path:
    """Compute both databases and write them (float32) to ``path``; returns it."""
    path = path or data_dir() / FILENAME
    one, gammon = compute_one_sided(progress)
    two = compute_two_sided(progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    full = positions(ONE_CHECKERS)[:, 1:7].sum(axis=1) == 15
    np.savez_compressed(
        buf,
        one=one.astype(np.float32),
        gammon_rows=np.flatnonzero(full),
        gammon=gammon[full].astype(np.float32),
        two=two.astype(np.float32),
        version=np.array(VERSION),
    )
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)  # atomic: a concurrent reader sees the old file or the new one
    return path


_LOADED: dict[str, Databases] = {}


def load(progress: bool | None = None) -> Databases:
    """The databases, built and cached on first use (with a progress bar on stderr
    when it is a terminal, unless ``progress`` says otherwise)."""
    path = data_dir() / FILENAME
    key = str(path)
    if key in _LOADED:
        return _LOADED[key]
    if not path.exists():
        if progress is None:
            progress = sys.stderr.isatty()
        if not progress:
            print(f"building the bear-off databases into {path} (about a minute)", file=sys.stderr)
        build(path, progress)
    with np.load(path) as f:
        one = f["one"].astype(np.float64)
        gammon = np.zeros_like(one)
        gammon[f["gammon_rows"]] = f["gammon"]
        two = f["two"].astype(np.float64)
    if one.shape != (ONE_SIZE, MAX_ROLLS) or two.shape != (TWO_SIDE * TWO_SIDE,):
        raise ValueError(f"{path}: not a bear-off database of version {VERSION}; delete it")
    _LOADED[key] = Databases(one, gammon, two)
    return _LOADED[key]


if __name__ == "__main__":
    print(build())
