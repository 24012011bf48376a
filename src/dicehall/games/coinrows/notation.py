"""Coin Rows action text: reading what a person types.

Canonical texts are ``roll``, ``leave``, dice ``3-4`` (low die first), captures
``capture 4`` (``capture 4 b-d`` under the ``adjacent`` rule) and moves from
square to square, ``c1-c6`` or ``c1-c3 e1-e5`` (sorted by column). The parser
is tolerant: case, spaces and separators do not matter (``C1 C6``, ``c1c6``,
``c1-6``, ``c1 to c6``, ``c1-c3, e1-e5``), one coin's steps may be chained
(``c1-c3 c3-c6``), dice may come in either order (``4-3``, ``43``), and a
capture can be written ``4``, ``cap 4``, ``capture row 4`` or ``capture b4-d4``.

>>> from dicehall import load_game
>>> s = load_game("coinrows").new_initial_state()
>>> s.parse_action("Roll") is s.legal_actions()[0]
True
>>> s = s.apply_text("roll").apply_text("4 2")
>>> s.action_to_text(s.parse_action("E1 to E7"))
'e1-e7'
>>> s.action_to_text(s.parse_action("f1-5, c1-3"))
'c1-c3 f1-f5'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from dicehall.core.errors import GameOverError
from dicehall.games.coinrows.board import (
    COLUMNS,
    HOME_ROWS,
    LEAVE,
    MARKS,
    ROLL,
    Capture,
    Move,
    Phase,
    Roll,
    coins_in_row,
    move_candidates,
    row_runs,
    square_name,
)

if TYPE_CHECKING:
    from dicehall.games.coinrows.board import Action, Step
    from dicehall.games.coinrows.rules import CoinRowsState

_ROLL_WORDS = {"roll", "r", "roll dice", "roll the dice", "dice", "throw", "go"}
_LEAVE_WORDS = {"leave", "leave game", "leave the game", "stop playing"}
_CAPTURE_WORD = r"(?:capture|capt?|take|x)?"
_CAPTURE_ROW = re.compile(
    rf"^{_CAPTURE_WORD}\s*(?:row\s*)?([1-7])(?:\s*(?:columns?|cols?)?\s*([a-g])\s*-?\s*([a-g]))?$"
)
_CAPTURE_SQUARES = re.compile(rf"^{_CAPTURE_WORD}\s*([a-g])([1-7])\s*-?\s*([a-g])([1-7])$")
_STEP = re.compile(r"([a-g])\s*([1-7])\s*[-/:>]?\s*([a-g])?\s*([1-7])")
_BAD_SQUARE = re.compile(r"(?<![a-z])(?:[h-z][0-9]|[a-g][089])")
_SEPARATORS = re.compile(r"^[\s,;&+]*$|^[\s,;&+]*(?:and[\s,;&+]*)+$")


def _normalise(text: str) -> str:
    t = text.strip().lower()
    for dash in ("\u2013", "\u2014", "\u2212", "->", "\u2192"):
        t = t.replace(dash, "-")
    t = re.sub(r"\s+to\s+", "-", t)
    return re.sub(r"\s+", " ", t)


def parse_action(state: CoinRowsState, text: str) -> Action:
    """The legal action ``text`` means in ``state``; errors say why not and list the legal
    actions.

    :raises ActionSyntaxError: if ``text`` is no dice, phase word, capture or move.
    :raises AmbiguousActionError: if it names several captures (with their texts).
    :raises GameOverError: if the game has ended.
    :raises IllegalActionError: if it is well formed but not legal here.
    """
    if state.phase is Phase.OVER:
        raise GameOverError(text)
    t = _normalise(text)
    if state.phase is Phase.DICE:
        return _parse_roll(state, text, t)
    if state.phase is Phase.A:
        return _parse_phase_a(state, text, t)
    return _parse_move(state, text, t)


def _parse_roll(state: CoinRowsState, raw: str, t: str) -> Roll:
    digits = re.findall(r"\d", t)
    if len(digits) != 2 or re.sub(r"[\d\s,\-/]", "", t):
        raise state.syntax_error(raw, "the dice are being rolled: write the two dice, like 3-4")
    a, b = int(digits[0]), int(digits[1])
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise state.syntax_error(raw, "each die shows 1 to 6")
    return Roll.of(a, b)


def _parse_phase_a(state: CoinRowsState, raw: str, t: str) -> Action:
    player = f"seat {state.turn + 1}"
    if t in _ROLL_WORDS:
        return ROLL
    if t in _LEAVE_WORDS:
        if not state.game.options["leaving"]:
            raise state.illegal(raw, "leaving is not allowed in this game (leaving=false)")
        return LEAVE
    if t in ("capture", "cap", "take", "x"):
        options = state.captures()
        if len(options) == 1:
            return options[0]
        if not options:
            raise state.illegal(raw, "no row can be captured now")
        which = " or ".join(state.action_to_text(c) for c in options)
        raise state.ambiguous(raw, "which row? write e.g. " + which, options)
    m = _CAPTURE_ROW.match(t)
    if m:
        span = (COLUMNS.index(m.group(2)), COLUMNS.index(m.group(3))) if m.group(2) else None
        return _resolve_capture(state, raw, int(m.group(1)) - 1, span)
    m = _CAPTURE_SQUARES.match(t)
    if m and m.group(2) == m.group(4):
        span = (COLUMNS.index(m.group(1)), COLUMNS.index(m.group(3)))
        return _resolve_capture(state, raw, int(m.group(2)) - 1, span)
    if _STEP.search(t):
        raise state.illegal(raw, f"{player} must roll first: coins move after a roll (Phase B)")
    if re.fullmatch(r"[1-6]\s*[-,]?\s*[1-6]", t):
        raise state.illegal(raw, "write roll: the dice are rolled for you")
    raise state.syntax_error(raw, "in Phase A write roll, capture N (a row 2-6) or leave")


def _resolve_capture(
    state: CoinRowsState, raw: str, row: int, span: tuple[int, int] | None
) -> Capture:
    n = row + 1
    if row in HOME_ROWS:
        raise state.illegal(raw, f"row {n} is a home row; only rows 2 to 6 can be captured")
    columns = coins_in_row(state.board, row)
    if len(columns) < 2:
        have = f"{len(columns)} coin" + ("s" if len(columns) != 1 else "")
        raise state.illegal(raw, f"row {n} holds {have}; a capture needs at least 2")
    options = [c for c in state.captures() if c.row == row]
    if state.capture_rule == "row":
        assert len(options) == 1
        if span is None or (min(span) <= columns[0] and max(span) >= columns[-1]):
            return options[0]
        raise state.illegal(raw, f"a capture takes the whole row: write capture {n}")
    if not options:
        raise state.illegal(
            raw, f"no two coins of row {n} stand in neighbouring columns (capture=adjacent)"
        )
    runs = ", ".join(f"{COLUMNS[r[0]]}-{COLUMNS[r[-1]]}" for r in row_runs(columns) if len(r) > 1)
    if span is None:
        if len(options) == 1:
            return options[0]
        raise state.ambiguous(
            raw,
            f"row {n} has several runs ({runs}): say which, e.g. "
            f"{state.action_to_text(options[0])}",
            options,
        )
    lo, hi = min(span), max(span)
    for option in options:
        if option.columns[0] == lo and option.columns[-1] == hi:
            return option
    raise state.illegal(
        raw, f"{COLUMNS[lo]}-{COLUMNS[hi]} is not a whole run of coins in row {n} (runs: {runs})"
    )


def _parse_move(state: CoinRowsState, raw: str, t: str) -> Move:
    roll = state.last_roll
    assert roll is not None
    if t in _ROLL_WORDS:
        raise state.illegal(raw, f"the dice show {roll}: move them now")
    if t in ("", "pass", "none", "-"):
        raise state.illegal(raw, f"you have coins to move and must move the roll {roll}")
    found = list(_STEP.finditer(t))
    if _BAD_SQUARE.search(t):
        raise state.syntax_error(raw, "squares are a1 to g7: columns a-g, rows 1-7")
    if not found or not _SEPARATORS.match(_STEP.sub(" ", t)):
        raise state.syntax_error(
            raw, "write a move from square to square, like c1-c6 or c1-c3 e1-e5"
        )
    steps: list[Step] = []
    for m in found:
        column, frm = COLUMNS.index(m.group(1)), int(m.group(2)) - 1
        to_column = COLUMNS.index(m.group(3)) if m.group(3) else column
        to = int(m.group(4)) - 1
        if to_column != column:
            raise state.illegal(
                raw,
                f"coins move straight along their column: {square_name(column, frm)} cannot "
                f"reach {square_name(to_column, to)}",
            )
        if to == frm:
            raise state.illegal(raw, f"{square_name(column, frm)} to itself is no move")
        steps.append((column, frm, to))
    steps = _chain(state, raw, steps)
    for column, frm, _ in steps:
        coin = state.board[column]
        where = square_name(column, frm)
        if coin is None or coin.row != frm:
            raise state.illegal(raw, f"there is no coin on {where}")
        if coin.owner != state.turn:
            raise state.illegal(
                raw,
                f"the coin on {where} belongs to seat {coin.owner + 1} "
                f"({MARKS[coin.owner]}); you move only your own coins",
            )
    if len(steps) > 2:
        raise state.illegal(raw, "a roll moves one coin or two different coins, not more")
    move = Move(tuple(sorted(steps)))
    legal = state.legal_actions()
    if move in legal:
        return move
    candidates = move_candidates(state.board, state.turn, roll)
    if move in candidates:
        best = max(candidates.values())
        example = state.action_to_text(legal[0])
        if best == roll.total:
            reason = f"a play moving the full {roll.total} exists, so you must make one"
        else:
            reason = (
                f"no play moves the full {roll.total}; you must move as far as "
                f"possible, {best} squares"
            )
        raise state.illegal(raw, f"{reason} (e.g. {example}); this moves {move.pips}")
    raise state.illegal(
        raw,
        f"with {roll} move one coin {roll.total} squares, or two different coins "
        f"{roll.low} and {roll.high}; a coin stops at the edge and never turns back",
    )


def _chain(state: CoinRowsState, raw: str, steps: list[Step]) -> list[Step]:
    """Join steps of one coin written one after the other (``c1-c3 c3-c6``)."""
    out: list[Step] = []
    for column, frm, to in steps:
        previous = next((s for s in out if s[0] == column), None)
        if previous is None:
            out.append((column, frm, to))
            continue
        _, p_from, p_to = previous
        same_way = (p_to - p_from) * (to - frm) > 0
        if p_to != frm or not same_way:
            raise state.illegal(
                raw,
                f"column {COLUMNS[column]} appears twice: a coin moves once, straight on "
                "(a single coin takes the whole roll; two coins take one die each)",
            )
        out[out.index(previous)] = (column, p_from, to)
    return out
