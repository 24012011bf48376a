"""White Die action text: what players type and what records store.

Canonical texts: ``white 5: 1 2 2 6`` (a five-dice roll, white die first), ``white 1``,
``2 5`` (dice rolled for a reroll or the opponent's roll), ``stand``, ``reroll 2 5``,
``place 4 b1``, ``opponent 3``, ``arrange 2`` (Pips: a square scoring 2), ``claim`` and
``decline`` (the tic-tac-toe claim). The parser also accepts short forms:

* ``reroll 2 5`` names dice by value; if those values are not all showing, the
  numbers are read as positions 1-4 in the order shown (``#2 #4`` always means
  positions); ``reroll all``, ``keep 5 5`` (reroll the others), ``r 6``;
* ``stand``, ``s``, ``keep all``, ``reroll none``;
* ``place 4 b1``, ``4 b1``, ``4b1``, ``p 4 on b1``;
* ``opponent 3``, ``vs 3``, ``o 3`` or just ``3`` when choosing an opponent;
* ``arrange 2``, ``a 2``, ``score 2``, just ``2``, or ``best`` when arranging Pips;
* ``claim``, ``c``, ``yes``, ``take`` and ``decline``, ``d``, ``no``, ``leave`` at the claim.

>>> from dicehall import load_game
>>> s = load_game("whitedie").setup([0, 0], 0, white=2, dice=[2, 3, 5, 5])
>>> [str(s.parse_action(t)) for t in ("r 5 2", "keep 5 5", "#1 #2", "reroll all")]
['reroll 2 5', 'reroll 2 3', 'reroll 2 3', 'reroll 2 3 5 5']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from dicehall.core.errors import GameOverError
from dicehall.games.whitedie.board import (
    ARRANGE,
    CHOOSE,
    CLAIM,
    MATCH_OPPONENT,
    ROLL,
    START,
    TICTACTOE,
    Action,
    Arrange,
    ChooseOpponent,
    Claim,
    Place,
    Reroll,
    Roll,
    Stand,
    remove,
)
from dicehall.games.whitedie.challenges import pip_scores, square_index

if TYPE_CHECKING:
    from dicehall.games.whitedie.rules import WhiteDieState

_STAND = {"stand", "s", "keep all", "reroll none", "r none", "none", "score", "stay"}
_PLACE = re.compile(
    r"^(?:place|put|play|p)?\s*([1-6])\s*(?:on|at|to|@)?\s*([a-c][1-3]|[1-3][a-c])$"
)
_CHOOSE = re.compile(r"^(?:opponent|opp|vs|versus|o|against|choose|seat)?\s*(\d+)$")
_ARRANGE = re.compile(r"^(?:arrange|arr|a|score|points)?\s*(\d+)(?:\s*points?)?$")
_CLAIMS = {"claim": True, "c": True, "yes": True, "y": True, "take": True, "claim all": True,
           "decline": False, "d": False, "no": False, "n": False, "leave": False,
           "leave empty": False, "no claim": False}  # fmt: skip


def parse_action(state: WhiteDieState, text: str) -> Action:
    """The legal action ``text`` means in ``state``.

    :raises ActionSyntaxError: if ``text`` is empty or no roll, choice, placement or reroll.
    :raises GameOverError: if the game has ended.
    :raises IllegalActionError: if it is well formed but not legal here.
    """
    raw = text
    text = " ".join(text.strip().lower().replace(",", " ").split())
    if state.is_terminal():
        raise GameOverError(raw)
    if not text:
        raise state.syntax_error(raw, "empty action")
    action = _parse(state, text, raw)
    if not state.is_legal(action):
        raise state.illegal(raw, _why(state, action))
    return action


def _parse(state: WhiteDieState, text: str, raw: str) -> Action:
    if state.is_chance_node():
        return _parse_roll(state, text, raw)
    if state.phase == CHOOSE:
        m = _CHOOSE.match(text)
        if not m:
            raise state.syntax_error(raw, "choose your opponent by seat number, e.g. 'opponent 2'")
        return ChooseOpponent(int(m.group(1)) - 1)
    if state.phase not in (ARRANGE, CLAIM):  # said at the wrong time: say when they apply
        if text in ("claim", "decline"):
            return Claim(text == "claim")
        if re.fullmatch(r"arrange \d+", text):
            return Arrange(int(text.split()[1]))
    if state.phase == ARRANGE:
        if text in ("best", "arrange best", "stand", "s"):
            return Arrange(pip_scores(state.dice)[0])
        m = _ARRANGE.match(text)
        if not m:
            raise state.syntax_error(raw, "arrange the square by its score, e.g. 'arrange 2'")
        return Arrange(int(m.group(1)))
    if state.phase == CLAIM:
        if text not in _CLAIMS:
            raise state.syntax_error(
                raw, "answer 'claim' (the empty squares are yours) or 'decline'"
            )
        return Claim(_CLAIMS[text])
    if state.phase == TICTACTOE:
        m = _PLACE.match(text)
        if not m:
            raise state.syntax_error(raw, "place a die by value and square, e.g. 'place 4 b1'")
        return Place(int(m.group(1)), square_index(m.group(2)))
    if text in _STAND:
        return Stand()
    words = text.split()
    head = words[0]
    dice = state.opponent_dice if state.phase == MATCH_OPPONENT else state.dice
    if head in ("keep", "k"):
        kept = _numbers(state, words[1:], raw)
        rest = remove(dice, kept)
        if rest is None:
            raise state.illegal(
                raw, f"you cannot keep {' '.join(map(str, kept))}: dice {_show(dice)}"
            )
        if not rest:
            return Stand()
        return Reroll(rest)
    if head in ("reroll", "r", "roll", "re"):
        words = words[1:]
    if words in (["all"], ["everything"]):
        return Reroll(dice)
    if not words:
        raise state.syntax_error(raw, "say which dice to reroll, e.g. 'reroll 2 5'")
    if all(w.startswith("#") for w in words):
        return Reroll(_positions(state, [w[1:] for w in words], dice, raw))
    values = _numbers(state, words, raw)
    if remove(dice, values) is not None:
        return Reroll(tuple(sorted(values)))
    if len(set(values)) == len(values) and all(1 <= v <= len(dice) for v in values):
        return Reroll(_positions(state, [str(v) for v in values], dice, raw))
    raise state.illegal(raw, f"those dice are not all showing: dice {_show(dice)}")


def _numbers(state: WhiteDieState, words: list[str], raw: str) -> list[int]:
    out: list[int] = []
    for w in words:
        if re.fullmatch(r"[1-6]+", w):
            out += [int(c) for c in w]
        else:
            raise state.syntax_error(raw, f"{w!r} is not a die value 1..6")
    return out


def _positions(
    state: WhiteDieState, words: list[str], dice: tuple[int, ...], raw: str
) -> tuple[int, ...]:
    try:
        pos = [int(w) for w in words]
    except ValueError:
        raise state.syntax_error(raw, "positions are numbers 1..4, e.g. '#1 #3'") from None
    if len(set(pos)) != len(pos) or any(not 1 <= p <= len(dice) for p in pos):
        raise state.illegal(raw, f"positions must be distinct, 1..{len(dice)}")
    return tuple(sorted(dice[p - 1] for p in pos))


def _parse_roll(state: WhiteDieState, text: str, raw: str) -> Roll:
    digits = [int(c) for c in re.sub(r"^(white|w)\b", "", text) if c.isdigit()]
    if any(not 1 <= d <= 6 for d in digits):
        raise state.syntax_error(raw, "die faces are 1..6")
    if state.phase in (START, ROLL):
        if not digits:
            raise state.syntax_error(raw, "write the roll as 'white 5: 1 2 2 6'")
        white = digits[0]
        if state.phase == ROLL and white == 1:
            return Roll((), 1)
        return Roll(tuple(sorted(digits[1:])), white)
    return Roll(tuple(sorted(digits)))


def _show(dice: tuple[int, ...]) -> str:
    return " ".join(map(str, dice)) or "none"


def _why(state: WhiteDieState, action: Action) -> str:
    """Why a well-formed action is not legal here."""
    if state.is_chance_node():
        return f"the dice to roll now are {state.chance_dice()} dice"
    if isinstance(action, ChooseOpponent):
        return "choose another player's seat"
    if isinstance(action, Place):
        return f"{action.value} cannot go on that square now"
    if isinstance(action, Arrange):
        if state.phase != ARRANGE:
            return "a square is arranged only at the end of Pips"
        can = ", ".join(map(str, pip_scores(state.dice)))
        return f"no arrangement of {_show(state.dice)} scores {action.points}; it can score {can}"
    if isinstance(action, Claim):
        return "the claim is decided only when nobody can place and all your dice are placed"
    if isinstance(action, Stand):
        return "you must reroll exactly two dice now" if state.phase != ROLL else "roll first"
    if isinstance(action, Reroll):
        n = len(action.values)
        return {
            "match-player": f"you must reroll exactly two dice, not {n}",
            "match-opponent": f"the opponent must reroll exactly two dice, not {n}",
            "match-last": f"you may reroll one die or stand, not {n}",
        }.get(state.phase, "not a legal reroll here")
    return "not legal here"
