"""The bot pool: decisions in worker processes, the same whichever worker makes them, stopped
when their game ends (cancellation) or when they think too long (the random player moves)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from dicehall_server_fixtures import sqlite_url_fixture  # noqa: F401

from dicehall import load_game
from dicehall.server.bots import BotJob, BotRunner, bot_seed
from dicehall.server.service import GameService
from dicehall.server.storage import Store


def _position(moves: int = 5) -> Any:
    """A backgammon position a few plies in (the same every time)."""
    state = load_game("backgammon").new_initial_state()
    for text in ["3-1", "8/5 6/5", "6-4", "24/18 13/9", "5-2"][:moves]:
        state = state.apply_text(text)
    return state


class Results:
    """Collects ``done`` callbacks; ``wait`` blocks until ``n`` have arrived."""

    def __init__(self) -> None:
        self.items: list[tuple[BotJob, str | None, BaseException | None]] = []
        self.cv = threading.Condition()

    def __call__(self, job: BotJob, text: str | None, error: BaseException | None) -> None:
        with self.cv:
            self.items.append((job, text, error))
            self.cv.notify_all()

    def wait(self, n: int, timeout: float = 120.0) -> None:
        with self.cv:
            assert self.cv.wait_for(lambda: len(self.items) >= n, timeout), self.items


def _wait_until(predicate: Any, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "the condition never came true"
        time.sleep(0.02)


def test_a_decision_is_the_same_in_a_process_and_in_a_thread() -> None:
    state = _position()
    jobs = [
        BotJob("g", "backgammon", "bot:beginner", bot_seed("ab" * 32, 1, n), state)
        for n in range(4)
    ]
    expected = [job.decide() for job in jobs]
    assert all(text in state.legal_texts() for text in expected)
    pool = BotRunner(processes=2)
    results = Results()
    try:
        for job in jobs:
            pool.submit(job, 0.0, results)
        results.wait(4)
    finally:
        pool.close()
    by_seed = {job.seed: text for job, text, error in results.items if error is None}
    assert [by_seed[job.seed] for job in jobs] == expected


def _start_a_slow_search(pool: BotRunner, state: Any, results: Results) -> None:
    """Give game "slow" a search that would run for hours (only ending its process stops
    it), and wait until a bot process runs it."""
    pool.submit(BotJob("slow", "backgammon", "mcts:100000000", 1, state), 0.0, results)
    _wait_until(lambda: any(w.entry is not None for w in pool._workers))


def test_the_random_player_never_waits_for_a_thinking_bot() -> None:
    """The random player's decisions are made in the server's threads: with the only bot
    process busy for hours, a random decision is still made (and is one of the legal ones)."""
    state = _position()
    pool = BotRunner(processes=1)
    results = Results()
    try:
        _start_a_slow_search(pool, state, results)
        pool.submit(BotJob("quick", "backgammon", "random", 7, state), 0.0, results)
        results.wait(1)
        [(job, text, error)] = results.items
        assert (job.key, error) == ("quick", None) and text in state.legal_texts()
        assert any(w.entry is not None and w.entry.job.key == "slow" for w in pool._workers)
        assert pool.cancel("slow") == 1
    finally:
        pool.close()


def test_a_running_decision_is_stopped_when_its_game_is_cancelled() -> None:
    state = _position()
    pool = BotRunner(processes=1)
    results = Results()
    try:
        _start_a_slow_search(pool, state, results)
        assert pool.cancel("slow") == 1
        _wait_until(lambda: pool.counts["cancelled"] == 1)
        # the pool goes on with a fresh process; the cancelled decision is never played
        pool.submit(BotJob("next", "backgammon", "random", 2, state), 0.0, results)
        results.wait(1)
    finally:
        pool.close()
    assert [(job.key, error) for job, _, error in results.items] == [("next", None)]
    assert pool.counts["restarted"] >= 1


def test_a_waiting_decision_is_dropped_when_cancelled() -> None:
    pool = BotRunner(threads=1)
    results = Results()
    try:
        pool.submit(BotJob("later", "backgammon", "random", 3, _position()), 30.0, results)
        assert pool.cancel("later") == 1
        pool.submit(BotJob("now", "backgammon", "random", 4, _position()), 0.0, results)
        results.wait(1)
    finally:
        pool.close()
    assert [job.key for job, _, _ in results.items] == ["now"]


def test_a_decision_over_the_time_cap_is_answered_by_the_random_player() -> None:
    state = _position()
    pool = BotRunner(processes=1, max_think=1.0)
    results = Results()
    job = BotJob("capped", "backgammon", "mcts:100000000", 5, state)
    try:
        pool.submit(job, 0.0, results)
        results.wait(1)
    finally:
        pool.close()
    [(_, text, error)] = results.items
    assert error is None and text == job.fallback() and text in state.legal_texts()
    assert pool.counts["timed_out"] == 1


def test_bot_games_play_through_the_process_pool(sqlite_url: str) -> None:
    service = GameService(Store(sqlite_url), bot_delay=0, bot_processes=1)
    try:
        game_id, _ = service.create("backgammon", opponent="bot:beginner", seat=0)
        live = service.get(game_id)
        for _ in range(6):  # six of the human's turns, the bot answering each time
            _wait_until(lambda: live.state.current_player() == 0 or live.state.is_terminal())
            if live.state.is_terminal():
                break
            service.act(game_id, [0], live.state.legal_texts()[0], live.seq)
        bot_moves = [e for e in live.log if e.actor == 1]
        assert bot_moves, "the bot never moved"
        # each bot move was legal where it was made (the log folds again)
        state = load_game("backgammon").new_initial_state()
        for e in live.log:
            state = state.apply_text(e.text)
        assert state == live.state
    finally:
        service.close()


def test_resigning_cancels_the_bots_decision(sqlite_url: str) -> None:
    service = GameService(Store(sqlite_url), bot_delay=60)
    try:
        for _ in range(20):  # until the bot (seat 1) wins the opening roll and is to move
            game_id, _ = service.create("backgammon", opponent="bot:beginner", seat=0)
            live = service.get(game_id)
            if live.bot_pending:
                break
        else:
            pytest.fail("the bot never won the opening roll")
        assert sum(e.job.key == game_id and not e.cancelled for e in service.bots._heap) == 1
        service.resign(game_id, [0])
        assert not live.bot_pending
        assert not any(e.job.key == game_id and not e.cancelled for e in service.bots._heap)
    finally:
        service.close()


def test_a_failing_bot_is_replaced_by_the_random_player(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: BotJob) -> str:
        raise RuntimeError("the bot's weights are gone")

    monkeypatch.setattr(BotJob, "decide", broken)
    service = GameService(Store(sqlite_url), bot_delay=0)
    try:
        game_id, _ = service.create("backgammon", opponent="bot:beginner", seat=0)
        live = service.get(game_id)
        for _ in range(3):
            _wait_until(lambda: live.state.current_player() == 0 or live.state.is_terminal())
            service.act(game_id, [0], live.state.legal_texts()[0], live.seq)
        _wait_until(lambda: live.state.current_player() == 0 or live.state.is_terminal())
        assert any(e.actor == 1 for e in live.log)  # the game went on through the fallback
    finally:
        service.close()
