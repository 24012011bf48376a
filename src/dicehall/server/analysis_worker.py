"""The analyses of finished games for the replay: the quick one at once, the deep one in the
background, both kept.

A finished game never changes, so its analysis is computed once per level and kept in a
bounded cache (:class:`Analyses`). The quick level (``analysis.ANALYSIS_LEVELS``: backgammon
0-ply, about a second a game) is computed in the request that first asks for it. The deep
level (``analysis.DEEP_LEVELS``: backgammon at ``dicehall analyze``'s expert, 2-ply, some 40 s
a game on a quiet core and minutes under load) would hold a request, and a server thread, far
too long; it is queued instead and computed by one worker, in a child process at a low
priority (``processes=1``, what ``dicehall serve`` runs: its search then holds no interpreter
lock of the server's) or in a thread (``processes=0``: tests, embedded use). Until it is ready
the quick report says so in ``deeper``: the level, ``queued`` / ``running`` / ``failed`` /
``busy`` (the queue is full: ask again later), and how many decisions are judged of how many,
which the replay page shows as a progress bar while it polls.

>>> from dicehall import Match, load_game
>>> from dicehall.bots import make_agent
>>> game = load_game("whitedie")
>>> record = Match(game, [make_agent("whitedie", "random", seed=i) for i in (1, 2)], seed=1).play()
>>> analyses = Analyses(processes=0)
>>> report = analyses.report("g1", lambda: record)
>>> report["level"], "deeper" in report  # White Die's exact analysis is the deepest there is
('perfect', False)
>>> analyses.close()
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from dicehall.core.record import Record
from dicehall.server import analysis

log = logging.getLogger("dicehall.server")

#: the variable that sets the backgammon deep level instead of expert (``hard``: 1-ply, ten
#: times quicker, for small machines and tests; the quick level ``medium``: none at all)
ENV_LEVEL = "DICEHALL_ANALYSIS_LEVEL"
#: reports kept per level (a backgammon report is ~20 kB)
CACHE = 256
#: deep analyses waiting at most; more are refused for now (``busy``), asked for again later
QUEUE = 32


@dataclass
class _Job:
    key: str
    record: Record
    level: str
    state: str = "queued"  # queued, running, failed
    done: int = 0
    total: int = 0
    error: str = ""

    def progress(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "level": self.level,
            "state": self.state,
            "done": self.done,
            "total": self.total,
        }
        if self.error:
            out["error"] = self.error
        return out


def _child_main(conn: Connection, niceness: int) -> None:
    """The analysis process: analyse every (record JSON, level) it is sent, saying after each
    decision how far it is, until it is sent None or its pipe closes."""
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    # the server ends this process (close) and Ctrl-C of the terminal must not
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        text, level = job
        try:
            report = analysis.analyse(
                Record.from_json(text),
                level,
                progress=lambda done, total: conn.send(("progress", done, total)),
            )
            conn.send(("done", report))
        except Exception as exc:  # said to the parent; this process goes on
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class Analyses:
    """The analyses of finished games, by game id: :meth:`report` gives the deepest one ready
    and starts the deep one if it is not; thread-safe. ``deep_levels``: the deep level per
    game (default ``analysis.DEEP_LEVELS``, backgammon's from ``$DICEHALL_ANALYSIS_LEVEL`` if
    set)."""

    def __init__(
        self,
        *,
        processes: int = 1,
        deep_levels: dict[str, str] | None = None,
        cache: int = CACHE,
        queue: int = QUEUE,
        context: str = "spawn",
        niceness: int = 19,
    ) -> None:
        if processes not in (0, 1):
            raise ValueError(f"analysis processes is 0 (a thread) or 1, not {processes}")
        self.processes = processes
        if deep_levels is None:
            deep_levels = dict(analysis.DEEP_LEVELS)
            if os.environ.get(ENV_LEVEL):
                deep_levels["backgammon"] = os.environ[ENV_LEVEL]
        self.deep_levels = deep_levels
        self.cache_size = cache
        self.queue_size = queue
        self.niceness = niceness
        self._ctx: Any = multiprocessing.get_context(context)
        self._reports: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self._jobs: dict[str, _Job] = {}  # waiting or running deep analyses (and failed ones)
        self._queue: deque[_Job] = deque()
        self._cv = threading.Condition()
        self._worker: threading.Thread | None = None
        self._child: Any = None  # the analysis process
        self._conn: Connection | None = None
        self._closed = False

    # -- the interface -------------------------------------------------------
    def report(self, key: str, load: Callable[[], Record]) -> dict[str, Any]:
        """The analysis of the finished game ``key`` (``load`` reads its record): the deep
        one when ready, else the quick one with ``deeper`` saying how far the deep one is.

        :raises analysis.AnalysisError: the game has no analysis.
        """
        record: Record | None = None
        with self._cv:
            game = self._game_of(key)
        if game is None:
            record = load()
            game = record.game
        deep = self.deep_levels.get(game)
        if deep is not None:
            with self._cv:
                ready = self._get(key, deep)
            if ready is not None:
                return ready
        quick_level = analysis.ANALYSIS_LEVELS.get(game, "")
        with self._cv:
            quick = self._get(key, quick_level)
        if quick is None:
            record = record or load()
            quick = analysis.analyse(record)
            with self._cv:
                self._put(key, quick_level, quick)
        if deep is None or deep == quick_level:
            return quick
        with self._cv:
            ready = self._get(key, deep)  # finished meanwhile
            if ready is not None:
                return ready
            job = self._jobs.get(key)
            if job is not None and job.state == "failed":
                del self._jobs[key]  # said once; the next request tries again
                return {**quick, "deeper": job.progress()}
            if job is None:
                if len(self._queue) >= self.queue_size:
                    busy = {"level": deep, "state": "busy", "done": 0, "total": 0}
                    return {**quick, "deeper": busy}
                job = _Job(key, record or load(), deep)
                self._jobs[key] = job
                self._queue.append(job)
                self._start()
                self._cv.notify()
            return {**quick, "deeper": job.progress()}

    def close(self) -> None:
        """Stop: waiting analyses are dropped, a running one is stopped (its process ends)."""
        with self._cv:
            self._closed = True
            self._queue.clear()
            self._cv.notify_all()
        self._stop_child()
        if self._worker is not None:
            self._worker.join(10)

    # -- the cache -----------------------------------------------------------
    def _game_of(self, key: str) -> str | None:
        for (k, _level), report in self._reports.items():
            if k == key:
                return str(report["game"])
        job = self._jobs.get(key)
        return job.record.game if job is not None else None

    def _get(self, key: str, level: str) -> dict[str, Any] | None:
        report = self._reports.get((key, level))
        if report is not None:
            self._reports.move_to_end((key, level))
        return report

    def _put(self, key: str, level: str, report: dict[str, Any]) -> None:
        self._reports[(key, level)] = report
        while len(self._reports) > self.cache_size:
            self._reports.popitem(last=False)

    # -- the worker ----------------------------------------------------------
    def _start(self) -> None:
        if self._worker is None:
            self._worker = threading.Thread(
                target=self._loop, name="dicehall-analysis", daemon=True
            )
            self._worker.start()

    def _loop(self) -> None:
        while True:
            with self._cv:
                while not self._queue and not self._closed:
                    self._cv.wait()
                if self._closed:
                    break
                job = self._queue.popleft()
                job.state = "running"
            try:
                report = self._run(job)
            except Exception as exc:
                if self._closed:
                    # stopped by close(): nothing failed; a process that close() could not
                    # see (it was still being started) is ended here
                    self._stop_child()
                    return
                log.warning("the %s analysis of game %s failed: %s", job.level, job.key, exc)
                with self._cv:
                    job.state, job.error = "failed", str(exc)[:200]
                continue
            with self._cv:
                self._put(job.key, job.level, report)
                self._jobs.pop(job.key, None)
        self._stop_child()  # closed: end the process (close() may have run before it started)

    def _progress(self, job: _Job, done: int, total: int) -> None:
        with self._cv:
            if self._closed:  # a thread's analysis stops at its next decision
                raise RuntimeError("the server is stopping")
            job.done, job.total = done, total

    def _run(self, job: _Job) -> dict[str, Any]:
        if self.processes == 0:
            return analysis.analyse(
                job.record, job.level, progress=lambda d, t: self._progress(job, d, t)
            )
        conn = self._connection()
        conn.send((job.record.to_json(indent=None), job.level))
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                self._stop_child()
                if self._closed:
                    raise RuntimeError("the server is stopping") from None
                raise RuntimeError("the analysis process ended") from None
            kind = message[0]
            if kind == "progress":
                self._progress(job, message[1], message[2])
            elif kind == "done":
                return dict(message[1])
            else:
                raise RuntimeError(message[1])

    def _connection(self) -> Connection:
        if self._conn is None or self._child is None or not self._child.is_alive():
            self._stop_child()
            parent, child = self._ctx.Pipe(duplex=True)
            process = self._ctx.Process(
                target=_child_main,
                args=(child, self.niceness),
                name="dicehall-analysis",
                daemon=True,
            )
            process.start()
            child.close()
            self._child, self._conn = process, parent
            if self._closed:  # close() ran while the process was starting
                self._stop_child()
                raise RuntimeError("the server is stopping")
        return self._conn

    def _stop_child(self) -> None:
        child, conn = self._child, self._conn
        self._child = self._conn = None
        if child is not None:
            child.kill()
            child.join(5)
        if conn is not None:
            conn.close()
