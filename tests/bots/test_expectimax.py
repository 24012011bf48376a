"""Expectimax on a tiny hand-built chance game equals the exact game value."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import pytest

from dicehall.bots.expectimax import ExpectimaxBot
from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.options import Option

# A gamble: 0 points (1/2), 2 points (1/4), 4 points (1/8), or "again" (1/8): the same
# chance node once more, which the search must treat exactly (a self-loop).
GAMBLE = ((0, Fraction(1, 2)), (2, Fraction(1, 4)), (4, Fraction(1, 8)), (-1, Fraction(1, 8)))


class Gamble(Game):
    """Two players, two turns each: take 1 point safely or gamble; the higher score wins."""

    name = "tinygamble"
    title = "Tiny gamble"
    option_specs = (Option("turns", int, 4, minimum=1),)

    def __init__(self, turns: int = 4) -> None:
        super().__init__(turns=turns)
        self.turns = turns

    def new_initial_state(self) -> GambleState:
        return GambleState(self, (0, 0), 0, False)

    def utility_bounds(self) -> tuple[float, float]:
        return (-1.0, 1.0)


@dataclass(frozen=True)
class GambleState(State):
    game: Gamble
    scores: tuple[int, int]
    turn: int
    pending: bool  # the seat to act chose to gamble and the die is rolling

    def current_player(self) -> int:
        if self.turn >= self.game.turns:
            return TERMINAL
        return CHANCE if self.pending else self.turn % 2

    def legal_actions(self) -> Sequence[object]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in GAMBLE]
        return ["safe", "gamble"]

    def chance_outcomes(self) -> list[tuple[object, Fraction]]:
        return list(GAMBLE)

    def apply(self, action: object) -> GambleState:
        player = self.current_player()
        if action not in self.legal_actions():
            raise IllegalActionError(str(action), "not legal")
        if player == CHANCE:
            if action == -1:
                return self
            return self._add(int(action))  # type: ignore[call-overload]
        if action == "safe":
            return self._add(1)
        return GambleState(self.game, self.scores, self.turn, True)

    def _add(self, points: int) -> GambleState:
        seat = self.turn % 2
        scores = list(self.scores)
        scores[seat] += points
        return GambleState(self.game, (scores[0], scores[1]), self.turn + 1, False)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.scores
        return [1.0, -1.0] if a > b else [-1.0, 1.0] if b > a else [0.0, 0.0]

    def action_to_text(self, action: object) -> str:
        return str(action)

    def parse_action(self, text: str) -> object:
        for a in self.legal_actions():
            if str(a) == text:
                return a
        raise self.illegal(text, "unknown")

    def __str__(self) -> str:
        return f"{self.scores} turn {self.turn}{' rolling' if self.pending else ''}"


@cache
def exact(state: GambleState) -> Fraction:
    """Seat 0's exact value by full recursion with fractions (no search tricks)."""
    player = state.current_player()
    if player == TERMINAL:
        return Fraction(int(state.returns()[0]))
    if player == CHANCE:
        loop = sum(p for a, p in GAMBLE if a == -1)
        rest = sum(p * exact(state.apply(a)) for a, p in GAMBLE if a != -1)
        return rest / (1 - loop)
    values = [exact(state.apply(a)) for a in state.legal_actions()]
    return max(values) if player == 0 else min(values)


def all_decision_states(turns: int) -> list[GambleState]:
    out = []
    todo = [Gamble(turns).new_initial_state()]
    seen = set()
    while todo:
        s = todo.pop()
        if s in seen or s.is_terminal():
            continue
        seen.add(s)
        if not s.is_chance_node():
            out.append(s)
        todo.extend(s.apply(a) for a in s.legal_actions())
    return out


@pytest.mark.parametrize("bounds", [None, (-1.0, 1.0), "game"])
@pytest.mark.parametrize("turns", [2, 4, 5])
def test_root_value_is_exact(turns: int, bounds: tuple[float, float] | str | None) -> None:
    root = Gamble(turns).new_initial_state()
    bot = ExpectimaxBot(depth=turns, bounds=bounds)
    assert bot.value(root)[0] == pytest.approx(float(exact(root)), abs=1e-12)


@pytest.mark.parametrize("bounds", [None, (-1.0, 1.0), "game"])
def test_every_position_and_choice_is_exact(bounds: tuple[float, float] | str | None) -> None:
    for state in all_decision_states(4):
        bot = ExpectimaxBot(depth=4, bounds=bounds)
        player = state.current_player()
        sign = 1 if player == 0 else -1
        scored = bot.analyse(state)
        for s in scored:
            assert s.value == pytest.approx(float(sign * exact(state.apply(s.action))), abs=1e-12)
        best = max(sign * exact(state.apply(a)) for a in state.legal_actions())
        chosen = bot.act(state)
        assert sign * exact(state.apply(chosen)) == best


def test_star1_prunes_without_changing_the_answer() -> None:
    root = Gamble(8).new_initial_state()
    plain = ExpectimaxBot(depth=8)
    pruned = ExpectimaxBot(depth=8, bounds=(-1.0, 1.0))
    plain_value, pruned_value = plain.value(root)[0], pruned.value(root)[0]
    assert pruned_value == pytest.approx(plain_value, abs=1e-12)
    assert pruned_value == pytest.approx(float(exact(root)), abs=1e-12)
    assert pruned.nodes < plain.nodes
    declared = ExpectimaxBot(depth=8, bounds="game")  # the game's utility_bounds()
    assert declared.value(root)[0] == pytest.approx(pruned_value, abs=1e-12)
    assert declared.nodes == pruned.nodes


def test_max_n_agrees_with_minimax_on_a_zero_sum_game() -> None:
    root = Gamble(4).new_initial_state()
    vector = ExpectimaxBot(depth=4, zero_sum=False).value(root)
    assert vector[0] == pytest.approx(float(exact(root)), abs=1e-12)
    assert vector[1] == pytest.approx(-float(exact(root)), abs=1e-12)


def test_depth_limit_uses_the_evaluation() -> None:
    root = Gamble(4).new_initial_state()

    def evaluate(s: State) -> list[float]:
        assert isinstance(s, GambleState)
        # a pending gamble is worth 0/2 + 2/4 + 4/8 = 1 point over 7/8: 8/7 points
        lead = s.scores[0] - s.scores[1] + (8 / 7 if s.pending else 0)
        return [lead / 10, -lead / 10]

    bot = ExpectimaxBot(depth=1, evaluate=evaluate)
    assert bot.value(root)[0] == pytest.approx(8 / 70)
    assert bot.act(root) == "gamble"


def test_time_limit_still_answers() -> None:
    root = Gamble(6).new_initial_state()
    assert ExpectimaxBot(depth=50, time_limit=0.05).act(root) in ("safe", "gamble")
