"""Coin Rows' legal moves of a roll, compiled: the same rule as ``board.legal_moves``
(the plain search of ``board._candidate_steps``), the moves as integer codes.

The public protocol (``CoinRowsState.legal_actions()``) calls ``move_codes`` once per
roll to be moved and keeps the codes; a ``Move`` object is made only for the move a
player picks (``board.LegalMoves``). tests/games/coinrows/test_coinrows_fast.py checks
that the codes decode to exactly the moves of the plain search, in the same order, on
every board of a few thousand random ones and on all of a seat's coins for every roll.

numba compiles the kernel on first use and caches it (``cache=True``), as the
backgammon kernels are.

The codes are those of ``board.move_code`` (they sort as the moves' steps do).

>>> from dicehall.games.coinrows.board import START_BOARD, code_steps
>>> codes, pips = move_codes(own_key(START_BOARD, 1), 1, 2)
>>> [code_steps(c) for c in codes], pips
([((0, 6, 3),), ((0, 6, 4), (1, 6, 5)), ((0, 6, 5), (1, 6, 4)), ((1, 6, 3),)], 3)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicehall.games.coinrows.board import CODE_SECOND, SIZE, Board, LegalMoves

SECOND = CODE_SECOND


def own_key(board: Board, seat: int) -> int:
    """The coins of ``seat`` packed as ``move_codes`` takes them: three bits per column,
    ``row + 1`` where the seat has a coin, 0 elsewhere."""
    key = 0
    shift = 0
    for coin in board:
        if coin is not None and coin[1] == seat:
            key |= (coin[0] + 1) << shift
        shift += 3
    return key


def move_codes(key: int, low: int, high: int) -> tuple[list[int], int]:
    """The legal moves of the coins ``key`` (``own_key``) for the roll ``low``-``high``
    (low <= high) as sorted codes (``board.move_code``), and how many squares each
    moves (0 and no moves if the seat has no coin)."""
    codes, pips = _move_codes(key, low, high)
    return codes.tolist(), int(pips)


def legal_moves(board: Board, seat: int, low: int, high: int) -> LegalMoves:
    """``board.moves_of`` of ``seat``'s coins, compiled: the same moves in the same
    order."""
    codes, pips = _move_codes(own_key(board, seat), low, high)
    return LegalMoves(codes.tolist(), int(pips))


@njit(cache=True, nogil=True)
def _move_codes(key: int, low: int, high: int) -> tuple[np.ndarray, int]:  # pragma: no cover
    """The compiled part of ``move_codes``: every way to move the whole roll (one coin
    by the total, or two different coins one die each; each coin up or down, stopping
    at the edge, never staying put), those that move the most squares kept."""
    columns = np.empty(SIZE, np.int64)
    rows = np.empty(SIZE, np.int64)
    k = 0
    for c in range(SIZE):
        v = (key >> (3 * c)) & 7
        if v:
            columns[k] = c
            rows[k] = v - 1
            k += 1
    out = np.empty(SIZE * 2 + 21 * 8, np.int64)
    n = 0
    best = 0
    total = low + high
    top = SIZE - 1
    for i in range(k):
        slot = SIZE * columns[i] + rows[i]
        r = rows[i]
        for up in range(2):
            to = min(top, r + total) if up else max(0, r - total)
            p = abs(to - r)
            if p == 0 or p < best:
                continue
            if p > best:
                best = p
                n = 0
            out[n] = (SIZE * slot + to) * SECOND
            n += 1
    orders = 1 if low == high else 2
    for i in range(k):
        r1 = rows[i]
        s1 = SIZE * columns[i] + r1
        for j in range(i + 1, k):
            r2 = rows[j]
            s2 = SIZE * columns[j] + r2
            for order in range(orders):
                d1 = low if order == 0 else high
                d2 = high if order == 0 else low
                for up1 in range(2):
                    t1 = min(top, r1 + d1) if up1 else max(0, r1 - d1)
                    p1 = abs(t1 - r1)
                    if p1 == 0:
                        continue
                    for up2 in range(2):
                        t2 = min(top, r2 + d2) if up2 else max(0, r2 - d2)
                        p2 = abs(t2 - r2)
                        if p2 == 0 or p1 + p2 < best:
                            continue
                        if p1 + p2 > best:
                            best = p1 + p2
                            n = 0
                        out[n] = (SIZE * s1 + t1) * SECOND + 1 + SIZE * s2 + t2
                        n += 1
    found = np.sort(out[:n])
    m = 0
    for i in range(n):
        if m == 0 or found[i] != found[m - 1]:
            found[m] = found[i]
            m += 1
    return found[:m], best
