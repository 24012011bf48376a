"""The Coin Rows bot: levels from beginner to expert, all built on the generic search.

>>> from dicehall import load_game
>>> bot = Bot(level="greedy", seed=1)
>>> state = load_game("coinrows").new_initial_state()
>>> state.action_to_text(bot.act(state))       # level game, nothing to gain by leaving
'roll'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from dicehall.bots.coinrows.evaluation import evaluate, greedy_evaluate, search_bounds
from dicehall.bots.expectimax import ExpectimaxBot, ScoredAction
from dicehall.core.game import Action, State
from dicehall.games.coinrows.rules import CoinRowsState


@dataclass(frozen=True)
class Level:
    """How one level searches: depth, evaluation, node budget and blunder rate."""

    depth: int
    evaluation: Callable[..., Sequence[float]]  # (state, contempt=, root=) -> values
    node_limit: int | None = None
    blunders: float = 0.0  # chance of a uniformly random action instead
    contempt: float = 0.0  # how much less than 0 a draw is worth to the bot


#: A draw is worth this much less than nothing to every level: a player can always
#: leave a level game for a draw, so without it two sound players would never play.
CONTEMPT = 0.35

LEVEL_SPECS: dict[str, Level] = {
    # looks one decision ahead with only the coins in view, and slips now and then
    "beginner": Level(1, greedy_evaluate, blunders=0.25, contempt=CONTEMPT),
    # the plain greedy player: one decision ahead, coins and the capture at hand
    "greedy": Level(1, greedy_evaluate, contempt=CONTEMPT),
    # one decision ahead with the full evaluation (exposure, threats, refills)
    "intermediate": Level(1, evaluate, contempt=CONTEMPT),
    # two decisions ahead (a move and the capture/roll/leave after it)
    "advanced": Level(2, evaluate, contempt=CONTEMPT),
    # three decisions ahead where the budget allows (about a second at most), else two
    "expert": Level(3, evaluate, node_limit=3_000, contempt=CONTEMPT),
}
LEVELS = tuple(LEVEL_SPECS)
DEFAULT_LEVEL = "advanced"


class Bot:
    """A Coin Rows player of the given ``level`` (see ``LEVELS``), reproducible from ``seed``."""

    def __init__(self, level: str | None = None, seed: int | None = None) -> None:
        level = (level or DEFAULT_LEVEL).strip().lower()
        if level not in LEVEL_SPECS:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = level
        self.seed = seed
        self.name = f"coinrows bot:{level}"
        spec = LEVEL_SPECS[level]
        self._spec = spec
        self._rng = random.Random(seed)
        self._seat: int | None = None
        self._search = ExpectimaxBot(
            depth=spec.depth,
            evaluate=spec.evaluation,
            node_limit=spec.node_limit,
            contempt=spec.contempt,
            seed=seed,
            name=self.name,
        )

    def act(self, state: State) -> Action:
        """The level's choice in ``state`` (seat to act)."""
        assert isinstance(state, CoinRowsState)
        actions: list[Action] = list(state.legal_actions())
        if self._spec.blunders and self._rng.random() < self._spec.blunders:
            return actions[self._rng.randrange(len(actions))]
        self._prepare(state)
        return self._search.act(state)

    def _prepare(self, state: CoinRowsState) -> None:
        seat = state.current_player()
        if seat != self._seat:
            self._seat = seat
            self._search.evaluate = partial(
                self._spec.evaluation, contempt=self._spec.contempt, root=seat
            )
        self._search.bounds = search_bounds(state)

    def analyse(self, state: State, depth: int | None = None) -> list[ScoredAction]:
        """Every legal action with its value for the player to act, best first."""
        assert isinstance(state, CoinRowsState)
        self._prepare(state)
        return self._search.analyse(state, depth or min(self._spec.depth, 2))

    def __repr__(self) -> str:
        return f"Bot(level={self.level!r}, seed={self.seed})"
