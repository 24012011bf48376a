"""Exceptions shared by every game: each says what was wrong and what is allowed."""

from __future__ import annotations

from collections.abc import Iterable


class DicehallError(Exception):
    """Base class of every error raised on purpose by dicehall."""


class IllegalActionError(DicehallError, ValueError):
    """An action that is malformed or not legal in the current state.

    The base of ``ActionSyntaxError`` (text that does not parse), ``AmbiguousActionError``
    (text that fits several legal actions) and ``GameOverError``; what is left raised as
    the base itself is well-formed but illegal here. Misuse of the protocol (asking a
    decision node for its chance outcomes, say) is not an illegal action: it raises
    ``ValueError`` or ``TypeError``.

    ``reason`` says why; ``legal`` lists the legal actions in text form (possibly
    truncated in the message, complete in the attribute) so the caller can show
    the player what is allowed instead.
    """

    def __init__(self, action: str, reason: str, legal: Iterable[str] = ()) -> None:
        self.action = action
        self.reason = reason
        self.legal = list(legal)
        msg = f"illegal action {action!r}: {reason}"
        if self.legal:
            shown = ", ".join(self.legal[:20])
            more = f" (and {len(self.legal) - 20} more)" if len(self.legal) > 20 else ""
            msg += f". Legal: {shown}{more}"
        super().__init__(msg)


class ActionSyntaxError(IllegalActionError):
    """Action text that does not parse: no legal action could be meant by it.

    python-chess's ``InvalidMoveError``: ``"8/x"`` or ``"capture"`` without a row.
    """


class AmbiguousActionError(IllegalActionError):
    """Action text that fits more than one legal action; ``candidates`` lists their texts.

    >>> err = AmbiguousActionError("8/5", "write the one you mean", ["8/5 6/5", "8/5 8/5"])
    >>> err.candidates
    ['8/5 6/5', '8/5 8/5']
    """

    def __init__(
        self, action: str, reason: str, candidates: Iterable[str], legal: Iterable[str] = ()
    ) -> None:
        self.candidates = list(candidates)
        super().__init__(action, reason, legal)


class GameOverError(IllegalActionError):
    """An action offered after the game has ended: nothing is legal any more."""

    def __init__(self, action: str) -> None:
        super().__init__(action, "the game is over")


class GameDeclarationError(DicehallError, TypeError):
    """A game's declaration (its entry) names a part that is missing or of the wrong shape."""


class UnknownGameError(DicehallError, KeyError):
    """A game name that is not registered."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = sorted(known)
        super().__init__(f"unknown game {name!r}; known games: {', '.join(self.known)}")

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class OptionError(DicehallError, ValueError):
    """A game option that does not exist or has a value outside its allowed range."""


class RecordError(DicehallError, ValueError):
    """A game record that cannot be read or does not replay."""
