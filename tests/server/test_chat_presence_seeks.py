"""Chat (limits, rate limits, rooms, text only), presence and claims after the grace period,
seeks (quick pairing by rating range, direct challenges, staleness), the lobby's ratings,
spectators and ages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dicehall_server_fixtures import store_fixture  # noqa: F401 (the store fixture)

from dicehall.server.chat import MAX_LENGTH, Chat, clean_text
from dicehall.server.service import GameService, ServiceError
from dicehall.server.storage import Store


class Tick:
    def __init__(self, t: float = 5000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


# -- chat ----------------------------------------------------------------------------
def test_chat_text_is_cleaned_and_bounded() -> None:
    assert clean_text("  <script>alert(1)</script>\n ") == "<script>alert(1)</script>"
    assert clean_text("a\x00b\u202ec\r\nd") == "abcd"
    assert clean_text("x" * MAX_LENGTH) == "x" * MAX_LENGTH
    for bad, code in [("", "bad_request"), (" \n\t ", "bad_request"), (3, "bad_request")]:
        with pytest.raises(ServiceError) as err:
            clean_text(bad)
        assert err.value.code == code
    with pytest.raises(ServiceError) as err:
        clean_text("x" * (MAX_LENGTH + 1))
    assert err.value.code == "too_long" and str(MAX_LENGTH) in err.value.message


def test_chat_rate_limit_per_author_and_rooms_apart(store: Store) -> None:
    tick = Tick()
    chat = Chat(store, rate=0.5, burst=3, clock=tick)
    for i in range(3):
        chat.post("g1", "players", "ann", f"hi {i}", seat=0)
    with pytest.raises(ServiceError) as err:
        chat.post("g1", "players", "ann", "one too many", seat=0)
    assert err.value.code == "rate_limited"
    chat.post("g1", "players", "bob", "bob has his own bucket", seat=1)
    tick.t += 2.0  # one message a second sustained ... every 2 s
    chat.post("g1", "players", "ann", "again", seat=0)
    chat.post("g1", "spectators", "carl", "watching", account_id="acc-carl")
    players = [m.text for m in chat.history("g1", "players")]
    assert players == ["hi 0", "hi 1", "hi 2", "bob has his own bucket", "again"]
    assert [m.text for m in chat.history("g1", "spectators")] == ["watching"]
    assert chat.history("g2", "players") == []
    last = chat.history("g1", "players")[-2].id
    assert [m.text for m in chat.history("g1", "players", after=last)] == ["again"]


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'social.sqlite3'}", bot_delay=0, grace=30)
    from argon2 import PasswordHasher

    app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    with TestClient(app) as client:
        yield app, client


def register(client: Any, name: str) -> None:
    res = client.post("/api/accounts", json={"username": name, "password": "pass " + name})
    assert res.status_code == 201, res.text


def friend_game(client: Any) -> tuple[str, str, str]:
    created = client.post(
        "/api/games", json={"game": "backgammon", "opponent": "friend", "name": "ann"}
    ).json()
    game_id, t0 = created["id"], created["tokens"]["0"]
    client.post(f"/api/games/{game_id}/seed", json={"seed": "a"}, headers={"X-Seat-Token": t0})
    t1 = client.post(f"/api/games/{game_id}/join", json={"name": "bob", "seed": "b"}).json()
    return game_id, t0, t1["token"]


def recv(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg  # type: ignore[no-any-return]


def test_players_chat_reaches_players_only_and_comes_back_on_join(app_client: Any) -> None:
    _app, client = app_client
    game_id, t0, t1 = friend_game(client)
    with (
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
        client.websocket_connect("/ws") as watcher,
    ):
        for ws, tokens in ((a, [t0]), (b, [t1]), (watcher, [])):
            ws.send_json({"type": "join", "v": 1, "game": game_id, "tokens": tokens})
            recv(ws, "snapshot")
        a.send_json({"type": "chat", "v": 1, "ref": 1, "text": "<b>good luck</b>"})
        got = recv(b, "chat")["message"]
        assert got["text"] == "<b>good luck</b>" and got["author"] == "ann" and got["seat"] == 0
        # a guest watcher may not write, and did not read the players' room
        watcher.send_json({"type": "chat", "v": 1, "ref": 2, "text": "hello"})
        assert recv(watcher, "error")["code"] == "not_logged_in"
        a.send_json({"type": "chat", "v": 1, "ref": 3, "text": "x" * (MAX_LENGTH + 5)})
        assert recv(a, "error")["code"] == "too_long"
    with client.websocket_connect("/ws") as again:
        again.send_json({"type": "join", "v": 1, "game": game_id, "tokens": [t1]})
        snap = recv(again, "snapshot")
        assert snap["chat"]["channel"] == "players"
        assert [m["text"] for m in snap["chat"]["messages"]] == ["<b>good luck</b>"]
    with client.websocket_connect("/ws") as spectator:
        spectator.send_json({"type": "join", "v": 1, "game": game_id, "tokens": []})
        snap = recv(spectator, "snapshot")
        assert snap["chat"] == {"channel": "spectators", "messages": []}


def test_lobby_chat_needs_an_account(app_client: Any) -> None:
    _app, client = app_client
    res = client.post("/api/chat/lobby", json={"text": "hi"})
    assert res.status_code == 401 and res.json()["error"]["code"] == "not_logged_in"
    register(client, "carol")
    assert client.post("/api/chat/lobby", json={"text": "hi all"}).status_code == 201
    messages = client.get("/api/chat/lobby").json()["messages"]
    assert [(m["author"], m["text"]) for m in messages] == [("carol", "hi all")]


# -- presence and claims ---------------------------------------------------------------
def test_a_gone_player_is_seen_at_once_and_can_be_claimed_after_the_grace(
    app_client: Any,
) -> None:
    app, client = app_client
    tick = Tick()
    app.state.presence.now = tick
    game_id, t0, t1 = friend_game(client)
    with client.websocket_connect("/ws") as a:
        a.send_json({"type": "join", "v": 1, "game": game_id, "tokens": [t0]})
        recv(a, "snapshot")
        with client.websocket_connect("/ws") as b:
            b.send_json({"type": "join", "v": 1, "game": game_id, "tokens": [t1]})
            recv(b, "snapshot")
            a.send_json({"type": "claim", "v": 1, "ref": 1, "what": "win"})
            err = recv(a, "error")
            assert err["code"] == "too_early" and "bob is still here" in err["message"]
        while True:  # bob closed his tab: ann hears it without asking
            update = recv(a, "update")
            if not update["presence"]["online"][1]:
                break
        assert update["presence"]["online"] == [True, False]
        tick.t += 10
        a.send_json({"type": "claim", "v": 1, "ref": 2, "what": "win"})
        assert "wait 20 more seconds" in recv(a, "error")["message"]
        tick.t += 21
        a.send_json({"type": "claim", "v": 1, "ref": 3, "what": "win"})
        assert recv(a, "ok")["ended"] == "abandon:1"
    snap = client.get(f"/api/games/{game_id}").json()
    assert snap["status"] == "finished" and snap["returns"] == [1.0, -1.0]
    assert snap["summary"] == "bob left the game and lost by abandonment"


def test_abort_counts_for_nobody(app_client: Any) -> None:
    app, client = app_client
    tick = Tick()
    app.state.presence.now = tick
    game_id, t0, _t1 = friend_game(client)
    client.get(f"/api/games/{game_id}")  # bob has never been seen: gone from now on
    tick.t += 31
    res = client.post(f"/api/games/{game_id}/claim", json={"what": "abort", "tokens": [t0]})
    assert res.status_code == 200 and res.json()["ended"] == "aborted"
    snap = client.get(f"/api/games/{game_id}").json()
    assert snap["status"] == "abandoned" and "aborted" in snap["summary"]
    bad = client.post(f"/api/games/{game_id}/claim", json={"what": "win", "tokens": [t0]})
    assert bad.json()["error"]["code"] == "game_over"


# -- seeks ---------------------------------------------------------------------------
def login_as(client: Any, name: str) -> None:
    res = client.post("/api/session", json={"username": name, "password": "pass " + name})
    assert res.status_code == 200, res.text


def test_a_seek_is_accepted_and_both_get_their_seats(app_client: Any) -> None:
    app, client = app_client
    for name in ("ann", "bob"):
        register(client, name)
    login_as(client, "ann")
    res = client.post(
        "/api/seeks",
        json={"game": "backgammon", "rated": True, "clock": "3+12d", "range": 200},
    )
    assert res.status_code == 201, res.text
    seek = res.json()["seek"]
    assert seek["range"] == [1300, 1700] and seek["clock"]["delay"] == 12
    own = client.post(f"/api/seeks/{seek['id']}/accept")
    assert own.json()["error"]["code"] == "bad_request"
    login_as(client, "bob")
    listed = client.get("/api/seeks").json()["seeks"]
    assert [(s["id"], s["username"], s["fits"]) for s in listed] == [(seek["id"], "ann", True)]
    took = client.post(f"/api/seeks/{seek['id']}/accept").json()
    game_id = took["id"]
    again = client.post(f"/api/seeks/{seek['id']}/accept")
    assert again.status_code == 409 and again.json()["error"]["code"] == "seek_taken"
    login_as(client, "ann")
    mine = client.get("/api/seeks").json()["mine"]
    assert mine[0]["status"] == "accepted" and mine[0]["game_id"] == game_id
    resumed = client.post(f"/api/games/{game_id}/resume").json()["tokens"]
    live = app.state.service.get(game_id)
    assert live.row.rated and {s.name for s in live.row.seats} == {"ann", "bob"}
    assert app.state.clocks.control(game_id).delay == 12
    ann_seat = int(next(iter(resumed)))
    assert live.row.seats[ann_seat].name == "ann"


def test_quick_pairing_respects_both_ranges(app_client: Any) -> None:
    app, client = app_client
    ratings = app.state.ratings
    for name in ("ann", "bob", "cat"):
        register(client, name)
    accounts = app.state.accounts
    # give cat a high backgammon rating directly
    from dicehall.core.glicko2 import Rating

    cat = accounts.by_username("cat")
    with app.state.service.store.engine.begin() as conn:
        conn.execute(
            ratings.ratings.insert().values(
                account_id=cat.id,
                game="backgammon",
                rating=2000.0,
                deviation=Rating().deviation,
                volatility=0.06,
                games=10,
                updated=0.0,
            )
        )
    login_as(client, "ann")
    seek = client.post("/api/seeks", json={"game": "backgammon", "range": 100}).json()["seek"]
    login_as(client, "cat")  # 2000: outside ann's 1400..1600
    res = client.post("/api/seeks", json={"game": "backgammon", "quick": True}).json()
    assert "seek" in res  # not paired with ann: cat's own seek is posted instead
    refused = client.post(f"/api/seeks/{seek['id']}/accept")
    assert refused.json()["error"]["code"] == "out_of_range"
    login_as(client, "bob")  # 1500
    paired = client.post("/api/seeks", json={"game": "backgammon", "quick": True}).json()
    assert paired["game"]["id"]
    live = app.state.service.get(paired["game"]["id"])
    assert {s.name for s in live.row.seats} == {"ann", "bob"}


def test_direct_challenge_only_for_its_player_and_stale_seeks_leave(app_client: Any) -> None:
    app, client = app_client
    for name in ("ann", "bob", "cat"):
        register(client, name)
    login_as(client, "ann")
    res = client.post("/api/seeks", json={"game": "coinrows", "to": "bob"})
    challenge = res.json()["seek"]
    assert challenge["to"] == "bob"
    nobody = client.post("/api/seeks", json={"game": "coinrows", "to": "nobody"})
    assert nobody.status_code == 404
    login_as(client, "cat")
    assert client.get("/api/seeks").json()["seeks"] == []  # not a public seek
    assert client.post(f"/api/seeks/{challenge['id']}/accept").status_code == 400
    login_as(client, "bob")
    listing = client.get("/api/seeks").json()
    assert [c["id"] for c in listing["challenges"]] == [challenge["id"]]
    assert client.delete(f"/api/seeks/{challenge['id']}").json()["status"] == "declined"
    # a seek whose seeker went away leaves the lists
    login_as(client, "ann")
    seek = client.post("/api/seeks", json={"game": "whitedie"}).json()["seek"]
    seeks = app.state.seeks
    seeks.now = lambda: seek_time() + 61
    login_as(client, "bob")
    assert client.get("/api/seeks").json()["seeks"] == []
    assert client.post(f"/api/seeks/{seek['id']}/accept").status_code == 409


def seek_time() -> float:
    import time

    return time.time()


def test_lobby_shows_ratings_spectators_and_age(app_client: Any) -> None:
    _app, client = app_client
    register(client, "ann")
    created = client.post(
        "/api/games", json={"game": "backgammon", "opponent": "friend", "rated": True}
    ).json()
    game_id, t0 = created["id"], created["tokens"]["0"]
    client.post(f"/api/games/{game_id}/seed", json={"seed": "a"}, headers={"X-Seat-Token": t0})
    with client.websocket_connect("/ws") as w1, client.websocket_connect("/ws") as w2:
        for ws in (w1, w2):
            ws.send_json({"type": "join", "v": 1, "game": game_id, "tokens": []})
            recv(ws, "snapshot")
        lobby = client.get("/api/lobby").json()
    (entry,) = [g for g in lobby["open"] if g["id"] == game_id]
    assert entry["spectators"] == 2 and entry["age"] >= 0 and entry["rated"]
    assert entry["players"][0]["name"] == "ann" and entry["players"][0]["rating"] == 1500
    assert entry["players"][1]["rating"] is None and "account_id" not in entry["players"][0]


def test_ratings_per_backgammon_format(store: Store) -> None:
    from argon2 import PasswordHasher

    from dicehall.server.accounts import Accounts
    from dicehall.server.ratings import Ratings

    accounts = Accounts(store, PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    ratings = Ratings(store, accounts)
    service = GameService(store, bot_delay=0)
    service.listeners.append(ratings.on_commit)
    ann = accounts.register("ann", "password ann")
    bob = accounts.register("bob", "password bob")
    for options in ({"match_length": 3}, {}):
        game_id, _tokens = service.create(
            "backgammon", options, opponent="friend", seed="a", account_id=ann.id, rated=True
        )
        service.join(game_id, 1, "bob", "b", account_id=bob.id)
        service.resign(game_id, [0])
    keys = {r["game"]: r["games"] for r in ratings.profile("bob")["ratings"]}
    assert keys == {"backgammon": 1, "backgammon:match": 1}
    board = ratings.leaderboard("backgammon:match")
    assert [x["username"] for x in board] == ["bob", "ann"]


def test_result_lines_name_the_players() -> None:
    from types import SimpleNamespace

    from dicehall.server.live import name_players

    seats = [SimpleNamespace(name="ann"), SimpleNamespace(name="bob")]
    live = SimpleNamespace(row=SimpleNamespace(seats=seats))
    out: dict[str, Any] = {"summary": "Seat 2 wins a gammon (2 points); seat 1 had 3 left."}
    name_players(live, out)
    assert out["summary"] == "bob wins a gammon (2 points); ann had 3 left."
    out = {"summary": "Seat 7 wins"}  # no such seat: left alone
    name_players(live, out)
    assert out["summary"] == "Seat 7 wins"


def test_two_accepters_at_once_exactly_one_wins(store: Store) -> None:
    import threading

    from argon2 import PasswordHasher

    from dicehall.server.accounts import Accounts
    from dicehall.server.clocks import Clocks
    from dicehall.server.ratings import Ratings
    from dicehall.server.seeks import Seeks

    accounts = Accounts(store, PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    service = GameService(store, bot_delay=0)
    seeks = Seeks(service, accounts, Ratings(store, accounts), Clocks(store, service))
    ann, bob, cat = (accounts.register(n, "password " + n) for n in ("ann", "bob", "cat"))
    seek = seeks.create(ann, "coinrows", rated=True, clock="3+2")["seek"]
    results: dict[str, Any] = {}
    start = threading.Barrier(2)

    def take(who: Any) -> None:
        start.wait()
        try:
            results[who.username] = seeks.accept(seek["id"], who)["id"]
        except ServiceError as exc:
            results[who.username] = exc.code

    threads = [threading.Thread(target=take, args=(a,)) for a in (bob, cat)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    outcomes = sorted(results.values(), key=lambda v: v != "seek_taken")
    assert outcomes[0] == "seek_taken" and outcomes[1] != "seek_taken", results
    assert seeks.get(seek["id"])["status"] == "accepted"
    assert seeks.get(seek["id"])["game_id"] == outcomes[1]
    service.close()


def test_the_time_gone_survives_a_restart(tmp_path: Path) -> None:
    from dicehall.server.presence import Presence

    url = f"sqlite:///{tmp_path / 'presence.sqlite3'}"
    tick = Tick()
    store = Store(url)
    service = GameService(store, bot_delay=0)
    presence = Presence(store, service, grace=30, now=tick)
    game_id, _ = service.create("coinrows", opponent="friend", seed="a", name="ann")
    service.join(game_id, 1, "bob", "b")
    presence.joined(game_id, [0])
    presence.joined(game_id, [1])
    presence.record_left(game_id, presence.left(game_id, [1]))  # bob closes his tab
    tick.t += 20
    assert presence.view(service.get(game_id))["gone_for"][1] == 20.0
    service.close()
    store.close()  # the server stops; 15 s later it is back

    tick.t += 15
    store = Store(url)
    service = GameService(store, bot_delay=0)
    presence = Presence(store, service, grace=30, now=tick)
    view = presence.view(service.get(game_id))
    assert view["online"][1] is False and view["gone_for"][1] == 35.0
    assert presence.claim(game_id, [0], "win") == "abandon:1"
    service.close()


def test_the_heartbeat_refreshes_exactly_the_seats_connected_here(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One statement per chunk of seats writes every seat connected here (several chunks
    here) and no other seat, on SQLite and PostgreSQL; what it reads back of those games
    serves the presence views until a change is heard."""
    from dicehall.server import presence as presence_module
    from dicehall.server.presence import Presence

    monkeypatch.setattr(presence_module, "HEARTBEAT_CHUNK", 2)
    tick = Tick()
    service = GameService(store, bot_delay=0)
    presence = Presence(store, service, grace=30, now=tick)
    games = []
    for _ in range(3):
        game_id, _ = service.create("coinrows", opponent="friend", seed="a", name="ann")
        service.join(game_id, 1, "bob", "b")
        games.append(game_id)
    for game_id in games:
        presence.joined(game_id, [0, 1])
    presence.record_left(games[2], presence.left(games[2], [1]))  # gone: not refreshed
    tick.t += 7
    assert presence.heartbeat() == 5
    t = presence.table.c
    with store.engine.connect() as conn:
        rows = {
            (r.game_id, r.seat): (r.last_seen, r.left_at)
            for r in conn.execute(presence.table.select().where(t.game_id.in_(games)))
        }
    start = tick.t - 7
    assert rows == {
        (games[0], 0): (tick.t, None),
        (games[0], 1): (tick.t, None),
        (games[1], 0): (tick.t, None),
        (games[1], 1): (tick.t, None),
        (games[2], 0): (tick.t, None),
        (games[2], 1): (start, start),
    }
    # what the heartbeat read serves the views until the next one: no query per game
    live = service.get(games[2])

    def no_query() -> None:
        raise AssertionError("the database was read")

    monkeypatch.setattr(store.engine, "connect", no_query)
    tick.t += 3
    assert presence.view(live)["online"] == [True, False]
    assert presence.view(live)["gone_for"] == [None, 10.0]
    presence.refresh(games[2])  # a change heard: read again
    with pytest.raises(AssertionError, match="the database was read"):
        presence.view(live)
    monkeypatch.undo()
    service.close()
