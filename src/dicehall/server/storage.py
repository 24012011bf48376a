"""Storage of games through SQLAlchemy: SQLite by default, PostgreSQL with ``--db``.

Three tables (names carry a prefix so tests can share one database):

- ``games``: one row per game (game name, options, mode, status, seeds, result);
- ``seats``: one row per seat (human or bot, name, hashed token, player seed);
- ``actions``: the append-only action log, primary key ``(game_id, seq)`` so two writers can
  never both append action number ``seq``; the loser gets ``ConflictError``. That key is the
  only ordering the log needs: on PostgreSQL writers run concurrently (no lock in the process),
  on SQLite (one writer at a time by design) a process-wide lock avoids "database is locked".

The schema is managed by Alembic (``dicehall/server/alembic``): opening a store upgrades the
database in place, and a database created before migrations existed is recognised and
upgraded too. On PostgreSQL every change to a game also sends ``NOTIFY`` on the store's
channel inside the same transaction, so other server processes hear about exactly the
committed changes (``Store.listen``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import select
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import orjson
import sqlalchemy as sa

from dicehall.core.errors import DicehallError

log = logging.getLogger("dicehall.server")
T = TypeVar("T")


#: the tables that the modules on a store (accounts.py, ratings.py) define; ``drop_all`` drops
#: them too
MODULE_TABLES = (
    *("accounts", "sessions", "ratings", "rating_changes"),
    *("clocks", "chat", "seeks", "presence"),
)


class ConflictError(DicehallError):
    """Another writer appended the same action number first."""


class NotFoundError(DicehallError, KeyError):
    """No game with that id."""

    def __str__(self) -> str:
        return str(self.args[0])


def default_url() -> str:
    """An SQLite file in the user's data directory."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("dicehall"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'dicehall.sqlite3'}"


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` and use psycopg 3 for them; a bare path
    means an SQLite file."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://") :]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a stolen database does not give away seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" or "bot"
    spec: str  # bot spec ("random", "bot:expert") or "human"
    name: str
    token_hash: str | None = None
    player_seed: str = ""
    seeded: bool = True  # False while a taken seat waits for its player seed
    account_id: str | None = None  # the account of a logged-in player (accounts.py)

    @property
    def claimed(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


@dataclass
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    mode: str  # "bot", "friend", "local"
    status: str  # "waiting", "playing", "finished"
    server_seed: str
    commitment: str
    created: float
    updated: float
    result: list[float] | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    seats: list[SeatRow] = field(default_factory=list)
    rated: bool = False  # a rated game changes its players' ratings (ratings.py)
    ended: str | None = None  # how it ended other than by the rules: "resign:SEAT"


@dataclass
class ActionRow:
    seq: int
    actor: int  # a seat, or -1 for dice (chance)
    text: str
    created: float


#: the most driver connections a PostgreSQL store appends on (as many appends at once; the
#: others wait for one, at most ``RAW_WAIT`` seconds); fewer in a smaller budget
#: (``ConnectionBudget``)
RAW_CONNECTIONS = 8
RAW_WAIT = 60.0
#: the PostgreSQL connections one store (one server process) opens at most by default: its
#: SQLAlchemy pool's 10 and 10 more at peaks, 8 for the appends and 1 that listens
DEFAULT_CONNECTIONS = 29
#: the fewest a store can work with: one listens, one appends, two in the pool
MIN_CONNECTIONS = 4


@dataclass(frozen=True)
class ConnectionBudget:
    """How a PostgreSQL store shares out its connections.

    The database refuses clients beyond its ``max_connections`` (100 by default), and every
    process of every host on it counts: four processes at the default 29 may need 116. So
    each process is given a total (``dicehall serve --db-connections``), split here between
    the SQLAlchemy pool (``pool`` kept open, ``overflow`` more at peaks), the driver
    connections of the appends (``raw``) and the one that listens."""

    pool: int
    overflow: int
    raw: int
    listen: int = 1

    @property
    def total(self) -> int:
        """The most connections the store holds at once."""
        return self.pool + self.overflow + self.raw + self.listen

    @classmethod
    def of(cls, total: int) -> ConnectionBudget:
        """Split ``total`` connections: about two sevenths of those besides the listener for
        the appends (at most ``RAW_CONNECTIONS``, at least one), the rest half kept open and
        half at peaks. The default, 29, gives the split the server always had (10 + 10 + 8 + 1).

        Raises ``ValueError`` when ``total`` is below ``MIN_CONNECTIONS``."""
        if isinstance(total, bool) or not isinstance(total, int) or total < MIN_CONNECTIONS:
            raise ValueError(
                f"a PostgreSQL store needs at least {MIN_CONNECTIONS} connections (one "
                f"listens, one appends, two for the rest), not {total!r}"
            )
        rest = total - 1
        raw = min(RAW_CONNECTIONS, max(1, rest * 2 // 7))
        rest -= raw
        return cls(pool=rest - rest // 2, overflow=rest // 2, raw=raw)


def connection_warning(url: str, processes: int, connections: int) -> str | None:
    """What an operator should hear before starting ``processes`` server processes of
    ``connections`` PostgreSQL connections each on the database at ``url``: a sentence when
    they may need more than the database has free (``max_connections``, less those reserved
    for superusers and those open now), else None (and always None for SQLite).

    Raises ``psycopg.Error`` when the database cannot be reached."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        return None
    import psycopg

    dsn = sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True, connect_timeout=10) as conn:
        row = conn.execute(
            "SELECT current_setting('max_connections')::int,"
            " current_setting('superuser_reserved_connections')::int,"
            " (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')"
        ).fetchone()
    assert row is not None
    most, reserved, open_now = (int(v) for v in row)
    need = processes * connections
    free = most - reserved - open_now
    if need <= free:
        return None
    return (
        f"{processes} process{'es' if processes > 1 else ''} of up to {connections} "
        f"connections may need {need}, but the database has {free} free (max_connections "
        f"{most}, {reserved} reserved, {open_now} open now): lower --db-connections or raise "
        "max_connections, or busy moments will see refused connections"
    )


class Store:
    """All database access of the server; thread-safe (one SQLAlchemy engine)."""

    def __init__(
        self, url: str | None = None, prefix: str = "", connections: int = DEFAULT_CONNECTIONS
    ) -> None:
        """Open (and upgrade, ``migrate``) the database at ``url``; table names start with
        ``prefix``. On PostgreSQL the store holds at most ``connections`` connections
        (``ConnectionBudget``; raises ``ValueError`` below ``MIN_CONNECTIONS``)."""
        self.url = normalise_url(url or default_url())
        #: how the PostgreSQL connections are shared out (unused by SQLite)
        self.budget = ConnectionBudget.of(connections)
        self.prefix = prefix
        #: the time source of the action log's timestamps (the clocks are derived from them);
        #: tests put a controllable clock here
        self.now: Callable[[], float] = time.time
        kwargs: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
            kwargs["pool_size"] = self.budget.pool
            kwargs["max_overflow"] = self.budget.overflow
        self.engine = sa.create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):

            @sa.event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL")
                cur.close()

        self.is_sqlite = self.url.startswith("sqlite")
        #: a unique name of this store object, so a process can skip its own notifications
        self.origin = hashlib.sha256(f"{id(self)} {time.time_ns()}".encode()).hexdigest()[:12]
        self.channel = f"dicehall_{prefix}events"[:63]
        # SQLite allows one writer at a time; serialising writes here avoids "database is
        # locked". PostgreSQL orders the log itself by its primary key: no lock.
        self._write_lock: Any = threading.Lock() if self.is_sqlite else contextlib.nullcontext()
        self._writer_conn: Any = None  #: the SQLite writer thread's connection (``_writer``)
        md = sa.MetaData()
        self.games = sa.Table(
            f"{prefix}games",
            md,
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
            sa.Column("rated", sa.Boolean, nullable=False, default=False),
            sa.Column("ended", sa.String(40)),
        )
        self.seats = sa.Table(
            f"{prefix}seats",
            md,
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("spec", sa.String(40), nullable=False),
            sa.Column("name", sa.String(40), nullable=False),
            sa.Column("token_hash", sa.String(64)),
            sa.Column("player_seed", sa.String(64), nullable=False, default=""),
            sa.Column("seeded", sa.Boolean, nullable=False, default=True),
            sa.Column("account_id", sa.String(32)),
        )
        self.actions = sa.Table(
            f"{prefix}actions",
            md,
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True),
            sa.Column("actor", sa.Integer, nullable=False),
            sa.Column("text", sa.Text, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
        self.metadata = md
        self._group = _GroupCommit(self._write_group)
        #: the driver's parameter mark (SQLite ``?``, psycopg ``%s``) and the SQL of the hot
        #: writes, by shape (``_write_append``)
        self._mark = "?" if self.is_sqlite else "%s"
        self._row5 = "(" + ", ".join([self._mark] * 5) + ")"
        self._sql: dict[Any, tuple[str, ...]] = {}
        #: PostgreSQL: idle driver connections of the appends (``_pg_append``)
        self._raw_idle: list[Any] = []
        self._raw_lock = threading.Lock()
        self._raw_slots = threading.BoundedSemaphore(self.budget.raw)
        self._raw_closed = False
        self.migrate()

    # -- schema ---------------------------------------------------------
    def migrate(self) -> None:
        """Bring the database to the newest schema (Alembic ``upgrade head``), in place.

        A database created before migrations existed has the tables but no version table:
        it is stamped with the first revision, which is exactly that schema, and upgraded.
        On PostgreSQL an advisory lock lets several processes start at once.
        """
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).with_name("alembic")))
        cfg.attributes["prefix"] = self.prefix
        with self.engine.begin() as conn:
            if not self.is_sqlite:
                key = int(hashlib.sha256(self.channel.encode()).hexdigest()[:15], 16)
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})
            cfg.attributes["connection"] = conn
            tables = set(sa.inspect(conn).get_table_names())
            if f"{self.prefix}games" in tables and f"{self.prefix}alembic_version" not in tables:
                command.stamp(cfg, "0001")
            command.upgrade(cfg, "head")

    def revision(self) -> str | None:
        """The schema revision the database is at (None before any migration)."""
        table = f"{self.prefix}alembic_version"
        with self.engine.connect() as conn:
            if table not in sa.inspect(conn).get_table_names():
                return None
            return conn.execute(sa.text(f"SELECT version_num FROM {table}")).scalar()

    def _notify(self, conn: Any, game_id: str, seq: int) -> None:
        """Tell the other processes (PostgreSQL only) that ``game_id`` changed, on commit."""
        if not self.is_sqlite:
            conn.execute(
                sa.text("SELECT pg_notify(:c, :p)"),
                {"c": self.channel, "p": f"{self.origin} {game_id} {seq}"},
            )

    def listen(
        self, callback: Callable[[str, int, Appended | None], None], stop: threading.Event
    ) -> None:
        """Call ``callback(game_id, seq, appended)`` for every change committed by another
        store on the same PostgreSQL database, until ``stop`` is set (run it in a thread of
        its own). ``seq`` is the game's log length after the change; ``appended``: the
        actions of an append (``Appended``), None for any other change (read the game
        again). On SQLite it returns at once.

        The notifications are taken from libpq itself (``pgconn.notifies`` once the socket is
        readable) rather than through psycopg's ``Connection.notifies`` generator, whose
        machinery per notification was most of this thread's time (6-10% of a worker's CPU
        under the load benchmark); the wait for the socket releases the interpreter lock."""
        if self.is_sqlite:
            return
        import selectors

        import psycopg

        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f'LISTEN "{self.channel}"')
                    pgconn = conn.pgconn
                    with selectors.DefaultSelector() as ready:
                        ready.register(pgconn.socket, selectors.EVENT_READ)
                        while not stop.is_set():
                            if not ready.select(timeout=0.5):
                                continue
                            pgconn.consume_input()  # OperationalError once the link broke
                            while (note := pgconn.notifies()) is not None:
                                self._heard(note.extra.decode(), callback)
            except psycopg.OperationalError:  # the database went away: try again
                stop.wait(1.0)

    async def listen_in_loop(self, callback: Callable[[str, int, Appended | None], None]) -> None:
        """``listen`` in the running event loop until cancelled: the loop watches the
        listening connection's socket and calls ``callback`` itself, so a change heard costs
        no thread hand-over (a listening thread woke, took the interpreter lock from the
        loop and woke the loop again for every notification, with two workers one for most
        actions). The connection is made (and ``LISTEN`` sent) in a thread; a broken one is
        made again a second later. On SQLite it returns at once."""
        if self.is_sqlite:
            return
        import psycopg

        loop = asyncio.get_running_loop()
        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

        def connect() -> Any:
            conn = psycopg.connect(dsn, autocommit=True, connect_timeout=10)
            try:
                conn.execute(f'LISTEN "{self.channel}"')
            except BaseException:
                conn.close()
                raise
            return conn

        while True:
            try:
                conn = await asyncio.to_thread(connect)
            except psycopg.OperationalError:  # the database went away: try again
                await asyncio.sleep(1.0)
                continue
            try:
                pgconn = conn.pgconn
                fd = pgconn.socket
                broken: asyncio.Future[None] = loop.create_future()

                def readable(pgconn: Any = pgconn, broken: asyncio.Future[None] = broken) -> None:
                    try:
                        pgconn.consume_input()  # OperationalError once the link broke
                    except Exception:
                        _pg_ready(broken)
                        return
                    while (note := pgconn.notifies()) is not None:
                        self._heard(note.extra.decode(), callback)

                loop.add_reader(fd, readable)
                try:
                    readable()  # what came with the answer to LISTEN
                    await broken
                finally:
                    loop.remove_reader(fd)
            finally:
                with contextlib.suppress(Exception):
                    conn.close()
            await asyncio.sleep(1.0)

    def _heard(self, payload: str, callback: Callable[[str, int, Appended | None], None]) -> None:
        """One notification's ``payload`` to ``callback`` (``listen``); this store's own are
        skipped, and a change whose handling fails is logged (it must not deafen the rest)."""
        origin, game_id, seq, *rest = payload.split(" ", 3)
        if origin == self.origin:
            return
        try:
            callback(game_id, int(seq), Appended.decode(rest))
        except Exception:
            log.exception("handling the change of game %s failed", game_id)

    def write(self, work: Callable[[Any], T]) -> T:
        """Run ``work(conn)`` in a write transaction and return its result.

        On SQLite every write goes through the one writer thread, which runs all the writes
        that wait in one transaction (group commit: one disk flush for all of them, where
        one transaction each took a flush each and a thousand tables starting at once
        queued for minutes). On PostgreSQL each write is a transaction of its own, run
        concurrently (the database orders them)."""
        if not self.is_sqlite:
            with self.engine.begin() as conn:
                return work(conn)
        job: _Job[T] = _Job(work)
        self._group.run(job)
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[return-value]

    # -- games ----------------------------------------------------------
    def create_game(self, row: GameRow) -> None:
        def work(conn: Any) -> None:
            conn.execute(
                self.games.insert().values(
                    id=row.id,
                    game=row.game,
                    options=json.dumps(row.options),
                    mode=row.mode,
                    status=row.status,
                    server_seed=row.server_seed,
                    commitment=row.commitment,
                    created=row.created,
                    updated=row.updated,
                    result=None,
                    rematch_of=row.rematch_of,
                    rematch=None,
                    rated=row.rated,
                )
            )
            for s in row.seats:
                conn.execute(
                    self.seats.insert().values(
                        game_id=row.id,
                        seat=s.seat,
                        kind=s.kind,
                        spec=s.spec,
                        name=s.name,
                        token_hash=s.token_hash,
                        player_seed=s.player_seed,
                        seeded=s.seeded,
                        account_id=s.account_id,
                    )
                )
            self._notify(conn, row.id, 0)

        return self.write(work)

    def _game_from(self, r: Any, seats: list[SeatRow]) -> GameRow:
        return GameRow(
            id=r.id,
            game=r.game,
            options=json.loads(r.options),
            mode=r.mode,
            status=r.status,
            server_seed=r.server_seed,
            commitment=r.commitment,
            created=r.created,
            updated=r.updated,
            result=json.loads(r.result) if r.result else None,
            rematch_of=r.rematch_of,
            rematch=r.rematch,
            seats=seats,
            rated=bool(r.rated),
            ended=r.ended,
        )

    def _seats_of(self, conn: Any, ids: list[str]) -> dict[str, list[SeatRow]]:
        out: dict[str, list[SeatRow]] = {i: [] for i in ids}
        if not ids:
            return out
        rows = conn.execute(
            sa.select(self.seats)
            .where(self.seats.c.game_id.in_(ids))
            .order_by(self.seats.c.game_id, self.seats.c.seat)
        )
        for s in rows:
            out[s.game_id].append(
                SeatRow(
                    s.seat,
                    s.kind,
                    s.spec,
                    s.name,
                    s.token_hash,
                    s.player_seed or "",
                    s.seeded,
                    s.account_id,
                )
            )
        return out

    def get_game(self, game_id: str) -> GameRow:
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(self.games).where(self.games.c.id == game_id)).first()
            if r is None:
                raise NotFoundError(f"no game with id {game_id!r}")
            return self._game_from(r, self._seats_of(conn, [game_id])[game_id])

    def list_games(self, status: str, limit: int = 50) -> list[GameRow]:
        """Games with ``status``, most recently updated first."""
        with self.engine.connect() as conn:
            rows = list(
                conn.execute(
                    sa.select(self.games)
                    .where(self.games.c.status == status)
                    .order_by(self.games.c.updated.desc())
                    .limit(limit)
                )
            )
            seats = self._seats_of(conn, [r.id for r in rows])
            return [self._game_from(r, seats[r.id]) for r in rows]

    def claim_seat(
        self,
        game_id: str,
        seat: int,
        name: str,
        token_hash: str,
        seed: str,
        *,
        seeded: bool = True,
        seq: int = 0,
        account_id: str | None = None,
    ) -> bool:
        """Give an open human seat its token; False if somebody claimed it first.
        ``seeded=False``: the player seed comes later (``set_seed``); ``account_id`` binds the
        seat to a logged-in player's account."""

        def work(conn: Any) -> bool:
            res = conn.execute(
                self.seats.update()
                .where(
                    self.seats.c.game_id == game_id,
                    self.seats.c.seat == seat,
                    self.seats.c.kind == "human",
                    self.seats.c.token_hash.is_(None),
                )
                .values(
                    name=name,
                    token_hash=token_hash,
                    player_seed=seed,
                    seeded=seeded,
                    account_id=account_id,
                )
            )
            conn.execute(
                self.games.update().where(self.games.c.id == game_id).values(updated=time.time())
            )
            self._notify(conn, game_id, seq)
            return bool(res.rowcount == 1)

        return self.write(work)

    def rebind_token(self, game_id: str, seat: int, account_id: str, token_hash: str) -> bool:
        """Give the seat bound to ``account_id`` a new token (its owner resumes from another
        browser; the old token stops working); False if the seat is not bound to it."""

        def work(conn: Any) -> bool:
            res = conn.execute(
                self.seats.update()
                .where(
                    self.seats.c.game_id == game_id,
                    self.seats.c.seat == seat,
                    self.seats.c.account_id == account_id,
                )
                .values(token_hash=token_hash)
            )
            self._notify(conn, game_id, -1)
            return bool(res.rowcount == 1)

        return self.write(work)

    def set_seed(self, game_id: str, seat: int, seed: str, *, seq: int = 0) -> bool:
        """Store the player seed of a taken seat that waits for it; False if it had one."""

        def work(conn: Any) -> bool:
            res = conn.execute(
                self.seats.update()
                .where(
                    self.seats.c.game_id == game_id,
                    self.seats.c.seat == seat,
                    self.seats.c.seeded.is_(False),
                )
                .values(player_seed=seed, seeded=True)
            )
            self._notify(conn, game_id, seq)
            return bool(res.rowcount == 1)

        return self.write(work)

    def set_status(self, game_id: str, status: str, *, seq: int = 0) -> None:
        def work(conn: Any) -> None:
            conn.execute(
                self.games.update()
                .where(self.games.c.id == game_id)
                .values(status=status, updated=time.time())
            )
            self._notify(conn, game_id, seq)

        return self.write(work)

    def finish(
        self,
        game_id: str,
        result: list[float],
        ended: str,
        *,
        seq: int = 0,
        status: str = "finished",
        if_seq: int | None = None,
    ) -> bool:
        """End a game in play other than by its rules (a resignation, a flag, an abort):
        ``status`` (``finished``, or ``abandoned`` for an abort) with ``result`` and the
        reason ``ended``; False if it was not in play any more. ``if_seq``: only if the log
        has no action after number ``if_seq`` (a flag must not beat a move that came in
        time through another process)."""
        cond = [self.games.c.id == game_id, self.games.c.status == "playing"]
        if if_seq is not None:
            a = self.actions.c
            cond.append(~sa.exists().where(a.game_id == game_id, a.seq > if_seq))

        def work(conn: Any) -> bool:
            res = conn.execute(
                self.games.update()
                .where(*cond)
                .values(status=status, result=json.dumps(result), ended=ended, updated=time.time())
            )
            self._notify(conn, game_id, seq)
            return bool(res.rowcount == 1)

        return self.write(work)

    def set_rematch(self, game_id: str, rematch_id: str, *, seq: int = 0) -> None:
        def work(conn: Any) -> None:
            conn.execute(
                self.games.update().where(self.games.c.id == game_id).values(rematch=rematch_id)
            )
            self._notify(conn, game_id, seq)

        return self.write(work)

    def expire(self, *, waiting_before: float, playing_before: float) -> list[str]:
        """Mark games abandoned: waiting ones last changed before ``waiting_before``, playing
        ones before ``playing_before`` (Unix times); returns their ids."""
        g = self.games.c
        cond = sa.or_(
            sa.and_(g.status == "waiting", g.updated < waiting_before),
            sa.and_(g.status == "playing", g.updated < playing_before),
        )

        def work(conn: Any) -> list[str]:
            ids = [r.id for r in conn.execute(sa.select(g.id).where(cond).limit(1000))]
            if ids:
                conn.execute(
                    self.games.update()
                    .where(g.id.in_(ids), cond)
                    .values(status="abandoned", updated=time.time())
                )
                for game_id in ids:
                    self._notify(conn, game_id, -1)
            return ids

        return self.write(work)

    # -- the action log -------------------------------------------------
    def append_actions(
        self,
        game_id: str,
        first_seq: int,
        actions: list[tuple[int, str]],
        *,
        status: str | None = None,
        result: list[float] | None = None,
        hints: Sequence[int] | None = None,
    ) -> None:
        """Append ``(actor, text)`` pairs as numbers ``first_seq``, ``first_seq + 1``, ... in one
        transaction (with the game's new status); ConflictError if a number is taken.
        ``hints``: each action's place in the legal actions where it was played (-1: not
        known), told to the other processes with the actions (``Appended.hints``).

        On SQLite, appends of many games that arrive together share one transaction (group
        commit: one disk flush for all of them); each caller returns once its own append is
        durable, or gets its own ConflictError."""
        request = _Append(game_id, first_seq, actions, status, result, self.now(), hints)
        if self.is_sqlite:
            # the writer thread is the only writer of the file; the rows go in as one
            # statement, which the log's key refuses whole (a number already in the log, or
            # taken earlier in the same batch): only that append fails, the batch goes on
            conflict = self.write(lambda conn: self._write_append(conn, request))
            if conflict is not None:
                raise conflict
            return
        conflict = self._pg_append(request)
        if conflict is not None:
            raise conflict

    def _pg_append(self, r: _Append) -> ConflictError | None:
        """The append ``r`` on PostgreSQL: its one statement (insert, update), then its
        notification (``_pg_execute``), on a connection of the driver's own in autocommit,
        outside SQLAlchemy's pool: the pool's
        check-out with its pre-ping, the ``BEGIN`` and the ``COMMIT`` were three round trips
        and about 5% of a worker's CPU at 500 games, for a statement that is atomic alone.
        A connection that fails (``OperationalError``: one broken while idle, after a restart
        of the database) is dropped with the idle ones, and the append tried once more on a
        fresh one. Had the first attempt been committed before its connection broke, the
        second finds its numbers taken and reports a conflict, which the service answers by
        reading the game back (the move is in the log then)."""
        import psycopg

        # at most ``budget.raw`` appends at once (each on its connection); the others wait
        if not self._raw_slots.acquire(timeout=RAW_WAIT):
            raise TimeoutError(f"no connection for an append in {RAW_WAIT:.0f} s")
        try:
            for attempt in range(2):
                conn = self._raw_take()
                try:
                    return self._pg_execute(conn, r)
                except psycopg.OperationalError:
                    conn.close()
                    self._raw_clear()
                    if attempt:
                        raise
                    continue
                except BaseException:
                    conn.close()
                    raise
                finally:
                    if not conn.closed:
                        self._raw_give(conn)
            raise AssertionError("unreachable")
        finally:
            self._raw_slots.release()

    def _raw_take(self) -> Any:
        """A driver connection (autocommit) for ``_pg_append``: an idle one, or a new one
        (the caller holds one of the ``budget.raw`` slots, so there are never more)."""
        with self._raw_lock:
            if self._raw_idle:
                return self._raw_idle.pop(0)  # the longest idle: its notification is done
        import psycopg

        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        return psycopg.connect(dsn, autocommit=True, connect_timeout=10)

    def _raw_give(self, conn: Any) -> None:
        with self._raw_lock:
            if not self._raw_closed:
                self._raw_idle.append(conn)
                return
        conn.close()

    def _raw_clear(self) -> None:
        """Close the idle driver connections (after one failed: the others may be dead)."""
        with self._raw_lock:
            idle, self._raw_idle = self._raw_idle, []
        for conn in idle:
            with contextlib.suppress(Exception):
                conn.close()

    def _write_append(self, conn: Any, r: _Append) -> ConflictError | None:
        """The SQLite append ``r`` in the transaction of ``conn`` (the writer thread's),
        through the driver's own cursor with SQL written once per shape: the hottest write of
        the server (one per action), where building SQLAlchemy expressions cost more than the
        database. Returns the conflict (nothing written) if an action number is taken.
        PostgreSQL appends go through ``_pg_append``."""
        sql, params, values = self._append_sql(r)
        cur = conn.connection.cursor()
        try:
            try:
                cur.execute(sql[0], params)
            except conn.dialect.dbapi.IntegrityError:
                return r.conflict()
            cur.execute(sql[1], values)
        finally:
            cur.close()
        return None

    def _append_sql(self, r: _Append) -> tuple[tuple[str, ...], list[Any], list[Any]]:
        """The SQLite SQL of the append ``r`` (written once per shape: how many actions,
        whether the status and the result change) and its parameters: the rows', then the
        update's (PostgreSQL: ``_pg_statement``)."""
        n = len(r.actions)
        params: list[Any] = []
        for i, (actor, text) in enumerate(r.actions):
            params += (r.game_id, r.first_seq + i, actor, text, r.now)
        values: list[Any] = [r.now]
        if r.status is not None:
            values.append(r.status)
        if r.result is not None:
            values.append(json.dumps(r.result))
        values.append(r.game_id)
        shape = ("append", n, r.status is not None, r.result is not None)
        sql = self._sql.get(shape)
        if sql is None:
            rows = ", ".join([self._row5] * n)
            insert = (
                f'INSERT INTO "{self.prefix}actions" (game_id, seq, actor, "text", created) '
                f"VALUES {rows}"
            )
            sets = ["updated = {0}"]
            if r.status is not None:
                sets.append("status = {0}")
            if r.result is not None:
                sets.append("result = {0}")
            update = (f'UPDATE "{self.prefix}games" SET {", ".join(sets)} WHERE id = {{0}}').format(
                self._mark
            )
            sql = self._sql[shape] = (insert, update)
        return sql, params, values

    def _pg_statement(self, r: _Append) -> tuple[bytes, bytes]:
        """The name and SQL of the prepared PostgreSQL append of ``r``'s shape (how many
        actions, whether the status and the result change): the insert and the update in
        one statement (a statement's data-modifying ``WITH`` part always runs, and a taken
        number fails the whole of it), its parameters numbered and typed (they go as text)."""
        n = len(r.actions)
        shape = ("pg", n, r.status is not None, r.result is not None)
        found = self._sql.get(shape)
        if found is None:
            rows = ", ".join(
                f"(${5 * i + 1}::text, ${5 * i + 2}::int4, ${5 * i + 3}::int4, "
                f"${5 * i + 4}::text, ${5 * i + 5}::float8)"
                for i in range(n)
            )
            k = 5 * n + 1
            sets = [f"updated = ${k}::float8"]
            if r.status is not None:
                k += 1
                sets.append(f"status = ${k}::text")
            if r.result is not None:
                k += 1
                sets.append(f"result = ${k}::text")
            sql = (
                f'WITH ins AS (INSERT INTO "{self.prefix}actions" '
                f'(game_id, seq, actor, "text", created) VALUES {rows} RETURNING 1) '
                f'UPDATE "{self.prefix}games" SET {", ".join(sets)} WHERE id = ${k + 1}::text'
            )
            name = f"dicehall_append_{n}_{int(r.status is not None)}{int(r.result is not None)}"
            found = self._sql[shape] = (name, sql)
        return found[0].encode(), found[1].encode()

    def _pg_execute(self, conn: Any, r: _Append) -> ConflictError | None:
        """Run the PostgreSQL append ``r`` on the driver connection ``conn`` (autocommit),
        then send its notification; the conflict if an action number is taken.

        Both are prepared statements run on libpq itself (``pgconn.exec_prepared``, which
        lets go of the interpreter lock while it waits), not through a psycopg cursor:
        the cursor's Python machinery (adapting the parameters, its prepared-statement
        cache, reading the result) was about a tenth of a worker's time under the load
        benchmark, the database's work a small part of it. The notification's result is
        not waited for: it is read when the connection is next used (``_pg_drain``), so
        the act goes on without a second round trip (two thread switches an action).
        ``psycopg.OperationalError`` when the connection is broken before the append was
        sent (the caller retries on a fresh one)."""
        from psycopg import pq

        pgconn = conn.pgconn
        prepared: set[bytes] = conn.__dict__.setdefault("_dicehall_prepared", set())
        _pg_drain(conn)  # the previous append's notification

        def prepare(name: bytes, sql: bytes) -> None:
            if name not in prepared:
                res = pgconn.prepare(name, sql)
                if res.status != pq.ExecStatus.COMMAND_OK:
                    _pg_raise(pgconn, res)
                prepared.add(name)

        def run(name: bytes, sql: bytes, params: list[bytes | None]) -> Any:
            prepare(name, sql)
            return pgconn.exec_prepared(name, params)

        name, sql = self._pg_statement(r)
        res = run(name, sql, _pg_params(r))
        if res.status != pq.ExecStatus.COMMAND_OK:
            sqlstate = res.error_field(pq.DiagnosticField.SQLSTATE) or b""
            if sqlstate.startswith(b"23"):  # an integrity violation: the number is taken
                return r.conflict()
            _pg_raise(pgconn, res)
        payload = self._pg_payload(r)
        # The notification in a transaction of its own, committed without waiting for the
        # disk. PostgreSQL takes one lock of the whole database for every transaction that
        # notifies, from before its commit until after it, so appends that notified in
        # their own transaction waited for each other's disk flush, one after another: at
        # 500 games, up to 19 of the 38 connections were waiting on that lock
        # ("Lock:object"), and acknowledgements took up to 2.5 s. The append above is
        # durable already (its own commit, synchronous_commit as configured); this one
        # holds nothing but the notification, and a database crash loses every listener's
        # connection anyway, after which they read the log again.
        # (a failure is not the append's: the move is in the log, and the other processes
        # read it when touched; a broken connection is dropped by the caller, not retried)
        # A notification still on its way when this game's next append commits on another
        # connection may arrive after that one's: the listener then finds a gap and reads
        # the log (``GameService._apply_appended``), and skips the late one.
        try:
            prepare(_PG_NOTIFY, _PG_NOTIFY_SQL)
            pgconn.send_query_prepared(_PG_NOTIFY, [self.channel.encode(), payload])
            conn.__dict__["_dicehall_pending"] = r.game_id
        except Exception:
            log.warning("notifying game %s failed", r.game_id, exc_info=True)
        return None

    def _pg_payload(self, r: _Append) -> bytes:
        """The notification of the append ``r``: this store's origin, the game, its last
        number, and the actions themselves, so the other processes apply them without
        reading the log back (a NOTIFY payload holds 8000 bytes: longer ones are read)."""
        n = len(r.actions)
        payload = f"{self.origin} {r.game_id} {r.first_seq + n - 1}".encode()
        told: list[Any] = [r.first_seq, r.status, r.actions]
        if r.hints is not None and any(h >= 0 for h in r.hints):
            told.append(list(r.hints))
        body = orjson.dumps(told)
        if len(payload) + len(body) < 7900:
            payload += b" " + body
        return payload

    # -- the append awaited in the event loop (PostgreSQL) -----------------
    @property
    def appends_in_loop(self) -> bool:
        """Whether ``append_in_loop`` can be tried (PostgreSQL: libpq's non-blocking
        interface; SQLite: the writer thread, awaited)."""
        return True

    async def _sqlite_append_in_loop(self, r: _Append) -> bool:
        """``append_in_loop`` on SQLite: the append handed to the writer thread (group
        commit, as ``append_actions``), which wakes the loop once it is durable: no act
        thread waits for it."""
        loop = asyncio.get_running_loop()
        written: asyncio.Future[None] = loop.create_future()

        def then() -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
                loop.call_soon_threadsafe(_pg_ready, written)

        job: _Job[ConflictError | None] = _Job(lambda conn: self._write_append(conn, r), then=then)
        self._group.submit(job)
        await written
        if job.error is not None:
            log.warning("an append from the event loop failed: %s", job.error)
            return False  # the caller's thread tries again, and reports what fails
        if job.result is not None:
            raise job.result
        return True

    async def append_in_loop(
        self,
        game_id: str,
        first_seq: int,
        actions: list[tuple[int, str]],
        *,
        status: str | None = None,
        result: list[float] | None = None,
        hints: Sequence[int] | None = None,
    ) -> bool:
        """``append_actions`` awaited in the running event loop, on an idle driver connection
        put in libpq's non-blocking mode, the loop watching its socket: no thread, no
        hand-over of the interpreter lock, no wake-up of the loop from another thread (a
        thread's act cost about 20 context switches an action with 2 workers at 500 games,
        a third of their CPU). True once the append is committed (its notification sent,
        its result read when the connection is next used, as in ``_pg_execute``);
        ConflictError if a number is taken; False when it was not done: no idle connection
        or slot (a new connection is made in a thread), or the connection failed, in which
        case it is closed with the idle ones and the caller appends through
        ``append_actions`` (whose retry finds the numbers taken if this one was committed
        before its connection broke: a conflict, answered by reading the game back).
        On SQLite the append goes to the writer thread, awaited (``_sqlite_append_in_loop``;
        False if the write failed)."""
        if self.is_sqlite:
            request = _Append(game_id, first_seq, actions, status, result, self.now(), hints)
            return await self._sqlite_append_in_loop(request)
        if not self._raw_slots.acquire(blocking=False):
            return False
        try:
            with self._raw_lock:
                conn = self._raw_idle.pop(0) if self._raw_idle and not self._raw_closed else None
            if conn is None:
                return False
            r = _Append(game_id, first_seq, actions, status, result, self.now(), hints)
            try:
                conflict = await self._pg_execute_in_loop(conn, r)
            except BaseException as exc:
                conn.close()
                self._raw_clear()
                if not isinstance(exc, Exception):
                    raise  # cancelled: the caller's state is put back, the log is the truth
                log.warning("an append in the event loop failed: %s", exc)
                return False
            self._raw_give(conn)
            if conflict is not None:
                raise conflict
            return True
        finally:
            self._raw_slots.release()

    async def _pg_execute_in_loop(self, conn: Any, r: _Append) -> ConflictError | None:
        """``_pg_execute`` on libpq's non-blocking interface, awaited in the event loop."""
        from psycopg import pq

        pgconn = conn.pgconn
        prepared: set[bytes] = conn.__dict__.setdefault("_dicehall_prepared", set())
        pgconn.nonblocking = 1
        try:
            pending = conn.__dict__.pop("_dicehall_pending", None)
            if pending is not None:  # the previous append's notification
                for res in await _pg_results(pgconn):
                    if res.status != pq.ExecStatus.TUPLES_OK:
                        message = (res.error_message or b"").decode(errors="replace")
                        log.warning("notifying game %s failed: %s", pending, message.strip())

            async def run(name: bytes, sql: bytes, params: list[bytes | None]) -> Any:
                if name not in prepared:
                    pgconn.send_prepare(name, sql)
                    res = (await _pg_results(pgconn))[-1]
                    if res.status != pq.ExecStatus.COMMAND_OK:
                        _pg_raise(pgconn, res)
                    prepared.add(name)
                pgconn.send_query_prepared(name, params)
                return (await _pg_results(pgconn))[-1]

            name, sql = self._pg_statement(r)
            res = await run(name, sql, _pg_params(r))
            if res.status != pq.ExecStatus.COMMAND_OK:
                sqlstate = res.error_field(pq.DiagnosticField.SQLSTATE) or b""
                if sqlstate.startswith(b"23"):  # an integrity violation: the number is taken
                    return r.conflict()
                _pg_raise(pgconn, res)
            # the notification as in ``_pg_execute``: its result is read by the next user
            try:
                if _PG_NOTIFY not in prepared:
                    pgconn.send_prepare(_PG_NOTIFY, _PG_NOTIFY_SQL)
                    res = (await _pg_results(pgconn))[-1]
                    if res.status != pq.ExecStatus.COMMAND_OK:
                        _pg_raise(pgconn, res)
                    prepared.add(_PG_NOTIFY)
                pgconn.send_query_prepared(_PG_NOTIFY, [self.channel.encode(), self._pg_payload(r)])
                await _pg_flush(pgconn)
                conn.__dict__["_dicehall_pending"] = r.game_id
            except Exception:
                log.warning("notifying game %s failed", r.game_id, exc_info=True)
                raise  # the connection is in an unknown state: the caller drops it
            return None
        finally:
            if not pgconn.status:  # 0: CONNECTION_OK
                pgconn.nonblocking = 0

    def _write_group(self, batch: list[_Job[Any]]) -> None:
        """Run ``batch`` in one SQLite transaction (the writer thread). If that transaction
        fails, each job runs again alone, so only the one at fault fails."""
        try:
            with self._write_lock:
                conn = self._writer()
                with conn.begin():
                    for job in batch:
                        job.result = job.work(conn)
            return
        except Exception:
            self._drop_writer()  # a fresh connection for what follows
            if len(batch) == 1:
                raise
        for job in batch:
            try:
                with self._write_lock:
                    conn = self._writer()
                    with conn.begin():
                        job.result = job.work(conn)
            except Exception as exc:
                self._drop_writer()
                job.error = exc

    def _writer(self) -> Any:
        """The writer thread's own connection, kept open between transactions (taking one
        from the pool and giving it back, with the pool's rollback, cost more CPU than the
        transaction's two statements). Caller holds ``_write_lock``."""
        if self._writer_conn is None:
            self._writer_conn = self.engine.connect()
        return self._writer_conn

    def _drop_writer(self) -> None:
        with self._write_lock:
            conn, self._writer_conn = self._writer_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def load_actions(self, game_id: str, after: int = 0) -> list[ActionRow]:
        """The log of ``game_id`` in order, from action ``after + 1`` on."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(self.actions)
                .where(self.actions.c.game_id == game_id, self.actions.c.seq > after)
                .order_by(self.actions.c.seq)
            )
            return [ActionRow(r.seq, r.actor, r.text, r.created) for r in rows]

    def drop_all(self) -> None:
        """Remove this store's tables, and those of the modules on it (tests clean up)."""
        self._drop_writer()
        self._raw_clear()  # the appends' connections go with the tables
        self.metadata.drop_all(self.engine)
        with self.engine.begin() as conn:
            for name in MODULE_TABLES:
                conn.execute(sa.text(f'DROP TABLE IF EXISTS "{self.prefix}{name}"'))
        with self.engine.begin() as conn:
            conn.execute(sa.text(f"DROP TABLE IF EXISTS {self.prefix}alembic_version"))
        self.engine.dispose()

    def close(self) -> None:
        self._drop_writer()
        with self._raw_lock:
            self._raw_closed = True
        self._raw_clear()
        self.engine.dispose()


_PG_NOTIFY = b"dicehall_notify"
_PG_NOTIFY_SQL = (
    b"SELECT set_config('synchronous_commit', 'off', true), pg_notify($1::text, $2::text)"
)


def _pg_drain(conn: Any, timeout: float = 60.0) -> None:
    """Read the result of the notification ``Store._pg_execute`` sent on ``conn`` without
    waiting for it, if there is one: waiting for the socket in ``select`` (which lets go of
    the interpreter lock; libpq's blocking read does not). A failed notification is
    logged (the move is in the log); ``psycopg.OperationalError`` if the connection broke."""
    game_id = conn.__dict__.pop("_dicehall_pending", None)
    if game_id is None:
        return
    import psycopg
    from psycopg import pq

    pgconn = conn.pgconn
    deadline = time.monotonic() + timeout
    while True:
        pgconn.consume_input()  # OperationalError once the link broke
        if not pgconn.is_busy():
            res = pgconn.get_result()
            if res is None:
                return
            if res.status != pq.ExecStatus.TUPLES_OK:
                if pgconn.status != pq.ConnStatus.OK:
                    raise psycopg.OperationalError("the connection broke")
                message = (res.error_message or b"").decode(errors="replace")
                log.warning("notifying game %s failed: %s", game_id, message.strip())
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            raise psycopg.OperationalError("no answer to a notification")
        select.select([pgconn.socket], [], [], min(left, 1.0))


def _pg_params(r: _Append) -> list[bytes | None]:
    """The parameters of the prepared PostgreSQL append ``r`` (``Store._pg_statement``),
    as text."""
    now = repr(r.now).encode()
    gid = r.game_id.encode()
    params: list[bytes | None] = []
    for i, (actor, text) in enumerate(r.actions):
        params += (gid, str(r.first_seq + i).encode(), str(actor).encode(), text.encode(), now)
    params.append(now)
    if r.status is not None:
        params.append(r.status.encode())
    if r.result is not None:
        params.append(json.dumps(r.result).encode())
    params.append(gid)
    return params


async def _pg_socket(pgconn: Any, writing: bool) -> None:
    """Wait in the running event loop until the socket of ``pgconn`` can be read (or written,
    ``writing``)."""
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    fd = pgconn.socket
    add, remove = (
        (loop.add_writer, loop.remove_writer) if writing else (loop.add_reader, loop.remove_reader)
    )
    add(fd, _pg_ready, ready)
    try:
        await ready
    finally:
        remove(fd)


def _pg_ready(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


async def _pg_flush(pgconn: Any) -> None:
    """Send what libpq holds of the queries sent on ``pgconn`` (non-blocking mode)."""
    while pgconn.flush():  # 1: more to send
        await _pg_socket(pgconn, writing=True)


async def _pg_results(pgconn: Any) -> list[Any]:
    """The results of the query sent on ``pgconn`` (non-blocking mode), awaited in the event
    loop; ``psycopg.OperationalError`` if the connection broke."""
    import psycopg

    await _pg_flush(pgconn)
    results: list[Any] = []
    while True:
        pgconn.consume_input()  # OperationalError once the link broke
        while pgconn.is_busy():
            await _pg_socket(pgconn, writing=False)
            pgconn.consume_input()
        res = pgconn.get_result()
        if res is None:
            if not results:
                raise psycopg.OperationalError("no result from the database")
            return results
        results.append(res)


def _pg_raise(pgconn: Any, res: Any) -> None:
    """Raise the psycopg error of the failed libpq result ``res`` (an ``OperationalError``
    when the connection itself is broken)."""
    import psycopg
    from psycopg import pq

    message = (res.error_message or pgconn.error_message or b"").decode(errors="replace")
    if pgconn.status != pq.ConnStatus.OK:
        raise psycopg.OperationalError(message or "the connection is broken")
    sqlstate = res.error_field(pq.DiagnosticField.SQLSTATE)
    cls = psycopg.errors.lookup(sqlstate.decode()) if sqlstate else psycopg.DatabaseError
    raise cls(message)


@dataclass(frozen=True)
class Appended:
    """What another process appended to a game's log, from its notification: actions
    ``(actor, text)`` numbered from ``first``, and the game's new status (or None)."""

    first: int
    status: str | None
    actions: tuple[tuple[int, str], ...]
    #: each action's place in the legal actions of its position (-1: not known), as the
    #: writer found it; empty: none known. The listener takes an action by its place when the
    #: text there is the same (``views.listed_action``), instead of parsing the text
    hints: tuple[int, ...] = ()

    @property
    def last(self) -> int:
        return self.first + len(self.actions) - 1

    @staticmethod
    def decode(rest: list[str]) -> Appended | None:
        """The append in the rest of a notification's payload; None if it has none (or
        one this version cannot read: the listener reads the game again then)."""
        if not rest:
            return None
        try:
            first, status, actions, *more = orjson.loads(rest[0])
            told = tuple((int(a), str(t)) for a, t in actions)
            hints = tuple(int(h) for h in more[0]) if more else ()
            return Appended(
                int(first),
                status if isinstance(status, str) else None,
                told,
                hints if len(hints) == len(told) else (),
            )
        except (ValueError, TypeError):  # orjson.JSONDecodeError is a ValueError
            return None


@dataclass
class _Append:
    """One append to the log (what ``ConflictError`` names)."""

    game_id: str
    first_seq: int
    actions: list[tuple[int, str]]
    status: str | None
    result: list[float] | None
    now: float
    hints: Sequence[int] | None = None

    def conflict(self) -> ConflictError:
        return ConflictError(
            f"action {self.first_seq} of game {self.game_id} was already written by another writer"
        )


@dataclass
class _Job(Generic[T]):
    """One caller's write, waiting in the group committer: ``work(conn)`` gives ``result``."""

    work: Callable[[Any], T]
    result: T | None = None
    error: Exception | None = None
    done: threading.Event = field(default_factory=threading.Event)
    #: called by the writer thread once the write is durable or failed (after ``done``)
    then: Callable[[], None] | None = None


class _GroupCommit:
    """One writer thread for SQLite: it takes every write that waits and runs them in one
    transaction, so under load one flush serves many games; alone, a write waits for
    nothing but the hand-over to the thread."""

    def __init__(self, write: Callable[[list[_Job[Any]]], None], max_batch: int = 256) -> None:
        self.write = write
        self.max_batch = max_batch
        self._pending: list[_Job[Any]] = []
        self._cv = threading.Condition()
        self._thread: threading.Thread | None = None

    def run(self, request: _Job[Any]) -> None:
        """Write ``request`` (maybe with others); returns when it is durable or failed."""
        self.submit(request)
        request.done.wait()

    def submit(self, request: _Job[Any]) -> None:
        """Hand ``request`` to the writer thread (``request.then`` tells when it is done)."""
        with self._cv:
            self._pending.append(request)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="dicehall-sqlite-writer", daemon=True
                )
                self._thread.start()
            self._cv.notify()

    def _loop(self) -> None:
        while True:
            with self._cv:
                while not self._pending:
                    self._cv.wait()
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
            try:
                self.write(batch)
            except Exception as exc:  # the whole transaction failed: every write in it did
                for r in batch:
                    r.error = r.error or exc
            for r in batch:
                r.done.set()
                if r.then is not None:
                    try:
                        r.then()
                    except Exception:
                        log.exception("telling a write's caller failed")
