"""The server's bots: which opponents a visitor may ask for, their secret seeds, and the
bounded pool they think in.

Only vetted specs are offered and accepted: each game's own bot at its named levels, and the
random player. The generic search agents take an unbounded iteration count or depth from the
spec (``mcts:1000000000``) and some are slow even at their defaults (MCTS 16 s and expectimax
3.3 s a backgammon move), so the server never runs them.

A decision is a ``BotJob``: the state (pickled), the game, the spec and a seed drawn from the
secret server seed and the position in the log, so the same decision comes out the same
whichever worker makes it, and nobody can predict it from public data. ``BotRunner`` runs jobs
in ``processes`` worker processes (what ``dicehall serve`` does: a thinking bot then holds no
interpreter lock of the server's, so other games' acknowledgements do not wait for it), or in
threads when ``processes=0`` (tests, embedded use; the backgammon kernels release the lock,
the Python around them does not). Every job can be cancelled (``cancel``: its game ended, was
resigned or abandoned): a waiting job is dropped, a running one in a process is stopped by
ending that process (a new one takes its place). A job that thinks longer than
``max_think`` seconds is stopped the same way and answered by the random player, seeded from
the same secret: the game goes on, and the log says nothing the rules did not allow. The
processes run at a lower priority (``niceness``), so on a machine with few cores the kernel
still runs the server's threads first.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import itertools
import logging
import multiprocessing
import os
import pickle
import random
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from multiprocessing.connection import Connection, wait
from typing import Any

from dicehall.bots.registry import game_bots, make_agent
from dicehall.core.game import State

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


def bot_seed(server_seed: str, seat: int, seq: int | None = None) -> int:
    """The seed of the bot in ``seat`` (for its decision at log position ``seq``): from the
    game's secret server seed, so nobody can predict the bot's random choices before the game
    is over (the game id is public), and the same in every process.

    >>> bot_seed("00" * 32, 1) == bot_seed("00" * 32, 1) != bot_seed("00" * 32, 0)
    True
    >>> bot_seed("00" * 32, 1, 5) != bot_seed("00" * 32, 1, 6)
    True
    """
    label = f"dicehall bot {seat} {server_seed}" + ("" if seq is None else f" {seq}")
    digest = hashlib.sha256(label.encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


@dataclass(frozen=True)
class BotJob:
    """One bot decision: ``spec`` plays ``state`` of ``game`` (with ``options``) from
    ``seed``; ``key`` (the game id) is what ``cancel`` names."""

    key: str
    game: str
    spec: str
    seed: int
    state: State

    def decide(self) -> str:
        """The decision's action text (in whichever process runs it)."""
        agent = make_agent(self.game, self.spec, seed=self.seed)
        if agent is None:
            raise ValueError(f"{self.spec!r} is not a bot")
        return self.state.action_to_text(agent.act(self.state))

    @property
    def cheap(self) -> bool:
        """Whether the decision costs next to nothing (the random player): it is made in the
        server's own callback threads, never queued behind a thinking bot nor sent to a
        process of the idle class (which a busy machine may not run for seconds)."""
        return self.spec == "random"

    def fallback(self) -> str:
        """The random player's decision from the same seed (a bot that took too long)."""
        legal = self.state.legal_actions()
        action = legal[random.Random(self.seed).randrange(len(legal))]
        return self.state.action_to_text(action)


#: called with the job and its action text, or with the exception that stopped it
Done = Callable[[BotJob, str | None, BaseException | None], None]


@dataclass(order=True)
class _Entry:
    due: float
    order: int
    job: BotJob = field(compare=False)
    done: Done = field(compare=False)
    cancelled: bool = field(default=False, compare=False)


def _worker_main(conn: Connection, niceness: int) -> None:
    """A bot process: decide every job it is sent until it is sent None. It runs at a lower
    scheduling priority (``niceness``): where the bots have as many cores as the server, the
    kernel still wakes the server's threads first, so a thinking bot delays no answer."""
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
        # Linux: the idle class as well, which the kernel runs only when nothing else is
        # ready and preempts at once for anything that wakes (niceness 19 still lets a bot
        # finish its slice first: the bot-stall probe's p99 was 32 ms with it alone)
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    # the server decides when its bot processes end (Ctrl-C and a signal to the process
    # group reach them too: a bot killed so would be answered by the random player); they
    # also end when the server is gone (their pipe closes)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            conn.send(("ok", job.decide()))
        except Exception as exc:  # the parent logs it; this process goes on
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class _Process:
    """One worker process and the job it runs (if any)."""

    def __init__(self, ctx: Any, niceness: int) -> None:
        parent, child = ctx.Pipe(duplex=True)
        self.conn: Connection = parent
        self.process = ctx.Process(
            target=_worker_main, args=(child, niceness), name="dicehall-bot", daemon=True
        )
        self.process.start()
        child.close()
        self.entry: _Entry | None = None
        self.started = 0.0

    def stop(self) -> None:
        """End the process now (a cancelled or overlong decision: the only way to stop a
        compiled kernel)."""
        self.process.kill()
        self.process.join(5)
        self.conn.close()


class BotRunner:
    """Runs bot decisions after their delay in ``processes`` worker processes, or in
    ``threads`` threads when ``processes`` is 0; thread-safe.

    ``submit(job, delay, done)`` calls ``done`` (in a small pool of callback threads, never
    in the dispatcher) with the action text; ``cancel(key)`` drops the jobs of one game. A
    delay waits in the dispatcher, not in a worker, so slow-moving bots for the eye do not
    occupy the pool.
    """

    def __init__(
        self,
        threads: int = 2,
        *,
        processes: int = 0,
        max_think: float = 60.0,
        context: str = "spawn",
        niceness: int = 19,
    ) -> None:
        self.processes = processes
        self.niceness = niceness
        self.max_think = max_think
        self._threads = (
            ThreadPoolExecutor(max_workers=threads, thread_name_prefix="dicehall-bot")
            if processes == 0
            else None
        )
        self._callbacks = ThreadPoolExecutor(max_workers=4, thread_name_prefix="dicehall-botcb")
        self._ctx = multiprocessing.get_context(context) if processes else None
        self._workers: list[_Process] = []
        self._heap: list[_Entry] = []
        self._ready: list[_Entry] = []
        self._counter = itertools.count()
        self._cv = threading.Condition()
        self._wake_r: Connection | None = None
        self._wake_w: Connection | None = None
        self._dispatcher: threading.Thread | None = None
        self._closed = False
        #: decisions made, stopped for taking too long, and cancelled while running
        self.counts = {"decided": 0, "timed_out": 0, "cancelled": 0, "restarted": 0}

    # -- the interface -------------------------------------------------------
    def submit(self, job: BotJob, delay: float, done: Done) -> None:
        """Decide ``job`` after ``delay`` seconds and call ``done`` with the result."""
        if self._closed:
            return
        entry = _Entry(time.monotonic() + max(delay, 0.0), next(self._counter), job, done)
        with self._cv:
            heapq.heappush(self._heap, entry)
            self._start_dispatcher()
            self._cv.notify()
        self._wake()

    def cancel(self, key: str) -> int:
        """Drop the waiting and running decisions of game ``key``; returns how many. A
        running one in a process is stopped at once; in a thread it runs out and its result
        is dropped. Their ``done`` is not called."""
        stopped = 0
        with self._cv:
            for entry in itertools.chain(self._heap, self._ready):
                if entry.job.key == key and not entry.cancelled:
                    entry.cancelled = True
                    stopped += 1
            for worker in self._workers:
                running = worker.entry
                if running is not None and running.job.key == key and not running.cancelled:
                    running.cancelled = True
                    stopped += 1
        self._wake()
        return stopped

    def close(self) -> None:
        """Stop: pending decisions are dropped (they resume when their game is next touched)
        and the worker processes end."""
        with self._cv:
            self._closed = True
            self._heap.clear()
            self._ready.clear()
            self._cv.notify_all()
        self._wake()
        if self._dispatcher is not None:
            self._dispatcher.join(10)
        for worker in self._workers:
            worker.stop()
        self._workers.clear()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        self._callbacks.shutdown(wait=False, cancel_futures=True)

    # -- the dispatcher ------------------------------------------------------
    def _start_dispatcher(self) -> None:
        if self._dispatcher is not None:
            return
        if self._ctx is not None:
            self._wake_r, self._wake_w = self._ctx.Pipe(duplex=False)
            self._workers = [_Process(self._ctx, self.niceness) for _ in range(self.processes)]
        self._dispatcher = threading.Thread(
            target=self._dispatch_loop, name="dicehall-bot-dispatch", daemon=True
        )
        self._dispatcher.start()

    def _wake(self) -> None:
        if self._wake_w is not None:
            with contextlib.suppress(OSError):
                self._wake_w.send_bytes(b".")

    def _dispatch_loop(self) -> None:
        while True:
            with self._cv:
                if self._closed:
                    return
                now = time.monotonic()
                while self._heap and self._heap[0].due <= now:
                    entry = heapq.heappop(self._heap)
                    if not entry.cancelled:
                        self._ready.append(entry)
                timeout = self._heap[0].due - now if self._heap else None
                if self._threads is not None:
                    ready, self._ready = self._ready, []
                    for entry in ready:
                        self._threads.submit(self._run_in_thread, entry)
                    self._cv.wait(timeout)
                    continue
                cheap = [entry for entry in self._ready if entry.job.cheap]
                if cheap:
                    self._ready = [entry for entry in self._ready if not entry.job.cheap]
                    for entry in cheap:
                        self._callbacks.submit(self._run_in_thread, entry)
                self._assign(now)
                timeout = self._deadline(now, timeout)
            self._collect(timeout)

    def _run_in_thread(self, entry: _Entry) -> None:
        if entry.cancelled:
            return
        try:
            text: str | None = entry.job.decide()
            error: BaseException | None = None
        except Exception as exc:
            text, error = None, exc
        self.counts["decided"] += 1
        if not entry.cancelled:
            self._finish(entry, text, error)

    def _assign(self, now: float) -> None:
        """Hand ready jobs to idle processes (caller holds ``_cv``)."""
        for worker in self._workers:
            if worker.entry is not None or not self._ready:
                continue
            entry = self._ready.pop(0)
            try:
                worker.conn.send(entry.job)
            except (OSError, pickle.PicklingError, TypeError) as exc:
                self._finish(entry, None, exc)
                continue
            worker.entry, worker.started = entry, now

    def _deadline(self, now: float, timeout: float | None) -> float | None:
        for worker in self._workers:
            if worker.entry is not None:
                left = worker.started + self.max_think - now
                timeout = left if timeout is None else min(timeout, left)
        return None if timeout is None else max(timeout, 0.0)

    def _collect(self, timeout: float | None) -> None:
        """Wait for results (or a wake-up), then stop cancelled and overlong decisions."""
        assert self._wake_r is not None
        conns = [w.conn for w in self._workers if w.entry is not None]
        for ready in wait([self._wake_r, *conns], timeout):
            if ready is self._wake_r:
                while self._wake_r.poll():
                    self._wake_r.recv_bytes()
                continue
            with self._cv:
                worker = next(w for w in self._workers if w.conn is ready)
                entry = worker.entry
                worker.entry = None
                try:
                    kind, value = worker.conn.recv()
                except (EOFError, OSError) as exc:  # the process died: replace it
                    self._replace(worker)
                    kind, value = "error", f"the bot process died ({exc!r})"
            if entry is None or entry.cancelled:
                continue
            self.counts["decided"] += 1
            if kind == "ok":
                self._finish(entry, value, None)
            else:
                self._finish(entry, None, RuntimeError(value))
        now = time.monotonic()
        with self._cv:
            for worker in list(self._workers):
                entry = worker.entry
                if entry is None:
                    continue
                if entry.cancelled:
                    self.counts["cancelled"] += 1
                    self._replace(worker)
                elif now - worker.started > self.max_think:
                    self.counts["timed_out"] += 1
                    log.warning(
                        "bot %s in game %s thought over %.0f s: stopped, the random player moves",
                        entry.job.spec,
                        entry.job.key,
                        self.max_think,
                    )
                    self._replace(worker)
                    try:
                        self._finish(entry, entry.job.fallback(), None)
                    except Exception as exc:
                        self._finish(entry, None, exc)

    def _replace(self, worker: _Process) -> None:
        """A fresh process in the place of ``worker`` (caller holds ``_cv``)."""
        worker.stop()
        self.counts["restarted"] += 1
        index = self._workers.index(worker)
        assert self._ctx is not None
        self._workers[index] = _Process(self._ctx, self.niceness)

    def _finish(self, entry: _Entry, text: str | None, error: BaseException | None) -> None:
        def call() -> None:
            try:
                entry.done(entry.job, text, error)
            except Exception:  # a broken callback must not take the pool down
                log.exception("bot callback failed in game %s", entry.job.key)

        with contextlib.suppress(RuntimeError):  # closed
            self._callbacks.submit(call)
