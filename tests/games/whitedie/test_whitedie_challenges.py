"""The five scoring functions on hand-checked cases, edge cases and random rolls."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicehall.games.whitedie.challenges import (
    EMPTY_GRID,
    best_matches,
    best_pip_square,
    can_place,
    claim,
    fits,
    matching_score,
    pips_score,
    placements,
    poker_hand,
    poker_score,
    sixes_score,
    square_index,
    tictactoe_score,
)

four_dice = st.lists(st.integers(1, 6), min_size=4, max_size=4)


# -- poker ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "hand", "points"),
    [
        ((6, 6, 6, 6), "four of a kind", 6),
        ((1, 2, 3, 4), "straight", 4),
        ((5, 3, 4, 2), "straight", 4),
        ((6, 4, 5, 3), "straight", 4),
        ((1, 2, 3, 5), "nothing", 0),
        ((2, 2, 2, 5), "three of a kind", 3),
        ((1, 1, 6, 6), "two pairs", 2),
        ((4, 1, 4, 3), "one pair", 1),
        ((1, 3, 4, 6), "nothing", 0),
    ],
)
def test_poker_chart(dice: tuple[int, ...], hand: str, points: int) -> None:
    assert poker_hand(dice) == hand
    assert poker_score(dice) == points


def test_poker_named_charts() -> None:
    assert poker_score((2, 3, 4, 5), "no-straights") == 0
    assert poker_score((2, 2, 2, 2), "flat") == 4
    with pytest.raises(ValueError, match="unknown poker chart"):
        poker_score((1, 2, 3, 4), "yahtzee")


# -- sixes ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "points"),
    [
        ((2, 4, 4, 1), 2),  # the seed: a 2 with two 4s
        ((3, 3, 3, 3), 6),  # the seed: four 3s, one per pair
        ((6, 1, 1, 1), 1),  # a single six
        ((1, 2, 3, 6), 2),  # 6 and 1+2+3
        ((1, 1, 4, 5), 3),  # 1+5 twice, 1+1+4
        ((1, 1, 1, 1), 0),
        ((2, 2, 2, 6), 2),  # 2+2+2 and 6
    ],
)
def test_sixes(dice: tuple[int, ...], points: int) -> None:
    assert sixes_score(dice) == points


@given(four_dice)
def test_sixes_counts_subsets_by_position(dice: list[int]) -> None:
    subsets = [c for k in range(1, 5) for c in combinations(range(4), k)]
    assert sixes_score(dice) == sum(1 for c in subsets if sum(dice[i] for i in c) == 6)


# -- pips -------------------------------------------------------------------
def test_pips_four_fives_score_zero() -> None:
    square = best_pip_square((5, 5, 5, 5))
    assert square.score() == 0 == pips_score((5, 5, 5, 5))
    # the seed: pips in rows 1, 3, 4, 6 (four each) and rows 2, 5 (two each)
    counts = [row.count("o") for row in square.rows()]
    assert counts == [4, 2, 4, 4, 2, 4]


def test_pips_turning_a_six() -> None:
    # upright a 6 fills columns 1 and 3 of its die; turned it fills rows 1 and 3
    assert best_pip_square((6, 6, 1, 1)).score() == 3
    square = best_pip_square((6, 6, 1, 1))
    assert square.turns[square.faces.index(6)] == 1
    # four 6s: only turning some of them leaves any line empty
    assert pips_score((6, 6, 6, 6)) == 2
    # 1, 4 and 5 have one layout; 2 and 3 turned still use rows and columns 1 and 3
    assert pips_score((2, 2, 2, 2)) == 4
    assert pips_score((1, 1, 1, 1)) == 8
    assert pips_score((1, 1, 4, 4)) == 3  # rows 1, 3 (the 1s) and 5 (the 4s)


def test_pips_three_points_like_the_seed() -> None:
    # the seed's second diagram scores two empty columns and one empty row
    square = best_pip_square((1, 6, 1, 6))
    assert square.score() == 3


@given(four_dice)
def test_pips_ignores_order(dice: list[int]) -> None:
    scores = {pips_score(p) for p in permutations(dice)}
    assert len(scores) == 1
    assert 0 <= scores.pop() <= 8


# -- matching ---------------------------------------------------------------
def _brute_matching(mine: tuple[int, ...], theirs: tuple[int, ...]) -> int:
    """Independent check: label every die with a match number 1..4 (0 = unused); a
    labelling of both sides is valid when each used label has equal totals."""
    from itertools import product

    def signature(dice: tuple[int, ...], labels: tuple[int, ...]) -> frozenset[tuple[int, int]]:
        return frozenset(
            (k, sum(d for d, g in zip(dice, labels, strict=True) if g == k))
            for k in set(labels) - {0}
        )

    theirs_sigs = {signature(theirs, labels) for labels in product(range(5), repeat=4)}
    best = 0
    for labels in product(range(5), repeat=4):
        sig = signature(mine, labels)
        if sig in theirs_sigs:
            best = max(best, len(sig) + (1 if 0 not in labels else 0))
    return best


@pytest.mark.parametrize(
    ("mine", "theirs", "points"),
    [
        ((4, 5, 1, 1), (3, 6, 6, 6), 1),  # two dice against two dice: 4+5 = 3+6
        ((4, 5, 6, 6), (3, 6, 1, 1), 2),  # 6 = 6, 4+5 = 3+6; a 6 left over
        ((2, 2, 2, 2), (4, 4, 1, 1), 3),  # 2+2 = 4 twice and the all-four bonus
        ((2, 2, 2, 2), (2, 2, 2, 2), 5),  # four singles and the bonus
        ((6, 6, 6, 6), (1, 1, 1, 2), 0),  # nothing matches
        ((4, 6, 6, 6), (1, 3, 2, 2), 1),  # the player's 4 with the opponent's 1 and 3
        ((1, 3, 6, 6), (4, 5, 5, 5), 1),  # two of mine against one of theirs
    ],
)
def test_matching(mine: tuple[int, ...], theirs: tuple[int, ...], points: int) -> None:
    assert matching_score(mine, theirs) == points
    assert _brute_matching(mine, theirs) == points


def test_matching_bonus_can_beat_more_matches() -> None:
    # 1=1 and 5=5 make two matches; 1+5+2+4 = 12 = 6+6... uses all four: 1 + bonus
    mine, theirs = (1, 2, 4, 5), (1, 5, 6, 6)
    assert matching_score(mine, theirs) == _brute_matching(mine, theirs)
    shown = best_matches(mine, theirs)
    assert sum(len(m.mine) for m in shown) + len(shown) >= 1


@given(four_dice, four_dice)
def test_matching_agrees_with_brute_force(mine: list[int], theirs: list[int]) -> None:
    assert matching_score(mine, theirs) == _brute_matching(tuple(mine), tuple(theirs))


# -- tic-tac-toe ------------------------------------------------------------
def test_fits_and_the_six_one_wrap() -> None:
    assert fits(1, 6, player=True) and fits(6, 1, player=True)
    assert fits(1, 6, player=False) and fits(6, 1, player=False)
    assert fits(4, 4, player=True) and not fits(4, 4, player=False)
    assert not fits(1, 3, player=True) and not fits(5, 1, player=False)


def test_placement_needs_an_orthogonal_neighbour() -> None:
    # corners touch the centre only diagonally
    assert not can_place(EMPTY_GRID, 3, square_index("a1"), player=True)
    assert can_place(EMPTY_GRID, 3, square_index("b1"), player=True)
    assert not can_place(EMPTY_GRID, 3, square_index("b1"), player=False)
    assert [sq for _, sq in placements(EMPTY_GRID, (4,), player=False)] == [1, 3, 5, 7]
    # one fitting neighbour of several is enough: next to a 2 and a 4, all but 6
    grid = (0, 2, 0, -4, 3, 0, 0, 0, 0)
    assert [v for v in range(1, 7) if can_place(grid, v, 0, player=True)] == [1, 2, 3, 4, 5]
    assert [v for v in range(1, 7) if can_place(grid, v, 0, player=False)] == [1, 3, 5]


def test_claims_and_scores() -> None:
    grid = (0, 3, 0, 3, 3, 3, 0, 3, 0)
    assert tictactoe_score(claim(grid, 0)) == 12  # player placed all: claims the corners
    assert tictactoe_score(claim(grid, 1)) == 2  # opponent claims: row 2 and column b
    assert tictactoe_score((4, 3, 2, -2, 3, -4, -5, -1, -6)) == 1  # block a1-b2
    assert tictactoe_score((2, -2, 4, -4, 3, -4, 4, -2, 2)) == 2  # both diagonals


def test_every_arrangement_is_scored_by_its_rows_and_columns() -> None:
    # the fast score from the layouts' masks equals the drawn square's, for every
    # placement and turn of every hand, and the best square is the first with most points
    from itertools import combinations_with_replacement, permutations, product

    from dicehall.games.whitedie.challenges import (
        PIP_LAYOUTS,
        PipSquare,
        _square_score,
        best_pip_square,
        pip_scores,
    )

    for dice in combinations_with_replacement(range(1, 7), 4):
        best = None
        scores = set()
        for order in dict.fromkeys(permutations(dice)):
            for turns in product(*(range(len(PIP_LAYOUTS[f])) for f in order)):
                square = PipSquare(order, turns)
                assert _square_score(order, turns) == square.score()
                scores.add(square.score())
                if best is None or square.score() > best.score():
                    best = square
        assert best_pip_square(dice) == best
        assert pip_scores(dice) == tuple(sorted(scores, reverse=True))


def test_the_tictactoe_score_table_counts_the_lines_of_every_grid() -> None:
    # the score read from the table of owned-square masks equals the lines counted
    from itertools import product

    from dicehall.games.whitedie.challenges import tictactoe_lines, tictactoe_score

    for cells in product((0, 7, -4), repeat=8):  # empty, claimed or owned, the opponent's
        grid = (*cells[:4], 3, *cells[4:])
        assert tictactoe_score(grid) == len(tictactoe_lines(grid))
