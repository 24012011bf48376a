"""White Die solved exactly: tic-tac-toe by the order of what its scores are worth, the
free readings (Pips arranged at will, the claim declined), and the three-player table
solved from the highest score total down with checkpoints."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dicehall import load_game
from dicehall.bots.whitedie import tictactoe
from dicehall.bots.whitedie.advisor import maxn_solution
from dicehall.bots.whitedie.dice import INDEX, MULTISETS
from dicehall.bots.whitedie.maxn import MAXN21_TABLES, bellman_residual, load_maxn, solve_maxn
from dicehall.bots.whitedie.solved import winprob_table
from dicehall.bots.whitedie.tables import load_tables, order_key, order_key_name
from dicehall.bots.whitedie.winprob import (
    TTT_SCORES,
    TurnModel,
    free_pip_scores,
    pip_score_sets,
    tictactoe_leaf,
    utility_for,
)
from dicehall.games.whitedie.challenges import (
    EMPTY_GRID,
    claim,
    pip_scores,
    pip_square,
    pips_score,
    placements,
    tictactoe_score,
)

Leaf = tuple[int, ...]


def _brute(grid: tuple[int, ...], mine: tuple[int, ...], theirs: tuple[int, ...], side: int,
           leaf: Leaf, free_claim: bool = False) -> int:  # fmt: skip
    """Plain minimax of the rank ``leaf`` gives each score, straight from the rules'
    placement function (no symmetry, no memo, no pruning)."""

    def moves_of(s: int) -> list[tuple[int, int]]:
        return placements(grid, mine if s == 1 else theirs, player=s == 1)

    here = moves_of(side)
    if not here:
        if moves_of(1 - side):
            return _brute(grid, mine, theirs, 1 - side, leaf, free_claim)
        v = leaf[tictactoe_score(claim(grid, len(mine)))]
        if free_claim and not mine:
            v = max(v, leaf[tictactoe_score(grid)])
        return v
    results = []
    for value, sq in here:
        g = list(grid)
        rest = list(mine if side == 1 else theirs)
        rest.remove(value)
        g[sq] = value if side == 1 else -value
        if side == 1:
            results.append(_brute(tuple(g), tuple(rest), theirs, 0, leaf, free_claim))
        else:
            results.append(_brute(tuple(g), mine, tuple(rest), 1, leaf, free_claim))
    return max(results) if side == 1 else min(results)


# -- the order of worth ---------------------------------------------------------------
def test_the_leaf_is_the_order_of_worth_over_the_possible_scores() -> None:
    assert tictactoe_leaf(np.arange(13.0)) is None  # more points, more worth
    u = np.array([0.2, 0.33, 0.32, 0.3326] + [1.0] * 9)  # 17-18 of the default game
    leaf = tictactoe_leaf(u)
    assert leaf is not None
    assert [leaf[x] for x in TTT_SCORES] == [0, 2, 1, 3, 4, 4, 4, 4, 4]
    # a dip at a score no grid can have (7) does not matter
    bent = np.arange(13.0)
    bent[7] = -1.0
    assert tictactoe_leaf(bent) is None


FEWEST = tuple(range(12, -1, -1))  # a player who wants as few points as possible
TWO_OVER_THREE = (0, 1, 3, 2) + (0,) * 9  # 2 points best, then 3, then 1


@pytest.mark.parametrize(
    ("mine", "theirs", "leaf", "forced", "free"),
    [
        # orders under which the score minimax is not the answer
        ((1, 1, 4, 6), (2, 3, 3, 4), (2, 0, 1, 3) + (3,) * 9, 1, 1),
        ((3, 3, 4, 6), (1, 1, 2, 4), (0, 3, 1, 2) + (4,) * 9, 3, 3),
        ((1, 2, 6, 6), (1, 5, 5, 6), (0, 3, 1, 2) + (4,) * 9, 3, 3),
        # and where declining the claim is worth it
        ((1, 1, 2, 3), (1, 1, 3, 3), TWO_OVER_THREE, 0, 3),
        ((2, 2, 2, 2), (2, 2, 3, 6), FEWEST, 9, 12),
        ((3, 3, 3, 3), (1, 1, 1, 1), FEWEST, 0, 11),  # 12 points claimed, or one line
    ],
)
def test_ordered_search_matches_brute_force(
    mine: tuple[int, ...], theirs: tuple[int, ...], leaf: Leaf, forced: int, free: int
) -> None:
    assert _brute(EMPTY_GRID, mine, theirs, 0, leaf) == forced
    assert _brute(EMPTY_GRID, mine, theirs, 0, leaf, True) == free
    assert tictactoe.initial_value(mine, theirs, leaf) == forced
    assert tictactoe.initial_value(mine, theirs, leaf, True) == free
    score = tictactoe.initial_value(mine, theirs)
    assert forced != leaf[score] or free != forced  # the case says something


def test_declining_the_claim_when_fewer_points_are_worth_more() -> None:
    # the player's dice are all placed and the opponent's 1s never fit next to the 3:
    # claiming takes the whole grid (12 points), declining leaves the centre alone (0)
    grid = (0, 0, 0, 0, 3, 0, 0, 0, 0)
    prefer_nothing = (1,) + (0,) * 12
    assert tictactoe._search(grid, (), (1, 1), 0, -1, 13, prefer_nothing) == 0  # must claim
    assert tictactoe._search(grid, (), (1, 1), 0, -1, 13, prefer_nothing, True) == 1
    assert tictactoe._search(grid, (), (1, 1), 0, -1, 13, tictactoe.SCORES, True) == 12


def test_free_pips_arrangements() -> None:
    sets = pip_score_sets()
    for dice, options in zip(MULTISETS, sets, strict=True):
        assert max(options) == pips_score(dice)  # the rules' square is the best one
    # two 1s and two 6s: the turned 6s leave three rows (3), upright ones ...
    assert {0, 3} <= sets[INDEX[(1, 1, 6, 6)]]
    assert sets[INDEX[(5, 5, 5, 5)]] == frozenset({0})
    fewest = np.arange(13.0)[::-1]  # a player who wants as few points as he can get
    assert list(free_pip_scores(fewest)) == [min(s) for s in sets]
    assert list(free_pip_scores(np.arange(13.0))) == [max(s) for s in sets]
    # the bots' reroll solver takes the same scores (from the rules engine's list)
    from dicehall.bots.whitedie.reroll import final_scores

    for u in (fewest, np.arange(13.0), np.random.default_rng(5).random(13)):
        assert list(final_scores(5, u, free=True)) == list(free_pip_scores(u))
    # the solver's choices are exactly the rules engine's arrangements
    for dice, options in zip(MULTISETS, sets, strict=True):
        assert set(pip_scores(dice)) == options
        assert all(pip_square(dice, p).score() == p for p in options)


# -- the shipped two-player solution -------------------------------------------------
@pytest.mark.parametrize("free", [True, False])
def test_every_order_table_the_two_player_solution_needs_is_shipped(free: bool) -> None:
    tables = load_tables()
    win = winprob_table(21, "standard", free)
    model = TurnModel("standard", tables, free=free)
    needed = set()
    for a in range(21):
        for b in range(21):
            key = model.order_key(utility_for(win, 21, a, b))
            if key is not None:
                needed.add(key)
    assert needed, "the default game has pairs where a point can be worth less than none"
    assert needed <= set(tables.orders) and all(f == free for _, f in needed)
    for key in tables.orders:
        assert order_key(order_key_name(key)) == key


def test_shipped_order_tables_agree_with_fresh_searches() -> None:
    tables = load_tables()
    rng = np.random.default_rng(20)
    assert tables.orders
    for (leaf, free), table in sorted(tables.orders.items())[:6]:
        rank_of = {x: leaf[x] for x in TTT_SCORES}
        for _ in range(8):
            i, j = (int(k) for k in rng.integers(126, size=2))
            outcome = tictactoe.initial_value(MULTISETS[i], MULTISETS[j], leaf, free)
            assert rank_of[int(table[i, j])] == outcome
            # the score table is the same search with the score order
            assert tables.tictactoe[i, j] == tictactoe.initial_value(MULTISETS[i], MULTISETS[j])


# -- three players: a table solved from the top down ----------------------------------
def test_a_stopped_solve_resumes_to_the_same_table(tmp_path: Path) -> None:
    full = solve_maxn(3, target=3)
    path = tmp_path / "partial.npz"
    part = solve_maxn(3, target=3, checkpoint=path, seconds=0.0)
    assert part.lowest_total == 6  # it stops after the first total, the highest
    assert part.solved((2, 2, 2)) and not part.solved((2, 2, 1))
    assert bellman_residual(part, [(2, 2, 2)]) < 1e-12
    resumed = solve_maxn(3, target=3, checkpoint=path)
    assert resumed.lowest_total == 0
    np.testing.assert_array_equal(resumed.values, full.values)
    with pytest.raises(ValueError, match="another game"):
        solve_maxn(3, target=4, checkpoint=path)


@pytest.mark.skipif(not MAXN21_TABLES.exists(), reason="no three-player table for target 21")
@pytest.mark.parametrize("free", [True, False])
def test_the_default_three_player_table_is_used_where_it_is_solved(free: bool) -> None:
    # free: the default game (free choices, maxn3_21_free.npz); else maxn3_21.npz
    sol = load_maxn(3, 21, "standard", free)
    assert sol is not None and sol.values.shape == (21, 21, 21, 3) and sol.free == free
    game = load_game("whitedie", players=3, free_choices=free)
    top = game.setup([20, 20, 20], 0)  # type: ignore[attr-defined]
    assert maxn_solution(top) is sol  # the highest total is always solved
    solved = [x for x in np.ndindex(21, 21, 21) if sol.solved(x)]
    assert np.allclose(sol.values[tuple(np.array(solved).T)].sum(axis=-1), 1.0)
    rng = np.random.default_rng(21)
    sample = [solved[int(k)] for k in rng.integers(len(solved), size=12)]
    assert bellman_residual(sol, sample) < 1e-9
    if sol.lowest_total > 0:
        start = game.setup([0, 0, 0], 0)  # type: ignore[attr-defined]
        assert maxn_solution(start) is None  # below it: the approximation
