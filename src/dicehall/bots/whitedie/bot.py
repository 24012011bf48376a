"""White Die bots: ``random``, ``greedy`` (expected points of the challenge at hand)
and ``perfect`` (the chance of winning the game; exact for two players, and for three and
four where a max^n table is shipped)."""

from __future__ import annotations

import random
from functools import cache

from dicehall.bots.whitedie.advisor import (
    POINTS,
    WIN,
    maxn_solution,
    minimising,
    options,
    tictactoe_move,
    utility,
)
from dicehall.bots.whitedie.winprob import points_utility
from dicehall.core.game import Action, State
from dicehall.games.whitedie.rules import CHOOSE, TICTACTOE, WhiteDieState

LEVELS = ("random", "greedy", "perfect")
DEFAULT_LEVEL = "perfect"


class Bot:
    """A White Die agent, also the opponent inside tic-tac-toe and matching (where it
    minimises the player's score or winning chance).

    >>> from dicehall import load_game
    >>> s = load_game("whitedie").setup([0, 0], 0, white=6, dice=[3, 3, 3, 3])
    >>> s.action_to_text(Bot("greedy").act(s))
    'stand'
    """

    def __init__(self, level: str | None = None, seed: int | None = None) -> None:
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = level
        self.seed = seed
        self.name = f"bot:{level}"
        self._rng = random.Random(seed)
        if level != "random":
            warm_up()

    def act(self, state: State) -> Action:
        if not isinstance(state, WhiteDieState):
            raise TypeError("this bot plays White Die only")
        actions = state.legal_actions()
        if not actions or state.current_player() < 0:
            raise ValueError("no decision to make here")
        if self.level == "random":
            return actions[self._rng.randrange(len(actions))]
        objective = WIN if self.level == "perfect" else POINTS
        if state.phase == CHOOSE and not (objective == WIN and maxn_solution(state) is not None):
            return _choose_opponent(state)
        if state.phase == TICTACTOE:
            return tictactoe_move(state, utility(state) if objective == WIN else points_utility())
        valued = options(state, objective)
        sign = -1 if minimising(state, objective) else 1
        best = max(sign * v for _, v in valued)
        # the first of the best in legal order: stand before rerolls, fewer dice first
        for action, v in valued:
            if sign * v >= best - 1e-12:
                return action
        raise AssertionError("unreachable")

    def __repr__(self) -> str:
        return f"Bot(level={self.level!r}, seed={self.seed})"


@cache
def warm_up() -> None:
    """Build every table a decision needs once per process (a second or two), so that
    each decision afterwards takes milliseconds."""
    from dicehall.bots.whitedie import matching, reroll
    from dicehall.bots.whitedie.dice import option_matrix
    from dicehall.bots.whitedie.tables import load_tables

    load_tables()
    option_matrix()
    for white in reroll.REROLL_CHALLENGES:
        reroll.expected_score(white)
    matching.exact_tables()
    matching.transition(1)
    matching.transition(2)


def _choose_opponent(state: WhiteDieState) -> Action:
    """Every opponent is assumed to play perfectly, so the challenge is worth the same
    against anyone: take on the strongest rival (most points, then nearest seat)."""
    n = len(state.scores)
    others = [(state.turn + k) % n for k in range(1, n)]
    seat = max(others, key=lambda s: (state.scores[s], -others.index(s)))
    from dicehall.games.whitedie.rules import ChooseOpponent

    return ChooseOpponent(seat)
