"""Caches belong to an object with a size bound and a way to clear them; clearing one
changes no result."""

from __future__ import annotations

import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall import load_game
from dicehall.core.cache import BoundedCache, clear_caches


@settings(deadline=None, max_examples=50)
@given(maxsize=st.integers(1, 20), keys=st.lists(st.integers(0, 50), max_size=200))
def test_never_more_than_maxsize_and_the_last_put_is_kept(maxsize: int, keys: list[int]) -> None:
    memo = BoundedCache[int, int]("test", maxsize)
    for k in keys:
        memo.put(k, k * k)
        assert len(memo) <= maxsize
        assert memo.get(k) == k * k


def test_threads_share_one_cache_safely() -> None:
    memo = BoundedCache[tuple[int, int], int]("threads", 64)
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(20_000):
                memo.put((t, i), i)
                got = memo.get((t, i))
                assert got in (i, None)  # None only if another thread emptied it just now
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(memo) <= 64


def test_clearing_the_evaluators_caches_changes_no_value() -> None:
    from dicehall.bots.coinrows.evaluation import EVALUATIONS, evaluate
    from dicehall.bots.whitedie.tictactoe import BOUNDS, OPPONENT, solve
    from dicehall.games.whitedie.challenges import EMPTY_GRID

    state = load_game("coinrows").new_initial_state().apply_text("roll").apply_text("2-3")
    first = evaluate(state)
    assert len(EVALUATIONS) >= 1
    tic = solve(EMPTY_GRID, (2, 3, 5, 6), (1, 4, 4, 6), OPPONENT)
    assert len(BOUNDS) >= 1
    clear_caches()
    assert len(EVALUATIONS) == 0 and len(BOUNDS) == 0
    assert evaluate(state) == first
    assert solve(EMPTY_GRID, (2, 3, 5, 6), (1, 4, 4, 6), OPPONENT) == tic
    assert EVALUATIONS.maxsize == 500_000 and BOUNDS.maxsize == 500_000
