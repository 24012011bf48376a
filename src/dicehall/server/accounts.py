"""Player accounts: username and password, sessions in an HTTP-only SameSite cookie.

- Passwords are hashed with argon2id (``argon2-cffi``, its recommended parameters); a hash
  never leaves this module: ``Account`` has no field for it.
- A session is a random token in the ``dicehall_session`` cookie (HTTP-only, SameSite=Lax,
  Secure over HTTPS); the database keeps only its sha256, so a stolen database gives away no
  session. Sessions last ``SESSION_TTL`` seconds; changing the password ends every other
  session of the account.
- Usernames are 3 to 24 letters, digits, ``_`` or ``-``, unique without regard to case.
  Bots have accounts too (kind ``bot``, no password: nobody can log in as one).
- Guests need no account. A seat taken while logged in is bound to the account
  (``seats.account_id``), so its player can resume the game from another browser
  (``POST /api/games/{id}/resume``).

The tables come from the Alembic migration ``0003_accounts``.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError

from dicehall.server.error_messages import N_
from dicehall.server.service import ServiceError
from dicehall.server.storage import Store, hash_token

COOKIE = "dicehall_session"
SESSION_TTL = 30 * 24 * 3600.0
USERNAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
MIN_PASSWORD = 8
#: bounds the cost of hashing what a client sends
MAX_PASSWORD = 256

#: the HTTP status of each error code of this module
STATUS = {"username_taken": 409, "bad_login": 401, "not_logged_in": 401}


@dataclass(frozen=True)
class Account:
    """What the server tells about an account (never its password hash)."""

    id: str
    username: str
    kind: str  # "human" or "bot"
    created: float

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.username, "kind": self.kind}


def check_username(username: object) -> str:
    """The username, if allowed.

    :raises ServiceError: ``bad_request`` saying what a username may be.
    """
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise ServiceError(
            "bad_request",
            "a username is 3 to 24 characters: letters, digits, _ or -",
        )
    return username


def check_password(password: object) -> str:
    """The password, if long enough and not too long.

    :raises ServiceError: ``bad_request`` with the allowed lengths.
    """
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServiceError.said(
            "bad_request",
            N_("a password is {low} to {high} characters long"),
            low=MIN_PASSWORD,
            high=MAX_PASSWORD,
        )
    return password


class Accounts:
    """Accounts and sessions on the store's database (thread-safe)."""

    def __init__(self, store: Store, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        p = store.prefix
        md = sa.MetaData()
        self.accounts = sa.Table(
            f"{p}accounts",
            md,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("username", sa.String(24), nullable=False),
            sa.Column("username_key", sa.String(24), nullable=False, unique=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("password_hash", sa.String(200)),
            sa.Column("created", sa.Float, nullable=False),
        )
        self.sessions = sa.Table(
            f"{p}sessions",
            md,
            sa.Column("token_hash", sa.String(64), primary_key=True),
            sa.Column("account_id", sa.String(32), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("expires", sa.Float, nullable=False),
        )
        # verified against when the username is unknown, so a wrong username costs as long
        # as a wrong password (no finding out which usernames exist by timing)
        self._dummy = self.hasher.hash(secrets.token_hex(16))
        self._lock = threading.Lock()

    @staticmethod
    def _account(r: Any) -> Account:
        return Account(r.id, r.username, r.kind, r.created)

    # -- accounts --------------------------------------------------------
    def register(self, username: str, password: str | None, *, kind: str = "human") -> Account:
        """A new account (``kind="bot"``: without a password).

        :raises ServiceError: ``bad_request`` for a username or password that is not allowed,
            ``username_taken`` when the name (in any case) has an account already.
        """
        username = check_username(username)
        hashed = None if kind == "bot" else self.hasher.hash(check_password(password))
        acc = Account(uuid.uuid4().hex, username, kind, time.time())
        try:
            with self.store.engine.begin() as conn:
                conn.execute(
                    self.accounts.insert().values(
                        id=acc.id,
                        username=username,
                        username_key=username.lower(),
                        kind=kind,
                        password_hash=hashed,
                        created=acc.created,
                    )
                )
        except IntegrityError:
            raise ServiceError.said(
                "username_taken",
                N_("the username {name} is taken; choose another"),
                name=repr(username),
            ) from None
        return acc

    def get(self, account_id: str) -> Account | None:
        with self.store.engine.connect() as conn:
            r = conn.execute(sa.select(self.accounts).where(self.accounts.c.id == account_id))
            row = r.first()
        return None if row is None else self._account(row)

    def by_username(self, username: str) -> Account | None:
        """The account with that username (in any case), or None."""
        if not isinstance(username, str) or len(username) > 24:
            return None
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(self.accounts).where(self.accounts.c.username_key == username.lower())
            ).first()
        return None if row is None else self._account(row)

    def bot_account(self, spec: str) -> Account:
        """The account of a bot level (``bot:expert`` plays as ``bot-expert``), made on first
        use."""
        name = check_username(re.sub(r"[^A-Za-z0-9_-]", "-", spec)[:24].ljust(3, "-"))
        found = self.by_username(name)
        if found is not None:
            return found
        try:
            return self.register(name, None, kind="bot")
        except ServiceError:  # another thread or process made it first
            again = self.by_username(name)
            assert again is not None
            return again

    def _verify(self, username: str, password: str) -> Account:
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(self.accounts).where(
                    self.accounts.c.username_key == str(username).lower()[:24]
                )
            ).first()
        stored = row.password_hash if row is not None else None
        try:
            self.hasher.verify(stored or self._dummy, password)
            ok = stored is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            raise ServiceError("bad_login", "wrong username or password")
        if stored and self.hasher.check_needs_rehash(stored):  # parameters raised since
            with self.store.engine.begin() as conn:
                conn.execute(
                    self.accounts.update()
                    .where(self.accounts.c.id == row.id)
                    .values(password_hash=self.hasher.hash(password))
                )
        return self._account(row)

    def change_password(self, account: Account, old: str, new: str, keep: str | None) -> None:
        """Replace the password after checking the old one; every session of the account
        but ``keep`` (the caller's cookie) ends.

        :raises ServiceError: ``bad_login`` for a wrong old password, ``bad_request`` for a
            new one that is not allowed.
        """
        check_password(new)
        if not isinstance(old, str) or len(old) > MAX_PASSWORD:
            raise ServiceError("bad_login", "wrong password")
        self._verify(account.username, old)
        with self.store.engine.begin() as conn:
            conn.execute(
                self.accounts.update()
                .where(self.accounts.c.id == account.id)
                .values(password_hash=self.hasher.hash(new))
            )
            s = self.sessions.c
            keep_hash = hash_token(keep) if keep else ""
            conn.execute(
                self.sessions.delete().where(s.account_id == account.id, s.token_hash != keep_hash)
            )

    # -- sessions --------------------------------------------------------
    def login(self, username: str, password: str) -> tuple[Account, str]:
        """Check the password; returns the account and a new session token (the cookie).

        :raises ServiceError: ``bad_login`` for a wrong username or password (the same
            answer for both).
        """
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise ServiceError("bad_login", "wrong username or password")
        account = self._verify(username, password)
        return account, self.new_session(account)

    def new_session(self, account: Account, now: float | None = None) -> str:
        now = time.time() if now is None else now
        token = secrets.token_urlsafe(32)
        with self.store.engine.begin() as conn:
            conn.execute(
                self.sessions.insert().values(
                    token_hash=hash_token(token),
                    account_id=account.id,
                    created=now,
                    expires=now + SESSION_TTL,
                )
            )
            # sessions that ran out go as new ones come: the table stays bounded
            conn.execute(self.sessions.delete().where(self.sessions.c.expires < now))
        return token

    def session(self, token: str | None, now: float | None = None) -> Account | None:
        """The account logged in with the session ``token``, or None."""
        if not token or len(token) > 100:
            return None
        now = time.time() if now is None else now
        a, s = self.accounts.c, self.sessions.c
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(self.accounts)
                .join(self.sessions, s.account_id == a.id)
                .where(s.token_hash == hash_token(token), s.expires > now)
            ).first()
        return None if row is None else self._account(row)

    def logout(self, token: str | None) -> None:
        if token:
            with self.store.engine.begin() as conn:
                conn.execute(
                    self.sessions.delete().where(self.sessions.c.token_hash == hash_token(token))
                )

    def current(self, request: Request) -> Account | None:
        """The account of the request's session cookie, or None (a guest)."""
        return self.session(request.cookies.get(COOKIE))


# -- HTTP ----------------------------------------------------------------------------
class Credentials(BaseModel):
    username: str = Field(max_length=24, description="3 to 24 letters, digits, _ or -")
    password: str = Field(max_length=MAX_PASSWORD, description="8 to 256 characters")


class PasswordChange(BaseModel):
    old: str = Field(max_length=MAX_PASSWORD)
    new: str = Field(max_length=MAX_PASSWORD)


def _set_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(SESSION_TTL),
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def router(accounts: Accounts) -> APIRouter:
    """The account endpoints: register, log in and out, who am I, change password."""
    api = APIRouter(tags=["accounts"])

    @api.post("/api/accounts", status_code=201)
    def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Create an account and log in with it (the session cookie is set)."""
        account = accounts.register(body.username, body.password)
        _set_cookie(request, response, accounts.new_session(account))
        return {"account": account.to_dict()}

    @api.post("/api/session")
    def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Log in: sets the HTTP-only session cookie."""
        account, token = accounts.login(body.username, body.password)
        _set_cookie(request, response, token)
        return {"account": account.to_dict()}

    @api.delete("/api/session")
    def logout(request: Request, response: Response) -> dict[str, Any]:
        """Log out: the session ends on the server and the cookie is cleared."""
        accounts.logout(request.cookies.get(COOKIE))
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return {"ok": True}

    @api.get("/api/me")
    def me(request: Request) -> dict[str, Any]:
        """The logged-in account (401 for a guest)."""
        account = accounts.current(request)
        if account is None:
            raise ServiceError("not_logged_in", "not logged in: you play as a guest")
        return {"account": account.to_dict()}

    @api.post("/api/me/password")
    def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
        """Change the password; the account's other sessions end."""
        account = accounts.current(request)
        if account is None:
            raise ServiceError("not_logged_in", "log in to change your password")
        accounts.change_password(account, body.old, body.new, request.cookies.get(COOKIE))
        return {"ok": True}

    return api
