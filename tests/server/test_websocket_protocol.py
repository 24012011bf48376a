"""The WebSocket protocol: joining, acting, every kind of bad input, races, spectators."""

from __future__ import annotations

import json
import threading
from typing import Any

from dicehall_server_fixtures import (  # noqa: F401
    client_fixture,
    create_game,
    sqlite_url_fixture,
)

from dicehall.server.service import ServiceError


def friend_game(client: Any) -> tuple[str, str, str]:
    """A backgammon game between two people; returns (id, token of seat 0, token of seat 1)."""
    res = create_game(client, game="backgammon", opponent="friend")
    game_id, t0 = res["id"], res["tokens"]["0"]
    joined = client.post(f"/api/games/{game_id}/join", json={"name": "bob", "seed": "b0b"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    return game_id, t0, joined.json()["token"]


def recv(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (events and snapshots in between are skipped)."""
    while True:
        msg = ws.receive_json()
        assert msg["v"] == 1
        if msg["type"] == kind:
            return msg  # type: ignore[no-any-return]
        assert msg["type"] in ("update", "snapshot", "ok"), msg


def join(ws: Any, game_id: str, tokens: list[str]) -> dict[str, Any]:
    ws.send_json({"type": "join", "v": 1, "ref": "j", "game": game_id, "tokens": tokens})
    return recv(ws, "snapshot")


def test_join_gives_a_snapshot_with_legal_moves_for_the_mover_only(client: Any) -> None:
    game_id, t0, t1 = friend_game(client)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        sa, sb = join(a, game_id, [t0]), join(b, game_id, [t1])
        assert sa["status"] == "playing" and sa["you"] == [0] and sb["you"] == [1]
        assert sa["fairness"]["commitment"] and sa["fairness"]["server_seed"] is None
        mover, other = (sa, sb) if sa["to_move"] == 0 else (sb, sa)
        assert mover["legal"] and mover["moves"]["nodes"]
        assert other["legal"] is None and other["moves"] is None
        assert sa["log"][0]["actor"] == -1  # the opening roll is already in the log


def test_each_kind_of_bad_input_is_answered_and_changes_nothing(client: Any) -> None:
    game_id, t0, _t1 = friend_game(client)
    before = client.get(f"/api/games/{game_id}").json()["seq"]
    with client.websocket_connect("/ws") as ws:
        ws.send_text("{not json")
        assert recv(ws, "error")["code"] == "bad_json"
        ws.send_text("[1, 2]")
        assert recv(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "dance", "v": 1, "ref": 7})
        err = recv(ws, "error")
        assert err["code"] == "bad_message" and err["ref"] == 7
        ws.send_json({"type": "join", "v": 99, "game": game_id})
        assert recv(ws, "error")["code"] == "unsupported_version"
        ws.send_json({"type": "act", "v": 1, "text": "8/5 6/5"})
        assert recv(ws, "error")["code"] == "not_joined"
        ws.send_json({"type": "join", "v": 1, "game": "no-such-game"})
        assert recv(ws, "error")["code"] == "unknown_game"
        ws.send_json({"type": "join", "v": 1, "game": game_id, "tokens": "t"})
        assert recv(ws, "error")["code"] == "bad_message"
        # a stolen or made-up token: a spectator's snapshot and an error
        ws.send_json({"type": "join", "v": 1, "game": game_id, "tokens": ["made-up"]})
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["you"] == [] and snap["legal"] is None
        assert recv(ws, "error")["code"] == "bad_token"
        ws.send_json({"type": "act", "v": 1, "text": snap["log"][0]["text"], "seq": snap["seq"]})
        assert recv(ws, "error")["code"] == "not_your_seat"
        ws.send_json({"type": "act", "v": 1, "text": 5})
        assert recv(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "ping", "v": 1, "ref": "p"})
        assert recv(ws, "pong")["ref"] == "p"
    # a token of another game holds no seat here either
    other_id, other_token, _ = friend_game(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "v": 1, "game": game_id, "tokens": [other_token]})
        assert ws.receive_json()["you"] == []
        assert recv(ws, "error")["code"] == "bad_token"
    assert client.get(f"/api/games/{game_id}").json()["seq"] == before
    assert t0 and other_id


def test_out_of_turn_illegal_and_stale_actions(client: Any) -> None:
    game_id, t0, t1 = friend_game(client)
    with (
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
        client.websocket_connect("/ws") as watcher,
    ):
        sa, sb = join(a, game_id, [t0]), join(b, game_id, [t1])
        join(watcher, game_id, [])
        mover_ws, mover = (a, sa) if sa["to_move"] == 0 else (b, sb)
        waiter_ws = b if mover_ws is a else a
        seq = mover["seq"]
        waiter_ws.send_json({"type": "act", "v": 1, "text": mover["legal"][0], "seq": seq})
        assert recv(waiter_ws, "error")["code"] == "out_of_turn"
        mover_ws.send_json({"type": "act", "v": 1, "ref": 1, "text": "24/1", "seq": seq})
        err = recv(mover_ws, "error")
        assert err["code"] == "illegal_action" and err["ref"] == 1
        assert set(err["legal"]) == set(mover["legal"])
        mover_ws.send_json({"type": "act", "v": 1, "text": "gibberish!", "seq": seq})
        assert recv(mover_ws, "error")["code"] == "illegal_action"
        mover_ws.send_json({"type": "act", "v": 1, "text": mover["legal"][0], "seq": seq - 1})
        assert recv(mover_ws, "error")["code"] == "stale"
        assert client.get(f"/api/games/{game_id}").json()["seq"] == seq
        # now a legal one: everybody gets one update with the new entries; the mover's carries
        # the act's ref, its answer (one frame: no ok follows)
        mover_ws.send_json({"type": "act", "v": 1, "ref": 2, "text": mover["legal"][0], "seq": seq})
        answer = recv(mover_ws, "update")
        assert answer["ref"] == 2 and answer["seq"] == seq + 2  # the play and the next roll
        update = recv(watcher, "update")
        play, roll = update["entries"]
        assert play["seq"] == seq + 1 and play["text"] == mover["legal"][0]
        assert roll["actor"] == -1 and roll["seq"] == seq + 2
        assert update["seq"] == seq + 2 and update["last"]["text"] == mover["legal"][0]
        assert "log" not in update  # incremental: the log is not sent again
        assert update["legal"] is None  # spectators never get legal moves
        # the seat now to move gets its legal moves in its update
        now_ws = waiter_ws
        mine = recv(now_ws, "update")
        assert mine["seq"] == seq + 2 and mine["legal"] and mine["to_move"] != mover["to_move"]


def test_two_clients_acting_at_once_exactly_one_wins(client: Any) -> None:
    game_id, t0, t1 = friend_game(client)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        sa = join(a, game_id, [t0, t1])  # two tabs of one person holding both seats
        join(b, game_id, [t0, t1])
        legal, seq = sa["legal"], sa["seq"]
        a.send_json({"type": "act", "v": 1, "ref": "a", "text": legal[0], "seq": seq})
        b.send_json({"type": "act", "v": 1, "ref": "b", "text": legal[-1], "seq": seq})
        answers = []
        for ws in (a, b):
            while True:
                msg = ws.receive_json()
                assert msg["type"] != "ok", msg  # an accepted act is answered by its update
                if msg["type"] == "error" or "ref" in msg:
                    answers.append(msg)
                    break
        assert sorted(m["type"] for m in answers) == ["error", "update"]
        assert next(m for m in answers if m["type"] == "error")["code"] in ("stale", "out_of_turn")
    log = client.get(f"/api/games/{game_id}").json()["log"]
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert sum(1 for e in log if e["actor"] >= 0) == 1


def test_an_accepted_act_is_answered_by_its_update_alone(client: Any) -> None:
    """One frame per accepted act to the actor: the update, carrying the act's ``ref`` (an
    ``ok`` and an update were two frames, the ``ok`` a tenth of the sockets' writes)."""
    game_id, t0, t1 = friend_game(client)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as watcher:
        snap = join(a, game_id, [t0, t1])
        join(watcher, game_id, [])
        a.send_json({"type": "act", "v": 1, "ref": 7, "text": snap["legal"][0], "seq": snap["seq"]})
        a.send_json({"type": "ping", "v": 1, "ref": "p"})
        answer = a.receive_json()
        # a holds both seats: its update is the mover's, with the legal moves, and the ref
        assert answer["type"] == "update" and answer["ref"] == 7
        assert answer["seq"] == snap["seq"] + 2 and answer["legal"]
        assert a.receive_json() == {"type": "pong", "v": 1, "ref": "p"}  # and no ok
        seen = watcher.receive_json()
        assert seen["type"] == "update" and "ref" not in seen  # others' updates carry none
        assert seen["seq"] == answer["seq"] and seen["legal"] is None


def test_racing_threads_exactly_one_wins(client: Any) -> None:
    game_id, _t0, _t1 = friend_game(client)
    service = client.app.state.service
    live = service.get(game_id)
    seat, seq = live.state.current_player(), live.seq
    texts = live.state.legal_texts()
    barrier = threading.Barrier(8)
    results: list[str] = []

    def go(i: int) -> None:
        barrier.wait()
        try:
            service.act(game_id, [seat], texts[i % len(texts)], seq)
            results.append("ok")
        except ServiceError as exc:
            results.append(exc.code)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("ok") == 1 and set(results) <= {"ok", "stale"}
    assert service.get(game_id).seq == seq + 2
    stored = service.store.load_actions(game_id)
    assert [a.seq for a in stored] == list(range(1, seq + 3))


def test_reconnect_gets_the_same_game(client: Any) -> None:
    game_id, t0, t1 = friend_game(client)
    with client.websocket_connect("/ws") as a:
        first = join(a, game_id, [t0, t1])
        a.send_json({"type": "act", "v": 1, "text": first["legal"][0], "seq": first["seq"]})
        answer = recv(a, "update")
        assert "ref" in answer and answer["ref"] is None  # the answer to an act without ref
    with client.websocket_connect("/ws") as again:
        snap = join(again, game_id, [t0, t1])
        assert snap["seq"] == first["seq"] + 2 and snap["legal"]
    assert json.dumps(snap)


def test_a_failing_view_is_reported_and_the_connection_survives(
    client: Any, monkeypatch: Any
) -> None:
    game_id, t0, t1 = friend_game(client)
    service = client.app.state.service
    with client.websocket_connect("/ws") as ws:
        snap = join(ws, game_id, [t0, t1])

        def broken(*args: Any) -> Any:
            raise RuntimeError("view bug")

        monkeypatch.setattr(service, "public", broken)
        ws.send_json({"type": "act", "v": 1, "text": snap["legal"][0], "seq": snap["seq"]})
        # the action is committed; the snapshot fails and says so; the socket stays usable
        assert recv(ws, "error")["code"] == "internal_error"
        ws.send_json({"type": "ping", "v": 1})
        assert recv(ws, "pong")["type"] == "pong"
    monkeypatch.undo()
    assert client.get(f"/api/games/{game_id}").json()["seq"] == snap["seq"] + 2


def test_frames_go_through_the_servers_own_send_not_starlettes(
    client: Any, monkeypatch: Any
) -> None:
    """A connection's frames (snapshot, updates, replies) are written through the ASGI send
    that ``Guard`` leaves in the scope, under Starlette's ``send_text`` and its exception
    handler's wrapper (a fifth of a frame's cost under load); what the client reads is the
    same."""
    from starlette.websockets import WebSocket

    used: list[str] = []
    original = WebSocket.send_text

    async def counted(self: WebSocket, data: str) -> None:
        used.append(data)
        await original(self, data)

    monkeypatch.setattr(WebSocket, "send_text", counted)
    game_id, t0, t1 = friend_game(client)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        sa, sb = join(a, game_id, [t0]), join(b, game_id, [t1])
        mover, ws, other = (sa, a, b) if sa["to_move"] == 0 else (sb, b, a)
        ws.send_json(
            {"type": "act", "v": 1, "ref": 9, "text": mover["legal"][0], "seq": mover["seq"]}
        )
        answer = recv(ws, "update")
        assert answer["ref"] == 9 and answer["seq"] > mover["seq"]
        assert recv(other, "update")["seq"] == answer["seq"]
        ws.send_json({"type": "ping", "v": 1, "ref": 3})
        assert recv(ws, "pong")["ref"] == 3
    assert used == []
