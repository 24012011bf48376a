"""The protocol every game implements: a ``Game`` that makes ``State`` values.

Chance is explicit: a state whose ``current_player()`` is ``CHANCE`` lists its
outcomes with exact probabilities, and an outcome is applied like any decision.
That is what lets one search algorithm, one replay routine and one fair-dice
source serve every game.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

from dicehall.core.errors import (
    ActionSyntaxError,
    AmbiguousActionError,
    GameDeclarationError,
    GameOverError,
    IllegalActionError,
)
from dicehall.core.options import Option, OptionValue, resolve_options

#: ``current_player()`` of a state where dice (or another chance event) decide.
CHANCE = -1
#: ``current_player()`` of a finished game.
TERMINAL = -2

Action = Hashable
"""An action is any immutable, hashable value; each game defines its own type."""

A = TypeVar("A", bound=Hashable)


class Game(ABC):
    """A game with its options fixed; makes initial states.

    Subclasses set ``name``, ``title``, ``min_players``, ``max_players`` and
    ``option_specs`` and implement ``new_initial_state``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    option_specs: ClassVar[tuple[Option, ...]] = ()
    record_defaults: ClassVar[Mapping[str, OptionValue]] = {}
    """Options added after records of the game were first written, each with the value
    those older records were played under: a record that does not name such an option
    replays with this value rather than the option's default (see ``Record.load_game``)."""

    def __init__(self, **options: Any) -> None:
        self.options: Mapping[str, OptionValue] = resolve_options(
            self.name, self.option_specs, options
        )

    @property
    def num_players(self) -> int:
        """Number of seats in this game (an option for some games)."""
        players = self.options.get("players")
        return int(players) if players is not None else self.min_players

    @abstractmethod
    def new_initial_state(self) -> State[Any]:
        """The state before the first action (often a chance node: the opening roll)."""

    def utility_bounds(self) -> tuple[float, float] | None:
        """The lowest and highest return any seat can get with these options, or None if
        the game does not say (OpenSpiel's ``min_utility``/``max_utility``).

        Search agents may prune with them (``ExpectimaxBot(bounds="game")``), so they must
        hold for every final state.
        """
        return None

    def __repr__(self) -> str:
        changed = {
            o.name: self.options[o.name]
            for o in self.option_specs
            if self.options[o.name] != o.default
        }
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"load_game({self.name!r}{args})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.name == self.name
            and dict(other.options) == dict(self.options)
        )

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))


class State(ABC, Generic[A]):
    """A position of a game: an immutable value, changed only by ``apply``.

    Every state knows its ``game``; seats are numbered from 0. ``A`` is the game's
    action type (decisions and chance outcomes alike).
    """

    game: Game

    # -- whose turn -----------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or ``CHANCE``, or ``TERMINAL``."""

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """True when dice (not a player) decide the next action."""
        return self.current_player() == CHANCE

    # -- actions --------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> Sequence[A]:
        """Every legal action (at a chance node: every outcome), each once."""

    def chance_outcomes(self) -> list[tuple[A, Fraction]]:
        """Outcomes of a chance node with exact probabilities that sum to 1.

        :raises ValueError: if this state is not a chance node (a misuse of the protocol).
        """
        raise ValueError(f"this {self.game.name} state is not a chance node: it has no outcomes")

    def chance_dice(self) -> int:
        """How many six-sided dice this chance node rolls (0 if it is not dice)."""
        return 0

    def outcome_from_dice(self, faces: Sequence[int]) -> A:
        """The chance outcome that the rolled ``faces`` (1..6 each) produce."""
        raise NotImplementedError(f"{self.game.name} does not roll dice here")

    @abstractmethod
    def apply(self, action: A) -> State[A]:
        """The state after ``action``.

        :raises GameOverError: if the game has ended.
        :raises IllegalActionError: if ``action`` is not legal here.
        """

    @abstractmethod
    def returns(self) -> list[float]:
        """The payoff of each seat (all zeros until the game is over)."""

    # -- text -----------------------------------------------------------
    @abstractmethod
    def action_to_text(self, action: A) -> str:
        """The canonical text of ``action`` in this state (e.g. ``24/18 13/11``)."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The legal action a player means by ``text``.

        :raises ActionSyntaxError: if ``text`` does not parse.
        :raises AmbiguousActionError: if it fits several legal actions.
        :raises GameOverError: if the game has ended.
        :raises IllegalActionError: if it parses but is not legal here.
        """

    def legal_texts(self) -> list[str]:
        """Canonical texts of all legal actions, in ``legal_actions()`` order."""
        return [self.action_to_text(a) for a in self.legal_actions()]

    def apply_text(self, text: str) -> State[A]:
        """Parse ``text`` and apply it: the convenient path for people and records."""
        return self.apply(self.parse_action(text))

    def render(self, perspective: int | None = None) -> str:
        """The board as plain text, drawn for ``perspective`` (default: the seat to act)."""
        return str(self)

    def _repr_svg_(self) -> str | None:
        """The board as SVG, so Jupyter shows a state as a picture (``dicehall.svg``).

        Imported by name when asked for (the SVG layer sits above the games); None when
        the game declares no SVG board.
        """
        svg = importlib.import_module("dicehall.svg")
        try:
            return str(svg.board_svg(self))
        except GameDeclarationError:
            return None

    @abstractmethod
    def __str__(self) -> str:
        """The board as plain text."""

    @abstractmethod
    def __eq__(self, other: object) -> bool:
        """States are values: equal when they describe the same position."""

    @abstractmethod
    def __hash__(self) -> int:
        """Hashable so states can key transposition tables."""

    def illegal(self, text: str, reason: str) -> IllegalActionError:
        """An ``IllegalActionError`` for ``text`` listing the legal actions here
        (a ``GameOverError`` once the game has ended)."""
        if self.is_terminal():
            return GameOverError(text)
        return IllegalActionError(text, reason, self.legal_texts())

    def syntax_error(self, text: str, reason: str) -> ActionSyntaxError:
        """An ``ActionSyntaxError`` for ``text`` that does not parse, listing the legal actions."""
        legal = [] if self.is_terminal() else self.legal_texts()
        return ActionSyntaxError(text, reason, legal)

    def ambiguous(self, text: str, reason: str, candidates: Sequence[A]) -> AmbiguousActionError:
        """An ``AmbiguousActionError`` for ``text`` that means any of ``candidates``."""
        return AmbiguousActionError(
            text, reason, [self.action_to_text(a) for a in candidates], self.legal_texts()
        )
