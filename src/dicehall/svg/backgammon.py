"""The backgammon board as SVG: points, checkers, bar, borne-off trays, dice, last play.

The seat at the bottom (``orientation``, default the player on roll, as the text board)
has his home board bottom right; points are numbered from his side.

>>> from dicehall import load_game
>>> state = load_game("backgammon").new_initial_state().apply_text("3-1")
>>> svg = board_svg(state.apply_text("8/5 6/5"), last_move="8/5 6/5")
>>> svg.count('class="checker s0"'), svg.count('class="checker s1"'), svg.count('class="last"')
(15, 15, 4)
"""

from __future__ import annotations

import re
from typing import Any

from dicehall.games.backgammon.rules import BAR, OFF, BackgammonState, Play, Step
from dicehall.svg._draw import (
    HIGHLIGHT,
    SEAT_FILL,
    SEAT_STROKE,
    circle,
    die,
    document,
    polygon,
    rect,
    text,
)

W = 40.0  # a point's width
R = 17.0  # a checker's radius
X0, Y0 = 20.0, 20.0  # the board's top-left corner
BAR_W = 40.0
HALF_H = 200.0  # each half of the board, top and bottom
TRI_H = 170.0
TRAY_X = X0 + 12 * W + BAR_W + 5
WIDTH, HEIGHT = TRAY_X + 55, Y0 + 2 * HALF_H + 20
SHOWN = 5  # checkers drawn on a point before the rest become a number


def _column(point: int) -> tuple[float, bool]:
    """The x of a point's centre and whether it is in the top row (bottom seat's numbers)."""
    top = point >= 13
    col = point - 13 if top else 12 - point  # 0..11 from the left
    x = X0 + col * W + W / 2 + (BAR_W if col >= 6 else 0)
    return x, top


def _stack(x: float, top: bool, count: int, seat: int, base: float | None = None) -> list[str]:
    """``count`` checkers of ``seat`` stacked from the edge (or from ``base``) inwards."""
    out = []
    start = base if base is not None else (Y0 if top else Y0 + 2 * HALF_H)
    for i in range(min(count, SHOWN)):
        cy = start + R + 2 * R * i if top else start - R - 2 * R * i
        style = {"fill": SEAT_FILL[seat], "stroke": SEAT_STROKE[seat], "class_": f"checker s{seat}"}
        out.append(circle(x, cy, R - 0.5, stroke_width=1.5, **style))
        if i == SHOWN - 1 and count > SHOWN:
            out.append(text(x, cy + 4, str(count), 12, fill=SEAT_STROKE[1 - seat]))
    return out


def _frame() -> list[str]:
    """The board, the bar, the trays, the 24 points and their numbers."""
    out = [
        rect(0, 0, WIDTH, HEIGHT, fill="#5b3a1e"),
        rect(X0, Y0, 12 * W + BAR_W, 2 * HALF_H, fill="#2e5e3e"),
    ]
    out.append(rect(X0 + 6 * W, Y0, BAR_W, 2 * HALF_H, fill="#4a2e17"))
    out.append(rect(TRAY_X, Y0, 40, 2 * HALF_H, fill="#3d2612"))
    for point in range(1, 25):
        x, top = _column(point)
        edge, tip = (Y0, Y0 + TRI_H) if top else (Y0 + 2 * HALF_H, Y0 + 2 * HALF_H - TRI_H)
        fill = "#c9a66b" if point % 2 else "#7a4a2a"
        out.append(polygon([(x - W / 2, edge), (x + W / 2, edge), (x, tip)], fill=fill))
        out.append(text(x, Y0 - 6 if top else HEIGHT - 6, str(point), 10, fill="#f3e6cc"))
    return out


def _pieces(state: BackgammonState, bottom: int) -> list[str]:
    """Checkers on the points, on the bar and borne off, for both seats."""
    mine, theirs = state.side(bottom), state.side(1 - bottom)
    out: list[str] = []
    for point in range(1, 25):
        x, top = _column(point)
        if mine[point]:
            out += _stack(x, top, mine[point], bottom)
        if theirs[25 - point]:
            out += _stack(x, top, theirs[25 - point], 1 - bottom)
    bar_x = X0 + 6 * W + BAR_W / 2
    out += _stack(bar_x, True, theirs[BAR], 1 - bottom, base=Y0 + HALF_H - 5 * 2 * R - 10)
    out += _stack(bar_x, False, mine[BAR], bottom, base=Y0 + HALF_H + 5 * 2 * R + 10)
    for seat, side, top in ((bottom, mine, False), (1 - bottom, theirs, True)):
        for i in range(side[OFF]):
            y = Y0 + 4 + 9 * i if top else Y0 + 2 * HALF_H - 12 - 9 * i
            out.append(
                rect(
                    TRAY_X + 4,
                    y,
                    32,
                    8,
                    rx=2.0,
                    fill=SEAT_FILL[seat],
                    stroke=SEAT_STROKE[seat],
                    class_=f"off s{seat}",
                )
            )
    return out


def _dice(state: BackgammonState, bottom: int) -> list[str]:
    """The dice to play, in the right half for the bottom seat and the left for the top."""
    if state.dice is None or state.winner is not None:
        return []
    left = X0 + (6 * W + BAR_W + 3 * W if state.turn == bottom else 3 * W) - 40
    y = Y0 + HALF_H - 17
    return [die(left + i * 44, y, 34, face, class_="die") for i, face in enumerate(state.dice)]


def _steps(last_move: Any) -> list[Step]:
    """The (from, to) steps of a play given as a ``Play`` or as move text (``8/5(2)``...);
    none for a roll (``5-2``) or ``pass``."""
    if last_move is None:
        return []
    if isinstance(last_move, Play):
        return list(last_move.steps)
    if not isinstance(last_move, str):
        raise ValueError(f"last_move is a backgammon play or its text, not {last_move!r}")
    if re.fullmatch(r"\s*([1-6]-[1-6]|pass)\s*", last_move.lower()):
        return []  # a roll of the dice, or no play: nothing moved
    steps: list[Step] = []
    for token in last_move.lower().split():
        points = [
            25 if p == "bar" else 0 if p == "off" else int(p)
            for p in re.findall(r"bar|off|\d+", token.split("(")[0])
        ]
        if len(points) < 2 or any(not 0 <= p <= 25 for p in points):
            raise ValueError(f"{token!r} in last_move is not a move like 24/18 or bar/22*")
        steps.append((points[0], points[-1]))
    return steps


def _highlights(state: BackgammonState, bottom: int, last_move: Any) -> list[str]:
    """A frame around every point (bar, tray) the last play left or reached."""
    mover = state.winner if state.winner is not None else 1 - state.turn
    out = []
    for src, dst in _steps(last_move):
        for p in (src, dst):
            ours = p if mover == bottom else 25 - p  # in the bottom seat's numbering
            if p in (BAR, OFF):  # the mover's half of the bar or of the tray
                x = X0 + 6 * W if p == BAR else TRAY_X
                y = Y0 + HALF_H if mover == bottom else Y0
                out.append(
                    rect(
                        x,
                        y,
                        40,
                        HALF_H,
                        fill="none",
                        stroke=HIGHLIGHT,
                        stroke_width=3,
                        class_="last",
                    )
                )
                continue
            x, top = _column(ours)
            y = Y0 if top else Y0 + 2 * HALF_H - TRI_H
            out.append(
                rect(x - W / 2, y, W, TRI_H, fill=HIGHLIGHT, fill_opacity=0.3, class_="last")
            )
    return out


def board_svg(
    state: BackgammonState,
    *,
    orientation: int | None = None,
    last_move: Any = None,
    size: int | None = None,
) -> str:
    """The position as SVG, ``orientation`` (default: the player on roll) at the bottom."""
    bottom = state.turn if orientation is None else orientation
    body = _frame() + _highlights(state, bottom, last_move) + _pieces(state, bottom)
    body += _dice(state, bottom)
    title = f"Backgammon, seat {bottom + 1} at the bottom; Position ID {state.position_id()}"
    return document(WIDTH, HEIGHT, body, size, title)
