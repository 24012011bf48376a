"""Two server processes on one PostgreSQL database: fan-out, one winner, and a kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from dicehall_server_fixtures import free_port, wait_until_serving
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.postgres

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


class Server:
    """A ``dicehall serve`` process on a free port."""

    def __init__(self, db: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cmd = [
            sys.executable, "-c", "from dicehall.cli.main import main; main()", "serve",
            "--port", str(self.port), "--db", db, "--bot-delay", "0", "--log-level", "warning",
            "--address-rate", "0", "--db-connections", "8",
        ]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)
        wait_until_serving(self.base, self.proc)

    def ws(self) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=20)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(20)


@pytest.fixture(name="servers")
def servers_fixture() -> Iterator[tuple[Server, Server]]:
    psycopg = pytest.importorskip("psycopg")
    name = f"dicehall_i15_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(ADMIN, autocommit=True, connect_timeout=3) as c:
            c.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as exc:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432 ({exc})")
    db = f"postgresql://postgres@127.0.0.1:5432/{name}"
    a = Server(db)
    b = Server(db)
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()
        with psycopg.connect(ADMIN, autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def friend_game(create_on: Server, join_on: Server) -> tuple[str, str, str]:
    res = httpx.post(
        f"{create_on.base}/api/games",
        json={"game": "backgammon", "opponent": "friend"},
        timeout=60,
    )
    game_id, t0 = res.json()["id"], res.json()["tokens"]["0"]
    seeded = httpx.post(
        f"{create_on.base}/api/games/{game_id}/seed",
        json={"seed": "a"},
        headers={"X-Seat-Token": t0},
        timeout=60,
    )
    assert seeded.status_code == 200, seeded.text
    joined = httpx.post(f"{join_on.base}/api/games/{game_id}/join", json={"seed": "b"}, timeout=60)
    assert joined.status_code == 200, joined.text
    return game_id, t0, joined.json()["token"]


def act_at_once(barrier: threading.Barrier, url: str, body: Any, answers: list[int]) -> None:
    barrier.wait()
    answers.append(httpx.post(url, json=body, timeout=60).status_code)


def send(ws: ClientConnection, **msg: Any) -> None:
    ws.send(json.dumps({"v": 1, **msg}))


def answered(m: dict[str, Any]) -> bool:
    """Whether ``m`` answers an act: an error, or the update carrying the act's ``ref``."""
    return m["type"] == "error" or (m["type"] == "update" and "ref" in m)


def act(ws: ClientConnection, text: str, seq: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play ``text`` and wait for its answer, the update it makes (carrying its ``ref``);
    returns it twice (as the answer and as the update)."""
    send(ws, type="act", ref=2, text=text, seq=seq)
    msg = until(ws, answered)
    assert msg["type"] == "update" and msg["ref"] == 2, msg
    return msg, msg


def update_at(ws: ClientConnection, seq: int) -> dict[str, Any]:
    """The first update that reaches action ``seq``."""
    return until(ws, lambda m: m["type"] == "update" and m["seq"] >= seq)


def until(ws: ClientConnection, pred: Any, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if pred(msg):
            return msg  # type: ignore[no-any-return]


def test_a_move_through_one_process_reaches_a_spectator_on_the_other(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    game_id, t0, t1 = friend_game(a, b)
    with a.ws() as player, b.ws() as watcher, b.ws() as other_seat:
        send(player, type="join", ref=1, game=game_id, tokens=[t0, t1])
        snap = until(player, lambda m: m["type"] == "snapshot")
        send(watcher, type="join", ref=1, game=game_id, tokens=[])
        seen = until(watcher, lambda m: m["type"] == "snapshot")
        assert seen["seq"] == snap["seq"] and snap["status"] == "playing"
        send(other_seat, type="join", ref=1, game=game_id, tokens=[t0, t1])
        until(other_seat, lambda m: m["type"] == "snapshot")
        for _ in range(3):  # a few moves on process A; each shows up on B
            text = snap["legal"][0]
            start = time.monotonic()
            ok, snap = act(player, text, snap["seq"])
            update = update_at(watcher, ok["seq"])
            assert time.monotonic() - start < 30  # generous: the machine is shared
            assert update["entries"][0]["text"] == text and update["last"]["text"] == text
            # the seat holder on B gets its legal moves with the update
            mine = update_at(other_seat, ok["seq"])
            assert mine["legal"]
        # and B can play the game on: the next move goes through B
        send(other_seat, type="act", ref=3, text=mine["legal"][0], seq=mine["seq"])
        assert until(other_seat, answered)["type"] == "update"


def test_concurrent_acts_on_one_seat_through_both_processes_one_wins(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    for _ in range(3):
        game_id, t0, t1 = friend_game(a, b)
        snap = httpx.get(
            f"{a.base}/api/games/{game_id}", headers={"X-Seat-Token": f"{t0},{t1}"}, timeout=60
        )
        state = snap.json()
        httpx.get(f"{b.base}/api/games/{game_id}", timeout=60)  # B has the game folded too
        barrier = threading.Barrier(2)
        answers: list[int] = []
        body = {"tokens": [t0, t1], "seq": state["seq"]}
        threads = [
            threading.Thread(
                target=act_at_once,
                args=(
                    barrier,
                    f"{server.base}/api/games/{game_id}/act",
                    {**body, "text": t},
                    answers,
                ),
            )
            for server, t in ((a, state["legal"][0]), (b, state["legal"][-1]))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 409]
        for server in (a, b):
            log = httpx.get(f"{server.base}/api/games/{game_id}", timeout=60).json()["log"]
            assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
            assert sum(1 for e in log if e["actor"] >= 0) == 1


def test_kill_9_of_one_process_loses_nothing_and_its_games_go_on(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    games = [friend_game(a, a) for _ in range(3)]
    acknowledged: dict[str, list[str]] = {g: [] for g, _, _ in games}
    for game_id, t0, t1 in games:
        with a.ws() as ws:
            send(ws, type="join", ref=1, game=game_id, tokens=[t0, t1])
            snap = until(ws, lambda m: m["type"] == "snapshot")
            for _ in range(4):
                text = snap["legal"][0]
                _ok, snap = act(ws, text, snap["seq"])
                acknowledged[game_id].append(text)
    a.stop(signal.SIGKILL)
    for game_id, t0, t1 in games:
        with b.ws() as ws:
            send(ws, type="join", ref=1, game=game_id, tokens=[t0, t1])
            snap = until(ws, lambda m: m["type"] == "snapshot")
            moves = [e["text"] for e in snap["log"] if e["actor"] >= 0]
            assert moves == acknowledged[game_id]  # every acknowledged action is there
            assert snap["status"] == "playing" and snap["you"] == [0, 1] and snap["legal"]
            send(ws, type="act", ref=2, text=snap["legal"][0], seq=snap["seq"])
            assert until(ws, answered)["type"] == "update"
