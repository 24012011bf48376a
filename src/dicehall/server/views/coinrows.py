"""Coin Rows for the browser: the board as JSON and the legal plays for click-to-move.

Columns and rows are 0-based numbers in the rules' own naming (column 0 is ``a``, row 0 is
row 1, seat 0's home row); the board module turns the grid for seat 1.

>>> from dicehall import load_game
>>> s = load_game("coinrows").new_initial_state()
>>> v = state_view(s)
>>> v["phase"], v["turn"], v["board"][:3], v["purses"], v["scores"]
('A', 0, [[6, 1], [6, 1], [0, 0]], [15, 18], [20, 20])
>>> legal_view(s)["buttons"]
[{'button': 'roll', 'text': 'roll'}, {'button': 'leave', 'text': 'leave'}]
>>> s = s.apply_text("roll").apply_text("2-3")
>>> m = legal_view(s)["moves"]
>>> m[0]
{'text': 'c1-c3 d1-d4', 'steps': [[2, 0, 2], [3, 0, 3]]}
"""

from __future__ import annotations

from typing import Any

from dicehall.core.game import State
from dicehall.games.coinrows.render import phase_line, result_text, seat_label
from dicehall.games.coinrows.rules import (
    HOME_ROWS,
    MARKS,
    Capture,
    CoinRowsState,
    Decision,
    Move,
    Phase,
    Roll,
)
from dicehall.server.views import FunctionsView


def _cr(state: State) -> CoinRowsState:
    assert isinstance(state, CoinRowsState)
    return state


def _roll(roll: Roll | None) -> list[int] | None:
    return [roll.low, roll.high] if roll is not None else None


def _capture(state: CoinRowsState, capture: Capture) -> dict[str, Any]:
    return {
        "row": capture.row,
        "columns": list(capture.columns),
        "text": state.action_to_text(capture),
    }


def state_view(state: State) -> dict[str, Any]:
    """Everything the board draws: coins, purses, totals, phase, the roll, refills, the end.

    ``board`` has one entry per column ``a..g``: ``[row, owner]`` or null. ``phase`` is the
    rules' phase (``"A"``: capture, roll or leave; ``"dice"``; ``"B"``: move the roll;
    ``"over"``). ``dice`` is the roll to move (Phase B) and ``last_roll`` the latest roll.
    ``refilled`` lists the columns the player on turn paid into (Phase C) at the start of his
    turn; ``captures`` the captures open to him now (Phase A).
    """
    s = _cr(state)
    totals = s.totals()
    over = s.phase is Phase.OVER
    winner = s.winner()
    return {
        "phase": s.phase.value,
        "turn": s.turn,
        "turn_number": s.turn_number,
        "turn_limit": int(s.game.options["turn_limit"]),
        "board": [None if coin is None else [coin.row, coin.owner] for coin in s.board],
        "purses": list(s.purses),
        "on_board": [s.on_board(0), s.on_board(1)],
        "scores": list(totals),
        "home_rows": list(HOME_ROWS),
        "marks": list(MARKS),
        "dice": _roll(s.last_roll) if s.phase is Phase.B else None,
        "last_roll": _roll(s.last_roll),
        # whether that roll ended the turn at once (7, 11 or 12): the browser knows no rules
        "roll_ends_turn": s.last_roll is not None and s.last_roll.ends_turn,
        "refilled": list(s.refilled),
        "captures": [_capture(s, c) for c in s.captures()],
        "capture_rule": s.capture_rule,
        "leaving": bool(s.game.options["leaving"]),
        "purse": s.game.purse,
        "status_line": phase_line(s),
        "ending": s.ending.value if s.ending is not None else None,
        "ended_by": s.ended_by,
        "winner": winner,
        "drawn": over and winner is None,
        "result": result_text(s) if over else None,
    }


def legal_view(state: State) -> dict[str, Any]:
    """The choices of the seat to move, shaped for clicks.

    Phase A: ``buttons`` (``roll``, ``leave`` when allowed) and ``captures`` (row, columns,
    text). Phase B: the ``roll`` and every legal ``moves`` entry with its ``steps``
    ``[column, from row, to row]``; a two-coin play has two steps, and no legal play's steps
    are a part of another's (all legal plays move the same number of squares), so the board
    can send a play as soon as the clicked steps make one.
    """
    s = _cr(state)
    if s.phase is Phase.A:
        buttons = [{"button": "roll", "text": "roll"}]
        if s.game.options["leaving"]:
            buttons.append({"button": "leave", "text": "leave"})
        return {
            "phase": "A",
            "seat": s.turn,
            "buttons": buttons,
            "captures": [_capture(s, c) for c in s.captures()],
        }
    moves = []
    for action in s.legal_actions():
        assert isinstance(action, Move)
        moves.append(
            {"text": s.action_to_text(action), "steps": [list(step) for step in action.steps]}
        )
    return {"phase": "B", "seat": s.turn, "roll": _roll(s.last_roll), "moves": moves}


def move_view(before: State, text: str, after: State) -> dict[str, Any] | None:
    """What one action did, for the highlight and the animation.

    ``kind`` is ``roll`` (the decision to roll, or a dice outcome with its ``dice``),
    ``move`` (``steps`` ``[column, from, to]``, ``full``: the whole roll was moved),
    ``capture`` (``row``, ``columns``, then the columns the opponent ``refilled``) or ``leave``.
    """
    b, a = _cr(before), _cr(after)
    if b.phase is Phase.DICE:
        roll = a.last_roll
        assert roll is not None
        return {
            "kind": "roll",
            "seat": b.turn,
            "dice": _roll(roll),
            "ends_turn": a.turn != b.turn or a.phase is Phase.OVER,
        }
    action = b.parse_action(text)
    if isinstance(action, Move):
        return {
            "kind": "move",
            "seat": b.turn,
            "steps": [list(step) for step in action.steps],
            "roll": _roll(b.last_roll),
            "full": b.last_roll is not None and action.pips == b.last_roll.total,
        }
    if isinstance(action, Capture):
        return {
            "kind": "capture",
            "seat": b.turn,
            "row": action.row,
            "columns": list(action.columns),
            "refilled": list(a.refilled) if a.turn != b.turn else [],
        }
    assert isinstance(action, Decision)
    return {"kind": action.value, "seat": b.turn}


def summary(state: State) -> str:
    """Why the game ended and who won, e.g. ``Seat 2 (O) left; totals 22 to 18, ...``."""
    s = _cr(state)
    if s.phase is not Phase.OVER:
        return f"{seat_label(s.turn)} to play."
    text = result_text(s)
    return text[0].upper() + text[1:] + "."


#: The web view the game declares (``GameEntry.web_view``).
VIEW = FunctionsView(
    state_view=state_view, legal_view=legal_view, move_view=move_view, summary=summary
)
