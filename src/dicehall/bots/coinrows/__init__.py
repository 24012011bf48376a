"""The Coin Rows bot: a heuristic evaluation and levels built on the generic search.

``Bot(level=...)`` plays at one of ``LEVELS``; ``hint(state)`` ranks the options of
the player to act; ``search_evaluation`` lets the generic ``expectimax`` agent use
the same knowledge (``dicehall arena coinrows expectimax:2 random``).

>>> from dicehall import load_game
>>> state = load_game("coinrows").new_initial_state()
>>> [text for text, _ in hint(state)]
['roll', 'leave']
"""

from __future__ import annotations

from dicehall.bots.coinrows.bot import DEFAULT_LEVEL, LEVEL_SPECS, LEVELS, Bot
from dicehall.bots.coinrows.evaluation import (
    Weights,
    evaluate,
    greedy_evaluate,
    lead_estimate,
    search_bounds,
)
from dicehall.bots.registry import BotFamily
from dicehall.core.game import State

#: The evaluation the generic search agents use for Coin Rows leaves.
search_evaluation = evaluate

#: What Coin Rows declares as its bots (``GameEntry.bots``).
BOTS = BotFamily(LEVELS, DEFAULT_LEVEL, Bot, search_evaluation)


def hint(state: State, level: str = "expert", limit: int = 5) -> list[tuple[str, float]]:
    """The best options of the player to act with their values (his expected result:
    +1 a sure win, -1 a sure loss; net coins with ``payoff=coins``), best first."""
    if state.current_player() < 0:
        return []
    scored = Bot(level=level, seed=0).analyse(state)
    return [(s.text, s.value) for s in scored[:limit]]


__all__ = [
    "BOTS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_SPECS",
    "Bot",
    "Weights",
    "evaluate",
    "greedy_evaluate",
    "hint",
    "lead_estimate",
    "search_bounds",
    "search_evaluation",
]
