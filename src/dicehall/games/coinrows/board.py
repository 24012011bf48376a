"""Coin Rows' leaf module: the board, its coins and squares, the actions, the phases and
the pure move functions that rules, notation and rendering share.

It imports nothing of the game, so nothing imports back up. Rows and columns are
numbered 0..6 (texts use ``a1``..``g7``); seat 0 moves first from row 0 (``1``).

>>> square_name(2, 0), parse_square("c1"), len(legal_moves(START_BOARD, 0, Roll(2, 3)))  # 5 + 5 x 4
('c1', (2, 0), 25)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
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
    ``low``-``high``, as a lazy ``LegalMoves``: the candidates of
    ``_candidate_steps(own, roll, partial=False)`` that move the most squares.

    This is the rule as written; the protocol's hot path uses the compiled
    ``fast.move_codes``, which the tests prove equal to it.
    """
    candidates = _candidate_steps(own, ROLL_OF[low, high], partial=False)
    best = max((pips for _, pips in candidates), default=0)
    codes = sorted({move_code(steps) for steps, pips in candidates if pips == best})
    return LegalMoves(codes, best)


# -- move codes ---------------------------------------------------------------
# A move's code is ``(7 * slot1 + to1) * 344 + second``: ``slot = 7 * column + row`` of
# the (first) coin moved, ``second`` 0 for a single coin or ``1 + 7 * slot2 + to2`` for
# the second one. As a coin's column fixes its row, codes sort exactly as the steps do.
CODE_SECOND = 344


def move_code(steps: tuple[Step, ...]) -> int:
    """The code of a move by its steps, the lower column first (see above).

    >>> move_code(((2, 0, 3),)), code_steps(move_code(((2, 0, 1), (3, 0, 2))))
    (34744, ((2, 0, 1), (3, 0, 2)))
    """
    (c1, r1, t1) = steps[0]
    code = (SIZE * (SIZE * c1 + r1) + t1) * CODE_SECOND
    if len(steps) == 2:
        c2, r2, t2 = steps[1]
        code += 1 + SIZE * (SIZE * c2 + r2) + t2
    return code


def code_steps(code: int) -> tuple[Step, ...]:
    """The steps of the move with ``code`` (the inverse of ``move_code``)."""
    first, second = divmod(code, CODE_SECOND)
    s1, t1 = divmod(first, SIZE)
    step = (s1 // SIZE, s1 % SIZE, t1)
    if not second:
        return (step,)
    s2, t2 = divmod(second - 1, SIZE)
    return (step, (s2 // SIZE, s2 % SIZE, t2))


class LegalMoves(Sequence[Move]):
    """The legal moves of a roll: an immutable sequence of ``Move`` made from their
    codes only when looked at (a player picks one of them; most are never read).

    Equal to a list of the same moves, in the same order; ``in`` and ``index`` find
    a move by its steps. ``pips`` is how many squares each of them moves (the same for
    all: the rules keep only the plays that move the most).
    """

    __slots__ = ("_codes", "_items", "_last", "pips")

    def __init__(self, codes: list[int], pips: int) -> None:
        self._codes = codes
        self._items: dict[int, Move] | None = None  # the moves made so far, by code
        self._last: tuple[Move, int] | None = None
        self.pips = pips

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._codes)))]
        code = self._codes[i]  # raises IndexError as a list does
        items = self._items
        if items is None:
            items = self._items = {}
        move = items.get(code)
        if move is None:
            move = items[code] = Move(code_steps(code))
        self._last = (move, code)
        return move

    def code(self, move: object) -> int | None:
        """The code of ``move`` if it is one of these moves (by identity, else by its
        steps), or None."""
        last = self._last
        if last is not None and last[0] is move:
            return last[1]
        if not isinstance(move, Move):
            return None
        steps = move.steps
        try:
            if not 1 <= len(steps) <= 2 or not all(
                isinstance(x, int) and 0 <= x < SIZE for step in steps for x in step
            ):
                return None
            code = move_code(steps)
        except (TypeError, ValueError):  # not steps of three numbers
            return None
        i = bisect_left(self._codes, code)
        if i < len(self._codes) and self._codes[i] == code and code_steps(code) == steps:
            return code
        return None

    def find(self, move: object) -> int | None:
        """The index of ``move`` (by identity, else by its steps), or None."""
        code = self.code(move)
        return None if code is None else bisect_left(self._codes, code)

    def __contains__(self, value: object) -> bool:
        return self.code(value) is not None

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


def board_captures(board: Board, rule: str) -> tuple[Capture, ...]:
    """``capture_options`` as a tuple, the same captures in the same order: a row can
    be captured only if it holds two coins, so one pass over the coins finds the rows
    that do (most boards have none), and the captures of a row's coins are made once
    (``_ROW_CAPTURES``)."""
    seen = twice = 0
    for coin in board:
        if coin is not None:
            bit = 1 << coin[0]
            twice |= seen & bit
            seen |= bit
    twice &= _CAPTURE_ROW_BITS
    if not twice:
        return ()
    table = _ROW_CAPTURES[rule]
    out: tuple[Capture, ...] = ()
    for row in CAPTURE_ROWS:
        if twice >> row & 1:
            mask = 0
            for c, coin in enumerate(board):
                if coin is not None and coin[0] == row:
                    mask |= 1 << c
            out += table[row][mask]
    return out


_CAPTURE_ROW_BITS = sum(1 << row for row in CAPTURE_ROWS)


def _row_captures(rule: str) -> tuple[tuple[tuple[Capture, ...], ...], ...]:
    """``[row][mask]``: the captures of ``row`` holding coins in the columns of the bit
    mask ``mask`` (``captures_of`` of that row alone)."""
    return tuple(
        tuple(
            captures_of(tuple(row if mask >> c & 1 else -1 for c in range(SIZE)), rule)
            if row in CAPTURE_ROWS
            else ()
            for mask in range(1 << SIZE)
        )
        for row in range(SIZE)
    )


#: ``COIN_AT[row][owner]``: the one ``Coin`` of each kind the fast transitions use
COIN_AT = tuple(tuple(Coin(row, owner) for owner in (0, 1)) for row in range(SIZE))


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


#: ``_ROW_CAPTURES[rule][row][mask]``: see ``_row_captures`` (2 x 7 x 128 entries)
_ROW_CAPTURES = {rule: _row_captures(rule) for rule in ("row", "adjacent")}


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
