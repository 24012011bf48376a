"""Regressions for each abuse an anonymous visitor could commit against the public server."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from dicehall_server_fixtures import (  # noqa: F401
    client_fixture,
    create_game,
    sqlite_url_fixture,
)
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from dicehall.core.registry import game_class, registered_games
from dicehall.server.app import create_app
from dicehall.server.bots import bot_seed, vetted_specs
from dicehall.server.limits import Limits, TokenBucket
from dicehall.server.service import OPTION_CAP, GameService, ServiceError
from dicehall.server.storage import Store


def test_unbounded_bot_specs_are_refused_and_the_catalog_offers_only_vetted_ones(
    client: Any,
) -> None:
    for spec in ("mcts:1000000000", "expectimax:60", "mcts", "expectimax", "bot:godlike"):
        for game in ("coinrows", "backgammon"):
            res = client.post("/api/games", json={"game": game, "opponent": spec, "seat": 1})
            assert res.status_code == 400, (game, spec)
            assert "not offered" in res.json()["error"]["message"]
    catalog = {g["name"]: g for g in client.get("/api/catalog").json()}
    for name, entry in catalog.items():
        assert entry["opponents"] == list(vetted_specs(name))
        assert not any(o.startswith(("mcts", "expectimax")) for o in entry["opponents"])
    assert "bot:expert" in catalog["backgammon"]["opponents"]
    # no bot game was created, so no bot thread runs
    assert client.get("/api/lobby").json()["live"] == []


def test_an_oversized_action_over_http_is_refused_cheaply_without_echo(client: Any) -> None:
    game = create_game(client, game="backgammon", opponent="local")
    tokens = list(game["tokens"].values())
    url = f"/api/games/{game['id']}/act"
    # the opening roll (re-rolled on a tie, each roll a log entry) is what has been played
    before = client.get(f"/api/games/{game['id']}").json()["seq"]
    big = client.post(url, json={"tokens": tokens, "text": "8/5 " * 250_000})  # 1 MB
    # refused by its length, before anybody parses it (it cost 12.7 s of CPU to parse)
    assert big.status_code == 413 and big.json()["error"]["code"] == "too_big"
    long = client.post(url, json={"tokens": tokens, "text": "Z" * 5000})
    assert long.status_code == 422 and "ZZZZZZZZ" not in long.text and len(long.text) < 600
    junk = "q" * 200  # as long as allowed, and illegal: the error quotes a bounded part
    res = client.post(url, json={"tokens": tokens, "text": junk})
    assert res.status_code == 422 and junk not in res.text
    # a body without a length is cut off as it grows
    chunks = (b'{"text": "' + b"x" * 70_000 + b'"}' for _ in range(1))
    res = client.post(url, content=chunks, headers={"Content-Type": "application/json"})
    assert res.status_code == 413
    assert client.get(f"/api/games/{game['id']}").json()["seq"] == before  # nothing was played


def test_an_oversized_action_over_websocket_is_refused(client: Any) -> None:
    game = create_game(client, game="backgammon", opponent="local")
    tokens = list(game["tokens"].values())
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "v": 1, "game": game["id"], "tokens": tokens})
        snap = ws.receive_json()
        ws.send_json({"type": "act", "v": 1, "ref": 1, "text": "13/7 " * 100, "seq": snap["seq"]})
        err = ws.receive_json()
        assert err["code"] == "too_long" and "13/7 13/7" not in err["message"]
        ws.send_text(json.dumps({"type": "act", "v": 1, "text": "x" * 1_000_000}))
        err = ws.receive_json()
        assert err["code"] == "too_big" and len(json.dumps(err)) < 300
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009


def test_absurd_options_are_refused(client: Any) -> None:
    for options in (
        {"purse": 10**30},
        {"turn_limit": 10**12},
        {"purse": "9" * 5000},
        {"purse": 1001},
        {"turn_limit": 100_001},
        {f"o{i}": 1 for i in range(50)},
    ):
        res = client.post("/api/games", json={"game": "coinrows", "options": options})
        assert res.status_code == 400, options
        assert len(res.text) < 600
    res = client.post("/api/games", json={"game": "whitedie", "options": {"target": 10**6}})
    assert res.status_code == 400 and "target" in res.json()["error"]["message"]
    catalog = {g["name"]: g for g in client.get("/api/catalog").json()}
    limits = {o["name"]: o["maximum"] for o in catalog["coinrows"]["options"]}
    assert limits["purse"] == 1000 and limits["turn_limit"] == 100_000  # the game's own
    ok = create_game(client, game="coinrows", opponent="local", options={"purse": 30})
    assert client.get(f"/api/games/{ok['id']}").json()["options"]["purse"] == 30


def test_every_integer_option_of_every_game_states_its_maximum() -> None:
    """The maxima are the games' own (stated in their options, shown in the catalog);
    ``OPTION_CAP`` is only the server's fallback for a plug-in game that states none."""
    for name in registered_games():
        for option in game_class(name).option_specs:
            if option.type is int:
                assert option.maximum is not None or option.choices, (name, option.name)
                top = option.maximum if option.maximum is not None else max(option.choices)
                assert top <= OPTION_CAP, (name, option.name, top)


def test_a_token_in_a_url_is_refused(client: Any) -> None:
    game = create_game(client, game="backgammon", opponent="local")
    token = game["tokens"]["0"]
    res = client.get(f"/api/games/{game['id']}?token={token}")
    assert res.status_code == 400 and res.json()["error"]["code"] == "token_in_url"
    assert token not in res.text
    res = client.get(f"/api/games/{game['id']}?tokens={token}")
    assert res.status_code == 400
    seen = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": token}).json()
    assert seen["you"] == [0]


def test_a_flood_from_one_connection_is_cut_off_and_others_go_on(client: Any) -> None:
    game = create_game(client, game="backgammon", opponent="local")
    limits: Limits = client.app.state.limits
    with client.websocket_connect("/ws") as flood, client.websocket_connect("/ws") as calm:
        for i in range(400):
            flood.send_text(json.dumps({"type": "ping", "v": 1, "ref": i}))
        kinds: dict[str, int] = {}
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                kind = flood.receive_json()["type"]
                kinds[kind] = kinds.get(kind, 0) + 1
        assert closed.value.code == 1008
        # the bucket (plus what refilled while it ran) was answered, the rest was refused
        assert kinds["pong"] <= limits.message_burst + 20
        assert kinds["error"] <= limits.flood_errors
        calm.send_json({"type": "join", "v": 1, "game": game["id"], "tokens": []})
        assert calm.receive_json()["type"] == "snapshot"


def test_too_many_requests_from_one_address_are_refused(sqlite_url: str) -> None:
    limits = Limits(address_rate=1.0, address_burst=5.0)
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=limits)) as c:
        answers = [c.get("/api/protocol") for _ in range(8)]
        codes = [a.status_code for a in answers]
        assert codes[:5] == [200] * 5 and 429 in codes[5:]
        refused = next(a for a in answers if a.status_code == 429)
        assert refused.headers["retry-after"] == "1"  # when to try again
        assert refused.json()["error"]["code"] == "rate_limited"


def test_security_headers(client: Any) -> None:
    for path in ("/", "/g/abc", "/api/catalog"):
        res = client.get(path)
        csp = res.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
        assert res.headers["x-frame-options"] == "DENY"
        assert res.headers["x-content-type-options"] == "nosniff"


def test_grinding_the_player_seed_comes_only_after_the_commitment(client: Any) -> None:
    res = client.post("/api/games", json={"game": "backgammon", "opponent": "bot", "seed": "s"})
    assert res.status_code == 400 and "after" in res.json()["error"]["message"]
    for opponent in ("bot", "local", "friend"):
        created = client.post("/api/games", json={"game": "backgammon", "opponent": opponent})
        assert created.status_code == 201
        body = created.json()
        game_id, tokens = body["id"], ",".join(body["tokens"].values())
        snap = client.get(f"/api/games/{game_id}").json()
        # the commitment is public, and not one die has been rolled without the player's seed
        assert snap["fairness"]["commitment"] == body["commitment"]
        assert snap["status"] == "waiting" and snap["log"] == []
        act = client.post(
            f"/api/games/{game_id}/act", json={"text": "8/5 6/5"}, headers={"X-Seat-Token": tokens}
        )
        assert act.status_code == 409 and act.json()["error"]["code"] == "not_started"
        # nobody but the seat holder may seed it
        assert client.post(f"/api/games/{game_id}/seed", json={"seed": "x"}).status_code == 403
        res = client.post(
            f"/api/games/{game_id}/seed", json={"seed": "mine"}, headers={"X-Seat-Token": tokens}
        )
        assert res.status_code == 200
        again = client.post(
            f"/api/games/{game_id}/seed", json={"seed": "other"}, headers={"X-Seat-Token": tokens}
        )
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_seeded"
        snap = client.get(f"/api/games/{game_id}").json()
        assert "mine" in snap["fairness"]["player_seeds"]
        assert snap["fairness"]["commitment"] == body["commitment"]  # unchanged by the seed
        assert snap["status"] == ("waiting" if opponent == "friend" else "playing")


def test_bot_randomness_comes_from_the_secret_seed_not_the_public_id(sqlite_url: str) -> None:
    service = GameService(Store(sqlite_url), bot_delay=0)
    game_id, _ = service.create("backgammon", opponent="bot:beginner", seat=0)
    live = service.get(game_id)
    seed = bot_seed(live.row.server_seed, 1)
    assert seed == bot_seed(live.row.server_seed, 1)
    assert seed != bot_seed(live.row.server_seed + "0", 1)
    assert seed != int.from_bytes(game_id.encode(), "big") % 2**31 + 1
    service.close()


def test_abandoned_games_expire(sqlite_url: str) -> None:
    service = GameService(Store(sqlite_url), bot_delay=0, waiting_ttl=60, playing_ttl=3600)
    waiting, _ = service.create("backgammon", opponent="friend")
    playing, _ = service.create("backgammon", opponent="local")
    now = time.time()
    assert service.expire(now) == []
    assert service.expire(now + 120) == [waiting]
    assert service.get(waiting).row.status == "abandoned"
    assert service.get(playing).row.status == "playing"
    assert service.expire(now + 7200) == [playing]
    live = service.get(playing)
    with pytest.raises(ServiceError) as exc:
        service.act(playing, [0, 1], live.state.legal_texts()[0], live.seq)
    assert exc.value.code == "game_over"
    service.close()


def test_token_bucket_refills_at_its_rate() -> None:
    bucket = TokenBucket(rate=2.0, burst=3.0)
    t = bucket.stamp
    assert [bucket.take(t) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(t + 0.5) and not bucket.take(t + 0.5)


def test_the_send_queue_is_bounded(tmp_path: Path) -> None:
    from dicehall.server.app import Connection

    class FakeWs:
        pass

    conn = Connection(FakeWs(), Limits(send_queue=3))  # type: ignore[arg-type]
    for i in range(10):
        conn.push(str(i))
    assert conn.too_slow and conn.queue.qsize() == 4  # three messages and the stop mark
