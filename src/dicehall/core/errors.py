"""Exceptions shared by every game: each says what was wrong and what is allowed."""

from __future__ import annotations

from collections.abc import Iterable


class DicehallError(Exception):
    """Base class of every error raised on purpose by dicehall."""


class IllegalActionError(DicehallError, ValueError):
    """An action that is malformed or not legal in the current state.

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
