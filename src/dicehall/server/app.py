"""The web application: HTTP API, WebSocket protocol and the pages, in one FastAPI app.

The protocol is documented in ``docs/protocol.md``; the OpenAPI schema is served at
``/openapi.json`` (browsable at ``/docs``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from dicehall.bots.registry import agent_names
from dicehall.core.errors import DicehallError
from dicehall.core.fairness import verify_record
from dicehall.core.registry import game_class, registered_games
from dicehall.server.service import PROTOCOL_VERSION, GameService, LogEntry, ServiceError
from dicehall.server.storage import Store

log = logging.getLogger("dicehall.server")

WEB = Path(__file__).resolve().parent.parent / "web"
STATIC = WEB / "static"

STATUS = {
    "unknown_game": 404,
    "bad_request": 400,
    "seat_taken": 409,
    "stale": 409,
    "not_your_seat": 403,
    "out_of_turn": 409,
    "illegal_action": 422,
    "game_over": 409,
    "not_started": 409,
    "not_finished": 409,
}


# -- request bodies ------------------------------------------------------------
class CreateGame(BaseModel):
    game: str = Field(description="registered game name, e.g. backgammon")
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    opponent: str = Field(
        "random", description="an agent spec (random, bot, bot:LEVEL), friend or local"
    )
    seat: int | None = Field(0, description="the creator's seat (0 moves first); null: random")
    name: str | None = Field(None, max_length=40, description="the creator's guest name")
    seed: str = Field("", description="the creator's player seed for the fair dice")


class JoinGame(BaseModel):
    seat: int | None = Field(None, description="seat to claim; null: the first open one")
    name: str | None = Field(None, max_length=40)
    seed: str = ""


class ActBody(BaseModel):
    tokens: list[str] = Field(description="seat tokens held by the caller")
    text: str = Field(description="the action text, e.g. 24/18 13/11")
    seq: int | None = Field(None, description="the seq of the snapshot the action is for")


class Tokens(BaseModel):
    tokens: list[str]


# -- live connections ------------------------------------------------------------
class Connection:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.game_id: str | None = None
        self.seats: list[int] = []
        self.sent_version = -1
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()


class Hub:
    """Fans committed actions out to the WebSocket connections watching each game."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.rooms: dict[str, set[Connection]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        service.listeners.append(self.on_commit)

    def on_commit(self, game_id: str, entries: list[LogEntry]) -> None:
        """Called by the service (any thread) after a commit."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._dispatch, game_id, entries)

    def _dispatch(self, game_id: str, entries: list[LogEntry]) -> None:
        for conn in list(self.rooms.get(game_id, ())):
            for e in entries:
                conn.queue.put_nowait({"type": "event", "v": PROTOCOL_VERSION, **e.to_dict()})
            conn.queue.put_nowait({"type": "snapshot"})  # built when sent: always the latest

    def enter(self, conn: Connection, game_id: str) -> None:
        self.leave(conn)
        conn.game_id = game_id
        self.rooms.setdefault(game_id, set()).add(conn)

    def leave(self, conn: Connection) -> None:
        if conn.game_id is not None:
            room = self.rooms.get(conn.game_id)
            if room is not None:
                room.discard(conn)
                if not room:
                    del self.rooms[conn.game_id]
        conn.game_id = None


def create_app(
    db: str | None = None,
    *,
    prefix: str = "",
    bot_delay: float = 0.4,
    store: Store | None = None,
) -> FastAPI:
    """The dicehall web app on the database ``db`` (default: SQLite in the user data dir)."""
    store = store or Store(db, prefix=prefix)
    service = GameService(store, bot_delay=bot_delay)
    hub = Hub(service)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        resumed = await asyncio.to_thread(service.resume_all)
        if resumed:
            log.info("resumed %d unfinished games", resumed)
        yield
        service.close()

    app = FastAPI(
        title="dicehall",
        version=f"protocol {PROTOCOL_VERSION}",
        description="Backgammon, Coin Rows and White Die in the browser. "
        "WebSocket protocol: /ws (see docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"error": exc.to_dict()}, status_code=STATUS.get(exc.code, 400))

    # -- pages ---------------------------------------------------------------
    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("lobby.html")

    @app.get("/g/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return page("game.html")

    @app.get("/g/{game_id}/replay", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/fairness", include_in_schema=False)
    async def fairness_page() -> FileResponse:
        return page("fairness.html")

    @app.get("/g/{game_id}/fairness", include_in_schema=False)
    async def game_fairness_page(game_id: str) -> FileResponse:
        return page("fairness.html")

    # -- HTTP API --------------------------------------------------------------
    @app.get("/api/catalog", tags=["lobby"])
    def catalog() -> list[dict[str, Any]]:
        """Every game with its options and the opponents the server can play."""
        out = []
        for name in registered_games():
            try:
                cls = game_class(name)
            except ImportError:
                continue  # a game that is not installed yet
            out.append(
                {
                    "name": name,
                    "title": cls.title,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "options": [
                        {
                            "name": o.name,
                            "type": o.type.__name__,
                            "default": o.default,
                            "description": o.description,
                            "choices": list(o.choices) if o.choices else None,
                            "minimum": o.minimum,
                            "maximum": o.maximum,
                        }
                        for o in cls.option_specs
                    ],
                    "opponents": [a for a in agent_names(name) if a != "human"],
                }
            )
        return out

    @app.get("/api/lobby", tags=["lobby"])
    def lobby() -> dict[str, list[dict[str, Any]]]:
        """Open games to join, live games to watch and recently finished games."""
        return service.lobby()

    @app.post("/api/games", tags=["games"], status_code=201)
    def create_game(body: CreateGame) -> dict[str, Any]:
        """Create a game. Keep the returned tokens secret: they are the seats."""
        game_id, tokens = service.create(
            body.game,
            body.options,
            opponent=body.opponent,
            seat=body.seat,
            name=body.name,
            seed=body.seed,
        )
        return {"id": game_id, "url": f"/g/{game_id}", "tokens": tokens}

    @app.get("/api/games/{game_id}", tags=["games"])
    def get_game(
        game_id: str, token: Annotated[list[str] | None, Query()] = None
    ) -> dict[str, Any]:
        """The snapshot of a game: a spectator's, or with ``?token=`` that of the seats held
        (then with the legal actions when one of them is to move)."""
        live = service.get(game_id)
        return service.snapshot(live, service.seats_for(live, token or []))

    @app.post("/api/games/{game_id}/join", tags=["games"])
    def join_game(game_id: str, body: JoinGame) -> dict[str, Any]:
        """Claim an open seat; returns its secret token."""
        seat, token = service.join(game_id, body.seat, body.name, body.seed)
        return {"id": game_id, "seat": seat, "token": token}

    @app.post("/api/games/{game_id}/act", tags=["games"])
    def act(game_id: str, body: ActBody) -> dict[str, Any]:
        """Play an action over plain HTTP (the browser uses the WebSocket)."""
        live = service.get(game_id)
        seats = service.seats_for(live, body.tokens)
        seq = service.act(game_id, seats, body.text, body.seq)
        return {"ok": True, "seq": seq}

    @app.post("/api/games/{game_id}/rematch", tags=["games"])
    def rematch(game_id: str, body: Tokens) -> dict[str, Any]:
        """A new game with the same settings; the caller keeps his seats."""
        new_id, tokens = service.rematch(game_id, body.tokens)
        return {"id": new_id, "url": f"/g/{new_id}", "tokens": tokens}

    @app.get("/api/games/{game_id}/record", tags=["records"])
    def record(game_id: str, download: bool = False, format: str = "json") -> Response:
        """The game record (JSON); the server seed is in it once the game is over.
        ``format=mat``: a backgammon match as a ``.mat`` file (GNU Backgammon, Jellyfish)."""
        rec = service.record(game_id)
        headers = {}
        if format not in ("json", "mat"):
            raise ServiceError("bad_request", f"format {format!r}: expected json or mat")
        if download:
            headers["Content-Disposition"] = f'attachment; filename="dicehall-{game_id}.{format}"'
        if format == "mat":
            from dicehall.games.backgammon.mat import export_mat

            try:
                text = export_mat(rec)
            except DicehallError as exc:
                raise ServiceError("bad_request", str(exc)) from None
            return Response(text, media_type="text/plain; charset=utf-8", headers=headers)
        return Response(rec.to_json(), media_type="application/json", headers=headers)

    @app.get("/api/games/{game_id}/frames", tags=["records"])
    def frames(game_id: str) -> list[dict[str, Any]]:
        """The view after every action, for the replay viewer."""
        return service.frames(game_id)

    @app.get("/api/games/{game_id}/verify", tags=["records"])
    def verify(game_id: str) -> dict[str, Any]:
        """The server's own check of every roll (check it yourself with dicehall verify)."""
        try:
            checks = verify_record(service.record(game_id))
        except DicehallError as exc:
            return {"ok": False, "message": str(exc), "rolls": []}
        return {
            "ok": all(c.ok for c in checks),
            "message": f"{sum(c.ok for c in checks)} of {len(checks)} rolls match",
            "rolls": [
                {"index": c.index, "recorded": c.recorded, "expected": c.expected, "faces": c.faces}
                for c in checks
            ],
        }

    @app.get("/api/protocol", tags=["lobby"])
    def protocol() -> dict[str, Any]:
        return {"version": PROTOCOL_VERSION, "websocket": "/ws", "docs": "docs/protocol.md"}

    # -- WebSocket ---------------------------------------------------------------
    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws)
        sender = asyncio.create_task(_sender(conn))
        try:
            while True:
                raw = await ws.receive_text()
                try:
                    reply = await _handle(conn, raw)
                except Exception as exc:  # a bug must not cost the client its connection
                    log.exception("websocket message failed")
                    reply = error("internal_error", f"the server failed: {exc}")
                if reply is not None:
                    conn.queue.put_nowait(reply)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket was closed under us
            pass
        finally:
            hub.leave(conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(BaseException):
                await sender

    async def _sender(conn: Connection) -> None:
        try:
            while True:
                msg = await conn.queue.get()
                if msg is None:
                    return
                if msg.get("type") == "snapshot" and "game" not in msg:
                    if conn.game_id is None:
                        continue
                    # skip a snapshot that a later one in the queue makes redundant
                    if any(m and m.get("type") == "snapshot" for m in conn.queue._queue):  # type: ignore[attr-defined]
                        continue
                    live = service.get(conn.game_id)
                    if live.version == conn.sent_version:
                        continue  # nothing new since the last snapshot sent
                    conn.sent_version = live.version
                    try:
                        msg = {
                            "type": "snapshot",
                            "v": PROTOCOL_VERSION,
                            **service.snapshot(live, conn.seats),
                        }
                    except Exception as exc:  # a broken view must not silence the game
                        log.exception("snapshot of game %s failed", conn.game_id)
                        msg = error("internal_error", f"the server could not draw the game: {exc}")
                await conn.ws.send_text(json.dumps(msg))
        except Exception:  # the client went away
            return

    def error(code: str, message: str, request: Any = None, **extra: Any) -> dict[str, Any]:
        out = {"type": "error", "v": PROTOCOL_VERSION, "code": code, "message": message}
        if request is not None:
            out["ref"] = request
        out.update(extra)
        return out

    async def _handle(conn: Connection, raw: str) -> dict[str, Any] | None:
        try:
            msg = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            return error("bad_json", f"the message is not valid JSON: {exc}")
        if not isinstance(msg, dict):
            return error("bad_message", 'a message must be a JSON object with a "type"')
        ref = msg.get("ref")
        kind = msg.get("type")
        version = msg.get("v", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION:
            return error(
                "unsupported_version",
                f"this server speaks protocol version {PROTOCOL_VERSION}",
                ref,
            )
        if kind == "ping":
            return {"type": "pong", "v": PROTOCOL_VERSION, "ref": ref}
        if kind == "join":
            game_id = msg.get("game")
            tokens = msg.get("tokens", [])
            if not isinstance(game_id, str):
                return error("bad_message", 'join needs "game": the game id', ref)
            if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
                return error("bad_message", '"tokens" must be a list of strings', ref)
            try:
                live = await asyncio.to_thread(service.get, game_id)
            except ServiceError as exc:
                return error(exc.code, exc.message, ref)
            seats = service.seats_for(live, tokens)
            bad = bool(tokens) and not seats
            conn.sent_version = live.version
            conn.seats = seats
            hub.enter(conn, game_id)
            out = {
                "type": "snapshot",
                "v": PROTOCOL_VERSION,
                "ref": ref,
                **service.snapshot(live, seats),
            }
            if bad:
                conn.queue.put_nowait(out)
                return error("bad_token", "that token holds no seat here: you are watching", ref)
            return out
        if kind == "act":
            if conn.game_id is None:
                return error("not_joined", "send a join message first", ref)
            text = msg.get("text")
            seq = msg.get("seq")
            if not isinstance(text, str) or (seq is not None and not isinstance(seq, int)):
                return error("bad_message", 'act needs "text" (string) and "seq" (int)', ref)
            try:
                new_seq = await asyncio.to_thread(service.act, conn.game_id, conn.seats, text, seq)
            except ServiceError as exc:
                extra = {"legal": exc.legal} if exc.legal else {}
                return error(exc.code, exc.message, ref, **extra)
            except Exception as exc:  # a bug must not cost the player his connection
                log.exception("act %r in game %s failed", text, conn.game_id)
                return error("internal_error", f"the server failed: {exc}", ref)
            return {"type": "ok", "v": PROTOCOL_VERSION, "ref": ref, "seq": new_seq}
        return error(
            "bad_message", f"unknown message type {kind!r}; expected join, act or ping", ref
        )

    return app
