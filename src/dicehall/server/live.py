"""A live game's room besides its moves: chat, presence and the clock over the WebSocket,
claims and the lobby's chat over HTTP, the lobby's ratings and spectator counts.

The WebSocket endpoint (``app.py``) hands this module the message types it adds to the
protocol (``docs/protocol.md``):

- ``{"type": "chat", "text"}``: a chat message to the connection's room: the players' room
  when it holds a seat, else the spectators' (logged in); every reader of that room gets
  ``{"type": "chat", "message": {id, channel, author, seat, text, at}}``;
- ``{"type": "claim", "what": "win" | "abort"}``: claim a game whose opponents left
  (``presence.Presence.claim``);
- ``{"type": "clock"}``: the clock and presence now, ``{"type": "clock", "clock": ...,
  "presence": ...}`` (the browser resyncs with it every few seconds; a flag that has fallen
  falls on this request too).

A connection's join snapshot carries the chat it reads (``chat: {channel, messages}``);
every snapshot and update carries ``presence`` (who is online, how long the others have
been gone, the grace period) and ``clock``. When a seat's last connection leaves a game in
play, every connection of the room gets an ``update`` at once (and again when it is back).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from dicehall.server.accounts import Account, Accounts
from dicehall.server.chat import LOBBY, Chat, ChatMessage
from dicehall.server.clocks import Clocks
from dicehall.server.messages import PROTOCOL_VERSION
from dicehall.server.presence import Presence
from dicehall.server.ratings import Ratings, rating_key
from dicehall.server.service import GameService, ServiceError

#: the WebSocket message types this module handles
KINDS = ("chat", "claim", "clock")


class Conn(Protocol):
    game_id: str | None
    seats: list[int]
    account: Any

    def push(self, text: str) -> None: ...


class RoomHub(Protocol):
    rooms: dict[str, Any]
    loop: asyncio.AbstractEventLoop | None

    def on_commit(self, live: Any, entries: list[Any]) -> None: ...


class Rooms:
    """The chat, presence and clock messages of the game rooms of one process."""

    def __init__(
        self,
        service: GameService,
        hub: RoomHub,
        accounts: Accounts,
        chat: Chat,
        presence: Presence,
        clocks: Clocks,
    ) -> None:
        self.service = service
        self.hub = hub
        self.accounts = accounts
        self.chat = chat
        self.presence = presence
        self.clocks = clocks
        self._lock = threading.Lock()
        #: seats whose leaving the room was told (their return is told too)
        self._reported: set[tuple[str, int]] = set()
        #: the last chat message id sent to each room here (messages go out once)
        self._sent: dict[tuple[str, str], int] = {}
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dicehall-rooms")
        service.decorators.append(name_players)

    # -- entering and leaving ----------------------------------------------------------
    def history(self, game_id: str, seats: list[int]) -> dict[str, Any]:
        """The chat a connection holding ``seats`` reads, for its join snapshot (``chat``)."""
        channel = "players" if seats else "spectators"
        messages = [m.to_dict() for m in self.chat.history(game_id, channel)]
        return {"channel": channel, "messages": messages}

    def joined(self, game_id: str, seats: list[int]) -> None:
        """A connection holding ``seats`` entered the room of ``game_id`` (its seats are
        counted online already): if the others were told that one of them had left, they
        learn that it is back."""
        with self._lock:
            back = [s for s in seats if (game_id, s) in self._reported]
            self._reported.difference_update((game_id, s) for s in back)
        if back:
            self._publish(game_id)

    def left(self, game_id: str | None, seats: list[int]) -> None:
        """A connection holding ``seats`` left the room of ``game_id`` (event loop thread):
        when a seat of a game in play has no connection left, every connection of the room
        gets an ``update`` with the new ``presence`` at once."""
        if game_id is None or not seats:
            return
        gone = self.presence.left(game_id, seats)
        if not gone:
            return

        def run() -> None:  # the database write, off the event loop
            self.presence.record_left(game_id, gone)
            live = self.service.cached(game_id)
            if live is None or live.row.status != "playing":
                return
            view = self.presence.view(live)
            told = [s for s in gone if view["online"][s] is False]
            if told:
                with self._lock:
                    self._reported.update((game_id, s) for s in told)
                    if len(self._reported) > 100_000:
                        self._reported.clear()
                self._publish_now(game_id)

        with contextlib.suppress(RuntimeError):  # shutting down
            self._pool.submit(run)

    def remote_presence(self, game_id: str) -> None:
        """Another process saw a seat of ``game_id`` come or go: read again, and if that
        changes who is online, tell this process's connections of the game."""

        def run() -> None:
            live = self.service.cached(game_id)
            if live is None:
                return
            before = self.presence.view(live)["online"]
            self.presence.refresh(game_id)
            if self.presence.view(live)["online"] != before and live.row.status == "playing":
                self._publish_now(game_id)

        if game_id in self.hub.rooms:
            with contextlib.suppress(RuntimeError):
                self._pool.submit(run)

    def _publish(self, game_id: str) -> None:
        """An ``update`` of the game to its room (in a worker: it takes the game's lock)."""
        with contextlib.suppress(RuntimeError):  # shutting down
            self._pool.submit(self._publish_now, game_id)

    def _publish_now(self, game_id: str) -> None:
        live = self.service.cached(game_id)
        if live is not None:
            with live.lock:
                self.hub.on_commit(live, [])

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _call(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self.hub.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            fn(*args)
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(fn, *args)

    def _to_room(self, game_id: str, text: str, who: Callable[[Any], bool]) -> None:
        def send() -> None:
            for conn in list(self.hub.rooms.get(game_id, ())):
                if who(conn):
                    conn.push(text)

        self._call(send)

    # -- messages --------------------------------------------------------------------
    def handle(self, conn: Conn, kind: str, msg: dict[str, Any], ref: Any) -> dict[str, Any]:
        """Answer one of ``KINDS`` (worker thread); raises ServiceError to refuse it."""
        if conn.game_id is None:
            raise ServiceError("not_joined", "send a join message first")
        game_id = conn.game_id
        if kind == "clock":
            live = self.service.get(game_id)
            with live.lock:
                if live.row.status == "playing":
                    self.clocks.flag(live)
                out: dict[str, Any] = {}
                self.clocks.decorate(live, out)
                presence = self.presence.view(live)
            return {
                "type": "clock",
                "v": PROTOCOL_VERSION,
                "ref": ref,
                "clock": out["clock"],
                "presence": presence,
            }
        if kind == "claim":
            ended = self.presence.claim(game_id, conn.seats, str(msg.get("what", ""))[:10])
            return {"type": "ok", "v": PROTOCOL_VERSION, "ref": ref, "ended": ended}
        return self._chat(conn, game_id, msg.get("text"), ref)

    def remote_chat(self, game_id: str) -> None:
        """Another process stored a chat message in the room of ``game_id``: deliver the
        messages this process has not sent yet to its connections (a worker thread)."""

        def run() -> None:
            for channel in ("players", "spectators"):
                with self._lock:
                    after = self._sent.get((game_id, channel), 0)
                for m in self.chat.history(game_id, channel, after=after):
                    self._deliver(game_id, m)

        if game_id in self.hub.rooms:
            with contextlib.suppress(RuntimeError):
                self._pool.submit(run)

    def _deliver(self, game_id: str, message: ChatMessage) -> None:
        """Send ``message`` to the readers of its room here (once per process)."""
        key = (game_id, message.channel)
        with self._lock:
            if message.id <= self._sent.get(key, 0):
                return
            self._sent[key] = message.id
            if len(self._sent) > 50_000:
                self._sent.clear()
        out = json.dumps({"type": "chat", "v": PROTOCOL_VERSION, "message": message.to_dict()})
        players = message.channel == "players"
        self._to_room(game_id, out, lambda c: bool(c.seats) == players)

    def _chat(self, conn: Conn, game_id: str, text: Any, ref: Any) -> dict[str, Any]:
        live = self.service.get(game_id)
        account: Account | None = conn.account
        if conn.seats:
            seat = conn.seats[0]
            author = live.row.seats[seat].name
            channel = "players"
        elif account is not None:
            seat, author, channel = None, account.username, "spectators"
        else:
            raise ServiceError("not_logged_in", "log in to chat as a spectator")
        message = self.chat.post(
            game_id,
            channel,
            author,
            text,
            account_id=None if account is None else account.id,
            seat=seat,
        )
        self._deliver(game_id, message)
        return {"type": "ok", "v": PROTOCOL_VERSION, "ref": ref, "chat": message.id}

    # -- the lobby -------------------------------------------------------------------
    def spectators(self, game_id: str) -> int:
        """Connections watching ``game_id`` in this process without a seat."""
        return sum(1 for c in list(self.hub.rooms.get(game_id, ())) if not c.seats)

    def decorate_lobby(self, lobby: dict[str, list[dict[str, Any]]], ratings: Ratings) -> None:
        """Add to each listed game its spectator count, its age and its players' ratings
        (on the game's rating list; none for guests)."""
        now = self.service.store.now()
        wanted: dict[str, set[str]] = {}
        for games in lobby.values():
            for g in games:
                key = g["rating_key"] = rating_key(g["game"], g.get("options") or {})
                for p in g["players"]:
                    if p.get("account_id") and p.get("kind") == "human":
                        wanted.setdefault(key, set()).add(p["account_id"])
        found = {key: ratings.ratings_of(sorted(ids), key) for key, ids in wanted.items()}
        for games in lobby.values():
            for g in games:
                g["spectators"] = self.spectators(g["id"])
                control = self.clocks.control(g["id"])
                g["clock"] = None if control is None else control.text()
                g["age"] = round(max(0.0, now - g.get("created", now)), 1)
                for p in g["players"]:
                    r = found.get(g["rating_key"], {}).get(p.pop("account_id", None) or "")
                    p["rating"] = None if r is None else round(r.rating)


_SEAT = re.compile(r"\b[Ss]eat (\d+)\b")


def name_players(live: Any, out: dict[str, Any]) -> None:
    """A service decorator: the result line names the players ("ann wins ..."), not
    "Seat 1" (the game views speak of seats; the table knows who sat there)."""
    summary = out.get("summary")
    if not isinstance(summary, str):
        return
    seats = live.row.seats

    def name(m: re.Match[str]) -> str:
        n = int(m[1])
        return seats[n - 1].name if 1 <= n <= len(seats) else m[0]

    out["summary"] = _SEAT.sub(name, summary)


class ChatBody(BaseModel):
    text: str = Field(max_length=1200)


class ClaimBody(BaseModel):
    what: str = Field(max_length=10, description='"win" or "abort"')
    tokens: list[str] = Field(default_factory=list, max_length=8)


def router(rooms: Rooms, tokens_of: Callable[[Request], list[str]]) -> APIRouter:
    """The lobby chat and the HTTP form of a claim."""
    api = APIRouter(tags=["lobby"])

    @api.get("/api/chat/lobby")
    def lobby_chat(after: int = 0) -> dict[str, Any]:
        """The lobby's chat messages after id ``after`` (the last 50)."""
        return {"messages": [m.to_dict() for m in rooms.chat.history(LOBBY, LOBBY, after=after)]}

    @api.post("/api/chat/lobby", status_code=201)
    def post_lobby_chat(body: ChatBody, request: Request) -> dict[str, Any]:
        """Say something in the lobby (logged in)."""
        account = rooms.accounts.current(request)
        if account is None:
            raise ServiceError("not_logged_in", "log in to chat in the lobby")
        message = rooms.chat.post(LOBBY, LOBBY, account.username, body.text, account_id=account.id)
        return {"message": message.to_dict()}

    @api.post("/api/games/{game_id}/claim")
    def claim(game_id: str, body: ClaimBody, request: Request) -> dict[str, Any]:
        """Claim the win, or abort, when every opponent has been gone past the grace
        period (tokens in the body or the ``X-Seat-Token`` header)."""
        live = rooms.service.get(game_id)
        seats = rooms.service.seats_for(live, body.tokens or tokens_of(request))
        return {"ok": True, "ended": rooms.presence.claim(game_id, seats, body.what)}

    return api
