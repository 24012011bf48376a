"""View models: each game's state as structured JSON for its board in the browser.

A game declares its web view in its entry (``GameEntry.web_view``): any object with the
methods of ``WebView`` (see ``docs/web-games.md``). A game's view module usually ends with
``VIEW = FunctionsView(state_view=state_view, legal_view=legal_view, ...)``; whatever it
leaves out falls back to the generic versions here, and an unknown name is an error.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import orjson

from dicehall.core.declaration import FunctionsOverride
from dicehall.core.game import State
from dicehall.core.registry import game_entry


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


@runtime_checkable
class WebView(Protocol):
    """What the server asks of a game's web view (pure, fast functions of states)."""

    def state_view(self, state: State) -> dict[str, Any]:
        """JSON-ready structured state: everything the board draws."""
        ...

    def legal_view(self, state: State) -> Any:
        """Structured legal decisions for the seat to move, or None."""
        ...

    def move_view(self, before: State, text: str, after: State) -> dict[str, Any] | None:
        """A structured description of one action, or None."""
        ...

    def summary(self, state: State) -> str:
        """One line that says how a finished game ended."""
        ...


#: The method names of a web view (``legal_texts_and_view``, ``legal_texts_and_json`` and
#: ``listed_action`` are optional: a view that has the first two computes the legal texts and
#: its legal view together, the second with the view as JSON text, for speed; the third finds
#: a listed action by its place and text, see ``listed_action`` below).
VIEW_METHODS = (
    "state_view",
    "legal_view",
    "move_view",
    "summary",
    "legal_texts_and_view",
    "legal_texts_and_json",
    "listed_action",
)


def view_json(moves: Any) -> str:
    """A legal view as the JSON text the server sends (as ``messages.dumps`` writes it)."""
    return orjson.dumps(moves, option=orjson.OPT_NON_STR_KEYS).decode()


def legal_texts_and_view(view: WebView, state: State) -> tuple[list[str], Any]:
    """``(state.legal_texts(), view.legal_view(state))``, through the view's own
    ``legal_texts_and_view`` where it has one (it may share work between the two)."""
    both = getattr(view, "legal_texts_and_view", None)
    if both is not None:
        texts, moves = both(state)
        return list(texts), moves
    return state.legal_texts(), view.legal_view(state)


def legal_texts_and_json(view: WebView, state: State) -> tuple[list[str], str]:
    """``legal_texts_and_view`` with the view as JSON text (``view_json``), through the
    view's own ``legal_texts_and_json`` where it has one (it may write the text directly,
    without building the view's objects first)."""
    both = getattr(view, "legal_texts_and_json", None)
    if both is not None:
        texts, moves = both(state)
        return list(texts), moves
    texts, view_obj = legal_texts_and_view(view, state)
    return texts, view_json(view_obj)


def listed_action(view: WebView, state: State, index: int, text: str) -> Any:
    """The legal action at ``index`` in ``state.legal_actions()`` if its canonical text is
    ``text``, else None (then the caller parses ``text``). Another process names the actions
    it appended by their place (``storage.Appended.hints``); taken by it, they are not parsed
    again, but only where the text there is the same: a process of another version, or a
    wrong place, costs the parse, never a different action. A view may know the text at a
    place more cheaply than the game formats it (``listed_action`` of the view; None there
    also means "parse it")."""
    if index < 0:
        return None
    own = getattr(view, "listed_action", None)
    if own is not None:
        return own(state, index, text)
    actions = state.legal_actions()
    if index >= len(actions):
        return None
    action = actions[index]
    return action if state.action_to_text(action) == text else None


class GenericView:
    """The view of a game that declares none: its text board and a generic summary."""

    def state_view(self, state: State) -> dict[str, Any]:
        return generic_state_view(state)

    def legal_view(self, state: State) -> Any:
        return None

    def move_view(self, before: State, text: str, after: State) -> dict[str, Any] | None:
        return None

    def summary(self, state: State) -> str:
        return generic_summary(state)

    def legal_texts_and_view(self, state: State) -> tuple[list[str], Any]:
        return state.legal_texts(), self.legal_view(state)

    def legal_texts_and_json(self, state: State) -> tuple[list[str], str]:
        texts, moves = self.legal_texts_and_view(state)
        return list(texts), view_json(moves)


class FunctionsView(FunctionsOverride, GenericView):
    """A web view made of plain functions; the generic one stands for any left out.

    >>> FunctionsView(state_veiw=print)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: unknown web view function(s) state_veiw; a view has state_view, legal_view, ...
    """

    METHODS = VIEW_METHODS
    KIND = "web view"


def get_view(game: str) -> WebView:
    """The web view ``game`` declares, or ``GenericView()`` if it declares none.

    :raises UnknownGameError: if no game has that name.
    :raises GameDeclarationError: if the declared object is not a ``WebView``.
    """
    hint = f"{', '.join(VIEW_METHODS)}: use FunctionsView"
    view = game_entry(game).load_as("web_view", WebView, hint)
    return view if view is not None else GenericView()
