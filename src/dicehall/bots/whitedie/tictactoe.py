"""Tic-tac-toe solved exactly: minimax over every placement, pass and claim.

The player maximises his score, the opponent minimises it. Positions are reduced
by the eight symmetries of the square (the centre stays put, lines and 2x2 blocks
map to lines and blocks), and values are memoised, so a whole challenge solves in
milliseconds. ``TABLE[p][o]`` (shipped, see ``tables``) holds the value of every
pair of rolls before the opponent's first placement.

>>> from dicehall.games.whitedie.challenges import EMPTY_GRID
>>> solve(EMPTY_GRID, (3, 3, 3, 3), (1, 1, 1, 1), OPPONENT)    # the opponent can never place
12
>>> solve(EMPTY_GRID, (6, 6, 6, 6), (1, 1, 1, 1), OPPONENT)    # nobody can: he claims all
0
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from dicehall.core.cache import BoundedCache
from dicehall.games.whitedie.challenges import (
    EMPTY_GRID,
    NEIGHBOURS,
    Grid,
    claim,
    fits,
    tictactoe_score,
)

Dice = tuple[int, ...]

PLAYER = 1
OPPONENT = 0


def _perm(f: object) -> tuple[int, ...]:
    return tuple(int(f(r, c)) for r in range(3) for c in range(3))  # type: ignore[operator]


_SYMMETRIES: tuple[tuple[int, ...], ...] = tuple(
    _perm(f)
    for f in (
        lambda r, c: r * 3 + c,
        lambda r, c: c * 3 + (2 - r),
        lambda r, c: (2 - r) * 3 + (2 - c),
        lambda r, c: (2 - c) * 3 + r,
        lambda r, c: r * 3 + (2 - c),
        lambda r, c: (2 - r) * 3 + c,
        lambda r, c: c * 3 + r,
        lambda r, c: (2 - c) * 3 + (2 - r),
    )
)
"""Square permutations of the dihedral group: ``new[p[i]] = old[i]``."""


_IMAGES = tuple(itemgetter(*(p.index(j) for j in range(9))) for p in _SYMMETRIES)


def canonical(grid: Grid) -> Grid:
    """The least of the eight symmetric images of ``grid`` (a memo key).

    >>> canonical((0, 0, 0, 0, 3, 0, 0, 0, 2)) == canonical((2, 0, 0, 0, 3, 0, 0, 0, 0))
    True
    """
    return min(image(grid) for image in _IMAGES)


def _remove_one(dice: Dice, value: int) -> Dice:
    i = dice.index(value)
    return dice[:i] + dice[i + 1 :]


# values that fit next to a die showing n (index n = 1..6), as bit masks 1 << value
_FIT = {
    side: [0]
    + [sum(1 << v for v in range(1, 7) if fits(v, n, player=side == PLAYER)) for n in range(1, 7)]
    for side in (PLAYER, OPPONENT)
}


def moves(grid: Grid, mine: Dice, theirs: Dice, side: int) -> list[tuple[int, int]]:
    """Legal ``(value, square)`` placements for ``side`` (the rules' ``placements``,
    made fast with bit masks)."""
    dice = mine if side == PLAYER else theirs
    if not dice:
        return []
    have = 0
    for v in dice:
        have |= 1 << v
    fit = _FIT[side]
    out = []
    for sq in range(9):
        if grid[sq]:
            continue
        allowed = 0
        for nb in NEIGHBOURS[sq]:
            x = grid[nb]
            if x:
                allowed |= fit[x if x > 0 else -x]
        allowed &= have
        if allowed:
            out += [(v, sq) for v in range(1, 7) if allowed >> v & 1]
    return out


def _children(grid: Grid, mine: Dice, theirs: Dice, side: int) -> set[tuple[Grid, Dice, Dice]]:
    """Distinct positions (up to symmetry) after each placement of ``side``."""
    out = set()
    for v, sq in moves(grid, mine, theirs, side):
        g = list(grid)
        if side == PLAYER:
            g[sq] = v
            out.add((canonical(tuple(g)), _remove_one(mine, v), theirs))
        else:
            g[sq] = -v
            out.add((canonical(tuple(g)), mine, _remove_one(theirs, v)))
    return out


_Key = tuple[Grid, Dice, Dice, int]

Leaf = tuple[int, ...]
"""What each final score (0..12) is worth, as small integers: the player maximises it,
the opponent minimises it. ``SCORES`` (the score itself) is the usual objective;
another order serves a player who, near the end of a game, prefers some scores to
higher ones (see ``ranks``)."""

SCORES: Leaf = tuple(range(13))

BOUNDS = BoundedCache[tuple[Leaf | tuple[Leaf, bool], _Key], tuple[int, int]](
    "tic-tac-toe bounds", 500_000
)
"""The transposition table: proven (lower, upper) bounds of positions already searched,
per objective. A cache only (values never depend on it); emptied when full."""


def ranks(utility: Sequence[float]) -> Leaf:
    """The order of ``utility`` over scores as integers 0..12 (equal worth, equal rank).

    >>> ranks([0.1, 0.3, 0.2] + [1.0] * 10)
    (0, 2, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3)
    """
    distinct = sorted(set(utility))
    return tuple(distinct.index(u) for u in utility)


def _search(
    grid: Grid,
    mine: Dice,
    theirs: Dice,
    side: int,
    alpha: int,
    beta: int,
    leaf: Leaf = SCORES,
    free_claim: bool = False,
) -> int:
    """Alpha-beta minimax (fail-soft) of a canonical position with memoised bounds.

    With ``free_claim`` the player, once nobody can place and he has used all his
    dice, may claim the empty squares or leave them empty, whichever ``leaf`` prefers
    (the seed's "he can claim": the rules engine's ``free_choices``)."""
    tag = (leaf, free_claim) if free_claim else leaf
    key = (tag, (grid, mine, theirs, side))
    lo, hi = BOUNDS.get(key) or (0, 12)
    if lo >= beta:
        return lo
    if hi <= alpha or lo == hi:
        return hi
    alpha, beta = max(alpha, lo), min(beta, hi)
    a0, b0 = alpha, beta
    children = _children(grid, mine, theirs, side)
    if not children:
        if moves(grid, mine, theirs, 1 - side):
            v = _search(grid, mine, theirs, 1 - side, alpha, beta, leaf, free_claim)
        else:
            v = leaf[tictactoe_score(claim(grid, len(mine)))]
            if free_claim and not mine:
                v = max(v, leaf[tictactoe_score(grid)])  # the empty squares left empty
            BOUNDS.put(key, (v, v))
            return v
    elif side == PLAYER:
        v = -1
        # try first the children already known to be good (transposition bounds)
        ordered = sorted(children, key=lambda c: -(BOUNDS.get((tag, (*c, OPPONENT))) or (0, 12))[1])
        for g, m, t in ordered:
            v = max(v, _search(g, m, t, OPPONENT, alpha, beta, leaf, free_claim))
            if v >= beta:
                break
            alpha = max(alpha, v)
    else:
        v = 13
        ordered = sorted(children, key=lambda c: (BOUNDS.get((tag, (*c, PLAYER))) or (0, 12))[0])
        for g, m, t in ordered:
            v = min(v, _search(g, m, t, PLAYER, alpha, beta, leaf, free_claim))
            if v <= alpha:
                break
            beta = min(beta, v)
    if v <= a0:
        hi = min(hi, v)
    elif v >= b0:
        lo = max(lo, v)
    else:
        lo = hi = v
    BOUNDS.put(key, (lo, hi))
    return v


def solve(grid: Grid, mine: Dice, theirs: Dice, side: int) -> int:
    """Minimax score with ``side`` due to place next (passing if he cannot).

    ``mine`` and ``theirs`` are the dice still in hand.
    """
    return _search(canonical(grid), tuple(sorted(mine)), tuple(sorted(theirs)), side, -1, 13)


def _after(grid: Grid, mine: Dice, theirs: Dice, side: int, v: int, sq: int) -> _Key:
    g = list(grid)
    if side == PLAYER:
        g[sq] = v
        return canonical(tuple(g)), _remove_one(mine, v), theirs, OPPONENT
    g[sq] = -v
    return canonical(tuple(g)), mine, _remove_one(theirs, v), PLAYER


def best_move(
    grid: Grid,
    mine: Dice,
    theirs: Dice,
    side: int,
    known: int | None = None,
    leaf: Leaf = SCORES,
    free_claim: bool = False,
) -> tuple[int, int, int]:
    """A minimax placement ``(value, square, outcome)`` for ``side`` (who must be able
    to place). With the position's ``known`` value (from the shipped table) only cheap
    null-window tests are needed. ``free_claim``: the player will decide the claim
    (only changes anything when ``leaf`` is not the score order)."""
    mine, theirs = tuple(sorted(mine)), tuple(sorted(theirs))
    free_claim = free_claim and leaf != SCORES  # more squares are never worse otherwise
    here = moves(grid, mine, theirs, side)
    if not here:
        raise ValueError("this side cannot place")
    if known is not None:
        for v, sq in here:
            child = _after(grid, mine, theirs, side, v, sq)
            if side == PLAYER and _search(*child, known - 1, known, leaf, free_claim) >= known:
                return v, sq, known
            if side == OPPONENT and _search(*child, known, known + 1, leaf, free_claim) <= known:
                return v, sq, known
    best: tuple[int, int, int] | None = None
    alpha, beta = -1, 13
    for v, sq in here:
        outcome = _search(*_after(grid, mine, theirs, side, v, sq), alpha, beta, leaf, free_claim)
        if side == PLAYER and (best is None or outcome > best[2]):
            best, alpha = (v, sq, outcome), outcome
        elif side == OPPONENT and (best is None or outcome < best[2]):
            best, beta = (v, sq, outcome), outcome
    assert best is not None
    return best


def move_values(
    grid: Grid,
    mine: Dice,
    theirs: Dice,
    side: int,
    leaf: Leaf = SCORES,
    free_claim: bool = False,
) -> list[tuple[int, int, int]]:
    """Each legal placement ``(value, square)`` of ``side`` with its exact minimax value
    (the score, or with another ``leaf`` order the rank of the outcome; ``free_claim``:
    the player will decide the claim)."""
    mine, theirs = tuple(sorted(mine)), tuple(sorted(theirs))
    free_claim = free_claim and leaf != SCORES
    return [
        (v, sq, _search(*_after(grid, mine, theirs, side, v, sq), -1, 13, leaf, free_claim))
        for v, sq in moves(grid, mine, theirs, side)
    ]


def initial_value(mine: Dice, theirs: Dice, leaf: Leaf = SCORES, free_claim: bool = False) -> int:
    """The minimax score of a whole challenge: the player's and the opponent's rolls
    (with another ``leaf`` order: the rank of the outcome)."""
    grid = canonical(EMPTY_GRID)
    return _search(grid, tuple(sorted(mine)), tuple(sorted(theirs)), OPPONENT, -1, 13, leaf,
                   free_claim)  # fmt: skip


def clear_cache() -> None:
    """Forget searched positions (to time cold searches, or to free memory)."""
    BOUNDS.clear()
