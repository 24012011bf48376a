"""TD(λ) self-play, compiled: the network plays both sides greedily at 0-ply and
learns from the difference between successive evaluations (Tesauro's TD-Gammon).

Every after-state is valued by the player who has just moved; successive
after-states alternate players, so the target of one is the *flipped* value of the
next (``network.flip``), and the final one learns the game's real result, gammons
and backgammons included. With ``lam == 0`` the update touches only the weights of
the inputs that are set (fast); with ``lam > 0`` dense eligibility traces, kept in
seat 0's point of view, carry each error back over earlier positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from dicehall.bots.backgammon.features import NUM_INPUTS, encode
from dicehall.bots.backgammon.neural import flip, forward
from dicehall.games.backgammon.fast import (
    CHECKERS,
    opening_roll,
    outcome,
    plays,
    roll_dice,
    start_board,
    swap,
)

# numba caches a kernel by its own file only: edit this file when features.encode changes
# (the inputs grew from 201 to 207 on 1 Dec 2026, to 219 on 2 Dec 2026)


@njit(cache=True)
def _money(y: Any) -> float:
    return float(2.0 * y[0] - 1.0 + y[1] - y[3] + y[2] - y[4])


@njit(cache=True)
def _backprop(
    x: Any, h: Any, y: Any, err: Any, alpha: float, w1: Any, b1: Any, w2: Any, b2: Any
) -> None:
    """Move the outputs of input ``x`` towards ``y + err`` (one gradient step)."""
    nh = h.shape[0]
    dz = np.empty(5)
    for k in range(5):
        dz[k] = err[k] * y[k] * (1.0 - y[k])
    dh = np.empty(nh)
    for j in range(nh):
        s = 0.0
        for k in range(5):
            s += dz[k] * w2[j, k]
        dh[j] = s * h[j] * (1.0 - h[j])
    for j in range(nh):
        for k in range(5):
            w2[j, k] += alpha * dz[k] * h[j]
    for k in range(5):
        b2[k] += alpha * dz[k]
    for j in range(nh):
        b1[j] += alpha * dh[j]
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            a = alpha * xi
            for j in range(nh):
                w1[i, j] += a * dh[j]


@njit(cache=True)
def _trace_step(
    x: Any,
    h: Any,
    y: Any,
    seat: int,
    lam: float,
    e1: Any,
    eb1: Any,
    e2: Any,
    eb2: Any,
    w2: Any,
) -> None:
    """Decay the traces and add the gradient of this position's value, in seat 0's view."""
    nh = h.shape[0]
    e1 *= lam
    eb1 *= lam
    e2 *= lam
    eb2 *= lam
    for k in range(5):
        # seat 0's output k is the mover's output src (negated for the win)
        if seat == 0:
            src, sign = k, 1.0
        else:
            src = (0, 3, 4, 1, 2)[k]
            sign = -1.0 if k == 0 else 1.0
        dz = sign * y[src] * (1.0 - y[src])
        eb2[k, src] += dz
        for j in range(nh):
            e2[k, j, src] += dz * h[j]
            g = dz * w2[j, src] * h[j] * (1.0 - h[j])
            eb1[k, j] += g
            for i in range(x.shape[0]):
                if x[i] != 0.0:
                    e1[k, i, j] += g * x[i]


@njit(cache=True)
def _trace_update(
    delta: Any,
    alpha: float,
    e1: Any,
    eb1: Any,
    e2: Any,
    eb2: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
) -> None:
    for k in range(5):
        a = alpha * delta[k]
        if a != 0.0:
            w1 += a * e1[k]
            b1 += a * eb1[k]
            w2 += a * e2[k]
            b2 += a * eb2[k]


@njit(cache=True)
def train_games(
    w1: Any, b1: Any, w2: Any, b2: Any, games: int, seed: int, alpha: float, lam: float
) -> Any:
    """Play and learn from ``games`` self-play games; the weights change in place.

    Returns counts ``[plies, seat-0 wins, gammons, backgammons]``.
    """
    np.random.seed(seed)
    nh = b1.shape[0]
    stats = np.zeros(4, dtype=np.int64)
    x = np.zeros(NUM_INPUTS)
    h = np.zeros(nh)
    y = np.zeros(5)
    px = np.zeros(NUM_INPUTS)
    ph = np.zeros(nh)
    py = np.zeros(5)
    target = np.zeros(5)
    err = np.zeros(5)
    z = np.zeros(5)
    v_prev0 = np.zeros(5)
    v_cur0 = np.zeros(5)
    traces = lam > 0.0
    tsize = 5 if traces else 0
    e1 = np.zeros((tsize, NUM_INPUTS, nh))
    eb1 = np.zeros((tsize, nh))
    e2 = np.zeros((tsize, nh, 5))
    eb2 = np.zeros((tsize, 5))
    for _ in range(games):
        board = start_board()
        seat, d1, d2 = opening_roll()
        have_prev = False
        if traces:
            e1[:] = 0.0
            eb1[:] = 0.0
            e2[:] = 0.0
            eb2[:] = 0.0
        while True:
            n, _, boards, _ = plays(board, d1, d2)
            best = -1e9
            pick = 0
            for i in range(n):
                if boards[i, 0, 0] == CHECKERS:
                    eq = 10.0 + outcome(boards[i, 0], boards[i, 1])
                else:
                    encode(boards[i], x)
                    forward(x, w1, b1, w2, b2, h, y)
                    eq = _money(y)
                if eq > best:
                    best = eq
                    pick = i
            after = boards[pick].copy()
            stats[0] += 1
            points = outcome(after[0], after[1])
            if points > 0:
                z[:] = 0.0
                z[0] = 1.0
                z[1] = 1.0 if points >= 2 else 0.0
                z[2] = 1.0 if points >= 3 else 0.0
                if seat == 0:
                    stats[1] += 1
                if points >= 2:
                    stats[2] += 1
                if points >= 3:
                    stats[3] += 1
                # the loser's last position learns the real result
                flip(z, target)
                if have_prev:
                    if traces:
                        if seat == 0:
                            v_cur0[:] = z
                        else:
                            flip(z, v_cur0)
                        for k in range(5):
                            err[k] = v_cur0[k] - v_prev0[k]
                        _trace_update(err, alpha, e1, eb1, e2, eb2, w1, b1, w2, b2)
                    else:
                        for k in range(5):
                            err[k] = target[k] - py[k]
                        _backprop(px, ph, py, err, alpha, w1, b1, w2, b2)
                break
            encode(after, x)
            forward(x, w1, b1, w2, b2, h, y)
            if have_prev:
                flip(y, target)
                if traces:
                    if seat == 0:
                        v_cur0[:] = y
                    else:
                        flip(y, v_cur0)
                    for k in range(5):
                        err[k] = v_cur0[k] - v_prev0[k]
                    _trace_update(err, alpha, e1, eb1, e2, eb2, w1, b1, w2, b2)
                else:
                    for k in range(5):
                        err[k] = target[k] - py[k]
                    _backprop(px, ph, py, err, alpha, w1, b1, w2, b2)
            if traces:
                _trace_step(x, h, y, seat, lam, e1, eb1, e2, eb2, w2)
                if seat == 0:
                    v_prev0[:] = y
                else:
                    flip(y, v_prev0)
            px[:] = x
            ph[:] = h
            py[:] = y
            have_prev = True
            board = swap(after)
            seat = 1 - seat
            d1, d2 = roll_dice()
    return stats
