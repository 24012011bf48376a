"""The WebSocket protocol's messages as typed models: one pydantic model per message, one
decoder, and the error codes as a ``StrEnum`` (bgammon's one-struct-per-event ``event.go``).

``docs/protocol.md`` is the reference that people read; these models are the same protocol for
programs: the server decodes every client message with ``decode`` (a bad message gets a
precise ``bad_message`` error, never an exception), and the tests validate every message the
server sends against ``ServerMessage``. ``dumps`` is the one serialiser of the hot path
(orjson: several times faster than ``json.dumps`` for the large legal-move graphs).

>>> decode('{"type": "act", "v": 1, "ref": 2, "text": "24/18 13/11", "seq": 17}')
ActMessage(v=1, ref=2, type='act', text='24/18 13/11', seq=17)
>>> decode('{"type": "dance", "v": 1, "ref": 7}').code
<ErrorCode.BAD_MESSAGE: 'bad_message'>
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

#: The protocol version: the ``v`` field of every message (``docs/protocol.md``, Versioning).
PROTOCOL_VERSION = 1
#: The most seat tokens one message may carry (``Limits.max_tokens``).
MAX_TOKENS = 8


class ErrorCode(StrEnum):
    """Every ``code`` of an ``error`` message and of an HTTP error body."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNSUPPORTED_VERSION = "unsupported_version"
    BAD_REQUEST = "bad_request"
    UNKNOWN_GAME = "unknown_game"
    BAD_TOKEN = "bad_token"
    NOT_JOINED = "not_joined"
    NOT_YOUR_SEAT = "not_your_seat"
    OUT_OF_TURN = "out_of_turn"
    ILLEGAL_ACTION = "illegal_action"
    STALE = "stale"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    NOT_FINISHED = "not_finished"
    SEAT_TAKEN = "seat_taken"
    ALREADY_SEEDED = "already_seeded"
    INTERNAL_ERROR = "internal_error"
    TOO_LONG = "too_long"
    TOO_BIG = "too_big"
    RATE_LIMITED = "rate_limited"
    TOKEN_IN_URL = "token_in_url"
    NOT_LOGGED_IN = "not_logged_in"
    BAD_LOGIN = "bad_login"
    USERNAME_TAKEN = "username_taken"
    UNKNOWN_PLAYER = "unknown_player"
    NO_HINTS = "no_hints"
    NAME_TAKEN = "name_taken"
    TIME_OUT = "time_out"
    TOO_EARLY = "too_early"
    TOO_MANY = "too_many"
    UNKNOWN_SEEK = "unknown_seek"
    SEEK_TAKEN = "seek_taken"
    OUT_OF_RANGE = "out_of_range"


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text (orjson; integer keys become strings, as in ``json``)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def short_ref(value: Any) -> int | str | None:
    """A reference is echoed back, so only an integer or a string of at most 40 characters
    is kept; anything else is dropped (the request is still answered)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= 40):
        return value
    return None


class Message(BaseModel):
    """Fields every message has: ``v`` (the protocol version) and the client's ``ref``."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    v: int = PROTOCOL_VERSION
    ref: int | str | None = None

    @field_validator("ref", mode="before")
    @classmethod
    def _ref(cls, value: Any) -> int | str | None:
        return short_ref(value)


# -- client -> server ------------------------------------------------------------------------
Token = Annotated[str, Field(max_length=100)]


class JoinMessage(Message):
    """Watch ``game``; ``tokens`` decide the seats this connection holds (none: spectator)."""

    type: Literal["join"] = "join"
    game: str = Field(max_length=40, description="the game id")
    tokens: list[Token] = Field(default_factory=list, max_length=MAX_TOKENS)


class ActMessage(Message):
    """Play ``text`` for the seat to move; ``seq``: the snapshot's seq (stale if moved on).

    The text's length is checked by the service (``too_long``), not here."""

    type: Literal["act"] = "act"
    text: str
    seq: int | None = None


class ResignMessage(Message):
    """Resign the game (the seat to move among the held ones, else the first)."""

    type: Literal["resign"] = "resign"


class PingMessage(Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"] = "ping"


ClientMessage = JoinMessage | ActMessage | ResignMessage | PingMessage
#: The decoder of each client message type.
CLIENT_MESSAGES: dict[str, type[Message]] = {
    "join": JoinMessage,
    "act": ActMessage,
    "resign": ResignMessage,
    "ping": PingMessage,
}


# -- server -> client ------------------------------------------------------------------------
class ErrorMessage(Message):
    """A refused request: ``code`` says what, ``message`` says why in words (quoting at most
    a few dozen characters of the input), ``legal`` lists the legal actions where useful,
    ``detail`` is the same details as a structured message (``{"id": msgid, "params": {...}}``,
    parameters possibly messages themselves) that a client translates with the sentence."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    legal: list[str] | None = None
    detail: dict[str, Any] | None = None


class OkMessage(Message):
    """The answer to the connection's own ``resign`` (``resigned``), or to its ``act``
    (``seq``) when no update answers it (an accepted act is answered by the update its
    commit sends the connection, carrying the act's ``ref``: ``UpdateMessage``)."""

    type: Literal["ok"] = "ok"
    seq: int | None = None
    resigned: int | None = None


class PongMessage(Message):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"


class LogEntryModel(BaseModel):
    """One action of the log: ``actor`` is the seat, or -1 for dice."""

    seq: int
    actor: int
    text: str


class PlayerModel(BaseModel):
    """One seat of a game as every client sees it."""

    model_config = ConfigDict(extra="allow")

    seat: int
    name: str
    kind: Literal["human", "bot"]
    spec: str
    claimed: bool
    seeded: bool


class FairnessModel(BaseModel):
    """The commitment and the seeds (the server seed only once the game is over)."""

    scheme: str
    commitment: str
    player_seeds: list[str]
    server_seed: str | None


class _GameFields(Message):
    """What a snapshot and an update share: the game as everybody sees it."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str
    game: str
    title: str
    options: dict[str, Any]
    mode: Literal["bot", "friend", "local"]
    status: Literal["waiting", "playing", "finished", "abandoned"]
    seq: int
    players: list[PlayerModel]
    to_move: int | None
    view: dict[str, Any]
    last: dict[str, Any] | None
    returns: list[float] | None
    summary: str | None
    text: str | None = Field(
        description="the plain-text board; in updates only for a game without a board view "
        "of its own (null otherwise)"
    )
    fairness: FairnessModel
    rematch: str | None
    rematch_of: str | None
    legal: list[str] | None = Field(description="only for the connection holding the mover")
    moves: Any = Field(description="the game's structured legal moves, same condition")


class SnapshotMessage(_GameFields):
    """The full game, sent once after every ``join``."""

    type: Literal["snapshot"] = "snapshot"
    you: list[int]
    log: list[LogEntryModel]
    text: str


class UpdateMessage(_GameFields):
    """A change: the snapshot's fields without ``log`` and ``you``, plus ``entries``, the log
    entries added since the previous update. The update that a connection's own accepted
    ``act`` makes carries that act's ``ref`` (the key present, even when null): it is the
    act's answer, and no ``ok`` follows."""

    type: Literal["update"] = "update"
    entries: list[LogEntryModel]


ServerMessage = Annotated[
    SnapshotMessage | UpdateMessage | OkMessage | ErrorMessage | PongMessage,
    Field(discriminator="type"),
]


def error(code: ErrorCode | str, message: str, ref: Any = None, **extra: Any) -> dict[str, Any]:
    """An ``error`` message as a dict ready for ``dumps``."""
    out: dict[str, Any] = {"type": "error", "v": PROTOCOL_VERSION, "code": str(code)}
    out["message"] = message
    if ref is not None:
        out["ref"] = ref
    out.update(extra)
    return out


class DecodeError(Exception):
    """A client message that cannot be decoded; ``reply`` is the error message to send."""

    def __init__(self, code: ErrorCode, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.ref = code, message, ref

    def reply(self) -> dict[str, Any]:
        return error(self.code, self.message, self.ref)


def envelope(raw: str | bytes) -> dict[str, Any]:
    """The JSON object of a frame, its version checked; ``DecodeError`` otherwise. Message
    types this module does not know are the caller's (new features add their own)."""
    try:
        msg = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DecodeError(ErrorCode.BAD_JSON, f"the message is not valid JSON: {exc}") from None
    if not isinstance(msg, dict):
        raise DecodeError(ErrorCode.BAD_MESSAGE, 'a message must be a JSON object with a "type"')
    ref = short_ref(msg.get("ref"))
    if msg.get("v", PROTOCOL_VERSION) != PROTOCOL_VERSION:
        raise DecodeError(
            ErrorCode.UNSUPPORTED_VERSION,
            f"this server speaks protocol version {PROTOCOL_VERSION}",
            ref,
        )
    return msg


def validate(msg: dict[str, Any]) -> Message | None:
    """The typed message of an envelope, None for a type this module does not know;
    ``DecodeError`` (``bad_message``, naming the field) for a known type with bad fields."""
    model = CLIENT_MESSAGES.get(msg.get("type"))  # type: ignore[arg-type]
    if model is None:
        return None
    try:
        return model.model_validate(msg)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}"
            for e in exc.errors(include_input=False)[:3]
        )
        raise DecodeError(
            ErrorCode.BAD_MESSAGE,
            f"{msg['type']}: {problems[:200]}",
            short_ref(msg.get("ref")),
        ) from None


def decode(raw: str | bytes) -> Message | DecodeError:
    """One client frame as its typed message, or the ``DecodeError`` to answer it with
    (also for an unknown type)."""
    try:
        msg = envelope(raw)
        typed = validate(msg)
    except DecodeError as exc:
        return exc
    if typed is None:
        kind = str(msg.get("type"))[:30]
        return DecodeError(
            ErrorCode.BAD_MESSAGE,
            f"unknown message type {kind!r}; expected join, act, resign or ping",
            short_ref(msg.get("ref")),
        )
    return typed
