"""``dicehall serve --workers N``: one dispatcher process owns the listening socket and hands
each accepted connection to a worker process, by the game it names.

With uvicorn's own workers the kernel spreads the accepted connections over the processes,
so the two seats of a friend game land on different processes about half the time, and the
process without the acting seat applies and redraws every action a second time (heard
through PostgreSQL's LISTEN/NOTIFY). Here the dispatcher accepts, peeks at the request line
(``MSG_PEEK``: the bytes stay in the socket for the worker, at most ``PEEK_BYTES`` and
``PEEK_SECONDS``), and passes the socket (``SCM_RIGHTS`` over a Unix socket) to the worker
chosen by a stable hash of the ``game=`` query parameter (``/ws?game=ID``: game ids are
public, tokens never go in URLs), round-robin without one. A dead worker's games go to the
next live worker in the hash order (LISTEN/NOTIFY keeps processes consistent whatever the
routing: routing only makes the common case cheap), and the dead worker is started again.
Only the set-up of a connection goes through the dispatcher; its bytes then flow between
the client and the worker alone.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("dicehall.dispatch")

#: at most this much of a request is peeked at for its request line
PEEK_BYTES = 2048
#: a connection that has not sent its request line by then goes to a worker without a hint
PEEK_SECONDS = 1.0
#: connections held while no worker is ready (at start-up); more are closed
MAX_WAITING = 4096
#: seconds before a worker that died is started again after a failed start
RESTART_BACKOFF = 1.0

ENV_CHANNEL = "DICEHALL_DISPATCH_FD"
ENV_CONFIG = "DICEHALL_UVICORN_CONFIG"
_GAME_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def route_hint(head: bytes) -> str | None:
    """The game id of ``game=`` in the query of the request line at the start of ``head``,
    or None (no complete request line, not HTTP, no or a malformed parameter)."""
    end = head.find(b"\r\n")
    if end < 0:
        return None
    parts = head[:end].split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return None
    _, _, query = parts[1].partition(b"?")
    for pair in query.split(b"&"):
        key, _, value = pair.partition(b"=")
        if key == b"game" and 0 < len(value) <= 64 and set(value) <= _GAME_CHARS:
            return value.decode("ascii")
    return None


def hash_order(hint: str, n: int) -> list[int]:
    """The workers a game's connections go to, in order of preference (stable across
    processes and runs, unlike ``hash``)."""
    start = zlib.crc32(hint.encode()) % n
    return [(start + k) % n for k in range(n)]


@dataclass
class _Worker:
    index: int
    proc: subprocess.Popen[bytes]
    chan: socket.socket  # the dispatcher's end
    peer: socket.socket  # the worker's end, kept to take back what a dead worker never read
    ready: bool = False
    started: float = field(default_factory=time.monotonic)


@dataclass
class _Pending:
    sock: socket.socket
    deadline: float


class Dispatcher:
    """Accept on ``listener`` and pass each connection to one of ``workers`` processes that
    ``command`` starts (each gets its end of a Unix socket in ``ENV_CHANNEL``)."""

    def __init__(
        self,
        listener: socket.socket,
        workers: int,
        command: list[str],
        *,
        restart: bool = True,
    ) -> None:
        self.listener = listener
        self.restart = restart  # start a dead worker again (tests turn it off)
        self.n = workers
        self.command = command
        self.sel = selectors.DefaultSelector()
        self.workers: list[_Worker | None] = [None] * workers
        self.restart_at: dict[int, float] = {}
        self.pending: dict[int, _Pending] = {}
        self.waiting: list[tuple[socket.socket, str | None]] = []
        self.rr = 0
        self.stopping = False
        self.accept_paused = 0.0  # when accepting starts again after a failure (0: now)
        self.ever_ready = False
        self.routed: dict[int, int] = {}  # connections passed per worker (for tests and logs)

    # -- workers -------------------------------------------------------------------
    def _spawn(self, index: int) -> None:
        chan, peer = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        chan.setblocking(False)
        env = {**os.environ, ENV_CHANNEL: str(peer.fileno()), "DICEHALL_WORKER_INDEX": str(index)}
        proc = subprocess.Popen(self.command, pass_fds=[peer.fileno()], env=env)
        worker = _Worker(index, proc, chan, peer)
        self.workers[index] = worker
        self.sel.register(chan, selectors.EVENT_READ, ("worker", index))

    def _reap(self) -> None:
        """Notice workers that exited, take back the connections they never read, and start
        them again (at once, or after ``RESTART_BACKOFF`` if they died starting up)."""
        now = time.monotonic()
        for index, worker in enumerate(self.workers):
            if worker is None or worker.proc.poll() is None:
                continue
            code = worker.proc.returncode
            asked = self.stopping or code in (0, -signal.SIGTERM, -signal.SIGINT)
            log.log(
                logging.INFO if asked else logging.WARNING,
                "worker %d (pid %d) exited with %s",
                index,
                worker.proc.pid,
                code,
            )
            orphans: list[socket.socket] = []
            worker.peer.setblocking(False)
            while True:
                try:
                    _, fds, _, _ = socket.recv_fds(worker.peer, 16, 4)
                except OSError:
                    break
                if not fds:
                    break
                orphans.extend(socket.socket(fileno=fd) for fd in fds)
            self.sel.unregister(worker.chan)
            worker.chan.close()
            worker.peer.close()
            self.workers[index] = None
            if not self.stopping and self.restart:
                self.restart_at[index] = now + (0 if worker.ready else RESTART_BACKOFF)
            for sock in orphans:  # their request is still unread: route them again
                self._route(sock, self._peek_hint(sock))
        for index, when in list(self.restart_at.items()):
            if when <= now and not self.stopping:
                del self.restart_at[index]
                self._spawn(index)

    def _worker_message(self, index: int) -> None:
        worker = self.workers[index]
        if worker is None:
            return
        try:
            data = worker.chan.recv(16)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data.startswith(b"r") and not worker.ready:
            worker.ready = True
            self.ever_ready = True
            waiting, self.waiting = self.waiting, []
            for sock, hint in waiting:
                self._route(sock, hint)

    # -- connections ---------------------------------------------------------------
    def live(self) -> list[int]:
        """The workers that are ready for connections."""
        return [w.index for w in self.workers if w is not None and w.ready]

    def choose(self, hint: str | None) -> list[int]:
        """The ready workers to try for a connection, best first."""
        live = set(self.live())
        if hint is not None:
            return [i for i in hash_order(hint, self.n) if i in live]
        order = sorted(live)
        if not order:
            return []
        self.rr = (self.rr + 1) % len(order)
        return order[self.rr :] + order[: self.rr]

    def _route(self, sock: socket.socket, hint: str | None) -> None:
        for index in self.choose(hint):
            worker = self.workers[index]
            assert worker is not None
            try:
                socket.send_fds(worker.chan, [b"c"], [sock.fileno()])
            except OSError:  # full (a stuck worker) or gone: the next one
                continue
            self.routed[index] = self.routed.get(index, 0) + 1
            sock.close()
            return
        if len(self.waiting) < MAX_WAITING and not self.stopping:
            self.waiting.append((sock, hint))
        else:
            sock.close()

    @staticmethod
    def _peek_hint(sock: socket.socket) -> str | None:
        try:
            return route_hint(sock.recv(PEEK_BYTES, socket.MSG_PEEK))
        except OSError:
            return None

    def _accept(self) -> None:
        for _ in range(64):
            try:
                sock, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # out of descriptors and the like: pause, try again
                log.warning("accept failed: %s", exc)
                self.sel.unregister(self.listener)  # else the ready listener spins the loop
                self.accept_paused = time.monotonic() + 0.1
                return
            sock.setblocking(False)
            self.pending[sock.fileno()] = _Pending(sock, time.monotonic() + PEEK_SECONDS)
            self.sel.register(sock, selectors.EVENT_READ, ("conn", sock.fileno()))

    def _readable(self, fd: int) -> None:
        item = self.pending.pop(fd, None)
        if item is None:
            return
        self.sel.unregister(item.sock)
        try:
            head = item.sock.recv(PEEK_BYTES, socket.MSG_PEEK)
        except OSError:
            item.sock.close()
            return
        if not head:  # closed before it said anything
            item.sock.close()
            return
        # an incomplete request line (a slow client, an oversized line) goes without a
        # hint: the worker reads and judges it as any server would
        item.sock.setblocking(True)
        self._route(item.sock, route_hint(head))

    def _expire(self, now: float) -> None:
        for fd, item in list(self.pending.items()):
            if item.deadline <= now:
                del self.pending[fd]
                self.sel.unregister(item.sock)
                item.sock.setblocking(True)
                self._route(item.sock, None)

    # -- main loop -----------------------------------------------------------------
    def stop(self, *_: Any) -> None:
        self.stopping = True

    def run(self) -> int:
        """Serve until SIGINT or SIGTERM; the exit status."""
        self.listener.setblocking(False)
        self.sel.register(self.listener, selectors.EVENT_READ, ("listen", 0))
        for index in range(self.n):
            self._spawn(index)
        old = {}
        if threading.current_thread() is threading.main_thread():  # not in tests' threads
            old = {sig: signal.signal(sig, self.stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        status = 0
        try:
            while not self.stopping:
                if self.accept_paused and self.accept_paused <= time.monotonic():
                    self.accept_paused = 0.0
                    self.sel.register(self.listener, selectors.EVENT_READ, ("listen", 0))
                for key, _ in self.sel.select(timeout=0.2):
                    kind, ref = key.data
                    if kind == "listen":
                        self._accept()
                    elif kind == "conn":
                        self._readable(ref)
                    else:
                        self._worker_message(ref)
                self._expire(time.monotonic())
                self._reap()
                if not self.ever_ready and all(
                    w is None or w.proc.poll() is not None for w in self.workers
                ):
                    log.error("no worker started")
                    status = 3
                    break
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
            self._shutdown()
        return status

    def _shutdown(self) -> None:
        self.stopping = True
        self.listener.close()
        for item in self.pending.values():
            item.sock.close()
        for sock, _ in self.waiting:
            sock.close()
        live = [w for w in self.workers if w is not None]
        for worker in live:
            if worker.proc.poll() is None:
                worker.proc.terminate()
        deadline = time.monotonic() + 30
        for worker in live:
            try:
                worker.proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.proc.kill()
                worker.proc.wait()
            worker.chan.close()
            worker.peer.close()


# -- the worker side -------------------------------------------------------------------
def _channel_server_class() -> Any:
    import asyncio

    import uvicorn

    class ChannelServer(uvicorn.Server):
        """uvicorn's server on the connections the dispatcher passes (no listening socket)."""

        def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
            super().__init__(config)
            self.channel = channel
            self._opening: set[asyncio.Task[Any]] = set()

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=[])
            if self.should_exit:
                return
            loop = asyncio.get_running_loop()
            config = self.config

            def create_protocol() -> asyncio.Protocol:
                return config.http_protocol_class(  # type: ignore[call-arg]
                    config=config,
                    server_state=self.server_state,
                    app_state=self.lifespan.state,
                    _loop=loop,
                )

            self._create_protocol = create_protocol
            self.channel.setblocking(False)
            loop.add_reader(self.channel.fileno(), self._receive)
            self.channel.send(b"r")  # ready: the dispatcher may pass connections now

        def _receive(self) -> None:
            loop = asyncio.get_running_loop()
            while True:
                try:
                    msg, fds, _, _ = socket.recv_fds(self.channel, 16, 4)
                except BlockingIOError:
                    return
                except OSError:
                    msg, fds = b"", []
                if not msg and not fds:  # the dispatcher is gone: stop as on a signal
                    loop.remove_reader(self.channel.fileno())
                    self.should_exit = True
                    return
                for fd in fds:
                    sock = socket.socket(fileno=fd)
                    if self.should_exit:
                        sock.close()
                        continue
                    task = loop.create_task(self._open(sock))
                    self._opening.add(task)
                    task.add_done_callback(self._opening.discard)

        async def _open(self, sock: socket.socket) -> None:
            sock.setblocking(False)
            try:
                await asyncio.get_running_loop().connect_accepted_socket(
                    self._create_protocol, sock
                )
            except OSError:
                sock.close()

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self.channel.fileno())
            self.channel.close()
            await super().shutdown(sockets=None)

    return ChannelServer


def worker_main() -> None:
    """A worker process: uvicorn with the app of ``app_from_env`` on the connections passed
    through the Unix socket in ``ENV_CHANNEL``, configured by ``ENV_CONFIG`` (JSON)."""
    import uvicorn

    channel = socket.socket(fileno=int(os.environ[ENV_CHANNEL]))
    channel.set_inheritable(False)  # not for the bots' processes
    options = json.loads(os.environ[ENV_CONFIG])
    config = uvicorn.Config("dicehall.server.app:app_from_env", factory=True, **options)
    server = _channel_server_class()(config, channel)
    server.run()
    if not server.started:
        sys.exit(3)


def supported() -> bool:
    """Whether this system has what the dispatcher needs (tested on Linux only: passing
    sockets over ``SOCK_SEQPACKET`` Unix sockets)."""
    return sys.platform.startswith("linux") and hasattr(socket, "send_fds")


def serve_dispatched(options: dict[str, Any], workers: int) -> int:
    """Bind ``options``' host and port, start ``workers`` worker processes and dispatch to
    them until stopped; the exit status. ``options`` are uvicorn.Config's (JSON-able)."""
    import uvicorn

    config = uvicorn.Config("dicehall.server.app:app_from_env", factory=True, **options)
    listener = config.bind_socket()
    listener.listen(config.backlog)
    listener.set_inheritable(False)
    os.environ[ENV_CONFIG] = json.dumps(options)
    entry = "from dicehall.server.dispatch import worker_main; worker_main()"
    command = [sys.executable, "-c", entry]
    return Dispatcher(listener, workers, command).run()
