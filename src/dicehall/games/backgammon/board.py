"""Backgammon's leaf module: the board's types and constants, the two actions and the pure
functions every other module shares (rules, notation, rendering, the compiled kernels).

It imports nothing of the game, so nothing imports back up. A board is stored per player
in that player's own numbering: index 0 counts the checkers borne off, 1..24 are the
points (1 = the player's own ace point), 25 is the bar; point ``i`` of one player is
point ``25 - i`` of the other.

>>> start_board()[0] == START_SIDE, pip_count(START_SIDE)
(True, 167)
>>> opening(3, 1), opening(2, 5), opening(4, 4)
((0, (3, 1)), (1, (5, 2)), None)
"""

from __future__ import annotations

from dataclasses import dataclass

BAR = 25
OFF = 0
CHECKERS = 15

Side = tuple[int, ...]  # 26 counts: off, points 1..24, bar
Board = tuple[Side, Side]
Step = tuple[int, int]  # one die moved: (from, to) in the mover's numbering

START_SIDE: Side = tuple({24: 2, 13: 5, 8: 3, 6: 5}.get(i, 0) for i in range(26))


@dataclass(frozen=True)
class Roll:
    """A dice outcome. At the opening ``first`` is seat 0's die and ``second`` seat 1's;
    later rolls are stored high die first."""

    first: int
    second: int

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


@dataclass(frozen=True)
class Play:
    """One whole turn: the single-die steps in the order played (empty: no legal play).

    Two plays that lead to the same position are the same choice; ``legal_actions``
    lists one representative of each.
    """

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return " ".join(f"{a}/{b}" for a, b in self.steps) or "pass"


#: the cube actions' canonical texts, in the order ``legal_actions`` lists them
CUBE_KINDS = ("roll", "double", "take", "pass", "beaver", "raccoon")
#: resignation levels: the points (before the cube) a resignation concedes
RESIGN_LEVELS = {1: "single", 2: "gammon", 3: "backgammon"}


@dataclass(frozen=True)
class CubeAction:
    """A cube decision: ``roll`` (no double) or ``double`` before the roll; ``take``,
    ``pass`` or ``beaver`` in answer to a double; ``take`` or ``raccoon`` after a beaver."""

    kind: str

    def __post_init__(self) -> None:
        if self.kind not in CUBE_KINDS:
            raise ValueError(f"cube action {self.kind!r}: expected one of {', '.join(CUBE_KINDS)}")

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True)
class Resign:
    """An offer to resign: ``level`` 1 (single game), 2 (gammon) or 3 (backgammon)."""

    level: int

    def __post_init__(self) -> None:
        if self.level not in RESIGN_LEVELS:
            raise ValueError(f"resignation level {self.level!r}: expected 1, 2 or 3")

    def __str__(self) -> str:
        return f"resign {RESIGN_LEVELS[self.level]}"


@dataclass(frozen=True)
class ResignAnswer:
    """The opponent's answer to a resignation offer: accept (the game ends) or reject."""

    accept: bool

    def __str__(self) -> str:
        return "accept" if self.accept else "reject"


#: ``BackgammonState.pending``: what the next decision is about, besides the dice
NO_PENDING = ""  # dice to roll (chance) or to play
CUBE_DECISION = "double"  # the player on roll, before rolling: roll, double (if he may), resign
TAKE_DECISION = "take"  # his opponent answers a double: take, pass (or beaver)
RACCOON_DECISION = "raccoon"  # the doubler answers a beaver: take (play on) or raccoon
RESIGN_DECISION = "resign"  # the opponent answers a resignation: accept or reject


def pip_count(side: Side) -> int:
    """Pips a player needs to bear off every checker (the bar counts 25)."""
    return sum(i * n for i, n in enumerate(side))


def move_step(mine: list[int], theirs: list[int], src: int, dst: int) -> bool:
    """Move one checker of ``mine`` from ``src`` to ``dst`` in place; True if it hit."""
    mine[src] -= 1
    mine[dst] += 1
    if dst != OFF and theirs[25 - dst] == 1:
        theirs[25 - dst] = 0
        theirs[BAR] += 1
        return True
    return False


def start_board() -> Board:
    """The starting position: both sides in their own numbering (the mover's first)."""
    return (START_SIDE, START_SIDE)


def opening(first: int, second: int) -> tuple[int, tuple[int, int]] | None:
    """Who starts and with which dice (high die first) after the opening roll, in which
    ``first`` is seat 0's die and ``second`` seat 1's: the higher die moves first with both
    dice; None for a tie, after which both roll again."""
    if first == second:
        return None
    return (0 if first > second else 1), (max(first, second), min(first, second))
