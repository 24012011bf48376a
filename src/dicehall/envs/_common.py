"""What the PettingZoo and Gymnasium environments share: games by name, chance from
a seeded numpy generator, and the observation space of an encoding."""

from __future__ import annotations

from typing import Any

import numpy as np

from dicehall.core.encoding import ActionEncoding, encoding_for
from dicehall.core.game import Game, State
from dicehall.core.registry import load_game

#: every observation entry lies in [0, OBSERVATION_HIGH] (see each game's encoding)
OBSERVATION_HIGH = 8.0


def resolve_game(game: str | Game, options: dict[str, Any]) -> Game:
    """A ``Game`` from a name and options, or the given game (then no options)."""
    if isinstance(game, Game):
        if options:
            raise ValueError("give options either in the Game or as keywords, not both")
        return game
    return load_game(game, **options)


def game_encoding(game: Game) -> ActionEncoding:
    """The game's encoding, with a clear error for a game that has none."""
    return encoding_for(game)


def roll(state: State, rng: np.random.Generator) -> State:
    """``state`` with every chance node in a row resolved by ``rng``, each outcome
    drawn with its exact probability."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        probs = np.array([float(p) for _, p in outcomes])
        state = state.apply(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])
    return state
