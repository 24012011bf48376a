"""The five White Die challenges as pure scoring functions, usable on their own.

Each challenge has one small family of functions: a ``*_score`` that says how many
points four coloured dice make, and helpers that show *why* (the hand's name, the
sets, the matches, the square). Dice are given as any sequence of faces 1..6; the
order never matters unless a function says so.

The seed's own examples:

>>> pips_score((5, 5, 5, 5))        # four fives in the pips square
0
>>> sixes_score((2, 4, 4, 1))       # a 2 with two 4s makes two sixes
2
>>> sixes_score((3, 3, 3, 3))       # four 3s make six
6
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, permutations, product

Dice = tuple[int, ...]

CHALLENGES: dict[int, str] = {
    2: "Poker",
    3: "Tic-tac-toe",
    4: "Matching",
    5: "Pips",
    6: "Sixes",
}
"""The challenge each white die (2..6) calls for."""


def _check(dice: Iterable[int], count: int | None = 4) -> Dice:
    out = tuple(sorted(int(d) for d in dice))
    if count is not None and len(out) != count:
        raise ValueError(f"expected {count} dice, got {len(out)}")
    if any(not 1 <= d <= 6 for d in out):
        raise ValueError(f"die faces must be 1..6, got {out}")
    return out


# ---------------------------------------------------------------------------
# 2: Poker
# ---------------------------------------------------------------------------

POKER_HANDS = ("four of a kind", "straight", "three of a kind", "two pairs", "one pair", "nothing")
"""Poker hands from best to worst; the chart gives each one its points."""

POKER_CHARTS: dict[str, dict[str, int]] = {
    "standard": {
        "four of a kind": 6,
        "straight": 4,
        "three of a kind": 3,
        "two pairs": 2,
        "one pair": 1,
        "nothing": 0,
    },
    "no-straights": {
        "four of a kind": 6,
        "straight": 0,
        "three of a kind": 3,
        "two pairs": 2,
        "one pair": 1,
        "nothing": 0,
    },
    "flat": {
        "four of a kind": 4,
        "straight": 3,
        "three of a kind": 3,
        "two pairs": 2,
        "one pair": 1,
        "nothing": 0,
    },
}
"""Named poker charts (the seed's own chart is missing; ``standard`` is ours)."""


def poker_hand(dice: Sequence[int]) -> str:
    """The poker hand four dice make: one of ``POKER_HANDS``.

    A straight is four consecutive faces (1-2-3-4, 2-3-4-5 or 3-4-5-6).

    >>> poker_hand((6, 6, 6, 6)), poker_hand((4, 2, 3, 5)), poker_hand((2, 2, 5, 5))
    ('four of a kind', 'straight', 'two pairs')
    >>> poker_hand((1, 3, 5, 5)), poker_hand((1, 2, 4, 6))
    ('one pair', 'nothing')
    """
    d = _check(dice)
    counts = sorted(Counter(d).values(), reverse=True)
    if counts[0] == 4:
        return "four of a kind"
    if counts[0] == 1 and d[3] - d[0] == 3:
        return "straight"
    if counts[0] == 3:
        return "three of a kind"
    if counts[:2] == [2, 2]:
        return "two pairs"
    if counts[0] == 2:
        return "one pair"
    return "nothing"


def poker_score(dice: Sequence[int], chart: str = "standard") -> int:
    """Points four dice score in the Poker challenge under the named ``chart``.

    >>> poker_score((3, 3, 3, 3)), poker_score((3, 4, 5, 6)), poker_score((1, 1, 1, 4))
    (6, 4, 3)
    >>> poker_score((3, 4, 5, 6), chart="no-straights")
    0
    """
    if chart not in POKER_CHARTS:
        raise ValueError(f"unknown poker chart {chart!r}; charts: {', '.join(POKER_CHARTS)}")
    return POKER_CHARTS[chart][poker_hand(dice)]


# ---------------------------------------------------------------------------
# 3: Tic-tac-toe
# ---------------------------------------------------------------------------

CENTRE = 4
"""Index of the centre square (b2), where the player's white 3 goes."""

SQUARES = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
"""Square names by index: columns a-c left to right, rows 1-3 top to bottom."""

CLAIMED = 7
"""Grid mark of an empty square claimed at the end (``+7`` player, ``-7`` opponent)."""

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip
"""The eight lines of three."""

BLOCKS: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 3, 4),
    (1, 2, 4, 5),
    (3, 4, 6, 7),
    (4, 5, 7, 8),
)
"""The four 2x2 blocks."""

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        r * 3 + c
        for r, c in ((i // 3 - 1, i % 3), (i // 3 + 1, i % 3), (i // 3, i % 3 - 1),
                     (i // 3, i % 3 + 1))
        if 0 <= r < 3 and 0 <= c < 3
    )
    for i in range(9)
)  # fmt: skip
"""Orthogonal neighbours of each square."""

Grid = tuple[int, ...]
"""Nine squares: 0 empty, +v the player's die v (the white 3 included), -v the
opponent's die v, ``+CLAIMED``/``-CLAIMED`` a square claimed at the end."""

EMPTY_GRID: Grid = (0, 0, 0, 0, 3, 0, 0, 0, 0)
"""The grid at the start of the challenge: the player's white 3 in the centre."""


def square_index(name: str) -> int:
    """The index of a square name such as ``b1`` (``1b`` is accepted too).

    >>> square_index("b2"), square_index("C3")
    (4, 8)
    """
    text = name.strip().lower()
    if len(text) == 2 and text[0].isdigit():
        text = text[::-1]
    if text not in SQUARES:
        raise ValueError(f"no square {name!r}; squares are a1..c3 (column a-c, row 1-3)")
    return SQUARES.index(text)


def fits(value: int, neighbour: int, *, player: bool) -> bool:
    """True if a die ``value`` may go next to a die showing ``neighbour``.

    The player's die must be equal, one above or one below; the opponent's must be
    one above or one below, never equal. 6 and 1 are neighbours (the 6-1 wrap).

    >>> fits(1, 6, player=False), fits(6, 1, player=True), fits(3, 3, player=False)
    (True, True, False)
    >>> fits(3, 3, player=True), fits(2, 4, player=True)
    (True, False)
    """
    diff = (value - neighbour) % 6
    return diff in (1, 5) or (player and diff == 0)


def can_place(grid: Grid, value: int, square: int, *, player: bool) -> bool:
    """True if ``value`` may go on ``square``: empty, next to a die, fitting one of them.

    With several neighbours one fitting neighbour is enough (the seed: next to a 2
    and a 4 anything but a 6 fits for the player).

    >>> g = (0, 2, 0, 4, 3, 0, 0, 0, 0)    # a1 is next to a 2 (b1) and a 4 (a2)
    >>> [v for v in range(1, 7) if can_place(g, v, 0, player=True)]
    [1, 2, 3, 4, 5]
    """
    if grid[square]:
        return False
    return any(grid[n] and fits(value, abs(grid[n]), player=player) for n in NEIGHBOURS[square])


def placements(grid: Grid, dice: Iterable[int], *, player: bool) -> list[tuple[int, int]]:
    """Every legal ``(value, square)`` for a side holding ``dice`` (each value once).

    >>> placements(EMPTY_GRID, (2, 6), player=False)
    [(2, 1), (2, 3), (2, 5), (2, 7)]
    """
    return list(placement_tuple(tuple(grid), tuple(sorted(set(dice))), player))


@lru_cache(maxsize=1 << 16)
def placement_tuple(grid: Grid, values: Dice, player: bool) -> tuple[tuple[int, int], ...]:
    """``placements`` for a grid tuple and the sorted distinct ``values`` held, cached.

    A game asks for the same (grid, dice) several times: each side, and again after
    a pass; the cache is bounded (grids are many, but each entry is small).
    """
    # what can_place decides for each (value, square): a square takes the values
    # that fit one of its neighbours, a bit mask per neighbour's face
    fit = _FIT_SIGNED[player]  # indexed by the neighbour's cell + 7 (empty cells fit nothing)
    masks = [0] * 9
    for sq in range(9):
        if not grid[sq]:
            m = 0
            for n in NEIGHBOURS[sq]:
                m |= fit[grid[n] + 7]
            masks[sq] = m
    return tuple((v, sq) for v in values for sq in _NINE if masks[sq] >> v & 1)


#: for the player (True) and the opponent (False): for each neighbour's face 0..7
#: (7: a claimed square), the bit mask of the values 1..6 that ``fits`` it
_FIT_MASKS: dict[bool, tuple[int, ...]] = {
    side: tuple(sum(1 << v for v in range(1, 7) if m and fits(v, m, player=side)) for m in range(8))
    for side in (True, False)
}
#: the same by the signed cell value -7..7 (index cell + 7: the player's, empty, the opponent's)
_FIT_SIGNED: dict[bool, tuple[int, ...]] = {
    side: tuple(_FIT_MASKS[side][abs(c)] for c in range(-7, 8)) for side in (True, False)
}
_NINE = range(9)


def claim(grid: Grid, player_dice_left: int) -> Grid:
    """The grid once neither side can place: the player claims the empty squares if
    he has placed all his dice, otherwise the opponent claims them.

    >>> claim((1, 0, 0, 0, 3, 0, 0, 0, 0), 0)[1]
    7
    >>> claim((1, 0, 0, 0, 3, 0, 0, 0, 0), 2)[1]
    -7
    """
    mark = CLAIMED if player_dice_left == 0 else -CLAIMED
    return tuple(c if c else mark for c in grid)


def tictactoe_lines(grid: Grid) -> list[tuple[int, ...]]:
    """The lines of three and 2x2 blocks made only of the player's squares.

    >>> tictactoe_lines((7, 7, 7, -7, 3, -7, -7, -7, -7))
    [(0, 1, 2)]
    """
    mine = [c > 0 for c in grid]
    found: list[tuple[int, ...]] = [ln for ln in LINES if all(mine[i] for i in ln)]
    found += [b for b in BLOCKS if all(mine[i] for i in b)]
    return found


def tictactoe_score(grid: Grid) -> int:
    """The player's points for a finished grid: one per line of three (rows, columns,
    diagonals) and one per 2x2 block made only of his squares (the white die and
    claimed squares included).

    >>> tictactoe_score((7,) * 4 + (3,) + (7,) * 4)    # the whole grid: 8 lines, 4 blocks
    12
    >>> tictactoe_score((2, 3, -4, 4, 3, -2, -5, -1, 0))   # top-left block, no line
    1
    """
    mask = 0
    for i, c in enumerate(grid):
        if c > 0:
            mask |= 1 << i
    return _MASK_SCORES[mask]


def _mask_score(mask: int) -> int:
    owned = [mask >> i & 1 for i in range(9)]
    return sum(all(owned[i] for i in shape) for shape in (*LINES, *BLOCKS))


#: the score of every set of the player's squares (a 9-bit mask, square i is bit i)
_MASK_SCORES: tuple[int, ...] = tuple(_mask_score(m) for m in range(512))


# ---------------------------------------------------------------------------
# 4: Matching
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One match: some of the player's dice and some of the opponent's with equal totals."""

    mine: Dice
    theirs: Dice

    def __str__(self) -> str:
        left = "+".join(map(str, self.mine))
        right = "+".join(map(str, self.theirs))
        return f"{left} = {right}"


@cache
def _subsets(dice: Dice) -> tuple[tuple[Dice, Dice], ...]:
    """Each distinct non-empty sub-multiset of sorted ``dice`` with the rest (made
    once per hand: the matching search asks for the same hands very often)."""
    seen: set[Dice] = set()
    out: list[tuple[Dice, Dice]] = []
    n = len(dice)
    for mask in range(1, 1 << n):
        part = tuple(dice[i] for i in range(n) if mask >> i & 1)
        if part in seen:
            continue
        seen.add(part)
        rest = tuple(dice[i] for i in range(n) if not mask >> i & 1)
        out.append((part, rest))
    return tuple(out)


@cache
def _best_matches(mine: Dice, theirs: Dice, use_all: bool) -> tuple[Match, ...] | None:
    """Most matches among ``mine`` and ``theirs``; with ``use_all`` every die of
    ``mine`` must be matched (None if impossible)."""
    if not mine:
        return ()
    first, others = mine[0], mine[1:]
    best: tuple[Match, ...] | None = None
    if not use_all:
        best = _best_matches(others, theirs, False)
    # the lowest of my dice joins a match with some of my other dice
    for extra, rest_mine in [((), others), *_subsets(others)]:
        group = (first, *extra)
        total = sum(group)
        for part, rest_theirs in _subsets(theirs):
            if sum(part) != total:
                continue
            tail = _best_matches(rest_mine, rest_theirs, use_all)
            if tail is None:
                continue
            found = (Match(group, part), *tail)
            if best is None or len(found) > len(best):
                best = found
    return best


def best_matches(mine: Sequence[int], theirs: Sequence[int]) -> tuple[Match, ...]:
    """Disjoint matches with the highest score (matches plus the all-four bonus).

    >>> [str(m) for m in best_matches((4, 5, 1, 1), (3, 6, 2, 6))]
    ['1+1 = 2', '4+5 = 3+6']
    """
    a, b = _check(mine), _check(theirs)
    free = _best_matches(a, b, False) or ()
    full = _best_matches(a, b, True)
    if full is not None and len(full) + 1 > len(free):
        return full
    return free


def matching_score(mine: Sequence[int], theirs: Sequence[int]) -> int:
    """The player's points: the largest number of disjoint matches, where a match
    pairs one or more of his dice with one or more of the opponent's dice of the
    same total, plus one when all four of his dice are in matches.

    >>> matching_score((4, 6, 6, 6), (1, 3, 2, 2))   # 4 = 1+3 only
    1
    >>> matching_score((4, 5, 2, 2), (3, 6, 4, 6))   # 4 = 4, 5+2+2 = 3+6 and the bonus
    3
    >>> matching_score((2, 2, 2, 2), (2, 2, 2, 2))   # four single matches and the bonus
    5
    """
    return _matching_points(_check(mine), _check(theirs))


#: every sorted hand of four dice, in the order of the matching table
HANDS: tuple[Dice, ...] = tuple(combinations_with_replacement(range(1, 7), 4))


def matching_points_table() -> str:
    """``matching_score`` of every pair of sorted hands, one digit per pair: the digit
    at ``126 * i + j`` is the score of ``HANDS[i]`` against ``HANDS[j]``.

    The search takes about a second for all 15,876 pairs, so the rules read the table
    from ``matching_table.py``, which this makes (a test checks it)::

        python -c "from dicehall.games.whitedie.challenges import write_matching_table
        write_matching_table()"
    """
    return "".join(str(_matching_points(a, b)) for a in HANDS for b in HANDS)


def write_matching_table() -> None:
    """Write ``matching_table.py`` next to this module (see ``matching_points_table``)."""
    from pathlib import Path

    table = matching_points_table()
    rows = "\n".join(f'    "{table[i : i + 84]}"' for i in range(0, len(table), 84))
    text = (
        '"""The Matching points of every pair of sorted hands (``challenges.HANDS``), one\n'
        "digit per pair, made by ``challenges.write_matching_table()`` (do not edit).\n"
        '"""\n\nPOINTS = (\n' + rows + "\n)\n"
    )
    Path(__file__).with_name("matching_table.py").write_text(text, encoding="utf-8")


@cache
def _matching_points(mine: Dice, theirs: Dice) -> int:
    # one entry per pair of sorted hands (at most 126 * 126)
    matches = best_matches(mine, theirs)
    used = sum(len(m.mine) for m in matches)
    return len(matches) + (1 if used == 4 else 0)


# ---------------------------------------------------------------------------
# 5: Pips
# ---------------------------------------------------------------------------

PIP_LAYOUTS: dict[int, tuple[tuple[str, ...], ...]] = {
    1: (("...", ".o.", "..."),),
    2: (("o..", "...", "..o"), ("..o", "...", "o..")),
    3: (("o..", ".o.", "..o"), ("..o", ".o.", "o..")),
    4: (("o.o", "...", "o.o"),),
    5: (("o.o", ".o.", "o.o"),),
    6: (("o.o", "o.o", "o.o"), ("ooo", "...", "ooo")),
}
"""Each face's pip layouts on its 3x3 positions; 2, 3 and 6 have a turned layout."""


@dataclass(frozen=True)
class PipSquare:
    """An arrangement of four dice in a 2x2 square: ``faces`` top-left, top-right,
    bottom-left, bottom-right and the layout (0 upright, 1 turned) of each."""

    faces: Dice
    turns: Dice

    def rows(self) -> list[str]:
        """The six rows of the square, ``o`` a pip, ``.`` an empty position."""
        lay = [PIP_LAYOUTS[f][t] for f, t in zip(self.faces, self.turns, strict=True)]
        return [lay[0][r] + lay[1][r] for r in range(3)] + [lay[2][r] + lay[3][r] for r in range(3)]

    def empty_rows(self) -> list[int]:
        """Indices (0..5, top down) of rows without a pip."""
        return [i for i, row in enumerate(self.rows()) if "o" not in row]

    def empty_columns(self) -> list[int]:
        """Indices (0..5, left to right) of columns without a pip."""
        rows = self.rows()
        return [c for c in range(6) if all(row[c] == "." for row in rows)]

    def score(self) -> int:
        """Empty rows plus empty columns."""
        return len(self.empty_rows()) + len(self.empty_columns())

    def __str__(self) -> str:
        return "\n".join(" ".join(row) for row in self.rows())


def _best_square(dice: Dice) -> PipSquare:
    """The first square (in the search order of ``_pip_squares``) with the most points."""
    return next(iter(_pip_squares(dice).values()))


def _used(layout: tuple[str, ...]) -> tuple[int, int]:
    """Bit masks of the rows and of the columns (0..2) of a 3x3 layout that hold a pip."""
    rows = sum(1 << r for r in range(3) if "o" in layout[r])
    cols = sum(1 << c for c in range(3) if any(layout[r][c] == "o" for r in range(3)))
    return rows, cols


#: ``_USED[face][turn]``: the rows and columns each layout uses (what a square's score needs)
_USED: dict[int, tuple[tuple[int, int], ...]] = {
    face: tuple(_used(layout) for layout in layouts) for face, layouts in PIP_LAYOUTS.items()
}
_EMPTY = tuple(3 - bin(m).count("1") for m in range(8))  # empty lines of a 3-bit mask


def _square_score(order: Dice, turns: tuple[int, ...]) -> int:
    """``PipSquare(order, turns).score()`` from the layouts' masks: dice 0 and 1 share the
    top rows, 2 and 3 the bottom ones; 0 and 2 the left columns, 1 and 3 the right ones."""
    (r0, c0), (r1, c1), (r2, c2), (r3, c3) = (
        _USED[f][t] for f, t in zip(order, turns, strict=True)
    )
    return _EMPTY[r0 | r1] + _EMPTY[r2 | r3] + _EMPTY[c0 | c2] + _EMPTY[c1 | c3]


def best_pip_square(dice: Sequence[int]) -> PipSquare:
    """The arrangement of four dice (positions and turns) with the most empty rows and
    columns.

    >>> square = best_pip_square((6, 6, 1, 1))   # the 6s are turned: two full rows each
    >>> print(square)
    . . . . . .
    . o . . o .
    . . . . . .
    o o o o o o
    . . . . . .
    o o o o o o
    >>> square.faces, square.turns, square.empty_rows(), square.score()
    ((1, 1, 6, 6), (0, 0, 1, 1), [0, 2, 4], 3)
    """
    return _best_square(_check(dice))


@cache
def _pip_squares(dice: Dice) -> dict[int, PipSquare]:
    """For each score some arrangement of ``dice`` reaches, the first such square (in
    the order of ``_best_square``'s search), highest score first."""
    found: dict[int, PipSquare] = {}
    for order in dict.fromkeys(permutations(dice)):
        choices = [range(len(PIP_LAYOUTS[f])) for f in order]
        for turns in product(*choices):
            score = _square_score(order, turns)
            if score not in found:
                found[score] = PipSquare(tuple(order), tuple(turns))
    return {s: found[s] for s in sorted(found, reverse=True)}


def pip_scores(dice: Sequence[int]) -> tuple[int, ...]:
    """Every score an arrangement of the four dice can have, highest first: what a
    player free to arrange his square (the seed: *"in any way"*) can take.

    >>> pip_scores((6, 6, 1, 1)), pip_scores((1, 1, 1, 1))
    ((3, 2, 0), (8,))
    """
    return tuple(_pip_squares(_check(dice)))


def pip_square(dice: Sequence[int], points: int) -> PipSquare:
    """An arrangement of the four dice that scores exactly ``points`` (the best square
    when that is its score).

    >>> print(pip_square((6, 6, 1, 1), 0))
    . . . o . o
    . o . o . o
    . . . o . o
    o . o . . .
    o . o . o .
    o . o . . .

    :raises ValueError: if no arrangement of these dice scores ``points``.
    """
    squares = _pip_squares(_check(dice))
    if points not in squares:
        allowed = ", ".join(map(str, squares))
        raise ValueError(f"no arrangement of {tuple(dice)} scores {points}; it can score {allowed}")
    return squares[points]


def pips_score(dice: Sequence[int]) -> int:
    """Points in the Pips challenge: empty rows plus empty columns of the best 2x2
    square (six rows and six columns of pip positions, three per die).

    >>> pips_score((5, 5, 5, 5)), pips_score((1, 1, 1, 1)), pips_score((6, 6, 6, 6))
    (0, 8, 2)
    """
    return best_pip_square(dice).score()


# ---------------------------------------------------------------------------
# 6: Sixes
# ---------------------------------------------------------------------------


def sixes_sets(dice: Sequence[int]) -> list[Dice]:
    """Every set of one or more dice (by position, so two equal dice make two
    different sets) that adds up to six, each shown as its faces.

    >>> sixes_sets((2, 4, 4, 1))
    [(2, 4), (2, 4)]
    """
    d = _check(dice, count=None)
    return [combo for k in range(1, len(d) + 1) for combo in combinations(d, k) if sum(combo) == 6]


def sixes_score(dice: Sequence[int]) -> int:
    """Points in the Sixes challenge: the number of distinct sets of dice adding up to
    six (a die may belong to several sets).

    >>> sixes_score((6, 6, 6, 6)), sixes_score((1, 5, 1, 5)), sixes_score((1, 1, 1, 2))
    (4, 4, 0)
    """
    return len(sixes_sets(_check(dice)))


# ---------------------------------------------------------------------------


def challenge_score(white: int, dice: Sequence[int], chart: str = "standard") -> int:
    """Points of the stand/reroll challenges (white 2, 5 or 6) for four dice.

    >>> challenge_score(6, (3, 3, 3, 3)), challenge_score(2, (3, 3, 3, 3))
    (6, 6)
    """
    if white == 2:
        return poker_score(dice, chart)
    if white == 5:
        return pips_score(dice)
    if white == 6:
        return sixes_score(dice)
    raise ValueError(f"white {white} is not a stand-or-reroll challenge (2, 5 or 6)")
