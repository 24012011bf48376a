"""``dicehall.svg``: pure SVG boards that show every piece of a position, oriented and
sized as asked, with the last move marked."""

from __future__ import annotations

import dataclasses
import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from dicehall import load_game
from dicehall.core.declaration import GameEntry
from dicehall.core.errors import GameDeclarationError
from dicehall.core.registry import refresh_games, register_game
from dicehall.svg import board_svg

NS = "{http://www.w3.org/2000/svg}"


def classes(svg: str) -> Counter[str]:
    """How many elements carry each class (the document must be well-formed XML)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return Counter(el.get("class") for el in root.iter() if el.get("class"))


def played(game: str, seed: int, count: int = 10, **options: object) -> list:
    """``count`` states of one seeded random game (chance included), with the action text
    that led to each."""
    rng = random.Random(seed)
    state = load_game(game, **options).new_initial_state()
    out = []
    while not state.is_terminal() and len(out) < 400:
        action = rng.choice(list(state.legal_actions()))
        text = state.action_to_text(action)
        state = state.apply(action)
        out.append((state, text))
    return out[:: max(1, len(out) // count)]


@pytest.mark.parametrize("seed", range(4))
def test_backgammon_shows_all_thirty_checkers(seed: int) -> None:
    for state, text in played("backgammon", seed):
        seen = classes(board_svg(state, last_move=text))
        if "/" not in text:
            assert seen["last"] == 0  # a roll or a pass moved nothing
        for seat in (0, 1):
            side = state.side(seat)
            on_points = sum(min(side[p], 5) for p in range(1, 26))
            assert seen[f"checker s{seat}"] == on_points
            assert seen[f"off s{seat}"] == side[0]
        assert seen["die"] == (2 if state.dice is not None and state.winner is None else 0)


def test_backgammon_orientation_puts_that_seat_at_the_bottom() -> None:
    state = load_game("backgammon").new_initial_state().apply_text("3-1")  # seat 0 to play
    for orientation, below in ((None, True), (0, True), (1, False)):
        root = ET.fromstring(board_svg(state, orientation=orientation))
        # seat 0's six-point stack (5 checkers) is in the column just right of the bar
        ys = [
            float(c.get("cy"))
            for c in root.iter(f"{NS}circle")
            if c.get("class") == "checker s0" and c.get("cx") == "320"
        ]
        assert len(ys) == 5 and all((y > 220) == below for y in ys)


def test_backgammon_last_play_marks_its_points() -> None:
    state = load_game("backgammon").new_initial_state().apply_text("3-1").apply_text("8/5 6/5")
    assert classes(board_svg(state, last_move="8/5 6/5"))["last"] == 4
    assert classes(board_svg(state))["last"] == 0
    with pytest.raises(ValueError, match="last_move"):
        board_svg(state, last_move=42)
    with pytest.raises(ValueError, match="not a move"):
        board_svg(state, last_move="8/x")


@pytest.mark.parametrize("seed", range(4))
def test_coinrows_shows_every_coin(seed: int) -> None:
    for state, text in played("coinrows", seed):
        seen = classes(board_svg(state, last_move=text))
        for seat in (0, 1):
            assert seen[f"coin s{seat}"] == state.on_board(seat)
        moved = state.last_roll is not None and "-" in text and text[0].isalpha()
        if moved:
            assert seen["last"] == len(text.split())


def test_coinrows_orientation_flips_rows_and_columns() -> None:
    state = load_game("coinrows").new_initial_state()
    for orientation, home_y in ((0, 430.0), (1, 70.0)):
        root = ET.fromstring(board_svg(state, orientation=orientation))
        ys = {float(c.get("cy")) for c in root.iter(f"{NS}circle") if c.get("class") == "coin s0"}
        assert ys == {home_y}


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (1, 2), (2, 3), (3, 4)])
def test_whitedie_shows_scores_and_dice(seed: int, players: int) -> None:
    for state, text in played("whitedie", seed, players=players):
        seen = classes(board_svg(state, last_move=text))
        assert sum(seen[f"score s{s}"] for s in range(players)) == players
        coloured = len(state.dice) + (len(state.opponent_dice) if state.opponent is not None else 0)
        grid_dice = sum(1 for v in state.grid if v and abs(v) != 7)
        assert sum(seen[f"die s{s}"] for s in range(players)) == coloured + grid_dice
        assert seen["die white"] == (1 if state.white else 0)
        assert seen["square"] == (9 if state.grid else 0)


def test_size_orientation_and_errors() -> None:
    state = load_game("coinrows").new_initial_state()
    root = ET.fromstring(board_svg(state, size=300))
    assert root.get("width") == "300" and root.get("viewBox", "").startswith("0 0 ")
    with pytest.raises(ValueError, match="size"):
        board_svg(state, size=5)
    with pytest.raises(ValueError, match="orientation"):
        board_svg(state, orientation=2)


def test_repr_svg_shows_the_board_in_jupyter() -> None:
    state = load_game("whitedie").new_initial_state()
    assert state._repr_svg_() == board_svg(state)
    plain = type("PlainCoinRows", (type(load_game("coinrows")),), {"name": "nosvg"})
    register_game(GameEntry("nosvg", rules=plain))
    try:
        bare = dataclasses.replace(
            load_game("coinrows").new_initial_state(), game=load_game("nosvg")
        )
        with pytest.raises(GameDeclarationError, match="no SVG board"):
            board_svg(bare)
        assert bare._repr_svg_() is None
    finally:
        refresh_games()
