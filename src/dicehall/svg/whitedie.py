"""The White Die table as SVG: the race to the target, the white die and its challenge,
the coloured dice of the player (and of his opponent) and the tic-tac-toe grid.

``orientation`` is the seat drawn first and marked as "you" (default: the seat to act).

>>> from dicehall import load_game
>>> state = load_game("whitedie").setup([3, 5], 0, white=3, opponent=1, dice=[2, 4, 4, 1],
...                                      opponent_dice=[6, 5, 5, 1])
>>> svg = board_svg(state.apply_text("place 4 b1"), last_move="place 4 b1")
>>> svg.count('class="die'), svg.count('class="square'), svg.count('class="last"')
(10, 9, 1)
"""

from __future__ import annotations

from typing import Any

from dicehall.games.whitedie.challenges import CHALLENGES, CLAIMED, SQUARES
from dicehall.games.whitedie.rules import Place, WhiteDieState
from dicehall.svg._draw import HIGHLIGHT, SEAT_FILL, SEAT_STROKE, die, document, rect, text

WIDTH = 520.0
ROW = 28.0  # one seat's line in the score table
DIE = 44.0


def _scores(state: WhiteDieState, first: int) -> tuple[list[str], float]:
    """One bar per seat towards the target, ``first`` on top; returns the height used."""
    n = len(state.scores)
    order = [first] + [s for s in range(n) if s != first]
    target = state.game.target
    out = []
    for i, seat in enumerate(order):
        y = 12 + i * ROW
        score = state.scores[seat]
        mark = " (you)" if seat == first else ""
        turn = " *" if seat == state.turn and not state.is_terminal() else ""
        out.append(text(12, y + 17, f"seat {seat + 1}{mark}{turn}", 13, text_anchor="start"))
        out.append(rect(130, y + 5, 300, 16, fill="#e8e2d6", rx=3.0))
        share = min(score, target) / target
        out.append(
            rect(
                130,
                y + 5,
                300 * share,
                16,
                fill=SEAT_FILL[seat % 6],
                stroke=SEAT_STROKE[seat % 6],
                rx=3.0,
                class_=f"score s{seat}",
            )
        )
        out.append(text(460, y + 18, f"{score}/{target}", 13))
    return out, 12 + n * ROW + 10


def _dice_row(y: float, label: str, faces: tuple[int, ...], seat: int) -> list[str]:
    out = [text(12, y + DIE / 2 + 5, label, 13, text_anchor="start")]
    for i, face in enumerate(faces):
        out.append(
            die(
                130 + i * (DIE + 10),
                y,
                DIE,
                face,
                fill=SEAT_FILL[seat % 6],
                pips=SEAT_STROKE[seat % 6],
                class_=f"die s{seat}",
            )
        )
    return out


def _challenge(state: WhiteDieState, top: float) -> tuple[list[str], float]:
    """The white die with its challenge's name, then the coloured dice on the table."""
    out: list[str] = []
    y = top
    if state.white:
        out.append(die(12, y, DIE, state.white, class_="die white"))
        name = CHALLENGES.get(state.white, "no challenge: the turn is lost")
        out.append(
            text(70, y + DIE / 2 + 5, f"{name} (phase {state.phase})", 14, text_anchor="start")
        )
        y += DIE + 14
    if state.dice:
        out += _dice_row(y, f"seat {state.turn + 1}", state.dice, state.turn)
        y += DIE + 10
    if state.opponent is not None and state.opponent_dice:
        out += _dice_row(y, f"seat {state.opponent + 1}", state.opponent_dice, state.opponent)
        y += DIE + 10
    return out, y


def _grid(state: WhiteDieState, top: float, last_move: Any) -> tuple[list[str], float]:
    """The tic-tac-toe grid (squares a1..c3, rows top to bottom) if one is being played."""
    if not state.grid:
        return [], top
    placed = _placed_square(last_move)
    out = []
    cell = 56.0
    for index, value in enumerate(state.grid):
        x, y = 130 + (index % 3) * cell, top + (index // 3) * cell
        owner = state.turn if value > 0 else state.opponent
        last = ' class="last"' if index == placed else ""
        out.append(rect(x, y, cell, cell, fill="#fbf8f1", stroke="#9c8b6e", class_="square"))
        if index == placed:
            out.append(
                f"<g{last}>"
                + rect(
                    x + 2, y + 2, cell - 4, cell - 4, fill="none", stroke=HIGHLIGHT, stroke_width=4
                )
                + "</g>"
            )
        if value and owner is not None:
            if abs(value) == CLAIMED:
                out.append(
                    rect(
                        x + 8,
                        y + 8,
                        cell - 16,
                        cell - 16,
                        fill=SEAT_FILL[owner % 6],
                        stroke=SEAT_STROKE[owner % 6],
                        class_="claimed",
                    )
                )
            else:
                out.append(
                    die(
                        x + 8,
                        y + 8,
                        cell - 16,
                        abs(value),
                        fill=SEAT_FILL[owner % 6],
                        pips=SEAT_STROKE[owner % 6],
                        class_=f"die s{owner}",
                    )
                )
        out.append(text(x + 9, y + 14, SQUARES[index], 9, fill="#9c8b6e"))
    return out, top + 3 * cell + 10


def _placed_square(last_move: Any) -> int | None:
    """The square a ``Place`` (or its text, ``place 4 b1``) filled; None for other actions."""
    if isinstance(last_move, Place):
        return last_move.square
    if isinstance(last_move, str) and last_move.strip().lower().startswith("place"):
        name = last_move.split()[-1].lower()
        if name not in SQUARES:
            raise ValueError(f"{last_move!r}: squares are a1 to c3")
        return SQUARES.index(name)
    return None


def board_svg(
    state: WhiteDieState,
    *,
    orientation: int | None = None,
    last_move: Any = None,
    size: int | None = None,
) -> str:
    """The table as SVG, ``orientation`` (default: the seat to act) first."""
    first = orientation if orientation is not None else state.turn
    body = [rect(0, 0, WIDTH, 1, fill="none")]
    scores, y = _scores(state, first)
    challenge, y = _challenge(state, y)
    grid, y = _grid(state, y, last_move)
    if state.is_terminal() and state.winner is not None:
        grid.append(text(WIDTH / 2, y + 18, f"seat {state.winner + 1} wins", 16))
        y += 30
    height = y + 10
    body[0] = rect(0, 0, WIDTH, height, fill="#f4efe4")
    return document(WIDTH, height, body + scores + challenge + grid, size, "White Die")
