"""Resign in every game: the game ends at once, the resigning seat loses, the result line
names the player, a rated game's ratings follow, and it all survives a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dicehall_server_fixtures import create_game

from dicehall.server.accounts import Accounts
from dicehall.server.ratings import Ratings
from dicehall.server.service import GameService, ServiceError
from dicehall.server.storage import Store

pytest.importorskip("fastapi")


@pytest.mark.parametrize("game", ["backgammon", "coinrows", "whitedie"])
def test_resign_over_http_in_every_game(tmp_path: Path, game: str) -> None:
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}", bot_delay=0)) as client:
        created = create_game(client, game=game, opponent="friend", name="ann")
        game_id, t0 = created["id"], created["tokens"]["0"]
        early = client.post(f"/api/games/{game_id}/resign", json={"tokens": [t0]})
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_started"
        t1 = client.post(f"/api/games/{game_id}/join", json={"name": "bob", "seed": "b0b"}).json()[
            "token"
        ]
        nobody = client.post(f"/api/games/{game_id}/resign", json={"tokens": ["forged"]})
        assert nobody.status_code == 403
        res = client.post(f"/api/games/{game_id}/resign", headers={"X-Seat-Token": t1}, json={})
        assert res.status_code == 200, res.text
        assert res.json()["seat"] == 1 and res.json()["result"] == [1.0, -1.0]
        snap = client.get(f"/api/games/{game_id}").json()
        assert snap["status"] == "finished" and snap["ended"] == "resign:1"
        assert snap["summary"] == "bob resigned" and snap["returns"] == [1.0, -1.0]
        again = client.post(f"/api/games/{game_id}/resign", json={"tokens": [t0]})
        assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"
        moved = client.post(f"/api/games/{game_id}/act", json={"tokens": [t0, t1], "text": "x"})
        assert moved.status_code == 409 and moved.json()["error"]["code"] == "game_over"
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["meta"]["ended"] == "resign:1" and record["meta"]["result"] == [1.0, -1.0]


def test_a_rated_resignation_rates_and_survives_a_restart(tmp_path: Path) -> None:
    from argon2 import PasswordHasher

    store = Store(f"sqlite:///{tmp_path / 'rr.sqlite3'}")
    accounts = Accounts(store, PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    ratings = Ratings(store, accounts)
    service = GameService(store, bot_delay=0)
    service.listeners.append(ratings.on_commit)
    ann, bob = accounts.register("ann", "password a"), accounts.register("bob", "password b")
    game_id, _ = service.create(
        "backgammon", {}, opponent="friend", seed="a", name="ann", account_id=ann.id, rated=True
    )
    service.join(game_id, None, "bob", "b", account_id=bob.id)
    assert service.resign(game_id, [0]) == 0
    with pytest.raises(ServiceError, match="over"):
        service.resign(game_id, [1])
    changes = ratings.game_changes(game_id)
    assert changes[0]["change"] < 0 < changes[1]["change"]
    service.close()
    again = GameService(store, bot_delay=0)
    live: Any = again.get(game_id)
    assert live.row.status == "finished" and live.row.ended == "resign:0"
    assert again.public(live)["summary"] == "ann resigned"
    assert ratings.sweep() == 0  # rated once, at the resignation
    again.close()
    store.close()
