"""Fixtures for the server tests: stores on SQLite and on the real PostgreSQL server.

Imported by the test modules (not a conftest.py: two conftest.py files in directories without
``__init__.py`` collide under ``--doctest-modules``).
"""

from __future__ import annotations

import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from dicehall.server.storage import Store

POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"


def free_port() -> int:
    """A TCP port on the loopback that nothing listens on now (for a test's own server)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_serving(base: str, proc: Any, seconds: float = 120) -> None:
    """Return once the ``dicehall serve`` process ``proc`` answers ``/api/protocol`` at
    ``base``; fails the test if it exits first or is not up within ``seconds``."""
    import httpx

    deadline = time.time() + seconds
    while True:
        try:
            if httpx.get(f"{base}/api/protocol", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert proc.poll() is None and time.time() < deadline, "server did not start"
        time.sleep(0.3)


def postgres_store() -> Store:
    """A store on the test PostgreSQL database with tables unique to this test."""
    try:
        import psycopg

        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=3
        ):
            pass
    except Exception as exc:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432 ({exc})")
    return Store(POSTGRES_URL, prefix=f"t{uuid.uuid4().hex[:10]}_")


@pytest.fixture(
    name="store", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def store_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh store on SQLite (a temporary file) and on PostgreSQL (prefixed tables)."""
    s = (
        Store(f"sqlite:///{tmp_path / 'test.sqlite3'}")
        if request.param == "sqlite"
        else (postgres_store())
    )
    try:
        yield s
    finally:
        s.drop_all()


@pytest.fixture(name="sqlite_url")
def sqlite_url_fixture(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


@pytest.fixture(name="client")
def client_fixture(sqlite_url: str) -> Iterator[Any]:
    """A TestClient on a fresh app (bots move at once)."""
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        yield c


def create_game(client: Any, seed: str = "s33d", **body: Any) -> dict[str, Any]:
    """Create a game over HTTP and give the creator's seats their seed (the second step that
    fair dice need); returns the creation's answer."""
    res = client.post("/api/games", json=body)
    assert res.status_code == 201, res.text
    created: dict[str, Any] = res.json()
    tokens = ",".join(created["tokens"].values())
    seeded = client.post(
        f"/api/games/{created['id']}/seed", json={"seed": seed}, headers={"X-Seat-Token": tokens}
    )
    assert seeded.status_code == 200, seeded.text
    return created
