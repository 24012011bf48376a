"""Game clocks: a reserve per player plus a Fischer increment or a delay per move.

The server is the only authority on time, and its clock is *derived from the action log*:
every action row carries the time it was committed (``actions.created``, from
``Store.now``). A seat's reserve after the log is a pure function of the time control and
those timestamps (``replay``), so the clock

- survives a restart (nothing but the log and the time control is needed),
- is the same in every server process on one database (they read the same log),
- cannot be cheated by a client: no client message carries a time; a move counts when the
  server commits it.

Rules (as lichess for the increment and the backgammon servers for the delay):

- A decision is timed from the action before it (the opponent's move, or the roll that the
  player now answers) to its own commit. With a *delay* of ``d`` seconds the first ``d``
  seconds of every decision are free (US/"simple" delay, as backgammon servers use); with an
  *increment* of ``i`` seconds, ``i`` is added to the reserve after every decision (Fischer).
- The first action of a game that opens without a roll (Coin Rows) is untimed, as lichess
  starts the clock with the first move: the clock starts with the game's first log entry.
- When the reserve of the seat to move reaches zero its flag falls: the game ends at once
  (``Clocks.tick``, run by the server every quarter second, and before any action is
  accepted), the flagged seat loses (-1, every other seat +1: in backgammon match play the
  match). ``ended`` is ``time:SEAT``.
- A flag is only written if no move came after the one the deadline was computed from
  (``Store.finish(if_seq=)``), so a move that reached another process in time wins.

Time controls are chosen when a game is created (``TimeControl``; ``PRESETS`` are the ones
the lobby offers per game); a game without one is untimed (casual games may be untimed).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from dicehall.server.error_messages import N_
from dicehall.server.service import GameService, LiveGame, LogEntry, ServiceError, loss_for
from dicehall.server.storage import Store

log = logging.getLogger("dicehall.server")

MIN_INITIAL = 10.0  #: the smallest reserve (seconds): below it a move cannot be made in time
MAX_INITIAL = 3 * 3600.0
MAX_BONUS = 120.0  #: the largest increment or delay (seconds)

#: the time controls the lobby offers per game (any valid control is accepted by the API)
PRESETS: dict[str, list[str]] = {
    "backgammon": ["1+12d", "3+12d", "5+12d", "10+15d"],
    "coinrows": ["1+2", "3+2", "5+3", "10+5"],
    "whitedie": ["1+5", "3+5", "5+10"],
}
_TEXT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*(d?)\s*$")


@dataclass(frozen=True)
class TimeControl:
    """A reserve of ``initial`` seconds per player plus ``increment`` seconds added after
    each decision (Fischer) or ``delay`` free seconds at the start of each (simple delay).

    >>> TimeControl.parse("5+12d")
    TimeControl(initial=300.0, increment=0.0, delay=12.0)
    >>> TimeControl.parse("3+2").text()
    '3+2'
    """

    initial: float
    increment: float = 0.0
    delay: float = 0.0

    def __post_init__(self) -> None:
        for name in ("initial", "increment", "delay"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ServiceError.said(
                    "bad_request", N_("clock {name} must be a number of seconds"), name=name
                )
        if not MIN_INITIAL <= self.initial <= MAX_INITIAL:
            raise ServiceError.said(
                "bad_request",
                N_("a clock's reserve is {low} to {high} seconds"),
                low=f"{MIN_INITIAL:.0f}",
                high=f"{MAX_INITIAL:.0f}",
            )
        if not (0 <= self.increment <= MAX_BONUS and 0 <= self.delay <= MAX_BONUS):
            raise ServiceError.said(
                "bad_request",
                N_("an increment or delay is 0 to {high} seconds"),
                high=f"{MAX_BONUS:.0f}",
            )
        if self.increment and self.delay:
            raise ServiceError(
                "bad_request", "a clock has an increment or a delay per move, not both"
            )

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"M+S"`` (M minutes, S seconds increment) or ``"M+Sd"`` (S seconds delay).

        :raises ServiceError: ``bad_request`` for another form.
        """
        m = _TEXT.match(text) if isinstance(text, str) and len(text) < 20 else None
        if m is None:
            raise ServiceError(
                "bad_request",
                "a time control is MINUTES+SECONDS (increment) or MINUTES+SECONDSd (delay), "
                "e.g. 3+2 or 5+12d",
            )
        minutes, bonus, delay = float(m[1]), float(m[2]), bool(m[3])
        return cls(minutes * 60, 0.0 if delay else bonus, bonus if delay else 0.0)

    @classmethod
    def from_any(cls, value: Any) -> TimeControl | None:
        """A control from the API: None (untimed), a text (``parse``) or an object
        ``{initial, increment, delay}`` in seconds."""
        if value is None or value == "" or value == "untimed":
            return None
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, dict) and set(value) <= {"initial", "increment", "delay"}:
            return cls(
                value.get("initial", 0), value.get("increment", 0.0), value.get("delay", 0.0)
            )
        raise ServiceError(
            "bad_request",
            'clock is null (untimed), a text like "3+2" or "5+12d", or '
            "{initial, increment, delay} in seconds",
        )

    def text(self) -> str:
        def num(x: float) -> str:
            return f"{x:g}"

        bonus = f"{num(self.delay)}d" if self.delay else num(self.increment)
        return f"{num(self.initial / 60)}+{bonus}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "initial": self.initial,
            "increment": self.increment,
            "delay": self.delay,
            "text": self.text(),
        }


@dataclass(frozen=True)
class ClockState:
    """The clock after the log: each seat's reserve, and the turn that runs now.

    ``remaining`` are the reserves when the running turn started (``since``); ``running``
    is the seat whose time runs (None: nobody's, e.g. before the first entry or when the
    game is over).
    """

    control: TimeControl
    remaining: tuple[float, ...]
    running: int | None
    since: float | None

    def left(self, seat: int, now: float) -> float:
        """The reserve of ``seat`` at time ``now`` (negative: its flag has fallen)."""
        base = self.remaining[seat]
        if seat != self.running or self.since is None:
            return base
        return base - max(0.0, now - self.since - self.control.delay)

    def deadline(self) -> float | None:
        """When the running seat's flag falls (None: no clock runs)."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.control.delay + self.remaining[self.running]

    def view(self, now: float) -> dict[str, Any]:
        """What the browser shows: reserves now, who runs, the delay left of this turn."""
        delay_left = 0.0
        if self.running is not None and self.since is not None:
            delay_left = max(0.0, self.control.delay - (now - self.since))
        return {
            "control": self.control.to_dict(),
            "remaining": [
                round(max(0.0, self.left(s, now)), 3) for s in range(len(self.remaining))
            ],
            "running": self.running,
            "delay_left": round(delay_left, 3),
        }


def replay(
    control: TimeControl,
    players: int,
    events: Sequence[tuple[int, float]],
    to_move: int | None,
) -> ClockState:
    """The clock after the log ``events`` (``(actor, committed at)`` in order; actor -1 for
    dice) when ``to_move`` (a seat, or None when no decision is due) is to move now.

    >>> c = TimeControl(60, increment=2)
    >>> state = replay(c, 2, [(-1, 0.0), (0, 10.0), (-1, 10.0), (1, 15.0)], 0)
    >>> state.remaining, state.running, state.since
    ((52.0, 57.0), 0, 15.0)
    >>> replay(TimeControl(60, delay=12), 2, [(-1, 0.0), (0, 20.0)], 1).remaining
    (52.0, 60.0)
    """
    remaining = [float(control.initial)] * players
    previous: float | None = None
    for actor, at in events:
        if actor >= 0 and previous is not None:
            used = max(0.0, at - previous - control.delay)
            # a move the server accepted was in time: the reserve never goes below zero
            remaining[actor] = max(0.0, remaining[actor] - used) + control.increment
        previous = at
    running = to_move if previous is not None else None
    return ClockState(control, tuple(remaining), running, previous)


class Clocks:
    """The clocks of the timed games of one ``GameService``.

    Hooks itself into the service: a guard (a move after the flag fell loses on time), a
    decorator (``clock`` in every snapshot and update) and a listener (the log's new
    timestamps). ``now`` is the time source (the store's, so the clock and the log agree);
    tests pass a controllable one.
    """

    def __init__(
        self, store: Store, service: GameService, *, now: Callable[[], float] | None = None
    ) -> None:
        self.store = store
        self.service = service
        self.now = now or store.now
        md = sa.MetaData()
        self.table = sa.Table(
            f"{store.prefix}clocks",
            md,
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("initial", sa.Float, nullable=False),
            sa.Column("increment", sa.Float, nullable=False),
            sa.Column("delay", sa.Float, nullable=False),
        )
        self._lock = threading.Lock()
        #: time control by game id (None: untimed), as read from the database
        self._controls: dict[str, TimeControl | None] = {}
        #: ``(actor, committed at)`` of each logged action, by game id
        self._events: dict[str, list[tuple[int, float]]] = {}
        #: the flag deadline of every timed game in play that this process knows
        self._deadlines: dict[str, float] = {}
        service.guards.append(self.guard)
        service.decorators.append(self.decorate)
        service.listeners.append(self.on_commit)
        service.loop_quiet.append(self.untimed)

    # -- time controls -----------------------------------------------------
    def attach(self, game_id: str, control: TimeControl | None) -> None:
        """Give the new game ``game_id`` its time control (None: untimed). Call it before
        the game starts (it waits for its players' seeds)."""
        if control is not None:
            with self.store._write_lock, self.store.engine.begin() as conn:
                conn.execute(
                    self.table.insert().values(
                        game_id=game_id,
                        initial=control.initial,
                        increment=control.increment,
                        delay=control.delay,
                    )
                )
        with self._lock:
            self._controls[game_id] = control

    def untimed(self, live: LiveGame) -> bool:
        """Whether ``live`` is known here to be untimed: its guard and listener read and
        write nothing then (``GameService.act_in_loop``)."""
        with self._lock:
            return live.id in self._controls and self._controls[live.id] is None

    def control(self, game_id: str) -> TimeControl | None:
        """The time control of ``game_id`` (None: untimed)."""
        with self._lock:
            if game_id in self._controls:
                return self._controls[game_id]
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(self.table).where(self.table.c.game_id == game_id)).first()
        control = None if row is None else TimeControl(row.initial, row.increment, row.delay)
        with self._lock:
            if len(self._controls) > 50_000:  # bounded: forget and read again when needed
                self._controls.clear()
            self._controls[game_id] = control
        return control

    # -- the clock of a game -------------------------------------------------
    def _sync(self, live: LiveGame) -> list[tuple[int, float]]:
        """The timestamps of the log of ``live``, read from the database as far as it goes."""
        with self._lock:
            events = self._events.get(live.id)
        if events is None or len(events) > live.seq:
            events = []
        if len(events) < live.seq:
            rows = self.store.load_actions(live.id, after=len(events))
            events = events + [(r.actor, r.created) for r in rows][: live.seq - len(events)]
        with self._lock:
            self._events[live.id] = events
        return events

    def state(self, live: LiveGame) -> ClockState | None:
        """The clock of ``live`` (None: untimed). Caller holds the game's lock."""
        control = self.control(live.id)
        if control is None:
            return None
        playing = live.row.status == "playing" and not live.state.is_terminal()
        to_move = live.state.current_player() if playing else -1
        events = self._sync(live)
        state = replay(control, len(live.row.seats), events, to_move if to_move >= 0 else None)
        kind, _, seat = (live.row.ended or "").partition(":")
        if kind == "time" and seat.isdigit() and int(seat) < len(state.remaining):
            remaining = list(state.remaining)
            remaining[int(seat)] = 0.0  # its flag fell: nothing left
            state = ClockState(control, tuple(remaining), None, state.since)
        return state

    def decorate(self, live: LiveGame, out: dict[str, Any]) -> None:
        """The service's decorator: ``clock`` in a snapshot or update (None: untimed)."""
        state = self.state(live)
        out["clock"] = None if state is None else state.view(self.now())

    def on_commit(self, live: LiveGame, entries: list[LogEntry]) -> None:
        """The service's listener: keep the game's flag deadline."""
        state = self.state(live)
        with self._lock:
            deadline = None if state is None else state.deadline()
            if deadline is None:
                self._deadlines.pop(live.id, None)
            else:
                self._deadlines[live.id] = deadline
            if live.row.status != "playing":
                self._events.pop(live.id, None)

    def guard(self, live: LiveGame, seat: int) -> None:
        """The service's guard: ``seat`` wants to act; if its flag has fallen it loses on
        time now and the action is refused (``time_out``)."""
        if self.flag(live):
            raise ServiceError("time_out", "your time ran out: you lost on time")

    def flag(self, live: LiveGame, now: float | None = None) -> bool:
        """End ``live`` on time if the flag of the seat to move has fallen; True if it did
        (here or, just before, through another process). Caller holds the game's lock."""
        state = self.state(live)
        if state is None or state.running is None:
            return False
        now = self.now() if now is None else now
        if state.left(state.running, now) > 0:
            return False
        seat = state.running
        done = self.service.finish_game(
            live, loss_for(len(live.row.seats), seat), f"time:{seat}", if_seq=live.seq
        )
        if done:
            log.info("game %s: seat %d lost on time", live.id, seat)
        return done or live.row.status != "playing"

    def tick(self, now: float | None = None) -> list[str]:
        """Flag every game whose deadline has passed; returns their ids (the server calls it
        a few times a second, tests with their own ``now``)."""
        now = self.now() if now is None else now
        with self._lock:
            due = [gid for gid, at in self._deadlines.items() if at <= now]
        flagged = []
        for game_id in due:
            try:
                live = self.service.get(game_id)
                with live.lock:
                    if live.row.status == "playing" and self.flag(live, now):
                        flagged.append(game_id)
                    self.on_commit(live, [])
            except ServiceError:
                with self._lock:
                    self._deadlines.pop(game_id, None)
            except Exception:  # one broken game must not stop every clock
                log.exception("the clock of game %s failed", game_id)
        return flagged

    def resume(self) -> int:
        """Load the timed games in play (after a start or restart) so their flags fall even
        when nobody touches them; returns how many."""
        g, c = self.store.games.c, self.table.c
        with self.store.engine.connect() as conn:
            ids = [
                r.id
                for r in conn.execute(
                    sa.select(g.id)
                    .join(self.table, c.game_id == g.id)
                    .where(g.status == "playing")
                    .limit(10_000)
                )
            ]
        for game_id in ids:
            live = self.service.get(game_id)
            with live.lock:
                self.on_commit(live, [])
        return len(ids)
