"""Terminal views: how each game looks and explains itself in ``dicehall play``.

A game declares its view in its entry (``GameEntry.terminal_view``): any object with the
methods of ``TerminalView``. ``DefaultView`` has them all; a game's view module usually
ends with ``VIEW = FunctionsView(render=render, hint=hint, ...)``, which takes its own
functions and the default for the rest (an unknown name is an error, never ignored).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from rich.console import RenderableType
from rich.text import Text

from dicehall.core.declaration import FunctionsOverride
from dicehall.core.game import State
from dicehall.core.registry import game_entry


@runtime_checkable
class TerminalView(Protocol):
    """What ``dicehall play`` and ``dicehall replay`` ask of a game's terminal view."""

    def render(self, state: State, perspective: int | None) -> RenderableType:
        """The board to show before a decision."""
        ...

    def describe(self, before: State, text: str, after: State) -> str | None:
        """An explanation printed after an action, or None."""
        ...

    def hint(self, state: State) -> RenderableType | None:
        """Best options with their values for the player to act, or None."""
        ...

    def rollout_hint(self, state: State) -> RenderableType | None:
        """Best options valued by rollouts (``hint --rollout``), or None."""
        ...

    def confirm(self, state: State, action: Any) -> bool:
        """Whether a person confirms ``action`` before it counts."""
        ...

    def help(self, state: State) -> str:
        """Extra lines for the ``help`` command about this game's action text."""
        ...

    def summary(self, state: State) -> str:
        """One line that says how the game ended."""
        ...


#: The method names of a terminal view.
VIEW_METHODS = ("render", "describe", "hint", "rollout_hint", "confirm", "help", "summary")


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


class FunctionsView(FunctionsOverride, DefaultView):
    """A terminal view made of plain functions; the default stands for any left out.

    >>> view = FunctionsView(help=lambda state: "write roll or hold")
    >>> view.help(None), view.hint(None)
    ('write roll or hold', None)
    >>> FunctionsView(hnit=print)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: unknown terminal view function(s) hnit; a view has render, describe, hint, ...
    """

    METHODS = VIEW_METHODS
    KIND = "terminal view"


def get_view(game: str) -> TerminalView:
    """The terminal view ``game`` declares, or ``DefaultView()`` if it declares none.

    :raises UnknownGameError: if no game has that name.
    :raises GameDeclarationError: if the declared object is not a ``TerminalView``.
    """
    hint = f"{', '.join(VIEW_METHODS)}: use FunctionsView"
    view = game_entry(game).load_as("terminal_view", TerminalView, hint)
    return view if view is not None else DefaultView()
