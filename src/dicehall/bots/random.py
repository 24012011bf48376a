"""The uniformly random agent: the baseline every other bot must beat."""

from __future__ import annotations

import random

from dicehall.core.game import Action, State


class RandomBot:
    """Picks a legal action uniformly at random, reproducibly from ``seed``.

    >>> from dicehall import load_game
    >>> s = load_game("backgammon").new_initial_state().apply_text("3-1")
    >>> RandomBot(seed=5).act(s) == RandomBot(seed=5).act(s)
    True
    """

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.seed = seed
        self._rng = random.Random(seed)

    def act(self, state: State) -> Action:
        actions: list[Action] = list(state.legal_actions())
        if not actions:
            raise ValueError("no legal action to choose from")
        return actions[self._rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
