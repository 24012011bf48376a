"""A game's one declaration: where its rules, bots, views and statistics live.

Each game package exports one ``GameEntry`` (by convention named ``ENTRY``) and registers
it in the ``dicehall.games`` entry-point group of its distribution, so a game in another
package plugs in by being installed::

    [project.entry-points."dicehall.games"]
    backgammon = "dicehall.games.backgammon:ENTRY"

Every part is a lazy ``"module:attribute"`` string, imported only when a front end asks
for it, so ``dicehall --help`` stays fast and the games layer never imports a bot or a
view. The shape each part must have is a ``typing.Protocol`` of the layer that uses it:

- ``rules``: a ``dicehall.core.game.Game`` subclass;
- ``bots``: ``dicehall.bots.registry.BotPackage`` (levels, a default, a factory and an
  optional leaf evaluation for the generic search agents);
- ``terminal_view``: ``dicehall.cli.views.TerminalView``;
- ``web_view``: ``dicehall.server.views.WebView``;
- ``statistics``: ``GameStatistics`` below (what ``dicehall simulate`` reports);
- ``svg``: ``dicehall.svg.BoardDrawing`` (the board as an SVG string).

A part left out (None) falls back to the generic behaviour of that layer; a part that is
named but cannot be found raises ``GameDeclarationError`` at once, never a silent fallback.

>>> entry = GameEntry("nim", rules="fractions:Fraction")
>>> entry.load("rules").__name__
'Fraction'
>>> entry.load("bots") is None
True
>>> GameEntry("nim", rules="fractions:Fractoin").load("rules")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dicehall.core.errors.GameDeclarationError: game 'nim' declares rules='fractions:Fractoin', ...
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from dicehall.core.errors import GameDeclarationError
from dicehall.core.game import Game, State

if TYPE_CHECKING:  # records load games through the registry, which reads declarations
    from dicehall.core.record import Record

#: One observation of one game: a number, several numbers (a list) or None (not observed).
Observation = float | int | list[float] | list[int] | None


class GameStatistics(Protocol):
    """Statistics of one finished game from its states (initial first) and its record.

    The simulation pools each name's observations over all games and reports their mean,
    so an indicator (1 or 0) becomes a rate.
    """

    def __call__(self, states: Sequence[State], record: Record) -> Mapping[str, Observation]:
        """Named observations of this game."""
        ...


class FunctionsOverride:
    """Base of the views made of plain functions (``cli.views.FunctionsView``,
    ``server.views.FunctionsView``): each function given replaces the method of that name,
    the class's own method stands for the rest, and a name not in ``METHODS`` is an error.
    """

    METHODS: ClassVar[tuple[str, ...]] = ()
    KIND: ClassVar[str] = "view"

    def __init__(self, **functions: Callable[..., Any]) -> None:
        unknown = sorted(set(functions) - set(self.METHODS))
        if unknown:
            raise TypeError(
                f"unknown {self.KIND} function(s) {', '.join(unknown)}; "
                f"a view has {', '.join(self.METHODS)}"
            )
        for name, function in functions.items():
            setattr(self, name, function)


Part = Literal["rules", "bots", "terminal_view", "web_view", "statistics", "svg"]

#: The parts a declaration may name, in the order of the layers that use them.
PARTS: tuple[Part, ...] = ("rules", "bots", "terminal_view", "web_view", "statistics", "svg")


@dataclass(frozen=True)
class GameEntry:
    """The declaration of one game (OpenSpiel's ``GameType`` plus python-chess's lazy parts).

    ``name`` is the registry name (lower case, as typed on the command line); the other
    fields are ``"module:attribute"`` strings (``rules`` may also be the class itself).
    """

    name: str
    rules: str | type[Game]
    bots: str | None = None
    terminal_view: str | None = None
    web_view: str | None = None
    statistics: str | None = None
    svg: str | None = None

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower():
            raise GameDeclarationError(
                f"a game's name is lower case without spaces around it, not {self.name!r}"
            )
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "name" or value is None or isinstance(value, type):
                continue
            module, colon, attr = str(value).partition(":")
            if not (isinstance(value, str) and module and colon and attr):
                raise GameDeclarationError(
                    f"game {self.name!r} declares {f.name}={value!r}; "
                    "write a lazy 'package.module:attribute' string"
                )

    def load(self, part: Part) -> Any:
        """The object the declaration names for ``part`` (imported now), or None if the game
        leaves that part out.

        :raises GameDeclarationError: if ``part`` is not a part, or the module or attribute
            named does not exist.
        """
        if part not in PARTS:
            raise GameDeclarationError(f"unknown part {part!r}; parts are {', '.join(PARTS)}")
        value = getattr(self, part)
        if value is None or isinstance(value, type):
            return value
        module_name, _, attr = value.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                raise GameDeclarationError(
                    f"game {self.name!r} declares {part}={value!r}, "
                    f"but there is no module {exc.name!r}"
                ) from exc
            raise
        obj: Any = module
        for name in attr.split("."):
            if not hasattr(obj, name):
                raise GameDeclarationError(
                    f"game {self.name!r} declares {part}={value!r}, "
                    f"but module {module_name!r} has no attribute {attr!r}"
                )
            obj = getattr(obj, name)
        return obj

    def load_as(self, part: Part, shape: type, hint: str) -> Any:
        """``load(part)`` checked against ``shape`` (a runtime-checkable Protocol); None if
        the game leaves the part out.

        :raises GameDeclarationError: if the part is missing or not of that shape.
        """
        obj = self.load(part)
        if obj is not None and not isinstance(obj, shape):
            raise GameDeclarationError(
                f"game {self.name!r} declares {part}={getattr(self, part)!r}, which is not a "
                f"{shape.__name__} ({hint})"
            )
        return obj
