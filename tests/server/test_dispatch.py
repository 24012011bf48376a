"""``dicehall serve --workers N``'s dispatcher: connections routed by the game in the URL,
a dead worker's games sent to a live one (and the worker started again), the request
unharmed by the peek, odd request lines passed on harmlessly; and a whole game through
``serve --workers 2`` on PostgreSQL, with a kill -9 of the game's worker."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from dicehall_server_fixtures import free_port, wait_until_serving
from websockets.sync.client import ClientConnection, connect

from dicehall.server.dispatch import Dispatcher, hash_order, route_hint

# A stand-in worker: it reads each connection's request (up to its blank line) and answers
# with its index and pid, then the bytes it read, exactly.
FAKE_WORKER = r"""
import os, socket
ch = socket.socket(fileno=int(os.environ["DICEHALL_DISPATCH_FD"]))
ch.send(b"r")
while True:
    msg, fds, _, _ = socket.recv_fds(ch, 16, 4)
    if not msg and not fds:
        break
    for fd in fds:
        s = socket.socket(fileno=fd)
        s.setblocking(True)
        s.settimeout(30)
        data = b""
        try:
            while b"\r\n\r\n" not in data and len(data) < 100000:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            head = f"{os.environ['DICEHALL_WORKER_INDEX']} {os.getpid()}\n".encode()
            s.sendall(head + data)
        except OSError:
            pass
        s.close()
"""


def test_the_game_is_read_from_the_request_line_only_when_well_formed() -> None:
    assert route_hint(b"GET /ws?game=abcXYZ09 HTTP/1.1\r\nHost: x\r\n\r\n") == "abcXYZ09"
    assert route_hint(b"GET /ws?lang=fr&game=a-b_c HTTP/1.1\r\n") == "a-b_c"
    assert route_hint(b"GET /ws HTTP/1.1\r\n") is None
    assert route_hint(b"GET /ws?game= HTTP/1.1\r\n") is None
    assert route_hint(b"GET /ws?game=a%20b HTTP/1.1\r\n") is None
    assert route_hint(b"GET /ws?game=" + b"a" * 65 + b" HTTP/1.1\r\n") is None
    assert route_hint(b"GET /ws?game=abc HTTP/1.1") is None  # the line is not complete
    assert route_hint(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n") is None  # TLS
    assert route_hint(b"GET /ws?game=abc\r\n") is None  # not HTTP/1
    assert route_hint(b"") is None


def test_a_game_keeps_its_place_in_the_hash_order() -> None:
    assert hash_order("abc", 4) == hash_order("abc", 4)
    assert sorted(hash_order("abc", 4)) == [0, 1, 2, 3]
    assert {hash_order(f"g{i}", 4)[0] for i in range(40)} == {0, 1, 2, 3}


class FakeFarm:
    """A dispatcher in a thread of the test, before three stand-in workers."""

    def __init__(self, workers: int = 3, *, restart: bool = True) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        command = [sys.executable, "-c", FAKE_WORKER]
        self.dispatcher = Dispatcher(self.listener, workers, command, restart=restart)
        self.thread = threading.Thread(target=self.dispatcher.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 120
        while len(self.dispatcher.live()) < workers:  # before, games go to the ready ones
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.05)

    def ask(self, payload: bytes, *, pause: float = 0.0) -> tuple[int, int, bytes]:
        """Send ``payload`` (after ``pause`` seconds of silence); the worker's index, its
        pid and the bytes it read."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=60) as s:
            if pause:
                time.sleep(pause)
            s.sendall(payload)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\n")
        index, pid = head.split()
        return int(index), int(pid), body

    def close(self) -> None:
        self.dispatcher.stop()
        self.thread.join(60)


@pytest.fixture(name="farm")
def farm_fixture() -> Iterator[FakeFarm]:
    farm = FakeFarm()
    try:
        yield farm
    finally:
        farm.close()


def request(game: str | None) -> bytes:
    target = f"/ws?game={game}" if game else "/ws"
    return f"GET {target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n".encode()


def test_every_connection_of_a_game_reaches_the_same_worker_unharmed(farm: FakeFarm) -> None:
    for game in ("abc", "Zq9xY2kLmN0p", "g7"):
        seen = set()
        for _ in range(6):
            index, pid, body = farm.ask(request(game))
            assert body == request(game)  # the peek took nothing from the request
            seen.add((index, pid))
        assert seen == {(hash_order(game, 3)[0], seen.copy().pop()[1])}
    # without a game the connections are spread
    assert {farm.ask(request(None))[0] for _ in range(6)} == {0, 1, 2}


def test_odd_requests_are_passed_on_or_dropped_harmlessly(farm: FakeFarm) -> None:
    long = b"GET /ws?game=abc&x=" + b"y" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    assert farm.ask(long)[2] == long  # longer than the peek: passed on whole, to anyone
    junk = b"\x00\xff garbage\r\n\r\n"
    assert farm.ask(junk)[2] == junk
    # a client that says nothing at first is passed on after the peek's time, unharmed
    assert farm.ask(request("abc"), pause=1.5)[2] == request("abc")
    for _ in range(3):  # a client that connects and goes away costs nothing
        socket.create_connection(("127.0.0.1", farm.port), timeout=10).close()
    assert farm.ask(request("abc"))[2] == request("abc")


def kill_and_wait(farm: FakeFarm, index: int, pid: int) -> None:
    """Kill worker ``index`` (``pid``) with SIGKILL and wait until the dispatcher knows.
    (A connection passed at the very instant of the kill dies with the worker, as one
    accepted by it would.)"""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 120
    while True:
        worker = farm.dispatcher.workers[index]
        if worker is None or worker.proc.pid != pid:
            return
        assert time.monotonic() < deadline, "the dispatcher did not notice the kill"
        time.sleep(0.05)


def test_a_killed_workers_games_go_to_the_next_worker_in_their_order() -> None:
    farm = FakeFarm(restart=False)
    try:
        game = "abc"
        home, pid, _ = farm.ask(request(game))
        assert home == hash_order(game, 3)[0]
        kill_and_wait(farm, home, pid)
        for _ in range(4):
            index, _, body = farm.ask(request(game))
            assert index == hash_order(game, 3)[1] and body == request(game)
        # and connections without a game go to the live ones only
        assert {farm.ask(request(None))[0] for _ in range(6)} == {0, 1, 2} - {home}
    finally:
        farm.close()


def test_a_killed_worker_is_started_again_and_gets_its_games_back(farm: FakeFarm) -> None:
    game = "abc"
    home, pid, _ = farm.ask(request(game))
    kill_and_wait(farm, home, pid)
    served = farm.ask(request(game))  # the next in the hash order, or home started again
    assert served[1] != pid and served[2] == request(game)
    deadline = time.monotonic() + 120
    while True:  # home is started again and has its games back
        index, new_pid, body = farm.ask(request(game))
        assert body == request(game)
        if index == home:
            assert new_pid != pid
            break
        assert time.monotonic() < deadline, "the killed worker was not started again"
        time.sleep(0.2)


# -- the real thing: serve --workers 2 on PostgreSQL -------------------------------------
ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def workers_of(pid: int) -> dict[int, int]:
    """The worker processes of the dispatcher ``pid``: their index → pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            env = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) != pid:
            continue
        for var in env:
            if var.startswith(b"DICEHALL_WORKER_INDEX="):
                found[int(var.split(b"=", 1)[1])] = int(entry.name)
    return found


@pytest.fixture(name="served")
def served_fixture() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    psycopg = pytest.importorskip("psycopg")
    name = f"dicehall_disp_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(ADMIN, autocommit=True, connect_timeout=3) as c:
            c.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as exc:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432 ({exc})")
    port = free_port()
    cmd = [
        sys.executable, "-c", "from dicehall.cli.main import main; main()", "serve",
        "--port", str(port), "--db", f"postgresql://postgres@127.0.0.1:5432/{name}",
        "--workers", "2", "--bot-delay", "0", "--log-level", "warning",
        "--address-rate", "0", "--db-connections", "8",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base, proc)
        yield base, proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(60)
        with psycopg.connect(ADMIN, autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def send(ws: ClientConnection, **msg: Any) -> None:
    ws.send(json.dumps({"v": 1, **msg}))


def until(ws: ClientConnection, pred: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if pred(msg):
            return msg  # type: ignore[no-any-return]


@pytest.mark.postgres
def test_a_game_plays_through_the_dispatcher_and_survives_a_kill_9_of_its_worker(
    served: tuple[str, subprocess.Popen[bytes]],
) -> None:
    base, proc = served
    created = httpx.post(
        f"{base}/api/games", json={"game": "backgammon", "opponent": "friend"}, timeout=60
    ).json()
    game_id, t0 = created["id"], created["tokens"]["0"]
    seeded = httpx.post(
        f"{base}/api/games/{game_id}/seed",
        json={"seed": "a"},
        headers={"X-Seat-Token": t0},
        timeout=60,
    )
    assert seeded.status_code == 200, seeded.text
    joined = httpx.post(f"{base}/api/games/{game_id}/join", json={"seed": "b"}, timeout=60)
    t1 = joined.json()["token"]
    url = f"ws://{base[7:]}/ws?game={game_id}"

    def play(moves: int) -> None:
        """A player (both seats), the second seat and a spectator connect through the
        dispatcher; ``moves`` moves (or to the end), each seen by the other two."""
        with (
            connect(url, open_timeout=60) as player,
            connect(url, open_timeout=60) as seat,
            connect(url, open_timeout=60) as watcher,
        ):
            send(player, type="join", ref=1, game=game_id, tokens=[t0, t1])
            snap = until(player, lambda m: m["type"] == "snapshot")
            send(seat, type="join", ref=1, game=game_id, tokens=[t1])
            send(watcher, type="join", ref=1, game=game_id, tokens=[])
            for ws in (seat, watcher):
                until(ws, lambda m: m["type"] == "snapshot")
            for _ in range(moves):
                if not snap.get("legal"):  # the end
                    break
                # at most 16 acts a second: the server lets a connection send 20 messages a
                # second (``Limits.message_rate``, after a burst of 40), and a fast machine
                # answers quicker than that, so an unpaced loop would meet the limit
                time.sleep(1.0 / 16)
                send(player, type="act", ref=2, text=snap["legal"][0], seq=snap["seq"])
                snap = until(player, lambda m: m["type"] == "error" or "ref" in m)
                assert snap["type"] == "update", snap
                for ws in (seat, watcher):
                    seen = until(
                        ws, lambda m, s=snap["seq"]: m["type"] == "update" and m["seq"] >= s
                    )
                    assert seen["seq"] == snap["seq"]

    play(4)
    home = hash_order(game_id, 2)[0]
    workers = workers_of(proc.pid)
    assert set(workers) == {0, 1}
    os.kill(workers[home], signal.SIGKILL)  # the game's worker
    deadline = time.monotonic() + 120
    while workers_of(proc.pid).get(home) in (None, workers[home]):  # noticed, started again
        assert time.monotonic() < deadline, "the killed worker was not started again"
        time.sleep(0.3)
    play(4)  # the game goes on, through the other worker or home started again
    for _ in range(3):  # and the dispatcher keeps routing
        play(1)
    play(5000)  # to the end
    game = httpx.get(f"{base}/api/games/{game_id}", timeout=60).json()
    assert game["status"] != "playing", game["status"]
    assert [e["seq"] for e in game["log"]] == list(range(1, len(game["log"]) + 1))
