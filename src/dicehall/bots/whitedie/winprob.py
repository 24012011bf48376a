"""Playing to win the game, not to score: two-player value iteration, exact policy
evaluation, and the approximation used with three to six players.

Two players. ``win[a, b]`` is the chance that the player about to roll, with ``a``
points against ``b``, wins the game when both play perfectly. After a challenge
that scores ``s`` the turn passes, so the challenge's points are worth

    u(s) = 1                     if a + s >= target
    u(s) = 1 - win[b, a + s]     otherwise,

and the perfect policy maximises the expected ``u`` (the opponent in tic-tac-toe and
matching minimises it). A white 1 ends the turn of a leader (worth ``1 - win[b, a]``)
and is rolled again by a trailing player. Since ``u(0)`` couples ``win[a, b]`` with
``win[b, a]`` the pair is solved together by policy iteration: fix both policies,
solve the two linear equations exactly, improve the policies, repeat until they
stop changing. Score pairs are solved from the highest total down, so every other
value needed is already final.

Tic-tac-toe is deterministic once both sides have rolled, so when ``u`` is
increasing in the score the minimax of ``u`` is ``u`` of the score minimax and the
shipped score table serves. Because a white 1 ends the turn of a leader, a point
can be worth less than none: with the default rules that happens in 36 of the 441
score pairs (the opponent on 18 to 20, the player able to reach 19 or 20). There
the table values tic-tac-toe by its score minimax (an approximation, counted in
``TwoPlayerSolution.nonmonotone``), while the bot's own tic-tac-toe decisions
search exactly with the order of ``u`` (``tictactoe.ranks``); Poker, Pips, Sixes
and Matching maximise ``u`` itself everywhere.

Three to six players (an approximation, documented in docs/rules/whitedie.md): a
player values points as in a two-player game against his strongest rival, the
opponent with the most points: ``u(s)`` uses the two-player table at (his score +
s, the rival's score). An opponent in a duel minimises the same ``u`` of the
player. This keeps the "play for the points you need" behaviour near the target
while ignoring the extra turns of the other players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise, permutations, product
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from dicehall.bots.whitedie import matching, reroll
from dicehall.bots.whitedie.blas import one_thread
from dicehall.bots.whitedie.dice import (
    FOUR_PROB,
    MULTISETS,
    N,
    best_per_state,
    option_matrix,
    rolls,
)
from dicehall.games.whitedie.challenges import EMPTY_GRID, PIP_LAYOUTS, PipSquare

if TYPE_CHECKING:
    from dicehall.bots.whitedie.tables import Leaf, OrderKey, Tables

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

MAX_SCORE = 12
"""The most one challenge can score (a full tic-tac-toe grid)."""

Utility = FloatArray
"""Worth of each challenge score 0..MAX_SCORE (length MAX_SCORE + 1)."""


def points_utility() -> Utility:
    """The greedy objective: a point is a point."""
    return np.arange(MAX_SCORE + 1, dtype=np.float64)


TTT_SCORES = (0, 1, 2, 3, 4, 5, 6, 8, 12)
"""Every score a finished tic-tac-toe grid can have (any set of squares with the centre)."""


@cache
def pip_score_sets() -> tuple[frozenset[int], ...]:
    """For each of the 126 multisets, the scores of all its Pips arrangements (every
    placement and turn of the four dice): what a player free to arrange can take."""
    out = []
    for dice in MULTISETS:
        found = set()
        for order in set(permutations(dice)):
            for turns in product(*(range(len(PIP_LAYOUTS[f])) for f in order)):
                found.add(PipSquare(order, tuple(turns)).score())
        out.append(frozenset(found))
    return tuple(out)


def free_pip_scores(utility: Utility) -> IntArray:
    """The Pips score a player free to arrange takes from each multiset: the one worth
    most to him (the highest among equals, so increasing worth keeps the best square)."""
    return np.array(
        [
            max(sorted(options, reverse=True), key=lambda x: utility[x])
            for options in pip_score_sets()
        ],
        dtype=np.int64,
    )


def tictactoe_leaf(utility: Utility) -> Leaf | None:
    """The rank order of ``utility`` over the possible tic-tac-toe scores, or None if
    more points are never worth less there (then the score minimax is optimal, and
    claiming, which only adds squares, is too)."""
    vals = [float(utility[x]) for x in TTT_SCORES]
    if all(b >= a - 1e-12 for a, b in pairwise(vals)):
        return None
    distinct = sorted(set(vals))
    leaf = [0] * (MAX_SCORE + 1)
    for x, v in zip(TTT_SCORES, vals, strict=True):
        leaf[x] = distinct.index(v)
    return tuple(leaf)


def tictactoe_order_table(
    leaf: Leaf, free_claim: bool = False, scores: IntArray | None = None
) -> IntArray:
    """The tic-tac-toe outcome of every pair of rolls when the player maximises the
    rank ``leaf`` gives each score and the opponent minimises it, as the highest score
    of that rank.

    The outcome is the highest rank ``r`` such that the player can force a final score
    in ``U_r`` (the scores of rank ``r`` or more). The score minimax ``v`` (``scores``,
    the shipped table) settles most of these questions: the player can force a score
    of ``v`` or more, so ``U_r`` is forced when it holds every score from ``v`` up;
    the opponent can hold him to ``v`` or less (also when the claim is optional:
    declining only loses squares), so ``U_r`` is not forced when it holds no score up
    to ``v``. Only the rest is searched, as a game won or lost (leaf 1 in ``U_r``).
    """
    from dicehall.bots.whitedie.tictactoe import OPPONENT, _search, canonical

    if scores is None:
        from dicehall.bots.whitedie.tables import load_tables

        scores = load_tables().tictactoe
    rep = {leaf[x]: x for x in TTT_SCORES}  # increasing x: the highest of each rank
    levels = sorted(set(rep), reverse=True)
    upper = {r: frozenset(x for x in TTT_SCORES if leaf[x] >= r) for r in levels}
    indicator = {r: tuple(int(x in upper[r]) for x in range(MAX_SCORE + 1)) for r in levels}
    grid = canonical(EMPTY_GRID)
    out = np.zeros((N, N), dtype=np.int64)
    for i, mine in enumerate(MULTISETS):
        for j, theirs in enumerate(MULTISETS):
            v = int(scores[i, j])
            for r in levels:
                if r == levels[-1] or all(x in upper[r] for x in TTT_SCORES if x >= v):
                    break
                if not any(x in upper[r] for x in TTT_SCORES if x <= v):
                    continue
                if _search(grid, mine, theirs, OPPONENT, 0, 1, indicator[r], free_claim) >= 1:
                    break
            out[i, j] = rep[r]
    return out


# -- score distributions under a policy --------------------------------------------
def reroll_distribution(
    white: int, utility: Utility, chart: str, free_arrangement: bool = False
) -> FloatArray:
    """Distribution of the final score of a stand/reroll challenge from a fresh roll
    when the player maximises the expected ``utility`` (in Pips with
    ``free_arrangement``: also choosing his square's score, see ``free_pip_scores``)."""
    if white == 5 and free_arrangement:
        s = free_pip_scores(utility)
    else:
        s = np.array(reroll.scores(white, chart))
    om = option_matrix()
    values = [utility[s]]
    choices = []
    for _ in (1, 2):
        opt = om.matrix @ values[-1]
        best, which = best_per_state(opt, om.state)
        take = best > values[0] + 1e-12
        choices.append(np.where(take, which, -1))
        values.append(np.where(take, best, values[0]))
    finished = np.zeros(N)
    mass = FOUR_PROB.copy()
    for choice in reversed(choices):  # two rerolls left first
        stand = choice < 0
        finished += np.where(stand, mass, 0.0)
        moving = np.where(stand, 0.0, mass)
        mass = moving @ om.matrix[np.maximum(choice, 0)] if moving.any() else np.zeros(N)
    finished += mass
    out: FloatArray = np.bincount(s, weights=finished, minlength=MAX_SCORE + 1).astype(np.float64)
    return out


def matching_distribution(
    player_utility: Utility,
    opponent_utility: Utility,
    scores: IntArray | None = None,
) -> FloatArray:
    """Distribution of the matching score from fresh rolls: the player plays the
    solution of ``player_utility``, the opponent that of ``opponent_utility``."""
    sc = matching.score_table() if scores is None else scores
    c1, c2, c3 = _choices(player_utility, sc)
    if not np.array_equal(player_utility, opponent_utility):
        c2 = _choices(opponent_utility, sc)[1]
    final = matching.matching_mass(np.outer(FOUR_PROB, FOUR_PROB), c1, c2, c3)
    out: FloatArray = np.bincount(sc.ravel(), final.ravel(), MAX_SCORE + 1).astype(np.float64)
    return out


def _choices(utility: Utility, sc: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    v = matching._float_stages(utility[sc])
    return v[3], v[4], v[5]


def tictactoe_distribution(table: IntArray) -> FloatArray:
    """Distribution of the tic-tac-toe score from fresh rolls under minimax."""
    mass = np.outer(FOUR_PROB, FOUR_PROB)
    out: FloatArray = np.bincount(table.ravel(), mass.ravel(), MAX_SCORE + 1).astype(np.float64)
    return out


def monotone(utility: Utility, upto: int = MAX_SCORE) -> bool:
    """True if more points are never worth less (up to ``upto`` points)."""
    return bool(np.all(np.diff(utility[: upto + 1]) >= -1e-12))


@dataclass
class TurnModel:
    """Score distributions of a whole turn's challenge (white 2..6) for policies
    given by utilities: ``dist(player_u, opponent_u)`` averaged over the white die.

    Tic-tac-toe: when both sides play the same objective (the player maximises
    ``player_u``, the opponent minimises it) and that objective is not increasing in
    the score, the outcome is the minimax of its order (``exact``: an order table,
    shipped or searched now and kept in ``computed``); otherwise the score minimax.
    With ``free`` the player may also arrange Pips freely and decline the claim (a
    reading of the seed the rules engine does not offer; see docs/rules/whitedie.md).
    """

    chart: str
    tables: Tables
    exact: bool = True
    free: bool = False
    computed: dict[OrderKey, IntArray] = field(default_factory=dict)
    _ttt: FloatArray = field(init=False)
    _orders: dict[OrderKey, FloatArray] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._ttt = tictactoe_distribution(self.tables.tictactoe)

    def order_key(self, utility: Utility) -> OrderKey | None:
        """The order table tic-tac-toe needs for ``utility`` (None: the score table)."""
        leaf = tictactoe_leaf(utility) if self.exact else None
        return None if leaf is None else (leaf, self.free)

    def order_table(self, key: OrderKey) -> IntArray:
        """A tic-tac-toe order table: shipped, computed before, or searched now."""
        table = self.tables.orders.get(key)
        if table is None:
            table = self.computed.get(key)
        if table is None:
            table = self.computed[key] = tictactoe_order_table(*key)
        return table

    def tictactoe(self, player_u: Utility, opponent_u: Utility) -> FloatArray:
        """Distribution of the tic-tac-toe score."""
        key = self.order_key(player_u) if np.array_equal(player_u, opponent_u) else None
        if key is None:
            return self._ttt
        if key not in self._orders:
            self._orders[key] = tictactoe_distribution(self.order_table(key))
        return self._orders[key]

    def distribution(self, player_u: Utility, opponent_u: Utility) -> FloatArray:
        """Distribution of the points of a turn that plays a challenge."""
        total = self.tictactoe(player_u, opponent_u).copy()
        for white in reroll.REROLL_CHALLENGES:
            total += reroll_distribution(white, player_u, self.chart, self.free)
        total += matching_distribution(player_u, opponent_u, self.tables.matching)
        return total / 5.0


# -- two players --------------------------------------------------------------------
@dataclass(frozen=True)
class TwoPlayerSolution:
    """``win[a, b]``: chance the player on roll with ``a`` against ``b`` wins."""

    target: int
    chart: str
    win: FloatArray
    sweeps: int
    nonmonotone: int
    orders: dict[OrderKey, IntArray] = field(default_factory=dict)
    """The tic-tac-toe order tables the solution uses (shipped with it)."""
    exact: bool = True
    free: bool = False


def utility_for(win: FloatArray, target: int, mine: int, theirs: int) -> Utility:
    """What each challenge score is worth to a player with ``mine`` points against
    ``theirs``, both playing perfectly afterwards."""
    u = np.ones(MAX_SCORE + 1)
    for s in range(MAX_SCORE + 1):
        if mine + s < target:
            u[s] = 1.0 - win[theirs, mine + s]
    return u


@one_thread
def solve_two_player(
    target: int = 21,
    chart: str = "standard",
    tables: Tables | None = None,
    log: Callable[[str], None] | None = None,
    *,
    exact: bool = True,
    free: bool = False,
    tolerance: float = 1e-13,
    computed: dict[OrderKey, IntArray] | None = None,
    start: FloatArray | None = None,
) -> TwoPlayerSolution:
    """The perfect two-player policy's winning chances at every score pair.

    Each pair (with its mirror) is solved by policy iteration until no value moves by
    ``tolerance``. ``exact``: tic-tac-toe by the order of the worth of its scores where
    that is not the score order (else by the score minimax, an approximation at those
    pairs; fast, for options without shipped order tables). ``free``: with a free Pips
    arrangement and an optional claim. ``computed``: order tables searched before (new
    ones are added to it as they are searched, a cache the caller may keep). ``start``:
    a first guess of the table (the score-minimax solution is a close one, which spares
    the search of orders that only a poor guess would visit); the result does not
    depend on it.
    """
    from dicehall.bots.whitedie.tables import load_tables

    model = TurnModel(chart, tables or load_tables(), exact=exact, free=free)
    if computed is not None:
        model.computed = computed
    win = np.full((target, target), 0.5) if start is None else start.astype(np.float64)
    sweeps = 0
    bad = 0
    for total in range(2 * target - 2, -1, -1):
        pairs = [(a, total - a) for a in range(target) if 0 <= total - a < target]
        for a, b in pairs:
            if a > b:
                continue  # solved with its mirror
            for _ in range(20):
                sweeps += 1
                before = (win[a, b], win[b, a])
                d_ab = model.distribution(*(2 * (utility_for(win, target, a, b),)))
                d_ba = model.distribution(*(2 * (utility_for(win, target, b, a),)))
                win[a, b], win[b, a] = _solve_pair(win, target, a, b, d_ab, d_ba)
                if max(abs(win[a, b] - before[0]), abs(win[b, a] - before[1])) < tolerance:
                    break
            for me, other in {(a, b), (b, a)}:
                bad += not monotone(utility_for(win, target, me, other))
        if log is not None and total % 5 == 0:
            log(f"score total {total}: done")
    used = {}
    for a in range(target):
        for b in range(target):
            key = model.order_key(utility_for(win, target, a, b))
            if key is not None:
                used[key] = model.order_table(key)
    return TwoPlayerSolution(target, chart, win, sweeps, bad, used, exact, free)


def _solve_pair(
    win: FloatArray, target: int, a: int, b: int, d_ab: FloatArray, d_ba: FloatArray
) -> tuple[float, float]:
    """Solve x = win[a, b], y = win[b, a] from the turn distributions (exact linear
    equations in x and y; every other value is known)."""

    def coefficients(me: int, other: int, dist: FloatArray) -> tuple[float, float, float]:
        # value = const + kx * x + ky * y where x = win[me, other] (self), y = win[other, me]
        const, ky = 0.0, 0.0
        for s, p in enumerate(dist):
            if p == 0.0:
                continue
            if me + s >= target:
                const += p
            elif s == 0:
                ky -= p
                const += p
            else:
                const += p * (1.0 - win[other, me + s])
        # the turn: 1/6 white 1, 5/6 a challenge
        c, kx, k_y = 5 / 6 * const, 0.0, 5 / 6 * ky
        if me >= other:
            c += 1 / 6
            k_y -= 1 / 6
        else:
            kx += 1 / 6
        return c, kx, k_y

    c1, kx1, ky1 = coefficients(a, b, d_ab)  # x = c1 + kx1 x + ky1 y
    if a == b:
        x = c1 / (1 - kx1 - ky1)
        return x, x
    c2, ky2, kx2 = coefficients(b, a, d_ba)  # y = c2 + ky2 y + kx2 x
    m = np.array([[1 - kx1, -ky1], [-kx2, 1 - ky2]])
    x, y = np.linalg.solve(m, np.array([c1, c2]))
    return float(x), float(y)


# -- exact policy evaluation ---------------------------------------------------------
Policy = Callable[[int, int], Utility]
"""A policy as the utility it maximises when on turn with (mine, theirs) points; as the
opponent in a duel it minimises the same utility of the player on turn."""


def greedy_policy(target: int) -> Policy:
    """Expected points of the current challenge."""
    u = points_utility()
    return lambda mine, theirs: u


def perfect_policy(win: FloatArray, target: int) -> Policy:
    """Winning chances from the two-player table."""
    return lambda mine, theirs: utility_for(win, target, mine, theirs)


@one_thread
def evaluate(
    first: Policy,
    second: Policy,
    target: int = 21,
    chart: str = "standard",
    tables: Tables | None = None,
    *,
    exact: bool = True,
    free: bool = False,
) -> FloatArray:
    """Exact chance that the player on roll wins, ``value[a, b]`` with ``a`` points
    against ``b``, when he plays ``first`` and his opponent plays ``second`` (each also
    as the opponent inside the other's tic-tac-toe and matching).

    Linear equations per score pair, solved from the highest total down: exact up
    to floating point, no sampling. Tic-tac-toe as in ``TurnModel`` (``exact``: by
    the order of the worth where both sides play the same objective; where they play
    different ones, by the score minimax). ``free``: the game with free choices (each
    policy arranges Pips by its own utility).
    """
    from dicehall.bots.whitedie.tables import load_tables

    model = TurnModel(chart, tables or load_tables(), exact=exact, free=free)
    # e1[a, b]: first on roll (a) against second (b); e2[b, a]: second on roll
    e1 = np.zeros((target, target))
    e2 = np.zeros((target, target))
    for total in range(2 * target - 2, -1, -1):
        for a in range(target):
            b = total - a
            if not 0 <= b < target:
                continue
            # first on turn at (a, b): the second policy judges his own utility as
            # the opponent: it minimises the player's u in its own view
            d1 = model.distribution(first(a, b), second(a, b))
            d2 = model.distribution(second(b, a), first(b, a))
            e1[a, b], e2[b, a] = _evaluate_pair(e1, e2, target, a, b, d1, d2)
    return e1


def _evaluate_pair(
    e1: FloatArray, e2: FloatArray, target: int, a: int, b: int, d1: FloatArray, d2: FloatArray
) -> tuple[float, float]:
    """x = e1[a, b] (first on roll), y = e2[b, a] (second on roll), both as the first
    policy's winning chance."""
    # x = c1 + kx1 x + ky1 y
    c1, kx1, ky1 = 0.0, 0.0, 0.0
    for s, p in enumerate(d1):
        if a + s >= target:
            c1 += 5 / 6 * p
        elif s == 0:
            ky1 += 5 / 6 * p
        else:
            c1 += 5 / 6 * p * e2[b, a + s]
    if a >= b:
        ky1 += 1 / 6
    else:
        kx1 += 1 / 6
    # y = c2 + kx2 x + ky2 y   (second on roll with b against a)
    c2, kx2, ky2 = 0.0, 0.0, 0.0
    for s, p in enumerate(d2):
        if b + s >= target:
            pass  # the second policy wins: worth 0 to the first
        elif s == 0:
            kx2 += 5 / 6 * p
        else:
            c2 += 5 / 6 * p * e1[a, b + s]
    if b >= a:
        kx2 += 1 / 6
    else:
        ky2 += 1 / 6
    m = np.array([[1 - kx1, -ky1], [-kx2, 1 - ky2]])
    x, y = np.linalg.solve(m, np.array([c1, c2]))
    return float(x), float(y)


def first_player_chance(values: FloatArray) -> float:
    """Chance that the player who starts (on roll at 0-0) wins."""
    return float(values[0, 0])


COUNTS = ("rolls", "turns", "lost to white 1", "white 1 rerolled", "Poker", "Tic-tac-toe",
          "Matching", "Pips", "Sixes")  # fmt: skip
"""What ``expected_counts`` counts over a game."""


@one_thread
def expected_counts(
    first: Policy,
    second: Policy,
    target: int = 21,
    chart: str = "standard",
    tables: Tables | None = None,
    *,
    exact: bool = True,
    free: bool = False,
) -> dict[str, float]:
    """Exact expected numbers, over a two-player game from 0-0 with the first policy
    starting, of rolls of all five, turns, turns lost to a white 1, white 1s rolled
    again by a trailing player, and challenges of each kind (``free`` as in
    ``evaluate``)."""
    from dicehall.bots.whitedie.tables import load_tables

    model = TurnModel(chart, tables or load_tables(), exact=exact, free=free)
    k = len(COUNTS)
    t1 = np.zeros((target, target, k))  # first on roll at [a, b]
    t2 = np.zeros((target, target, k))  # second on roll at [b, a]

    def roll_reward(leading: bool) -> FloatArray:
        r = np.zeros(k)
        r[0] = 1.0
        r[2 if leading else 3] = 1 / 6
        r[4:] = 1 / 6
        return r

    for total in range(2 * target - 2, -1, -1):
        for a in range(target):
            b = total - a
            if not 0 <= b < target:
                continue
            d1 = model.distribution(first(a, b), second(a, b))
            d2 = model.distribution(second(b, a), first(b, a))
            # x = t1[a, b], y = t2[b, a]: x = c1 + kx1 x + ky1 y (a turn starts when a
            # roll is not the reroll of a trailing player's white 1)
            c1 = roll_reward(a >= b)
            c1[1] = 1.0 if a >= b else 5 / 6
            kx1, ky1 = (0.0, 1 / 6) if a >= b else (1 / 6, 0.0)
            for s, p in enumerate(d1):
                if a + s < target:
                    if s == 0:
                        ky1 += 5 / 6 * p
                    else:
                        c1 = c1 + 5 / 6 * p * t2[b, a + s]
            c2 = roll_reward(b >= a)
            c2[1] = 1.0 if b >= a else 5 / 6
            kx2, ky2 = (1 / 6, 0.0) if b >= a else (0.0, 1 / 6)
            for s, p in enumerate(d2):
                if b + s < target:
                    if s == 0:
                        kx2 += 5 / 6 * p
                    else:
                        c2 = c2 + 5 / 6 * p * t1[a, b + s]
            m = np.array([[1 - kx1, -ky1], [-kx2, 1 - ky2]])
            t1[a, b], t2[b, a] = np.linalg.solve(m, np.stack([c1, c2]))
    return {name: float(v) for name, v in zip(COUNTS, t1[0, 0], strict=True)}


def expected_turns(
    first: Policy,
    second: Policy,
    target: int = 21,
    chart: str = "standard",
    tables: Tables | None = None,
    *,
    exact: bool = True,
    free: bool = False,
) -> float:
    """Exact expected number of rolls of all five (white 1s rolled again by a trailing
    player included) in a game from 0-0, the first policy starting."""
    return expected_counts(first, second, target, chart, tables, exact=exact, free=free)["rolls"]


assert len(rolls(2)) == 21
