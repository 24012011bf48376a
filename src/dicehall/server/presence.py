"""Who is at the table: players online or gone, and what the others may do when one leaves.

A seat is *online* while a WebSocket holding its token is connected to this process. When the
last one closes, the other players are told at once (an ``update``, whose ``presence`` says
how long the seat has been gone). A seat never seen connected here is neither online nor
gone (``None``): the browser mentions it only once the grace period is over. After
``grace`` seconds gone, the players still there may

- **claim the win**: the game ends, every gone seat loses (-1), the claimants win (+1);
  ``ended`` is ``abandon:SEAT``; a rated game is rated (as lichess does);
- **abort**: the game ends for nobody (status ``abandoned``, ``ended`` ``aborted``, not
  rated).

Bots never leave; a local game (one person, every seat) has nobody to claim against. A seat
that this process has never seen connected counts as gone from the moment the process first
looked at it (so after a restart every absent player gets the full grace period again).
A timed game needs no claim: the gone player's clock runs out (``dicehall.server.clocks``).

Presence is kept by the process that holds the connections; with several processes a
player is online where his socket is (documented limit: claims are judged by the process
the claimant is connected to).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from dicehall.server.service import GameService, LiveGame, ServiceError
from dicehall.server.storage import Store

GRACE = 60.0  #: seconds a player may be gone before the others may claim or abort


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
        self.service = service
        self.grace = grace
        self.now = now or store.now
        self._lock = threading.Lock()
        self._online: dict[str, Counter[int]] = {}
        self._gone: dict[tuple[str, int], float] = {}
        #: seats that have had a connection in this process (the others are "not seen yet")
        self._seen: set[tuple[str, int]] = set()
        service.decorators.append(self.decorate)

    # -- connections -------------------------------------------------------------
    def joined(self, game_id: str, seats: Sequence[int]) -> None:
        """A connection holding ``seats`` entered the game's room."""
        if not seats:
            return
        with self._lock:
            count = self._online.setdefault(game_id, Counter())
            for seat in seats:
                count[seat] += 1
                self._gone.pop((game_id, seat), None)
                self._seen.add((game_id, seat))
            if len(self._seen) > 200_000:
                self._seen.clear()

    def left(self, game_id: str, seats: Sequence[int]) -> None:
        """A connection holding ``seats`` left the game's room (closed, or went elsewhere)."""
        if not seats:
            return
        now = self.now()
        with self._lock:
            count = self._online.get(game_id)
            if count is None:
                return
            for seat in seats:
                count[seat] -= 1
                if count[seat] <= 0:
                    del count[seat]
                    self._gone[(game_id, seat)] = now
            if not count:
                del self._online[game_id]
            if len(self._gone) > 100_000:  # bounded: forget the oldest half
                for key, _ in sorted(self._gone.items(), key=lambda kv: kv[1])[:50_000]:
                    del self._gone[key]

    # -- state -------------------------------------------------------------------
    def gone_for(self, live: LiveGame, now: float) -> list[float | None]:
        """Seconds each seat has been gone (None: online, a bot, or the game not in play)."""
        out: list[float | None] = []
        with self._lock:
            online = self._online.get(live.id, Counter())
            for s in live.row.seats:
                if s.kind == "bot" or live.row.status != "playing" or online[s.seat] > 0:
                    out.append(None)
                    continue
                since = self._gone.setdefault((live.id, s.seat), now)
                out.append(max(0.0, now - since))
        return out

    def view(self, live: LiveGame) -> dict[str, Any]:
        """``online`` per seat: True, False (was here and left) or None (not seen here yet:
        the browser shows it only once the grace period is over); ``gone_for`` seconds."""
        gone = self.gone_for(live, self.now())
        with self._lock:
            seen = [(live.id, s.seat) in self._seen for s in live.row.seats]
        return {
            "online": [
                True if g is None else (False if seen[i] else None) for i, g in enumerate(gone)
            ],
            "gone_for": [None if g is None else round(g, 1) for g in gone],
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
                    raise ServiceError(
                        "too_early", f"{', '.join(online)} is still here: nothing to claim"
                    )
                raise ServiceError(
                    "too_early",
                    f"wait {max(waiting):.0f} more seconds: a player who left may come back",
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
