"""The Coin Rows board as SVG: the 7x7 grid, the coins, purses, the roll and the last play.

The seat at the bottom (``orientation``, default the seat to act, seat 0 once the game is
over, as the text board) has his home row at the bottom and his left-hand column left.

>>> from dicehall import load_game
>>> state = load_game("coinrows").new_initial_state().apply_text("roll").apply_text("2-3")
>>> svg = board_svg(state.apply_text("c1-c6"), last_move="c1-c6")
>>> svg.count('class="coin s0"'), svg.count('class="coin s1"'), svg.count('class="last"')
(5, 2, 1)
"""

from __future__ import annotations

from typing import Any

from dicehall.games.coinrows.render import phase_line, seat_label
from dicehall.games.coinrows.rules import COLUMNS, HOME_ROWS, SIZE, Capture, CoinRowsState, Move
from dicehall.svg._draw import (
    HIGHLIGHT,
    SEAT_FILL,
    SEAT_STROKE,
    circle,
    die,
    document,
    line,
    rect,
    text,
)

CELL = 60.0
X0, Y0 = 30.0, 40.0
PANEL_X = X0 + SIZE * CELL + 20
WIDTH, HEIGHT = PANEL_X + 170, Y0 + SIZE * CELL + 40


def _centre(column: int, row: int, bottom: int) -> tuple[float, float]:
    """The centre of a square, seen with ``bottom`` seat's home row at the bottom."""
    col = column if bottom == 0 else SIZE - 1 - column
    shown_row = SIZE - 1 - row if bottom == 0 else row
    return X0 + col * CELL + CELL / 2, Y0 + shown_row * CELL + CELL / 2


def _grid(bottom: int) -> list[str]:
    """The squares (home rows tinted) with column letters and row numbers."""
    out = [rect(0, 0, WIDTH, HEIGHT, fill="#f4efe4")]
    for column in range(SIZE):
        for row in range(SIZE):
            x, y = _centre(column, row, bottom)
            fill = "#e2d3b4" if row in HOME_ROWS else "#fbf8f1"
            out.append(rect(x - CELL / 2, y - CELL / 2, CELL, CELL, fill=fill, stroke="#9c8b6e"))
        x, _ = _centre(column, 0, bottom)
        out.append(text(x, Y0 + SIZE * CELL + 18, COLUMNS[column], 13, fill="#5a5040"))
    for row in range(SIZE):
        _, y = _centre(0, row, bottom)
        out.append(text(X0 - 14, y + 5, str(row + 1), 13, fill="#5a5040"))
    return out


def _coins(state: CoinRowsState, bottom: int) -> list[str]:
    out = []
    for column, coin in enumerate(state.board):
        if coin is None:
            continue
        x, y = _centre(column, coin.row, bottom)
        out.append(
            circle(
                x,
                y,
                CELL * 0.36,
                fill=SEAT_FILL[coin.owner],
                stroke=SEAT_STROKE[coin.owner],
                stroke_width=2,
                class_=f"coin s{coin.owner}",
            )
        )
    return out


def _panel(state: CoinRowsState, bottom: int) -> list[str]:
    """Purses and totals of both seats (the bottom seat last), the roll and the phase."""
    out = []
    for i, seat in enumerate((1 - bottom, bottom)):
        y = Y0 + 20 + i * (SIZE * CELL - 60)
        on = state.on_board(seat)
        out.append(circle(PANEL_X + 12, y - 4, 9, fill=SEAT_FILL[seat], stroke=SEAT_STROKE[seat]))
        out.append(text(PANEL_X + 28, y, seat_label(seat), 13, text_anchor="start"))
        out.append(
            text(
                PANEL_X + 28,
                y + 18,
                f"purse {state.purses[seat]} + {on} = {state.purses[seat] + on}",
                12,
                text_anchor="start",
            )
        )
    roll = state.last_roll
    if roll is not None:
        mid = Y0 + SIZE * CELL / 2 - 20
        out += [
            die(PANEL_X + 10 + i * 50, mid, 40, face, class_="die")
            for i, face in enumerate((roll.low, roll.high))
        ]
    out.append(text(WIDTH / 2, 22, phase_line(state), 13, fill="#333"))
    return out


def _highlights(state: CoinRowsState, bottom: int, last_move: Any) -> list[str]:
    """An arrow for each coin the last play moved, or a frame around a captured run."""
    if last_move is None:
        return []
    if isinstance(last_move, str):  # its canonical text: parsed by its form alone
        last_move = _parse(last_move)
    out = []
    if isinstance(last_move, Move):
        for column, frm, to in last_move.steps:
            (x1, y1), (x2, y2) = _centre(column, frm, bottom), _centre(column, to, bottom)
            out.append(
                line(
                    x1,
                    y1,
                    x2,
                    y2,
                    stroke=HIGHLIGHT,
                    stroke_width=8,
                    stroke_linecap="round",
                    stroke_opacity=0.8,
                    class_="last",
                )
            )
    elif isinstance(last_move, Capture):
        for column in last_move.columns:
            x, y = _centre(column, last_move.row, bottom)
            out.append(
                rect(
                    x - CELL / 2 + 3,
                    y - CELL / 2 + 3,
                    CELL - 6,
                    CELL - 6,
                    fill="none",
                    stroke=HIGHLIGHT,
                    stroke_width=4,
                    class_="last",
                )
            )
    return out


def _parse(text: str) -> Move | Capture | None:
    """A move (``c1-c6 e1-e3``) or capture (``capture 4`` the whole row, ``capture 4 b-d``)
    from its text; None for words (roll, leave) and dice."""
    words = text.strip().lower().split()
    if not words or words[0] in ("roll", "leave") or ("-" in words[0] and words[0][0].isdigit()):
        return None
    if words[0] == "capture" and len(words) >= 2 and words[1].isdigit():
        row = int(words[1]) - 1
        if len(words) == 3 and len(words[2]) == 3:
            lo, hi = COLUMNS.index(words[2][0]), COLUMNS.index(words[2][2])
            return Capture(row, tuple(range(lo, hi + 1)))
        return Capture(row, tuple(range(SIZE)))
    steps = []
    for word in words:
        a, _, b = word.partition("-")
        if len(a) != 2 or len(b) != 2 or a[0] not in COLUMNS or not (a[1] + b[1]).isdigit():
            raise ValueError(f"{text!r} is no Coin Rows play (like c1-c6 or capture 4)")
        steps.append((COLUMNS.index(a[0]), int(a[1]) - 1, int(b[1]) - 1))
    return Move(tuple(sorted(steps)))


def board_svg(
    state: CoinRowsState,
    *,
    orientation: int | None = None,
    last_move: Any = None,
    size: int | None = None,
) -> str:
    """The position as SVG, ``orientation`` (default: the seat to act) at the bottom."""
    bottom = orientation if orientation is not None else (0 if state.is_terminal() else state.turn)
    body = _grid(bottom) + _highlights(state, bottom, last_move) + _coins(state, bottom)
    body += _panel(state, bottom)
    return document(WIDTH, HEIGHT, body, size, f"Coin Rows, seat {bottom + 1} at the bottom")
