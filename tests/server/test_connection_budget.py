"""How many PostgreSQL connections a server process may open (``ConnectionBudget``,
``dicehall serve --db-connections``), and the warning an operator gets before starting more
processes than the database has connections for."""

from __future__ import annotations

import threading
import uuid

import pytest
from dicehall_server_fixtures import POSTGRES_URL, postgres_store
from hypothesis import given
from hypothesis import strategies as st
from test_server_storage import make_row

from dicehall.server.storage import (
    DEFAULT_CONNECTIONS,
    MIN_CONNECTIONS,
    RAW_CONNECTIONS,
    ConnectionBudget,
    Store,
    connection_warning,
)


def test_the_default_budget_is_the_split_the_server_always_had() -> None:
    budget = ConnectionBudget.of(DEFAULT_CONNECTIONS)
    assert (budget.pool, budget.overflow, budget.raw, budget.listen) == (10, 10, 8, 1)
    assert budget.total == 29


@given(st.integers(MIN_CONNECTIONS, 2000))
def test_every_budget_adds_up_and_leaves_each_part_room(total: int) -> None:
    budget = ConnectionBudget.of(total)
    assert budget.total == total
    assert 1 <= budget.raw <= RAW_CONNECTIONS
    assert budget.pool >= 1 and budget.overflow >= 1 and budget.listen == 1
    assert budget.pool - budget.overflow in (0, 1)


@pytest.mark.parametrize("bad", [3, 0, -5, True, 4.5, "8"])
def test_a_budget_too_small_or_not_a_number_is_refused_saying_the_least(bad: object) -> None:
    with pytest.raises(ValueError, match=f"at least {MIN_CONNECTIONS} connections"):
        ConnectionBudget.of(bad)  # type: ignore[arg-type]


def test_the_store_refuses_a_budget_too_small(tmp_path: object) -> None:
    with pytest.raises(ValueError, match="at least 4 connections"):
        Store(f"sqlite:///{tmp_path}/x.sqlite3", connections=2)


def test_sqlite_needs_no_warning(tmp_path: object) -> None:
    assert connection_warning(f"sqlite:///{tmp_path}/x.sqlite3", 64, 1000) is None


@pytest.mark.postgres
def test_the_warning_names_what_is_needed_and_what_the_database_has() -> None:
    postgres_store().drop_all()  # skips without PostgreSQL
    warning = connection_warning(POSTGRES_URL, 4, 29)  # 116 > max_connections 100
    assert warning is not None
    assert "4 processes of up to 29 connections may need 116" in warning
    assert "max_connections 100" in warning and "--db-connections" in warning
    assert connection_warning(POSTGRES_URL, 1, 4) is None


@pytest.mark.postgres
def test_a_store_never_holds_more_connections_than_its_budget() -> None:
    """Twelve threads append and read at once on a store of 5 connections (2 kept in the
    pool, 1 more at peaks, 1 for appends, 1 for the listener it does not start here): the
    database never sees more than 4 of its connections, and every append lands."""
    postgres_store().drop_all()  # skips without PostgreSQL
    import psycopg

    name = f"dh_budget_{uuid.uuid4().hex[:8]}"
    store = Store(
        f"{POSTGRES_URL}?application_name={name}",
        prefix=f"t{uuid.uuid4().hex[:10]}_",
        connections=5,
    )
    assert (store.budget.pool, store.budget.overflow, store.budget.raw) == (2, 1, 1)
    assert store.engine.pool.size() == 2  # type: ignore[attr-defined]
    games = [f"g{i}" for i in range(12)]
    for g in games:
        store.create_game(make_row(g))
    seen: list[int] = []
    done = threading.Event()

    def watch() -> None:
        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True
        ) as c:
            while not done.is_set():
                row = c.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (name,)
                ).fetchone()
                assert row is not None
                seen.append(int(row[0]))
                done.wait(0.005)

    def play(game_id: str) -> None:
        for seq in range(1, 21):
            store.append_actions(game_id, seq, [(-1, f"{seq}")], status="playing")
            store.get_game(game_id)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        workers = [threading.Thread(target=play, args=(g,)) for g in games]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
    finally:
        done.set()
        watcher.join()
    try:
        assert all(len(store.load_actions(g)) == 20 for g in games)
        assert seen and max(seen) <= 4, max(seen)
        assert max(seen) >= 2  # the appends and the pool were both in use at once
    finally:
        store.drop_all()
        store.engine.dispose()


@pytest.mark.postgres
def test_serve_warns_before_it_starts_more_processes_than_the_database_can_take() -> None:
    """``dicehall serve --workers 4`` at the default budget on a database of 100 connections:
    the warning is printed before any process starts (the command is stopped right there)."""
    postgres_store().drop_all()  # skips without PostgreSQL
    import os
    import signal
    import subprocess
    import sys

    from dicehall_server_fixtures import free_port

    cmd = [
        sys.executable, "-c", "from dicehall.cli.main import main; main()", "serve",
        "--db", POSTGRES_URL, "--workers", "4", "--port", str(free_port()),
        "--log-level", "warning",
    ]  # fmt: skip
    env = {**os.environ, "COLUMNS": "300"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, start_new_session=True, env=env)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(2)]
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(20)
    assert lines[0].startswith("dicehall: http://127.0.0.1:")
    assert lines[1].startswith("warning: 4 processes of up to 29 connections may need 116")
