"""Games found by name through their declarations, loaded lazily so the CLI starts fast.

A game is registered by its distribution's ``dicehall.games`` entry points (see
``dicehall.core.declaration``): installing a package is all it takes to add a game.
``register_game`` adds one at run time (a test's game, a notebook's variant).
"""

from __future__ import annotations

import importlib
import warnings
from importlib import metadata
from typing import Any

from dicehall.core.declaration import GameEntry
from dicehall.core.errors import GameDeclarationError, UnknownGameError
from dicehall.core.game import Game

#: The entry-point group in which game packages declare themselves.
ENTRY_POINT_GROUP = "dicehall.games"

# The games dicehall itself ships, looked for only when its installed metadata predates the
# entry points (an editable install made before they were added): the same lazy strings as
# in pyproject.toml, so such a checkout keeps working until ``pip install -e .`` is re-run.
_SHIPPED = {
    "backgammon": "dicehall.games.backgammon:ENTRY",
    "coinrows": "dicehall.games.coinrows:ENTRY",
    "whitedie": "dicehall.games.whitedie:ENTRY",
}


class _Registry:
    """Name -> declaration (or the lazy reference to one); filled on first use."""

    def __init__(self) -> None:
        self._refs: dict[str, str | GameEntry] | None = None

    def refs(self) -> dict[str, str | GameEntry]:
        if self._refs is None:
            found: dict[str, str | GameEntry] = {}
            for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
                found.setdefault(ep.name.strip().lower(), ep.value)
            if not any(name in found for name in _SHIPPED):
                warnings.warn(
                    "dicehall's entry points are not installed; re-run `pip install -e .`",
                    stacklevel=3,
                )
                found = {**_SHIPPED, **found}
            self._refs = found
        return self._refs

    def entry(self, name: str) -> GameEntry:
        key = name.strip().lower()
        refs = self.refs()
        ref = refs.get(key)
        if ref is None:
            raise UnknownGameError(name, refs)
        if isinstance(ref, str):
            module, _, attr = ref.partition(":")
            entry = getattr(importlib.import_module(module), attr, None)
            if not isinstance(entry, GameEntry):
                raise GameDeclarationError(
                    f"the entry point {key} = {ref!r} is not a GameEntry (it is {entry!r})"
                )
            if entry.name != key:
                raise GameDeclarationError(
                    f"the entry point {key!r} names a declaration of game {entry.name!r}"
                )
            refs[key] = ref = entry
        return ref

    def add(self, entry: GameEntry) -> None:
        self.refs()[entry.name] = entry

    def clear(self) -> None:
        """Forget what was found, so newly installed games are seen (and run-time ones go)."""
        self._refs = None


_REGISTRY = _Registry()


def register_game(game: type[Game] | GameEntry) -> Any:
    """Register a game at run time: a ``GameEntry``, or a ``Game`` subclass (registered
    under ``cls.name`` with no other parts). Usable as a class decorator."""
    entry = game if isinstance(game, GameEntry) else GameEntry(game.name, rules=game)
    _REGISTRY.add(entry)
    return game


def game_entry(name: str) -> GameEntry:
    """The declaration of the game registered as ``name``.

    :raises UnknownGameError: if no game has that name.
    :raises GameDeclarationError: if its entry point does not name a ``GameEntry``.
    """
    return _REGISTRY.entry(name)


def game_class(name: str) -> type[Game]:
    """The Game class registered as ``name``.

    :raises UnknownGameError: if no game has that name.
    :raises GameDeclarationError: if its declaration does not name a ``Game`` subclass.
    """
    entry = game_entry(name)
    cls = entry.load("rules")
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise GameDeclarationError(
            f"game {entry.name!r} declares rules={entry.rules!r}, which is not a Game subclass"
        )
    return cls


def load_game(name: str, **options: Any) -> Game:
    """Load a registered game with its options.

    For example ``load_game("backgammon", scoring="standard")``.

    Unknown names raise ``UnknownGameError``; bad options raise ``OptionError``.
    """
    return game_class(name)(**options)


def registered_games() -> list[str]:
    """Names of every registered game (nothing is imported to list them)."""
    return sorted(_REGISTRY.refs())


def refresh_games() -> None:
    """Look for installed games again (after installing one into a running interpreter)."""
    _REGISTRY.clear()
