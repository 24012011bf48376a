"""Dice sources: the only place randomness enters a game, always seeded or scripted."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import lcm
from typing import Protocol

from dicehall.core.game import Action, State


class Dice(Protocol):
    """Where a match gets its chance outcomes from."""

    def roll(self, count: int) -> tuple[int, ...]:
        """Roll ``count`` fair six-sided dice."""
        ...

    def choose(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
        """Pick one outcome with exactly its probability (for chance that is not dice)."""
        ...


def _exact_pick(outcomes: Sequence[tuple[Action, Fraction]], draw: int) -> Action:
    """The outcome at integer position ``draw`` of the common-denominator line."""
    denominator = _denominator(outcomes)
    for action, p in outcomes:
        weight = p.numerator * (denominator // p.denominator)
        if draw < weight:
            return action
        draw -= weight
    raise ValueError("probabilities do not sum to 1")


def _denominator(outcomes: Sequence[tuple[Action, Fraction]]) -> int:
    return lcm(*(Fraction(p).denominator for _, p in outcomes))


class SeededDice:
    """Reproducible dice from a seed: the same seed gives the same game.

    >>> SeededDice(7).roll(2) == SeededDice(7).roll(2)
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self._rng.randint(1, 6) for _ in range(count))

    def choose(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
        outcomes = [(a, Fraction(p)) for a, p in outcomes]
        return _exact_pick(outcomes, self._rng.randrange(_denominator(outcomes)))

    def skip(self, states: Iterable[State]) -> None:
        """Consume the rolls that the chance nodes among ``states`` used, so that a game
        resumed from its record continues with the same dice it would have had."""
        for state in states:
            if state.is_chance_node():
                resolve_chance(state, self)

    def __repr__(self) -> str:
        return f"SeededDice({self.seed})"


class ScriptedDice:
    """Dice that show given faces in order: for tests and for set-up positions.

    >>> d = ScriptedDice([3, 1, 6, 6])
    >>> d.roll(2), d.roll(2)
    ((3, 1), (6, 6))
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        bad = [f for f in self._faces if not 1 <= f <= 6]
        if bad:
            raise ValueError(f"die faces must be 1..6, got {bad[0]}")
        self._pos = 0

    def roll(self, count: int) -> tuple[int, ...]:
        if self._pos + count > len(self._faces):
            raise ValueError(f"scripted dice ran out after {self._pos} faces")
        out = tuple(self._faces[self._pos : self._pos + count])
        self._pos += count
        return out

    def choose(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
        raise ValueError("scripted dice only roll dice")


def resolve_chance(state: State, dice: Dice) -> Action:
    """The outcome ``dice`` produce at the chance node ``state``."""
    count = state.chance_dice()
    outcome: Action
    if count:
        outcome = state.outcome_from_dice(dice.roll(count))
    else:
        outcome = dice.choose(state.chance_outcomes())
    return outcome
