"""Coin Rows' leaf module: the board, its coins and squares, the actions, the phases and
the pure move functions that rules, notation and rendering share.

It imports nothing of the game, so nothing imports back up. Rows and columns are
numbered 0..6 (texts use ``a1``..``g7``); seat 0 moves first from row 0 (``1``).

>>> square_name(2, 0), parse_square("c1"), len(legal_moves(START_BOARD, 0, Roll(2, 3)))  # 5 + 5 x 4
('c1', (2, 0), 25)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple, overload

SIZE = 7
COLUMNS = "abcdefg"
#: Home row (0-based) of each seat: row 1 for player 1, row 7 for player 2.
HOME_ROWS = (0, SIZE - 1)
#: Rows a capture may take (0-based): every row but the two home rows.
CAPTURE_ROWS = range(1, SIZE - 1)
#: Dice totals that end the turn at once.
ENDING_TOTALS = frozenset({7, 11, 12})
#: Coins each seat puts on the board at the start: player 1 five, player 2 two.
OPENING_COINS = (5, 2)
MARKS = ("X", "O")


class Coin(NamedTuple):
    """A coin on the board: its row (0..6) and the seat that owns it."""

    row: int
    owner: int


Board = tuple[Coin | None, ...]
"""One entry per column a..g: the coin in that column, or None."""

Step = tuple[int, int, int]
"""One coin moved: (column, from row, to row), all 0-based."""

START_BOARD: Board = (
    Coin(6, 1),
    Coin(6, 1),
    Coin(0, 0),
    Coin(0, 0),
    Coin(0, 0),
    Coin(0, 0),
    Coin(0, 0),
)


def square_name(column: int, row: int) -> str:
    """The chess-like name of a square: ``square_name(2, 0) == 'c1'``."""
    return f"{COLUMNS[column]}{row + 1}"


def parse_square(text: str) -> tuple[int, int]:
    """(column, row) of a square name such as ``c1`` (0-based).

    :raises ValueError: if ``text`` is not a square a1..g7.

    >>> parse_square("C1")
    (2, 0)
    """
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in COLUMNS or t[1] not in "1234567":
        raise ValueError(f"{text!r} is not a square: columns are a-g and rows 1-7, e.g. c1")
    return COLUMNS.index(t[0]), int(t[1]) - 1


# -- actions ------------------------------------------------------------------


class Decision(Enum):
    """The Phase A decisions that are not captures."""

    ROLL = "roll"
    LEAVE = "leave"

    def __str__(self) -> str:
        return self.value


ROLL = Decision.ROLL
LEAVE = Decision.LEAVE


@dataclass(frozen=True, order=True)
class Roll:
    """A dice outcome. The order of the two dice never matters in Coin Rows (a
    player may give either die to either coin), so a roll is stored low die first.

    >>> Roll(3, 4), Roll(3, 4).total
    (Roll(3, 4), 7)
    """

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= self.high <= 6):
            raise ValueError(f"a roll is two dice 1..6, low first; got {self.low}-{self.high}")

    @classmethod
    def of(cls, a: int, b: int) -> Roll:
        """The roll of two dice showing ``a`` and ``b`` in either order."""
        return cls(min(a, b), max(a, b))

    @property
    def total(self) -> int:
        return self.low + self.high

    @property
    def ends_turn(self) -> bool:
        """True for 7, 11 and 12, which end the turn at once."""
        return self.total in ENDING_TOTALS

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Roll({self.low}, {self.high})"


@dataclass(frozen=True)
class Capture:
    """Taking the coins of ``columns`` in ``row`` (0-based) into the capturer's purse.

    Under the ``row`` rule the columns are all the coins of the row; under the
    ``adjacent`` rule they are one run of coins in neighbouring columns.
    """

    row: int
    columns: tuple[int, ...]

    def text(self, rule: str = "row") -> str:
        """``capture 4`` (row rule) or ``capture 4 b-d`` (adjacent rule)."""
        base = f"capture {self.row + 1}"
        if rule == "adjacent":
            return f"{base} {COLUMNS[self.columns[0]]}-{COLUMNS[self.columns[-1]]}"
        return base

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Move:
    """A play of the roll: one or two coins moved, steps sorted by column."""

    steps: tuple[Step, ...]

    @property
    def pips(self) -> int:
        """How many squares the play moves in all."""
        return sum(abs(to - frm) for _, frm, to in self.steps)

    def __str__(self) -> str:
        return " ".join(f"{square_name(c, frm)}-{square_name(c, to)}" for c, frm, to in self.steps)


Action = Decision | Roll | Capture | Move

ALL_ROLLS: tuple[tuple[Roll, Fraction], ...] = tuple(
    (Roll(a, b), Fraction(1 if a == b else 2, 36)) for a in range(1, 7) for b in range(a, 7)
)
#: the roll two dice make, in either order: ``ROLL_OF[a, b]``, one object per roll
ROLL_OF: dict[tuple[int, int], Roll] = {
    (a, b): roll for roll, _ in ALL_ROLLS for a, b in ((roll.low, roll.high), (roll.high, roll.low))
}


# -- move generation ------------------------------------------------------------


def destination(row: int, die: int, up: bool) -> int:
    """Where a coin on ``row`` lands after ``die`` squares up or down: it stops at
    the edge if the count would carry it past (no bouncing back)."""
    return min(SIZE - 1, row + die) if up else max(0, row - die)


def _reach(row: int, die: int) -> list[tuple[int, int]]:
    """(destination, squares moved) of a coin on ``row`` moving ``die`` up and down,
    leaving out a direction in which it cannot move at all."""
    out = []
    for to in (destination(row, die, True), destination(row, die, False)):
        if to != row:
            out.append((to, abs(to - row)))
    return out


def move_candidates(board: Board, seat: int, roll: Roll) -> dict[Move, int]:
    """Every way to move ``roll`` with ``seat``'s coins, legal or not, with the
    squares each moves: one coin by the total, two different coins by one die
    each, or (moving only part of the roll) one coin by one die; each coin up or
    down, stopping at the edge.

    >>> sorted(str(m) for m in move_candidates(START_BOARD, 1, Roll(1, 1)))
    ['a7-a5', 'a7-a6', 'a7-a6 b7-b6', 'b7-b5', 'b7-b6']
    """
    found: dict[tuple[Step, ...], int] = {}
    for steps, pips in _candidate_steps(own_coins(board, seat), roll, partial=True):
        found.setdefault(steps, pips)
    return {Move(steps): pips for steps, pips in found.items()}


def own_coins(board: Board, seat: int) -> tuple[tuple[int, int], ...]:
    """(column, row) of each of ``seat``'s coins: all that his moves depend on."""
    return tuple(
        (c, coin.row) for c, coin in enumerate(board) if coin is not None and coin.owner == seat
    )


def _candidate_steps(
    own: Sequence[tuple[int, int]], roll: Roll, *, partial: bool
) -> list[tuple[tuple[Step, ...], int]]:
    dice = {roll.total, roll.low, roll.high}
    reach = {(row, die): _reach(row, die) for _, row in own for die in dice}
    out: list[tuple[tuple[Step, ...], int]] = []
    for c, row in own:
        for die in dice if partial else (roll.total,):
            out += [(((c, row, to),), pips) for to, pips in reach[row, die]]
    orders = [(roll.low, roll.high)]
    if roll.low != roll.high:
        orders.append((roll.high, roll.low))
    for i, (c1, r1) in enumerate(own):
        for c2, r2 in own[i + 1 :]:
            for d1, d2 in orders:
                for t1, p1 in reach[r1, d1]:
                    for t2, p2 in reach[r2, d2]:
                        out.append((((c1, r1, t1), (c2, r2, t2)), p1 + p2))
    return out


def legal_moves(board: Board, seat: int, roll: Roll) -> list[Move]:
    """The legal plays of ``roll``: those that move as many squares as possible (the
    full roll whenever some play can), sorted by their text. Empty if ``seat`` has
    no coin on the board.

    >>> [str(m) for m in legal_moves(START_BOARD, 0, Roll(1, 2))][:3]
    ['c1-c2 d1-d3', 'c1-c2 e1-e3', 'c1-c2 f1-f3']
    """
    return list(moves_of(own_coins(board, seat), roll.low, roll.high))


def moves_of(own: tuple[tuple[int, int], ...], low: int, high: int) -> LegalMoves:
    """``legal_moves`` of the coins ``own`` ((column, row) each) and the roll
    ``low``-``high``, as a lazy ``LegalMoves``. Not memoised: positions seldom recur
    in a game, and a large table of moves costs more in garbage collection than it
    saves.

    The candidates are those of ``_candidate_steps(own, roll, partial=False)``; only
    the ones that move the most squares are kept, and each pair of rows is looked up
    in ``_pair_moves`` instead of walked again.
    """
    total = low + high
    best = 0
    found: list[tuple[Step, ...]] = []
    for c, row in own:
        for to, pips in _REACH[row][total]:
            if pips >= best:
                if pips > best:
                    best, found = pips, []
                found.append(((c, row, to),))
    for i, (c1, r1) in enumerate(own):
        for c2, r2 in own[i + 1 :]:
            pips, targets = _pair_moves(r1, r2, low, high)
            if pips >= best:
                if pips > best:
                    best, found = pips, []
                found += [((c1, r1, t1), (c2, r2, t2)) for t1, t2 in targets]
    return LegalMoves(tuple(sorted(set(found))))


@cache
def _pair_moves(r1: int, r2: int, low: int, high: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The most squares two coins on rows ``r1`` and ``r2`` move with one die each of
    ``low``-``high`` (either die to either coin, each up or down), and the
    destinations ``(t1, t2)`` that move that many (7 x 7 x 21 entries at most)."""
    orders = ((low, high),) if low == high else ((low, high), (high, low))
    best = 0
    found: list[tuple[int, int]] = []
    for d1, d2 in orders:
        for t1, p1 in _REACH[r1][d1]:
            for t2, p2 in _REACH[r2][d2]:
                if p1 + p2 >= best:
                    if p1 + p2 > best:
                        best, found = p1 + p2, []
                    found.append((t1, t2))
    return best, tuple(found)


class LegalMoves(Sequence[Move]):
    """The legal moves of a roll: an immutable sequence of ``Move`` made from their
    steps only when looked at (a player picks one of them; most are never read).

    Equal to a list of the same moves, in the same order; ``in`` and ``index`` find
    a move by its steps.
    """

    __slots__ = ("_items", "_keys", "_steps")

    def __init__(self, steps: tuple[tuple[Step, ...], ...]) -> None:
        self._steps = steps
        self._items: list[Move | None] = [None] * len(steps)
        self._keys: dict[tuple[Step, ...], int] | None = None

    def __len__(self) -> int:
        return len(self._steps)

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._steps)))]
        move = self._items[i]
        if move is None:
            move = Move(self._steps[i])
            self._items[i] = move
        return move

    def find(self, move: object) -> int | None:
        """The index of ``move`` (by identity, else by its steps), or None."""
        for j, made in enumerate(self._items):
            if made is move:
                return j
        if not isinstance(move, Move):
            return None
        if self._keys is None:
            self._keys = {steps: j for j, steps in enumerate(self._steps)}
        return self._keys.get(move.steps)

    def __contains__(self, value: object) -> bool:
        return self.find(value) is not None

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        found = self.find(value)
        if found is not None and start <= found < (len(self) if stop is None else stop):
            return found
        raise ValueError(f"{value!r} is not one of the legal moves")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


#: ``_REACH[row][die]``: ``_reach(row, die)`` for every row and every die or total
_REACH: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple(_reach(row, die)) for die in range(13)) for row in range(SIZE)
)


def apply_move(board: Board, move: Move) -> Board:
    """The board after ``move`` (not checked for legality)."""
    cells = list(board)
    for column, _, to in move.steps:
        coin = cells[column]
        assert coin is not None
        cells[column] = Coin(to, coin.owner)
    return tuple(cells)


def row_runs(columns: Sequence[int]) -> list[tuple[int, ...]]:
    """Split sorted column numbers into runs of neighbours.

    >>> row_runs([0, 1, 3, 4, 5])
    [(0, 1), (3, 4, 5)]
    """
    runs: list[list[int]] = []
    for c in columns:
        if runs and runs[-1][-1] == c - 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    return [tuple(r) for r in runs]


def coins_in_row(board: Board, row: int) -> tuple[int, ...]:
    """Columns holding a coin in ``row``."""
    return tuple(c for c, coin in enumerate(board) if coin is not None and coin.row == row)


def capture_options(board: Board, rule: str) -> list[Capture]:
    """Every capture allowed on ``board`` under the ``row`` or ``adjacent`` rule."""
    return list(captures_of(rows_of(board), rule))


def rows_of(board: Board) -> tuple[int, ...]:
    """The row of the coin in each column (-1 for an empty column): all that the
    captures depend on."""
    return tuple(-1 if coin is None else coin.row for coin in board)


def captures_of(rows: tuple[int, ...], rule: str) -> tuple[Capture, ...]:
    """``capture_options`` of a board given by ``rows_of``."""
    out = []
    by_row: list[list[int]] = [[] for _ in range(SIZE)]
    for c, r in enumerate(rows):
        if r >= 0:
            by_row[r].append(c)
    for row in CAPTURE_ROWS:
        columns = tuple(by_row[row])
        if rule == "adjacent":
            out += [Capture(row, run) for run in row_runs(columns) if len(run) >= 2]
        elif len(columns) >= 2:
            out.append(Capture(row, columns))
    return tuple(out)


class Phase(Enum):
    """Where in a turn a state is (Phase C, the refill, needs no decision)."""

    A = "A"
    DICE = "dice"
    B = "B"
    OVER = "over"


class Ending(Enum):
    """Why a game ended."""

    BROKE = "broke"
    LEFT = "left"
    TURN_LIMIT = "turn limit"
