"""Pig's terminal view, web view and statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dicehall.cli.views import FunctionsView as TerminalFunctions
from dicehall.core.game import State
from dicehall.core.record import Record
from dicehall.server.views import FunctionsView as WebFunctions


def describe(before: State, text: str, after: State) -> str | None:
    if text == "1":
        return "a 1: the turn's points are lost"
    return None


def state_view(state: State) -> dict[str, Any]:
    return {"text": str(state), "scores": list(state.scores), "at_stake": state.at_stake}  # type: ignore[attr-defined]


def statistics(states: Sequence[State], record: Record) -> dict[str, float]:
    return {"holds": float(sum(1 for text in record.actions if text == "hold"))}


TERMINAL = TerminalFunctions(describe=describe, help=lambda state: "write roll or hold")
WEB = WebFunctions(state_view=state_view)
