"""Backgammon as integers and tensors, for reinforcement learning and OpenSpiel.

**Decision ids** (``NUM_ACTIONS`` = 24,426). A play is identified by which checkers
it moves, which fixes the position it reaches:

* ``0``: the pass (no die can be played);
* ``1..675``, when the dice differ: ``26 * h + l``, where ``h`` is the point the
  higher die is played from and ``l`` the point the lower die is played from, in the
  mover's numbering (1..24, 25 = the bar), 0 when that die is not played. ``24/18
  13/10`` with 6-3 is ``26 * 24 + 13``; ``24/15`` (one checker moving both) is the
  id of the order ``legal_actions()`` lists, e.g. ``24/18/15`` = ``26 * 24 + 18``;
* ``676..24425``, for doubles: the multiset of the one to four points the checkers
  are moved from (each by the die), ranked in a fixed table.

Two orders of the same checkers reaching the same position are one action, as in
``legal_actions()``; its representative's id is the legal one.

**Chance-outcome ids** (``NUM_CHANCE_OUTCOMES`` = 36): ``6 * (first - 1) + (second - 1)``
of the ``Roll``; after the opening only high-first rolls occur (21 of them).

**Observation** (``float32``, shape ``(210,)``), for the seat ``player``:

* 0..97: ``player``'s checkers in his own numbering: for each point 1..24 Tesauro's
  four units (1 if at least one checker, 1 if at least two, 1 if at least three,
  (n - 3) / 2 beyond three), then bar / 2 and borne off / 15;
* 98..195: the same for the opponent, in the opponent's own numbering;
* 196, 197: 1 if ``player`` (resp. the opponent) is the seat on roll or to move;
* 198..203 and 204..209: the dice to be played, high die and low die one-hot
  (all zero while the dice are still to be rolled).

That is Tesauro's 198 inputs of TD-Gammon (0..197) followed by the dice.

>>> from dicehall import load_game
>>> state = load_game("backgammon").new_initial_state().apply_text("3-1")
>>> enc = Encoding(state.game)
>>> enc.id_to_action(state, 26 * 8 + 6)
Play(steps=((8, 5), (6, 5)))
>>> enc.observation(state, 0).shape
(210,)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from dicehall.core.encoding import ActionEncoding
from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.games.backgammon.rules import BAR, OFF, Play, Roll

PASS_ID = 0
SINGLE_IDS = 26 * 26
NUM_CHANCE_OUTCOMES = 36
OBSERVATION_SIZE = 210


@cache
def _double_table() -> tuple[dict[tuple[int, ...], int], list[tuple[int, ...]]]:
    """Rank of each multiset (sorted high first) of one to four source points 1..25."""
    ranked: list[tuple[int, ...]] = []
    for size in range(1, 5):
        for combo in combinations_with_replacement(range(BAR, 0, -1), size):
            ranked.append(combo)
    return {c: SINGLE_IDS + i for i, c in enumerate(ranked)}, ranked


NUM_ACTIONS = SINGLE_IDS + len(_double_table()[1])


def _lands(src: int, die: int) -> int:
    return src - die if src - die > 0 else OFF


def play_id(dice: tuple[int, int], steps: tuple[tuple[int, int], ...]) -> int:
    """The decision id of a play of ``steps`` with ``dice`` (high die first).

    Raises ``ValueError`` when a step cannot be a move of one of the dice.

    >>> play_id((6, 3), ((24, 18), (13, 10)))
    637
    """
    high, low = dice
    if not steps:
        return PASS_ID
    if high == low:
        if len(steps) > 4 or any(dst != _lands(src, high) for src, dst in steps):
            raise ValueError(f"steps {steps} are not moves of {high}s")
        return _double_table()[0][tuple(sorted((src for src, _ in steps), reverse=True))]
    if len(steps) > 2:
        raise ValueError(f"two different dice move at most two checkers, not {steps}")
    for order in ((high, low), (low, high)):
        if all(dst == _lands(src, die) for (src, dst), die in zip(steps, order, strict=False)):
            h = l_ = 0
            for (src, _), die in zip(steps, order, strict=False):
                if die == high:
                    h = src
                else:
                    l_ = src
            return 26 * h + l_
    raise ValueError(f"steps {steps} are not moves of the dice {high}-{low}")


def _side_units(side: tuple[int, ...] | Any, out: np.ndarray[Any, Any], base: int) -> None:
    for p in range(1, 25):
        n = side[p]
        if n:
            k = base + 4 * (p - 1)
            out[k] = 1.0
            if n >= 2:
                out[k + 1] = 1.0
            if n >= 3:
                out[k + 2] = 1.0
            if n > 3:
                out[k + 3] = (n - 3) / 2.0
    out[base + 96] = side[BAR] / 2.0
    out[base + 97] = side[OFF] / 15.0


class Encoding(ActionEncoding):
    """Integer ids, masks and observations of backgammon (see the module docstring)."""

    num_actions = NUM_ACTIONS
    num_chance_outcomes = NUM_CHANCE_OUTCOMES
    observation_shape = (OBSERVATION_SIZE,)

    def chance_key(self, state: State) -> Any:
        return state.opening  # type: ignore[attr-defined]

    def action_to_id(self, state: State, action: Any) -> int:
        player = state.current_player()
        if player == TERMINAL:
            raise IllegalActionError(str(action), "the game is over")
        if player == CHANCE:
            if not isinstance(action, Roll):
                raise IllegalActionError(str(action), "a roll of the dice is expected")
            return 6 * (action.first - 1) + (action.second - 1)
        if not isinstance(action, Play):
            raise IllegalActionError(str(action), "a play of the dice is expected")
        try:
            return play_id(state.dice, action.steps)  # type: ignore[attr-defined]
        except ValueError as exc:
            raise IllegalActionError(str(action), str(exc)) from None

    def observation(self, state: State, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        if player not in (0, 1):
            raise ValueError(f"player must be seat 0 or 1, not {player!r}")
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        _side_units(state.side(player), out, 0)  # type: ignore[attr-defined]
        _side_units(state.side(1 - player), out, 98)  # type: ignore[attr-defined]
        out[196 if state.turn == player else 197] = 1.0  # type: ignore[attr-defined]
        dice = state.dice  # type: ignore[attr-defined]
        if dice is not None:
            out[198 + dice[0] - 1] = 1.0
            out[204 + dice[1] - 1] = 1.0
        return out
