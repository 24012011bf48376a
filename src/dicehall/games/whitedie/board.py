"""White Die's leaf module: the phases, the actions, the record of a challenge and the dice
arithmetic that rules, notation and rendering share (scoring lives in ``challenges``).

It imports nothing of the game but the challenges, so nothing imports back up.

>>> Phase.ROLL == "roll", str(Place(4, 1)), remove((1, 3, 3, 6), (3, 6))
(True, 'place 4 b1', (1, 3))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from dicehall.games.whitedie.challenges import SQUARES, Dice, Grid


# -- phases -------------------------------------------------------------------
class Phase(StrEnum):
    """Where in a turn a state is. A ``StrEnum``: each phase equals its text (``"roll"``),
    which is what views and JSON show."""

    START = "start"  # chance: the next contender rolls all five to see who starts
    ROLL = "roll"  # chance: the player on turn rolls all five
    CHOOSE = "choose"  # the player picks his opponent (tic-tac-toe, matching, 3+ players)
    OPPONENT_ROLL = "opponent-roll"  # chance: the opponent rolls his four dice
    REROLL = "reroll"  # poker, pips, sixes: stand or reroll (rerolls_left >= 1)
    TICTACTOE = "tictactoe"  # a side places a die
    MATCH_PLAYER = "match-player"  # matching: the player must reroll two
    MATCH_OPPONENT = "match-opponent"  # matching: the opponent must reroll two
    MATCH_LAST = "match-last"  # matching: the player may reroll one
    ARRANGE = "arrange"  # pips (free choices): the player picks his square's score
    CLAIM = "claim"  # tic-tac-toe (free choices): the player claims the empty squares or not
    OVER = "over"  # the game has ended


START = Phase.START
ROLL = Phase.ROLL
CHOOSE = Phase.CHOOSE
OPPONENT_ROLL = Phase.OPPONENT_ROLL
REROLL = Phase.REROLL
TICTACTOE = Phase.TICTACTOE
MATCH_PLAYER = Phase.MATCH_PLAYER
MATCH_OPPONENT = Phase.MATCH_OPPONENT
MATCH_LAST = Phase.MATCH_LAST
ARRANGE = Phase.ARRANGE
CLAIM = Phase.CLAIM
OVER = Phase.OVER

PLAYER_SIDE = 1
OPPONENT_SIDE = 0


# -- actions -------------------------------------------------------------------
@dataclass(frozen=True)
class Roll:
    """A chance outcome: the coloured ``dice`` rolled (sorted), and at a five-dice roll
    the ``white`` die. A white 1 at a turn is stored without coloured dice."""

    dice: Dice
    white: int | None = None

    def __str__(self) -> str:
        faces = " ".join(map(str, self.dice))
        if self.white is None:
            return faces
        return f"white {self.white}" + (f": {faces}" if faces else "")


@dataclass(frozen=True)
class Stand:
    """Keep the dice as they are (score now, or in matching: skip the last reroll)."""

    def __str__(self) -> str:
        return "stand"


@dataclass(frozen=True)
class Reroll:
    """Reroll the dice showing ``values`` (sorted; equal dice are interchangeable)."""

    values: Dice

    def __str__(self) -> str:
        return "reroll " + " ".join(map(str, self.values))


@dataclass(frozen=True)
class Place:
    """Tic-tac-toe: put the die ``value`` on ``square`` (0..8, see ``SQUARES``)."""

    value: int
    square: int

    def __str__(self) -> str:
        return f"place {self.value} {SQUARES[self.square]}"


@dataclass(frozen=True)
class ChooseOpponent:
    """Tic-tac-toe or matching with 3+ players: play against ``seat`` (0-based)."""

    seat: int

    def __str__(self) -> str:
        return f"opponent {self.seat + 1}"


@dataclass(frozen=True)
class Arrange:
    """Pips: arrange the four dice into a square that scores ``points`` (every
    arrangement with that score is worth the same; the rules show one of them)."""

    points: int

    def __str__(self) -> str:
        return f"arrange {self.points}"


@dataclass(frozen=True)
class Claim:
    """Tic-tac-toe, once nobody can place and the player has placed all his dice:
    claim the empty squares (``take``) or leave them empty."""

    take: bool

    def __str__(self) -> str:
        return "claim" if self.take else "decline"


Action = Roll | Stand | Reroll | Place | ChooseOpponent | Arrange | Claim


@dataclass(frozen=True)
class ChallengeResult:
    """How the last challenge ended: for explanations and views, not for the rules."""

    seat: int
    white: int
    points: int
    dice: Dice = ()
    opponent: int | None = None
    opponent_dice: Dice = ()
    grid: Grid = ()
    claim_declined: bool = False
    """Tic-tac-toe: the player could claim the empty squares and left them empty."""


# -- dice arithmetic -----------------------------------------------------------
@cache
def multiset_outcomes(count: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every sorted result of rolling ``count`` d6 with its exact probability.

    >>> len(multiset_outcomes(4)), sum(p for _, p in multiset_outcomes(4))
    (126, Fraction(1, 1))
    >>> dict(multiset_outcomes(2))[(3, 5)]
    Fraction(1, 18)
    """
    total = 6**count
    out = []
    for faces in combinations_with_replacement(range(1, 7), count):
        ways = factorial(count)
        for n in Counter(faces).values():
            ways //= factorial(n)
        out.append((faces, Fraction(ways, total)))
    return tuple(out)


def sub_multisets(dice: Dice, size: int | None = None) -> list[Dice]:
    """Distinct sub-multisets of sorted ``dice`` (non-empty, or of exactly ``size``).

    >>> sub_multisets((2, 5, 5), 2)
    [(2, 5), (5, 5)]
    """
    found: set[Dice] = set()
    n = len(dice)
    for mask in range(1, 1 << n):
        part = tuple(dice[i] for i in range(n) if mask >> i & 1)
        if size is None or len(part) == size:
            found.add(part)
    return sorted(found, key=lambda p: (len(p), p))


def remove(dice: Dice, values: Sequence[int]) -> Dice | None:
    """``dice`` without ``values`` (as a multiset), or None if they are not all there.

    >>> remove((1, 3, 3, 6), (3, 6)), remove((1, 3, 3, 6), (2,))
    ((1, 3), None)
    """
    rest = list(dice)
    for v in values:
        if v not in rest:
            return None
        rest.remove(v)
    return tuple(rest)
