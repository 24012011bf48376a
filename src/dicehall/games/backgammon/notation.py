"""Backgammon notation: move text (``24/18 13/11``, ``bar/22*``, ``8/5(2)``) and
GNU Backgammon Position IDs.

>>> from dicehall import load_game
>>> s = load_game("backgammon").new_initial_state().apply_text("6-4")
>>> s.parse_action("13/7 24/20") == s.parse_action("24/20 13/7")
True
>>> s.action_to_text(s.parse_action("13/7 24/20"))
'24/20 13/7'
"""

from __future__ import annotations

import base64
import itertools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dicehall.core.errors import GameOverError
from dicehall.games.backgammon.board import (
    BAR,
    CHECKERS,
    OFF,
    RESIGN_DECISION,
    Board,
    CubeAction,
    Resign,
    ResignAnswer,
    Roll,
    Step,
)

if TYPE_CHECKING:
    from dicehall.games.backgammon.rules import Action, BackgammonState


def point_text(point: int) -> str:
    """``bar``, ``off`` or the point number, in the mover's numbering."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)


#: ``point_text`` of every point, by its number
_POINT_TEXTS = tuple(point_text(p) for p in range(26))


def format_play(board: Board, steps: Sequence[Step]) -> str:
    """Canonical text of a play: one checker's consecutive steps joined (``13/5``),
    a hit on the way kept (``13/7*/5``), repeats counted (``8/5(2)``), highest first.

    The server formats every legal play of every position it sends (those not in its
    cache of texts): this is written for speed. A step hits where it lands on a single
    checker of theirs that no earlier step hit (``move_step``: nothing else the steps
    change decides a hit or the text), so the board is not copied and moved."""
    if not steps:
        return "pass"
    theirs = board[1]
    hit_points: list[int] = []
    paths: list[list[tuple[int, bool]]] = []
    for src, dst in steps:
        hit = False
        if dst != OFF:
            p = 25 - dst
            if theirs[p] == 1 and p not in hit_points:
                hit_points.append(p)
                hit = True
        paths.append([(src, False), (dst, hit)])
    if len(paths) > 1:
        merged = True
        while merged:
            merged = False
            for i, a in enumerate(paths):
                end = a[-1][0]
                if end == OFF:
                    continue
                for j, b in enumerate(paths):
                    if i != j and b[0][0] == end:
                        paths[i] = a + b[1:]
                        del paths[j]
                        merged = True
                        break
                if merged:
                    break
    names = _POINT_TEXTS
    if len(paths) == 1:  # one checker: no repeats, nothing to order
        path = paths[0]
        last = path[-1]
        parts = [names[path[0][0]]]
        parts += [names[p] + "*" for p, hit in path[1:-1] if hit]
        parts.append(names[last[0]] + "*" if last[1] else names[last[0]])
        return "/".join(parts)
    texts: dict[tuple[int, ...], tuple[str, int]] = {}
    for path in paths:
        shown = [path[0]] + [p for p in path[1:-1] if p[1]] + [path[-1]]
        key = tuple(p for p, _ in shown)
        text = "/".join(names[p] + "*" if hit else names[p] for p, hit in shown)
        if key in texts:
            old, n = texts[key]
            # identical routes: keep any hit mark, count the checkers
            texts[key] = (old if "*" in old else text, n + 1)
        else:
            texts[key] = (text, 1)
    order = sorted(texts, key=lambda k: tuple(-p for p in k))
    return " ".join(t + (f"({n})" if n > 1 else "") for t, n in (texts[k] for k in order))


_POINT = r"(?:bar|b|off|o|\d{1,2})"
_TOKEN = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$")
_PASS = {"", "pass", "none", "no move", "nomove", "cannot move", "-", "0"}


def _point_value(text: str) -> int:
    if text in ("bar", "b"):
        return BAR
    if text in ("off", "o"):
        return OFF
    value = int(text)
    if not 0 <= value <= 25:
        raise ValueError(f"there is no point {value}; points are 1..24, bar and off")
    return value


def _parse_segments(text: str) -> list[tuple[list[int], set[int], int]]:
    """Split move text into (points along the path, hit-marked points, count)."""
    norm = text.lower().replace(",", " ").replace("\\", "/")
    # accept 24-18 as 24/18 (not inside parentheses)
    norm = re.sub(r"(?<=[\w*])-(?=\w)", "/", norm)
    norm = re.sub(r"\s*/\s*", "/", norm)
    norm = re.sub(r"\s+\(", "(", norm)
    segments = []
    for token in norm.split():
        m = _TOKEN.match(token)
        if not m:
            raise ValueError(
                f"cannot read {token!r}: write moves like 24/18 13/11, bar/22*, 6/off, 8/5(2)"
            )
        points, marks = [], set()
        for part in m.group(1).split("/"):
            value = _point_value(part.rstrip("*"))
            if part.endswith("*"):
                marks.add(value)
            points.append(value)
        count = int(m.group(2) or 1)
        if count < 1 or count > 4:
            raise ValueError(f"{token!r}: a count in brackets must be 1..4")
        for a, b in itertools.pairwise(points):
            if b >= a:
                raise ValueError(
                    f"{token!r}: checkers move from higher to lower points "
                    "(in your own numbering: bar=25 down to off=0)"
                )
        if points[0] == OFF:
            raise ValueError(f"{token!r}: a move cannot start from off")
        segments.append((points, marks, count))
    return segments


#: what players type for each cube word (gnubg's commands included)
_CUBE_SYNONYMS = {
    "roll": ("roll", "r", "no double", "nodouble", "no", "nd"),
    "double": ("double", "d", "redouble", "dbl"),
    "take": ("take", "t", "accept", "ok"),
    "pass": ("pass", "drop", "p", "reject", "decline", "refuse"),
    "beaver": ("beaver", "b"),
    "raccoon": ("raccoon", "racoon"),
}
_RESIGN_WORDS = {
    "": 1,
    "1": 1,
    "s": 1,
    "n": 1,
    "single": 1,
    "normal": 1,
    "2": 2,
    "g": 2,
    "gammon": 2,
    "3": 3,
    "b": 3,
    "bg": 3,
    "backgammon": 3,
}
_ANSWER_WORDS = {
    "accept": True,
    "a": True,
    "yes": True,
    "y": True,
    "ok": True,
    "reject": False,
    "decline": False,
    "no": False,
    "n": False,
    "refuse": False,
}


def parse_resign(state: BackgammonState, raw: str, words: str) -> Resign:
    """The resignation ``resign [single|gammon|backgammon]`` means; raises
    ``IllegalActionError`` for an unknown level or an offer not allowed now."""
    rest = words.removeprefix("resign").strip()
    if rest not in _RESIGN_WORDS:
        raise state.illegal(raw, "resign single, resign gammon or resign backgammon")
    action = Resign(_RESIGN_WORDS[rest])
    if action not in state.legal_actions():
        state.apply(action)  # raises with the reason
    return action


def _parse_decision(state: BackgammonState, raw: str, words: str) -> Action:
    """Parse at a cube or resignation decision."""
    if words.startswith("resign"):
        return parse_resign(state, raw, words)
    legal = state.legal_actions()
    if state.pending == RESIGN_DECISION:
        if words in _ANSWER_WORDS:
            return ResignAnswer(_ANSWER_WORDS[words])
        raise state.illegal(raw, "answer the resignation: accept or reject")
    for kind, names in _CUBE_SYNONYMS.items():
        if words in names:
            action = CubeAction(kind)
            if action in legal:
                return action
    for kind, names in _CUBE_SYNONYMS.items():
        if words in names and kind in ("double", "beaver", "raccoon"):
            raise state.illegal(raw, state.why_no_cube(kind))
    raise state.illegal(raw, state._expected())


def parse_action(state: BackgammonState, text: str) -> Action:
    """The legal action ``text`` means in ``state``; see the module doc for the forms.

    Besides plays and dice: ``roll``/``double`` before the roll, ``take``/``pass``/
    ``beaver`` (``drop``, gnubg's ``accept``/``reject`` too) for a double,
    ``take``/``raccoon`` after a beaver, ``resign [single|gammon|backgammon]`` and
    ``accept``/``reject`` for resignations.

    :raises ActionSyntaxError: if ``text`` is not dice (at a roll) or a play in move notation.
    :raises AmbiguousActionError: if it fits several legal plays (with their texts).
    :raises GameOverError: if the game has ended.
    :raises IllegalActionError: if it is well formed but not legal here (the reason and the
        legal choices).
    """
    raw = text
    text = text.strip().lower()
    player = state.current_player()
    if state.is_terminal():
        raise GameOverError(raw)
    words = " ".join(text.split())
    if state.pending:
        return _parse_decision(state, raw, words)
    if words.startswith("resign") and not state.is_chance_node():
        return parse_resign(state, raw, words)
    cube_word = any(words in names for names in _CUBE_SYNONYMS.values())
    if cube_word and words not in _PASS and not state.is_chance_node():
        kind = next(k for k, names in _CUBE_SYNONYMS.items() if words in names)
        raise state.illegal(raw, state.why_no_cube(kind) if kind == "double" else "play the dice")
    if state.is_chance_node():
        digits = re.findall(r"[1-6]", text)
        if len(digits) != 2 or re.search(r"[07-9]", text):
            raise state.syntax_error(raw, "roll the dice: write two dice 1..6 like 5-3")
        a, b = int(digits[0]), int(digits[1])
        return Roll(a, b) if state.opening else Roll(max(a, b), min(a, b))
    assert player >= 0
    legal = list(state.play_results())
    if text in _PASS:
        if len(legal) == 1 and not legal[0][0].steps:
            return legal[0][0]
        raise state.illegal(raw, "you have a legal play and must make it")
    try:
        segments = _parse_segments(text)
    except ValueError as exc:
        raise state.syntax_error(raw, str(exc)) from None
    mine = list(state.board[0])
    explicit_hits: set[int] = set()
    for points, marks, count in segments:
        mine[points[0]] -= count
        mine[points[-1]] += count
        explicit_hits |= marks
        for p in points[1:-1]:
            if p != OFF and state.board[1][25 - p] == 1:
                explicit_hits.add(p)
    short = [p for p in range(26) if mine[p] < 0]
    if short:
        p = short[0]
        have = state.board[0][p]
        where = "on the bar" if p == BAR else f"on point {p}"
        raise state.illegal(raw, f"you have {have} checker{'s' * (have != 1)} {where}")
    target = tuple(mine)
    candidates = [(play, board) for play, board in legal if board[0] == target]
    if not candidates:
        raise state.illegal(raw, _why_not(state, segments))
    if len(candidates) == 1:
        return candidates[0][0]

    def hits(board: Board) -> set[int]:
        before = state.board[1]
        return {p for p in range(1, 25) if before[25 - p] == 1 and board[1][25 - p] == 0}

    exact = [play for play, board in candidates if hits(board) == explicit_hits]
    if len(exact) == 1:
        return exact[0]
    wider = [play for play, board in candidates if explicit_hits <= hits(board)]
    if len(wider) == 1:
        return wider[0]
    options = " or ".join(state.action_to_text(p) for p, _ in candidates)
    reason = f"ambiguous: it could be {options}; write the one you mean"
    raise state.ambiguous(raw, reason, [p for p, _ in candidates])


def _why_not(state: BackgammonState, segments: list[tuple[list[int], set[int], int]]) -> str:
    """A short reason a well-formed but illegal play is not allowed."""
    assert state.dice is not None
    d1, d2 = state.dice
    dice = f"{d1}-{d2}"
    if state.board[0][BAR] and not any(points[0] == BAR for points, _, _ in segments):
        return f"a checker on the bar must enter before any other moves ({dice})"
    if any(points[-1] == OFF for points, _, _ in segments) and any(
        state.board[0][i] for i in range(7, 26)
    ):
        return "you can bear off only when all 15 checkers are in your home board"
    odd = _hop_no_dice_make(segments, d1, d2)
    if odd is not None:
        (start, end), distance = odd
        return (
            f"{_point_text(start)}/{_point_text(end)} is {distance} pip"
            f"{'s' * (distance != 1)}, which the dice {dice} do not make"
        )
    steps_possible = max((len(p.steps) for p, _ in state.play_results()), default=0)
    pips = sum((points[0] - points[-1]) * count for points, _, count in segments)
    total = d1 * 4 if d1 == d2 else d1 + d2
    if pips < total and all(points[-1] != OFF for points, _, _ in segments):
        need = "all four moves" if d1 == d2 else "both dice"
        if steps_possible < (4 if d1 == d2 else 2):
            need = f"{steps_possible} of the dice" if steps_possible != 1 else "one die"
        return f"you must use {need} where possible ({dice})"
    return f"not a legal play of {dice} (blocked point, wrong distance or wrong order)"


def _point_text(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _hop_no_dice_make(
    segments: list[tuple[list[int], set[int], int]], d1: int, d2: int
) -> tuple[tuple[int, int], int] | None:
    """The first hop (start, end) of the typed play, with its distance, that no die or
    sum of dice of ``d1-d2`` covers (bearing off may use a larger die, so hops off are
    never flagged); None when every hop is a distance the dice can make."""
    makes = {d1 * k for k in range(1, 5)} if d1 == d2 else {d1, d2, d1 + d2}
    for points, _, _ in segments:
        for start, end in itertools.pairwise(points):
            if end != OFF and start - end not in makes:
                return (start, end), start - end
    return None


# -- GNU Backgammon Position ID -------------------------------------------------


def encode_position_id(board: Board) -> str:
    """Position ID of ``board`` (``board[0]``: the player on roll).

    GNU Backgammon 1.07 writes the player *not* on roll first: for each of his
    points 1..24 and then the bar, one 1-bit per checker and a 0-bit; then the
    same for the player on roll; 80 bits, little-endian, base64 without padding.

    >>> from dicehall.games.backgammon.rules import START_SIDE
    >>> encode_position_id((START_SIDE, START_SIDE))
    '4HPwATDgc/ABMA'
    """
    # the 80 bits as one integer, a run of ones per point (the server writes one per update)
    value = k = 0
    for side in (board[1], board[0]):
        for i in range(1, 26):
            n = side[i]
            value |= ((1 << n) - 1) << k
            k += n + 1
    return base64.b64encode(value.to_bytes(10, "little")).decode("ascii").rstrip("=")


def decode_position_id(pid: str) -> Board:
    """The board (player on roll first) of a GNU Backgammon Position ID.

    :raises ValueError: if ``pid`` is not 14 base64 characters of a legal position.

    >>> decode_position_id("4HPwATDgc/ABMA")[0][13]
    5
    """
    pid = pid.strip()
    if not re.fullmatch(r"[A-Za-z0-9+/]{14}", pid):
        raise ValueError(f"{pid!r} is not a Position ID: expected 14 base64 characters")
    data = base64.b64decode(pid + "==")
    bits = [(data[k // 8] >> (k % 8)) & 1 for k in range(80)]
    sides: list[list[int]] = []
    k = 0
    for _ in range(2):
        side = [0] * 26
        for i in range(1, 26):
            while k < 80 and bits[k]:
                side[i] += 1
                k += 1
            k += 1
            if k > 80:
                raise ValueError(f"{pid!r} is not a valid Position ID (runs past 80 bits)")
        total = sum(side)
        if total > CHECKERS:
            raise ValueError(f"{pid!r} has {total} checkers for one side (at most 15)")
        side[OFF] = CHECKERS - total
        sides.append(side)
    opponent, on_roll = sides
    for i in range(1, 25):
        if on_roll[i] and opponent[25 - i]:
            raise ValueError(f"{pid!r} puts both colours on one point")
    return (tuple(on_roll), tuple(opponent))
