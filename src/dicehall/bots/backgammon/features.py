"""Network inputs for a position: Tesauro's 196 board units plus a few extras.

The position is encoded for the player who has *just moved* (row 0 of the compact
board, see ``dicehall.games.backgammon.fast``); the opponent is on roll. Because the
side to roll is always the same, Tesauro's two turn units carry nothing and are
replaced by more useful ones.

Inputs, ``NUM_INPUTS`` = 219:

* 0..97: the mover. For each of points 1..24 four units: 1 if at least one checker,
  1 if at least two, 1 if at least three, (n - 3) / 2 beyond three; then the bar
  (n / 2) and the checkers borne off (n / 15).
* 98..195: the same for the opponent, in his own numbering.
* 196, 197: pip counts / 100 of mover and opponent.
* 198, 199: blots (single checkers on points) / 15 of mover and opponent.
* 200: 1 if the checkers are still in contact, else 0 (a pure race).
* 201: the opponent's *shots*: the share of his 36 rolls with which he can hit at
  least one of the mover's blots (``shots``). He is on roll, so this is the
  mover's immediate risk, the input gnubg's contact net finds most telling.
* 202: the mover's shots at the opponent's blots, were he to roll next.
* 203, 204: the longest prime (run of consecutive points held with two or more)
  of the mover and of the opponent, / 6 (capped at 1).
* 205, 206: *escapes* of the mover's and of the opponent's rearmost checker: the
  share of the 36 rolls that carry it past every point the other side holds within
  12 pips in front of it (``escapes``); 1 when nothing blocks it.


Inputs 207 to 218 (2 Dec 2026), versions of gnubg's contact inputs, each a pair
(mover, opponent) and 0 in a race:

* 207, 208: *pip loss* to hits of the mover's and of the opponent's blots: over the
  36 rolls of the other side, the mean of the largest number of pips a hit with that
  roll sends back (a blot on the victim's point q loses 25 - q), / 12 (``hit_stats``;
  gnubg's A_PIPLOSS). A blot in the opponent's home board costs little when hit, one
  on the mover's own side of the board costs a lot: ``shots`` alone cannot tell.
* 209, 210: *double shots* at the mover's and the opponent's blots: the share of the
  36 rolls that can reach two or more different blots (an upper estimate of gnubg's
  A_P2, the chance of being hit twice; it does not check that one play hits both).
* 211, 212: *dancing*: the chance that the mover's (after the opponent's move,
  against the home board as it is now) and the opponent's (on roll now) checkers on
  the bar do not all enter with the next roll: (closed / 6)^2 for one checker, 1 -
  (open / 6)^2 for two, 1 - open / 36 for three or four, 1 beyond (``dance``;
  gnubg's A_ENTER, A_ENTER2). 0 with nobody on the bar.
* 213, 214: *forward anchor*: the most advanced point held (two or more) in the
  other side's home board, as (25 - p) / 6 for the mover's point p in 19..24 (the
  24-point anchor 1/6, the 19-point 1), 0 without an anchor (gnubg's
  I_FORWARD_ANCHOR: a 20-point anchor holds a game a 24-point anchor does not).
* 215, 216: *break contact*: the pips the mover's (then the opponent's) checkers
  still behind the other side's rearmost checker must travel to pass it, / 100
  (``break_contact``; gnubg's I_BREAK_CONTACT): how long the contact lasts.
* 217, 218: *containment* by the mover's and by the opponent's points: 1 - the
  fewest escaping rolls (``escapes_from``) of a checker of the other side standing
  on any of its points 15 to 24, / 36 (gnubg's I_CONTAIN): how well a prime or
  blockade holds checkers that are not there yet, beyond the rearmost one.

Inputs 201 to 218 are nonlinear in the board: a one-layer net learns them from the
point units only poorly, which is why gnubg's and TD-Gammon 2's inputs include
their own versions. Weights made for fewer inputs (201 or more) load with zero
weights on the later ones (``Network.load``), so they value positions as before.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

NUM_INPUTS = 219
#: the inputs of the original encoding (weights for them alone still load)
BASE_INPUTS = 201
#: the inputs ``encode_base`` writes: one pass over the board, no contact features
CHEAP_INPUTS = 200
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
    encode_base(board, out)
    contact = not is_race(board)
    out[200] = 1.0 if contact else 0.0
    if contact:
        for victim in range(2):
            hits, loss, double = hit_stats(board, 1 - victim)
            out[201 + victim] = hits / 36.0  # = shots(board, 1 - victim) / 36
            out[207 + victim] = loss / (36.0 * 12.0)
            out[209 + victim] = double / 36.0
        out[205] = escapes(board, 0) / 36.0
        out[206] = escapes(board, 1) / 36.0
    out[203] = min(longest_prime(board, 0), 6) / 6.0
    out[204] = min(longest_prime(board, 1), 6) / 6.0
    if contact:
        for victim in range(2):
            out[211 + victim] = dance(board, victim)
            out[213 + victim] = forward_anchor(board, victim)
            out[215 + victim] = break_contact(board, victim) / 100.0
            out[217 + victim] = 1.0 - min_escapes(board, 1 - victim) / 36.0


@njit(cache=True, nogil=True)
def encode_base(board: Any, out: Any) -> None:
    """Write inputs 0 to ``CHEAP_INPUTS`` - 1 of ``board`` into ``out`` (which must be
    zero there): the point units, bar, borne off, pip counts and blots of both sides,
    the inputs a single pass over the board gives. The pruning net (``prune.py``)
    reads these alone."""
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


@njit(cache=True, nogil=True)
def longest_prime(board: Any, side: int) -> int:
    """The longest run of consecutive points 1..24 where ``side`` has two or more."""
    best = 0
    run = 0
    for p in range(1, 25):
        if board[side, p] >= 2:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


@njit(cache=True, nogil=True)
def _lands(board: Any, att: int, t: int) -> int:
    """What a checker of ``att`` finds on its point ``t``: 0 open, 1 a blot of the
    other side (a hit), 2 blocked (two or more of the other side), 3 off the board."""
    if t < 1:
        return 3
    n = board[1 - att, 25 - t]
    if n >= 2:
        return 2
    return 1 if n == 1 else 0


@njit(cache=True, nogil=True)
def shots(board: Any, att: int) -> int:
    """How many of the 36 rolls let side ``att`` hit a blot of the other side.

    A roll hits if some checker of ``att`` (on a point or on the bar) lands on a blot
    with one die, or with both dice (either order, or up to four steps of a double)
    through open intermediate points. The rule that a checker on the bar must enter
    first is ignored: a fast estimate, as gnubg's own shot counts are. The count is
    the first of ``hit_stats``, which walks the same paths."""
    return hit_stats(board, att)[0]


def features(board: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The inputs of a compact board as a new array (for tests and the REPL)."""
    out = np.zeros(NUM_INPUTS)
    encode(np.asarray(board, dtype=np.int8), out)
    return out


@njit(cache=True, nogil=True)
def escapes(board: Any, side: int) -> int:
    """How many of the 36 rolls let the rearmost checker of ``side`` (the bar counts
    as point 25) land beyond every point the other side holds (two or more) within
    12 pips in front of it, through open intermediate points. 36 if none is held."""
    r = 0
    for p in range(25, 0, -1):
        if board[side, p] > 0:
            r = p
            break
    if r == 0:
        return 0
    return escapes_from(board, side, r)


@njit(cache=True, nogil=True)
def escapes_from(board: Any, side: int, r: int) -> int:
    """``escapes`` of a checker of ``side`` on its point ``r`` (there or not)."""
    low = 0
    for q in range(r - 1, max(0, r - 13), -1):
        if board[1 - side, 25 - q] >= 2:
            low = q
    if low == 0:
        return 36
    total = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            out = False
            if d1 == d2:
                t = r
                for _ in range(4):
                    t -= d1
                    if t < 1 or _lands(board, side, t) == 2:
                        break
                    if t < low:
                        out = True
                        break
            else:
                for first, second in ((d1, d2), (d2, d1)):
                    t = r - first
                    if t >= 1 and _lands(board, side, t) != 2:
                        if t < low:
                            out = True
                        t2 = t - second
                        if t2 >= 1 and t2 < low and _lands(board, side, t2) != 2:
                            out = True
            if out:
                total += 1 if d1 == d2 else 2
    return total


@njit(cache=True, nogil=True)
def min_escapes(board: Any, side: int) -> int:
    """The fewest ``escapes_from`` of a checker of ``side`` on any of its points 15 to
    24: how well the other side contains checkers of ``side`` that come this way."""
    best = 36
    for r in range(24, 14, -1):
        best = min(best, escapes_from(board, side, r))
        if best == 0:
            break
    return best


@njit(cache=True, nogil=True)
def hit_stats(board: Any, att: int) -> tuple[int, int, int]:
    """``(hits, loss, double)`` of the 36 rolls of side ``att`` against the other
    side's blots: ``hits`` is ``shots(board, att)``; ``loss`` sums, over the rolls,
    the most pips one hit with that roll sends back (a blot on the victim's point q
    loses 25 - q, which is the landing point in ``att``'s numbering); ``double``
    counts the rolls that reach two or more different blots. Paths as in ``shots``
    (a checker may go on after a hit)."""
    victim = 1 - att
    # what a checker of att finds on its point t (``_lands``), read once; 3 below 1
    lands = np.full(26, 3, dtype=np.int8)
    low = 25  # the lowest landing point of a blot
    for t in range(1, 25):
        n = board[victim, 25 - t]
        lands[t] = 2 if n >= 2 else n
        if n == 1 and t < low:
            low = t
    if low == 25:
        return 0, 0, 0
    sources = np.empty(25, dtype=np.int64)  # att's occupied points above the lowest blot
    m = 0
    for s in range(25, low, -1):
        if board[att, s] > 0:
            sources[m] = s
            m += 1
    hits = 0
    loss = 0
    double = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            best = 0
            seen = 0  # the landing points of hits, one bit each
            for j in range(m):
                s = sources[j]
                if d1 == d2:
                    t = s
                    for _ in range(4):
                        t -= d1
                        if t < 1:
                            break
                        k = lands[t]
                        if k == 1:
                            seen |= 1 << t
                            best = max(best, t)
                        elif k >= 2:
                            break
                else:
                    for first, second in ((d1, d2), (d2, d1)):
                        t = s - first
                        if t < 1 or lands[t] >= 2:
                            continue
                        if lands[t] == 1:
                            seen |= 1 << t
                            best = max(best, t)
                        t2 = t - second
                        if t2 >= 1 and lands[t2] == 1:
                            seen |= 1 << t2
                            best = max(best, t2)
            if seen:
                weight = 1 if d1 == d2 else 2
                hits += weight
                loss += weight * best
                if seen & (seen - 1):  # more than one bit
                    double += weight
    return hits, loss, double


@njit(cache=True, nogil=True)
def dance(board: Any, side: int) -> float:
    """The chance that the checkers of ``side`` on the bar do not all enter with one
    roll against the other side's home board as it stands (0 if none is there)."""
    n = board[side, 25]
    if n == 0:
        return 0.0
    closed = 0
    for d in range(1, 7):  # the die d enters on the other side's point d
        if board[1 - side, d] >= 2:
            closed += 1
    open_ = 6 - closed
    if n == 1:
        return (closed / 6.0) ** 2
    if n == 2:
        return 1.0 - (open_ / 6.0) ** 2
    if n <= 4:
        return 1.0 - open_ / 36.0
    return 1.0


@njit(cache=True, nogil=True)
def forward_anchor(board: Any, side: int) -> float:
    """(25 - p) / 6 for the lowest point p in 19..24 where ``side`` has two or more
    (its most advanced anchor in the other side's home board), 0 if none."""
    for p in range(19, 25):
        if board[side, p] >= 2:
            return (25 - p) / 6.0
    return 0.0


@njit(cache=True, nogil=True)
def break_contact(board: Any, side: int) -> int:
    """The pips the checkers of ``side`` behind the other side's rearmost checker
    must travel to pass it (0 in a race)."""
    r = 0  # the other side's rearmost checker, on its point r = side's point 25 - r
    for p in range(25, 0, -1):
        if board[1 - side, p] > 0:
            r = p
            break
    if r == 0:
        return 0
    front = 25 - r
    total = 0
    for p in range(front + 1, 26):
        total += board[side, p] * (p - front)
    return total
