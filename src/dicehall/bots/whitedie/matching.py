"""Matching solved exactly through its three reroll stages.

1. the player must reroll two of his dice (he maximises),
2. the opponent must reroll two of his (he minimises the player's score),
3. the player may reroll one die or stand (he maximises).

Values are arrays over (player's multiset, opponent's multiset), 126 x 126. Exact
expected scores are integers over fixed denominators: stage 3 over 6, stage 2 over
6*36, stage 1 over 6*36*36 (a reroll of two dice has 36 ordered results). The
same recursion with floats takes any utility of the final score, with separate
utilities for the player's and the opponent's choices, and evaluates a third
quantity under the policies chosen (for exact policy evaluation).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from dicehall.bots.whitedie.dice import FOUR_PROB, FOUR_WAYS, INDEX, MULTISETS, N, rolls
from dicehall.games.whitedie.rules import remove, sub_multisets

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

S3, S2, S1 = 6, 6 * 36, 6 * 36 * 36
"""Denominators of the exact values at stages 3, 2 and 1."""


@dataclass(frozen=True)
class Moves:
    """Where each reroll leads: ``target[d, k, m]`` is the multiset after option ``k``
    of multiset ``d`` with result ``m`` (weight ``weight[m]``); ``valid[d, k]``
    marks real options (rows are padded); ``values[d][k]`` the dice rerolled."""

    target: IntArray
    weight: IntArray
    valid: npt.NDArray[np.bool_]
    values: tuple[tuple[tuple[int, ...], ...], ...]


@cache
def moves(size: int) -> Moves:
    """Rerolls of exactly ``size`` dice (1 or 2) from each multiset."""
    results = rolls(size)
    width = max(len(sub_multisets(d, size)) for d in MULTISETS)
    target = np.zeros((N, width, len(results)), dtype=np.int64)
    valid = np.zeros((N, width), dtype=bool)
    values = []
    for i, d in enumerate(MULTISETS):
        opts = sub_multisets(d, size)
        values.append(tuple(opts))
        for k, vals in enumerate(opts):
            kept = remove(d, vals)
            assert kept is not None
            valid[i, k] = True
            for m, (faces, _) in enumerate(results):
                target[i, k, m] = INDEX[tuple(sorted(kept + faces))]
    weight = np.array([w for _, w in results], dtype=np.int64)
    return Moves(target, weight, valid, tuple(values))


@cache
def transition(size: int) -> FloatArray:
    """``transition(size)[d, k, e]``: probability that option ``k`` of multiset ``d``
    (rerolling ``size`` dice) gives multiset ``e``; padded options are all zero."""
    mv = moves(size)
    out = np.zeros((N, mv.valid.shape[1], N))
    total = float(6**size)
    for d in range(N):
        for k in range(mv.valid.shape[1]):
            if mv.valid[d, k]:
                np.add.at(out[d, k], mv.target[d, k], mv.weight / total)
    return out


def score_table() -> IntArray:
    """``matching_score`` of every pair of multisets (shipped with the package)."""
    from dicehall.bots.whitedie.tables import load_tables

    return load_tables().matching


def compute_score_table() -> IntArray:
    """``score_table`` computed from the rules (a few seconds)."""
    from dicehall.bots.whitedie.tables import compute_matching

    return compute_matching()


# -- exact values (integers over fixed denominators) --------------------------------
@cache
def exact_tables() -> tuple[IntArray, IntArray, IntArray]:
    """Optimal values times ``S1``, ``S2``, ``S3`` at stages 1, 2, 3, each (P, O)."""
    sc = score_table()
    mv1, mv2 = moves(1), moves(2)
    big = np.iinfo(np.int64).max
    # stage 3: stand (6 * score) or the sum over the six faces of one rerolled die
    single: IntArray = sc[mv1.target].sum(axis=2)  # (P, k, O)
    single = np.where(mv1.valid[:, :, None], single, -1)
    v3: IntArray = np.maximum(6 * sc, single.max(axis=1))
    # stage 2: the opponent's pair, weighted over its 36 ordered results; he minimises
    after2: IntArray = (v3[:, mv2.target] * mv2.weight).sum(axis=3)  # (P, O, k)
    v2: IntArray = np.where(mv2.valid[None, :, :], after2, big).min(axis=2)
    # stage 1: the player's pair; he maximises
    after1: IntArray = (v2[mv2.target] * mv2.weight[None, None, :, None]).sum(axis=2)
    v1: IntArray = np.where(mv2.valid[:, :, None], after1, -1).max(axis=1)
    return v1, v2, v3


# -- exact option values for hints and tests ------------------------------------
def option_values(
    stage: int, mine: tuple[int, ...], theirs: tuple[int, ...]
) -> list[tuple[str, Fraction]]:
    """Each option at ``stage`` (1, 2 or 3) with the exact expected score that follows
    with optimal play by both sides (the opponent's options at stage 2)."""
    p, o = INDEX[tuple(sorted(mine))], INDEX[tuple(sorted(theirs))]
    _, v2, v3 = exact_tables()
    sc = score_table()
    out: list[tuple[str, Fraction]] = []
    if stage == 3:
        mv = moves(1)
        out.append(("stand", Fraction(int(sc[p, o]))))
        for k, vals in enumerate(mv.values[p]):
            total = int(sc[mv.target[p, k], o].sum())
            out.append((f"reroll {vals[0]}", Fraction(total, 6)))
        return out
    mv = moves(2)
    for k, vals in enumerate(mv.values[p if stage == 1 else o]):
        if stage == 1:
            total = int((v2[mv.target[p, k], o] * mv.weight).sum())
            out.append(("reroll " + " ".join(map(str, vals)), Fraction(total, S1)))
        else:
            total = int((v3[p, mv.target[o, k]] * mv.weight).sum())
            out.append(("reroll " + " ".join(map(str, vals)), Fraction(total, S2)))
    return out


def value(stage: int, mine: tuple[int, ...], theirs: tuple[int, ...]) -> Fraction:
    """The exact expected score at ``stage`` with optimal play from here."""
    p, o = INDEX[tuple(sorted(mine))], INDEX[tuple(sorted(theirs))]
    v1, v2, v3 = exact_tables()
    table, denominator = {1: (v1, S1), 2: (v2, S2), 3: (v3, S3)}[stage]
    return Fraction(int(table[p, o]), denominator)


def expected_score(mine: tuple[int, ...] | None = None) -> Fraction:
    """Exact expected score before the opponent rolls (given the player's dice), or
    from the very start (both rolls to come)."""
    v1 = exact_tables()[0]
    w = FOUR_WAYS
    if mine is not None:
        p = INDEX[tuple(sorted(mine))]
        return Fraction(int((v1[p] * w).sum()), S1 * 1296)
    return Fraction(int(w @ v1 @ w), S1 * 1296 * 1296)


def no_choice_score() -> Fraction:
    """Exact expected score without skill: rerolling dice picked blindly (by position)
    leaves every die uniform, so it equals the score of two fresh rolls.

    There is no standing pat in matching (two rerolls are forced); this is its baseline.
    """
    sc = score_table()
    return Fraction(int(FOUR_WAYS @ sc @ FOUR_WAYS), 1296 * 1296)


@cache
def _slices() -> tuple[tuple[FloatArray, ...], tuple[FloatArray, ...], tuple[FloatArray, ...]]:
    """Contiguous per-option transition matrices (pairs, pairs transposed, single die)."""
    m1, m2 = transition(1), transition(2)
    pairs = tuple(np.ascontiguousarray(m2[:, k, :]) for k in range(m2.shape[1]))
    pairs_t = tuple(np.ascontiguousarray(m.T) for m in pairs)
    single_t = tuple(np.ascontiguousarray(m1[:, k, :].T) for k in range(m1.shape[1]))
    return pairs, pairs_t, single_t


def matching_mass(mass: FloatArray, c1: IntArray, c2: IntArray, c3: IntArray) -> FloatArray:
    """Carry a mass over (player, opponent) multisets through the three stages."""
    pairs, pairs_t, single_t = _slices()
    out = np.zeros((N, N))
    for k, m in enumerate(pairs_t):
        sel = np.where(c1 == k, mass, 0.0)
        if sel.any():
            out += m @ sel
    mass, out = out, np.zeros((N, N))
    for k, m in enumerate(pairs):
        sel = np.where(c2 == k, mass, 0.0)
        if sel.any():
            out += sel @ m
    final = np.where(c3 < 0, out, 0.0)
    for k, m in enumerate(single_t):
        sel = np.where(c3 == k, out, 0.0)
        if sel.any():
            final += m @ sel
    return final


# -- any utility (floats) ----------------------------------------------------------
@dataclass(frozen=True)
class UtilitySolution:
    """Matching with the final score ``s`` worth ``utility[s]`` to the player.

    ``v1``, ``v2``, ``v3`` are the stage values in the player's view;
    ``judged1`` the expected ``judge[s]`` when the player plays this solution and
    the opponent plays the solution of ``opponent_utility``.
    """

    v1: FloatArray
    v2: FloatArray
    v3: FloatArray
    judged1: FloatArray

    def before_roll(self) -> FloatArray:
        """Player's value of each multiset before the opponent's roll."""
        return self.v1 @ FOUR_PROB

    def judged_before_roll(self) -> FloatArray:
        return self.judged1 @ FOUR_PROB


def _float_stage3(final: FloatArray) -> FloatArray:
    """(P, k, O): expected ``final`` after the player's single reroll ``k``."""
    m1 = transition(1)
    return (m1.reshape(-1, N) @ final).reshape(N, -1, N)


def _float_opponent(v3: FloatArray) -> FloatArray:
    """(P, O, k): expected ``v3`` after the opponent's pair ``k``."""
    m2 = transition(2)
    return (v3 @ m2.reshape(-1, N).T).reshape(N, N, -1)


def _float_player_pair(v2: FloatArray) -> FloatArray:
    """(P, k, O): expected ``v2`` after the player's pair ``k``."""
    m2 = transition(2)
    return (m2.reshape(-1, N) @ v2).reshape(N, -1, N)


def _float_stages(
    final: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, IntArray, IntArray, IntArray]:
    """Values and choices of each stage for a table of final utilities (P, O).

    Choices: stage 3 ``-1`` stand else the single-reroll option index; stage 2 the
    opponent's option; stage 1 the player's option.
    """
    stand = final
    mv1 = moves(1)
    rer = np.where(mv1.valid[:, :, None], _float_stage3(final), -np.inf)
    best3 = rer.max(axis=1)
    take = best3 > stand + 1e-12
    c3 = np.where(take, rer.argmax(axis=1), -1)
    v3 = np.where(take, best3, stand)
    opts2 = np.where(moves(2).valid[None, :, :], _float_opponent(v3), np.inf)
    c2 = opts2.argmin(axis=2)
    v2 = opts2.min(axis=2)
    opts1 = np.where(moves(2).valid[:, :, None], _float_player_pair(v2), -np.inf)
    c1 = opts1.argmax(axis=1)
    v1 = opts1.max(axis=1)
    return v1, v2, v3, c1, c2, c3


def solve_utility(
    utility: FloatArray,
    opponent_utility: FloatArray | None = None,
    judge: FloatArray | None = None,
    scores: IntArray | None = None,
) -> UtilitySolution:
    """Solve matching for the player's ``utility`` of the final score; the opponent
    minimises ``opponent_utility`` (default: the same); evaluate ``judge``.
    ``scores`` replaces the shipped score table (while regenerating it)."""
    sc = score_table() if scores is None else scores
    v1, v2, v3, c1, _, c3 = _float_stages(utility[sc])
    if opponent_utility is None and judge is None:
        return UtilitySolution(v1, v2, v3, v1)
    if opponent_utility is None:
        c2 = _float_stages(utility[sc])[4]
    else:
        c2 = _float_stages(opponent_utility[sc])[4]
    g = (utility if judge is None else judge)[sc]
    # stage 3 under the player's choices
    rer = _float_stage3(g)  # (P, k, O)
    pick = np.take_along_axis(rer, np.maximum(c3, 0)[:, None, :], axis=1)[:, 0, :]
    g3 = np.where(c3 >= 0, pick, g)
    # stage 2 under the opponent's choices
    opts2 = _float_opponent(g3)  # (P, O, k)
    g2 = np.take_along_axis(opts2, c2[:, :, None], axis=2)[:, :, 0]
    # stage 1 under the player's choices
    opts1 = _float_player_pair(g2)  # (P, k, O)
    g1 = np.take_along_axis(opts1, c1[:, None, :], axis=1)[:, 0, :]
    return UtilitySolution(v1, v2, v3, g1)


def utility_option_values(
    solution: UtilitySolution,
    stage: int,
    mine: tuple[int, ...],
    theirs: tuple[int, ...],
    utility: FloatArray,
) -> list[tuple[str, float]]:
    """Each option's value in the player's ``utility`` (as ``option_values`` for points)."""
    p, o = INDEX[tuple(sorted(mine))], INDEX[tuple(sorted(theirs))]
    sc = score_table()
    if stage == 3:
        mv1 = moves(1)
        out = [("stand", float(utility[sc[p, o]]))]
        for k, vals in enumerate(mv1.values[p]):
            out.append((f"reroll {vals[0]}", float(utility[sc[mv1.target[p, k], o]].mean())))
        return out
    mv = moves(2)
    res = []
    for k, vals in enumerate(mv.values[p if stage == 1 else o]):
        if stage == 1:
            v = float((solution.v2[mv.target[p, k], o] * mv.weight).sum() / 36.0)
        else:
            v = float((solution.v3[p, mv.target[o, k]] * mv.weight).sum() / 36.0)
        res.append(("reroll " + " ".join(map(str, vals)), v))
    return res
