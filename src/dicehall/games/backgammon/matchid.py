"""GNU Backgammon Match IDs: the cube, score, dice and pending offers in 12 characters.

A Match ID packs 66 bits, each field least significant bit first, into 9 bytes
written in base64 (gnubg 1.07's ``MatchIDFromKey``):

=======  ====  =====================================================
bits     size  field
=======  ====  =====================================================
1-4      4     log2 of the cube value
5-6      2     cube owner: 0, 1 or 3 (centred)
7        1     the player on roll (or who rolled)
8        1     this game is the Crawford game
9-11     3     game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
12       1     the player to decide now (differs while a double or resignation is answered)
13       1     a double is offered
14-15    2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
16-21    3+3   the dice (0 when not rolled)
22-36    15    match length (0: money)
37-66    15+15 the score of player 0 and of player 1
67       1     the Jacoby rule is NOT in force (1 in every match and in money
               play without Jacoby: gnubg 1.07 sets it, its manual is silent)
=======  ====  =====================================================

gnubg's player 0 is our seat 0. Together with the Position ID (the board seen by
the player on roll) a Match ID gives a whole state: ``state_from_ids``.

>>> from dicehall import load_game
>>> from dicehall.games.backgammon.rules import START_SIDE
>>> game = load_game("backgammon", cube=True, match_length=5)
>>> encode_match_id(game.setup((START_SIDE, START_SIDE), turn=0, dice=(3, 2)))
'MIGpAAAAAAAE'
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from dicehall.games.backgammon.notation import decode_position_id

if TYPE_CHECKING:
    from dicehall.games.backgammon.rules import Backgammon, BackgammonState

#: gnubg's game states
GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)
_FIELDS = (
    ("cube_log", 4),
    ("owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


@dataclass(frozen=True)
class MatchKey:
    """The fields of a Match ID, named as in the table of the module docstring."""

    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def encode(self) -> str:
        """The 12-character Match ID of these fields."""
        values = {
            "cube_log": self.cube_value.bit_length() - 1,
            "owner": 3 if self.cube_owner is None else self.cube_owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford),
            "game_state": self.game_state,
            "turn": self.turn,
            "doubled": int(self.doubled),
            "resigned": self.resigned,
            "die1": self.dice[0],
            "die2": self.dice[1],
            "match_length": self.match_length,
            "score0": self.score[0],
            "score1": self.score[1],
            "no_jacoby": int(not self.jacoby),
        }
        number, shift = 0, 0
        for name, size in _FIELDS:
            value = values[name]
            if not 0 <= value < 1 << size:
                raise ValueError(f"Match ID field {name}={value} does not fit {size} bits")
            number |= value << shift
            shift += size
        return base64.b64encode(number.to_bytes(9, "little")).decode("ascii")


def decode_match_id(match_id: str) -> MatchKey:
    """The fields of a Match ID.

    >>> decode_match_id("cAkAAAAAAAAA").turn
    1

    :raises ValueError: if ``match_id`` is not 12 base64 characters or holds
        impossible fields (a cube owner of 2, dice over 6, a game state over 4, ...).
    """
    text = match_id.strip()
    if not re.fullmatch(r"[A-Za-z0-9+/]{12}", text):
        raise ValueError(f"{match_id!r} is not a Match ID: expected 12 base64 characters")
    number = int.from_bytes(base64.b64decode(text), "little")
    v: dict[str, int] = {}
    for name, size in _FIELDS:
        v[name] = number & ((1 << size) - 1)
        number >>= size
    if v["owner"] == 2:
        raise ValueError(f"{match_id!r}: cube owner 2 is not a player (0, 1 or 3 = centred)")
    if v["game_state"] > GAME_DROP:
        raise ValueError(f"{match_id!r}: game state {v['game_state']} is not 0..4")
    if v["die1"] > 6 or v["die2"] > 6 or (v["die1"] == 0) != (v["die2"] == 0):
        raise ValueError(f"{match_id!r}: dice {v['die1']}-{v['die2']} are not a roll")
    return MatchKey(
        cube_value=1 << v["cube_log"],
        cube_owner=None if v["owner"] == 3 else v["owner"],
        on_roll=v["on_roll"],
        crawford=bool(v["crawford"]),
        game_state=v["game_state"],
        turn=v["turn"],
        doubled=bool(v["doubled"]),
        resigned=v["resigned"],
        dice=(v["die1"], v["die2"]),
        match_length=v["match_length"],
        score=(v["score0"], v["score1"]),
        jacoby=not v["no_jacoby"],
    )


def match_key(state: BackgammonState) -> MatchKey:
    """The Match ID fields of ``state`` (a finished game reads as gnubg's "game over")."""
    from dicehall.games.backgammon.board import RESIGN_DECISION, TAKE_DECISION

    player = state.current_player()
    return MatchKey(
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        on_roll=state.turn,
        crawford=state.crawford,
        game_state=GAME_OVER if state.winner is not None else GAME_PLAYING,
        turn=player if player >= 0 else state.turn,
        doubled=state.pending == TAKE_DECISION,
        resigned=state.resign_level if state.pending == RESIGN_DECISION else 0,
        dice=state.dice or (0, 0),
        match_length=state.match_length,
        score=state.match_score,
        jacoby=state.match_length == 0 and state.jacoby,
    )


def encode_match_id(state: BackgammonState) -> str:
    """The GNU Backgammon Match ID of ``state``."""
    return match_key(state).encode()


def state_from_ids(
    position_id: str, match_id: str, game: Backgammon | None = None, **options: Any
) -> BackgammonState:
    """The state a Position ID and Match ID describe (a game still being played).

    ``game`` defaults to backgammon with the cube, standard scoring and the Match
    ID's match length, plus ``options``.

    :raises ValueError: if either ID is malformed, the game is over, or the IDs
        do not fit the game (another match length, a cube past ``max_cube``...).
    """
    from dicehall.core.registry import load_game
    from dicehall.games.backgammon.board import RESIGN_DECISION, TAKE_DECISION, Resign

    key = decode_match_id(match_id)
    board = decode_position_id(position_id)
    if key.game_state != GAME_PLAYING:
        raise ValueError(f"{match_id!r} describes a game that is not being played")
    if game is None:
        options = {
            "cube": True,
            "scoring": "standard",
            "match_length": key.match_length,
            "jacoby": key.jacoby and key.match_length == 0,
        } | options
        # the registry's backgammon is this package's Backgammon (named, not imported: the
        # rules import this module)
        game = cast("Backgammon", load_game("backgammon", **options))
    if game.match_length != key.match_length:
        raise ValueError(
            f"{match_id!r} is for match length {key.match_length}, "
            f"the game's is {game.match_length}"
        )
    n = key.match_length
    post = bool(n) and not key.crawford and n - 1 in key.score and bool(game.options["crawford"])
    on_roll, opponent = board
    sides = (on_roll, opponent) if key.on_roll == 0 else (opponent, on_roll)
    dice = key.dice if key.dice != (0, 0) else None
    doubled = key.doubled
    state = game.setup(
        sides,
        turn=key.on_roll,
        dice=dice,
        cube_value=key.cube_value,
        cube_owner=key.cube_owner,
        match_score=key.score,
        crawford=key.crawford,
        post_crawford=post,
        pending=TAKE_DECISION if doubled else None,
    )
    if key.resigned:
        state = state.apply(Resign(key.resigned))
        assert state.pending == RESIGN_DECISION
    return state
