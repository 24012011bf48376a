"""The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013).

A rating is ``(rating, deviation, volatility)`` on the Glicko scale (a new player: 1500, 350,
0.06). ``update`` applies one rating period's results to a player, step by step as in the
paper (steps 1-8; the volatility by the Illinois algorithm of step 5). It is checked against
the paper's worked example in ``tests/core/test_glicko2.py``.

Why our own module: the Glicko-2 package on PyPI is an untyped, mutable ``Player`` class with
no release in years; the algorithm is short and fully specified, and this one is pure,
typed and immutable. The server rates every game as its own rating period (as bgammon.org
and many game sites do), so a player's deviation shrinks with every game played.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: the conversion factor between the Glicko scale and the Glicko-2 scale (paper, step 2)
SCALE = 173.7178
#: the system constant tau: how much volatility may change; the paper suggests 0.3 to 1.2
DEFAULT_TAU = 0.5
#: convergence tolerance of the volatility iteration (the paper's epsilon)
EPSILON = 0.000001
#: the largest deviation: that of a new player (also the cap for an inactive one)
MAX_DEVIATION = 350.0


class Glicko2Error(ValueError):
    """A rating or result outside the allowed range."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale."""

    rating: float = 1500.0
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise Glicko2Error(f"rating must be a finite number, got {self.rating!r}")
        if not (0.0 < self.deviation <= MAX_DEVIATION):
            raise Glicko2Error(f"deviation must be in (0, {MAX_DEVIATION}], got {self.deviation}")
        if not (0.0 < self.volatility < 1.0):
            raise Glicko2Error(f"volatility must be in (0, 1), got {self.volatility}")

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale."""
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale."""
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The expected score of ``player`` against ``opponent`` (paper, E in step 3).

    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    return _e(player.mu, opponent.mu, opponent.phi)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f by the Illinois (regula falsi) method."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(200):  # converges in a handful of steps; the bound keeps the cost bounded
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float = DEFAULT_TAU,
) -> Rating:
    """The player's rating after one rating period with ``results``: ``(opponent, score)``
    pairs, score 1 for a win, 0.5 for a draw, 0 for a loss. With no results only the
    deviation grows (paper, step 6 alone).

    :raises Glicko2Error: for a score outside [0, 1] or a tau that is not positive.
    """
    if not tau > 0:
        raise Glicko2Error(f"tau must be positive, got {tau}")
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, MAX_DEVIATION), sigma)
    inv_v = 0.0
    total = 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise Glicko2Error(f"a score must be in [0, 1], got {score}")
        g = _g(opponent.phi)
        e = _e(mu, opponent.mu, opponent.phi)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    sigma_new = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(
        mu_new * SCALE + 1500.0,
        min(phi_new * SCALE, MAX_DEVIATION),
        sigma_new,
    )
