"""White Die's score explanations as messages (``server/views/whitedie.py``): in English each
says word for word what its ``text`` says, in Portuguese every part comes from the catalogue
(no English left, no placeholder unfilled), for every roll of every challenge."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest

from dicehall.games.whitedie.challenges import CLAIMED, POKER_CHARTS
from dicehall.server import i18n
from dicehall.server.views import whitedie as view

ROLLS = list(itertools.product(range(1, 7), repeat=4))


def _ids(message: Any) -> set[str]:
    if not isinstance(message, dict):
        return set()
    found = {message["id"]}
    for value in message["params"].values():
        found |= _ids(value)
    return found


def _check(explained: dict[str, Any]) -> str:
    message = explained["message"]
    assert i18n.message_text("en", message) == explained["text"]
    missing = _ids(message) - set(i18n.messages("pt"))
    assert not missing, f"not in the Portuguese catalogue: {missing}"
    pt = i18n.message_text("pt", message)
    assert "{" not in pt and not re.search(r"\b(points?|empty|rows?|columns?|lines?)\b", pt), pt
    return pt


@pytest.mark.parametrize("chart", sorted(POKER_CHARTS))
def test_poker_pips_and_sixes_for_every_roll(chart: str) -> None:
    for white in (2, 5, 6):
        for dice in ROLLS:
            _check(view.explain(white, dice, chart))


def test_known_explanations_in_portuguese() -> None:
    assert _check(view.explain(6, (2, 4, 4, 1), "standard")) == "seis: 2+4, 2+4 → 2 pontos"
    assert _check(view.explain(2, (3, 4, 5, 6), "standard")) == "sequência → 4 pontos"
    assert _check(view.explain(6, (1, 1, 1, 1), "standard")).startswith("seis: nenhum conjunto")
    pips = _check(view.explain(5, (6, 6, 1, 1), "standard"))
    assert pips.startswith("melhor quadrado: 3 filas vazias e ") and "colunas vazias" in pips
    match = view.explain_matching((4, 5, 2, 2), (3, 6, 4, 6))
    assert match["text"] == "matches 2+2 = 4, 4+5 = 3+6 + all-four bonus → 3 points"
    assert _check(match) == "emparelhamentos 2+2 = 4, 4+5 = 3+6 + bónus dos quatro → 3 pontos"


def test_matching_for_many_rolls() -> None:
    rng = random.Random(18)
    for _ in range(3000):
        _check(view.explain_matching(rng.choice(ROLLS), rng.choice(ROLLS)))


def test_tictactoe_grids() -> None:
    rng = random.Random(18)
    seen = set()
    for _ in range(3000):
        grid = tuple(
            rng.choice([0, 1, 2, 3, 4, 5, 6, CLAIMED, -1, -2, -3, -4, -5, -6, -CLAIMED])
            for _ in range(9)
        )
        explained = view.explain_grid(grid)
        seen.add((len(explained["lines"]), len(explained["blocks"])))
        _check(explained)
    assert {(0, 0), (1, 0), (0, 1)} <= seen  # singular and plural of both words


def test_an_arranged_pips_square_and_unclaimed_squares() -> None:
    """The messages of the free choices (issue 20: a Pips square arranged below the best, a
    tic-tac-toe claim declined) say what their English texts say."""
    arranged = view.pips_message(2, 0, 2, 3)
    assert i18n.message_text("en", arranged) == (
        "arranged square: 2 empty rows and 0 empty columns → 2 points (the best square scores 3)"
    )
    assert i18n.message_text("pt", arranged) == (
        "quadrado disposto: 2 filas vazias e 0 colunas vazias → 2 pontos "
        "(o melhor quadrado marca 3)"
    )
    grid = view.explain_grid((1, 1, 1, 0, 3, 0, -2, -2, 0))
    declined = view.unclaimed_message(grid["message"])
    assert i18n.message_text("en", declined) == (
        grid["text"] + "; the empty squares were left unclaimed"
    )
    assert i18n.message_text("pt", declined).endswith("; as casas vazias ficaram por reclamar")
