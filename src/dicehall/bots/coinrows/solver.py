"""Coin Rows solved exactly: value iteration over every position, for any purse.

Under the ``row`` capture rule nothing in the rules tells one column from another:
a coin moves along its own column, a capture takes a whole row, a refill goes into
the emptied columns, and who pays into which column only matters once the game is
over. So a Phase A position is, up to relabelling the columns, the *multiset* of
the seven columns' contents (owner and row), seen from the player to act, plus his
purse (the other purse follows: coins are conserved). Seen from the player to act
means rows counted from his home row and "mine"/"theirs" for owners, so that a
position and its mirror image with the other player to act are one entry.

With 14 contents per column there are C(20, 7) = 77,520 boards, and
``77,520 x (2 x purse - 6)`` positions: 2.6 million for the default purse of 20.
``V[board, purse]`` is the expected result (+1 win, 0 draw, -1 loss) for the player
to act in Phase A under perfect play by both players:

    V = max( leave (if allowed): the result of the totals now,
             capture row r: broke opponent -> the result of the totals,
                            else -V(opponent to act on the refilled board),
             roll: sum over the 21 rolls of p(roll) x
                   7, 11, 12 or no coin to move: -V(opponent to act, same board)
                   else max over the legal plays of
                        V(same player, new board) after a full play,
                        -V(opponent, new board) after a partial one )

Value iteration (Gauss-Seidel, in place) starts from the result of the totals now,
which is what the game's turn limit scores, so the k-th sweep values a game that is
cut off after k decisions; it stops when no entry moves by more than ``tolerance``.
The values are those of the game without a turn limit (the default limit of 1000
turns is not part of the position); ``bellman_residual`` checks the fixed point.

Only ``capture=row`` and ``payoff=result`` are solved: under ``capture=adjacent``
the order of the columns matters and the state space is 14^7 boards per purse.

The model is general in the board's size (``rows``, ``columns``) so that tiny
variants can be checked against a brute-force solver; the seed's game is 7 x 7
and the opening puts ``columns - 2`` coins of the first player and 2 of the second
on their home rows (the seed's 5 and 2), or any ``opening`` split.

>>> sol = solve(purse=5, leaving=False)  # a minute or two  # doctest: +SKIP
>>> round(sol.start_value(), 4)                  # doctest: +SKIP
-0.0598
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from numba import njit

if TYPE_CHECKING:
    from dicehall.games.coinrows.rules import Action, CoinRowsState

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: The 21 rolls, low die first, and their probabilities in 36ths.
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0
ENDING = frozenset({7, 11, 12})
MOVING = np.array([i for i, (a, b) in enumerate(ROLLS) if a + b not in ENDING], dtype=np.int64)
P_ENDING = float(sum(WEIGHTS[i] for i, (a, b) in enumerate(ROLLS) if a + b in ENDING))


# -- boards as multisets of column contents ------------------------------------------
# A column's content is ``owner * rows + row``: owner 0 is the player to act, row 0 his
# home row. A board is the sorted tuple of its columns' contents, ranked in the
# combinatorial number system (strictly increasing y_i = x_i + i, rank sum comb(y_i, i+1)).


def _comb_table(n: int, k: int) -> IntArray:
    table = np.zeros((n + 1, k + 1), dtype=np.int64)
    for i in range(n + 1):
        for j in range(k + 1):
            table[i, j] = comb(i, j)
    return table


@njit(cache=True)
def _rank(codes: npt.NDArray[np.int64], binom: IntArray) -> int:  # pragma: no cover - numba
    # codes must be sorted; insertion sort a copy to be safe for callers
    c = codes.copy()
    for i in range(1, c.size):
        v = c[i]
        j = i - 1
        while j >= 0 and c[j] > v:
            c[j + 1] = c[j]
            j -= 1
        c[j + 1] = v
    r = 0
    for i in range(c.size):
        r += binom[c[i] + i, i + 1]
    return r


def _all_boards(codes: int, columns: int) -> IntArray:
    """Every multiset of ``columns`` contents out of ``codes``, in rank order."""
    out = np.zeros((comb(codes + columns - 1, columns), columns), dtype=np.int64)
    binom = _comb_table(codes + columns, columns)
    _fill_boards(out, codes, columns, binom)
    return out


@njit(cache=True)
def _fill_boards(
    out: IntArray, codes: int, columns: int, binom: IntArray
) -> None:  # pragma: no cover
    cur = np.zeros(columns, dtype=np.int64)
    while True:
        out[_rank(cur, binom)] = cur
        # next nondecreasing sequence
        i = columns - 1
        while i >= 0 and cur[i] == codes - 1:
            i -= 1
        if i < 0:
            return
        v = cur[i] + 1
        for j in range(i, columns):
            cur[j] = v


@njit(cache=True)
def _mirror(codes: IntArray, rows: int) -> IntArray:  # pragma: no cover - numba
    out = np.empty_like(codes)
    for i in range(codes.size):
        owner, row = codes[i] // rows, codes[i] % rows
        out[i] = (1 - owner) * rows + (rows - 1 - row)
    return out


@njit(cache=True)
def _tables(boards: IntArray, rows: int, binom: IntArray, rolls: IntArray):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Per board: its mirror, the mover's coins on it, each capture's result and the
    plays of each moving roll (CSR: offsets and target boards; ``full`` per roll).
    Targets of a partial play are stored mirrored (the opponent is to act there)."""
    nb, columns = boards.shape
    nr = rolls.shape[0]
    mirror = np.empty(nb, dtype=np.int64)
    mine = np.empty(nb, dtype=np.int64)
    # captures, per capture row: coins taken, the opponent's coins among them and the
    # refilled board mirrored (the opponent to act); k = 0 where no capture
    ncap = max(rows - 2, 1)
    cap_k = np.zeros((nb, ncap), dtype=np.int64)
    cap_theirs = np.zeros((nb, ncap), dtype=np.int64)
    cap_next = np.full((nb, ncap), -1, dtype=np.int64)
    full = np.zeros((nb, nr), dtype=np.bool_)
    counts = np.zeros(nb * nr, dtype=np.int64)
    for b in range(nb):
        codes = boards[b]
        mirror[b] = _rank(_mirror(codes, rows), binom)
        m = 0
        for i in range(columns):
            if codes[i] < rows:
                m += 1
        mine[b] = m
        for r in range(1, rows - 1):
            k = 0
            t = 0
            nxt = codes.copy()
            for i in range(columns):
                if codes[i] % rows == r:
                    k += 1
                    if codes[i] >= rows:
                        t += 1
                    nxt[i] = rows + rows - 1  # the opponent's coin on his home row
            if k >= 2:
                cap_k[b, r - 1] = k
                cap_theirs[b, r - 1] = t
                cap_next[b, r - 1] = _rank(_mirror(nxt, rows), binom)
        for ri in range(nr):
            found = _plays(codes, rows, rolls[ri, 0], rolls[ri, 1], binom)
            counts[b * nr + ri] = found[0]
            full[b, ri] = found[1] == rolls[ri, 0] + rolls[ri, 1]
    offsets = np.zeros(nb * nr + 1, dtype=np.int64)
    for i in range(nb * nr):
        offsets[i + 1] = offsets[i] + counts[i]
    targets = np.empty(offsets[-1], dtype=np.int64)
    for b in range(nb):
        codes = boards[b]
        for ri in range(nr):
            found = _plays(codes, rows, rolls[ri, 0], rolls[ri, 1], binom)
            base = offsets[b * nr + ri]
            for j in range(found[0]):
                target = found[2 + j]
                if not full[b, ri]:
                    target = mirror[target]
                targets[base + j] = target
    return mirror, mine, cap_k, cap_theirs, cap_next, full, offsets, targets


@njit(cache=True)
def _reach(row: int, die: int, rows: int, out: IntArray) -> int:  # pragma: no cover - numba
    """Destinations of a coin on ``row`` moving ``die`` up and down (stopping at the
    edge), leaving out a direction it cannot move in; returns how many."""
    n = 0
    up = min(rows - 1, row + die)
    if up != row:
        out[n] = up
        n += 1
    down = max(0, row - die)
    if down != row:
        out[n] = down
        n += 1
    return n


@njit(cache=True)
def _plays(
    codes: IntArray, rows: int, lo: int, hi: int, binom: IntArray
) -> IntArray:  # pragma: no cover
    """The distinct boards after the legal plays of (lo, hi): ``[count, pips, boards...]``.

    Mirrors ``games.coinrows.rules.legal_moves``: one coin by the total or two coins
    by one die each, each up or down and stopping at the edge; only the plays that
    move the most squares are legal."""
    columns = codes.size
    cap = 2 + 2 * columns + 8 * columns * columns
    res = np.empty(cap, dtype=np.int64)
    best = -1
    n = 0
    tmp = codes.copy()
    d_a = np.empty(2, dtype=np.int64)
    d_b = np.empty(2, dtype=np.int64)
    total = lo + hi
    for i in range(columns):
        if codes[i] >= rows:
            continue
        ri = codes[i]
        na = _reach(ri, total, rows, d_a)
        for x in range(na):
            pips = abs(d_a[x] - ri)
            if pips < best:
                continue
            if pips > best:
                best = pips
                n = 0
            tmp[i] = d_a[x]
            res[2 + n] = _rank(tmp, binom)
            n += 1
            tmp[i] = codes[i]
    for i in range(columns):
        if codes[i] >= rows:
            continue
        for j in range(i + 1, columns):
            if codes[j] >= rows:
                continue
            for order in range(2 if lo != hi else 1):
                d1 = lo if order == 0 else hi
                d2 = hi if order == 0 else lo
                na = _reach(codes[i], d1, rows, d_a)
                nb_ = _reach(codes[j], d2, rows, d_b)
                for x in range(na):
                    for y in range(nb_):
                        pips = abs(d_a[x] - codes[i]) + abs(d_b[y] - codes[j])
                        if pips < best:
                            continue
                        if pips > best:
                            best = pips
                            n = 0
                        tmp[i] = d_a[x]
                        tmp[j] = d_b[y]
                        res[2 + n] = _rank(tmp, binom)
                        n += 1
                        tmp[i] = codes[i]
                        tmp[j] = codes[j]
    # distinct boards only
    body = np.unique(res[2 : 2 + n]) if n > 0 else res[2:2]
    out = np.empty(2 + body.size, dtype=np.int64)
    out[0] = body.size
    out[1] = max(best, 0)
    out[2:] = body
    return out


@njit(cache=True)
def _sweep(  # pragma: no cover - numba
    v: FloatArray,
    mirror: IntArray,
    mine: IntArray,
    cap_k: IntArray,
    cap_theirs: IntArray,
    cap_next: IntArray,
    full: npt.NDArray[np.bool_],
    offsets: IntArray,
    targets: IntArray,
    weights: FloatArray,
    p_ending: float,
    columns: int,
    leaving: bool,
    update: bool,
) -> float:
    """One Gauss-Seidel sweep (``update``) or a residual check; the largest change."""
    nb, ns = v.shape
    s_total = ns - 1
    nr = weights.size
    delta = 0.0
    best = np.empty(ns)
    acc = np.empty(ns)
    for b in range(nb):
        mb = mirror[b]
        m = mine[b]
        # rolling
        for p in range(ns):
            acc[p] = -p_ending * v[mb, s_total - p]
        for ri in range(nr):
            w = weights[ri]
            if m == 0:
                for p in range(ns):
                    acc[p] -= w * v[mb, s_total - p]
                continue
            slot = b * nr + ri
            for p in range(ns):
                best[p] = -2.0
            f = full[b, ri]
            for t in range(offsets[slot], offsets[slot + 1]):
                tb = targets[t]
                if f:
                    for p in range(ns):
                        x = v[tb, p]
                        if x > best[p]:
                            best[p] = x
                else:
                    for p in range(ns):
                        x = -v[tb, s_total - p]
                        if x > best[p]:
                            best[p] = x
            for p in range(ns):
                acc[p] += w * best[p]
        for p in range(ns):
            value = acc[p]
            total_me = p + m
            total_them = s_total - p + columns - m
            if leaving:
                lv = _sign(total_me - total_them)
                if lv > value:
                    value = lv
            for c in range(cap_k.shape[1]):
                k = cap_k[b, c]
                if k == 0:
                    continue
                po = s_total - p
                if po < k:
                    t = cap_theirs[b, c]
                    cv = _sign(total_me + t - (total_them - t))
                else:
                    cv = -v[cap_next[b, c], po - k]
                if cv > value:
                    value = cv
            d = abs(value - v[b, p])
            if d > delta:
                delta = d
            if update:
                v[b, p] = value
    return delta


@njit(cache=True)
def _sign(x: int) -> float:  # pragma: no cover - numba
    return 1.0 if x > 0 else (-1.0 if x < 0 else 0.0)


# -- the model and its solution ------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """Which Coin Rows is solved: purse, leaving, board size and opening split."""

    purse: int = 20
    leaving: bool = True
    rows: int = 7
    columns: int = 7
    opening: tuple[int, int] | None = None  # coins (first, second) put on the board

    def __post_init__(self) -> None:
        if self.rows < 3 or self.columns < 2:
            raise ValueError("a board needs at least 3 rows and 2 columns")
        first, second = self.opening_coins
        if first + second != self.columns or min(first, second) < 0:
            raise ValueError(
                f"the opening must fill the {self.columns} columns, got {first}+{second}"
            )
        if self.purse < max(first, second):
            raise ValueError(f"a purse of {self.purse} cannot pay an opening of {first}+{second}")

    @property
    def opening_coins(self) -> tuple[int, int]:
        return self.opening if self.opening is not None else (self.columns - 2, 2)

    @property
    def purse_sum(self) -> int:
        """Coins off the board (both purses together) in every live position."""
        return 2 * self.purse - self.columns


class Model:
    """Boards, transitions and ranks of one board size (shared by every purse)."""

    def __init__(self, rows: int = 7, columns: int = 7) -> None:
        self.rows, self.columns = rows, columns
        self.codes = 2 * rows
        self.binom = _comb_table(self.codes + columns, columns)
        self.boards = _all_boards(self.codes, columns)
        rolls = np.array([ROLLS[i] for i in MOVING], dtype=np.int64)
        (
            self.mirror,
            self.mine,
            self.cap_k,
            self.cap_theirs,
            self.cap_next,
            self.full,
            self.offsets,
            self.targets,
        ) = _tables(self.boards, rows, self.binom, rolls)
        self.weights = WEIGHTS[MOVING].copy()

    def rank(self, codes: list[int] | IntArray) -> int:
        """The index of a board given its columns' contents (any order)."""
        return int(_rank(np.asarray(codes, dtype=np.int64), self.binom))

    def plays(self, board: int, roll: tuple[int, int]) -> tuple[bool, list[int]]:
        """(full roll moved?, boards after each distinct legal play, as the mover sees them)."""
        found = _plays(self.boards[board], self.rows, roll[0], roll[1], self.binom)
        return bool(found[1] == roll[0] + roll[1]), [int(x) for x in found[2:]]


@dataclass
class Solution:
    """``values[board, purse]``: the result for the player to act in Phase A."""

    variant: Variant
    model: Model
    values: FloatArray
    sweeps: int
    residual: float
    tolerance: float
    seconds: float

    def index(self, codes: list[int], purse: int) -> tuple[int, int]:
        return self.model.rank(codes), purse

    def value(self, codes: list[int], purse: int) -> float:
        """Value for the player to act (contents ``owner * rows + row``, his purse)."""
        return float(self.values[self.model.rank(codes), purse])

    def start_codes(self, opening: tuple[int, int] | None = None) -> tuple[list[int], int]:
        """The opening position as the first player sees it, and his purse."""
        first, second = opening or self.variant.opening_coins
        top = 2 * self.model.rows - 1  # the opponent's coin on his home row
        return [0] * first + [top] * second, self.variant.purse - first

    def start_value(self, opening: tuple[int, int] | None = None) -> float:
        """The first player's expected result from the start under perfect play."""
        codes, purse = self.start_codes(opening)
        return self.value(codes, purse)

    @cached_property
    def bellman_residual(self) -> float:
        """Largest violation of the Bellman equations over every position."""
        return float(_run_sweep(self, update=False))


def _run_sweep(sol: Solution, update: bool) -> float:
    m = sol.model
    return float(
        _sweep(
            sol.values,
            m.mirror,
            m.mine,
            m.cap_k,
            m.cap_theirs,
            m.cap_next,
            m.full,
            m.offsets,
            m.targets,
            m.weights,
            P_ENDING,
            m.columns,
            sol.variant.leaving,
            update,
        )
    )


def initial_values(variant: Variant, model: Model) -> FloatArray:
    """The result of the totals now for every position (what the turn limit scores)."""
    s = variant.purse_sum
    p = np.arange(s + 1)[None, :]
    m = model.mine[:, None]
    diff = (p + m) - (s - p + model.columns - m)
    out: FloatArray = np.sign(diff).astype(np.float64)
    return out


_MODELS: dict[tuple[int, int], Model] = {}


def model_for(rows: int = 7, columns: int = 7) -> Model:
    """The (cached) model of one board size."""
    key = (rows, columns)
    if key not in _MODELS:
        _MODELS[key] = Model(rows, columns)
    return _MODELS[key]


def solve(
    purse: int = 20,
    leaving: bool = False,
    *,
    rows: int = 7,
    columns: int = 7,
    tolerance: float = 1e-10,
    max_sweeps: int = 100_000,
    log: Callable[[str], None] | None = None,
) -> Solution:
    """Solve a Coin Rows variant by value iteration until no value moves by more than
    ``tolerance`` in a sweep.

    :raises ValueError: for a board or purse the rules do not allow.
    :raises RuntimeError: if ``max_sweeps`` pass without convergence.
    """
    variant = Variant(purse, leaving, rows, columns)
    start = time.time()
    model = model_for(rows, columns)
    sol = Solution(variant, model, initial_values(variant, model), 0, np.inf, tolerance, 0.0)
    while sol.sweeps < max_sweeps:
        delta = _run_sweep(sol, update=True)
        sol.sweeps += 1
        if log is not None and sol.sweeps % 25 == 0:
            log(f"sweep {sol.sweeps}: largest change {delta:.3g}")
        if delta <= tolerance:
            break
    else:
        raise RuntimeError(f"no convergence to {tolerance} in {max_sweeps} sweeps")
    sol.residual = delta
    sol.seconds = time.time() - start
    return sol


# -- reading the solution for the game's own states ------------------------------------
def codes_of(state: CoinRowsState) -> tuple[list[int], int]:
    """A live 7 x 7 position as the player on turn sees it: his columns' contents and
    his purse."""
    rows = 7
    turn = state.turn
    codes = []
    for coin in state.board:
        if coin is None:
            raise ValueError("only positions with seven coins in play are in the table")
        row = coin.row if turn == 0 else rows - 1 - coin.row
        codes.append((0 if coin.owner == turn else 1) * rows + row)
    return codes, state.purses[turn]


def state_value(sol: Solution, state: CoinRowsState, seat: int) -> float:
    """The expected result for ``seat`` of any position of the game (Phase A, dice or
    Phase B; a finished game's result), under perfect play from here."""
    from dicehall.games.coinrows.rules import Phase

    if sol.variant.rows != 7 or sol.variant.columns != 7:
        raise ValueError("only the 7 x 7 game has states in dicehall.games.coinrows")
    if state.phase is Phase.OVER:
        return float(state.returns()[seat])
    sign = 1.0 if seat == state.turn else -1.0
    if state.phase is Phase.A:
        codes, purse = codes_of(state)
        return sign * sol.value(codes, purse)
    if state.phase is Phase.DICE:
        return sum(
            float(p) * state_value(sol, state.apply(roll), seat)
            for roll, p in state.chance_outcomes()
        )
    return sign * max(state_value(sol, state.apply(a), state.turn) for a in state.legal_actions())


def action_values(sol: Solution, state: CoinRowsState) -> list[tuple[Action, float]]:
    """Every legal action of the player to act with its exact value for him."""
    seat = state.current_player()
    if seat < 0:
        raise ValueError("no decision to make here")
    return [(a, state_value(sol, state.apply(a), seat)) for a in state.legal_actions()]


# -- cached solutions --------------------------------------------------------------------
def cache_path(variant: Variant) -> Path:
    """Where a solved table is kept (``DICEHALL_CACHE`` overrides the user cache dir)."""
    env = os.environ.get("DICEHALL_CACHE")
    if env:
        root = Path(env)
    else:
        from platformdirs import user_cache_dir

        root = Path(user_cache_dir("dicehall"))
    name = f"coinrows-{variant.rows}x{variant.columns}-purse{variant.purse}"
    return root / f"{name}-leaving{int(variant.leaving)}.npz"


def load_or_solve(
    purse: int = 20,
    leaving: bool = False,
    *,
    tolerance: float = 1e-9,
    log: Callable[[str], None] | None = None,
) -> Solution:
    """The solution of a 7 x 7 variant from the cache, or solved now (minutes for
    large purses; ``log`` reports progress) and cached."""
    variant = Variant(purse, leaving)
    path = cache_path(variant)
    model = model_for()
    if path.exists():
        with np.load(path) as data:
            values = data["values"]
            if values.shape == (model.boards.shape[0], variant.purse_sum + 1):
                meta = data["meta"]
                return Solution(
                    variant, model, values, int(meta[0]), float(meta[1]), float(meta[2]),
                    float(meta[3]),
                )  # fmt: skip
    sol = solve(purse, leaving, tolerance=tolerance, log=log)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp.npz")
        meta = np.array([sol.sweeps, sol.residual, sol.tolerance, sol.seconds])
        np.savez_compressed(tmp, values=sol.values, meta=meta)
        tmp.replace(path)
    except OSError:
        pass  # a read-only cache only costs time
    return sol
