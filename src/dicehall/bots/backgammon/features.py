"""Network inputs for a position: Tesauro's 196 board units plus a few extras.

The position is encoded for the player who has *just moved* (row 0 of the compact
board, see ``dicehall.games.backgammon.fast``); the opponent is on roll. Because the
side to roll is always the same, Tesauro's two turn units carry nothing and are
replaced by more useful ones.

Inputs, ``NUM_INPUTS`` = 201:

* 0..97: the mover. For each of points 1..24 four units: 1 if at least one checker,
  1 if at least two, 1 if at least three, (n - 3) / 2 beyond three; then the bar
  (n / 2) and the checkers borne off (n / 15).
* 98..195: the same for the opponent, in his own numbering.
* 196, 197: pip counts / 100 of mover and opponent.
* 198, 199: blots (single checkers on points) / 15 of mover and opponent.
* 200: 1 if the checkers are still in contact, else 0 (a pure race).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

NUM_INPUTS = 201
SIDE_UNITS = 98


@njit(cache=True, nogil=True)
def is_race(board: Any) -> bool:
    """True when no checker of either side must still pass an opposing one."""
    back0 = 0
    for i in range(25, 0, -1):
        if board[0, i] > 0:
            back0 = i
            break
    back1 = 0
    for i in range(25, 0, -1):
        if board[1, i] > 0:
            back1 = i
            break
    return back0 + back1 < 25


@njit(cache=True, nogil=True)
def encode(board: Any, out: Any) -> None:
    """Write the ``NUM_INPUTS`` inputs of ``board`` (mover row 0) into ``out``."""
    out[:] = 0.0
    for side in range(2):
        base = side * SIDE_UNITS
        pips = 0
        blots = 0
        for p in range(1, 25):
            n = board[side, p]
            pips += p * n
            if n >= 1:
                out[base + 4 * (p - 1)] = 1.0
                if n == 1:
                    blots += 1
            if n >= 2:
                out[base + 4 * (p - 1) + 1] = 1.0
            if n >= 3:
                out[base + 4 * (p - 1) + 2] = 1.0
            if n > 3:
                out[base + 4 * (p - 1) + 3] = (n - 3) / 2.0
        out[base + 96] = board[side, 25] / 2.0
        out[base + 97] = board[side, 0] / 15.0
        pips += 25 * board[side, 25]
        out[196 + side] = pips / 100.0
        out[198 + side] = blots / 15.0
    out[200] = 0.0 if is_race(board) else 1.0


def features(board: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The inputs of a compact board as a new array (for tests and the REPL)."""
    out = np.zeros(NUM_INPUTS)
    encode(np.asarray(board, dtype=np.int8), out)
    return out
