"""View models: each game's state as structured JSON for its board in the browser.

A game may provide ``dicehall.server.views.<game>`` with ``state_view(state)`` and optionally
``legal_view(state)``, ``move_view(before, text, after)`` and ``summary(state)`` (see
``docs/web-games.md``). Whatever a game leaves out falls back to the generic versions here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from dicehall.core.game import State


def generic_state_view(state: State) -> dict[str, Any]:
    """The text board only: enough for the generic client board."""
    return {"text": state.render(None)}


def generic_summary(state: State) -> str:
    """One line that says how the game ended."""
    returns = state.returns()
    best = max(returns)
    winners = [i for i, r in enumerate(returns) if r == best]
    scores = ", ".join(f"{r:+g}" for r in returns)
    if len(winners) > 1:
        return f"The game is drawn ({scores})."
    return f"Seat {winners[0] + 1} wins ({scores})."


@dataclass(frozen=True)
class View:
    """The view functions of one game, generic where the game has none."""

    game: str
    module: Any | None

    def state_view(self, state: State) -> dict[str, Any]:
        fn = getattr(self.module, "state_view", None)
        return fn(state) if fn else generic_state_view(state)

    def legal_view(self, state: State) -> Any:
        fn = getattr(self.module, "legal_view", None)
        return fn(state) if fn else None

    def move_view(self, before: State, text: str, after: State) -> dict[str, Any] | None:
        fn = getattr(self.module, "move_view", None)
        return fn(before, text, after) if fn else None

    def summary(self, state: State) -> str:
        fn = getattr(self.module, "summary", None)
        return fn(state) if fn else generic_summary(state)


@cache
def get_view(game: str) -> View:
    """The view of ``game``: its module's functions over the generic ones."""
    name = f"dicehall.server.views.{game}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return View(game, None)
        raise
    return View(game, module)
