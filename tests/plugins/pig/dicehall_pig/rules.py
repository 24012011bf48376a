"""Pig: roll a die as often as you dare; a 1 loses the turn's total; first to ``target``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.options import Option

Action = str | int  # "roll" / "hold" decisions, a face 1..6 at a chance node


class Pig(Game):
    """Two players race to ``target`` points."""

    name = "pig"
    title = "Pig"
    option_specs = (Option("target", int, 20, minimum=5, maximum=100),)

    def new_initial_state(self) -> PigState:
        return PigState(self, (0, 0), 0, 0, False)

    def utility_bounds(self) -> tuple[float, float]:
        return (-1.0, 1.0)


@dataclass(frozen=True)
class PigState(State[Action]):
    game: Pig
    scores: tuple[int, int]
    turn: int
    at_stake: int
    rolling: bool

    def current_player(self) -> int:
        if max(self.scores) >= int(self.game.options["target"]):
            return TERMINAL
        return CHANCE if self.rolling else self.turn

    def legal_actions(self) -> Sequence[Action]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return list(range(1, 7))
        return ["roll", "hold"]

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self.rolling:
            return super().chance_outcomes()
        return [(face, Fraction(1, 6)) for face in range(1, 7)]

    def chance_dice(self) -> int:
        return 1 if self.is_chance_node() else 0

    def outcome_from_dice(self, faces: Sequence[int]) -> Action:
        return faces[0]

    def apply(self, action: Action) -> PigState:
        if action not in self.legal_actions():
            raise self.illegal(str(action), "not legal here")
        if self.rolling:
            assert isinstance(action, int)
            if action == 1:
                return PigState(self.game, self.scores, 1 - self.turn, 0, False)
            return PigState(self.game, self.scores, self.turn, self.at_stake + action, False)
        if action == "roll":
            return PigState(self.game, self.scores, self.turn, self.at_stake, True)
        scores = list(self.scores)
        scores[self.turn] += self.at_stake
        return PigState(self.game, (scores[0], scores[1]), 1 - self.turn, 0, False)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.scores[0] > self.scores[1] else [-1.0, 1.0]

    def action_to_text(self, action: Action) -> str:
        return str(action)

    def parse_action(self, text: str) -> Action:
        t = text.strip().lower()
        if self.is_terminal():
            raise self.illegal(text, "the game is over")
        if self.rolling:
            if t not in {"1", "2", "3", "4", "5", "6"}:
                raise self.syntax_error(text, "write the die, 1 to 6")
            return int(t)
        if t not in ("roll", "hold"):
            raise self.syntax_error(text, "write roll or hold")
        return t

    def __str__(self) -> str:
        return f"Pig to {self.game.options['target']}: {self.scores[0]}-{self.scores[1]}, " + (
            f"seat {self.turn + 1} has {self.at_stake} at stake"
        )
