"""A WebSocket join on one process sees what another process committed, and keeps hearing it.

Two processes are two ``GameService``s on one SQLite file: "A" is a bare service (the other
process), "B" a whole app served by uvicorn in a thread, so its WebSocket join runs as in
production. The notifications B would get from PostgreSQL are handed to its hub by the test,
at the moment the race needs them. Every wait here is bounded (the receive timeouts and the
deadlines below): a test that failed by hanging cost a whole CI run before.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dicehall_server_fixtures import (
    POSTGRES_URL,  # noqa: F401  (imports fastapi or skips)
    free_port,
)

from dicehall.server.service import GameService, LiveGame, LogEntry
from dicehall.server.storage import Appended, Store

uvicorn = pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

#: seconds any one wait may take before the test fails (a ceiling: the waits end as soon as
#: what they wait for arrives; the kernels are compiled before, see ``two_fixture``)
WAIT = 60.0


class Served:
    """``app`` served by uvicorn in a thread of this process, on a free port."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.port = free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            assert self.thread.is_alive(), "the server thread died"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def ws(self) -> Any:
        return ws_client.connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=WAIT)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)


class Game:
    """A friend game of backgammon made and played through process A, with what B would
    hear of each of A's appends (its notifications carry these)."""

    def __init__(self, a: GameService) -> None:
        self.a = a
        self.heard: list[Appended] = []
        a.listeners.append(self._listen)
        self.id, tokens = a.create(
            "backgammon", {}, opponent="friend", seat=0, name="ann", seed="x"
        )
        _, bob = a.join(self.id, 1, "bob", "y")
        self.tokens = {0: tokens[0], 1: bob}

    def _listen(self, live: LiveGame, entries: list[LogEntry]) -> None:
        if entries:
            status = live.row.status if live.state.is_terminal() else None
            actions = tuple((e.actor, e.text) for e in entries)
            self.heard.append(Appended(entries[0].seq, status, actions))

    def move(self) -> int:
        """The player to move moves (the first listed play) through A; returns the seq."""
        live = self.a.get(self.id)
        assert live.row.status == "playing"
        text = next(t for t in live.state.legal_texts() if "/" in t)
        self.a.act(self.id, [live.state.current_player()], text, live.seq)
        return self.a.get(self.id).seq


@pytest.fixture(name="two")
def two_fixture(tmp_path: Path) -> Iterator[tuple[Game, Served]]:
    """Process A (a service) and process B (an app served over HTTP) on one database, and a
    game being played that B has cached."""
    from dicehall.server.app import create_app, warm_up

    warm_up()  # the compiled kernels (a cold cache compiles them for seconds, as CI does)
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    a = GameService(Store(url), bot_delay=0)
    game = Game(a)
    b = Served(create_app(url, bot_delay=0))
    try:
        b.app.state.service.get(game.id)  # cached in B before A moves on
        yield game, b
    finally:
        b.stop()
        a.close()


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
    return message


def join(ws: Any, game_id: str, tokens: list[str]) -> dict[str, Any]:
    ws.send(json.dumps({"type": "join", "v": 1, "ref": "j", "game": game_id, "tokens": tokens}))
    while True:  # bounded: each receive waits WAIT at most, and a snapshot is the answer
        msg = receive(ws)
        if msg["type"] == "snapshot":
            return msg
        assert msg["type"] != "error", msg


def seqs_until(ws: Any, seq: int) -> list[int]:
    """The seqs of the updates received until one reaches ``seq`` (fails after WAIT)."""
    seen: list[int] = []
    deadline = time.monotonic() + WAIT
    while not seen or seen[-1] < seq:
        left = deadline - time.monotonic()
        assert left > 0, f"no update reached seq {seq}; updates seen: {seen}"
        try:
            msg = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            pytest.fail(f"no update reached seq {seq} in {WAIT} s; updates seen: {seen}")
        if msg["type"] == "update":
            seen.append(msg["seq"])
    return seen


def test_a_join_reads_what_another_process_committed_before_its_snapshot(
    two: tuple[Game, Served],
) -> None:
    game, b = two
    stale = b.app.state.service.cached(game.id).seq
    seq = game.move()  # B has not heard (its notification is still on the way)
    assert seq > stale
    with b.ws() as ws:
        snap = join(ws, game.id, [game.tokens[1]])
    assert snap["seq"] == seq
    assert [e["seq"] for e in snap["log"]][-1] == seq
    live = game.a.get(game.id)
    assert snap["to_move"] == live.state.current_player()
    assert snap["last"]["text"] == live.last["text"]  # type: ignore[index]


def test_a_copy_dropped_during_the_join_is_put_back_and_the_room_keeps_hearing(
    two: tuple[Game, Served], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, b = two
    service, hub, presence = b.app.state.service, b.app.state.hub, b.app.state.presence
    joined = presence.joined
    during: list[int] = []

    def joined_while_a_moves(game_id: str, seats: list[int]) -> None:
        # A moves and B hears it after the join's sync, before its connection is in the
        # room: nobody watches the game here yet, so the notification drops B's copy
        if not during:
            during.append(game.move())
            hub.on_remote(game.id, during[0], game.heard[-1])
            assert service.cached(game.id) is None
        joined(game_id, seats)

    monkeypatch.setattr(presence, "joined", joined_while_a_moves)
    with b.ws() as ws:
        snap = join(ws, game.id, [game.tokens[1]])
        assert during and snap["seq"] < during[0]  # the move came after the snapshot
        # the move heard during the join comes as an update
        assert seqs_until(ws, during[0])[-1] == during[0]
        # and the next move of the other process reaches the room too
        later = game.move()
        hub.on_remote(game.id, later, game.heard[-1])
        assert seqs_until(ws, later)[-1] == later
    cached = service.cached(game.id)
    assert cached is not None and cached.seq == later
