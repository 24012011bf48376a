"""The server's bots: which opponents a visitor may ask for, their secret seeds, and the
bounded pool of threads they think in.

Only vetted specs are offered and accepted: each game's own bot at its named levels, and the
random player. The generic search agents take an unbounded iteration count or depth from the
spec (``mcts:1000000000``) and some are slow even at their defaults (MCTS 16 s and expectimax
3.3 s a backgammon move), so the server never runs them.

Bot turns run in a fixed number of threads; the backgammon kernels are compiled with
``nogil=True``, so a bot that thinks does not hold up the event loop or other games. A bot turn
is checked again when it starts: a game that ended, was abandoned or moved on is skipped.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from dicehall.bots.registry import game_bots

log = logging.getLogger("dicehall.server")


@cache
def vetted_specs(game: str) -> tuple[str, ...]:
    """The opponent specs the server plays ``game`` with: its bot's levels and ``random``.

    >>> vetted_specs("backgammon")[:3]
    ('bot', 'bot:beginner', 'bot:easy')
    """
    bots = game_bots(game)
    specs: list[str] = []
    if bots is not None:
        specs += ["bot"] + [f"bot:{level}" for level in bots.levels]
    return (*specs, "random")


def bot_seed(server_seed: str, seat: int) -> int:
    """The seed of the bot in ``seat``: from the game's secret server seed, so nobody can
    predict the bot's random choices before the game is over (the game id is public).

    >>> bot_seed("00" * 32, 1) == bot_seed("00" * 32, 1) != bot_seed("00" * 32, 0)
    True
    """
    digest = hashlib.sha256(f"dicehall bot {seat} {server_seed}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


class BotRunner:
    """Runs bot turns in ``workers`` threads, each after its delay; thread-safe.

    A delay waits in one timer thread (not in a worker), so slow-moving bots for the eye do
    not occupy the pool.
    """

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dicehall-bot")
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._counter = itertools.count()
        self._cv = threading.Condition()
        self._timer: threading.Thread | None = None
        self._closed = False

    def submit(self, task: Callable[[], None], delay: float = 0.0) -> None:
        """Run ``task`` in the pool after ``delay`` seconds."""
        if self._closed:
            return
        if delay <= 0:
            self._pool.submit(self._run, task)
            return
        with self._cv:
            heapq.heappush(self._heap, (time.monotonic() + delay, next(self._counter), task))
            if self._timer is None:
                self._timer = threading.Thread(
                    target=self._wait_loop, name="dicehall-bot-timer", daemon=True
                )
                self._timer.start()
            self._cv.notify()

    def _wait_loop(self) -> None:
        with self._cv:
            while not self._closed:
                if not self._heap:
                    self._cv.wait()
                    continue
                due = self._heap[0][0] - time.monotonic()
                if due > 0:
                    self._cv.wait(due)
                    continue
                _, _, task = heapq.heappop(self._heap)
                self._pool.submit(self._run, task)

    @staticmethod
    def _run(task: Callable[[], None]) -> None:
        try:
            task()
        except Exception:  # a broken bot must not take the pool down
            log.exception("bot task failed")

    def close(self) -> None:
        """Stop: pending turns are dropped (they resume when their game is next touched)."""
        with self._cv:
            self._closed = True
            self._heap.clear()
            self._cv.notify_all()
        self._pool.shutdown(wait=False, cancel_futures=True)
