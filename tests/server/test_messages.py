"""The typed protocol (``server/messages.py``): every message the server sends is one of its
models, every client message decodes to its model or to a precise error, and the models, the
error codes and ``docs/protocol.md`` say the same thing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from dicehall_server_fixtures import (  # noqa: F401
    client_fixture,
    create_game,
    sqlite_url_fixture,
)
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from dicehall.server import messages
from dicehall.server.app import STATUS
from dicehall.server.messages import (
    ActMessage,
    DecodeError,
    ErrorCode,
    JoinMessage,
    ServerMessage,
    decode,
)

SERVER = TypeAdapter(ServerMessage)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_a_whole_game_over_the_websocket_speaks_only_typed_messages(client: Any) -> None:
    """Two players and a spectator through twelve backgammon decisions: every frame any of
    them receives validates against ``ServerMessage``."""
    res = create_game(client, game="backgammon", opponent="friend")
    game_id, t0 = res["id"], res["tokens"]["0"]
    t1 = client.post(f"/api/games/{game_id}/join", json={"seed": "x"}).json()["token"]
    seen: dict[str, int] = {}

    def read(ws: Any) -> dict[str, Any]:
        msg = ws.receive_json()
        seen[SERVER.validate_python(msg).type] = seen.get(msg["type"], 0) + 1
        return msg  # type: ignore[no-any-return]

    def until(ws: Any, kind: str, seq: int | None = None) -> dict[str, Any]:
        while True:
            msg = read(ws)
            if msg["type"] == kind and (seq is None or msg["seq"] == seq):
                return msg

    with (
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
        client.websocket_connect("/ws") as watcher,
    ):
        conns = {0: a, 1: b}
        latest = {}
        for seat, token in ((0, t0), (1, t1)):
            conns[seat].send_json({"type": "join", "v": 1, "game": game_id, "tokens": [token]})
            latest[seat] = until(conns[seat], "snapshot")
        watcher.send_json({"type": "join", "v": 1, "game": game_id})
        until(watcher, "snapshot")
        for ref in range(12):
            mover = 0 if latest[0]["legal"] else 1
            act = {"type": "act", "v": 1, "ref": ref, "text": latest[mover]["legal"][0]}
            conns[mover].send_json({**act, "seq": latest[mover]["seq"]})
            # the mover's own update answers the act: it carries its ref (no ok follows)
            update = read(conns[mover])
            while update["type"] != "update" or "ref" not in update:
                assert update["type"] == "update", update
                update = read(conns[mover])
            assert update["ref"] == ref
            latest[mover] = update
            latest[1 - mover] = until(conns[1 - mover], "update", update["seq"])
            until(watcher, "update", update["seq"])
        a.send_json({"type": "act", "v": 1, "ref": "bad", "text": "25/1", "seq": 0})
        assert until(a, "error")["ref"] == "bad"
        a.send_json({"type": "ping", "v": 1, "ref": "p"})
        assert until(a, "pong")["ref"] == "p"
        a.send_json({"type": "resign", "v": 1, "ref": "r"})
        assert until(a, "ok")["ref"] == "r"
    assert {"snapshot", "update", "ok", "error", "pong"} <= set(seen)


def test_client_messages_decode_to_their_models() -> None:
    assert decode(b'{"type": "join", "v": 1, "game": "abc", "tokens": ["t"]}') == JoinMessage(
        game="abc", tokens=["t"]
    )
    act = decode('{"type": "act", "text": "24/18 13/11", "seq": 3, "ref": "x"}')
    assert act == ActMessage(text="24/18 13/11", seq=3, ref="x")
    # a reference is echoed back: a long one (or an object) is dropped, the message stays
    assert decode('{"type": "ping", "ref": "' + "r" * 41 + '"}').ref is None  # type: ignore[union-attr]
    assert decode('{"type": "ping", "ref": {"a": 1}}').ref is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("raw", "code", "says"),
    [
        ("{not json", ErrorCode.BAD_JSON, "JSON"),
        ("[1, 2]", ErrorCode.BAD_MESSAGE, "object"),
        ('{"type": "dance", "ref": 7}', ErrorCode.BAD_MESSAGE, "dance"),
        ('{"type": "join", "v": 2}', ErrorCode.UNSUPPORTED_VERSION, "version 1"),
        ('{"type": "join"}', ErrorCode.BAD_MESSAGE, "game"),
        ('{"type": "join", "game": "g", "tokens": "t"}', ErrorCode.BAD_MESSAGE, "tokens"),
        (
            '{"type": "join", "game": "g", "tokens": ' + orjson.dumps(["t"] * 9).decode() + "}",
            ErrorCode.BAD_MESSAGE,
            "tokens",
        ),
        ('{"type": "act", "seq": 1}', ErrorCode.BAD_MESSAGE, "text"),
        ('{"type": "act", "text": "8/5", "seq": "x"}', ErrorCode.BAD_MESSAGE, "seq"),
    ],
)
def test_bad_client_messages_get_a_precise_error(raw: str, code: ErrorCode, says: str) -> None:
    out = decode(raw)
    assert isinstance(out, DecodeError) and out.code == code and says in out.message
    reply = out.reply()
    SERVER.validate_python(reply)


@given(st.binary(max_size=200) | st.text(max_size=200))
def test_no_frame_makes_the_decoder_raise(raw: bytes | str) -> None:
    out = decode(raw)
    assert isinstance(out, DecodeError | messages.Message)
    if isinstance(out, DecodeError):
        assert len(out.message) < 400  # never echoes unbounded input


def test_error_codes_match_the_docs_and_the_http_statuses() -> None:
    documented = set(re.findall(r"`([a-z_]+)`", DOCS.read_text()))
    codes = {c.value for c in ErrorCode}
    assert codes <= documented, codes - documented
    assert set(STATUS) <= codes, set(STATUS) - codes


def test_dumps_is_compact_json() -> None:
    data = {"a": [1, 2.5, None, True], 3: "x", "é": "ü"}
    assert orjson.loads(messages.dumps(data)) == {"a": [1, 2.5, None, True], "3": "x", "é": "ü"}
