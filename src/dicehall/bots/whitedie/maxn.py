"""Three or more players: every seat maximises its own chance of winning (max^n).

``values[x_0, x_1, ..., x_{n-1}]`` holds the winning chances of every seat, for the
scores ``x`` listed from the player on turn onwards in seat order (rotated so that
the player on turn comes first), under max^n play: the player on turn maximises his
own chance in every decision; his opponent in matching maximises *his own* chance
(not the player's loss) in his forced reroll; the player picks the opponent that
is best for him, after seeing his own dice.

After a challenge scoring ``s`` the turn passes; the outcome is the vector
``R[s]``: the player wins (``e_0``) if he reaches the target, else the values at the
next player's rotated scores (rolled back into this rotation). ``R[0]`` is the
value of the same scores with the next player on turn, so the ``n`` rotations of
one score tuple form a cycle; every other successor has a higher total. Score
tuples are solved from the highest total down, each cycle by policy iteration:
fix every policy, solve the cycle's linear equations exactly, improve, repeat
until nothing moves by more than ``tolerance``.

Tic-tac-toe is valued by the shipped score minimax (the player maximises points,
the opponent minimises them). That is the max^n outcome whenever the two sides'
preferences over the reachable scores are opposite (the player's chance rises with
his score, the opponent's falls); ``MaxnSolution.ttt_exact`` counts the positions
where that holds for every opponent, and the rest are the documented approximation.

With ``free`` (the default game, option ``free_choices``) the player also arranges
his Pips square to the reachable score worth most to him; the optional claim is then
taken wherever the score minimax is exact (more squares never hurt there).

Cost: one policy evaluation per position per iteration (0.06 to 0.1 s), so
``target ** n`` positions: 9,261 for three players at the default target (shipped,
``maxn3_21_free.npz`` and ``maxn3_21.npz``: 30 to 41 minutes of one niced process on a
shared machine), 194,481 for four (about a day of one core: only ``target=6`` is
shipped, ``maxn4_6_free.npz``), 4 million for five: elsewhere ``perfect`` uses the
two-player approximation of ``winprob``. Long solves write a checkpoint after every
score total and resume from it; a table stopped early is exact from its
``lowest_total`` up and is used there.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dicehall.bots.whitedie import matching
from dicehall.bots.whitedie.blas import one_thread
from dicehall.bots.whitedie.dice import FOUR_PROB, N
from dicehall.bots.whitedie.winprob import (
    MAX_SCORE,
    reroll_distribution,
    tictactoe_distribution,
)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

MAXN_TABLES = Path(__file__).with_name("maxn3.npz")
"""The shipped complete three-player table (``target=8``, standard chart)."""

MAXN21_TABLES = Path(__file__).with_name("maxn3_21.npz")
"""The shipped three-player table for the default game (``target=21``), solved from the
highest score total down as far as it went (its ``lowest_total``)."""

MAXN21_FREE_TABLES = Path(__file__).with_name("maxn3_21_free.npz")
"""The same for the default game with free choices (the player arranges Pips)."""

MAXN_FREE_TABLES = Path(__file__).with_name("maxn3_8_free.npz")
"""The complete three-player table with ``target=8`` for the game with free choices."""

MAXN4_FREE_TABLES = Path(__file__).with_name("maxn4_6_free.npz")
"""Four players with ``target=6`` and free choices: the largest four-player table shipped."""

SHIPPED = (MAXN_TABLES, MAXN_FREE_TABLES, MAXN21_TABLES, MAXN21_FREE_TABLES, MAXN4_FREE_TABLES)

EXACT_PLAYERS = (2, 3, 4)
"""Player counts whose perfect play is solved somewhere (two by ``winprob`` at every
target; three here at targets 21 and 8, four at target 6)."""


# -- matching with two objectives ----------------------------------------------------
@dataclass(frozen=True)
class GeneralMatching:
    """Matching where the player maximises ``U`` and the opponent maximises ``G``
    (final tables over (player's multiset, opponent's multiset)).

    ``u1``/``u2``/``u3``: the player's expected ``U`` at each stage; ``g3``: the
    opponent's expected ``G`` after the player's last choice; choices ``c1`` (the
    player's pair), ``c2`` (the opponent's pair), ``c3`` (-1 stand, else the die).
    """

    u1: FloatArray
    u2: FloatArray
    u3: FloatArray
    g3: FloatArray
    c1: IntArray
    c2: IntArray
    c3: IntArray


def general_matching(big_u: FloatArray, big_g: FloatArray) -> GeneralMatching:
    """Solve matching by backward induction with the two objectives (ties go to the
    first option, standing first)."""
    mv1, mv2 = matching.moves(1), matching.moves(2)
    rer_u = np.where(mv1.valid[:, :, None], matching._float_stage3(big_u), -np.inf)
    best3 = rer_u.max(axis=1)
    take = best3 > big_u + 1e-12
    c3 = np.where(take, rer_u.argmax(axis=1), -1)
    u3 = np.where(take, best3, big_u)
    rer_g = matching._float_stage3(big_g)
    pick = np.take_along_axis(rer_g, np.maximum(c3, 0)[:, None, :], axis=1)[:, 0, :]
    g3 = np.where(c3 >= 0, pick, big_g)
    opts_g = np.where(mv2.valid[None, :, :], matching._float_opponent(g3), -np.inf)
    best2 = opts_g.max(axis=2, keepdims=True)
    c2 = np.argmax(opts_g >= best2 - 1e-12, axis=2)
    u2 = np.take_along_axis(matching._float_opponent(u3), c2[:, :, None], axis=2)[:, :, 0]
    opts1 = np.where(mv2.valid[:, :, None], matching._float_player_pair(u2), -np.inf)
    c1 = opts1.argmax(axis=1)
    u1 = opts1.max(axis=1)
    return GeneralMatching(u1, u2, u3, g3, c1, c2, c3)


# -- one position -------------------------------------------------------------------
@dataclass(frozen=True)
class TurnPlan:
    """A turn at one position: the challenge score distribution (white 2..6) under
    max^n play, the chosen matching opponent per own roll, and whether the score
    order makes tic-tac-toe's score minimax the max^n outcome."""

    distribution: FloatArray
    opponent: IntArray
    ttt_exact: bool


@dataclass
class _Turns:
    chart: str
    scores: IntArray  # matching score table
    ttt: FloatArray  # tic-tac-toe score distribution
    free: bool = False  # the player arranges Pips freely (and decides the claim)

    def plan(self, outcome: FloatArray) -> TurnPlan:
        """``outcome[s]``: every seat's chance (rotated, player first) after ``s``."""
        n = outcome.shape[1]
        u = outcome[:, 0]
        total = self.ttt.copy()
        for white in (2, 5, 6):
            total += reroll_distribution(white, u, self.chart, self.free)
        sc = self.scores
        big_u = u[sc]
        best_value = np.full(N, -np.inf)
        choice = np.zeros(N, dtype=np.int64)
        plans = []
        for j in range(1, n):
            gm = general_matching(big_u, outcome[:, j][sc])
            before = gm.u1 @ FOUR_PROB  # the player's value of each own roll
            better = before > best_value + 1e-12
            choice = np.where(better, j, choice)
            best_value = np.where(better, before, best_value)
            plans.append(gm)
        final = np.zeros((N, N))
        for j, gm in enumerate(plans, start=1):
            rows = np.where(choice == j, FOUR_PROB, 0.0)
            if rows.any():
                final += matching.matching_mass(np.outer(rows, FOUR_PROB), gm.c1, gm.c2, gm.c3)
        total += np.bincount(sc.ravel(), final.ravel(), MAX_SCORE + 1)
        support = self.ttt > 0
        exact = bool(
            np.all(np.diff(u[support]) >= -1e-12)
            and all(np.all(np.diff(outcome[support, j]) <= 1e-12) for j in range(1, n))
        )
        return TurnPlan(total / 5.0, choice, exact)


@cache
def _turns(chart: str, free: bool = False) -> _Turns:
    from dicehall.bots.whitedie.tables import load_tables

    tables = load_tables()
    return _Turns(chart, tables.matching, tictactoe_distribution(tables.tictactoe), free)


def outcomes(
    values: FloatArray, target: int, x: tuple[int, ...], cycle: FloatArray | None = None
) -> FloatArray:
    """``R[s]`` for the player on turn at rotated scores ``x``: every seat's chance
    (same rotation) after he scores ``s`` and the turn passes. ``cycle`` replaces
    the table's value of ``x`` rotated by one (the unknown ``R[0]`` while solving)."""
    n = len(x)
    out = np.zeros((MAX_SCORE + 1, n))
    rest = x[1:]
    for s in range(MAX_SCORE + 1):
        if x[0] + s >= target:
            out[s, 0] = 1.0
            continue
        nxt = values[(*rest, x[0] + s)] if s or cycle is None else cycle
        out[s] = np.roll(nxt, 1)
    return out


def leads(x: tuple[int, ...]) -> bool:
    """The player on turn leads or is tied for the lead (a white 1 ends his turn)."""
    return x[0] >= max(x[1:])


def turn_value(plan: TurnPlan, outcome: FloatArray, lead: bool) -> FloatArray:
    """Every seat's chance at this position given the plan and the outcomes."""
    challenge: FloatArray = plan.distribution @ outcome
    if lead:
        return np.asarray(1 / 6 * outcome[0] + 5 / 6 * challenge)
    return challenge


# -- the solver ---------------------------------------------------------------------
@dataclass(frozen=True)
class MaxnSolution:
    """``values[rotated scores]``: every seat's winning chance (rotated the same way)."""

    players: int
    target: int
    chart: str
    values: FloatArray
    iterations: int
    ttt_exact: int
    positions: int
    seconds: float
    lowest_total: int = 0
    """Positions whose scores add up to at least this are solved (0: all of them); a
    partial table, solved from the highest total down, stops above 0."""
    free: bool = False
    """Solved for the game with free choices (the player arranges his Pips square as
    he likes; the claim, optional too, is taken wherever the score minimax values
    tic-tac-toe exactly, since more squares then never hurt)."""

    def solved(self, scores: tuple[int, ...]) -> bool:
        """True if the table holds the exact max^n values at ``scores``."""
        return sum(scores) >= self.lowest_total

    def chances(self, scores: tuple[int, ...], turn: int) -> FloatArray:
        """Each seat's chance (in seat order) with ``scores`` and ``turn`` to roll."""
        n = self.players
        x = tuple(scores[(turn + i) % n] for i in range(n))
        v = self.values[x]
        out = np.empty(n)
        for i in range(n):
            out[(turn + i) % n] = v[i]
        return out


@one_thread
def solve_maxn(
    players: int = 3,
    target: int = 21,
    chart: str = "standard",
    *,
    tolerance: float = 1e-12,
    log: Callable[[str], None] | None = None,
    checkpoint: Path | None = None,
    seconds: float | None = None,
    free: bool = False,
) -> MaxnSolution:
    """Solve max^n White Die for ``players`` seats (see the module docstring); ``free``:
    the game with free choices (the player arranges Pips to his best chance).

    With ``checkpoint`` the table is written there (atomically) after every score
    total, and a later call with the same file resumes below the last total done.
    With ``seconds`` it stops after the first total finished past that many seconds
    (of this call) and returns a partial solution (``lowest_total`` > 0).

    :raises ValueError: for fewer than three players (``winprob`` solves two).
    """
    if players < 3:
        raise ValueError("max^n is for three or more players; two are solved by winprob")
    start = time.time()
    turns = _turns(chart, free)
    n = players
    top = n * (target - 1)
    values = np.zeros((target,) * n + (n,))
    iterations = 0
    exact = 0
    spent = 0.0  # seconds of earlier calls (a resumed checkpoint)
    lowest = top + 1
    if checkpoint is not None and checkpoint.exists():
        old = _read(checkpoint)
        if (old.players, old.target, old.chart, old.free) != (n, target, chart, free):
            raise ValueError(f"{checkpoint} holds another game: {old.players} players, "
                             f"target {old.target}, {old.chart}, free {old.free}")  # fmt: skip
        values, iterations, exact = old.values.copy(), old.iterations, old.ttt_exact
        spent, lowest = old.seconds, old.lowest_total
    for total in range(lowest - 1, -1, -1):
        for x in itertools.product(range(target), repeat=n):
            if sum(x) != total or x != min(x[k:] + x[:k] for k in range(n)):
                continue  # another total, or a rotation of a tuple already solved
            cyc = [x[k:] + x[:k] for k in range(n)]  # cyc[k]: seat k of x on turn
            # absolute chances w[k] (seat order of x) with seat k on turn
            w = _first_guess(values, target, x)
            plans: list[TurnPlan] = []
            for _ in range(50):
                iterations += 1
                consts, passes, plans = [], [], []
                for k in range(n):
                    # the unknown R[0]: the next seat on turn, in his own rotation
                    nxt = np.roll(w[(k + 1) % n], -((k + 1) % n))
                    out = outcomes(values, target, cyc[k], cycle=nxt)
                    plan = turns.plan(out)
                    plans.append(plan)
                    lead = leads(cyc[k])
                    # value = const + a * (value with seat k+1 on turn), in seat k's rotation
                    dist = plan.distribution
                    c = dist[1:] @ out[1:]
                    a = dist[0]
                    if lead:
                        c, a = 5 / 6 * c, 5 / 6 * a + 1 / 6
                    consts.append(np.roll(c, k))  # back to x's seat order
                    passes.append(a)
                # w_k = c_k + a_k w_{k+1}: solve the cycle exactly
                new = np.zeros((n, n))
                acc, factor = np.zeros(n), 1.0
                for k in range(n):
                    acc += factor * consts[k]
                    factor *= passes[k]
                new[0] = acc / (1.0 - factor)
                for k in range(n - 1, 0, -1):
                    new[k] = consts[k] + passes[k] * new[(k + 1) % n]
                change = float(np.abs(new - w).max())
                w = new
                if change < tolerance:
                    break
            for k in range(n):
                values[cyc[k]] = np.roll(w[k], -k)
            exact += sum(p.ttt_exact for p in plans)
        lowest = total
        sol = MaxnSolution(n, target, chart, values, iterations, exact, target**n,
                           spent + time.time() - start, lowest, free)  # fmt: skip
        if checkpoint is not None:
            save(sol, checkpoint)
        if log is not None:
            log(f"score total {total}: done ({sol.seconds:.0f} s, {iterations} iterations)")
        if seconds is not None and time.time() - start > seconds and total > 0:
            return sol
    return MaxnSolution(n, target, chart, values, iterations, exact, target**n,
                        spent + time.time() - start, 0, free)  # fmt: skip


def _first_guess(values: FloatArray, target: int, x: tuple[int, ...]) -> FloatArray:
    """A starting point for the policy iteration of the cycle of ``x``: seat ``k`` on
    turn valued as if seat ``k - 1`` had one point more (a solved position, next to
    the unknown one), or a fair share where that point would win. A good guess
    usually gives the final policies at once, so two iterations suffice."""
    n = len(x)
    w = np.full((n, n), 1.0 / n)
    for k in range(n):
        prev = (k - 1) % n
        if x[prev] + 1 >= target:
            continue
        y = list(x)
        y[prev] += 1
        rotated = tuple(y[k:] + y[:k])
        w[k] = np.roll(values[rotated], k)
    return w


def bellman_residual(sol: MaxnSolution, positions: list[tuple[int, ...]] | None = None) -> float:
    """Largest violation of the max^n equations (all positions, or those given)."""
    turns = _turns(sol.chart, sol.free)
    worst = 0.0
    todo = positions or list(itertools.product(range(sol.target), repeat=sol.players))
    for x in todo:
        out = outcomes(sol.values, sol.target, x)
        v = turn_value(turns.plan(out), out, leads(x))
        worst = max(worst, float(np.abs(v - sol.values[x]).max()))
    return worst


# -- shipped table ------------------------------------------------------------------
def save(sol: MaxnSolution, path: Path = MAXN_TABLES) -> Path:
    """Write a solution (compressed) for shipping or caching; a partial one keeps its
    ``lowest_total`` (the positions below it are zeros)."""
    meta = np.array([sol.players, sol.target, sol.iterations, sol.ttt_exact, sol.seconds,
                     sol.lowest_total, int(sol.free)])  # fmt: skip
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, values=sol.values, meta=meta, chart=np.array(sol.chart))
    tmp.replace(path)
    load_maxn.cache_clear()
    return path


def _read(path: Path) -> MaxnSolution:
    with np.load(path) as data:
        meta = data["meta"]
        players, target = int(meta[0]), int(meta[1])
        return MaxnSolution(
            players, target, str(data["chart"]), data["values"], int(meta[2]), int(meta[3]),
            target**players, float(meta[4]), int(meta[5]) if len(meta) > 5 else 0,
            bool(meta[6]) if len(meta) > 6 else False,
        )  # fmt: skip


def read_maxn(path: Path) -> MaxnSolution:
    """The max^n table written to ``path`` by ``save`` (a shipped table or a checkpoint)."""
    return _read(path)


@cache
def load_maxn(
    players: int = 3, target: int = 21, chart: str = "standard", free: bool = False
) -> MaxnSolution | None:
    """The shipped max^n table for these options (complete, or solved from the highest
    score total down to its ``lowest_total``), or None."""
    for path in SHIPPED:
        if path.exists():
            sol = _read(path)
            if (sol.players, sol.target, sol.chart, sol.free) == (players, target, chart, free):
                return sol
    return None
