"""Who is at the table: players online or gone, and what the others may do when one leaves.

A seat is *online* while a WebSocket holding its token is connected to a server process.
Every process writes it down (``presence`` table: ``last_seen``, refreshed every
``HEARTBEAT`` seconds while connected, and ``left_at`` when its last connection closed), so
all processes on one database agree, and the time a player has been gone survives a restart.
A seat whose process stopped writing for ``STALE`` seconds (the process died) counts as gone
since its last heartbeat. When a seat's last connection closes, the other players are told at
once (an ``update``, whose ``presence`` says how long the seat has been gone; other processes
hear it through the store's notification, ``PRESENCE_SEQ``). A seat never seen connected is
neither online nor gone (``None``): the browser mentions it only once the grace period is over
(it counts from when a process first looked at the seat).

After ``grace`` seconds gone, the players still there may

- **claim the win**: the game ends, every gone seat loses (-1), the claimants win (+1);
  ``ended`` is ``abandon:SEAT``; a rated game is rated (as lichess does);
- **abort**: the game ends for nobody (status ``abandoned``, ``ended`` ``aborted``, not
  rated).

Bots never leave; a local game (one person, every seat) has nobody to claim against. A timed
game needs no claim: the gone player's clock runs out (``dicehall.server.clocks``).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from dicehall.server.error_messages import N_
from dicehall.server.service import GameService, LiveGame, ServiceError
from dicehall.server.storage import Store

GRACE = 60.0  #: seconds a player may be gone before the others may claim or abort
HEARTBEAT = 5.0  #: seconds between a process's "still connected" writes
STALE = 3 * HEARTBEAT  #: a seat not written for this long is gone (its process stopped)
#: seconds a process trusts what it read of the other processes' seats: joins and leaves are
#: notified (``refresh``), and a seat connected elsewhere is read again once its last
#: heartbeat read is ``STALE`` old (its process may have died); with 2 s the read was a tenth
#: of each worker's time under the two-process load benchmark (the opponent of most seats is
#: connected to the other process)
CACHE = 10.0
#: seats written by one statement of the heartbeat (SQLite takes at most 32,766 parameters)
HEARTBEAT_CHUNK = 1000
#: the ``seq`` of a store notification that says "a seat of this game came or went"
PRESENCE_SEQ = -3


class Presence:
    """Online seats per game, gone-since times, claims; hooked into the service as a
    decorator (``presence`` in every snapshot and update)."""

    def __init__(
        self,
        store: Store,
        service: GameService,
        *,
        grace: float = GRACE,
        now: Callable[[], float] | None = None,
    ) -> None:
        self.store = store
        self.service = service
        self.grace = grace
        self.now = now or store.now
        self._lock = threading.Lock()
        #: this process's connections per game and seat
        self._online: dict[str, Counter[int]] = {}
        #: when a process first looked at a seat never seen connected
        self._first: dict[tuple[str, int], float] = {}
        #: the table's rows of a game ``{seat: (last_seen, left_at)}``, with when they were read
        self._rows: dict[str, tuple[float, dict[int, tuple[float, float | None]]]] = {}
        #: how many changes of each game's presence were heard (``refresh``): a read that
        #: began before one keeps nothing
        self._gen: dict[str, int] = {}
        md = sa.MetaData()
        self.table = sa.Table(
            f"{store.prefix}presence",
            md,
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("last_seen", sa.Float, nullable=False),
            sa.Column("left_at", sa.Float),
        )
        t = self.table.c
        #: the heartbeat's statement: every (game, seat) of a chunk in one ``UPDATE``
        self._beat = (
            self.table.update()
            .where(sa.tuple_(t.game_id, t.seat).in_(sa.bindparam("seats", expanding=True)))
            .values(last_seen=sa.bindparam("now"), left_at=None)
        )
        #: the rows of many games (the heartbeat's read, ``_read_all``)
        self._games_seats = sa.select(t.game_id, t.seat, t.last_seen, t.left_at).where(
            t.game_id.in_(sa.bindparam("games", expanding=True))
        )
        #: a game's rows, built once (the expression was rebuilt at every read)
        self._seats = sa.select(t.seat, t.last_seen, t.left_at).where(
            t.game_id == sa.bindparam("game_id")
        )
        service.decorators.append(self.decorate)
        service.loop_quiet.append(self.known)

    # -- connections -------------------------------------------------------------
    def joined(self, game_id: str, seats: Sequence[int]) -> None:
        """A connection holding ``seats`` entered the game's room (a worker thread)."""
        if not seats:
            return
        with self._lock:
            count = self._online.setdefault(game_id, Counter())
            for seat in seats:
                count[seat] += 1
        self._write(game_id, list(seats), left=False)

    def left(self, game_id: str, seats: Sequence[int]) -> list[int]:
        """A connection holding ``seats`` left the game's room; returns the seats that have
        no connection here any more (memory only: ``record_left`` writes them down)."""
        out: list[int] = []
        with self._lock:
            count = self._online.get(game_id)
            if count is None:
                return out
            for seat in seats:
                count[seat] -= 1
                if count[seat] <= 0:
                    del count[seat]
                    out.append(seat)
            if not count:
                del self._online[game_id]
        return out

    def record_left(self, game_id: str, seats: Sequence[int]) -> None:
        """Write down that ``seats`` left (a worker thread) and tell the other processes."""
        with self._lock:
            here = self._online.get(game_id, Counter())
            seats = [s for s in seats if here[s] <= 0]  # back already: nothing to write
        if seats:
            self._write(game_id, seats, left=True)

    def heartbeat(self) -> int:
        """Write "still connected" for every seat connected here (the server calls it every
        ``HEARTBEAT`` seconds); returns how many seats."""
        with self._lock:
            seats = [(g, s) for g, count in self._online.items() for s in count]
        if not seats:
            return 0
        now = self.now()
        with self.store._write_lock, self.store.engine.begin() as conn:
            # one statement per chunk of seats, not one per seat: at 500 games on two workers
            # the heartbeat's ~500 updates (each an expression built, compiled from the cache
            # and sent) were a tenth of a worker's CPU
            for i in range(0, len(seats), HEARTBEAT_CHUNK):
                conn.execute(self._beat, {"now": now, "seats": seats[i : i + HEARTBEAT_CHUNK]})
        self._read_all(sorted({g for g, _ in seats}))
        return len(seats)

    def _read_all(self, games: list[str]) -> None:
        """Read the rows of ``games`` (those with a seat connected here) in one query per
        chunk, for ``_read`` to find: with two workers most players' opponents are connected
        to the other process, and each of their games was read on its own every ``CACHE``
        seconds (4% of a worker's CPU at 500 games). A read between two heartbeats is no
        older than ``HEARTBEAT``, well within ``STALE``, so it stays good until the next."""
        stamp = time.monotonic()
        with self._lock:
            gens = {g: self._gen.get(g, 0) for g in games}
        found: dict[str, dict[int, tuple[float, float | None]]] = {g: {} for g in games}
        with self.store.engine.connect() as conn:
            for i in range(0, len(games), HEARTBEAT_CHUNK):
                chunk = games[i : i + HEARTBEAT_CHUNK]
                for game_id, seat, last_seen, left_at in conn.execute(
                    self._games_seats, {"games": chunk}
                ):
                    found[game_id][seat] = (last_seen, left_at)
        with self._lock:
            if len(self._rows) > 10_000:
                self._rows.clear()
            for game_id, rows in found.items():
                if self._gen.get(game_id, 0) == gens[game_id]:  # no change heard meanwhile
                    self._rows[game_id] = (stamp, rows)

    def _write(self, game_id: str, seats: list[int], *, left: bool) -> None:
        now = self.now()
        t = self.table.c
        values = {"left_at": now} if left else {"last_seen": now, "left_at": None}
        for attempt in range(2):
            try:
                with self.store._write_lock, self.store.engine.begin() as conn:
                    for seat in seats:
                        done = conn.execute(
                            self.table.update()
                            .where(t.game_id == game_id, t.seat == seat)
                            .values(**values)
                        ).rowcount
                        if not done:
                            conn.execute(
                                self.table.insert().values(
                                    game_id=game_id,
                                    seat=seat,
                                    last_seen=now,
                                    left_at=now if left else None,
                                )
                            )
                    self.store._notify(conn, game_id, PRESENCE_SEQ)
                break
            except IntegrityError:  # another process inserted the row first: update it
                if attempt:
                    raise
        self.refresh(game_id)

    def refresh(self, game_id: str) -> None:
        """Forget what was read of ``game_id`` (another process changed its presence)."""
        with self._lock:
            self._rows.pop(game_id, None)
            # a read under way when this was heard must not put back what it read
            if len(self._gen) > 100_000:
                self._gen.clear()
            self._gen[game_id] = self._gen.get(game_id, 0) + 1

    def _read(self, game_id: str) -> dict[int, tuple[float, float | None]]:
        stamp = time.monotonic()
        with self._lock:
            cached = self._rows.get(game_id)
            gen = self._gen.get(game_id, 0)
        if cached is not None and stamp - cached[0] < CACHE:
            now = self.now()
            if all(
                (left is not None and left >= seen) or now - seen <= STALE
                for seen, left in cached[1].values()
            ):
                return cached[1]
        with self.store.engine.connect() as conn:
            rows = {
                seat: (last_seen, left_at)
                for seat, last_seen, left_at in conn.execute(self._seats, {"game_id": game_id})
            }
        with self._lock:
            if len(self._rows) > 10_000:
                self._rows.clear()
            if self._gen.get(game_id, 0) == gen:
                self._rows[game_id] = (stamp, rows)
        return rows

    def known(self, live: LiveGame) -> bool:
        """Whether ``decorate`` finds what it shows of ``live`` here, reading nothing from
        the database (``GameService.act_in_loop``): every human seat connected here, or
        the others' rows read recently enough (``_read``'s cache)."""
        with self._lock:
            here = self._online.get(live.id, Counter())
            away = live.row.status == "playing" and any(
                s.kind != "bot" and here[s.seat] <= 0 for s in live.row.seats
            )
            if not away:
                return True
            cached = self._rows.get(live.id)
        if cached is None or time.monotonic() - cached[0] >= CACHE:
            return False
        now = self.now()
        return all(
            (left is not None and left >= seen) or now - seen <= STALE
            for seen, left in cached[1].values()
        )

    # -- state -------------------------------------------------------------------
    def status(self, live: LiveGame, now: float) -> list[tuple[bool | None, float | None]]:
        """Per seat: online (True, False: was here and left, None: never seen) and the
        seconds it has been gone (None while online, for bots, or out of play)."""
        playing = live.row.status == "playing"
        with self._lock:
            here = self._online.get(live.id, Counter())
            # the database is read only for a seat not connected here (the usual case, every
            # player connected to this process, reads nothing: this runs after every action)
            away = playing and any(s.kind != "bot" and here[s.seat] <= 0 for s in live.row.seats)
        rows = self._read(live.id) if away else {}
        out: list[tuple[bool | None, float | None]] = []
        with self._lock:
            here = self._online.get(live.id, Counter())
            for s in live.row.seats:
                if s.kind == "bot" or not playing or here[s.seat] > 0:
                    out.append((True, None))
                    continue
                row = rows.get(s.seat)
                if row is None:
                    first = self._first.setdefault((live.id, s.seat), now)
                    if len(self._first) > 100_000:
                        self._first.clear()
                    out.append((None, max(0.0, now - first)))
                    continue
                last_seen, left_at = row
                if left_at is None or left_at < last_seen:  # connected elsewhere
                    if now - last_seen <= STALE:
                        out.append((True, None))
                    else:  # that process stopped: gone since its last word
                        out.append((False, max(0.0, now - last_seen)))
                else:
                    out.append((False, max(0.0, now - left_at)))
        return out

    def gone_for(self, live: LiveGame, now: float) -> list[float | None]:
        """Seconds each seat has been gone (None: online, a bot, or the game not in play)."""
        return [g for _, g in self.status(live, now)]

    def view(self, live: LiveGame) -> dict[str, Any]:
        """``online`` per seat: True, False (was here and left) or None (not seen yet: the
        browser shows it only once the grace period is over); ``gone_for`` seconds."""
        status = self.status(live, self.now())
        return {
            "online": [o for o, _ in status],
            "gone_for": [None if g is None else round(g, 1) for _, g in status],
            "grace": self.grace,
        }

    def decorate(self, live: LiveGame, out: dict[str, Any]) -> None:
        out["presence"] = self.view(live)

    # -- claims ------------------------------------------------------------------
    def claim(self, game_id: str, seats: Sequence[int], what: str) -> str:
        """The holder of ``seats`` claims the win (``what="win"``) or aborts (``"abort"``)
        because every other human player has been gone for ``grace`` seconds; returns how
        the game ended.

        :raises ServiceError: ``bad_request`` for another ``what``; ``not_your_seat``,
            ``game_over``, ``not_started``; ``too_early`` while an opponent is online or
            within the grace period (the message says how long to wait).
        """
        if what not in ("win", "abort"):
            raise ServiceError("bad_request", 'claim "win" or "abort"')
        live = self.service.get(game_id)
        with live.lock:
            mine = {s for s in seats if 0 <= s < len(live.row.seats)}
            if not mine:
                raise ServiceError("not_your_seat", "only a player can claim")
            if live.row.status == "waiting":
                raise ServiceError("not_started", "the game has not started")
            if live.row.status != "playing" or live.state.is_terminal():
                raise ServiceError("game_over", "the game is over")
            gone = self.gone_for(live, self.now())
            others = [s for s in live.row.seats if s.seat not in mine and s.kind == "human"]
            if not others:
                raise ServiceError("bad_request", "there is no other player to claim against")
            waiting = [
                self.grace - (gone[s.seat] or 0.0)
                for s in others
                if gone[s.seat] is None or gone[s.seat] < self.grace  # type: ignore[operator]
            ]
            if waiting:
                online = [s.name for s in others if gone[s.seat] is None]
                if online:
                    raise ServiceError.said(
                        "too_early",
                        N_("{names} is still here: nothing to claim"),
                        names=", ".join(online),
                    )
                raise ServiceError.said(
                    "too_early",
                    N_("wait {n} more seconds: a player who left may come back"),
                    n=f"{max(waiting):.0f}",
                )
            gone_seats = [s.seat for s in others]
            if what == "abort":
                done = self.service.finish_game(
                    live, [0.0] * len(live.row.seats), "aborted", status="abandoned"
                )
            else:
                result = [-1.0 if s.seat in gone_seats else 1.0 for s in live.row.seats]
                done = self.service.finish_game(live, result, f"abandon:{gone_seats[0]}")
            if not done:
                raise ServiceError("game_over", "the game ended first")
            return live.row.ended or ""
