"""Poker, Pips and Sixes solved exactly: stand or reroll, with two, one or no rerolls left.

Dynamic programming over the 126 dice multisets. ``V0`` is the score of the dice;
``Vk(d) = max(score(d), max over rerolls R of E[V(k-1)(d after R)])``. Exact values
are integers over the fixed denominator ``1296**k`` (every reroll of ``m`` dice has
``6**m`` equally likely results, and ``6**m`` divides ``1296``), returned as
``Fraction``. The same recursion with floats and any *utility* of the final score
(for example the chance of winning the game with that many points) serves the
win-probability bot.

>>> from fractions import Fraction
>>> values = dict(option_values(6, (1, 1, 1, 1), 1))
>>> values["stand"], values["reroll 1 1 1 1"] > values["reroll 1"]
(Fraction(0, 1), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from dicehall.bots.whitedie.dice import (
    FOUR_PROB,
    FOUR_WAYS,
    INDEX,
    MULTISETS,
    N,
    best_per_state,
    option_matrix,
    reroll_options,
)
from dicehall.games.whitedie.challenges import challenge_score, pip_scores

SCALE = 1296
"""Denominator of one level of rerolling (6**4)."""

REROLL_CHALLENGES = (2, 5, 6)


@cache
def scores(white: int, chart: str = "standard") -> tuple[int, ...]:
    """The score of each of the 126 multisets in the challenge of ``white``."""
    return tuple(challenge_score(white, d, chart) for d in MULTISETS)


@cache
def _scaled_values(white: int, chart: str) -> tuple[tuple[int, ...], ...]:
    """Optimal values with 0, 1 and 2 rerolls left, times ``SCALE**k``."""
    s = scores(white, chart)
    levels: list[tuple[int, ...]] = [s]
    for k in (1, 2):
        prev = levels[-1]
        cur = []
        for i, opts in enumerate(reroll_options()):
            best = s[i] * SCALE**k
            for opt in opts:
                mult = SCALE // opt.total
                v = mult * sum(w * prev[t] for t, w in zip(opt.targets, opt.weights, strict=True))
                best = max(best, v)
            cur.append(best)
        levels.append(tuple(cur))
    return tuple(levels)


def value(
    white: int, dice: tuple[int, ...], rerolls_left: int, chart: str = "standard"
) -> Fraction:
    """The exact expected score of ``dice`` with optimal play and ``rerolls_left``.

    >>> value(6, (3, 3, 3, 3), 2), value(2, (6, 6, 6, 6), 2)
    (Fraction(6, 1), Fraction(6, 1))
    """
    v = _scaled_values(white, chart)[rerolls_left][INDEX[tuple(sorted(dice))]]
    return Fraction(v, SCALE**rerolls_left)


def option_values(
    white: int, dice: tuple[int, ...], rerolls_left: int, chart: str = "standard"
) -> list[tuple[str, Fraction]]:
    """Every option (``stand`` and each distinct reroll) with its exact expected score
    under optimal play afterwards, in the order the rules list them."""
    if rerolls_left < 1:
        raise ValueError("no reroll is left: the dice score as they are")
    i = INDEX[tuple(sorted(dice))]
    k = rerolls_left
    levels = _scaled_values(white, chart)
    out = [("stand", Fraction(scores(white, chart)[i]))]
    for opt in reroll_options()[i]:
        mult = SCALE // opt.total
        v = mult * sum(w * levels[k - 1][t] for t, w in zip(opt.targets, opt.weights, strict=True))
        out.append(("reroll " + " ".join(map(str, opt.values)), Fraction(v, SCALE**k)))
    return out


def expected_score(white: int, chart: str = "standard", *, optimal: bool = True) -> Fraction:
    """The exact expected score of the challenge from a fresh roll of four dice, under
    optimal play (``optimal``) or standing pat on the first roll.

    >>> expected_score(6, optimal=False)
    Fraction(1097, 648)
    """
    level = _scaled_values(white, chart)[2 if optimal else 0]
    total = sum(int(w) * v for w, v in zip(FOUR_WAYS, level, strict=True))
    return Fraction(total, 1296 * (SCALE**2 if optimal else 1))


# -- any utility of the final score (floats) -------------------------------------
@dataclass(frozen=True)
class UtilitySolution:
    """Values of each multiset with 0, 1, 2 rerolls left when the final score ``s`` is
    worth ``utility[s]``; ``evaluation`` gives ``judge[s]`` under that same policy."""

    values: tuple[npt.NDArray[np.float64], ...]
    evaluation: tuple[npt.NDArray[np.float64], ...]
    option_values: tuple[npt.NDArray[np.float64], ...]  # per option row, for levels 1, 2

    def start(self) -> float:
        """Expected utility from a fresh roll with two rerolls left."""
        return float(FOUR_PROB @ self.values[2])

    def start_evaluation(self) -> float:
        """Expected ``judge`` from a fresh roll under this policy."""
        return float(FOUR_PROB @ self.evaluation[2])


def final_scores(
    white: int, utility: npt.NDArray[np.float64], chart: str = "standard", free: bool = False
) -> npt.NDArray[np.int64]:
    """The score each of the 126 multisets ends the challenge with: its score, or in
    Pips with ``free`` arrangement the reachable score worth most under ``utility``
    (the highest among equals)."""
    if white == 5 and free:  # the reachable scores come highest first: max keeps the highest
        return np.array([max(pip_scores(d), key=lambda x: utility[x]) for d in MULTISETS])
    return np.array(scores(white, chart))


def solve_utility(
    white: int,
    utility: npt.NDArray[np.float64],
    chart: str = "standard",
    judge: npt.NDArray[np.float64] | None = None,
    free: bool = False,
) -> UtilitySolution:
    """Maximise the expected ``utility[score]``; also evaluate ``judge[score]`` (default:
    the utility itself) under the policy found. ``free``: in Pips the player arranges
    his final square to the score worth most to him (``final_scores``)."""
    s = final_scores(white, utility, chart, free)
    om = option_matrix()
    stand_u = utility[s]
    stand_g = stand_u if judge is None else judge[s]
    values = [stand_u]
    evals = [stand_g]
    opt_values = [np.zeros(0)]
    for _ in (1, 2):
        reroll_u = om.matrix @ values[-1]
        reroll_g = om.matrix @ evals[-1]
        best, which = best_per_state(reroll_u, om.state)
        take = best > stand_u + 1e-12
        values.append(np.where(take, best, stand_u))
        evals.append(np.where(take, reroll_g[which], stand_g))
        opt_values.append(reroll_u)
    return UtilitySolution(tuple(values), tuple(evals), tuple(opt_values))


def utility_option_values(
    solution: UtilitySolution,
    white: int,
    dice: tuple[int, ...],
    rerolls_left: int,
    utility: npt.NDArray[np.float64],
    chart: str = "standard",
    free: bool = False,
) -> list[tuple[str, float]]:
    """Each option's expected utility at ``dice`` (as ``option_values`` does for points;
    ``free`` as in ``solve_utility``)."""
    i = INDEX[tuple(sorted(dice))]
    om = option_matrix()
    out = [("stand", float(utility[final_scores(white, utility, chart, free)[i]]))]
    rows = np.flatnonzero(om.state == i)
    for r in rows:
        text = "reroll " + " ".join(map(str, om.values[r]))
        out.append((text, float(solution.option_values[rerolls_left][r])))
    return out


assert N == 126
