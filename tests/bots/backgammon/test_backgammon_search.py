"""The expert's search: its budget keeps the 2-ply work done, and it is deterministic."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from dicehall.bots.backgammon import Bot
from dicehall.games.backgammon.fast import plays, to_array
from dicehall.games.backgammon.notation import decode_position_id, format_play


def _analyse(board: np.ndarray, d1: int, d2: int, budget: int) -> tuple[Any, Any, Any]:
    """The expert's search of ``board`` with another budget (0: none)."""
    bot = Bot("expert")
    bot.settings = replace(bot.settings, budget=budget)
    return bot.evaluate(board, d1, d2)


def test_budget_keeps_the_plays_searched_at_2ply() -> None:
    """Past the budget the plays already valued at 2-ply keep their values (the best
    at 1-ply, searched best first) and the rest keep their 1-ply values, for every
    budget; the choice is made among the 2-ply ones."""
    board = to_array(decode_position_id("4HPwATDgc/ABMA"))
    full_probs, full_eqs, full_depth = _analyse(board, 5, 2, 0)
    searched = np.flatnonzero(full_depth == 2)
    assert searched.size >= 2
    one_ply = _analyse(board, 5, 2, 1)  # the first 2-ply evaluation passes it
    assert one_ply[2].max() == 1
    order = searched[np.argsort(-one_ply[1][searched], kind="stable")]
    partial_seen = False
    for budget in range(2_000, 200_000, 2_000):
        probs, eqs, depth = _analyse(board, 5, 2, budget)
        deep = np.flatnonzero(depth == 2)
        # a prefix of the full search's 2-ply plays, best first by their 1-ply values
        assert sorted(deep.tolist()) == sorted(order[: deep.size].tolist())
        assert np.array_equal(probs[deep], full_probs[deep])
        rest = np.flatnonzero(depth < 2)
        assert np.array_equal(probs[rest], one_ply[0][rest])
        assert np.array_equal(depth[rest], one_ply[2][rest])
        if 2 <= deep.size < searched.size:
            partial_seen = True
            assert np.array_equal(eqs[deep], full_eqs[deep])
        if deep.size == searched.size:
            break
    assert partial_seen


def test_search_is_deterministic() -> None:
    board = to_array(decode_position_id("4HPwATDgc/ABMA"))
    a = _analyse(board, 5, 2, 40_000)
    b = _analyse(board, 5, 2, 40_000)
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)
    bot = Bot("expert")
    assert bot.choose(board, 5, 2) == Bot("expert").choose(board, 5, 2)


def test_expert_does_not_play_24_14_in_the_issue_position() -> None:
    # ttsACgPbzg0AIA 6-4: the old net rated 24/14 62.9% (gnubg: 37.9%) and played it
    board = decode_position_id("ttsACgPbzg0AIA")
    arr = to_array(board)
    _, _, _, steps = plays(arr, 6, 4)
    for level in ("expert", "expert-readmit"):
        i = Bot(level).choose(arr, 6, 4)
        text = format_play(board, [tuple(s) for s in steps[i].tolist() if s[0] != s[1]])
        assert text != "24/14", level


# -- the third stage: reduced 3-ply on close decisions ------------------------------


def test_reduced_roll_sets_keep_the_balance_of_the_21_rolls() -> None:
    from dicehall.bots.backgammon.search import ROLLS_A, ROLLS_B, WEIGHTS_AB

    assert np.isclose(WEIGHTS_AB.sum(), 1.0)
    for rolls in (ROLLS_A, ROLLS_B):
        doubles = rolls[:, 0] == rolls[:, 1]
        assert doubles.sum() == 2 and np.isclose(WEIGHTS_AB[doubles].sum(), 6 / 36)
        faces = np.bincount(rolls[~doubles].ravel(), minlength=7)[1:]
        assert faces.tolist() == [2] * 6  # every face twice among the non-doubles
        pips = np.where(doubles, 4 * rolls[:, 0], rolls.sum(axis=1))
        assert np.isclose((WEIGHTS_AB * pips).sum(), 49 / 6)  # 8.17 pips, as 21 rolls
    assert not {tuple(r) for r in ROLLS_A} & {tuple(r) for r in ROLLS_B}


def _race(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """A board after our play (we are row 0), checkers not listed are off."""
    board = np.zeros((2, 26), dtype=np.int8)
    for row, side in enumerate((mine, theirs)):
        for point, count in side.items():
            board[row, point] = count
        board[row, 0] = 15 - sum(side.values())
    return board


def test_3ply_known_answers() -> None:
    """Positions whose value needs no net: the opponent wins with any roll, or cannot
    finish and we then win with any roll."""
    from dicehall.bots.backgammon.search import evaluate_3ply

    params = Bot("expert").network.params()
    y = np.zeros(5)
    # he has one checker on his 1-point; we have none off: he wins a gammon
    evaluate_3ply(_race({6: 5, 5: 5, 4: 5}, {1: 1}), *params, True, y)
    assert np.allclose(y, [0, 0, 0, 1, 0])
    # we have one checker on our 1-point, he has all 15 at home: we win (whether a
    # gammon depends on his play, which single scoring leaves free: all lose alike)
    evaluate_3ply(_race({1: 1}, {6: 3, 5: 3, 4: 3, 3: 3, 2: 3}), *params, True, y)
    assert np.isclose(y[0], 1.0) and y[3] == y[4] == 0.0
    # with gammons counted he bears off a checker with every roll (1-1: 2/1 1/off)
    evaluate_3ply(_race({1: 1}, {6: 3, 5: 3, 4: 3, 3: 3, 2: 3}), *params, False, y)
    assert np.allclose(y, [1, 0, 0, 0, 0])


def _analyse3(board: np.ndarray, d1: int, d2: int, **changes: Any) -> tuple[Any, Any, Any]:
    bot = Bot("expert-3ply")
    bot.settings = replace(bot.settings, **changes)
    return bot.evaluate(board, d1, d2)


def test_3ply_stage_values_the_best_two_2ply_plays() -> None:
    """With a wide margin and no budget, the two best plays at 2-ply get depth 3 and
    exactly ``evaluate_3ply``'s values; the others keep the unpruned expert's values."""
    from dicehall.bots.backgammon.search import evaluate_3ply

    board = to_array(decode_position_id("4HPwATDgc/ABMA"))
    base = Bot("expert-unpruned").evaluate(board, 5, 2)
    probs, eqs, depth = _analyse3(board, 5, 2, margin3=1.0, budget3=0)
    two = np.flatnonzero(base[2] == 2)
    top = two[np.argsort(-base[1][two], kind="stable")][:2]
    assert sorted(np.flatnonzero(depth == 3).tolist()) == sorted(top.tolist())
    _, _, boards, _ = plays(board, 5, 2)
    params = Bot("expert-unpruned").network.params()
    y = np.zeros(5)
    for i in top:
        evaluate_3ply(boards[i], *params, True, y)
        assert np.array_equal(probs[i], y)
    rest = np.flatnonzero(depth < 3)
    assert np.array_equal(probs[rest], base[0][rest])
    assert np.array_equal(depth[rest], base[2][rest])
    # deterministic
    again = _analyse3(board, 5, 2, margin3=1.0, budget3=0)
    for x, z in zip((probs, eqs, depth), again, strict=True):
        assert np.array_equal(x, z)


def test_3ply_stage_off_or_out_of_budget_is_the_unpruned_expert() -> None:
    """No 3-ply when the decision is not close (margin 0), when the budget is already
    spent by 2-ply, or when it runs out before the second play is finished."""
    board = to_array(decode_position_id("4HPwATDgc/ABMA"))
    base = Bot("expert-unpruned").evaluate(board, 5, 2)
    for changes in ({"margin3": -1.0}, {"margin3": 1.0, "budget3": 1}, {"keep3": 0}):
        got = _analyse3(board, 5, 2, **changes)
        for x, z in zip(got, base, strict=True):
            assert np.array_equal(x, z), changes
    full = _analyse3(board, 5, 2, margin3=1.0, budget3=0)
    assert (full[2] == 3).sum() == 2
    saw_partial = False
    for budget in range(5_000, 400_000, 5_000):
        got = _analyse3(board, 5, 2, margin3=1.0, budget3=budget)
        if (got[2] == 3).sum() == 0:
            saw_partial = True
            for x, z in zip(got, base, strict=True):
                assert np.array_equal(x, z)
        else:
            for x, z in zip(got, full, strict=True):
                assert np.array_equal(x, z)
            break
    assert saw_partial


def test_expert_3ply_does_not_play_24_14_in_the_issue_position() -> None:
    board = decode_position_id("ttsACgPbzg0AIA")
    arr = to_array(board)
    _, _, _, steps = plays(arr, 6, 4)
    i = Bot("expert-3ply").choose(arr, 6, 4)
    text = format_play(board, [tuple(s) for s in steps[i].tolist() if s[0] != s[1]])
    assert text != "24/14"


def test_blend_mixes_the_1ply_and_2ply_values_of_the_2ply_plays() -> None:
    """``blend = b``: every play searched at 2-ply is valued (1 - b) * 2-ply + b * 1-ply;
    b = 0 is the expert; the 1-ply values are those of the 1-ply stage."""
    board = to_array(decode_position_id("4HPwATDgc/ABMA"))
    expert = Bot("expert")
    two = expert.evaluate(board, 5, 2)
    one = _analyse(board, 5, 2, 1)  # the budget stops it before any 2-ply value
    bot = Bot("expert")
    bot.settings = replace(bot.settings, blend=0.25)
    probs, _, depth = bot.evaluate(board, 5, 2)
    assert np.array_equal(depth, two[2])
    deep = depth == 2
    assert deep.sum() >= 2
    assert np.allclose(probs[deep], 0.75 * two[0][deep] + 0.25 * one[0][deep])
    assert np.array_equal(probs[~deep], two[0][~deep])
