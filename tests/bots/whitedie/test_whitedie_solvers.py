"""The White Die solvers against hand-solved cases and independent brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from dicehall import load_game
from dicehall.bots.whitedie import matching, reroll, tictactoe
from dicehall.bots.whitedie.advisor import POINTS, options
from dicehall.bots.whitedie.dice import FOUR_WAYS, INDEX, MULTISETS
from dicehall.bots.whitedie.tables import load_tables
from dicehall.games.whitedie.challenges import (
    challenge_score,
    matching_score,
    tictactoe_score,
)


def brute_reroll_value(white: int, dice: tuple[int, ...], values: tuple[int, ...]) -> Fraction:
    """Average score after rerolling ``values`` once, over every ordered result."""
    kept = list(dice)
    for v in values:
        kept.remove(v)
    faces = list(product(range(1, 7), repeat=len(values)))
    total = sum(challenge_score(white, tuple(kept) + f) for f in faces)
    return Fraction(total, len(faces))


# -- poker, pips, sixes -----------------------------------------------------------
@pytest.mark.parametrize("white", [2, 5, 6])
@pytest.mark.parametrize("dice", [(1, 3, 5, 6), (2, 2, 4, 6), (5, 5, 5, 5), (1, 1, 2, 6)])
def test_last_reroll_values_match_brute_force(white: int, dice: tuple[int, ...]) -> None:
    values = dict(reroll.option_values(white, dice, 1))
    assert values["stand"] == challenge_score(white, dice)
    for text, value in values.items():
        if text != "stand":
            rerolled = tuple(int(x) for x in text.split()[1:])
            assert value == brute_reroll_value(white, dice, rerolled)


def test_standing_is_optimal() -> None:
    for white, dice in [(2, (6, 6, 6, 6)), (6, (3, 3, 3, 3)), (5, (1, 1, 1, 1))]:
        values = dict(reroll.option_values(white, dice, 2))
        best = max(values.values())
        assert values["stand"] == best == challenge_score(white, dice)
        assert all(v < best for k, v in values.items() if k != "stand")


def test_rerolling_everything_is_optimal() -> None:
    # four 5s score nothing in Pips and no kept 5 helps: reroll all four
    values = dict(reroll.option_values(5, (5, 5, 5, 5), 1))
    best = max(values, key=lambda k: values[k])
    assert best == "reroll 5 5 5 5"
    fresh = Fraction(sum(challenge_score(5, f) for f in product(range(1, 7), repeat=4)), 1296)
    assert values[best] == fresh
    assert reroll.expected_score(5, optimal=False) == fresh


def test_two_rerolls_value_is_the_best_option() -> None:
    for white in (2, 5, 6):
        for dice in MULTISETS[::11]:
            values = [v for _, v in reroll.option_values(white, dice, 2)]
            assert reroll.value(white, dice, 2) == max(values)


def test_expected_scores_are_exact_and_ordered() -> None:
    for white in (2, 5, 6):
        stand = reroll.expected_score(white, optimal=False)
        best = reroll.expected_score(white)
        assert stand == Fraction(
            sum(int(w) * s for w, s in zip(FOUR_WAYS, reroll.scores(white), strict=True)), 1296
        )
        assert best > stand
    assert reroll.expected_score(2, "no-straights") < reroll.expected_score(2)


def test_float_solver_agrees_with_the_exact_one() -> None:
    u = np.arange(13, dtype=float)
    for white in (2, 5, 6):
        sol = reroll.solve_utility(white, u)
        assert sol.start() == pytest.approx(float(reroll.expected_score(white)), abs=1e-12)


# -- tic-tac-toe --------------------------------------------------------------------
def endgame() -> object:
    s = load_game("whitedie").setup(
        [0, 0], 0, white=3, dice=[2, 3, 4, 4], opponent=1, opponent_dice=[2, 3, 4, 5]
    )
    for text in ("place 4 b3", "place 3 a2", "place 2 a3", "place 4 b1", "place 5 c1",
                 "place 2 c2"):  # fmt: skip
        s = s.apply_text(text)
    return s


def test_tictactoe_endgame_minimax() -> None:
    s = endgame()
    # a1 . | b1 [4] | c1 (5)      the opponent holds a 3, the player a 4
    # a2 [3]| b2 [3] | c2 [2]     3 on a1: the player's 4 goes on c3 -> row 2 only = 1
    # a3 (2)| b3 (4) | c3 .       3 on c3: his 4 goes on a1 -> row 2 and block a1-b2 = 2
    assert s.current_player() == 1  # type: ignore[attr-defined]
    values = {s.action_to_text(a): v for a, v in options(s, POINTS)}  # type: ignore[arg-type]
    assert values == {"place 3 a1": 1, "place 3 c3": 2}
    assert tictactoe.solve(s.grid, s.dice, s.opponent_dice, tictactoe.OPPONENT) == 1  # type: ignore[attr-defined]
    final = s.apply_text("place 3 a1").apply_text("place 4 c3")  # type: ignore[attr-defined]
    assert final.scores == (1, 0)


def _brute_minimax(grid: tuple[int, ...], mine: tuple[int, ...], theirs: tuple[int, ...],
                   side: int) -> int:  # fmt: skip
    """Plain minimax straight from the rules' placement function (no symmetry, no memo)."""
    from dicehall.games.whitedie.challenges import claim, placements

    def moves_of(s: int) -> list[tuple[int, int]]:
        return placements(grid, mine if s == 1 else theirs, player=s == 1)

    here = moves_of(side)
    if not here:
        if moves_of(1 - side):
            return _brute_minimax(grid, mine, theirs, 1 - side)
        return tictactoe_score(claim(grid, len(mine)))
    results = []
    for v, sq in here:
        g = list(grid)
        if side == 1:
            g[sq] = v
            rest = list(mine)
            rest.remove(v)
            results.append(_brute_minimax(tuple(g), tuple(rest), theirs, 0))
        else:
            g[sq] = -v
            rest = list(theirs)
            rest.remove(v)
            results.append(_brute_minimax(tuple(g), mine, tuple(rest), 1))
    return max(results) if side == 1 else min(results)


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [((3, 3, 3, 3), (1, 1, 1, 1)), ((6, 6, 6, 6), (1, 1, 1, 1)), ((1, 6, 6, 6), (2, 3, 4, 6)),
     ((4, 6, 6, 6), (1, 1, 3, 5)), ((1, 1, 1, 1), (2, 5, 6, 6)), ((1, 2, 6, 6), (1, 5, 5, 6))],
)  # fmt: skip
def test_tictactoe_table_matches_plain_minimax(
    mine: tuple[int, ...], theirs: tuple[int, ...]
) -> None:
    from dicehall.games.whitedie.challenges import EMPTY_GRID

    expected = _brute_minimax(EMPTY_GRID, mine, theirs, 0)
    assert tictactoe.initial_value(mine, theirs) == expected
    assert load_tables().tictactoe[INDEX[mine], INDEX[theirs]] == expected


def test_tictactoe_table_spot_check() -> None:
    rng = np.random.default_rng(4)
    table = load_tables().tictactoe
    for _ in range(25):
        i, j = rng.integers(126, size=2)
        assert table[i, j] == tictactoe.initial_value(MULTISETS[i], MULTISETS[j])


def test_tictactoe_ranks_follow_the_utility() -> None:
    # near the end a point can be worth less than none: here 1 point beats 2
    u = [0.1, 0.6, 0.3] + [0.9] * 10
    leaf = tictactoe.ranks(u)
    assert leaf[:3] == (0, 2, 1)
    s = endgame()
    grid, mine, theirs = s.grid, s.dice, s.opponent_dice  # type: ignore[attr-defined]
    values = tictactoe.move_values(grid, mine, theirs, tictactoe.OPPONENT, leaf)
    assert values == [(3, 0, leaf[1]), (3, 8, leaf[2])]
    # so the opponent now puts his 3 on c3, giving 2 points rather than 1
    assert tictactoe.best_move(grid, mine, theirs, tictactoe.OPPONENT, leaf=leaf)[:2] == (3, 8)
    assert tictactoe.best_move(grid, mine, theirs, tictactoe.OPPONENT)[:2] == (3, 0)


# -- matching -----------------------------------------------------------------------
def test_matching_last_reroll_worth_taking() -> None:
    mine, theirs = (2, 2, 2, 6), (2, 2, 2, 5)
    values = dict(matching.option_values(3, mine, theirs))
    assert values["stand"] == 3  # three 2 = 2, the 6 unmatched
    # a 5 makes four matches and the bonus (5), a 3 makes 2 = 2, 2 = 2, 2+3 = 5 and the
    # bonus (4); anything else leaves three
    assert values["reroll 6"] == Fraction(5 + 4 + 3 * 4, 6)
    assert values["reroll 6"] == Fraction(
        sum(matching_score((2, 2, 2, f), theirs) for f in range(1, 7)), 6
    )
    assert max(values, key=lambda k: values[k]) == "reroll 6"
    s = load_game("whitedie").setup(
        [0, 0], 0, white=4, dice=[1, 1, 1, 1], opponent=1, opponent_dice=[2, 2, 2, 5]
    )
    s = s.apply_text("reroll 1 1").apply_text("2 2").apply_text("reroll 2 2")
    assert s.parse_action("1 6")
    s = s.apply_text("2 6")
    from dicehall.bots.whitedie import Bot

    # the player now holds 1 1 2 2 against 2 2 5 6: the bot takes the best option
    values_here = dict(matching.option_values(3, s.dice, s.opponent_dice))
    best = max(values_here.values())
    chosen = s.action_to_text(Bot("greedy").act(s))
    assert values_here[chosen] == best


def test_matching_stages_are_consistent() -> None:
    rng = np.random.default_rng(2)
    for _ in range(10):
        p, o = (MULTISETS[k] for k in rng.integers(126, size=2))
        v3 = max(v for _, v in matching.option_values(3, p, o))
        assert matching.value(3, p, o) == v3
        v2 = min(v for _, v in matching.option_values(2, p, o))  # the opponent minimises
        assert matching.value(2, p, o) == v2
        v1 = max(v for _, v in matching.option_values(1, p, o))
        assert matching.value(1, p, o) == v1


def test_matching_stage_two_by_brute_force() -> None:
    p, o = (1, 2, 5, 6), (3, 3, 4, 6)
    values = dict(matching.option_values(2, p, o))
    for text, value in values.items():
        rerolled = [int(x) for x in text.split()[1:]]
        kept = list(o)
        for v in rerolled:
            kept.remove(v)
        total = Fraction(0)
        for a, b in product(range(1, 7), repeat=2):
            total += matching.value(3, p, tuple(sorted([*kept, a, b])))
        assert value == total / 36


def test_matching_table_matches_the_rules() -> None:
    table = load_tables().matching
    for i in range(0, 126, 9):
        for j in range(0, 126, 13):
            assert table[i, j] == matching_score(MULTISETS[i], MULTISETS[j])


def test_matching_float_solution_agrees() -> None:
    u = np.arange(13, dtype=float)
    sol = matching.solve_utility(u)
    assert float(sol.before_roll() @ (FOUR_WAYS / 1296)) == pytest.approx(
        float(matching.expected_score()), abs=1e-12
    )
    assert matching.expected_score() > matching.no_choice_score()
