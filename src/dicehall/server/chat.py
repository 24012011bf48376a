"""Chat: the lobby's room, and in each game a players' room and a separate spectators' room.

- **Who speaks where.** The players of a game (whoever holds a seat token, guests too) talk
  in its ``players`` room, which only they read (as on lichess, spectators do not read the
  players and the players are not distracted by the spectators). Logged-in spectators talk in
  the game's ``spectators`` room; logged-in players in the ``lobby``. A guest who holds no
  seat reads but does not write (an account is what a mute or a ban can hold on to).
- **Text only.** A message is plain text: surrounding space trimmed, control characters and
  line breaks removed, 1 to ``MAX_LENGTH`` characters. It is stored and sent as text, never
  as HTML; the browser inserts it with ``textContent``, so ``<script>`` shows as typed.
- **Rate limits.** Each author (account, or seat of a game for a guest) has a token bucket:
  ``RATE`` messages a second sustained, ``BURST`` at once; more is refused with
  ``rate_limited``.
- **Muting** is the reader's: the browser hides a muted room or author (``chat.js``).

Messages are kept (``chat`` table) so a reconnecting browser gets the room's last
``HISTORY`` messages. On PostgreSQL a message also sends the store's notification (with
``seq`` ``CHAT_SEQ``), so every server process delivers it to the room's connections it
holds (``live.Rooms.remote_chat``); the lobby's room is read by polling.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from dicehall.server.error_messages import N_
from dicehall.server.limits import TokenBucket
from dicehall.server.service import ServiceError
from dicehall.server.storage import Store

MAX_LENGTH = 300  #: characters of one message
RATE = 0.5  #: messages per second and author, sustained
BURST = 5.0  #: messages an author may send at once
HISTORY = 50  #: messages a room sends to a browser that comes in
CHANNELS = ("players", "spectators", "lobby")
#: the ``seq`` of a store notification that says "a chat message in this game's room"
CHAT_SEQ = -2
LOBBY = "lobby"
#: control characters (C0, DEL, C1) and the Unicode line and paragraph separators
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def clean_text(text: object) -> str:
    """The message text as it will be stored: plain, on one line, trimmed.

    >>> clean_text("  hi\\n<b>there</b>  ")
    'hi<b>there</b>'

    :raises ServiceError: ``bad_request`` when it is not a string, empty, or longer than
        ``MAX_LENGTH``.
    """
    if not isinstance(text, str):
        raise ServiceError("bad_request", "a chat message is a text")
    if len(text) > 4 * MAX_LENGTH:
        raise ServiceError.said(
            "too_long", N_("a chat message is at most {n} characters"), n=MAX_LENGTH
        )
    cleaned = _CONTROL.sub("", text).strip()
    if not cleaned:
        raise ServiceError("bad_request", "an empty chat message")
    if len(cleaned) > MAX_LENGTH:
        raise ServiceError.said(
            "too_long",
            N_("a chat message is at most {n} characters (this one has {length})"),
            n=MAX_LENGTH,
            length=len(cleaned),
        )
    return cleaned


@dataclass(frozen=True)
class ChatMessage:
    id: int
    room: str
    channel: str
    author: str
    seat: int | None
    text: str
    created: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "channel": self.channel,
            "author": self.author,
            "seat": self.seat,
            "text": self.text,
            "at": self.created,
        }


class Chat:
    """Chat rooms on the store's database, with per-author rate limits (thread-safe)."""

    def __init__(
        self,
        store: Store,
        *,
        rate: float = RATE,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.rate, self.burst = rate, burst
        self.clock = clock
        md = sa.MetaData()
        self.table = sa.Table(
            f"{store.prefix}chat",
            md,
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("room", sa.String(32), nullable=False),
            sa.Column("channel", sa.String(16), nullable=False),
            sa.Column("author", sa.String(40), nullable=False),
            sa.Column("account_id", sa.String(32)),
            sa.Column("seat", sa.Integer),
            sa.Column("text", sa.String(500), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
        self._buckets: dict[str, TokenBucket] = {}
        self._lock = threading.Lock()

    def _allow(self, key: str) -> bool:
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                if len(self._buckets) > 50_000:
                    self._buckets.clear()
                bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
                bucket.stamp = self.clock()
            return bucket.take(self.clock())

    def post(
        self,
        room: str,
        channel: str,
        author: str,
        text: object,
        *,
        account_id: str | None = None,
        seat: int | None = None,
    ) -> ChatMessage:
        """Store a message from ``author`` in ``room``'s ``channel``; returns it.

        :raises ServiceError: ``bad_request``/``too_long`` for the text (``clean_text``),
            ``rate_limited`` when the author sends faster than the limits allow.
        """
        if channel not in CHANNELS:
            raise ServiceError.said(
                "bad_request",
                N_("a chat channel is one of {channels}"),
                channels=", ".join(CHANNELS),
            )
        cleaned = clean_text(text)
        key = f"a:{account_id}" if account_id else f"s:{room}:{seat}"
        if not self._allow(key):
            raise ServiceError.said(
                "rate_limited",
                N_(
                    "you are sending messages too fast: at most {burst} at once and one "
                    "every {seconds} seconds"
                ),
                burst=f"{self.burst:g}",
                seconds=f"{1 / self.rate:g}",
            )
        now = time.time()
        with self.store._write_lock, self.store.engine.begin() as conn:
            res = conn.execute(
                self.table.insert().values(
                    room=room,
                    channel=channel,
                    author=author[:40],
                    account_id=account_id,
                    seat=seat,
                    text=cleaned,
                    created=now,
                )
            )
            (new_id,) = res.inserted_primary_key or (0,)
            if room != LOBBY:  # other processes deliver it to their connections too
                self.store._notify(conn, room, CHAT_SEQ)
        return ChatMessage(int(new_id), room, channel, author[:40], seat, cleaned, now)

    def history(
        self, room: str, channel: str, *, after: int = 0, limit: int = HISTORY
    ) -> list[ChatMessage]:
        """The last ``limit`` messages of the room's channel (after id ``after``), oldest
        first."""
        c = self.table.c
        with self.store.engine.connect() as conn:
            rows = list(
                conn.execute(
                    sa.select(self.table)
                    .where(c.room == room, c.channel == channel, c.id > after)
                    .order_by(c.id.desc())
                    .limit(max(1, min(limit, 200)))
                )
            )
        return [
            ChatMessage(r.id, r.room, r.channel, r.author, r.seat, r.text, r.created)
            for r in reversed(rows)
        ]
