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
