"""Boards as SVG, drawn in pure Python: ``board_svg(state)`` for any game that declares one.

Like python-chess's ``chess.svg.board``: a pure function from a state to a string, for
record thumbnails, docs and tests; ``State._repr_svg_`` uses it, so a state shows as a
board in Jupyter. Each game declares its drawing in its entry (``GameEntry.svg``).

>>> from dicehall import load_game
>>> svg = board_svg(load_game("coinrows").new_initial_state(), size=200)
>>> svg.startswith("<svg") and 'width="200"' in svg
True
"""

from __future__ import annotations

from typing import Any, Protocol

from dicehall.core.errors import GameDeclarationError
from dicehall.core.game import State
from dicehall.core.registry import game_entry


class BoardDrawing(Protocol):
    """What a game declares as its ``svg`` part."""

    def __call__(
        self,
        state: Any,
        *,
        orientation: int | None = None,
        last_move: Any = None,
        size: int | None = None,
    ) -> str:
        """The board of ``state`` as a standalone SVG document."""
        ...


def board_svg(
    state: State,
    *,
    orientation: int | None = None,
    last_move: Any = None,
    size: int | None = None,
) -> str:
    """The board of ``state`` as a standalone SVG document.

    ``orientation`` is the seat drawn at the bottom (default: the seat to act, as the text
    board does); ``last_move`` is the action (or its text) that led to ``state``, which is
    highlighted; ``size`` is the width in pixels (default: the drawing's own units).

    :raises GameDeclarationError: if the game declares no SVG board.
    :raises ValueError: for an orientation that is not a seat, a size out of 16..10000, or
        a ``last_move`` that is not an action of this game.
    """
    draw = game_entry(state.game.name).load("svg")
    if draw is None:
        raise GameDeclarationError(f"{state.game.name} declares no SVG board (GameEntry.svg)")
    if orientation is not None and orientation not in range(state.game.num_players):
        raise ValueError(
            f"orientation is a seat 0..{state.game.num_players - 1}, not {orientation!r}"
        )
    result: str = draw(state, orientation=orientation, last_move=last_move, size=size)
    return result


__all__ = ["BoardDrawing", "board_svg"]
