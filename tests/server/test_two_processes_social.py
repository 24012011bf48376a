"""Two server processes on one PostgreSQL database: a chat message sent through one reaches
the other player connected to the other, and a flag falls once for both."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from test_two_processes import Server, servers_fixture  # noqa: F401 (the servers fixture)

pytestmark = pytest.mark.postgres


def receive(ws: Any, kind: str, pred: Any = lambda m: True) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=60))
        if msg["type"] == kind and pred(msg):
            return msg  # type: ignore[no-any-return]


def test_chat_and_the_flag_across_processes(servers: tuple[Server, Server]) -> None:
    a, b = servers
    created = httpx.post(
        f"{a.base}/api/games",
        json={"game": "backgammon", "opponent": "friend", "name": "ann", "clock": "0.2+0"},
    ).json()
    game_id, t0 = created["id"], created["tokens"]["0"]
    httpx.post(f"{a.base}/api/games/{game_id}/seed", json={"seed": "a", "tokens": [t0]})
    t1 = httpx.post(f"{b.base}/api/games/{game_id}/join", json={"name": "bob", "seed": "b"})
    t1_token = t1.json()["token"]
    with a.ws() as wa, b.ws() as wb:
        wa.send(json.dumps({"type": "join", "v": 1, "game": game_id, "tokens": [t0]}))
        snap = receive(wa, "snapshot")
        wb.send(json.dumps({"type": "join", "v": 1, "game": game_id, "tokens": [t1_token]}))
        receive(wb, "snapshot")
        assert snap["clock"]["control"]["initial"] == 12.0
        wa.send(json.dumps({"type": "chat", "v": 1, "ref": 1, "text": "hi from process A"}))
        got = receive(wb, "chat")["message"]
        assert got["text"] == "hi from process A" and got["author"] == "ann"
        # nobody moves: the mover's flag falls (12 s), and both processes' players see it
        finished = [receive(ws, "update", lambda m: m["status"] == "finished") for ws in (wa, wb)]
    mover = snap["to_move"]
    for update in finished:
        assert update["summary"] == f"{['ann', 'bob'][mover]} lost on time"
        assert update["clock"]["remaining"][mover] == 0.0
    final = httpx.get(f"{a.base}/api/games/{game_id}").json()
    assert final["status"] == "finished" and final["returns"][mover] == -1.0


def test_a_player_leaving_through_one_process_is_seen_through_the_other(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    created = httpx.post(
        f"{a.base}/api/games", json={"game": "coinrows", "opponent": "friend", "name": "ann"}
    ).json()
    game_id, t0 = created["id"], created["tokens"]["0"]
    httpx.post(f"{a.base}/api/games/{game_id}/seed", json={"seed": "a", "tokens": [t0]})
    joined = httpx.post(f"{b.base}/api/games/{game_id}/join", json={"name": "bob", "seed": "b"})
    t1 = joined.json()["token"]
    with a.ws() as wa:
        wa.send(json.dumps({"type": "join", "v": 1, "game": game_id, "tokens": [t0]}))
        receive(wa, "snapshot")
        with b.ws() as wb:
            wb.send(json.dumps({"type": "join", "v": 1, "game": game_id, "tokens": [t1]}))
            receive(wb, "snapshot")
            here = receive(wa, "update", lambda m: m["presence"]["online"][1] is True)
            assert here["presence"]["online"] == [True, True]
        gone = receive(wa, "update", lambda m: m["presence"]["online"][1] is False)
        assert gone["presence"]["gone_for"][1] is not None
        wa.send(json.dumps({"type": "claim", "v": 1, "ref": 1, "what": "win"}))
        err = receive(wa, "error")
        assert err["code"] == "too_early" and "more seconds" in err["message"]
