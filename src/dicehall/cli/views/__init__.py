"""Terminal views: how each game looks and explains itself in ``dicehall play``.

A game may provide ``dicehall.cli.views.<game>`` with any of the functions of
``DefaultView``; whatever it leaves out falls back to the default.
"""

from __future__ import annotations

import importlib
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from dicehall.core.game import State


class DefaultView:
    """Plain rendering for any game: its text board, no hints."""

    def render(self, state: State, perspective: int | None) -> RenderableType:
        """The board to show before a decision."""
        return Text(state.render(perspective))

    def describe(self, before: State, text: str, after: State) -> str | None:
        """An explanation printed after an action (e.g. how a score was made), or None."""
        return None

    def hint(self, state: State) -> RenderableType | None:
        """Best options with their values for the player to act, or None if no hints."""
        return None

    def rollout_hint(self, state: State) -> RenderableType | None:
        """Best options valued by rollouts (``hint --rollout``), or None if no such hints."""
        return None

    def confirm(self, state: State, action: Any) -> bool:
        """Whether a person confirms ``action`` (with a chance to undo) before it counts."""
        return True

    def help(self, state: State) -> str:
        """Extra lines for the ``help`` command about this game's action text."""
        return ""

    def summary(self, state: State) -> str:
        """One line that says how the game ended."""
        returns = state.returns()
        best = max(returns)
        winners = [i for i, r in enumerate(returns) if r == best]
        if len(winners) > 1:
            return "The game is drawn."
        return f"Seat {winners[0] + 1} wins ({', '.join(f'{r:+g}' for r in returns)})."


class _Merged(DefaultView):
    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattribute__(self, name: str) -> Any:
        module = object.__getattribute__(self, "_module")
        if not name.startswith("_") and hasattr(module, name):
            return getattr(module, name)
        return object.__getattribute__(self, name)


def get_view(game: str) -> DefaultView:
    """The terminal view of ``game`` (its own module merged over the default)."""
    try:
        module = importlib.import_module(f"dicehall.cli.views.{game}")
    except ModuleNotFoundError as exc:
        if exc.name == f"dicehall.cli.views.{game}":
            return DefaultView()
        raise
    return _Merged(module)
