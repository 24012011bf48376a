"""The web application: HTTP API, WebSocket protocol and the pages, in one FastAPI app.

The protocol is documented in ``docs/protocol.md``; the OpenAPI schema is served at
``/openapi.json`` (browsable at ``/docs``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import queue
import random
import threading
import types
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from dicehall.core.errors import DicehallError
from dicehall.core.fairness import verify_record
from dicehall.core.registry import game_class, registered_games
from dicehall.server import accounts as accounts_module
from dicehall.server import analysis as analysis_module
from dicehall.server import error_messages, i18n, messages
from dicehall.server import live as live_module
from dicehall.server import ratings as ratings_module
from dicehall.server import seeks as seeks_module
from dicehall.server.analysis_worker import Analyses
from dicehall.server.chat import CHAT_SEQ, Chat
from dicehall.server.clocks import Clocks, TimeControl
from dicehall.server.error_messages import N_
from dicehall.server.limits import (
    AddressLimiter,
    Limits,
    RedisAddressLimiter,
    TokenBucket,
    clip,
)
from dicehall.server.messages import PROTOCOL_VERSION, dumps, error
from dicehall.server.presence import GRACE, HEARTBEAT, PRESENCE_SEQ, Presence
from dicehall.server.service import (
    OPTION_CAP,
    GameService,
    LiveGame,
    LogEntry,
    ServiceError,
)
from dicehall.server.storage import DEFAULT_CONNECTIONS, Appended, Store

log = logging.getLogger("dicehall.server")

WEB = Path(__file__).resolve().parent.parent / "web"
STATIC = WEB / "static"

STATUS = {
    "unknown_game": 404,
    "bad_request": 400,
    "seat_taken": 409,
    "stale": 409,
    "not_your_seat": 403,
    "out_of_turn": 409,
    "illegal_action": 422,
    "game_over": 409,
    "not_started": 409,
    "not_finished": 409,
    "too_long": 413,
    "already_seeded": 409,
    **accounts_module.STATUS,
    "unknown_player": 404,
    "no_hints": 403,
    "name_taken": 409,
    **seeks_module.STATUS,
    "time_out": 409,
    "too_early": 409,
    "too_many": 409,
    "rate_limited": 429,
}


# -- request bodies ------------------------------------------------------------
LIMITS = Limits()


class CreateGame(BaseModel):
    game: str = Field(max_length=40, description="registered game name, e.g. backgammon")
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    opponent: str = Field(
        "random",
        max_length=60,
        description="one of the catalog's opponents for the game, friend or local",
    )
    seat: int | None = Field(0, description="the creator's seat (0 moves first); null: random")
    name: str | None = Field(None, max_length=40, description="the creator's guest name")
    rated: bool = Field(False, description="a rated game (logged in, against a bot or friends)")
    clock: str | dict[str, float] | None = Field(
        None,
        description='the time control: null (untimed), "3+2" (minutes + increment in seconds) '
        'or "5+12d" (minutes + delay), or {initial, increment, delay} in seconds',
    )
    seed: str = Field(
        "",
        max_length=64,
        description="must stay empty: the player seed is sent after the game's commitment is "
        "published, with POST /api/games/{id}/seed",
    )


class JoinGame(BaseModel):
    seat: int | None = Field(None, description="seat to claim; null: the first open one")
    name: str | None = Field(None, max_length=40)
    seed: str = Field("", max_length=64, description="the joiner's player seed")


class SeedBody(BaseModel):
    seed: str = Field(max_length=64, description="the player seed for the fair dice")
    tokens: list[str] = Field(
        default_factory=list, max_length=LIMITS.max_tokens, description="or X-Seat-Token"
    )


class ActBody(BaseModel):
    tokens: list[str] = Field(
        default_factory=list,
        max_length=LIMITS.max_tokens,
        description="seat tokens held by the caller (or the X-Seat-Token header)",
    )
    text: str = Field(max_length=LIMITS.max_action, description="the action text, e.g. 24/18")
    seq: int | None = Field(None, description="the seq of the snapshot the action is for")


class Tokens(BaseModel):
    tokens: list[str] = Field(default_factory=list, max_length=LIMITS.max_tokens)


def header_tokens(request: Request) -> list[str]:
    """Seat tokens from the ``X-Seat-Token`` header (comma-separated), never from the URL."""
    raw = request.headers.get("x-seat-token", "")
    return [t.strip() for t in raw.split(",") if t.strip()][: LIMITS.max_tokens]


# -- middleware (plain ASGI: cheap, and it sees the body before anybody reads it) -----------
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: the API explorer (/docs, /redoc) loads its scripts from a CDN
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: "
    "https://fastapi.tiangolo.com; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


#: where ``Guard`` leaves a WebSocket's ASGI send in its scope (``Connection.send``)
RAW_SEND = "dicehall.raw_send"


class Guard:
    """Refuses what no client needs before the app sees it: bodies over ``max_body`` (413),
    ``?token=`` in a URL (400: tokens go in headers or messages, never in access logs), too many
    requests or WebSocket connections from one address (429); adds the security headers."""

    def __init__(self, app: Any, limits: Limits, redis_url: str | None = None) -> None:
        self.app = app
        self.limits = limits
        self.addresses: AddressLimiter | RedisAddressLimiter = (
            RedisAddressLimiter(redis_url, limits.address_rate, limits.address_burst)
            if redis_url
            else AddressLimiter(limits.address_rate, limits.address_burst)
        )

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or ("?", 0))[0]
        if not await self.addresses.allow_async(address):
            await self._refuse(scope, send, 429, "rate_limited", "too many requests: slow down")
            return
        query = scope.get("query_string", b"")
        if b"token" in query and any(
            part.split(b"=", 1)[0] in (b"token", b"tokens") for part in query.split(b"&")
        ):
            await self._refuse(
                scope,
                send,
                400,
                "token_in_url",
                "seat tokens never go in a URL (it ends up in logs): send them in the "
                "X-Seat-Token header or in the message",
            )
            return
        if kind == "websocket":
            # the server's own send, for the connection's frames (``Connection.send``)
            scope[RAW_SEND] = send
            await self.app(scope, receive, send)
            return
        limit = self.limits.max_body
        length = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                length = value
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(
                scope, send, 413, "too_big", f"a request body is at most {limit} bytes"
            )
            return
        if length is None and scope.get("method") in ("POST", "PUT", "PATCH"):
            # a body without a length (chunked): read it here, at most ``limit`` bytes of it
            body, more = b"", True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > limit:
                    await self._refuse(
                        scope, send, 413, "too_big", f"a request body is at most {limit} bytes"
                    )
                    return
            replayed = False

            async def replay() -> Any:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            receive = replay

        path = scope.get("path", "")
        csp = (DOCS_CSP if path in ("/docs", "/redoc") else CSP).encode()

        async def secured_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [*SECURITY_HEADERS, (b"content-security-policy", csp)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, secured_send)

    @staticmethod
    async def _refuse(scope: Any, send: Any, status: int, code: str, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    # a rate limit refills within a second: say when to try again (RFC 9110)
                    *([(b"retry-after", b"1")] if status == 429 else []),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


# -- live connections ------------------------------------------------------------
class Connection:
    """One WebSocket: the game it watches, the seats it holds, its send queue and rate."""

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.ws = ws
        #: the server's ASGI send under the framework's layers (``Guard``), else None
        scope = getattr(ws, "scope", None) or {}
        self.raw_send: Callable[[dict[str, Any]], Awaitable[None]] | None = scope.get(RAW_SEND)
        self.game_id: str | None = None
        self.seats: list[int] = []
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.max_queue = limits.send_queue
        self.bucket = TokenBucket(limits.message_rate, limits.message_burst)
        self.floods = 0
        self.too_slow = False
        self.lang = i18n.DEFAULT
        self.account: Any = None  #: the logged-in account of the socket's session cookie
        #: a frame is being sent (the sender task's, or one ``_send_now`` had to carry on)
        self.sending = False
        self.carried: asyncio.Future[Any] | None = None
        #: sending failed: the client went away
        self.gone = False

    def _send_now(self, text: str) -> bool:
        """Send ``text`` at once, from the event loop's thread, when nothing is queued or
        being sent and the server's WebSocket can take it without waiting (uvicorn's
        protocol, ``writable``): its ASGI send run to its end here, without the sender
        task's wake-up and the queue (a tenth of a frame's cost). False: queue it."""
        proto = getattr(self.raw_send, "__self__", None)
        writable = getattr(proto, "writable", None)
        if self.sending or not isinstance(writable, asyncio.Event) or not writable.is_set():
            return False
        assert self.raw_send is not None
        coro: Any = self.raw_send({"type": "websocket.send", "text": text})
        try:
            waited = coro.send(None)
        except StopIteration:
            return True
        except Exception:  # the client went away: as the sender task, send no more
            self.gone = True
            return True
        # it waits after all: let a task carry it on, and what follows wait for it
        self.sending = True
        task = asyncio.ensure_future(_carried(coro, waited))
        task.add_done_callback(self._sent)
        self.carried = task
        return True

    def _sent(self, task: asyncio.Future[Any]) -> None:
        self.sending = False
        self.carried = None
        if task.cancelled() or task.exception() is not None:
            self.gone = True

    async def send(self, text: str) -> None:
        """Send the frame ``text``: through the server's own ASGI send when ``Guard`` passed
        it on (Starlette's ``send_text``, its state checks and its exception handler's
        wrapper were a fifth of the frame's cost, for frames this app writes itself), else
        through the WebSocket."""
        if self.raw_send is not None:
            await self.raw_send({"type": "websocket.send", "text": text})
        else:
            await self.ws.send_text(text)

    def push(self, text: str) -> None:
        """Queue ``text`` to send (event loop thread); a reader too slow to keep up with
        ``max_queue`` messages is cut off (it reconnects and gets a fresh snapshot)."""
        if self.too_slow or self.gone:
            return
        if self.queue.empty() and self._send_now(text):
            return
        if self.queue.qsize() >= self.max_queue:
            self.too_slow = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)


@types.coroutine
def _carry_on(coro: Any, waited: Any) -> Generator[Any, Any, None]:
    """Carry on the coroutine ``coro`` that waits on ``waited`` (what its first step
    yielded), as the task running this (``Connection._send_now``)."""
    while True:
        try:
            value = yield waited
        except BaseException as exc:
            try:
                waited = coro.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waited = coro.send(value)
            except StopIteration:
                return


async def _carried(coro: Any, waited: Any) -> None:
    await _carry_on(coro, waited)


class Workers:
    """A pool of at most ``most`` threads that run what is handed to them (``submit``), in
    order, for the acts of the WebSocket connections (``Hub.act_for``).

    Lighter than ``concurrent.futures.ThreadPoolExecutor``, whose ``submit`` makes a future
    (with its condition and lock) and a work item, and takes a semaphore, for every act:
    its hand-over was 3-4% of a worker's time under the load benchmark, and the act's
    outcome goes back to the event loop its own way anyway (``Hub._call``). A thread is
    started when none is idle, up to ``most``; beyond that what is handed over waits its
    turn."""

    def __init__(self, most: int, name: str = "dicehall-act") -> None:
        self.most = most
        self.name = name
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0  #: threads waiting for work that no hand-over has counted on yet
        self._threads = 0
        self._closed = False

    def submit(self, job: Callable[[], None]) -> None:
        """Run ``job()`` in a worker thread (it must not raise: what it raises is logged)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the workers are shut down")
            start = False
            if self._idle:
                self._idle -= 1
            elif self._threads < self.most:
                self._threads += 1
                start = True
        self._jobs.put(job)
        if start:
            name = f"{self.name}-{self._threads}"
            threading.Thread(target=self._run, name=name, daemon=True).start()

    def _run(self) -> None:
        jobs = self._jobs
        while True:
            job = jobs.get()
            if job is None:
                return
            try:
                job()
            except Exception:
                log.exception("a worker's job failed")
            del job
            with self._lock:
                self._idle += 1

    def shutdown(self) -> None:
        """Let the threads end once the work handed over is done (nothing more is taken)."""
        with self._lock:
            self._closed = True
            count = self._threads
        for _ in range(count):
            self._jobs.put(None)


def _settle(future: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    """Complete ``future`` (event loop thread) unless it was cancelled meanwhile."""
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


class Hub:
    """Fans committed changes out to the WebSocket connections watching each game.

    The service calls ``on_commit`` in the committing thread, under the game's lock: the
    update is built and serialised there (once for watchers, once for the seat to move), and
    handed to the event loop, which only queues the text on each connection. Changes made by
    other processes arrive through ``GameService.on_remote`` and take the same way.
    """

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.rooms: dict[str, set[Connection]] = {}
        self._lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        #: delivers another process's chat message of a game (``live.Rooms.remote_chat``)
        self.remote_chat: Callable[[str], None] | None = None
        #: re-reads who is online in a game (``live.Rooms.remote_presence``)
        self.remote_presence: Callable[[str], None] | None = None
        #: what the committing threads handed to the event loop and it has not run yet, in
        #: order (``_call``)
        self._calls: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        self._calls_lock = threading.Lock()
        #: ``acting.ack``: the connection and ``ref`` of the act this thread is running
        #: (``acting_for``), answered by that connection's update
        self.acting = threading.local()
        #: the worker threads of acts (``act_for``): ``Workers``, or any executor
        self.pool: Workers | ThreadPoolExecutor | None = None
        service.listeners.append(self.on_commit)

    async def act_for(
        self,
        conn: Connection,
        ref: Any,
        act: Callable[[], int],
        here: Callable[[Callable[[], None]], Awaitable[int | None]] | None = None,
    ) -> tuple[int, bool]:
        """``acting_for`` in a worker thread (``pool``), its outcome handed back to the event
        loop the way the updates are (``_call``): the act's own update was handed over just
        before it, so one wake-up of the loop takes both, where ``asyncio.to_thread`` woke
        it a second time for the outcome.

        ``here``: the act run in the event loop itself (``GameService.act_in_loop``, given
        the call that marks ``conn`` and ``ref`` as the act's, made just before its commit
        is published); when it returns None the act was not done there and goes to a
        thread as above."""
        loop = asyncio.get_running_loop()
        if here is not None:
            try:
                seq = await here(lambda: setattr(self.acting, "ack", (conn, ref)))
            finally:
                # this thread runs every connection's acts: nothing of this one stays
                unclaimed = self.acting.__dict__.pop("ack", None) is not None
            if seq is not None:
                if unclaimed:
                    # no update took ``ref`` (nobody here watched, or the update failed):
                    # the ``ok`` follows whatever the commit handed over, in order
                    after: asyncio.Future[None] = loop.create_future()
                    self._call(loop, _settle, after, None, None)
                    await after
                return seq, not unclaimed
        pool = self.pool
        if pool is None:
            return await asyncio.to_thread(self.acting_for, conn, ref, act)
        done: asyncio.Future[tuple[int, bool]] = loop.create_future()

        def job() -> None:
            try:
                outcome = self.acting_for(conn, ref, act)
            except BaseException as exc:
                self._call(loop, _settle, done, None, exc)
            else:
                self._call(loop, _settle, done, outcome, None)

        pool.submit(job)
        return await done

    def acting_for(self, conn: Connection, ref: Any, act: Callable[[], int]) -> tuple[int, bool]:
        """Run ``act`` (a ``service.act`` of ``conn``'s, in this worker thread) so that the
        update its commit sends ``conn`` carries ``ref``: that update is the act's
        acknowledgement, one frame where an ``ok`` and an update were two. Returns the
        new seq and whether the update took the acknowledgement (if not, the caller sends
        the ``ok``: nobody here was in the room, or building the update failed)."""
        self.acting.ack = (conn, ref)
        try:
            seq = act()
        finally:
            acked = self.acting.__dict__.pop("ack", None) is None
        return seq, acked

    def _call(self, loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(*args)`` in the event loop, after everything handed over before (from any
        thread). The loop is woken only when nothing is waiting already: under load one
        wake-up (a ``call_soon_threadsafe``, a write to the loop's socket) takes many
        updates, where it was a twentieth of a worker's time at one per update."""
        if asyncio._get_running_loop() is loop:
            # the loop's own thread (an act or a change heard there, ``act_in_loop``): run it
            # now when nothing handed over by other threads waits (what waits runs first:
            # this call joins the queue then). No wake-up, no second pass of the loop.
            with self._calls_lock:
                waiting = bool(self._calls)
            if not waiting:
                try:
                    fn(*args)
                except Exception:
                    log.exception("delivering an update failed")
                return
        # the wake-up is scheduled under the lock: what this thread does next in the loop (the
        # act's reply, when its future completes) must come after it, and so must every
        # call another thread hands over meanwhile (scheduled after the lock was let go, an
        # ``ok`` could overtake its update, and a client act again on the old position)
        with self._calls_lock:
            self._calls.append((fn, args))
            if len(self._calls) == 1:
                try:
                    loop.call_soon_threadsafe(self._run_calls)
                except RuntimeError:  # the loop closed: nothing will run
                    self._calls.clear()

    def _run_calls(self) -> None:
        with self._calls_lock:
            calls, self._calls = self._calls, []
        for fn, args in calls:
            try:
                fn(*args)
            except Exception:
                log.exception("delivering an update failed")

    def on_commit(self, live: LiveGame, entries: list[LogEntry]) -> None:
        """Called by the service (any thread, game lock held) after a change."""
        loop = self.loop
        if loop is None or loop.is_closed() or live.id not in self.rooms:
            return
        ack: tuple[Connection, Any] | None = None
        try:
            plain, mover, seat = self.service.update_messages(live, entries, self._held(live))
            # the commit of an act this thread runs for a connection (not a flag falling
            # before it, which commits no action): its update answers the act
            if any(e.actor >= 0 for e in entries):
                ack = self.acting.__dict__.pop("ack", None)
        except Exception as exc:  # a broken view must not silence the game: say so
            log.exception("update of game %s failed", live.id)
            message = clip(f"the server could not draw the game: {exc}", 200)
            plain = dumps(
                {
                    "type": "error",
                    "v": PROTOCOL_VERSION,
                    "code": "internal_error",
                    "message": message,
                }
            )
            mover, seat = None, None
        acked: tuple[Connection, str] | None = None
        if ack is not None:
            conn, ref = ack
            text = mover if mover is not None and seat in conn.seats else plain
            acked = (conn, f'{text[:-1]},"ref":{dumps(ref)}}}')
        self._call(loop, self._dispatch, live.id, plain, mover, seat, acked)

    def _held(self, live: LiveGame) -> Callable[[int], bool]:
        """Whether a connection here holds a seat of ``live`` (its legal moves are built only
        then)."""

        def held(seat: int) -> bool:
            with self._lock:
                return any(seat in c.seats for c in self.rooms.get(live.id, ()))

        return held

    def _dispatch(
        self,
        game_id: str,
        plain: str,
        mover: str | None,
        seat: int | None,
        acked: tuple[Connection, str] | None = None,
    ) -> None:
        for conn in list(self.rooms.get(game_id, ())):
            if acked is not None and conn is acked[0]:
                conn.push(acked[1])
            else:
                conn.push(mover if mover is not None and seat in conn.seats else plain)

    def enter(self, conn: Connection, live: LiveGame, seats: list[int], first: str) -> None:
        """Put ``conn`` in the room of ``live`` and queue ``first`` (its snapshot) before any
        later update. Runs in a worker thread with the game's lock held, so no commit falls
        between the snapshot and the room."""
        loop = self.loop
        assert loop is not None
        with self._lock:
            self._leave(conn)
            conn.game_id, conn.seats = live.id, seats
            self.rooms.setdefault(live.id, set()).add(conn)
        # the same way as the updates, so it stays ahead of every later one
        self._call(loop, conn.push, first)

    def leave(self, conn: Connection) -> None:
        with self._lock:
            self._leave(conn)

    def _leave(self, conn: Connection) -> None:
        if conn.game_id is not None:
            room = self.rooms.get(conn.game_id)
            if room is not None:
                room.discard(conn)
                if not room:
                    del self.rooms[conn.game_id]
        conn.game_id = None

    def on_remote(self, game_id: str, seq: int, appended: Appended | None = None) -> None:
        """Another process changed ``game_id`` (``appended``: the actions it appended, when
        that was the change): catch up if somebody here watches it, else forget the cached
        copy (it reloads when touched)."""
        if seq in (CHAT_SEQ, PRESENCE_SEQ):  # a chat message or a seat come or gone
            handle = self.remote_chat if seq == CHAT_SEQ else self.remote_presence
            if handle is not None:
                handle(game_id)
            return
        if game_id in self.rooms:
            self.service.on_remote(game_id, seq, appended)
        else:
            self.service.forget(game_id)


def warm_up(max_steps: int = 3000) -> None:
    """Load every game's rules, view and compiled kernels once, as the games played on the
    server would (so that start-up, not a player, waits for them): one whole game of each,
    through the calls an action makes (the position's view, the legal moves as JSON, the
    listed action taken by its place, the move's view, the summary at the end).

    numba compiles a kernel on its first call, for seconds, holding the interpreter lock,
    and its cache is stale after every change of the sources: it must not happen while
    players wait. It did: this played four steps of each game, all of them chance steps in
    backgammon (the opening roll and its re-rolls), so no kernel of play was compiled
    before the first games, and with a stale cache every worker compiled them for 35 s
    while serving, the last one (the plays after a play) in the middle of the load
    benchmark's measured window: acknowledgements waited up to 4-6 s (5 December 2026)."""
    from dicehall.server.service import get_view
    from dicehall.server.views import legal_texts_and_json, listed_action

    for name in registered_games():
        rng = random.Random(0)
        try:
            state = game_class(name)().new_initial_state()
            view = get_view(name)
            for _ in range(max_steps):
                if state.is_terminal():
                    view.summary(state)
                    break
                if state.is_chance_node():  # not always the first: 1-1 re-rolls the opening
                    state = state.apply(rng.choice(state.legal_actions()))
                    continue
                view.state_view(state)
                texts, _moves = legal_texts_and_json(view, state)
                action = listed_action(view, state, 0, texts[0])
                after = state.apply(state.parse_action(texts[0]) if action is None else action)
                view.move_view(state, texts[0], after)
                state = after
        except Exception:  # a game that cannot warm up still loads when first played
            log.exception("warming up %s failed", name)


def tune_gc() -> None:
    """Warm up, then freeze what start-up made (``gc.freeze``): the collector's full passes
    walked every object of the loaded libraries again and again. Measured under the load
    benchmark (50 games, 45 s, CPU time of the collections): 1.64 s before, 0.80 s after,
    and the longest full pass 172 ms before, 80 ms after (the stall every player felt at
    once). Then a young generation of 50,000 objects (Python's is 700): nearly everything an
    action makes is freed by its reference count, so the collector's passes found little and
    cost much; under the same benchmark (50 games, 30 s) they took 1.46 s of CPU (1,054
    passes, about 15% of the server's time) with Python's thresholds, 0.03 s (one pass) with
    these, at the same memory (257-259 MiB). Full passes stay possible, ten times rarer than
    the middle generation's."""
    import gc

    warm_up()
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)


ENV_DB = "DICEHALL_DB"
ENV_BOT_DELAY = "DICEHALL_BOT_DELAY"
ENV_DB_CONNECTIONS = "DICEHALL_DB_CONNECTIONS"
ENV_ADDRESS_RATE = "DICEHALL_ADDRESS_RATE"
ENV_BOT_PROCESSES = "DICEHALL_BOT_PROCESSES"
ENV_REDIS = "DICEHALL_REDIS"
ENV_GRACE = "DICEHALL_GRACE"


def _ws_error(exc: ServiceError, ref: Any) -> dict[str, Any]:
    """The WebSocket ``error`` of a refused request, with its legal actions and its detail
    (a structured message, translated with the sentence: ``error_messages``)."""
    extra: dict[str, Any] = {"legal": exc.legal} if exc.legal else {}
    if exc.detail:
        extra["detail"] = exc.detail
    return error(exc.code, exc.message, ref, **extra)


def check_language(lang: str) -> None:
    """Refuse a language the site has no catalogue for, naming the ones it has.

    :raises ServiceError: ``bad_request``.
    """
    if lang not in i18n.LANGUAGES:
        raise ServiceError.said(
            "bad_request",
            N_("language {language}: expected one of {allowed}"),
            language=repr(clip(lang, 20)),
            allowed=", ".join(i18n.LANGUAGES),
        )


def clocks_presets(game: str) -> list[dict[str, Any]]:
    """The time controls the lobby offers for ``game`` (``clocks.PRESETS``)."""
    from dicehall.server.clocks import PRESETS

    return [TimeControl.parse(text).to_dict() for text in PRESETS.get(game, [])]


def app_from_env() -> FastAPI:
    """The app of one worker process of ``dicehall serve --workers N``, configured by the
    ``DICEHALL_DB``, ``DICEHALL_BOT_DELAY``, ``DICEHALL_ADDRESS_RATE``,
    ``DICEHALL_BOT_PROCESSES``, ``DICEHALL_REDIS``, ``DICEHALL_GRACE`` and
    ``DICEHALL_DB_CONNECTIONS`` variables."""
    import os

    limits = Limits(address_rate=float(os.environ.get(ENV_ADDRESS_RATE, "20")))
    return create_app(
        os.environ.get(ENV_DB),
        bot_delay=float(os.environ.get(ENV_BOT_DELAY, "0.4")),
        limits=limits,
        grace=float(os.environ.get(ENV_GRACE, str(GRACE))),
        bot_processes=int(os.environ.get(ENV_BOT_PROCESSES, "2")),
        redis_url=os.environ.get(ENV_REDIS) or None,
        db_connections=int(os.environ.get(ENV_DB_CONNECTIONS, str(DEFAULT_CONNECTIONS))),
        freeze_gc=True,
    )


def create_app(
    db: str | None = None,
    *,
    prefix: str = "",
    bot_delay: float = 0.4,
    store: Store | None = None,
    limits: Limits | None = None,
    bot_workers: int = 2,
    bot_processes: int = 0,
    expire_every: float = 600.0,
    grace: float = GRACE,
    threads: int = 64,
    redis_url: str | None = None,
    analysis_processes: int | None = None,
    freeze_gc: bool = False,
    db_connections: int = DEFAULT_CONNECTIONS,
) -> FastAPI:
    """The dicehall web app on the database ``db`` (default: SQLite in the user data dir).

    Games load lazily (when first touched). On PostgreSQL the app listens for the changes
    other processes commit, so any number of processes can serve one database. Every
    ``expire_every`` seconds abandoned games are expired (``GameService.expire``). Blocking
    work (commits, folds) runs in ``threads`` threads; on PostgreSQL an ordinary move of a
    game in play runs in the event loop, its append awaited on libpq's non-blocking
    interface (``GameService.act_in_loop``), and the other processes' changes are heard
    there too (``Store.listen_in_loop``). Bots think in ``bot_processes`` worker
    processes (``dicehall serve`` starts 2), or in ``bot_workers`` threads when it is 0.
    ``redis_url``: the per-address rate limits live in that Redis, shared by every process
    and host (``limits.RedisAddressLimiter``); without it each process counts alone.
    The replay's deep analyses run in ``analysis_processes`` (0: a thread; default: one
    process where bots think in processes, ``analysis_worker.Analyses``).
    ``freeze_gc`` (what ``dicehall serve`` does): at start-up, load the games' code, then
    move everything alive to the collector's permanent generation (``tune_gc``).
    ``db_connections``: the most PostgreSQL connections this process opens
    (``storage.ConnectionBudget``).
    """
    limits = limits or Limits()
    store = store or Store(db, prefix=prefix, connections=db_connections)
    service = GameService(
        store,
        bot_delay=bot_delay,
        limits=limits,
        bot_workers=bot_workers,
        bot_processes=bot_processes,
    )
    hub = Hub(service)
    accounts = accounts_module.Accounts(store)
    ratings = ratings_module.Ratings(store, accounts)
    service.listeners.append(ratings.on_commit)
    clocks = Clocks(store, service)
    presence = Presence(store, service, grace=grace)
    rooms = live_module.Rooms(service, hub, accounts, Chat(store), presence, clocks)
    seeks = seeks_module.Seeks(service, accounts, ratings, clocks)
    hub.remote_chat, hub.remote_presence = rooms.remote_chat, rooms.remote_presence
    analyses = Analyses(
        processes=(1 if bot_processes else 0) if analysis_processes is None else analysis_processes
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        if freeze_gc:
            await asyncio.to_thread(tune_gc)
        # blocking calls (an act waits for its commit) run in threads: asyncio's default pool
        # has min(32, cores + 4) of them, 6 on two cores, which capped how many commits could
        # wait together; anyio's (the sync HTTP endpoints) has 40
        io_pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="dicehall-io")
        hub.loop.set_default_executor(io_pool)
        hub.pool = acts = Workers(threads)
        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        # the other processes' changes, heard in this loop (no thread hand-over a change)
        listener = asyncio.create_task(store.listen_in_loop(hub.on_remote))

        async def expire_loop() -> None:
            while True:
                try:
                    # rated games whose server stopped before their rating update
                    rated = await asyncio.to_thread(ratings.sweep)
                    if rated:
                        log.info("rated %d finished games that were not rated yet", rated)
                    expired = await asyncio.to_thread(service.expire)
                    if expired:
                        log.info("expired %d abandoned games", len(expired))
                except Exception:
                    log.exception("expiring games failed")
                await asyncio.sleep(expire_every)

        async def clock_loop() -> None:
            await asyncio.to_thread(clocks.resume)  # flags fall in games nobody touches
            beat = 0.0
            while True:
                try:
                    await asyncio.to_thread(clocks.tick)
                    if loop_time() - beat >= HEARTBEAT:  # the seats connected here
                        beat = loop_time()
                        await asyncio.to_thread(presence.heartbeat)
                except Exception:
                    log.exception("the clocks failed")
                await asyncio.sleep(0.25)

        def loop_time() -> float:
            return asyncio.get_running_loop().time()

        expirer = asyncio.create_task(expire_loop())
        ticker = asyncio.create_task(clock_loop())
        yield
        expirer.cancel()
        ticker.cancel()
        listener.cancel()
        acts.shutdown()
        service.close()
        rooms.close()
        analyses.close()

    app = FastAPI(
        title="dicehall",
        version=f"protocol {PROTOCOL_VERSION}",
        description="Backgammon, Coin Rows and White Die in the browser. "
        "WebSocket protocol: /ws (see docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.hub = hub
    app.state.limits = limits
    app.state.accounts = accounts
    app.state.ratings = ratings
    app.state.clocks, app.state.presence, app.state.rooms = clocks, presence, rooms
    app.state.seeks = seeks
    app.add_middleware(Guard, limits=limits, redis_url=redis_url)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own reply quotes the whole input back: say where and what, never the input
        problems = [
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body')}: {e.get('msg', '')}"
            for e in exc.errors()[:5]
        ]
        message = clip("; ".join(problems), 400)
        return JSONResponse({"error": {"code": "bad_request", "message": message}}, 422)

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        body = exc.to_dict()
        lang = i18n.request_language(request.headers, request.cookies)
        body["message"] = error_messages.translate_error(lang, exc.code, exc.message, exc.detail)
        return JSONResponse({"error": body}, status_code=STATUS.get(exc.code, 400))

    # -- pages (server-rendered in the reader's language: dicehall.server.i18n) ----------
    def page(name: str, request: Request) -> HTMLResponse:
        lang = i18n.request_language(request.headers, request.cookies)
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        body = i18n.render(name, lang, here=here)
        # the page differs by language: caches must key on the header and the cookie
        headers = {"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"}
        return HTMLResponse(body, headers=headers)

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> HTMLResponse:
        return page("lobby.html", request)

    @app.get("/g/{game_id}", include_in_schema=False)
    async def game_page(game_id: str, request: Request) -> HTMLResponse:
        return page("game.html", request)

    @app.get("/g/{game_id}/replay", include_in_schema=False)
    async def replay_page(game_id: str, request: Request) -> HTMLResponse:
        return page("replay.html", request)

    @app.get("/fairness", include_in_schema=False)
    async def fairness_page(request: Request) -> HTMLResponse:
        return page("fairness.html", request)

    @app.get("/login", include_in_schema=False)
    async def login_page(request: Request) -> HTMLResponse:
        return page("account.html", request)

    @app.get("/players/{username}", include_in_schema=False)
    async def profile_page(username: str, request: Request) -> HTMLResponse:
        return page("profile.html", request)

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page(request: Request) -> HTMLResponse:
        return page("leaderboard.html", request)

    @app.get("/g/{game_id}/fairness", include_in_schema=False)
    async def game_fairness_page(game_id: str, request: Request) -> HTMLResponse:
        return page("fairness.html", request)

    @app.get("/lang/{lang}", include_in_schema=False)
    async def switch_language(lang: str, next: str = "/") -> RedirectResponse:
        """The language switch: remember ``lang`` in a cookie and go back to ``next`` (a path
        of this site only: never an open redirect)."""
        check_language(lang)
        if not next.startswith("/") or next.startswith("//") or "\\" in next:
            next = "/"
        response = RedirectResponse(next, status_code=303)
        response.set_cookie(
            i18n.COOKIE, lang, max_age=i18n.COOKIE_AGE, samesite="lax", httponly=True
        )
        return response

    @app.get("/api/i18n/{lang}.json", tags=["lobby"])
    def message_catalogue(lang: str) -> dict[str, Any]:
        """The browser's messages of ``lang`` ({English msgid: translation}), derived from the
        server's gettext catalogue (``web/locale/<lang>/LC_MESSAGES/messages.po``)."""
        check_language(lang)
        return {"lang": lang, "languages": i18n.LANGUAGES, "messages": i18n.messages(lang)}

    # -- HTTP API --------------------------------------------------------------
    app.include_router(accounts_module.router(accounts))
    app.include_router(ratings_module.router(ratings))
    app.include_router(seeks_module.router(seeks))
    app.include_router(live_module.router(rooms, header_tokens))

    @app.get("/api/catalog", tags=["lobby"])
    def catalog() -> list[dict[str, Any]]:
        """Every game with its options and the opponents the server can play."""
        out = []
        for name in registered_games():
            try:
                cls = game_class(name)
            except ImportError:
                continue  # a game that is not installed yet
            out.append(
                {
                    "name": name,
                    "title": cls.title,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "options": [
                        {
                            "name": o.name,
                            "type": o.type.__name__,
                            "default": o.default,
                            "description": o.description,
                            "choices": list(o.choices) if o.choices else None,
                            "minimum": o.minimum,
                            # the server's cap where the game states none
                            "maximum": o.maximum
                            if o.maximum is not None or o.type is not int
                            else OPTION_CAP,
                        }
                        for o in cls.option_specs
                    ],
                    "opponents": list(service.bot_specs(name)),
                    "clocks": clocks_presets(name),
                }
            )
        return out

    @app.get("/api/lobby", tags=["lobby"])
    def lobby() -> dict[str, list[dict[str, Any]]]:
        """Open games to join, live games to watch and recently finished games, with their
        age, players' ratings and spectators."""
        out = service.lobby()
        rooms.decorate_lobby(out, ratings)
        return out

    @app.post("/api/games", tags=["games"], status_code=201)
    def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        """Create a game. Keep the returned tokens secret: they are the seats. Logged in,
        the creator plays under his username and his seats are bound to his account.

        The game waits for the creator's player seed, sent with ``POST
        /api/games/{id}/seed`` now that the returned commitment is public (a seed in this
        request would let a server pick its own seed after seeing it)."""
        if body.seed:
            raise ServiceError(
                "bad_request",
                "send your player seed after the game's commitment is published: create "
                "without a seed, then POST /api/games/{id}/seed",
            )
        account = accounts.current(request)
        control = TimeControl.from_any(body.clock)
        game_id, tokens = service.create(
            body.game,
            body.options,
            opponent=body.opponent,
            seat=body.seat,
            name=account.username if account else guest_name(body.name),
            seed=None,
            account_id=account.id if account else None,
            rated=body.rated,
        )
        clocks.attach(game_id, control)
        live = service.get(game_id)
        return {
            "id": game_id,
            "url": f"/g/{game_id}",
            "tokens": tokens,
            "commitment": live.row.commitment,
        }

    def guest_name(name: str | None) -> str | None:
        """A guest's name, unless it is an account's username (in any case): a name on the
        board must not pass a guest off as a rated player.

        :raises ServiceError: ``name_taken``, saying to log in or choose another name.
        """
        if name and accounts.by_username(name.strip()) is not None:
            raise ServiceError.said(
                "name_taken",
                N_(
                    "{name} is the name of an account: log in to play under it, "
                    "or choose another name"
                ),
                name=repr(clip(name.strip(), 24)),
            )
        return name

    @app.post("/api/games/{game_id}/seed", tags=["games"])
    def seed(game_id: str, body: SeedBody, request: Request) -> dict[str, Any]:
        """Give your seats their player seed (once; the game starts when every seat has it).
        Tokens in the ``X-Seat-Token`` header or the body."""
        live = service.get(game_id)
        seats = service.seats_for(live, body.tokens or header_tokens(request))
        seeded = service.provide_seed(game_id, seats, body.seed)
        return {"ok": True, "seeded": seeded, "status": live.row.status}

    @app.get("/api/games/{game_id}", tags=["games"])
    def get_game(game_id: str, request: Request) -> dict[str, Any]:
        """The snapshot of a game: a spectator's, or with the ``X-Seat-Token`` header that of
        the seats held (then with the legal actions when one of them is to move)."""
        live = service.get(game_id)
        return service.snapshot(live, service.seats_for(live, header_tokens(request)))

    @app.post("/api/games/{game_id}/join", tags=["games"])
    def join_game(game_id: str, body: JoinGame, request: Request) -> dict[str, Any]:
        """Claim an open seat; returns its secret token. The game's commitment is public
        before anyone can join, so the joiner's seed comes with the join. Logged in, the
        joiner plays under his username and the seat is bound to his account."""
        account = accounts.current(request)
        seat, token = service.join(
            game_id,
            body.seat,
            account.username if account else guest_name(body.name),
            body.seed,
            account_id=account.id if account else None,
        )
        return {"id": game_id, "seat": seat, "token": token}

    @app.post("/api/games/{game_id}/resume", tags=["games"])
    def resume(game_id: str, request: Request) -> dict[str, Any]:
        """Logged in: new tokens for your seats of the game, to go on playing in this
        browser (the tokens of the other browser stop working)."""
        account = accounts.current(request)
        if account is None:
            raise ServiceError("not_logged_in", "log in to resume your seats of a game")
        tokens = service.resume(game_id, account.id)
        if not tokens:
            raise ServiceError("not_your_seat", "none of this game's seats is bound to you")
        return {"id": game_id, "tokens": tokens}

    @app.post("/api/games/{game_id}/act", tags=["games"])
    def act(game_id: str, body: ActBody, request: Request) -> dict[str, Any]:
        """Play an action over plain HTTP (the browser uses the WebSocket)."""
        live = service.get(game_id)
        seats = service.seats_for(live, body.tokens or header_tokens(request))
        seq = service.act(game_id, seats, body.text, body.seq)
        return {"ok": True, "seq": seq}

    @app.post("/api/games/{game_id}/resign", tags=["games"])
    def resign(game_id: str, body: Tokens, request: Request) -> dict[str, Any]:
        """Resign: the game ends now and your seat loses (tokens in the body or the
        ``X-Seat-Token`` header)."""
        live = service.get(game_id)
        seat = service.resign(
            game_id, service.seats_for(live, body.tokens or header_tokens(request))
        )
        return {"ok": True, "seat": seat, "result": live.row.result}

    @app.post("/api/games/{game_id}/rematch", tags=["games"])
    def rematch(game_id: str, body: Tokens) -> dict[str, Any]:
        """A new game with the same settings; the caller keeps his seats."""
        new_id, tokens = service.rematch(game_id, body.tokens)
        return {"id": new_id, "url": f"/g/{new_id}", "tokens": tokens}

    @app.get("/api/games/{game_id}/record", tags=["records"])
    def record(game_id: str, download: bool = False, format: str = "json") -> Response:
        """The game record (JSON); the server seed is in it once the game is over.
        ``format=mat``: a backgammon match as a ``.mat`` file (GNU Backgammon, Jellyfish)."""
        rec = service.record(game_id)
        headers = {}
        if format not in ("json", "mat"):
            raise ServiceError.said(
                "bad_request",
                N_("format {format}: expected json or mat"),
                format=repr(clip(format, 20)),
            )
        if download:
            headers["Content-Disposition"] = f'attachment; filename="dicehall-{game_id}.{format}"'
        if format == "mat":
            from dicehall.games.backgammon.mat import export_mat

            try:
                text = export_mat(rec)
            except DicehallError as exc:
                raise ServiceError("bad_request", str(exc)) from None
            return Response(text, media_type="text/plain; charset=utf-8", headers=headers)
        return Response(rec.to_json(), media_type="application/json", headers=headers)

    @app.get("/api/games/{game_id}/board.svg", tags=["records"])
    def board_image(
        game_id: str,
        ply: int | None = None,
        orientation: int | None = None,
        size: int | None = None,
    ) -> Response:
        """The board as an SVG image, now or after ``ply`` actions, drawn on the server by
        ``dicehall.svg`` (the same drawing Jupyter shows): for thumbnails and links."""
        svg = service.board_svg(game_id, ply, orientation=orientation, size=size)
        return Response(svg, media_type="image/svg+xml")

    @app.get("/api/games/{game_id}/hint", tags=["games"])
    def game_hint(game_id: str, request: Request) -> dict[str, Any]:
        """The bot's best options for your seat to move, with their values (as the terminal's
        ``hint``). Only for the seat to move (``X-Seat-Token``), never in rated games."""
        live = service.get(game_id)
        seats = service.seats_for(live, header_tokens(request))
        if live.row.rated:
            raise ServiceError("no_hints", "no hints in rated games")
        with live.lock:
            state = live.state
            status = live.row.status
        to_move = state.current_player()
        if status != "playing" or to_move not in seats:
            raise ServiceError("not_your_seat", "a hint is for the seat to move, in its turn")
        try:
            return analysis_module.hint(state, live.row.game)
        except analysis_module.AnalysisError as exc:
            raise ServiceError("bad_request", str(exc)) from None

    @app.get("/api/games/{game_id}/analysis", tags=["records"])
    def game_analysis(game_id: str) -> dict[str, Any]:
        """Every decision of a finished game against the bot's best option (as ``dicehall
        analyze``): the value lost, errors and blunders marked, the equity per decision. The
        quick analysis comes at once; while the deep one (backgammon: expert, as ``dicehall
        analyze``) is computed in the background, ``deeper`` says how far it is: ask again."""
        live = service.get(game_id)
        if live.row.status != "finished":
            raise ServiceError("not_finished", "the analysis comes when the game is over")
        try:
            return analyses.report(game_id, lambda: service.record(game_id))
        except analysis_module.AnalysisError as exc:
            raise ServiceError("bad_request", str(exc)) from None

    @app.get("/api/games/{game_id}/frames", tags=["records"])
    def frames(game_id: str) -> list[dict[str, Any]]:
        """The view after every action, for the replay viewer."""
        return service.frames(game_id)

    @app.get("/api/games/{game_id}/verify", tags=["records"])
    def verify(game_id: str) -> dict[str, Any]:
        """The server's own check of every roll (check it yourself with dicehall verify)."""
        try:
            checks = verify_record(service.record(game_id))
        except DicehallError as exc:
            return {"ok": False, "message": str(exc), "rolls": []}
        return {
            "ok": all(c.ok for c in checks),
            "message": f"{sum(c.ok for c in checks)} of {len(checks)} rolls match",
            "rolls": [
                {"index": c.index, "recorded": c.recorded, "expected": c.expected, "faces": c.faces}
                for c in checks
            ],
        }

    @app.get("/api/protocol", tags=["lobby"])
    def protocol() -> dict[str, Any]:
        return {"version": PROTOCOL_VERSION, "websocket": "/ws", "docs": "docs/protocol.md"}

    # -- WebSocket ---------------------------------------------------------------
    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws, limits)
        conn.lang = i18n.request_language(ws.headers, ws.cookies)  # for its error messages
        conn.account = await asyncio.to_thread(
            accounts.session, ws.cookies.get(accounts_module.COOKIE)
        )
        sender = asyncio.create_task(_sender(conn))
        try:
            while not conn.too_slow:
                raw = await ws.receive_text()
                if len(raw) > limits.max_frame:  # uvicorn refuses bigger frames itself
                    conn.push(
                        dumps(error("too_big", f"a message is at most {limits.max_frame} bytes"))
                    )
                    await asyncio.sleep(0)
                    await ws.close(1009)
                    break
                if not conn.bucket.take():
                    conn.floods += 1
                    if conn.floods > limits.flood_errors:
                        await ws.close(1008, "too many messages")
                        break
                    conn.push(dumps(error("rate_limited", "too many messages: slow down")))
                    continue
                try:
                    reply = await _handle(conn, raw)
                except Exception as exc:  # a bug must not cost the client its connection
                    log.exception("websocket message failed")
                    reply = error("internal_error", clip(f"the server failed: {exc}", 200))
                if reply is not None:
                    if reply.get("type") == "error":
                        reply["message"] = error_messages.translate_error(
                            conn.lang, reply["code"], reply["message"], reply.get("detail")
                        )
                    conn.push(dumps(reply))
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket was closed under us
            pass
        finally:
            gone = (conn.game_id, list(conn.seats))
            hub.leave(conn)
            rooms.left(*gone)  # the other players learn at once that this one left
            conn.queue.put_nowait(None)
            with contextlib.suppress(BaseException):
                await sender
        if conn.too_slow:
            with contextlib.suppress(Exception):
                await ws.close(1013, "too slow to keep up: reconnect")

    async def _sender(conn: Connection) -> None:
        try:
            while True:
                text = await conn.queue.get()
                if text is None:
                    return
                if conn.carried is not None:  # a frame sent at once is still on its way
                    await conn.carried
                if conn.gone:
                    return
                conn.sending = True
                try:
                    await conn.send(text)
                finally:
                    conn.sending = False
        except Exception:  # the client went away
            return

    async def _handle(conn: Connection, raw: str) -> dict[str, Any] | None:
        """The answer to one client frame (None: the answer is the snapshot that follows)."""
        try:
            msg = messages.envelope(raw)
            typed = messages.validate(msg)
        except messages.DecodeError as exc:
            return exc.reply()
        ref = typed.ref if typed is not None else None
        if isinstance(typed, messages.PingMessage):
            return {"type": "pong", "v": PROTOCOL_VERSION, "ref": ref}
        if isinstance(typed, messages.JoinMessage):
            try:
                seats = await asyncio.to_thread(_join_room, conn, typed.game, typed.tokens, ref)
            except ServiceError as exc:
                return _ws_error(exc, ref)
            if typed.tokens and not seats:
                return error("bad_token", "that token holds no seat here: you are watching", ref)
            return None
        if isinstance(typed, messages.ActMessage):
            if conn.game_id is None:
                return error("not_joined", "send a join message first", ref)
            text = typed.text
            act = functools.partial(service.act, conn.game_id, conn.seats, text, typed.seq)
            here = functools.partial(
                service.act_in_loop, conn.game_id, list(conn.seats), text, typed.seq
            )
            try:
                new_seq, acked = await hub.act_for(conn, ref, act, here)
            except ServiceError as exc:
                return _ws_error(exc, ref)
            except Exception as exc:  # a bug must not cost the player his connection
                log.exception("act %r in game %s failed", clip(text, 60), conn.game_id)
                return error("internal_error", clip(f"the server failed: {exc}", 200), ref)
            if acked:  # the update this connection got carries ``ref``: it is the answer
                return None
            return {"type": "ok", "v": PROTOCOL_VERSION, "ref": ref, "seq": new_seq}
        if isinstance(typed, messages.ResignMessage):
            if conn.game_id is None:
                return error("not_joined", "send a join message first", ref)
            try:
                seat = await asyncio.to_thread(service.resign, conn.game_id, conn.seats)
            except ServiceError as exc:
                return _ws_error(exc, ref)
            return {"type": "ok", "v": PROTOCOL_VERSION, "ref": ref, "resigned": seat}
        kind = msg.get("type")
        if kind in live_module.KINDS:  # chat, claim, clock (server/live.py checks their fields)
            ref = messages.short_ref(msg.get("ref"))
            try:
                return await asyncio.to_thread(rooms.handle, conn, kind, msg, ref)
            except ServiceError as exc:
                return _ws_error(exc, ref)
        return messages.DecodeError(
            messages.ErrorCode.BAD_MESSAGE,
            f"unknown message type {clip(str(kind), 30)!r}; expected join, act, resign, "
            "chat, claim, clock or ping",
            messages.short_ref(msg.get("ref")),
        ).reply()

    def _join_room(conn: Connection, game_id: str, tokens: list[str], ref: Any) -> list[int]:
        """Enter the game's room with its snapshot (worker thread; the game's lock held)."""
        live = service.get(game_id)
        seats = service.seats_for(live, tokens)
        with live.lock:
            # what another process committed and this one has not heard yet (its
            # notification may still be on the way) belongs in the snapshot
            service.sync(live)
            if conn.game_id == game_id:
                presence.left(game_id, conn.seats)  # a rejoin of the same room counts once
            else:
                rooms.left(conn.game_id, list(conn.seats))
            presence.joined(game_id, seats)  # before the snapshot, which shows it
            snap = {"type": "snapshot", "v": PROTOCOL_VERSION, "ref": ref}
            snap.update(service.snapshot(live, seats))
            snap["chat"] = rooms.history(game_id, seats)
            hub.enter(conn, live, seats, dumps(snap))
            # a change heard before the room had ``conn`` dropped the cached copy (nobody
            # watched): put it back, or the room hears nothing more from other processes
            service.adopt(live)
            rooms.joined(game_id, seats)
            if live.row.status == "playing":
                with contextlib.suppress(ServiceError):
                    service.wake(live)  # its process may have died: dice and bots go on
        return seats

    return app
