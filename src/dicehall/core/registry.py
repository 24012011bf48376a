"""Games registered by name and loaded lazily, so the CLI starts fast."""

from __future__ import annotations

import importlib
from typing import Any

from dicehall.core.errors import UnknownGameError
from dicehall.core.game import Game

# name -> "module:Class"; a game module is imported only when first loaded.
_REGISTRY: dict[str, str | type[Game]] = {
    "backgammon": "dicehall.games.backgammon:Backgammon",
    "coinrows": "dicehall.games.coinrows:CoinRows",
    "whitedie": "dicehall.games.whitedie:WhiteDie",
}


def register_game(cls: type[Game]) -> type[Game]:
    """Register a Game subclass under ``cls.name`` (usable as a class decorator)."""
    _REGISTRY[cls.name] = cls
    return cls


def game_class(name: str) -> type[Game]:
    """The Game class registered as ``name``."""
    key = name.strip().lower()
    entry = _REGISTRY.get(key)
    if entry is None:
        raise UnknownGameError(name, _REGISTRY)
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        cls = getattr(importlib.import_module(module), attr)
        _REGISTRY[key] = cls
        return cls  # type: ignore[no-any-return]
    return entry


def load_game(name: str, **options: Any) -> Game:
    """Load a registered game with its options.

    For example ``load_game("backgammon", scoring="standard")``.

    Unknown names raise ``UnknownGameError``; bad options raise ``OptionError``.
    """
    return game_class(name)(**options)


def registered_games() -> list[str]:
    """Names of every registered game."""
    return sorted(_REGISTRY)
