"""Provably fair dice: commit to a secret seed, derive every roll from it, reveal it at the end.

The scheme (also described in ``docs/protocol.md``):

1. The server draws a secret ``server_seed`` (64 hex characters) and publishes its commitment
   ``SHA-256(server_seed)`` (over the ASCII text of the seed) before the first roll.
2. Each player may add a seed of his own (``[A-Za-z0-9_.-]``, at most 64 characters; empty when
   none), so the server cannot pick a seed that favours one side after seeing the players.
3. Dice come from blocks ``HMAC-SHA256(key=server_seed, msg="seed1:seed2:...:counter")``; the
   counter starts at 0 and goes up by one for every block. Each roll (or other chance event)
   starts a fresh block. A die is read from one byte ``b``: bytes ``>= 252`` are skipped
   (rejection sampling, so every face has probability exactly 1/6), otherwise the face is
   ``b % 6 + 1``. Chance events that are not dice draw an integer below the common denominator
   of their probabilities from 4-byte big-endian chunks, again rejecting the biased top range.
4. When the game ends the server reveals ``server_seed``; anyone can recompute every roll
   (``dicehall verify RECORD`` or the fairness page in the browser).

>>> dice = FairDice("ab" * 32, ["alice", ""])
>>> dice.commitment == commitment("ab" * 32)
True
>>> first = dice.roll(2)
>>> FairDice("ab" * 32, ["alice", ""]).roll(2) == first
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dicehall.core.dice import _denominator, _exact_pick
from dicehall.core.errors import DicehallError, RecordError
from dicehall.core.game import Action, State

SCHEME = "hmac-sha256-d6-v1"
PLAYER_SEED = re.compile(r"^[A-Za-z0-9_.\-]{0,64}$")
SERVER_SEED = re.compile(r"^[0-9a-f]{64}$")


class FairnessError(DicehallError, ValueError):
    """A seed that is malformed, or a record whose dice do not match its seeds."""


def new_server_seed() -> str:
    """A fresh secret server seed: 32 random bytes as 64 lowercase hex characters."""
    return secrets.token_hex(32)


def commitment(server_seed: str) -> str:
    """The published SHA-256 (hex) of a server seed's ASCII text.

    >>> commitment("0" * 64)[:16]
    '60e05bd1b195af2f'
    """
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def check_player_seed(seed: str) -> str:
    """Return ``seed`` if it is an acceptable player seed, else raise FairnessError."""
    if not PLAYER_SEED.match(seed):
        raise FairnessError(
            f"player seed {seed!r}: use at most 64 letters, digits, '_', '.' or '-'"
        )
    return seed


@dataclass
class FairDice:
    """A ``Dice`` source whose every outcome can be checked once the seed is revealed."""

    server_seed: str
    player_seeds: Sequence[str] = ()
    counter: int = 0
    #: the last integer drawn by ``choose`` and its range, for explaining non-dice chance
    last_draw: tuple[int, int] | None = None
    _key: bytes = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not SERVER_SEED.match(self.server_seed):
            raise FairnessError("the server seed must be 64 lowercase hex characters")
        self.player_seeds = [check_player_seed(s) for s in self.player_seeds]
        self._key = self.server_seed.encode("ascii")

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, published before the first roll."""
        return commitment(self.server_seed)

    def block(self, counter: int) -> bytes:
        """The 32 bytes of HMAC block number ``counter``."""
        message = ":".join([*self.player_seeds, str(counter)]).encode("ascii")
        return hmac.new(self._key, message, hashlib.sha256).digest()

    def _bytes(self) -> Iterator[int]:
        """Bytes from fresh blocks, starting a new block at each call."""
        while True:
            data = self.block(self.counter)
            self.counter += 1
            yield from data

    def roll(self, count: int) -> tuple[int, ...]:
        """``count`` fair dice from the next block(s)."""
        faces: list[int] = []
        stream = self._bytes()
        while len(faces) < count:
            b = next(stream)
            if b < 252:
                faces.append(b % 6 + 1)
        return tuple(faces)

    def choose(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
        """An outcome with exactly its probability (integer draw below the denominator)."""
        outcomes = [(a, Fraction(p)) for a, p in outcomes]
        denominator = _denominator(outcomes)
        limit = (2**32 // denominator) * denominator
        stream = self._bytes()
        while True:
            value = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
            if value < limit:
                self.last_draw = (value % denominator, denominator)
                return _exact_pick(outcomes, value % denominator)


@dataclass
class RollCheck:
    """One chance event of a record, recomputed from the seeds."""

    index: int  # position of the action in the record (0-based)
    recorded: str
    expected: str
    faces: tuple[int, ...] | None  # the dice, for chance events that roll dice
    draw: tuple[int, int] | None = None  # (value, below) for other chance events

    @property
    def ok(self) -> bool:
        return self.recorded == self.expected

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "text": self.recorded}
        if self.faces is not None:
            out["dice"] = list(self.faces)
        if self.draw is not None:
            out["draw"], out["below"] = self.draw
        return out


def chance_text(state: State, dice: FairDice) -> tuple[str, tuple[int, ...] | None]:
    """The text of the outcome ``dice`` give at the chance node ``state``, with the faces."""
    _action, text, faces = chance_outcome(state, dice)
    return text, faces


def chance_outcome(state: State, dice: FairDice) -> tuple[Any, str, tuple[int, ...] | None]:
    """The outcome ``dice`` give at the chance node ``state``: the action itself (to apply
    without parsing its text again), its text and the faces (None for a chance event that
    rolls no dice)."""
    count = state.chance_dice()
    if count:
        faces = dice.roll(count)
        action = state.outcome_from_dice(faces)
        return action, state.action_to_text(action), faces
    action = dice.choose(state.chance_outcomes())
    return action, state.action_to_text(action), None


def fairness_meta(record_meta: dict[str, Any]) -> dict[str, Any]:
    """The ``fairness`` part of a record's meta, checked for shape."""
    info = record_meta.get("fairness")
    if not isinstance(info, dict) or info.get("scheme") != SCHEME:
        raise FairnessError(f"the record has no fairness data of scheme {SCHEME}")
    return info


def check_rolls(record: Any, server_seed: str, player_seeds: Sequence[str]) -> list[RollCheck]:
    """Recompute every chance event of ``record`` (a ``Record``) from the given seeds."""
    dice = FairDice(server_seed, list(player_seeds))
    checks: list[RollCheck] = []
    try:
        for i, (state, text) in enumerate(zip(record.states(), record.actions, strict=False)):
            if state.is_chance_node():
                dice.last_draw = None
                expected, faces = chance_text(state, dice)
                checks.append(RollCheck(i, text, expected, faces, dice.last_draw))
    except RecordError as exc:
        raise FairnessError(str(exc)) from exc
    return checks


def verify_record(record: Any) -> list[RollCheck]:
    """Recompute every chance event of ``record`` (a ``Record``) from its revealed seeds.

    Raises FairnessError if the seed is missing or does not match its commitment; returns one
    ``RollCheck`` per chance event (check ``all(c.ok for c in checks)``).
    """
    info = fairness_meta(record.meta)
    seed = info.get("server_seed")
    if not seed:
        raise FairnessError("the server seed is not revealed yet (it is, when the game ends)")
    if commitment(seed) != info.get("commitment"):
        raise FairnessError("the revealed server seed does not match the published commitment")
    return check_rolls(record, seed, list(info.get("player_seeds", [])))
