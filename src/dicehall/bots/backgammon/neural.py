"""The evaluator's compiled arithmetic: the forward pass, the sigmoid, probabilities made
consistent, flipped to the other side, and turned into equity.

A leaf of ``bots.backgammon``: the network (weights and files) and the search both use
these kernels, and neither is imported here, so the two do not import each other.

>>> import numpy as np
>>> y = np.array([0.6, 0.7, 0.1, 0.5, 0.2]); make_consistent(y); y.tolist()
[0.6, 0.6, 0.1, 0.4, 0.2]
>>> round(equity(y, True), 6), round(equity(y, False), 6)
(0.2, 0.3)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

NUM_OUTPUTS = 5
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(NUM_OUTPUTS)


#: the logistic function tabulated on [-16, 16] in steps of 1/1000; interpolating it
#: linearly is within 2e-8 of ``1 / (1 + exp(-z))`` and about twice as fast as ``exp``
_SIGMOID_STEPS = 1000.0
_SIGMOID_TABLE = 1.0 / (1.0 + np.exp(-np.linspace(-16.0, 16.0, 32_001)))


@njit(cache=True, nogil=True)
def sigmoid(z: float) -> float:
    """The logistic function: a table lookup in [-16, 16], ``exp`` beyond."""
    if -16.0 < z < 16.0:
        u = (z + 16.0) * _SIGMOID_STEPS
        i = int(u)
        lo = _SIGMOID_TABLE[i]
        return float(lo + (u - i) * (_SIGMOID_TABLE[i + 1] - lo))
    if z < -40.0:
        return 0.0
    if z > 40.0:
        return 1.0
    return float(1.0 / (1.0 + np.exp(-z)))


@njit(cache=True, nogil=True)
def hidden_layer(x: Any, w1: Any, b1: Any, h: Any) -> None:
    """Sigmoid hidden activations of inputs ``x`` into ``h``; skips zero inputs."""
    nh = b1.shape[0]
    h[:] = b1
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(nh):
                h[j] += xi * w1[i, j]
    for j in range(nh):
        h[j] = sigmoid(h[j])


@njit(cache=True, nogil=True)
def forward(x: Any, w1: Any, b1: Any, w2: Any, b2: Any, h: Any, y: Any) -> None:
    """Hidden activations into ``h`` and outputs into ``y``; skips zero inputs."""
    nh = b1.shape[0]
    hidden_layer(x, w1, b1, h)
    # the five outputs in registers, w2 read row by row (it is (hidden, 5), C order)
    z0, z1, z2, z3, z4 = b2[0], b2[1], b2[2], b2[3], b2[4]
    for j in range(nh):
        hj = h[j]
        z0 += hj * w2[j, 0]
        z1 += hj * w2[j, 1]
        z2 += hj * w2[j, 2]
        z3 += hj * w2[j, 3]
        z4 += hj * w2[j, 4]
    y[0], y[1], y[2], y[3], y[4] = sigmoid(z0), sigmoid(z1), sigmoid(z2), sigmoid(z3), sigmoid(z4)


@njit(cache=True, nogil=True)
def make_consistent(y: Any) -> None:
    """Clamp raw outputs into valid probabilities: backgammons <= gammons <= wins/losses."""
    for k in range(5):
        y[k] = min(1.0, max(0.0, y[k]))
    y[1] = min(y[1], y[0])
    y[2] = min(y[2], y[1])
    y[3] = min(y[3], 1.0 - y[0])
    y[4] = min(y[4], y[3])


@njit(cache=True, nogil=True)
def flip(y: Any, out: Any) -> None:
    """Probabilities seen by the other player."""
    out[0] = 1.0 - y[0]
    out[1] = y[3]
    out[2] = y[4]
    out[3] = y[1]
    out[4] = y[2]


@njit(cache=True, nogil=True)
def equity(y: Any, single: bool) -> float:
    """Expected points: single games count a win as 1 whatever its kind; money
    (standard scoring, cubeless) counts gammons 2 and backgammons 3."""
    if single:
        return float(2.0 * y[0] - 1.0)
    return float(2.0 * y[0] - 1.0 + y[1] - y[3] + y[2] - y[4])
