"""Dice multisets as small integers, and where each reroll can lead.

Four dice show one of 126 multisets; every solver indexes them by ``INDEX``.
Probabilities are kept exact as integer *ways*: rolling ``k`` dice has ``6**k``
equally likely ordered results, and a multiset of ``k`` faces arises in
``ways`` of them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

from dicehall.games.whitedie.rules import remove, sub_multisets

Dice = tuple[int, ...]

MULTISETS: tuple[Dice, ...] = tuple(combinations_with_replacement(range(1, 7), 4))
"""The 126 sorted results of four dice."""

INDEX: dict[Dice, int] = {d: i for i, d in enumerate(MULTISETS)}
"""Position of each sorted four-dice result in ``MULTISETS``."""

N = len(MULTISETS)


def ways(faces: Dice) -> int:
    """How many ordered rolls give the multiset ``faces``.

    >>> ways((3, 5)), ways((6, 6, 6, 6)), ways((1, 2, 3, 4))
    (2, 1, 24)
    """
    out = factorial(len(faces))
    for n in Counter(faces).values():
        out //= factorial(n)
    return out


@cache
def rolls(count: int) -> tuple[tuple[Dice, int], ...]:
    """Each multiset ``count`` dice can show with its number of ordered ways."""
    return tuple((f, ways(f)) for f in combinations_with_replacement(range(1, 7), count))


FOUR_WAYS: npt.NDArray[np.int64] = np.array([ways(d) for d in MULTISETS], dtype=np.int64)
"""Ways (out of 1296) of rolling each four-dice multiset."""

FOUR_PROB: npt.NDArray[np.float64] = FOUR_WAYS / 1296.0


@dataclass(frozen=True)
class Option:
    """Rerolling ``values`` from the dice at ``state``: ``targets`` reached in ``weights``
    ways out of ``6 ** len(values)``."""

    state: int
    values: Dice
    targets: tuple[int, ...]
    weights: tuple[int, ...]

    @property
    def total(self) -> int:
        return int(6 ** len(self.values))


@cache
def reroll_options(size: int | None = None) -> tuple[tuple[Option, ...], ...]:
    """For each of the 126 multisets, every distinct reroll (all non-empty subsets, or
    exactly ``size`` dice) with where it leads."""
    out: list[tuple[Option, ...]] = []
    for i, d in enumerate(MULTISETS):
        opts = []
        for values in sub_multisets(d, size):
            kept = remove(d, values)
            assert kept is not None
            targets, weights = [], []
            for faces, w in rolls(len(values)):
                targets.append(INDEX[tuple(sorted(kept + faces))])
                weights.append(w)
            opts.append(Option(i, values, tuple(targets), tuple(weights)))
        out.append(tuple(opts))
    return tuple(out)


@dataclass(frozen=True)
class OptionMatrix:
    """All reroll options of one kind as arrays, for vectorised solving.

    ``matrix[k]`` is the probability row of option ``k`` (over the 126 results);
    ``state[k]`` the multiset it starts from; ``values[k]`` the dice it rerolls.
    """

    matrix: npt.NDArray[np.float64]
    state: npt.NDArray[np.int64]
    values: tuple[Dice, ...]


@cache
def option_matrix(size: int | None = None) -> OptionMatrix:
    """``reroll_options(size)`` as one probability matrix."""
    rows: list[npt.NDArray[np.float64]] = []
    states: list[int] = []
    values: list[Dice] = []
    for opts in reroll_options(size):
        for opt in opts:
            row = np.zeros(N)
            for t, w in zip(opt.targets, opt.weights, strict=True):
                row[t] += w / opt.total
            rows.append(row)
            states.append(opt.state)
            values.append(opt.values)
    return OptionMatrix(np.array(rows), np.array(states, dtype=np.int64), tuple(values))


def best_per_state(
    values: npt.NDArray[np.float64], state: npt.NDArray[np.int64], *, minimise: bool = False
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Best option value for each state (along the last axis), and which option.

    ``values[..., k]`` belongs to ``state[k]``; options of a state are contiguous.
    """
    starts = np.flatnonzero(np.r_[True, state[1:] != state[:-1]])
    sign = -1.0 if minimise else 1.0
    scaled = sign * values
    best = np.maximum.reduceat(scaled, starts, axis=-1)
    # index of the first option reaching the best value in each segment
    seg = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(state)]))
    hit = scaled >= np.take(best, seg, axis=-1) - 1e-12
    idx = np.where(hit, np.arange(len(state)), len(state))
    first = np.minimum.reduceat(idx, starts, axis=-1)
    return sign * best, first
