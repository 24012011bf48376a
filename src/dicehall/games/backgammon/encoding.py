"""Backgammon as integers and tensors, for reinforcement learning and OpenSpiel.

**Decision ids** (``NUM_ACTIONS`` = 24,437, the same for every option set). A play
is identified by which checkers it moves, which fixes the position it reaches:

* ``0``: the pass (no die can be played);
* ``1..675``, when the dice differ: ``26 * h + l``, where ``h`` is the point the
  higher die is played from and ``l`` the point the lower die is played from, in the
  mover's numbering (1..24, 25 = the bar), 0 when that die is not played. ``24/18
  13/10`` with 6-3 is ``26 * 24 + 13``; ``24/15`` (one checker moving both) is the
  id of the order ``legal_actions()`` lists, e.g. ``24/18/15`` = ``26 * 24 + 18``;
* ``676..24425``, for doubles: the multiset of the one to four points the checkers
  are moved from (each by the die), ranked in a fixed table;
* ``24426..24431``, the cube (``CUBE_BASE`` + the index in ``CUBE_KINDS``): ``roll``,
  ``double``, ``take``, ``pass``, ``beaver``, ``raccoon``;
* ``24432..24434``, resignation offers (``RESIGN_BASE`` + level - 1): single,
  gammon, backgammon;
* ``24435``, ``24436``: the answer to a resignation, accept and reject.

The cube and resignation ids are legal only with the cube or in a match (``cube``,
``match_length``). Two orders of the same checkers reaching the same position are
one action, as in ``legal_actions()``; its representative's id is the legal one.

**Chance-outcome ids** (``NUM_CHANCE_OUTCOMES`` = 36): ``6 * (first - 1) + (second - 1)``
of the ``Roll``; after the opening only high-first rolls occur (21 of them).

**Observation** (``float32``), for the seat ``player``; shape ``(210,)``, or ``(227,)``
with the cube or in a match:

* 0..97: ``player``'s checkers in his own numbering: for each point 1..24 Tesauro's
  four units (1 if at least one checker, 1 if at least two, 1 if at least three,
  (n - 3) / 2 beyond three), then bar / 2 and borne off / 15;
* 98..195: the same for the opponent, in the opponent's own numbering;
* 196, 197: 1 if ``player`` (resp. the opponent) is the seat on roll;
* 198..203 and 204..209: the dice to be played, high die and low die one-hot
  (all zero while the dice are still to be rolled).

That is Tesauro's 198 inputs of TD-Gammon (0..197) followed by the dice. With the
cube or in a match, 210..226 follow:

* 210: log2(cube value) / 12; 211, 212, 213: the cube centred, ``player``'s, the
  opponent's;
* 214, 215: ``player`` (resp. the opponent) may double at his next roll
  (``may_double``);
* 216..219: the question being answered, one-hot: double or roll (before the roll),
  take or pass, raccoon or take (after a beaver), accept or reject a resignation;
  220: the level of the resignation offered / 3;
* 221: 1 in a match; 222, 223: ``player``'s and the opponent's scores / the match
  length (0 in money play); 224, 225: this is the Crawford game, a game after it;
* 226: 1 if ``player`` is the one to act now (he answers his opponent's double or
  resignation off roll).

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
from dicehall.games.backgammon.rules import (
    BAR,
    CUBE_DECISION,
    CUBE_KINDS,
    OFF,
    RACCOON_DECISION,
    RESIGN_DECISION,
    TAKE_DECISION,
    CubeAction,
    Play,
    Resign,
    ResignAnswer,
    Roll,
)

PASS_ID = 0
SINGLE_IDS = 26 * 26
NUM_CHANCE_OUTCOMES = 36
#: the observation without the cube and match (Tesauro's 198 inputs and the dice)
OBSERVATION_SIZE = 210
#: the observation with the cube or in a match (the cube, the question, the score)
EXTENDED_OBSERVATION_SIZE = 227
_PENDING_SLOT = {
    CUBE_DECISION: 216,
    TAKE_DECISION: 217,
    RACCOON_DECISION: 218,
    RESIGN_DECISION: 219,
}


@cache
def _double_table() -> tuple[dict[tuple[int, ...], int], list[tuple[int, ...]]]:
    """Rank of each multiset (sorted high first) of one to four source points 1..25."""
    ranked: list[tuple[int, ...]] = []
    for size in range(1, 5):
        for combo in combinations_with_replacement(range(BAR, 0, -1), size):
            ranked.append(combo)
    return {c: SINGLE_IDS + i for i, c in enumerate(ranked)}, ranked


PLAY_IDS = SINGLE_IDS + len(_double_table()[1])
#: the first id of the cube actions (in ``CUBE_KINDS`` order), of the resignation
#: offers (levels 1..3) and of the answers to one (accept, reject)
CUBE_BASE = PLAY_IDS
RESIGN_BASE = CUBE_BASE + len(CUBE_KINDS)
ANSWER_BASE = RESIGN_BASE + 3
NUM_ACTIONS = ANSWER_BASE + 2


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

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.extended = bool(game.extended)
        if self.extended:
            self.observation_shape = (EXTENDED_OBSERVATION_SIZE,)

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
        if isinstance(action, CubeAction):
            return CUBE_BASE + CUBE_KINDS.index(action.kind)
        if isinstance(action, Resign):
            return RESIGN_BASE + action.level - 1
        if isinstance(action, ResignAnswer):
            return ANSWER_BASE + (0 if action.accept else 1)
        if not isinstance(action, Play):
            raise IllegalActionError(
                str(action), "a play, a cube action, a resignation or an answer to one"
            )
        if state.dice is None:  # type: ignore[attr-defined]
            raise IllegalActionError(str(action), "a play needs the dice rolled")
        try:
            return play_id(state.dice, action.steps)  # type: ignore[attr-defined]
        except ValueError as exc:
            raise IllegalActionError(str(action), str(exc)) from None

    def observation(self, state: State, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        if player not in (0, 1):
            raise ValueError(f"player must be seat 0 or 1, not {player!r}")
        s: Any = state
        out = np.zeros(self.observation_shape[0], dtype=np.float32)
        _side_units(s.side(player), out, 0)
        _side_units(s.side(1 - player), out, 98)
        out[196 if s.turn == player else 197] = 1.0
        dice = s.dice
        if dice is not None and s.winner is None:
            out[198 + dice[0] - 1] = 1.0
            out[204 + dice[1] - 1] = 1.0
        if self.extended:
            self._cube_and_match(s, player, out)
        return out

    @staticmethod
    def _cube_and_match(s: Any, player: int, out: np.ndarray[Any, Any]) -> None:
        """Entries 210..226: the cube, the question being answered and the score."""
        out[210] = (s.cube_value.bit_length() - 1) / 12.0
        owner = s.cube_owner
        out[211 if owner is None else 212 if owner == player else 213] = 1.0
        if s.winner is None:
            out[214] = float(s.may_double(player))
            out[215] = float(s.may_double(1 - player))
        slot = _PENDING_SLOT.get(s.pending)
        if slot is not None:
            out[slot] = 1.0
        out[220] = s.resign_level / 3.0
        n = s.match_length
        if n:
            out[221] = 1.0
            out[222] = s.match_score[player] / n
            out[223] = s.match_score[1 - player] / n
        out[224] = float(s.crawford)
        out[225] = float(s.post_crawford)
        out[226] = float(s.current_player() == player)
