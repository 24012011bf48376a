"""Pig bots: hold once the turn's total reaches a threshold."""

from __future__ import annotations

from dicehall.bots.registry import BotFamily
from dicehall.core.game import State

THRESHOLDS = {"steady": 6, "bold": 12}


class HoldAt:
    """Rolls until ``at_stake`` reaches the level's threshold (or would win), then holds."""

    def __init__(self, level: str | None = None, seed: int | None = None) -> None:
        level = level or "bold"
        if level not in THRESHOLDS:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(THRESHOLDS)}")
        self.level = level
        self.name = f"pig bot:{level}"

    def act(self, state: State) -> str:
        scores, stake = state.scores, state.at_stake  # type: ignore[attr-defined]
        target = int(state.game.options["target"])
        wins = scores[state.current_player()] + stake >= target
        return "hold" if wins or stake >= THRESHOLDS[self.level] else "roll"


BOTS = BotFamily(tuple(THRESHOLDS), "bold", HoldAt)
