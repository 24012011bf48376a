"""Coin Rows as integers and tensors, for reinforcement learning and OpenSpiel.

**Decision ids** (``NUM_ACTIONS`` = 1,185):

* ``0``: roll; ``1``: leave;
* ``2..106``: a capture in row ``r`` (2..6, 0-based 1..5) of the coins from column
  ``first`` to column ``last``: ``2 + 21 * (r - 1) + pair(first, last)``, where
  ``pair`` ranks the 21 column pairs ``first < last`` (a, b), (a, c) ... (f, g).
  Under the ``row`` rule a row has one capture; under ``adjacent`` each run is one;
* ``107..155``: one coin moved, ``107 + 7 * column + to_row``;
* ``156..1184``: two coins moved, ``156 + 49 * pair(c1, c2) + 7 * to1 + to2`` for the
  coins of columns ``c1 < c2`` going to rows ``to1`` and ``to2``.

A coin's column names it (a column holds one coin), so the target rows fix a move.

**Chance-outcome ids** (``NUM_CHANCE_OUTCOMES`` = 21): the rolls in the order of
``ALL_ROLLS`` (1-1, 1-2, ... 6-6, low die first).

**Observation** (``float32``, shape ``(118,)``), for the seat ``player``:

* 0..48: ``player``'s coins, one-hot ``7 * column + row`` (rows 0..6 from player 1's
  side, as in the rules); 49..97: the opponent's coins, the same way;
* 98, 99: ``player``'s and the opponent's purse / (2 * starting purse);
* 100..103: the phase one-hot (A, dice, B, over);
* 104..109, 110..115: the roll to be moved in Phase B, low and high die one-hot;
* 116: turn number / turn limit; 117: 1 if it is ``player``'s turn.

>>> from dicehall import load_game
>>> state = load_game("coinrows").new_initial_state()
>>> enc = Encoding(state.game)
>>> enc.legal_ids(state), enc.observation(state, 0).shape
([0, 1], (118,))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dicehall.core.encoding import ActionEncoding
from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.games.coinrows.rules import (
    ALL_ROLLS,
    LEAVE,
    ROLL,
    SIZE,
    Capture,
    Move,
    Phase,
    Roll,
)

_PAIRS = [(a, b) for a in range(SIZE) for b in range(a + 1, SIZE)]
PAIR = {p: i for i, p in enumerate(_PAIRS)}
CAPTURE_BASE = 2
SINGLE_BASE = CAPTURE_BASE + 5 * len(_PAIRS)
DOUBLE_BASE = SINGLE_BASE + SIZE * SIZE
NUM_ACTIONS = DOUBLE_BASE + len(_PAIRS) * SIZE * SIZE
NUM_CHANCE_OUTCOMES = len(ALL_ROLLS)
ROLL_IDS = {roll: i for i, (roll, _) in enumerate(ALL_ROLLS)}
OBSERVATION_SIZE = 118
_PHASES = (Phase.A, Phase.DICE, Phase.B, Phase.OVER)


def decision_id(action: Any) -> int:
    """The decision id of a Coin Rows decision (see the module docstring).

    Raises ``ValueError`` for anything else.

    >>> decision_id(Move(((2, 0, 3),))), decision_id(Capture(3, (1, 2, 3)))
    (124, 51)
    """
    if action is ROLL:
        return 0
    if action is LEAVE:
        return 1
    if isinstance(action, Capture) and len(action.columns) >= 2 and 1 <= action.row <= 5:
        return CAPTURE_BASE + 21 * (action.row - 1) + PAIR[action.columns[0], action.columns[-1]]
    if isinstance(action, Move):
        steps = action.steps
        if len(steps) == 1:
            return SINGLE_BASE + SIZE * steps[0][0] + steps[0][2]
        if len(steps) == 2 and steps[0][0] < steps[1][0]:
            (c1, _, t1), (c2, _, t2) = steps
            return DOUBLE_BASE + 49 * PAIR[c1, c2] + SIZE * t1 + t2
    raise ValueError(f"{action!r} is not a Coin Rows decision")


class Encoding(ActionEncoding):
    """Integer ids, masks and observations of Coin Rows (see the module docstring)."""

    num_actions = NUM_ACTIONS
    num_chance_outcomes = NUM_CHANCE_OUTCOMES
    observation_shape = (OBSERVATION_SIZE,)

    def chance_key(self, state: State) -> Any:
        return "roll"  # every roll of the game has the same 21 outcomes

    def action_to_id(self, state: State, action: Any) -> int:
        player = state.current_player()
        if player == TERMINAL:
            raise IllegalActionError(str(action), "the game is over")
        if player == CHANCE:
            if not isinstance(action, Roll):
                raise IllegalActionError(str(action), "a roll of the dice is expected")
            return ROLL_IDS[action]
        try:
            return decision_id(action)
        except ValueError as exc:
            raise IllegalActionError(str(action), str(exc)) from None

    def observation(self, state: State, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        if player not in (0, 1):
            raise ValueError(f"player must be seat 0 or 1, not {player!r}")
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        s: Any = state
        for column, coin in enumerate(s.board):
            if coin is not None:
                out[(0 if coin.owner == player else 49) + SIZE * column + coin.row] = 1.0
        scale = 2.0 * s.game.purse
        out[98] = s.purses[player] / scale
        out[99] = s.purses[1 - player] / scale
        out[100 + _PHASES.index(s.phase)] = 1.0
        if s.phase is Phase.B:
            out[104 + s.last_roll.low - 1] = 1.0
            out[110 + s.last_roll.high - 1] = 1.0
        out[116] = s.turn_number / int(s.game.options["turn_limit"])
        out[117] = 1.0 if s.turn == player else 0.0
        return out
