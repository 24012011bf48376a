"""The authoritative game service: seats and tokens, validated actions, fair dice, bots.

Every game is its action log. An action is accepted only under the game's lock, after the
rules accept it, and it is committed to the database (together with the dice rolls that follow
it) *before* the in-memory state changes and before anybody is told. A restarted server folds
the log again and carries on exactly where it stopped; the dice are derived from the stored
seed, so a roll that was computed but not committed comes out the same the second time.

Games are folded lazily, when first touched (a join, a look, an act), not at start-up; several
processes may serve one PostgreSQL database: the log's unique ``(game, seq)`` key picks the one
winner of concurrent acts, a process that hears (``on_remote``) or finds (a refused act) that
another process moved a game on catches up from the log. Abandoned games expire (``expire``):
a game waiting for players after ``waiting_ttl`` seconds without a change, a game in play
after ``playing_ttl``.

Fairness holds in every mode: a seat's player seed is accepted only after the game (and its
commitment) exists, in a request of its own (``provide_seed``, or the join of a published
game), and the game rolls no dice before every seat has its seed. Bots draw their randomness
from the secret server seed.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson

from dicehall.bots.registry import AgentSpecError, make_agent
from dicehall.core.errors import DicehallError, IllegalActionError
from dicehall.core.fairness import (
    SCHEME,
    FairDice,
    FairnessError,
    chance_outcome,
    chance_text,
    check_player_seed,
    check_rolls,
    commitment,
    new_server_seed,
)
from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.record import Record, load_recorded_game
from dicehall.core.registry import game_class, load_game
from dicehall.server import error_messages, i18n
from dicehall.server.bots import BotJob, BotRunner, bot_seed, vetted_specs
from dicehall.server.error_messages import N_
from dicehall.server.limits import Limits, clip
from dicehall.server.messages import PROTOCOL_VERSION, dumps
from dicehall.server.storage import (
    ActionRow,
    Appended,
    ConflictError,
    GameRow,
    NotFoundError,
    SeatRow,
    Store,
    hash_token,
)
from dicehall.server.views import GenericView, WebView, legal_texts_and_json, listed_action
from dicehall.server.views import get_view as _load_view

log = logging.getLogger("dicehall.server")

MODES = ("bot", "friend", "local")
#: the largest value of an integer option that declares no maximum of its own
OPTION_CAP = 100_000
WAITING_TTL = 24 * 3600.0  #: a game nobody joined or seeded is abandoned after a day
PLAYING_TTL = 7 * 24 * 3600.0  #: a game in play without a move for a week is abandoned
LOBBY_OPEN_TTL = 3600.0  #: an open game nobody joined for an hour leaves the lobby's list
LOBBY_LIVE_TTL = 24 * 3600.0  #: a game without a move for a day leaves the live list


class ServiceError(DicehallError):
    """A request the service refuses; ``code`` is the protocol's error code."""

    def __init__(
        self,
        code: str,
        message: str,
        legal: Sequence[str] = (),
        detail: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.legal = list(legal)
        #: the details as a structured message, to translate (``error_messages``)
        self.detail = detail

    @classmethod
    def said(cls, code: str, msgid: str, /, **params: Any) -> ServiceError:
        """A refusal whose whole message is the catalogue's ``msgid`` with ``params``: its
        English ``message`` and, as ``detail``, the same words to translate whole
        (``error_messages.whole``), so no English is left in another language.

        >>> exc = ServiceError.said("unknown_player", "no player named {name}", name="'ana'")
        >>> exc.message, exc.detail["whole"]
        ("no player named 'ana'", True)
        """
        detail = error_messages.whole(msgid, **params)
        return cls(code, i18n.message_text("en", detail), detail=detail)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.legal:
            out["legal"] = self.legal
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass
class LogEntry:
    seq: int
    actor: int  # seat, or -1 for dice
    text: str
    #: the action's place in the legal actions of the position it was played in, when known
    #: here (-1: not known); other processes take it by that place (``Appended.hints``)
    hint: int = -1

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "actor": self.actor, "text": self.text}


@dataclass
class _Plan:
    """A commit about to be written (``GameService._plan``): the actions with the dice after
    them, their places, the state after them, the new status and result, the last move's
    view, and the dice's counter before them."""

    new: list[tuple[int, str]]
    placed: list[int]
    state: State
    status: str | None
    result: list[float] | None
    last: dict[str, Any] | None
    counter: int


@dataclass
class LiveGame:
    """A game held in memory: its row, its current state and its log."""

    row: GameRow
    game: Game
    state: State
    dice: FairDice
    log: list[LogEntry] = field(default_factory=list)
    last: dict[str, Any] | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    bot_pending: bool = False
    cache: dict[str, Any] = field(default_factory=dict)
    used: float = field(default_factory=time.monotonic)
    #: actions another process committed that an act here found only when it was refused
    #: as stale: told with the next notification that carries entries (the act's own
    #: commit), so the update that answers the act also brings what came before it
    missed: list[LogEntry] = field(default_factory=list)

    version: int = 0
    #: an act of this game awaits its append in the event loop, holding the lock
    #: (``GameService.act_in_loop``)
    in_loop: bool = False

    @property
    def id(self) -> str:
        return self.row.id

    def touch(self) -> None:
        """Something public changed: drop cached snapshots."""
        self.cache.clear()
        self.version += 1

    @property
    def seq(self) -> int:
        return len(self.log)


#: called after every public change of a game, under its lock, with the new log entries
Listener = Callable[[LiveGame, list[LogEntry]], None]
#: called under the game's lock before the seat to move acts; may end the game (a flag) and
#: raise ServiceError to refuse the action (``dicehall.server.clocks``)
Guard = Callable[[LiveGame, int], None]
#: adds what changes with time to every snapshot and update it is given (the clocks, who is
#: online); called under the game's lock
Decorator = Callable[[LiveGame, dict[str, Any]], None]


@functools.cache
def get_view(game: str) -> WebView:
    """The web view of ``game``, looked up once per process (the registry's checks of the
    declaration cost more than a view function, and this runs several times per action)."""
    return _load_view(game)


@functools.cache
def _text_board(game: str) -> bool:
    """Whether the browser draws ``game`` as its text board (its view has no state view of
    its own, so the generic one stands in)."""
    method = get_view(game).state_view
    return getattr(method, "__func__", None) is GenericView.state_view


def _new_id() -> str:
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


def _clean_name(name: str | None, default: str) -> str:
    name = (name or "").strip()[:40]
    return name or default


class GameService:
    """Creates, loads and advances games; thread-safe.

    ``bot_specs(game)`` lists the opponents a visitor may ask for (default: the vetted ones);
    the bots think in ``bot_processes`` worker processes, or in ``bot_workers`` threads when
    that is 0 (``bots.BotRunner``), at most ``bot_think`` seconds a decision.
    """

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.4,
        max_cached: int = 2000,
        bot_workers: int = 2,
        bot_processes: int = 0,
        bot_think: float = 60.0,
        limits: Limits | None = None,
        bot_specs: Callable[[str], Sequence[str]] = vetted_specs,
        waiting_ttl: float = WAITING_TTL,
        playing_ttl: float = PLAYING_TTL,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.max_cached = max_cached
        self.limits = limits or Limits()
        self.bot_specs = bot_specs
        self.waiting_ttl, self.playing_ttl = waiting_ttl, playing_ttl
        self.listeners: list[Listener] = []
        self.guards: list[Guard] = []
        self.decorators: list[Decorator] = []
        #: each says whether a game's guards and listeners are light enough for the event
        #: loop (``act_in_loop``): no database read or write for an ordinary move
        self.loop_quiet: list[Callable[[LiveGame], bool]] = []
        self.bots = BotRunner(bot_workers, processes=bot_processes, max_think=bot_think)
        self._remote = ThreadPoolExecutor(max_workers=16, thread_name_prefix="dicehall-remote")
        #: games with a catch-up queued, with the changes heard for each meanwhile (the
        #: appended actions, or None: read the game again)
        self._remote_pending: dict[str, list[Appended | None]] = {}
        self._remote_lock = threading.Lock()
        self._games: dict[str, LiveGame] = {}
        self._games_lock = threading.Lock()
        self._closed = False

    # -- life cycle -----------------------------------------------------
    def resume_all(self) -> int:
        """Load every unfinished game and let dice and bots carry on; returns how many."""
        count = 0
        for status in ("playing", "waiting"):
            for row in self.store.list_games(status, limit=10_000):
                live = self.get(row.id)
                with live.lock:
                    self._wake(live)
                count += 1
        return count

    def close(self) -> None:
        self._closed = True
        self.bots.close()
        self._remote.shutdown(wait=False, cancel_futures=True)

    def _wake(self, live: LiveGame) -> None:
        """Carry on a game that may have stopped with its process: start it when ready, roll
        pending dice, wake its bot. Caller holds the lock."""
        if live.row.status == "waiting" and self._ready(live):
            self._start(live)
        elif live.row.status == "playing":
            self._advance(live)

    def wake(self, live: LiveGame) -> None:
        """``_wake`` under the game's lock (a client came to a game that may have stopped)."""
        with live.lock:
            self._wake(live)

    @staticmethod
    def _ready(live: LiveGame) -> bool:
        return all(s.claimed and s.seeded for s in live.row.seats)

    # -- loading --------------------------------------------------------
    def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id`` (loaded from the log on first use)."""
        with self._games_lock:
            live = self._games.get(game_id)
        if live is not None:
            return live
        try:
            row = self.store.get_game(game_id)
        except NotFoundError:
            raise ServiceError.said(
                "unknown_game", N_("there is no game {id}"), id=repr(game_id)
            ) from None
        fresh = self._fold(row, self.store.load_actions(game_id))
        with self._games_lock:
            live = self._games.setdefault(game_id, fresh)
            if len(self._games) > self.max_cached:
                self._evict(game_id)
        if live is fresh:  # first touch in this process: carry on where the game stopped
            # ServiceError: another process moved it on; the fold is fresh again
            with live.lock, contextlib.suppress(ServiceError):
                self._wake(live)
        live.used = time.monotonic()
        return live

    def _evict(self, keep: str) -> None:
        """Forget games to stay under ``max_cached``: finished ones first, then the least
        recently used (they reload from the log). Caller holds ``_games_lock``."""
        order = sorted(
            self._games.items(),
            key=lambda kv: (kv[1].row.status == "playing", kv[1].used),
        )
        excess = len(self._games) - self.max_cached
        for gid, other in order:
            if excess <= 0:
                break
            if gid != keep and not other.bot_pending:
                del self._games[gid]
                excess -= 1

    def forget(self, game_id: str) -> None:
        """Drop the cached game (it reloads from the log when next touched); a game whose bot
        is about to move here stays (the bot catches up when its move is refused as stale)."""
        with self._games_lock:
            live = self._games.get(game_id)
            if live is not None and not live.bot_pending:
                del self._games[game_id]

    def cached(self, game_id: str) -> LiveGame | None:
        with self._games_lock:
            return self._games.get(game_id)

    def sync(self, live: LiveGame) -> list[LogEntry] | None:
        """Read what other processes committed to ``live`` and apply it (told to the
        listeners like any change); returns the new entries, or None when nothing changed.
        Caller holds the lock.

        A join calls this before it builds its snapshot: the other process's notification
        may not have arrived yet (it travels on its own connection), and a snapshot built
        from the copy cached here would then miss a committed move or seat; the later
        notification goes to the room only if the copy is still cached (``adopt``)."""
        entries = self._catch_up(live)
        if entries is not None:
            self._notify(live, entries)
        return entries

    def adopt(self, live: LiveGame) -> bool:
        """Make ``live`` the cached copy of its game again if a notification dropped it
        (``forget``: nobody watched the game here when the change was heard); True when it
        was put back. Caller holds the lock.

        A join holds its copy from ``get`` until its connection is in the room; a change
        heard in between finds no room and drops the copy, and every later notification
        then finds no cached game and is ignored: the room would hear nothing more from
        other processes. Put back, the copy is synced again (``sync``), since the change
        that dropped it may not be in the snapshot. When another copy was loaded meanwhile
        (another request touched the game), that one stays; ours is synced so the room gets
        what the snapshot lacked, and later changes reach the room from the cached one."""
        with self._games_lock:
            current = self._games.get(live.id)
            put_back = current is None
            if put_back:
                self._games[live.id] = current = live
        if current is live and not put_back:
            return False  # still the cached copy: every change heard reached it
        self.sync(live)
        return put_back

    def _fold(self, row: GameRow, actions: list[ActionRow]) -> LiveGame:
        game = load_recorded_game(row.game, row.options)  # older rows: the rules they had
        state = game.new_initial_state()
        dice = FairDice(row.server_seed, [s.player_seed for s in row.seats])
        live = LiveGame(row, game, state, dice)
        view = get_view(row.game)
        for a in actions:
            before = state
            if before.is_chance_node():
                expected, _ = chance_text(before, dice)
                if expected != a.text:
                    log.error(
                        "game %s action %d: log has %r, seed gives %r",
                        row.id,
                        a.seq,
                        a.text,
                        expected,
                    )
            state = before.apply_text(a.text)
            live.log.append(LogEntry(a.seq, a.actor, a.text))
            if a.actor >= 0:
                live.last = {
                    "seq": a.seq,
                    "actor": a.actor,
                    "text": a.text,
                    "detail": view.move_view(before, a.text, state),
                }
        live.state = state
        return live

    # -- creating and joining -------------------------------------------
    def create(
        self,
        game_name: str,
        options: dict[str, Any] | None = None,
        *,
        opponent: str = "random",
        seat: int | None = 0,
        name: str | None = None,
        seed: str | None = "",
        rematch_of: str | None = None,
        account_id: str | None = None,
        rated: bool = False,
    ) -> tuple[str, dict[int, str]]:
        """Create a game; returns its id and the creator's tokens by seat.

        ``opponent`` is an agent spec (``random``, ``bot``, ``bot:LEVEL``; one of
        ``bot_specs(game)``) for a game against the server, ``friend`` (the other seats stay
        open for people with the link) or ``local`` (two people at one device: the creator
        holds every seat).

        ``seed=None`` (what the web API does): the creator's seats wait for their player seed,
        sent with ``provide_seed`` once the commitment is public, and the game starts then. A
        string is taken as the seed at once: for trusted callers in the same process (tests,
        benchmarks), since a seed that arrives with the creation lets a server choose its seed
        after seeing it. ``account_id``: the creator is logged in; his seats are bound to the
        account. ``rated``: the game changes the ratings of its players (each needs an
        account: a rated game is against a bot or friends, never local).

        :raises ServiceError: ``bad_request`` for an unknown game, option, opponent or seat.
        """
        if not isinstance(game_name, str) or len(game_name) > 40:
            raise ServiceError("bad_request", "game must be a registered game name")
        try:
            self._check_options(game_name, options or {})
            game = load_game(game_name, **(options or {}))
        except DicehallError as exc:
            raise ServiceError("bad_request", clip(str(exc), 300)) from None
        if seed is not None:
            try:
                check_player_seed(seed)
            except FairnessError as exc:
                raise ServiceError("bad_request", clip(str(exc), 200)) from None
        n = game.num_players
        if seat is None:
            seat = random.SystemRandom().randrange(n)
        if not 0 <= seat < n:
            raise ServiceError.said(
                "bad_request", N_("seat must be 0..{last} for {game}"), last=n - 1, game=game.name
            )
        opponent = opponent.strip().lower()[:60]
        mode = opponent if opponent in ("friend", "local") else "bot"
        if rated and (account_id is None or mode == "local"):
            raise ServiceError(
                "bad_request",
                "a rated game needs you logged in and an opponent (a bot or a friend), "
                "not local play; guests play casual games",
            )
        if mode == "bot":
            allowed = list(self.bot_specs(game.name))
            if opponent == "human":
                raise ServiceError(
                    "bad_request", "opponent 'human': use friend (by link) or local instead"
                )
            if opponent not in allowed:
                raise ServiceError.said(
                    "bad_request",
                    N_("opponent {spec} is not offered for {game}; choose one of: {allowed}"),
                    spec=repr(clip(opponent, 30)),
                    game=game.name,
                    allowed=", ".join((*allowed, "friend", "local")),
                )
            try:
                probe = make_agent(game.name, opponent, seed=0)
            except AgentSpecError as exc:
                raise ServiceError("bad_request", str(exc)) from None
            if probe is None:
                raise ServiceError.said(
                    "bad_request", N_("opponent {spec} is not a bot"), spec=repr(opponent)
                )
        tokens: dict[int, str] = {}
        seats: list[SeatRow] = []
        you = _clean_name(name, "you")
        for i in range(n):
            if mode == "local" or i == seat:
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                label = f"{you} ({i + 1})" if mode == "local" else you
                seats.append(
                    SeatRow(
                        i,
                        "human",
                        "human",
                        label,
                        hash_token(token),
                        seed or "",
                        seeded=seed is not None,
                        account_id=account_id,
                    )
                )
            elif mode == "friend":
                seats.append(SeatRow(i, "human", "human", f"seat {i + 1}"))
            else:
                seats.append(SeatRow(i, "bot", opponent, opponent))
        server_seed = new_server_seed()
        now = time.time()
        row = GameRow(
            id=_new_id(),
            game=game.name,
            options=dict(game.options),
            mode=mode,
            status="waiting",
            server_seed=server_seed,
            commitment=commitment(server_seed),
            created=now,
            updated=now,
            rematch_of=rematch_of,
            seats=seats,
            rated=bool(rated),
        )
        self.store.create_game(row)
        self.get(row.id)  # folds it and, when every seat is ready, rolls the first dice
        return row.id, tokens

    def _check_options(self, game_name: str, options: dict[str, Any]) -> None:
        """Refuse integer options beyond ``OPTION_CAP`` where the game states no maximum (a
        huge purse or turn limit costs memory and time in every fold)."""
        if not isinstance(options, dict) or len(options) > 20:
            raise ServiceError("bad_request", "options must be an object of at most 20 options")
        try:
            specs = {o.name: o for o in game_class(game_name).option_specs}
        except (DicehallError, ImportError, KeyError):
            return  # load_game says what is wrong with the name
        for key, value in options.items():
            spec = specs.get(key)
            if (
                spec is not None
                and spec.type is int
                and spec.maximum is None
                and isinstance(value, int | str)
                and not isinstance(value, bool)
            ):
                try:
                    number = int(value)
                except ValueError:
                    continue  # the option's parser says why
                if number > OPTION_CAP:
                    raise ServiceError.said(
                        "bad_request",
                        N_("option {key}: at most {cap} on this server (got {value})"),
                        key=key,
                        cap=OPTION_CAP,
                        value=clip(str(value), 20),
                    )

    def join(
        self,
        game_id: str,
        seat: int | None,
        name: str | None,
        seed: str | None = "",
        account_id: str | None = None,
    ) -> tuple[int, str]:
        """Claim an open seat (the first open one when ``seat`` is None); returns its token.

        The game's commitment is public before anybody can join it, so the joiner's seed may
        come with the join; ``seed=None``: it comes later, with ``provide_seed``.
        ``account_id``: the joiner is logged in; the seat is bound to the account.
        """
        if seed is not None:
            try:
                check_player_seed(seed)
            except FairnessError as exc:
                raise ServiceError("bad_request", clip(str(exc), 200)) from None
        live = self.get(game_id)
        with live.lock:
            open_seats = [s.seat for s in live.row.seats if not s.claimed]
            if not open_seats:
                raise ServiceError("seat_taken", "every seat of this game is taken; watch it")
            if seat is None:
                seat = open_seats[0]
            if live.row.rated and account_id is None:
                raise ServiceError(
                    "not_logged_in", "log in to play a rated game; guests play casual games"
                )
            if live.row.rated and any(s.account_id == account_id for s in live.row.seats):
                raise ServiceError("seat_taken", "you already have a seat in this rated game")
            if seat not in open_seats:
                raise ServiceError.said(
                    "seat_taken",
                    N_("seat {seat} is taken; open: {open}"),
                    seat=seat + 1,
                    open=", ".join(str(s + 1) for s in open_seats),
                )
            token = secrets.token_urlsafe(24)
            label = _clean_name(name, f"guest {seat + 1}")
            if not self.store.claim_seat(
                game_id,
                seat,
                label,
                hash_token(token),
                seed or "",
                seeded=seed is not None,
                seq=live.seq,
                account_id=account_id,
            ):
                self._reload(live)
                raise ServiceError(
                    "seat_taken",
                    f"seat {seat + 1} was just taken",
                    detail=error_messages.seat_taken_detail(seat),
                )
            s = live.row.seats[seat]
            s.name, s.token_hash = label, hash_token(token)
            s.player_seed, s.seeded = seed or "", seed is not None
            s.account_id = account_id
            live.dice = FairDice(live.row.server_seed, [x.player_seed for x in live.row.seats])
            live.touch()
            if self._ready(live):
                self._start(live)
            else:
                self._notify(live, [])
            return seat, token

    def resign(self, game_id: str, seats: Sequence[int]) -> int:
        """The holder of ``seats`` resigns: the game ends at once and his seat loses.
        Returns the seat that resigned (the one to move among ``seats``, else the first).

        The result: -1 for the resigning seat, +1 for every other (in a White Die game of 3
        to 6 players the others share the win). Backgammon resigns a single game (or a
        match) outright; resigning a gammon or backgammon comes with match play.

        :raises ServiceError: ``not_your_seat`` without a seat, ``not_started`` before the
            game starts, ``game_over`` after it ended.
        """
        live = self.get(game_id)
        with live.lock:
            mine = [s for s in seats if 0 <= s < len(live.row.seats)]
            if not mine:
                raise ServiceError("not_your_seat", "resign needs the token of one of your seats")
            if live.row.status == "waiting":
                raise ServiceError("not_started", "the game has not started: leave it instead")
            if live.row.status != "playing" or live.state.is_terminal():
                raise ServiceError("game_over", "the game is over")
            to_move = live.state.current_player()
            seat = to_move if to_move in mine else mine[0]
            if not self.finish_game(live, loss_for(len(live.row.seats), seat), f"resign:{seat}"):
                raise ServiceError("game_over", "the game ended first")
            return seat

    def finish_game(
        self,
        live: LiveGame,
        result: list[float],
        ended: str,
        *,
        status: str = "finished",
        if_seq: int | None = None,
    ) -> bool:
        """End the game in play ``live`` other than by its rules (``ended``: ``resign:SEAT``,
        ``time:SEAT``, ``abandon:SEAT``, ``aborted``) with ``result``, commit and publish;
        False (and the game reloaded) when it was not in play any more. ``if_seq``: only if
        no action came after that one (see ``Store.finish``). Caller holds the lock."""
        if not self.store.finish(
            live.id, result, ended, seq=live.seq, status=status, if_seq=if_seq
        ):
            self._reload(live)
            return False
        live.row.status, live.row.result, live.row.ended = status, result, ended
        self._cancel_bot(live)
        live.touch()
        self._notify(live, [])
        return True

    def resume(self, game_id: str, account_id: str) -> dict[int, str]:
        """New tokens for the seats of ``game_id`` bound to ``account_id``: its player goes on
        from another browser (the tokens held before stop working). Empty: no seat is his."""
        live = self.get(game_id)
        tokens: dict[int, str] = {}
        with live.lock:
            for s in live.row.seats:
                if s.account_id != account_id:
                    continue
                token = secrets.token_urlsafe(24)
                if self.store.rebind_token(game_id, s.seat, account_id, hash_token(token)):
                    s.token_hash = hash_token(token)
                    tokens[s.seat] = token
            live.touch()
        return tokens

    def provide_seed(self, game_id: str, seats: Sequence[int], seed: str) -> list[int]:
        """Give the held ``seats`` that wait for it their player seed; returns those seeded.

        The game, and so its commitment, exists already: the server seed was fixed before
        this seed arrived. The game starts when every seat has its seed.

        :raises ServiceError: ``not_your_seat`` without a seat, ``already_seeded`` when the
            seats have their seeds, ``bad_request`` for a seed that is too long.
        """
        try:
            check_player_seed(seed)
        except FairnessError as exc:
            raise ServiceError("bad_request", clip(str(exc), 200)) from None
        live = self.get(game_id)
        with live.lock:
            if not seats:
                raise ServiceError("not_your_seat", "only a player can give a seat its seed")
            waiting = [s for s in seats if not live.row.seats[s].seeded]
            if not waiting:
                entries = self._catch_up(live)
                if entries is not None:
                    self._notify(live, entries)
                waiting = [s for s in seats if not live.row.seats[s].seeded]
            if not waiting:
                raise ServiceError(
                    "already_seeded", "your seats have their seeds: a seed cannot change"
                )
            done = []
            for s in waiting:
                if self.store.set_seed(live.id, s, seed, seq=live.seq):
                    row = live.row.seats[s]
                    row.player_seed, row.seeded = seed, True
                    done.append(s)
            live.dice = FairDice(live.row.server_seed, [x.player_seed for x in live.row.seats])
            live.touch()
            if self._ready(live) and live.row.status == "waiting":
                self._start(live)
            else:
                self._notify(live, [])
            return done

    def seats_for(self, live: LiveGame, tokens: Sequence[str]) -> list[int]:
        """The seats the given tokens hold (invalid tokens hold none). A token this process
        does not know may be a seat taken through another process: it looks again."""
        tokens = [t for t in tokens[: self.limits.max_tokens] if isinstance(t, str)]
        hashes = {hash_token(t) for t in tokens}
        seats = [s.seat for s in live.row.seats if s.token_hash and s.token_hash in hashes]
        if len(seats) < len(hashes) and any(not s.claimed for s in live.row.seats):
            with live.lock:
                entries = self._catch_up(live)
                if entries is not None:
                    self._notify(live, entries)
            seats = [s.seat for s in live.row.seats if s.token_hash and s.token_hash in hashes]
        return seats

    # -- acting ---------------------------------------------------------
    def act(
        self,
        game_id: str,
        seats: Sequence[int],
        text: str,
        expected_seq: int | None = None,
    ) -> int:
        """Apply ``text`` for the seat to move if it is one of ``seats``; returns the new seq."""
        if not isinstance(text, str) or len(text) > self.limits.max_action:
            raise ServiceError(
                "too_long",
                f"an action is a string of at most {self.limits.max_action} characters",
                detail=error_messages.too_long_detail(self.limits.max_action),
            )
        live = self.get(game_id)
        with live.lock:
            try:
                return self._act(live, seats, text, expected_seq)
            except ServiceError as exc:
                # another process may have moved the game on: catch up and try once more;
                # what was caught up is told with the act's own update (``missed``)
                if exc.code not in _STALE_CODES:
                    raise
                seen = live.seq
                if self._catch_up(live) is None:
                    raise
                live.missed.extend(e for e in live.log if e.seq > seen)
                return self._act(live, seats, text, expected_seq)

    def _act(
        self, live: LiveGame, seats: Sequence[int], text: str, expected_seq: int | None
    ) -> int:
        decided, state, hints = self._decide(live, seats, text, expected_seq)
        self._commit(live, decided, state, hints=hints)
        return live.seq

    def _decide(
        self, live: LiveGame, seats: Sequence[int], text: str, expected_seq: int | None
    ) -> tuple[list[tuple[int, str]], State, list[int]]:
        """The checks of an act of ``seats``, and what it decides: the action as the log
        keeps it, the state after it, its place in the legal actions (``_commit``'s
        arguments). Caller holds the lock."""
        if live.row.status == "abandoned":
            raise ServiceError("game_over", "the game was abandoned (nobody played for too long)")
        if live.row.status == "waiting":
            raise ServiceError(
                "not_started", "the game waits for players to take their seats and send seeds"
            )
        if live.row.status == "finished" or live.state.is_terminal():
            raise ServiceError("game_over", "the game is over")
        if expected_seq is not None and expected_seq != live.seq:
            raise ServiceError(
                "stale",
                f"the game has moved on (action {live.seq}, you saw {expected_seq}); "
                "look at the board again",
                detail=error_messages.stale_detail(live.seq, expected_seq),
            )
        to_move = live.state.current_player()
        if not seats:
            raise ServiceError("not_your_seat", "you hold no seat in this game: you can watch")
        if to_move not in seats:
            raise ServiceError(
                "out_of_turn",
                f"it is not your turn (seat {to_move + 1} to move)"
                if to_move >= 0
                else "it is not your turn",
                detail=error_messages.out_of_turn_detail(to_move) if to_move >= 0 else None,
            )
        for guard in self.guards:  # the clock: a move after the flag fell loses on time
            guard(live, to_move)
        if not isinstance(text, str) or not text.strip():
            raise ServiceError("illegal_action", "empty action", live.state.legal_texts())
        known = self._known_action(live, text)
        hint = -1
        if known is not None:  # one of the canonical texts sent with the position
            action, hint = known
            canonical = text
        else:
            try:
                action = live.state.parse_action(text)
            except IllegalActionError as exc:
                detail = error_messages.illegal_detail(
                    clip(exc.action, self.limits.max_echo), exc.reason, exc.legal
                )
                raise ServiceError(
                    "illegal_action", self._quote(str(exc), text), exc.legal, detail
                ) from None
            canonical = live.state.action_to_text(action)
        return [(to_move, canonical)], live.state.apply(action), [hint]

    def _known_action(self, live: LiveGame, text: str) -> tuple[Any, int] | None:
        """The legal action whose canonical text is ``text``, when the legal texts of this
        position were built already (they were sent to the mover, whose client sends one of
        them back): found by its place in ``legal_actions()`` instead of parsing the text
        again (the parse, and the formatting of the parsed play, were a tenth of an
        action's cost). None if the texts were not built here or ``text`` is not one of
        them exactly once (then the text is parsed, with its full error messages). Returns
        the action and its place."""
        by_text: dict[str, int] | None = live.cache.get("by_text")
        if by_text is None:
            legal = live.cache.get("legal")
            if legal is None or len(live.state.legal_actions()) != len(legal):
                return None
            # the places only: the actions themselves are made one at a time when asked
            # (backgammon's listing builds each play's object on first access, and making
            # all of them to pick one was 6% of a worker's time at 500 games)
            by_text = {}
            for i, t in enumerate(legal):
                by_text[t] = i if t not in by_text else -1  # a repeated text: parse it
            live.cache["by_text"] = by_text
        index = by_text.get(text, -1)
        return (live.state.legal_actions()[index], index) if index >= 0 else None

    def _quote(self, message: str, text: str) -> str:
        """A rules error about ``text``, quoting at most ``max_echo`` characters of it."""
        if len(text) > self.limits.max_echo:
            message = message.replace(text, clip(text, self.limits.max_echo))
            message = message.replace(text.strip(), clip(text.strip(), self.limits.max_echo))
        return clip(message, 300)

    def _commit(
        self,
        live: LiveGame,
        decided: list[tuple[int, str]],
        state: State,
        status: str | None = None,
        hints: Sequence[int] | None = None,
    ) -> None:
        """Append ``decided`` plus the dice that follow it, then publish. Caller holds the lock.
        ``hints``: each decided action's place in the legal actions where it was played (-1:
        unknown), for the other processes (``LogEntry.hint``)."""
        plan = self._plan(live, decided, state, status, hints)
        try:
            if plan.new:
                self.store.append_actions(
                    live.id,
                    live.seq + 1,
                    plan.new,
                    status=plan.status,
                    result=plan.result,
                    hints=plan.placed,
                )
            elif plan.status is not None:
                self.store.set_status(live.id, plan.status, seq=live.seq)
        except ConflictError as exc:
            live.dice.counter = plan.counter
            self._reload(live)
            raise ServiceError("stale", str(exc)) from None
        except Exception:
            live.dice.counter = plan.counter
            raise
        self._apply_plan(live, plan)

    def _plan(
        self,
        live: LiveGame,
        decided: list[tuple[int, str]],
        state: State,
        status: str | None = None,
        hints: Sequence[int] | None = None,
    ) -> _Plan:
        """What ``_commit`` writes: ``decided`` plus the dice rolled after it (the dice's
        counter moves on: ``_Plan.counter`` puts it back if the write fails)."""
        view = get_view(live.row.game)
        counter = live.dice.counter
        new = list(decided)
        last = live.last
        if decided:
            actor, text = decided[-1]
            last = {
                "seq": live.seq + len(decided),
                "actor": actor,
                "text": text,
                "detail": view.move_view(live.state, text, state),
            }
        try:
            while state.current_player() == CHANCE:
                # the outcome applied as it was drawn (its text is what the log keeps:
                # parsing it back was 2-3% of a worker's time)
                outcome, text, _faces = chance_outcome(state, live.dice)
                new.append((-1, text))
                state = state.apply(outcome)
            terminal = state.current_player() == TERMINAL
        except Exception:
            live.dice.counter = counter
            raise
        if terminal:
            status = "finished"
        placed = [*(hints or [-1] * len(decided)), *[-1] * (len(new) - len(decided))]
        result = state.returns() if terminal else None
        return _Plan(new, placed, state, status, result, last, counter)

    def _apply_plan(self, live: LiveGame, plan: _Plan) -> None:
        """The written ``plan`` into ``live``, then published. Caller holds the lock."""
        first = live.seq + 1
        placed = plan.placed
        entries = [LogEntry(first + i, a, t, placed[i]) for i, (a, t) in enumerate(plan.new)]
        live.log.extend(entries)
        state = plan.state
        live.state = state
        live.last = plan.last
        if plan.status is not None:
            live.row.status = plan.status
        if state.is_terminal():
            live.row.result = state.returns()
        live.touch()
        self._notify(live, entries)
        self._schedule_bot(live)

    async def act_in_loop(
        self,
        game_id: str,
        seats: Sequence[int],
        text: str,
        expected_seq: int | None = None,
        before_publish: Callable[[], None] | None = None,
    ) -> int | None:
        """``act`` run in the event loop, its append awaited (``Store.append_in_loop``: on
        PostgreSQL libpq's non-blocking interface, on SQLite the writer thread): no act
        thread for an ordinary move of a cached game in play. Returns the new seq, or None
        when it was not done here (the caller runs ``act`` in a thread, which does
        everything this leaves to it): a game not cached, in use (its lock taken, or
        another act of it awaiting its append here), a stale act (the thread catches up),
        an act that ends the game (its listeners write the rating), a game with a bot or a
        clock (their listeners read and write the database), a conflict (the thread's
        append finds it again and reads the game back), no idle connection, a failed
        write. ``before_publish`` is called just before the
        listeners hear of the commit (synchronously: the hub takes the act's ``ref``).

        The game's lock is held across the await: threads wanting it wait (nothing the
        loop needs waits for them), and code of this thread that would take it again (an
        ``RLock``) finds ``LiveGame.in_loop`` set and goes to a thread. The order of a
        game's actions is the database's, as for threads: the unique action number."""
        if not self.store.appends_in_loop or self._closed:
            return None
        if not isinstance(text, str) or len(text) > self.limits.max_action:
            return None  # ``act`` answers it
        live = self.cached(game_id)
        if live is None or live.in_loop or live.row.status != "playing":
            return None
        if any(s.kind == "bot" for s in live.row.seats) or live.missed:
            return None
        if not all(quiet(live) for quiet in self.loop_quiet):
            return None
        if not live.lock.acquire(blocking=False):
            return None
        live.in_loop = True
        try:
            with self._remote_lock:
                if game_id in self._remote_pending:  # news of it queued: the thread applies it
                    return None
            try:
                plan = self._plan_act(live, seats, text, expected_seq)
            except ServiceError as exc:
                if exc.code in _STALE_CODES:
                    return None  # another process may have moved on: the thread catches up
                raise
            if plan is None:
                return None
            if plan.status is not None or not plan.new:
                live.dice.counter = plan.counter
                return None
            try:
                done = await self.store.append_in_loop(
                    live.id, live.seq + 1, plan.new, hints=plan.placed
                )
            except ConflictError:
                done = False
            except BaseException:
                live.dice.counter = plan.counter
                raise
            if not done:
                live.dice.counter = plan.counter
                return None
            if before_publish is not None:
                before_publish()
            self._apply_plan(live, plan)
            return live.seq
        finally:
            live.in_loop = False
            live.lock.release()

    def _plan_act(
        self, live: LiveGame, seats: Sequence[int], text: str, expected_seq: int | None
    ) -> _Plan | None:
        """``_act`` up to its write: the checks, the action, the dice after it; None when
        a guard changed the game (the thread's ``act`` does it again)."""
        version = live.version
        decided, state, hints = self._decide(live, seats, text, expected_seq)
        if live.version != version:
            return None
        return self._plan(live, decided, state, hints=hints)

    def _reload(self, live: LiveGame) -> None:
        fresh = self._fold(self.store.get_game(live.id), self.store.load_actions(live.id))
        live.row, live.state, live.dice, live.log, live.last = (
            fresh.row,
            fresh.state,
            fresh.dice,
            fresh.log,
            fresh.last,
        )
        live.missed.clear()  # what a reload tells is the whole log
        live.touch()

    def _catch_up(self, live: LiveGame) -> list[LogEntry] | None:
        """Apply what other processes committed to ``live`` since we last looked (its row and
        the new actions); returns the new entries, or None when nothing changed. Caller holds
        the lock."""
        row = self.store.get_game(live.id)
        actions = self.store.load_actions(live.id, after=live.seq)
        changed = bool(actions) or _row_key(row) != _row_key(live.row)
        if not changed:
            return None
        if [s.player_seed for s in row.seats] != [s.player_seed for s in live.row.seats]:
            self._reload(live)  # seeds change only before the first roll: fold again
            return list(live.log)
        view = get_view(row.game)
        state = live.state
        entries: list[LogEntry] = []
        for a in actions:
            if a.seq != live.seq + len(entries) + 1:  # a gap: fold again from the start
                self._reload(live)
                return list(live.log)
            before = state
            state = _apply_logged(before, live.dice, a.text)
            entries.append(LogEntry(a.seq, a.actor, a.text))
            if a.actor >= 0:
                live.last = {
                    "seq": a.seq,
                    "actor": a.actor,
                    "text": a.text,
                    "detail": view.move_view(before, a.text, state),
                }
        live.row = row
        live.state = state
        live.log.extend(entries)
        live.touch()
        return entries

    def on_remote(self, game_id: str, seq: int, appended: Appended | None = None) -> None:
        """Another process changed ``game_id`` (``appended``: the actions it appended, from
        its notification): catch the cached game up and tell the listeners; a game not
        cached here is left to load when touched.

        An append heard while nothing of the game is queued and its lock is free is applied
        at once, in the calling thread (the listener's: the work is the interpreter's, so a
        worker thread would not do it sooner, and handing it over was a thread hand-over
        per action); anything else (the lock held by a commit, a change that must be read
        from the database) goes to a worker thread, so the listener never waits."""
        live = self.cached(game_id)
        if live is None or self._closed:
            return
        with self._remote_lock:
            queued = self._remote_pending.get(game_id)
            if queued is not None:
                queued.append(appended)  # the queued or running catch-up takes this one too
                return
            # (not while an act of the game awaits its append in the event loop: this may
            # be the loop's thread, for which the lock would be taken again)
            inline = appended is not None and not live.in_loop and live.lock.acquire(blocking=False)
            # running (inline) or queued: what is heard meanwhile waits here, in order
            self._remote_pending[game_id] = [] if inline else [appended]
        if inline:
            try:
                entries = self._apply_appended(live, [appended])
                if entries:
                    self._notify(live, entries)
            except Exception:
                entries = None
                log.exception("catching up game %s failed", game_id)
            finally:
                live.lock.release()
            with self._remote_lock:
                later = self._remote_pending[game_id]
                if entries is None:
                    later.insert(0, None)  # not applied (a gap, a status): read the game
                elif not later:
                    del self._remote_pending[game_id]
                    return
        self._remote.submit(self._remote_catch_up, game_id)

    def _remote_catch_up(self, game_id: str) -> None:
        """Apply what was heard of ``game_id``, in the order heard: the game stays in
        ``_remote_pending`` while this runs, so what is heard meanwhile is taken by this same
        task afterwards (two tasks of one game in the pool could otherwise run out of order,
        see a gap and read the log back)."""
        while True:
            with self._remote_lock:
                changes = self._remote_pending.get(game_id)
                if not changes:
                    self._remote_pending.pop(game_id, None)
                    return
                self._remote_pending[game_id] = []  # still running: later news waits here
            live = self.cached(game_id)
            if live is None:
                continue
            try:
                with live.lock:
                    entries = self._apply_appended(live, changes)
                    if entries is None:
                        entries = self._catch_up(live)  # None: nothing changed after all
                    elif not entries:
                        entries = None  # every action heard was here already
                    if entries is not None:
                        self._notify(live, entries)
            except Exception:
                log.exception("catching up game %s failed", game_id)

    def _apply_appended(
        self, live: LiveGame, changes: list[Appended | None]
    ) -> list[LogEntry] | None:
        """Apply the actions other processes appended, as their notifications carried them,
        without reading the log; None when that cannot be done (a change that was not an
        append, a gap: ``_catch_up`` reads the database then). Caller holds the lock."""
        if not changes or any(c is None for c in changes):
            return None
        if live.row.status not in ("playing", "waiting"):
            return None
        view = get_view(live.row.game)
        state, last, status = live.state, live.last, live.row.status
        counter = live.dice.counter
        entries: list[LogEntry] = []
        try:
            for change in changes:
                assert change is not None
                if change.last <= live.seq + len(entries):
                    continue  # already here (a catch-up read it)
                if change.first != live.seq + len(entries) + 1:
                    live.dice.counter = counter
                    return None  # a gap: read the log
                hints = change.hints or (-1,) * len(change.actions)
                for i, (actor, text) in enumerate(change.actions):
                    before = state
                    if before.is_chance_node():
                        state = _apply_logged(before, live.dice, text)
                    else:
                        # taken by its place where the text there is the same (no parse)
                        action = listed_action(view, before, hints[i], text)
                        state = before.apply_text(text) if action is None else before.apply(action)
                    seq = change.first + i
                    entries.append(LogEntry(seq, actor, text))
                    if actor >= 0:
                        last = {
                            "seq": seq,
                            "actor": actor,
                            "text": text,
                            "detail": view.move_view(before, text, state),
                        }
                if change.status is not None:
                    status = change.status
        except Exception:  # the log disagrees with what was heard: read it
            live.dice.counter = counter
            log.exception("applying the actions heard for game %s failed", live.id)
            return None
        if not entries:
            return []
        live.log.extend(entries)
        live.state, live.last, live.row.status = state, last, status
        if state.is_terminal():
            live.row.result = state.returns()
        live.row.updated = time.time()
        live.touch()
        return entries

    def expire(self, now: float | None = None) -> list[str]:
        """Mark abandoned the games that waited ``waiting_ttl`` or sat in play ``playing_ttl``
        seconds without a change (their players are told); returns their ids."""
        now = time.time() if now is None else now
        ids = self.store.expire(
            waiting_before=now - self.waiting_ttl, playing_before=now - self.playing_ttl
        )
        for game_id in ids:
            live = self.cached(game_id)
            if live is not None:
                with live.lock:
                    live.row.status = "abandoned"
                    self._cancel_bot(live)
                    live.touch()
                    self._notify(live, [])
        return ids

    def _start(self, live: LiveGame) -> None:
        """All seats are taken: roll the first dice and let bots play. Caller holds the lock."""
        live.dice = FairDice(live.row.server_seed, [s.player_seed for s in live.row.seats])
        if live.row.status == "waiting":
            self._commit(live, [], live.state, status="playing")
        else:
            self._advance(live)

    def _advance(self, live: LiveGame) -> None:
        """Roll pending dice (after a crash) and wake the bot to move. Caller holds the lock."""
        if live.state.is_chance_node():
            self._commit(live, [], live.state)
        else:
            self._schedule_bot(live)

    # -- bots -----------------------------------------------------------
    def _cancel_bot(self, live: LiveGame) -> None:
        """The game ended other than by a move (resigned, abandoned): stop its bot's
        decision, waiting or running. Caller holds the lock."""
        if live.bot_pending:
            self.bots.cancel(live.id)
            live.bot_pending = False

    def _bot_seat(self, live: LiveGame) -> int | None:
        if live.row.status != "playing":
            return None
        seat = live.state.current_player()
        if seat < 0 or live.row.seats[seat].kind != "bot":
            return None
        return seat

    def _schedule_bot(self, live: LiveGame) -> None:
        """Hand the bot to move its decision (state, spec, secret seed) to the pool. Caller
        holds the lock."""
        seat = self._bot_seat(live)
        if self._closed or live.bot_pending or seat is None:
            return
        live.bot_pending = True
        job = BotJob(
            key=live.id,
            game=live.row.game,
            spec=live.row.seats[seat].spec,
            seed=bot_seed(live.row.server_seed, seat, live.seq),
            state=live.state,
        )
        # a bounded pool: bots wait their turn there; a game that ends meanwhile cancels it
        self.bots.submit(job, self.bot_delay, lambda j, t, e: self._bot_done(live, seat, j, t, e))

    def _bot_done(
        self, live: LiveGame, seat: int, job: BotJob, text: str | None, error: BaseException | None
    ) -> None:
        """The pool decided (a callback thread): play it if the game is still where it was."""
        try:
            with live.lock:
                live.bot_pending = False
                if error is not None:  # a broken bot (or its process died): the game goes on
                    log.error(
                        "bot %s failed in game %s: %s; the random player moves",
                        job.spec,
                        live.id,
                        error,
                    )
                    text = job.fallback()
                if (
                    self._closed
                    or live.row.status != "playing"
                    or live.state is not job.state
                    or self._bot_seat(live) != seat
                ):
                    self._schedule_bot(live)  # the game moved on: decide again if it is ours
                    return
                try:
                    assert text is not None
                    self._act(live, [seat], text, live.seq)  # schedules the next bot turn
                except ServiceError as exc:
                    if exc.code != "stale":  # stale: another process moved first
                        raise
                    self._schedule_bot(live)
        except Exception:  # a broken bot must not take the server down; a restart retries
            log.exception("bot failed in game %s", live.id)
            live.bot_pending = False

    # -- publishing -----------------------------------------------------
    def _notify(self, live: LiveGame, entries: list[LogEntry]) -> None:
        if entries and live.missed:  # in order: the missed entries came first
            entries = [*live.missed, *entries]
            live.missed.clear()
        for listen in list(self.listeners):
            try:
                listen(live, entries)
            except Exception:
                log.exception("listener failed")

    def fairness(self, live: LiveGame) -> dict[str, Any]:
        info: dict[str, Any] = {
            "scheme": SCHEME,
            "commitment": live.row.commitment,
            "player_seeds": [s.player_seed for s in live.row.seats],
            "server_seed": live.row.server_seed if live.row.status == "finished" else None,
        }
        return info

    def public(self, live: LiveGame) -> dict[str, Any]:
        """The part of a snapshot that is the same for everybody (cached per action)."""
        cached = live.cache.get("public")
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        view = get_view(live.row.game)
        state = live.state
        to_move = state.current_player()
        terminal = state.is_terminal()
        out = {
            "id": live.id,
            "game": live.row.game,
            "title": live.game.title,
            "options": dict(live.row.options),
            "mode": live.row.mode,
            "rated": live.row.rated,
            "status": live.row.status,
            "seq": live.seq,
            "players": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "spec": s.spec,
                    "claimed": s.claimed,
                    "seeded": s.seeded,
                    "account": s.account_id is not None,
                }
                for s in live.row.seats
            ],
            "to_move": to_move if to_move >= 0 and live.row.status == "playing" else None,
            "view": view.state_view(state),
            "last": live.last,
            "returns": state.returns() if terminal else live.row.result,
            "summary": view.summary(state) if terminal else _ended_summary(live.row),
            "ended": live.row.ended,
            "fairness": self.fairness(live),
            "rematch": live.row.rematch,
            "rematch_of": live.row.rematch_of,
        }
        live.cache["public"] = out
        return out

    def snapshot(self, live: LiveGame, seats: Sequence[int]) -> dict[str, Any]:
        """The snapshot for a client holding ``seats`` (legal moves only for the seat to move)."""
        with live.lock:
            out = dict(self.public(live))
            out["log"] = [e.to_dict() for e in live.log]
            out["text"] = self._text(live)
            out["you"] = list(seats)
            for decorate in self.decorators:
                decorate(live, out)
            to_move = out["to_move"]
            if to_move is not None and to_move in seats:
                out["legal"], out["moves"] = self._legal(live)
            else:
                out["legal"] = None
                out["moves"] = None
            return out

    def _text(self, live: LiveGame) -> str:
        """The plain-text board (cached per action)."""
        text = live.cache.get("text")
        if text is None:
            text = live.cache["text"] = live.state.render(None)
        return text

    def _legal(self, live: LiveGame) -> tuple[list[str], Any]:
        """The legal action texts and the board's move view of the seat to move (cached; the
        view read back from ``_legal_json``'s text, which is what updates need)."""
        cache = live.cache
        if "moves" not in cache:
            cache["moves"] = orjson.loads(self._legal_json(live)[1])
        return cache["legal"], cache["moves"]

    def _legal_json(self, live: LiveGame) -> tuple[str, str]:
        """The legal action texts and the move view of the seat to move as JSON text (cached;
        the texts themselves are cached as ``legal``). A view may write its JSON without
        building its objects (backgammon's click graph: ``legal_texts_and_json``)."""
        cache = live.cache
        if "moves_json" not in cache:
            view = get_view(live.row.game)
            cache["legal"], cache["moves_json"] = legal_texts_and_json(view, live.state)
            cache["legal_json"] = dumps(cache["legal"])
        return cache["legal_json"], cache["moves_json"]

    def update_messages(
        self,
        live: LiveGame,
        entries: list[LogEntry],
        for_mover: Callable[[int], bool] | None = None,
    ) -> tuple[str, str | None, int | None]:
        """The ``update`` message after a change, serialised once for every connection:
        ``(for watchers and seats not to move, for the seat to move, that seat)``.
        ``for_mover(seat)``: whether anybody here holds the seat to move; if not, its legal
        moves (the costliest part) are not computed (its holder is connected to another
        process, which builds them there).

        An update is the snapshot without the log (the client keeps it) and without ``you``,
        plus ``entries``, the log entries added since the previous update. Caller holds the
        lock (this runs in the committing thread, not in the event loop).
        """
        public = self.public(live)
        out = dict(public)
        # the text board is what the generic board draws; a game with a board view of its
        # own draws that (the text comes with snapshots: rendering it was a tenth of the
        # cost of an action)
        out["text"] = self._text(live) if _text_board(live.row.game) else None
        out["type"] = "update"
        out["v"] = PROTOCOL_VERSION
        out["entries"] = [e.to_dict() for e in entries]
        for decorate in self.decorators:
            decorate(live, out)
        # serialised once: the mover's message is the same object with two more fields
        body = dumps(out)[:-1]
        plain = body + ',"legal":null,"moves":null}'
        to_move = public["to_move"]
        if to_move is None or live.row.seats[to_move].kind != "human":
            return plain, None, None
        if for_mover is not None and not for_mover(to_move):
            return plain, None, None
        legal, moves = self._legal_json(live)
        return plain, f'{body},"legal":{legal},"moves":{moves}}}', to_move

    # -- records, replays, rematches --------------------------------------
    def record(self, game_id: str) -> Record:
        live = self.get(game_id)
        with live.lock:
            record = Record(
                game=live.row.game,
                options=dict(live.row.options),
                players=[s.name for s in live.row.seats],
                actions=[e.text for e in live.log],
                meta={
                    "id": live.id,
                    "server": "dicehall serve",
                    "status": live.row.status,
                    "created": live.row.created,
                    "actors": [e.actor for e in live.log],
                    "fairness": self.fairness(live),
                },
            )
            if live.state.is_terminal():
                record.meta["returns"] = live.state.returns()
            elif live.row.ended:  # resigned: the position is not final, the result is
                record.meta["ended"] = live.row.ended
                record.meta["result"] = live.row.result
        # every roll with its dice, so the browser can recompute them from the seeds
        checks = check_rolls(record, live.row.server_seed, record.meta["fairness"]["player_seeds"])
        record.meta["fairness"]["rolls"] = [c.to_dict() for c in checks]
        return record

    def board_svg(
        self,
        game_id: str,
        ply: int | None = None,
        *,
        orientation: int | None = None,
        size: int | None = None,
    ) -> str:
        """The board of ``game_id`` after ``ply`` actions (default: now) as an SVG image, its
        last action marked: for thumbnails, links and feeds (``dicehall.svg.board_svg``).

        :raises ServiceError: ``unknown_game``; ``bad_request`` for a ply outside
            0..length, an orientation that is no seat or a size outside 16..2000.
        """
        from dicehall.svg import board_svg

        live = self.get(game_id)
        with live.lock:
            texts = [e.text for e in live.log]
            current = live.state
        if ply is not None and not 0 <= ply <= len(texts):
            raise ServiceError.said(
                "bad_request",
                N_("ply is 0..{last} for this game, not {ply}"),
                last=len(texts),
                ply=ply,
            )
        if size is not None and not 16 <= size <= 2000:
            raise ServiceError.said(
                "bad_request", N_("size is 16..2000 pixels, not {size}"), size=size
            )
        if orientation is not None and orientation not in range(live.game.num_players):
            seats = live.game.num_players - 1
            raise ServiceError.said(
                "bad_request", N_("orientation is a seat 0..{last}"), last=seats
            )
        if ply is None or ply == len(texts):
            state, last = current, (texts[-1] if texts else None)
        else:
            state = live.game.new_initial_state()
            for text in texts[:ply]:
                state = state.apply(state.parse_action(text))
            last = texts[ply - 1] if ply else None
        return board_svg(state, orientation=orientation, last_move=last, size=size)

    def frames(self, game_id: str) -> list[dict[str, Any]]:
        """Every state of the game for the replay viewer: the view after each action."""
        live = self.get(game_id)
        with live.lock:
            entries = list(live.log)
        view = get_view(live.row.game)
        state = live.game.new_initial_state()
        frames: list[dict[str, Any]] = [
            {
                "seq": 0,
                "actor": None,
                "text": None,
                "view": view.state_view(state),
                "last": None,
                "to_move": _seat_or_none(state),
            }
        ]
        last: dict[str, Any] | None = None
        for e in entries:
            before = state
            state = state.apply_text(e.text)
            if e.actor >= 0:
                last = {
                    "seq": e.seq,
                    "actor": e.actor,
                    "text": e.text,
                    "detail": view.move_view(before, e.text, state),
                }
            frames.append(
                {
                    "seq": e.seq,
                    "actor": e.actor,
                    "text": e.text,
                    "view": view.state_view(state),
                    "last": last,
                    "to_move": _seat_or_none(state),
                }
            )
        return frames

    def rematch(self, game_id: str, tokens: Sequence[str]) -> tuple[str, dict[int, str]]:
        """A new game like ``game_id``; the caller gets tokens for the seats he held."""
        live = self.get(game_id)
        seats = self.seats_for(live, tokens)
        if not seats:
            raise ServiceError("not_your_seat", "only the players can ask for a rematch")
        if live.row.status != "finished":
            raise ServiceError("not_finished", "a rematch is offered when the game is over")
        with live.lock:
            if live.row.rematch is None:
                new_id = self._create_like(live)
                self.store.set_rematch(live.id, new_id, seq=live.seq)
                live.row.rematch = new_id
                live.touch()
                self._notify(live, [])
            new_id = live.row.rematch
        new = self.get(new_id)
        out: dict[int, str] = {}
        for seat in seats:
            name = live.row.seats[seat].name
            try:
                # the seed comes afterwards: the new game's commitment is public by then
                _, token = self.join(new_id, seat, name, None)
                out[seat] = token
            except ServiceError:
                pass
        if not out and not any(not s.claimed for s in new.row.seats):
            raise ServiceError("seat_taken", "the rematch has started without you")
        return new_id, out

    def _create_like(self, live: LiveGame) -> str:
        server_seed = new_server_seed()
        now = time.time()
        seats = [
            SeatRow(s.seat, s.kind, s.spec, s.name if s.kind == "bot" else f"seat {s.seat + 1}")
            for s in live.row.seats
        ]
        row = GameRow(
            id=_new_id(),
            game=live.row.game,
            options=dict(live.row.options),
            mode=live.row.mode,
            status="waiting",
            server_seed=server_seed,
            commitment=commitment(server_seed),
            created=now,
            updated=now,
            rematch_of=live.id,
            seats=seats,
        )
        self.store.create_game(row)
        return row.id

    # -- lobby ------------------------------------------------------------
    def lobby(self, now: float | None = None) -> dict[str, list[dict[str, Any]]]:
        """The lobby's lists. Stale entries leave them before they expire (the policy,
        docs/protocol.md): an open game nobody joined for ``LOBBY_OPEN_TTL`` seconds, a game
        in play without a move for ``LOBBY_LIVE_TTL``; abandoned games are never listed."""
        now = time.time() if now is None else now

        def summary(row: GameRow) -> dict[str, Any]:
            return {
                "id": row.id,
                "game": row.game,
                "options": row.options,
                "mode": row.mode,
                "status": row.status,
                "rated": row.rated,
                "created": row.created,
                "updated": row.updated,
                "result": row.result,
                "players": [
                    {
                        "seat": s.seat,
                        "name": s.name,
                        "kind": s.kind,
                        "claimed": s.claimed,
                        "account_id": s.account_id,
                    }
                    for s in row.seats
                ],
            }

        waiting = [
            summary(r)
            for r in self.store.list_games("waiting", 30)
            if r.mode == "friend" and r.updated >= now - LOBBY_OPEN_TTL
        ]
        return {
            "open": waiting,
            "live": [
                summary(r)
                for r in self.store.list_games("playing", 30)
                if r.updated >= now - LOBBY_LIVE_TTL
            ],
            "finished": [summary(r) for r in self.store.list_games("finished", 20)],
        }


#: refusals that may only mean this process has not seen another process's latest commit
_STALE_CODES = frozenset({"stale", "out_of_turn", "not_started", "not_your_seat", "game_over"})


def _row_key(row: GameRow) -> tuple[Any, ...]:
    """What of a game row a client sees change (to tell whether a catch-up changed it)."""
    return (
        row.status,
        row.ended,
        row.rematch,
        tuple((s.name, s.token_hash, s.seeded) for s in row.seats),
    )


def loss_for(players: int, seat: int) -> list[float]:
    """The result of a game that ``seat`` loses outright (a resignation, a flag, a player
    who left): -1 for that seat, +1 for every other."""
    result = [1.0] * players
    result[seat] = -1.0
    return result


#: the result line of each way a game ends other than by its rules
_ENDINGS = {
    "resign": "{name} resigned",
    "time": "{name} lost on time",
    "abandon": "{name} left the game and lost by abandonment",
}


def _ended_summary(row: GameRow) -> str | None:
    """The result line of a game ended other than by the rules, naming the players."""
    if not row.ended:
        return None
    if row.ended == "aborted":
        return "The game was aborted: a player left; it counts for nobody"
    kind, _, seat = row.ended.partition(":")
    if kind in _ENDINGS and seat.isdigit() and int(seat) < len(row.seats):
        return _ENDINGS[kind].format(name=row.seats[int(seat)].name)
    return None


def _apply_logged(before: State, dice: FairDice, text: str) -> State:
    """``before`` after the logged action ``text``; at a chance node the dice are drawn
    too (they stay where the log is), and the outcome they give is applied as drawn when
    its text is ``text`` (no parse: the usual case), else ``text`` is (as the log says)."""
    if before.is_chance_node():
        outcome, expected, _faces = chance_outcome(before, dice)
        if expected == text:
            return before.apply(outcome)
    return before.apply_text(text)


def _seat_or_none(state: State) -> int | None:
    p = state.current_player()
    return p if p >= 0 else None
