"""Schema migrations: a database made by the first server (no migrations) upgrades in place."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from dicehall_server_fixtures import postgres_store

from dicehall.core.fairness import commitment, new_server_seed
from dicehall.server.service import GameService
from dicehall.server.storage import Store, hash_token

#: the newest schema revision
HEAD = "0005"


def legacy_schema(engine: sa.Engine, prefix: str) -> None:
    """The tables exactly as ``Store`` created them on main before migrations existed."""
    md = sa.MetaData()
    sa.Table(
        f"{prefix}games", md,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("result", sa.Text),
        sa.Column("rematch_of", sa.String(32)),
        sa.Column("rematch", sa.String(32)),
    )  # fmt: skip
    sa.Table(
        f"{prefix}seats", md,
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("spec", sa.String(40), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("player_seed", sa.String(64), nullable=False, default=""),
    )  # fmt: skip
    sa.Table(
        f"{prefix}actions", md,
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("actor", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )  # fmt: skip
    md.create_all(engine)
    seed, now = new_server_seed(), time.time()
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                f"INSERT INTO {prefix}games VALUES (:id, 'backgammon', :o, 'local', 'playing', "
                ":s, :c, :t, :t, NULL, NULL, NULL)"
            ),
            {"id": "old1", "o": json.dumps({"scoring": "single"}), "s": seed,
             "c": commitment(seed), "t": now},
        )  # fmt: skip
        for seat in (0, 1):
            conn.execute(
                sa.text(
                    f"INSERT INTO {prefix}seats "
                    "VALUES ('old1', :seat, 'human', 'human', :n, :h, '')"
                ),
                {"seat": seat, "n": f"p{seat}", "h": hash_token(f"t{seat}")},
            )


def check_upgrade(url: str, prefix: str) -> None:
    engine = sa.create_engine(url)
    legacy_schema(engine, prefix)
    engine.dispose()
    store = Store(url, prefix=prefix)  # upgrades in place
    try:
        assert store.revision() == HEAD
        columns = {c["name"] for c in sa.inspect(store.engine).get_columns(f"{prefix}seats")}
        assert "seeded" in columns
        service = GameService(store, bot_delay=0)
        live = service.get("old1")  # folded lazily; its first roll is made now
        assert [s.seeded for s in live.row.seats] == [True, True]
        assert live.log and live.log[0].actor == -1
        before = live.seq  # the opening roll (a re-roll after doubles adds entries)
        after = service.act("old1", [0, 1], live.state.legal_texts()[0], live.seq)
        assert after > before
        assert [a.seq for a in store.load_actions("old1")] == list(range(1, after + 1))
        game_id, _ = service.create("backgammon", opponent="friend", seed=None)
        assert store.get_game(game_id).seats[0].seeded is False
        service.close()
        again = Store(url, prefix=prefix)  # a second start finds nothing to do
        assert again.revision() == HEAD and again.get_game("old1").status == "playing"
        again.close()
    finally:
        store.drop_all()


def test_sqlite_database_of_the_previous_schema_upgrades(tmp_path: Path) -> None:
    check_upgrade(f"sqlite:///{tmp_path / 'old.sqlite3'}", "")


@pytest.mark.postgres
def test_postgres_database_of_the_previous_schema_upgrades() -> None:
    probe = postgres_store()  # skips without PostgreSQL
    prefix = probe.prefix
    url = probe.engine.url.render_as_string(hide_password=False)
    probe.drop_all()
    check_upgrade(url, prefix)


def test_a_new_database_gets_the_newest_schema(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'new.sqlite3'}")
    assert store.revision() == HEAD
    store.close()
