"""White Die as integers and tensors, for reinforcement learning and OpenSpiel.

The same ids and tensor shape serve every number of players (2..6), so one network
or table can be used across them.

**Decision ids** (``NUM_ACTIONS`` = 281):

* ``0``: stand;
* ``1..209``: reroll the dice showing ``values``, by the rank of the multiset in
  ``MULTISETS`` (all sorted tuples of one to four faces, shortest first);
* ``210..263``: place the die ``v`` on square ``sq`` (0..8): ``210 + 9 * (v - 1) + sq``;
* ``264..269``: choose the seat ``s`` (0-based) as opponent: ``264 + s``;
* ``270..278``: arrange the Pips square to score ``p`` (0..8): ``270 + p``;
* ``279``: claim the empty tic-tac-toe squares; ``280``: decline the claim.

**Chance-outcome ids** (``NUM_CHANCE_OUTCOMES`` = 966):

* ``0``: a white 1 at a turn (the coloured dice do not matter);
* ``1..756``: the white die ``w`` with four coloured dice ``d``:
  ``1 + 126 * (w - 1) + rank of d among the four-dice multisets``;
* ``757..965``: a roll of one to four dice without a white die (the opponent's four
  dice, a reroll): ``757 + rank of the dice in MULTISETS``.

**Observation** (``float32``, shape ``(210,)``), for the seat ``player``. Seats are
seen relative to ``player``: slot ``k`` is seat ``(player + k) % players``, so slot 0
is always the observer, and slots beyond the number of players stay 0.

* 0..5: each slot's score / target (at most 2); 6..11: 1 for each slot that is a player;
* 12..17: the slot to act (none at chance and terminal nodes); 18..23: the slot
  whose turn it is; 24..29: the slot of the chosen opponent; 30..35: the winner;
* 36..45: the phase one-hot (start, roll, choose, opponent-roll, reroll, tic-tac-toe,
  match-player, match-opponent, match-last, over);
* 46..51: the white die one-hot (none between challenges);
* 52..57, 58..63, 64..69: how many of the player's dice, the opponent's dice and the
  dice kept during a reroll show each face 1..6, divided by 4;
* 70: dice being rolled / 4; 71: rerolls left / 2; 72: 1 if the player (not the
  opponent) places next in tic-tac-toe;
* 73..207: the tic-tac-toe grid, 15 units per square (9 squares ``a1 b1 c1 a2 ...``):
  empty, the player's die 1..6 or claim, the opponent's die 1..6 or claim;
* 208: 1 in the phase where the player arranges his Pips square, 209: 1 where he
  decides the claim (the free choices, added after the ten phases above; those
  phases leave 36..45 at 0).

>>> from dicehall import load_game
>>> state = load_game("whitedie", players=3).new_initial_state()
>>> enc = Encoding(state.game)
>>> len(enc.chance_ids(state)), enc.observation(state, 2).shape
(756, (210,))
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from dicehall.core.encoding import ActionEncoding
from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.games.whitedie.challenges import CLAIMED
from dicehall.games.whitedie.rules import (
    ARRANGE,
    CHOOSE,
    CLAIM,
    MATCH_LAST,
    MATCH_OPPONENT,
    MATCH_PLAYER,
    OPPONENT_ROLL,
    OVER,
    PLAYER_SIDE,
    REROLL,
    ROLL,
    START,
    TICTACTOE,
    Arrange,
    ChooseOpponent,
    Claim,
    Place,
    Reroll,
    Roll,
    Stand,
)

MAX_SEATS = 6
MULTISETS: tuple[tuple[int, ...], ...] = tuple(
    c for size in range(1, 5) for c in combinations_with_replacement(range(1, 7), size)
)
RANK = {m: i for i, m in enumerate(MULTISETS)}
FOUR_RANK = {m: i for i, m in enumerate(c for c in MULTISETS if len(c) == 4)}
PLACE_BASE = 1 + len(MULTISETS)
CHOOSE_BASE = PLACE_BASE + 54
ARRANGE_BASE = CHOOSE_BASE + MAX_SEATS
CLAIM_ID = ARRANGE_BASE + 9
NUM_ACTIONS = CLAIM_ID + 2
PLAIN_ROLL_BASE = 1 + 6 * len(FOUR_RANK)
NUM_CHANCE_OUTCOMES = PLAIN_ROLL_BASE + len(MULTISETS)
PHASES = (
    START, ROLL, CHOOSE, OPPONENT_ROLL, REROLL, TICTACTOE,
    MATCH_PLAYER, MATCH_OPPONENT, MATCH_LAST, OVER,
)  # fmt: skip
OBSERVATION_SIZE = 73 + 9 * 15 + 2
#: the observation's units of the two phases added with the free choices
LATER_PHASES = {ARRANGE: 208, CLAIM: 209}


def decision_id(action: Any) -> int:
    """The decision id of a White Die decision (see the module docstring).

    Raises ``ValueError`` for anything else.

    >>> decision_id(Stand()), decision_id(Reroll((2, 5))), decision_id(Place(6, 8))
    (0, 16, 263)
    >>> decision_id(Arrange(3)), decision_id(Claim(True)), decision_id(Claim(False))
    (273, 279, 280)
    """
    if isinstance(action, Stand):
        return 0
    if isinstance(action, Reroll) and action.values in RANK:
        return 1 + RANK[action.values]
    if isinstance(action, Place) and 1 <= action.value <= 6 and 0 <= action.square < 9:
        return PLACE_BASE + 9 * (action.value - 1) + action.square
    if isinstance(action, ChooseOpponent) and 0 <= action.seat < MAX_SEATS:
        return CHOOSE_BASE + action.seat
    if isinstance(action, Arrange) and 0 <= action.points <= 8:
        return ARRANGE_BASE + action.points
    if isinstance(action, Claim):
        return CLAIM_ID + (not action.take)
    raise ValueError(f"{action!r} is not a White Die decision")


def chance_id(roll: Any) -> int:
    """The chance-outcome id of a White Die ``Roll``; raises ``ValueError`` otherwise.

    >>> chance_id(Roll((), 1)), chance_id(Roll((1, 1, 1, 1), 2)), chance_id(Roll((6,)))
    (0, 127, 762)
    """
    if isinstance(roll, Roll):
        if roll.white is None and roll.dice in RANK:
            return PLAIN_ROLL_BASE + RANK[roll.dice]
        if roll.white == 1 and roll.dice == ():
            return 0
        if roll.white is not None and 1 <= roll.white <= 6 and roll.dice in FOUR_RANK:
            return 1 + 126 * (roll.white - 1) + FOUR_RANK[roll.dice]
    raise ValueError(f"{roll!r} is not a White Die roll")


def _counts(dice: tuple[int, ...], out: np.ndarray[Any, Any], base: int) -> None:
    for face in dice:
        out[base + face - 1] += 0.25


class Encoding(ActionEncoding):
    """Integer ids, masks and observations of White Die (see the module docstring)."""

    num_actions = NUM_ACTIONS
    num_chance_outcomes = NUM_CHANCE_OUTCOMES
    observation_shape = (OBSERVATION_SIZE,)

    def chance_key(self, state: State) -> Any:
        phase = state.phase  # type: ignore[attr-defined]
        return (phase if phase in (START, ROLL) else "dice", state.chance_dice())

    def action_to_id(self, state: State, action: Any) -> int:
        player = state.current_player()
        if player == TERMINAL:
            raise IllegalActionError(str(action), "the game is over")
        try:
            return chance_id(action) if player == CHANCE else decision_id(action)
        except ValueError as exc:
            raise IllegalActionError(str(action), str(exc)) from None

    def observation(self, state: State, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        s: Any = state
        n = len(s.scores)
        if not isinstance(player, int) or not 0 <= player < n:
            raise ValueError(f"player must be a seat 0..{n - 1}, not {player!r}")
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)

        def slot(seat: int) -> int:
            return (seat - player) % n

        target = s.game.target
        for seat in range(n):
            out[slot(seat)] = min(s.scores[seat] / target, 2.0)
            out[6 + slot(seat)] = 1.0
        actor = s.current_player()
        if actor >= 0:
            out[12 + slot(actor)] = 1.0
        out[18 + slot(s.turn)] = 1.0
        if s.opponent is not None:
            out[24 + slot(s.opponent)] = 1.0
        if s.winner is not None:
            out[30 + slot(s.winner)] = 1.0
        if s.phase in LATER_PHASES:
            out[LATER_PHASES[s.phase]] = 1.0
        else:
            out[36 + PHASES.index(s.phase)] = 1.0
        if s.white and s.phase not in (START, ROLL, OVER):
            out[46 + s.white - 1] = 1.0
        _counts(s.dice, out, 52)
        _counts(s.opponent_dice, out, 58)
        _counts(s.kept, out, 64)
        out[70] = s.rolling / 4.0
        out[71] = s.rerolls_left / 2.0
        out[72] = 1.0 if s.phase == TICTACTOE and s.side == PLAYER_SIDE else 0.0
        for sq, cell in enumerate(s.grid):
            base = 73 + 15 * sq
            if cell == 0:
                out[base] = 1.0
            elif cell > 0:
                out[base + min(cell, CLAIMED)] = 1.0
            else:
                out[base + 7 + min(-cell, CLAIMED)] = 1.0
        return out
