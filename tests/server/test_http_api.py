"""The HTTP API: lobby, creating and joining games, acting, records, frames, pages, OpenAPI."""

from __future__ import annotations

from typing import Any

from dicehall_server_fixtures import (  # noqa: F401
    client_fixture,
    create_game,
    sqlite_url_fixture,
)


def test_catalog_lists_games_options_and_opponents(client: Any) -> None:
    games = {g["name"]: g for g in client.get("/api/catalog").json()}
    bg = games["backgammon"]
    assert bg["title"] == "Backgammon" and "random" in bg["opponents"]
    assert bg["options"][0]["name"] == "scoring" and "standard" in bg["options"][0]["choices"]


def test_create_errors_are_clear(client: Any) -> None:
    res = client.post("/api/games", json={"game": "chess"})
    assert res.status_code == 400 and "unknown game" in res.json()["error"]["message"]
    res = client.post("/api/games", json={"game": "backgammon", "options": {"scoring": "x"}})
    assert res.status_code == 400 and "scoring" in res.json()["error"]["message"]
    res = client.post("/api/games", json={"game": "backgammon", "opponent": "grandmaster"})
    assert res.status_code == 400 and "opponent" in res.json()["error"]["message"]
    res = client.post("/api/games", json={"game": "backgammon", "seat": 5})
    assert res.status_code == 400
    res = client.post("/api/games", json={"game": "backgammon", "seed": "no spaces"})
    assert res.status_code == 400
    res = client.post("/api/games", json={"game": "backgammon", "seed": "x" * 65})
    assert res.status_code == 422
    res = client.post("/api/games", json={"opponent": "random"})
    assert res.status_code == 422  # body validation
    assert client.get("/api/games/nope").status_code == 404


def test_friend_game_lobby_join_and_act_over_http(client: Any) -> None:
    created = create_game(client, seed="ann1", game="backgammon", opponent="friend", name="ann")
    game_id, t0 = created["id"], created["tokens"]["0"]
    assert created["url"] == f"/g/{game_id}"
    lobby = client.get("/api/lobby").json()
    assert [g["id"] for g in lobby["open"]] == [game_id]
    snap = client.get(f"/api/games/{game_id}").json()
    assert snap["status"] == "waiting" and snap["log"] == []
    # acting before the game starts
    res = client.post(f"/api/games/{game_id}/act", json={"tokens": [t0], "text": "8/5 6/5"})
    assert res.status_code == 409 and res.json()["error"]["code"] == "not_started"
    assert client.post(f"/api/games/{game_id}/join", json={"seat": 0}).status_code == 409
    t1 = client.post(f"/api/games/{game_id}/join", json={"name": "bob"}).json()["token"]
    assert client.post(f"/api/games/{game_id}/join", json={}).status_code == 409
    lobby = client.get("/api/lobby").json()
    assert lobby["open"] == [] and [g["id"] for g in lobby["live"]] == [game_id]
    snap = client.get(f"/api/games/{game_id}").json()
    assert snap["status"] == "playing" and snap["fairness"]["player_seeds"] == ["ann1", ""]
    mover = snap["to_move"]
    tokens = [t0, t1]
    # missing token, stolen (wrong) token, out of turn, illegal
    res = client.post(f"/api/games/{game_id}/act", json={"tokens": [], "text": "x"})
    assert res.status_code == 403 and res.json()["error"]["code"] == "not_your_seat"
    res = client.post(f"/api/games/{game_id}/act", json={"tokens": ["stolen?"], "text": "x"})
    assert res.status_code == 403
    res = client.post(
        f"/api/games/{game_id}/act", json={"tokens": [tokens[1 - mover]], "text": "8/5 6/5"}
    )
    assert res.status_code == 409 and res.json()["error"]["code"] == "out_of_turn"
    res = client.post(f"/api/games/{game_id}/act", json={"tokens": [tokens[mover]], "text": "13/1"})
    assert res.status_code == 422 and res.json()["error"]["legal"]
    legal = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": tokens[mover]}).json()
    assert legal["you"] == [mover] and legal["legal"]
    assert (
        client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": "x"}).json()["legal"] is None
    )
    res = client.post(
        f"/api/games/{game_id}/act",
        json={"tokens": [tokens[mover]], "text": legal["legal"][0], "seq": snap["seq"]},
    )
    assert res.status_code == 200 and res.json()["seq"] == snap["seq"] + 2


def test_records_frames_and_rematch_of_a_finished_game(client: Any) -> None:
    service = client.app.state.service
    created = create_game(client, game="backgammon", opponent="random")
    game_id, token = created["id"], created["tokens"]["0"]
    live = service.get(game_id)
    while not live.state.is_terminal():
        with live.lock:
            state, seq = live.state, live.seq
        if state.current_player() == 0:
            client.post(
                f"/api/games/{game_id}/act",
                json={"tokens": [token], "text": state.legal_texts()[-1], "seq": seq},
            )
    snap = client.get(f"/api/games/{game_id}").json()
    assert snap["status"] == "finished" and snap["summary"] and snap["returns"]
    assert snap["fairness"]["server_seed"]
    res = client.get(f"/api/games/{game_id}/record?download=1")
    assert "attachment" in res.headers["content-disposition"]
    record = res.json()
    assert record["format"] == "dicehall-record" and len(record["actions"]) == snap["seq"]
    rolls = record["meta"]["fairness"]["rolls"]
    assert rolls and all(len(r["dice"]) == 2 for r in rolls)
    assert client.get(f"/api/games/{game_id}/verify").json()["ok"] is True
    frames = client.get(f"/api/games/{game_id}/frames").json()
    assert len(frames) == snap["seq"] + 1 and frames[-1]["view"] == snap["view"]
    assert client.get("/api/lobby").json()["finished"][0]["id"] == game_id
    # rematch: only players, and both calls lead to the same new game
    assert client.post(f"/api/games/{game_id}/rematch", json={"tokens": []}).status_code == 403
    again = client.post(f"/api/games/{game_id}/rematch", json={"tokens": [token]}).json()
    assert again["id"] != game_id and "0" in again["tokens"]
    assert client.get(f"/api/games/{game_id}").json()["rematch"] == again["id"]
    new = client.get(f"/api/games/{again['id']}").json()
    # the rematch waits for a fresh seed: the old one was known before its commitment
    assert new["status"] == "waiting" and new["rematch_of"] == game_id
    assert [p["seeded"] for p in new["players"]] == [False, True]
    res = client.post(
        f"/api/games/{again['id']}/seed",
        json={"seed": "fresh"},
        headers={"X-Seat-Token": again["tokens"]["0"]},
    )
    assert res.status_code == 200 and res.json()["status"] == "playing"


def test_pages_static_files_and_openapi(client: Any) -> None:
    for path in ("/", "/g/abc", "/g/abc/replay", "/g/abc/fairness", "/fairness"):
        res = client.get(path)
        assert res.status_code == 200 and "<!doctype html>" in res.text.lower()
    for path in (
        "/static/js/client.js",
        "/static/js/games/backgammon.js",
        "/static/js/games/generic.js",
        "/static/css/app.css",
    ):
        assert client.get(path).status_code == 200
    schema = client.get("/openapi.json").json()
    assert "/api/games" in schema["paths"] and "/api/games/{game_id}/record" in schema["paths"]
    assert client.get("/api/protocol").json()["version"] == 1
