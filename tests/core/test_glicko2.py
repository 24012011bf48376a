"""Glicko-2 against the worked example of Glickman's paper, and its basic properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.core.glicko2 import Glicko2Error, Rating, expected_score, update

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_paper_example_to_its_published_precision() -> None:
    """Glickman, "Example of the Glicko-2 system": r' = 1464.06, RD' = 151.52,
    sigma' = 0.05999 (tau = 0.5), and mu' = -0.2069, phi' = 0.8722 on the Glicko-2 scale.

    The paper converts its rounded mu' back (173.7178 * -0.2069 + 1500 = 1464.06); unrounded,
    the same computation gives 1464.0507, so the rating is checked to the paper's 4-digit mu'
    and to within 0.01 of its 1464.06."""
    new = update(PLAYER, OPPONENTS, tau=0.5)
    assert round(173.7178 * round(new.mu, 4) + 1500, 2) == 1464.06
    assert abs(new.rating - 1464.06) < 0.01
    assert round(new.deviation, 2) == 151.52
    assert abs(new.volatility - 0.05999) < 0.00001
    assert round(new.mu, 4) == -0.2069
    assert round(new.phi, 4) == 0.8722


def test_paper_expected_scores() -> None:
    """Step 3 of the paper: E = 0.639, 0.432, 0.303; v = 1.7785 and Delta = -0.4834 follow."""
    got = [round(expected_score(PLAYER, o), 3) for o, _ in OPPONENTS]
    assert got == [0.639, 0.432, 0.303]


def test_no_games_only_widens_the_deviation() -> None:
    new = update(PLAYER, [])
    assert new.rating == PLAYER.rating
    assert new.deviation == pytest.approx(math.sqrt(200**2 + (0.06 * 173.7178) ** 2))
    assert update(Rating(), []).deviation == 350.0  # capped at a new player's


def test_bad_input_is_refused() -> None:
    with pytest.raises(Glicko2Error, match="score must be in"):
        update(PLAYER, [(Rating(), 1.5)])
    with pytest.raises(Glicko2Error, match="deviation"):
        Rating(1500, 0)
    with pytest.raises(Glicko2Error, match="tau"):
        update(PLAYER, OPPONENTS, tau=0)


ratings = st.builds(
    Rating,
    st.floats(800, 2500),
    st.floats(30, 350),
    st.floats(0.03, 0.1),
)


@settings(deadline=None, max_examples=200, derandomize=True)
@given(ratings, ratings)
def test_a_win_never_lowers_and_a_loss_never_raises(a: Rating, b: Rating) -> None:
    won, lost = update(a, [(b, 1.0)]), update(a, [(b, 0.0)])
    assert won.rating > a.rating > lost.rating
    # a game always narrows the deviation below phi* (its widening by the new volatility)
    for new in (won, lost):
        assert new.deviation < math.sqrt(a.deviation**2 + (new.volatility * 173.7178) ** 2)
    # a draw moves the rating towards the opponent's
    drawn = update(a, [(b, 0.5)])
    assert (drawn.rating - a.rating) * (b.rating - a.rating) >= -1e-9
