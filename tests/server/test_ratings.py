"""Rated games: Glicko-2 updates exactly once per game (also after a crash between the result
and the update, and with two raters at once), pairwise results for White Die of 3 to 6
players, bot accounts, profiles and leaderboards, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_accounts import pg_store

from dicehall.core.glicko2 import Rating, update
from dicehall.server.accounts import Accounts
from dicehall.server.ratings import Ratings
from dicehall.server.service import GameService, ServiceError
from dicehall.server.storage import Store


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'rt.sqlite3'}") if request.param == "sqlite" else pg_store()
    try:
        yield s
    finally:
        s.drop_all()


@pytest.fixture
def accounts(store: Store) -> Accounts:
    from argon2 import PasswordHasher

    # the cheapest argon2 parameters: these tests are about ratings, not about hashing
    return Accounts(store, PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


def play_out(service: GameService, game_id: str, seats: list[int]) -> list[float]:
    """Play the first legal action for the seat to move until the game ends."""
    for _ in range(500):
        live = service.get(game_id)
        if live.row.status != "playing":
            break
        snap = service.snapshot(live, seats)
        service.act(game_id, seats, snap["legal"][0])
    assert live.row.status == "finished" and live.row.result
    return list(live.row.result)


def friends_game(service: GameService, accounts: Accounts, names: list[str], **options: Any) -> str:
    """A rated White Die game between the accounts ``names`` (made here), all seeds given."""
    ids = [accounts.register(n, "password " + n).id for n in names]
    game_id, _ = service.create(
        "whitedie",
        {"players": len(names), **options},
        opponent="friend",
        seed="s0",
        account_id=ids[0],
        name=names[0],
        rated=True,
    )
    for i, (n, a) in enumerate(zip(names[1:], ids[1:], strict=True)):
        service.join(game_id, None, n, f"s{i + 1}", account_id=a)
    return game_id


def ratings_of(ratings: Ratings, names: list[str]) -> list[dict[str, Any]]:
    return [ratings.profile(n)["ratings"][0] for n in names]


def test_killed_before_the_update_rates_once_at_restart(store: Store, accounts: Accounts) -> None:
    # the first server commits the result and dies before any rating update: no listener
    first = GameService(store, bot_delay=0)
    game_id = friends_game(first, accounts, ["ann", "bob"], target=3)
    result = play_out(first, game_id, [0, 1])
    first.close()
    ratings = Ratings(store, accounts)
    assert ratings.game_changes(game_id) == []
    assert ratings.profile("ann")["ratings"] == []
    # the restarted server's sweep rates it; a second sweep, the listener and a direct call
    # change nothing
    assert ratings.sweep() == 1
    assert ratings.sweep() == 0
    assert ratings.rate(store.get_game(game_id)) == []
    second = GameService(store, bot_delay=0)
    second.listeners.append(ratings.on_commit)
    ratings.on_commit(second.get(game_id), [])
    winner = 0 if result[0] > result[1] else 1
    expect_win = update(Rating(), [(Rating(), 1.0)])
    expect_loss = update(Rating(), [(Rating(), 0.0)])
    got = ratings_of(ratings, ["ann", "bob"])
    assert [g["games"] for g in got] == [1, 1]
    assert got[winner]["rating"] == round(expect_win.rating, 1)
    assert got[1 - winner]["rating"] == round(expect_loss.rating, 1)
    assert round(expect_win.rating, 2) == 1662.31  # two new players: +162.3 / -162.3
    changes = ratings.game_changes(game_id)
    assert [c["change"] for c in changes][winner] == pytest.approx(162.3, abs=0.05)
    second.close()


def test_the_listener_rates_at_the_last_move_and_two_raters_race(
    store: Store, accounts: Accounts
) -> None:
    service = GameService(store, bot_delay=0)
    ratings = Ratings(store, accounts)
    service.listeners.append(ratings.on_commit)
    game_id = friends_game(service, accounts, ["cyd", "dia"], target=3)
    play_out(service, game_id, [0, 1])
    assert len(ratings.game_changes(game_id)) == 2  # rated as the result was committed
    # a second game, rated by two raters at once (two processes hearing of the same end)
    g2 = friends_game(service, accounts, ["eda", "flo"], target=3)
    service.listeners.remove(ratings.on_commit)
    play_out(service, g2, [0, 1])
    other = Ratings(store, accounts)
    row = store.get_game(g2)
    made: list[int] = []
    start = threading.Barrier(2)

    def rate(r: Ratings) -> None:
        start.wait()
        made.append(len(r.rate(row)))

    threads = [threading.Thread(target=rate, args=(r,)) for r in (ratings, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(made) == [0, 2]
    assert [g["games"] for g in ratings_of(ratings, ["eda", "flo"])] == [1, 1]
    service.close()


def test_five_players_are_rated_by_their_pairwise_results(store: Store, accounts: Accounts) -> None:
    service = GameService(store, bot_delay=0)
    ratings = Ratings(store, accounts)
    names = ["pl1", "pl2", "pl3", "pl4", "pl5"]
    game_id = friends_game(service, accounts, names, target=3)
    result = play_out(service, game_id, list(range(5)))
    assert ratings.sweep() == 1
    got = ratings_of(ratings, names)
    for i in range(5):
        pairs = [
            (Rating(), 1.0 if result[i] > result[j] else 0.5 if result[i] == result[j] else 0.0)
            for j in range(5)
            if j != i
        ]
        assert got[i]["rating"] == round(update(Rating(), pairs).rating, 1)
    # the ratings are ordered as the returns are
    order = sorted(range(5), key=lambda i: result[i])
    assert [got[i]["rating"] for i in order] == sorted(g["rating"] for g in got)
    service.close()


def test_rated_games_need_accounts(store: Store, accounts: Accounts) -> None:
    service = GameService(store, bot_delay=0)
    with pytest.raises(ServiceError, match="logged in"):
        service.create("whitedie", {}, opponent="friend", seed="s", rated=True)
    ann = accounts.register("ann", "password a")
    with pytest.raises(ServiceError, match="not local"):
        service.create("whitedie", {}, opponent="local", seed="s", account_id=ann.id, rated=True)
    game_id, _ = service.create(
        "whitedie", {}, opponent="friend", seed="s", account_id=ann.id, rated=True
    )
    with pytest.raises(ServiceError, match="log in to play a rated game") as err:
        service.join(game_id, None, "guest", "g")
    assert err.value.code == "not_logged_in"
    with pytest.raises(ServiceError, match="already have a seat"):
        service.join(game_id, None, "ann", "g", account_id=ann.id)
    service.close()


def test_http_rated_game_against_a_bot_profile_and_leaderboard(store: Store) -> None:
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    app = create_app(store=store, bot_delay=0)
    with TestClient(app) as client:
        body = {"game": "whitedie", "options": {"target": 3}, "opponent": "random", "rated": True}
        res = client.post("/api/games", json=body)
        assert res.status_code == 400 and "logged in" in res.json()["error"]["message"]
        client.post("/api/accounts", json={"username": "gil", "password": "gil's password"})
        created = client.post("/api/games", json=body).json()
        game_id, token = created["id"], created["tokens"]["0"]
        headers = {"X-Seat-Token": token}
        client.post(f"/api/games/{game_id}/seed", json={"seed": "g1"}, headers=headers)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            snap = client.get(f"/api/games/{game_id}", headers=headers).json()
            if snap["status"] == "finished":
                break
            if snap["to_move"] == 0 and snap.get("legal"):
                client.post(
                    f"/api/games/{game_id}/act",
                    json={"text": snap["legal"][0], "seq": snap["seq"]},
                    headers=headers,
                )
            else:
                time.sleep(0.05)  # the bot is thinking
        assert snap["status"] == "finished" and snap["rated"] is True
        changes = client.get(f"/api/games/{game_id}/ratings").json()
        assert len(changes) == 2 and changes[0]["change"] == -changes[1]["change"] != 0
        profile = client.get("/api/players/gil").json()
        assert profile["ratings"][0]["game"] == "whitedie"
        assert profile["ratings"][0]["rating"] == changes[0]["rating_after"]
        assert profile["games"][0]["id"] == game_id
        assert profile["games"][0]["replay"] == f"/g/{game_id}/replay"
        assert profile["games"][0]["rating_change"]["change"] == changes[0]["change"]
        bot = client.get("/api/players/random").json()
        assert bot["account"]["kind"] == "bot" and bot["games"][0]["id"] == game_id
        board = client.get("/api/leaderboard/whitedie").json()
        assert {b["username"] for b in board} == {"gil", "random"}
        assert board[0]["rating"] > board[1]["rating"] and board[0]["provisional"]
        assert client.get("/api/players/nobody").status_code == 404
        res = client.get("/api/leaderboard/chess")
        assert res.status_code == 400 and "backgammon" in res.json()["error"]["message"]
