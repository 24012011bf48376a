"""Seeks: open challenges in the lobby, quick pairing by rating range, direct challenges.

A *seek* is a logged-in player's offer: a game with its options, rated or casual, a time
control (or untimed) and, optionally, a rating range (only players whose rating on the
game's list, ``ratings.rating_key``, lies within ``±range`` of the seeker's may take it) or
one named opponent (a *direct challenge*, seen and accepted by that player only).

- **Accepting** creates a friend game with both players' seats bound to their accounts, the
  seeker's seat drawn at random, the time control attached; the accepter gets his token at
  once, the seeker's lobby sees its seek taken and opens the game, which gives him his
  token (``POST /api/games/{id}/resume``). Both browsers then send their player seeds and
  the game starts. A conditional update makes exactly one accepter win.
- **Quick pairing** (``quick``): take the oldest open seek with the same game, options,
  rated flag and clock whose range admits the player and whose seeker the player's own
  range admits; otherwise post the player's seek.
- **Staleness (the policy).** The lobby page refreshes its player's open seeks every few
  seconds (``GET /api/seeks``). A seek whose seeker has not been seen for ``SEEK_TTL``
  seconds (he closed the lobby) leaves the lists and can no longer be accepted; a player
  has at most ``MAX_OPEN`` open seeks. Guests play friends by link and bots, not seeks.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from dicehall.core.errors import DicehallError
from dicehall.core.registry import load_game
from dicehall.server.accounts import Account, Accounts
from dicehall.server.clocks import Clocks, TimeControl
from dicehall.server.error_messages import N_
from dicehall.server.limits import clip
from dicehall.server.ratings import PROVISIONAL, Ratings, rating_key
from dicehall.server.service import GameService, ServiceError

SEEK_TTL = 60.0  #: seconds a seek stays listed after its seeker was last seen
MAX_OPEN = 3  #: open seeks per player
MAX_RANGE = 1000  #: the widest rating range (± points); None: any rating

#: the HTTP status of each error code of this module
STATUS = {"unknown_seek": 404, "seek_taken": 409, "out_of_range": 409}


class Seeks:
    """Seeks on the store's database; makes games through the service (thread-safe)."""

    def __init__(
        self,
        service: GameService,
        accounts: Accounts,
        ratings: Ratings,
        clocks: Clocks,
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.store = service.store
        self.accounts = accounts
        self.ratings = ratings
        self.clocks = clocks
        self.now = now
        self._lock = threading.Lock()
        md = sa.MetaData()
        self.table = sa.Table(
            f"{self.store.prefix}seeks",
            md,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("account_id", sa.String(32), nullable=False),
            sa.Column("username", sa.String(24), nullable=False),
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("rated", sa.Boolean, nullable=False),
            sa.Column("clock", sa.Text),
            sa.Column("rating", sa.Float, nullable=False),
            sa.Column("rating_min", sa.Float),
            sa.Column("rating_max", sa.Float),
            sa.Column("target_id", sa.String(32)),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("game_id", sa.String(32)),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("seen", sa.Float, nullable=False),
        )

    # -- making seeks ------------------------------------------------------------
    def _normalise(
        self, game: str, options: dict[str, Any] | None, clock: Any
    ) -> tuple[str, dict[str, Any], TimeControl | None]:
        if not isinstance(game, str) or len(game) > 40:
            raise ServiceError("bad_request", "game must be a registered game name")
        try:
            self.service._check_options(game, options or {})
            made = load_game(game, **(options or {}))
        except DicehallError as exc:
            raise ServiceError("bad_request", clip(str(exc), 300)) from None
        return made.name, dict(made.options), TimeControl.from_any(clock)

    def create(
        self,
        account: Account,
        game: str,
        options: dict[str, Any] | None = None,
        *,
        rated: bool = False,
        clock: Any = None,
        rating_range: int | None = None,
        to: str | None = None,
        quick: bool = False,
    ) -> dict[str, Any]:
        """Post a seek (or, ``to``, challenge that player); ``quick``: first try to take a
        matching seek. Returns ``{"seek": ...}``, or ``{"game": ...}`` when paired at once.

        :raises ServiceError: ``bad_request`` for the game, options, clock or range;
            ``unknown_player`` for ``to``; ``too_many`` with ``MAX_OPEN`` seeks open.
        """
        name, opts, control = self._normalise(game, options, clock)
        if rating_range is not None and (
            isinstance(rating_range, bool)
            or not isinstance(rating_range, int)
            or not 0 < rating_range <= MAX_RANGE
        ):
            raise ServiceError.said(
                "bad_request",
                N_("a rating range is 1 to {high} points (or none: anyone)"),
                high=MAX_RANGE,
            )
        target = None
        if to:
            target = self.accounts.by_username(to)
            if target is None or target.kind != "human":
                raise ServiceError.said(
                    "unknown_player", N_("no player named {name}"), name=repr(clip(str(to), 24))
                )
            if target.id == account.id:
                raise ServiceError("bad_request", "you cannot challenge yourself")
        key = rating_key(name, opts)
        mine = self.ratings.ratings_of([account.id], key)[account.id].rating
        if quick and target is None:
            for seek in self._matching(account, name, opts, bool(rated), control, mine):
                try:
                    return {"game": self.accept(seek, account)}
                except ServiceError as exc:
                    if exc.code != "seek_taken":
                        raise
        now = self.now()
        s = self.table.c
        with self.store.engine.begin() as conn:
            count = conn.execute(
                sa.select(sa.func.count())
                .select_from(self.table)
                .where(s.account_id == account.id, s.status == "open", s.seen >= now - SEEK_TTL)
            ).scalar_one()
            if count >= MAX_OPEN:
                raise ServiceError.said(
                    "too_many",
                    N_("you have {n} open seeks: cancel one before a new one"),
                    n=MAX_OPEN,
                )
            seek_id = secrets.token_urlsafe(9)
            conn.execute(
                self.table.insert().values(
                    id=seek_id,
                    account_id=account.id,
                    username=account.username,
                    game=name,
                    options=json.dumps(opts, sort_keys=True),
                    rated=bool(rated),
                    clock=None if control is None else json.dumps(control.to_dict()),
                    rating=mine,
                    rating_min=None if rating_range is None else mine - rating_range,
                    rating_max=None if rating_range is None else mine + rating_range,
                    target_id=None if target is None else target.id,
                    status="open",
                    created=now,
                    seen=now,
                )
            )
        return {"seek": self.get(seek_id)}

    def _matching(
        self,
        account: Account,
        game: str,
        options: dict[str, Any],
        rated: bool,
        control: TimeControl | None,
        rating: float,
    ) -> list[str]:
        """Open seeks a quick pairing of ``account`` may take, oldest first."""
        s = self.table.c
        clock = None if control is None else json.dumps(control.to_dict())
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(self.table)
                .where(s.status == "open", s.seen >= self.now() - SEEK_TTL)
                .where(s.game == game, s.options == json.dumps(options, sort_keys=True))
                .where(s.rated == rated, s.target_id.is_(None), s.account_id != account.id)
                .where(s.clock.is_(None) if clock is None else s.clock == clock)
                .order_by(s.created)
                .limit(50)
            )
            return [r.id for r in rows if _in_range(r, rating)]

    # -- reading -------------------------------------------------------------------
    def _row(self, seek_id: str) -> Any:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(self.table).where(self.table.c.id == seek_id)).first()
        if row is None:
            raise ServiceError("unknown_seek", "there is no such seek (it may have been taken)")
        return row

    def get(self, seek_id: str) -> dict[str, Any]:
        return self._view(self._row(seek_id), self.now())

    def _view(self, r: Any, now: float) -> dict[str, Any]:
        target = None
        if r.target_id:
            found = self.accounts.get(r.target_id)
            target = found.username if found else None
        status = r.status
        if status == "open" and r.seen < now - SEEK_TTL:
            status = "expired"
        return {
            "id": r.id,
            "username": r.username,
            "rating": round(r.rating),
            "game": r.game,
            "options": json.loads(r.options),
            "rated": bool(r.rated),
            "clock": None if not r.clock else json.loads(r.clock),
            "range": None if r.rating_min is None else [round(r.rating_min), round(r.rating_max)],
            "to": target,
            "status": status,
            "game_id": r.game_id,
            "age": round(max(0.0, now - r.created), 1),
        }

    def listing(self, account: Account | None) -> dict[str, Any]:
        """The open seeks (with a ``fits`` flag: whether ``account`` may take each), the
        challenges to ``account`` and its own seeks (touched: their seeker is here)."""
        now = self.now()
        s = self.table.c
        fresh = s.seen >= now - SEEK_TTL
        with self.store.engine.begin() as conn:
            if account is not None:
                conn.execute(
                    self.table.update()
                    .where(s.account_id == account.id, s.status == "open")
                    .values(seen=now)
                )
            public = list(
                conn.execute(
                    sa.select(self.table)
                    .where(s.status == "open", fresh, s.target_id.is_(None))
                    .order_by(s.created.desc())
                    .limit(50)
                )
            )
            challenges: list[Any] = []
            mine: list[Any] = []
            if account is not None:
                challenges = list(
                    conn.execute(
                        sa.select(self.table)
                        .where(s.status == "open", fresh, s.target_id == account.id)
                        .order_by(s.created.desc())
                        .limit(20)
                    )
                )
                mine = list(
                    conn.execute(
                        sa.select(self.table)
                        .where(s.account_id == account.id, s.created >= now - 600)
                        .where(s.status.in_(("open", "accepted", "declined")))
                        .order_by(s.created.desc())
                        .limit(20)
                    )
                )
        ratings: dict[str, float] = {}
        if account is not None:
            keys = {rating_key(r.game, json.loads(r.options)) for r in public}
            for key in keys:
                ratings[key] = self.ratings.ratings_of([account.id], key)[account.id].rating
        out_public = []
        for r in public:
            view = self._view(r, now)
            key = rating_key(r.game, view["options"])
            view["fits"] = (
                account is not None
                and r.account_id != account.id
                and _in_range(r, ratings.get(key, 1500.0))
            )
            out_public.append(view)
        return {
            "seeks": out_public,
            "challenges": [self._view(r, now) for r in challenges],
            "mine": [self._view(r, now) for r in mine],
            "ttl": SEEK_TTL,
            "provisional_above": PROVISIONAL,
        }

    # -- accepting -----------------------------------------------------------------
    def accept(self, seek_id: str, account: Account) -> dict[str, Any]:
        """Take the seek: a game between its seeker and ``account``; returns ``{id, url,
        tokens}`` (the accepter's seat token).

        :raises ServiceError: ``unknown_seek``; ``seek_taken`` when it is no longer open
            (taken, cancelled or stale); ``bad_request`` for one's own seek or a challenge
            to somebody else; ``out_of_range`` when the accepter's rating is outside its
            range.
        """
        r = self._row(seek_id)
        if r.account_id == account.id:
            raise ServiceError("bad_request", "that is your own seek: wait for an opponent")
        if r.target_id and r.target_id != account.id:
            raise ServiceError("bad_request", "that challenge is for another player")
        options = json.loads(r.options)
        mine = self.ratings.ratings_of([account.id], rating_key(r.game, options))[account.id]
        if not _in_range(r, mine.rating):
            raise ServiceError.said(
                "out_of_range",
                N_("this seek is for ratings {low} to {high}; yours is {rating}"),
                low=f"{r.rating_min:.0f}",
                high=f"{r.rating_max:.0f}",
                rating=f"{mine.rating:.0f}",
            )
        s = self.table.c
        now = self.now()
        with self.store.engine.begin() as conn:
            won = conn.execute(
                self.table.update()
                .where(s.id == seek_id, s.status == "open", s.seen >= now - SEEK_TTL)
                .values(status="taking")
            ).rowcount
        if won != 1:
            raise ServiceError("seek_taken", "somebody else took this seek first, or it expired")
        try:
            game_id, _ = self.service.create(
                r.game,
                options,
                opponent="friend",
                seat=None,
                name=r.username,
                seed=None,
                account_id=r.account_id,
                rated=bool(r.rated),
            )
            self.clocks.attach(game_id, TimeControl.from_any(_clock(r.clock)))
            seat, token = self.service.join(
                game_id, None, account.username, None, account_id=account.id
            )
        except Exception:
            with self.store.engine.begin() as conn:
                conn.execute(self.table.update().where(s.id == seek_id).values(status="open"))
            raise
        with self.store.engine.begin() as conn:
            conn.execute(
                self.table.update()
                .where(s.id == seek_id)
                .values(status="accepted", game_id=game_id)
            )
        return {"id": game_id, "url": f"/g/{game_id}", "tokens": {seat: token}}

    def cancel(self, seek_id: str, account: Account) -> str:
        """The seeker cancels his seek, or the challenged player declines; returns the new
        status."""
        r = self._row(seek_id)
        if account.id not in (r.account_id, r.target_id):
            raise ServiceError("bad_request", "only its seeker can cancel a seek")
        status = "cancelled" if account.id == r.account_id else "declined"
        s = self.table.c
        with self.store.engine.begin() as conn:
            done = conn.execute(
                self.table.update().where(s.id == seek_id, s.status == "open").values(status=status)
            ).rowcount
        if done != 1:
            raise ServiceError("seek_taken", "the seek is not open any more")
        return status


def _clock(text: str | None) -> Any:
    if not text:
        return None
    data = json.loads(text)
    return {k: data[k] for k in ("initial", "increment", "delay")}


def _in_range(r: Any, rating: float) -> bool:
    if r.rating_min is None:
        return True
    return bool(r.rating_min <= rating <= r.rating_max)


# -- HTTP ------------------------------------------------------------------------------
class SeekBody(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    rated: bool = False
    clock: str | dict[str, float] | None = Field(
        None, description='null (untimed), "3+2" (minutes + increment) or "5+12d" (delay)'
    )
    range: int | None = Field(None, description="± rating points; null: anybody")
    to: str | None = Field(None, max_length=24, description="a username: a direct challenge")
    quick: bool = Field(False, description="take a matching seek if there is one")


def router(seeks: Seeks) -> APIRouter:
    api = APIRouter(tags=["lobby"])

    def me(request: Request) -> Account:
        account = seeks.accounts.current(request)
        if account is None:
            raise ServiceError("not_logged_in", "log in to seek or challenge players")
        return account

    @api.get("/api/seeks")
    def listing(request: Request) -> dict[str, Any]:
        """Open seeks, challenges to you and your own seeks (keeps yours listed)."""
        return seeks.listing(seeks.accounts.current(request))

    @api.post("/api/seeks", status_code=201)
    def create(body: SeekBody, request: Request) -> dict[str, Any]:
        """Post a seek, a direct challenge (``to``) or pair at once (``quick``)."""
        return seeks.create(
            me(request),
            body.game,
            body.options,
            rated=body.rated,
            clock=body.clock,
            rating_range=body.range,
            to=body.to,
            quick=body.quick,
        )

    @api.post("/api/seeks/{seek_id}/accept")
    def accept(seek_id: str, request: Request) -> dict[str, Any]:
        """Take a seek or a challenge to you: the game and your seat's token."""
        return seeks.accept(seek_id, me(request))

    @api.delete("/api/seeks/{seek_id}")
    def cancel(seek_id: str, request: Request) -> dict[str, Any]:
        """Cancel your seek, or decline a challenge to you."""
        return {"status": seeks.cancel(seek_id, me(request))}

    return api
