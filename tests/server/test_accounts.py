"""Accounts against the real SQLite and PostgreSQL: register, log in, a wrong password, log
out, change password, duplicate usernames, hashes that never leave the server, seats bound
to accounts (resume from another browser), bot accounts."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from dicehall_server_fixtures import create_game

from dicehall.server.storage import Store

PG_URL = "postgresql://postgres@127.0.0.1:5432/dicehall_i17"


def pg_store() -> Store:
    """Prefixed tables in this issue's own PostgreSQL database (made if missing)."""
    try:
        import psycopg

        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=postgres",
            connect_timeout=3,
            autocommit=True,
        ) as conn:
            if not conn.execute(
                "SELECT 1 FROM pg_database WHERE datname='dicehall_i17'"
            ).fetchone():
                conn.execute("CREATE DATABASE dicehall_i17")
    except Exception as exc:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432 ({exc})")
    return Store(PG_URL, prefix=f"a{uuid.uuid4().hex[:10]}_")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'acc.sqlite3'}") if request.param == "sqlite" else pg_store()
    try:
        yield s
    finally:
        s.drop_all()


@pytest.fixture
def app(store: Store) -> Any:
    from dicehall.server.app import create_app

    return create_app(store=store, bot_delay=0)


@pytest.fixture
def client(app: Any) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(app) as c:
        yield c


def browser(app: Any) -> Any:
    """A second browser on the same server (its own cookie jar)."""
    from fastapi.testclient import TestClient

    return TestClient(app)


def register(client: Any, username: str, password: str = "correct horse") -> Any:
    return client.post("/api/accounts", json={"username": username, "password": password})


def test_register_login_wrong_password_logout(client: Any, app: Any) -> None:
    res = register(client, "Ann_1")
    assert res.status_code == 201, res.text
    assert res.json()["account"]["username"] == "Ann_1"
    cookie = res.headers["set-cookie"]
    assert "dicehall_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert client.get("/api/me").json()["account"]["username"] == "Ann_1"
    # log out: the cookie goes and the session ends on the server
    stolen = client.cookies.get("dicehall_session")
    assert client.delete("/api/session").status_code == 200
    assert client.get("/api/me").status_code == 401
    other = browser(app)
    other.cookies.set("dicehall_session", stolen)
    assert other.get("/api/me").status_code == 401
    # a wrong password and an unknown username get the same answer
    wrong = client.post("/api/session", json={"username": "Ann_1", "password": "wrong horse"})
    unknown = client.post("/api/session", json={"username": "Nobody", "password": "wrong horse"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert "set-cookie" not in wrong.headers
    assert client.get("/api/me").status_code == 401
    # log in again, with the name in another case
    res = client.post("/api/session", json={"username": "ann_1", "password": "correct horse"})
    assert res.status_code == 200 and res.json()["account"]["username"] == "Ann_1"
    assert client.get("/api/me").json()["account"]["username"] == "Ann_1"


def test_duplicate_usernames_are_refused_in_any_case(client: Any) -> None:
    assert register(client, "bob").status_code == 201
    for name in ("bob", "BOB", "Bob"):
        res = register(client, name, "another password")
        assert res.status_code == 409 and res.json()["error"]["code"] == "username_taken"
    # the first bob's password still works
    ok = client.post("/api/session", json={"username": "bob", "password": "correct horse"})
    assert ok.status_code == 200


def test_bad_usernames_and_passwords_say_what_is_allowed(client: Any) -> None:
    for name in ("ab", "a" * 25, "has space", "<script>", ""):
        res = register(client, name)
        assert res.status_code in (400, 422), name
        assert "username" in res.json()["error"]["message"]
    res = register(client, "carol", "short")
    assert res.status_code == 400 and "8 to 256" in res.json()["error"]["message"]
    res = register(client, "carol", "x" * 257)
    assert res.status_code == 422 and "password" in res.json()["error"]["message"]


def test_password_hashes_never_leave_the_server(client: Any, store: Store) -> None:
    seen: list[str] = []

    def keep(res: Any) -> Any:
        seen.append(res.text + str(res.headers))
        return res

    keep(register(client, "dora", "dora's secret"))
    keep(client.get("/api/me"))
    keep(client.post("/api/session", json={"username": "dora", "password": "dora's secret"}))
    created = create_game(client, game="backgammon", opponent="random")
    for path in ("", "/record", "/frames"):
        keep(client.get(f"/api/games/{created['id']}{path}"))
    keep(client.get("/api/lobby"))
    keep(client.get("/openapi.json"))
    with store.engine.connect() as conn:
        hashes = [
            r[0] for r in conn.execute(sa.text(f"SELECT password_hash FROM {store.prefix}accounts"))
        ]
        sessions = [
            r[0] for r in conn.execute(sa.text(f"SELECT token_hash FROM {store.prefix}sessions"))
        ]
    assert len(hashes) == 1 and hashes[0].startswith("$argon2id$")
    assert "dora's secret" not in hashes[0]
    for text in seen:
        assert "$argon2" not in text and hashes[0] not in text and "password_hash" not in text
    # the database keeps only hashes of the session cookies
    assert client.cookies.get("dicehall_session") not in sessions


def test_change_password_ends_the_other_sessions(client: Any, app: Any) -> None:
    register(client, "erin", "first password")
    phone = browser(app)
    assert (
        phone.post(
            "/api/session", json={"username": "erin", "password": "first password"}
        ).status_code
        == 200
    )
    res = client.post("/api/me/password", json={"old": "not it at all", "new": "second password"})
    assert res.status_code == 401
    res = client.post("/api/me/password", json={"old": "first password", "new": "short"})
    assert res.status_code == 400
    res = client.post("/api/me/password", json={"old": "first password", "new": "second password"})
    assert res.status_code == 200
    assert client.get("/api/me").status_code == 200  # this browser stays logged in
    assert phone.get("/api/me").status_code == 401  # the other one is logged out
    old = client.post("/api/session", json={"username": "erin", "password": "first password"})
    new = client.post("/api/session", json={"username": "erin", "password": "second password"})
    assert old.status_code == 401 and new.status_code == 200
    guest = browser(app)
    assert guest.post("/api/me/password", json={"old": "a" * 8, "new": "b" * 8}).status_code == 401


def test_a_logged_in_seat_is_bound_to_the_account_and_resumes_elsewhere(
    client: Any, app: Any
) -> None:
    register(client, "fred")
    created = create_game(client, game="backgammon", opponent="friend", name="ignored")
    game_id, first_token = created["id"], created["tokens"]["0"]
    # a guest joins: guests still play
    guest = browser(app)
    joined = guest.post(f"/api/games/{game_id}/join", json={"name": "gus"})
    assert joined.status_code == 200
    snap = client.get(f"/api/games/{game_id}").json()
    assert [s["name"] for s in snap["players"]] == ["fred", "gus"]
    # fred goes on from another browser: new token there, the old one stops working
    laptop = browser(app)
    assert laptop.post(f"/api/games/{game_id}/resume").status_code == 401
    laptop.post("/api/session", json={"username": "fred", "password": "correct horse"})
    res = laptop.post(f"/api/games/{game_id}/resume")
    assert res.status_code == 200, res.text
    new_token = res.json()["tokens"]["0"]
    assert new_token != first_token
    mine = laptop.get(f"/api/games/{game_id}", headers={"X-Seat-Token": new_token}).json()
    old = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": first_token}).json()
    assert mine["you"] == [0] and old["you"] == []
    # the guest's seat is nobody's account: fred cannot take it over
    assert "1" not in res.json()["tokens"]
    other = browser(app)
    register(other, "gina")
    assert other.post(f"/api/games/{game_id}/resume").status_code == 403


def test_a_guest_cannot_play_under_an_account_name(client: Any, app: Any) -> None:
    register(client, "Hilda")
    created = create_game(client, game="backgammon", opponent="friend")
    guest = browser(app)
    for name in ("Hilda", "hilda", " HILDA "):  # the username in any case
        res = guest.post(f"/api/games/{created['id']}/join", json={"name": name})
        assert res.status_code == 409, res.text
        error = res.json()["error"]
        assert error["code"] == "name_taken" and "log in" in error["message"]
        made = guest.post("/api/games", json={"game": "coinrows", "opponent": "bot", "name": name})
        assert made.status_code == 409 and made.json()["error"]["code"] == "name_taken"
    # nothing was taken by the refused joins; another name is fine
    snap = client.get(f"/api/games/{created['id']}").json()
    assert [p["claimed"] for p in snap["players"]] == [True, False]
    assert guest.post(f"/api/games/{created['id']}/join", json={"name": "hilde"}).status_code == 200


def test_bot_accounts_one_per_level_without_a_login(app: Any) -> None:
    accounts = app.state.accounts
    a = accounts.bot_account("bot:expert")
    assert a.username == "bot-expert" and a.kind == "bot"
    assert accounts.bot_account("bot:expert") == a
    assert accounts.bot_account("random").username == "random"
    c = browser(app)
    res = c.post("/api/session", json={"username": "bot-expert", "password": "anything goes"})
    assert res.status_code == 401
