"""Glicko-2 ratings of rated games: one rating per account and game, profiles, leaderboards.

Exactly once. A game's result is committed with its last move (``Store.append_actions``);
the rating update is a second transaction that writes the new ratings together with one
``rating_changes`` row per seat, whose primary key ``(game_id, seat)`` says "this game is
rated". The update first looks for those rows, under a lock every rater takes (a
PostgreSQL advisory lock, so one at a time across processes; the store's writer lock on
SQLite), and does nothing when they are there. So:

- a process killed between the result and the update leaves a finished rated game without
  rows: ``sweep`` (run when the server starts and with every expiry round) rates it then;
- every process that hears of the finished game may try (the commit listener runs in each
  one): only the first changes anything.

Each game is its own rating period (``dicehall.core.glicko2``). A game of 3 to 6 players
(White Die) is rated as the set of its pairwise results: each player against each other
player, a win for the higher return, a draw for equal returns, all in the same period (so a
player who beats four of five opponents gains as for four wins and loses as for one loss).

Backgammon is rated per format, as bgammon.org rates single games and matches apart
(``rating_key``): ``backgammon`` (one game, single scoring), ``backgammon:money`` (one game
that scores gammons or has the cube) and ``backgammon:match`` (a match of 2 points or more).
Coin Rows and White Die have one rating each.

Bots have accounts too, one per level (``Accounts.bot_account``), rated like people, so the
leaderboard shows how strong each level is.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter

from dicehall.core.glicko2 import Rating, update
from dicehall.server.accounts import Accounts
from dicehall.server.error_messages import N_
from dicehall.server.service import LiveGame, LogEntry, ServiceError
from dicehall.server.storage import GameRow, Store

#: a rating whose deviation is above this is provisional (too few games to trust)
PROVISIONAL = 110.0
#: the rating lists besides one per game: backgammon's formats
FORMATS = ("backgammon:money", "backgammon:match")


def rating_key(game: str, options: dict[str, Any]) -> str:
    """The rating list a game of ``game`` with ``options`` counts for.

    >>> rating_key("backgammon", {"match_length": 7})
    'backgammon:match'
    >>> rating_key("backgammon", {"scoring": "standard", "cube": True})
    'backgammon:money'
    >>> rating_key("backgammon", {}), rating_key("coinrows", {"purse": 30})
    ('backgammon', 'coinrows')
    """
    if game != "backgammon":
        return game
    if int(options.get("match_length") or 0) >= 2:
        return "backgammon:match"
    if options.get("scoring") == "standard" or options.get("cube"):
        return "backgammon:money"
    return "backgammon"


def rating_lists() -> list[str]:
    """Every rating list: one per registered game, plus backgammon's formats."""
    from dicehall.core.registry import registered_games

    return [*registered_games(), *FORMATS]


@dataclass(frozen=True)
class Change:
    """One seat's rating change in one rated game."""

    game_id: str
    seat: int
    account_id: str
    game: str
    score: float
    before: Rating
    after: Rating

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "seat": self.seat,
            "game": self.game,
            "score": self.score,
            "rating_before": round(self.before.rating, 1),
            "rating_after": round(self.after.rating, 1),
            "change": round(self.after.rating - self.before.rating, 1),
            "deviation_after": round(self.after.deviation, 1),
        }


def pairwise_scores(result: list[float]) -> list[list[tuple[int, float]]]:
    """For each seat, its ``(opponent seat, score)`` pairs: 1 where its return is higher, 0.5
    where equal, 0 where lower.

    >>> pairwise_scores([1.0, -1.0])
    [[(1, 1.0)], [(0, 0.0)]]
    >>> pairwise_scores([3.0, 3.0, 0.0])[0]
    [(1, 0.5), (2, 1.0)]
    """
    n = len(result)
    out: list[list[tuple[int, float]]] = []
    for i in range(n):
        row = []
        for j in range(n):
            if i != j:
                score = 1.0 if result[i] > result[j] else 0.5 if result[i] == result[j] else 0.0
                row.append((j, score))
        out.append(row)
    return out


class Ratings:
    """Ratings on the store's database (the tables of migration ``0004_ratings``)."""

    def __init__(self, store: Store, accounts: Accounts, *, tau: float = 0.5) -> None:
        self.store = store
        self.accounts = accounts
        self.tau = tau
        p = store.prefix
        md = sa.MetaData()
        self.ratings = sa.Table(
            f"{p}ratings",
            md,
            sa.Column("account_id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(40), primary_key=True),
            sa.Column("rating", sa.Float, nullable=False),
            sa.Column("deviation", sa.Float, nullable=False),
            sa.Column("volatility", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
        )
        self.changes = sa.Table(
            f"{p}rating_changes",
            md,
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("account_id", sa.String(32), nullable=False),
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("score", sa.Float, nullable=False),
            sa.Column("rating_before", sa.Float, nullable=False),
            sa.Column("rating_after", sa.Float, nullable=False),
            sa.Column("deviation_before", sa.Float, nullable=False),
            sa.Column("deviation_after", sa.Float, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
        self._lock_key = int(hashlib.sha256(f"{p}ratings".encode()).hexdigest()[:15], 16)

    # -- rating games ----------------------------------------------------
    def seat_accounts(self, row: GameRow) -> list[str | None]:
        """The account of each seat: a person's own, a bot level's bot account."""
        return [
            self.accounts.bot_account(s.spec).id if s.kind == "bot" else s.account_id
            for s in row.seats
        ]

    def rate(self, row: GameRow) -> list[Change]:
        """Rate the finished rated game ``row`` unless it was rated already; returns the
        changes made now (empty: nothing to do, or done before)."""
        if not row.rated or row.status != "finished" or not row.result:
            return []
        players = self.seat_accounts(row)
        if any(a is None for a in players) or len(set(players)) < len(players):
            return []  # a seat without an account (refused at joining) or twice the same one
        ids = [a for a in players if a is not None]
        key = rating_key(row.game, row.options)
        now = time.time()
        r, c = self.ratings.c, self.changes.c
        with self.store._write_lock, self.store.engine.begin() as conn:
            if not self.store.is_sqlite:
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": self._lock_key})
            if conn.execute(sa.select(c.seat).where(c.game_id == row.id).limit(1)).first():
                return []  # rated before: exactly once
            found = {
                x.account_id: x
                for x in conn.execute(
                    sa.select(self.ratings).where(r.game == key, r.account_id.in_(ids))
                )
            }
            before = [
                Rating(found[a].rating, found[a].deviation, found[a].volatility)
                if a in found
                else Rating()
                for a in ids
            ]
            made: list[Change] = []
            for seat, pairs in enumerate(pairwise_scores(list(row.result))):
                after = update(before[seat], [(before[j], s) for j, s in pairs], tau=self.tau)
                score = sum(s for _, s in pairs) / len(pairs)
                made.append(Change(row.id, seat, ids[seat], key, score, before[seat], after))
            for ch in made:
                values = {
                    "rating": ch.after.rating,
                    "deviation": ch.after.deviation,
                    "volatility": ch.after.volatility,
                    "updated": now,
                }
                if ch.account_id in found:
                    conn.execute(
                        self.ratings.update()
                        .where(r.account_id == ch.account_id, r.game == key)
                        .values(games=r.games + 1, **values)
                    )
                else:
                    conn.execute(
                        self.ratings.insert().values(
                            account_id=ch.account_id, game=key, games=1, **values
                        )
                    )
                conn.execute(
                    self.changes.insert().values(
                        game_id=row.id,
                        seat=ch.seat,
                        account_id=ch.account_id,
                        game=key,
                        score=ch.score,
                        rating_before=ch.before.rating,
                        rating_after=ch.after.rating,
                        deviation_before=ch.before.deviation,
                        deviation_after=ch.after.deviation,
                        created=now,
                    )
                )
        return made

    def on_commit(self, live: LiveGame, entries: list[LogEntry]) -> None:
        """The service's commit listener: rate a rated game as soon as it is finished."""
        if live.row.rated and live.row.status == "finished":
            self.rate(live.row)

    def sweep(self, limit: int = 200) -> int:
        """Rate finished rated games that are not rated yet (their server was stopped between
        the result and the update); returns how many were rated now."""
        g, c = self.store.games.c, self.changes.c
        with self.store.engine.connect() as conn:
            ids = [
                x.id
                for x in conn.execute(
                    sa.select(g.id)
                    .where(g.rated.is_(True), g.status == "finished")
                    .where(~sa.exists().where(c.game_id == g.id))
                    .order_by(g.updated)
                    .limit(limit)
                )
            ]
        return sum(1 for game_id in ids if self.rate(self.store.get_game(game_id)))

    # -- reading ---------------------------------------------------------
    def game_changes(self, game_id: str) -> list[dict[str, Any]]:
        """The rating changes of one game by seat (empty: casual, or not rated yet)."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(self.changes)
                .where(self.changes.c.game_id == game_id)
                .order_by(self.changes.c.seat)
            )
            return [self._change(x).to_dict() for x in rows]

    @staticmethod
    def _change(x: Any) -> Change:
        return Change(
            x.game_id,
            x.seat,
            x.account_id,
            x.game,
            x.score,
            Rating(x.rating_before, x.deviation_before),
            Rating(x.rating_after, x.deviation_after),
        )

    def profile(self, username: str, history: int = 50) -> dict[str, Any]:
        """An account's ratings (per game) and its last ``history`` games, newest first, each
        with its replay and, when rated, its rating change.

        :raises ServiceError: ``unknown_player`` when there is no such account.
        """
        account = self.accounts.by_username(username)
        if account is None:
            raise ServiceError.said(
                "unknown_player", N_("no player named {name}"), name=repr(username[:24])
            )
        r, g, s, c = self.ratings.c, self.store.games.c, self.store.seats.c, self.changes.c
        bots: list[str] = []
        if account.kind == "bot":
            bots = [account.username]
        with self.store.engine.connect() as conn:
            ratings = [
                {
                    "game": x.game,
                    "rating": round(x.rating, 1),
                    "deviation": round(x.deviation, 1),
                    "volatility": round(x.volatility, 6),
                    "games": x.games,
                    "provisional": x.deviation > PROVISIONAL,
                }
                for x in conn.execute(
                    sa.select(self.ratings).where(r.account_id == account.id).order_by(r.game)
                )
            ]
            # a person's games are his bound seats; a bot's are its rated games
            seat_cond = s.account_id == account.id
            if bots:
                seat_cond = sa.or_(
                    seat_cond,
                    sa.exists().where(
                        c.game_id == s.game_id, c.seat == s.seat, c.account_id == account.id
                    ),
                )
            rows = list(
                conn.execute(
                    sa.select(g.id, g.game, g.status, g.rated, g.result, g.updated, s.seat)
                    .join(self.store.seats, s.game_id == g.id)
                    .where(seat_cond)
                    .order_by(g.updated.desc())
                    .limit(max(1, min(history, 200)))
                )
            )
            changes = {
                (x.game_id, x.seat): self._change(x)
                for x in conn.execute(
                    sa.select(self.changes).where(c.game_id.in_([x.id for x in rows]))
                )
            }
        games = []
        for x in rows:
            ch = changes.get((x.id, x.seat))
            games.append(
                {
                    "id": x.id,
                    "game": x.game,
                    "status": x.status,
                    "rated": bool(x.rated),
                    "seat": x.seat,
                    "result": None if not x.result else _json(x.result),
                    "updated": x.updated,
                    "replay": f"/g/{x.id}/replay",
                    "rating_change": None if ch is None else ch.to_dict(),
                }
            )
        return {"account": account.to_dict(), "ratings": ratings, "games": games}

    def ratings_of(self, account_ids: list[str], key: str) -> dict[str, Rating]:
        """The ratings of ``account_ids`` on the list ``key`` (a new player's for those
        without one)."""
        r = self.ratings.c
        found: dict[str, Rating] = {}
        ids = sorted(set(account_ids))
        if ids:
            with self.store.engine.connect() as conn:
                for x in conn.execute(
                    sa.select(self.ratings).where(r.game == key, r.account_id.in_(ids))
                ):
                    found[x.account_id] = Rating(x.rating, x.deviation, x.volatility)
        return {a: found.get(a, Rating()) for a in ids}

    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        """The best ratings of ``game``, highest first (provisional ones marked)."""
        r = self.ratings.c
        a = self.accounts.accounts.c
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(a.username, a.kind, r.rating, r.deviation, r.games)
                .join(self.accounts.accounts, a.id == r.account_id)
                .where(r.game == game)
                .order_by(r.rating.desc(), a.username_key)
                .limit(max(1, min(limit, 200)))
            )
            return [
                {
                    "rank": i + 1,
                    "username": x.username,
                    "kind": x.kind,
                    "rating": round(x.rating, 1),
                    "deviation": round(x.deviation, 1),
                    "games": x.games,
                    "provisional": x.deviation > PROVISIONAL,
                }
                for i, x in enumerate(rows)
            ]


def _json(text: str) -> Any:
    import json

    return json.loads(text)


def router(ratings: Ratings) -> APIRouter:
    """The rating endpoints: profiles, leaderboards, a game's rating changes."""
    api = APIRouter(tags=["ratings"])

    @api.get("/api/players/{username}")
    def profile(username: str, history: int = 50) -> dict[str, Any]:
        """A player's ratings per game and game history (with replays and rating changes)."""
        return ratings.profile(username, history)

    @api.get("/api/leaderboard/{game}")
    def leaderboard(game: str, limit: int = 50) -> list[dict[str, Any]]:
        """The rating list of one game."""
        if game not in rating_lists():
            raise ServiceError.said(
                "bad_request",
                N_("unknown rating list {name}; one of {lists}"),
                name=repr(game[:40]),
                lists=", ".join(rating_lists()),
            )
        return ratings.leaderboard(game, limit)

    @api.get("/api/games/{game_id}/ratings")
    def game_ratings(game_id: str) -> list[dict[str, Any]]:
        """The rating change of each seat of a rated game (empty until it is rated)."""
        return ratings.game_changes(game_id)

    return api
