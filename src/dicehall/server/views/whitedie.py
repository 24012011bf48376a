"""White Die for the browser: scores, the white die, the challenge in play and why it scores.

Seats are 0-based. ``dice`` are the coloured dice of the player on turn, ``opponent_dice``
those of his chosen opponent (tic-tac-toe and matching). Grid squares are indexed 0..8 in the
rules' order (``a1 b1 c1 a2 b2 c2 a3 b3 c3``: columns a-c left to right, rows 1-3 top down).

>>> from dicehall import load_game
>>> s = load_game("whitedie").setup([3, 5], 0, white=6, dice=[2, 4, 4, 1])
>>> v = state_view(s)
>>> v["phase"], v["white"], v["challenge"], v["dice"], v["now"]["points"]
('reroll', 6, 'Sixes', [1, 2, 4, 4], 2)
>>> g = legal_view(s)
>>> g["kind"], g["stand"], g["rerolls"]["2 4"]
('reroll', 'stand', 'reroll 2 4')
"""

from __future__ import annotations

from typing import Any

from dicehall.core.game import State
from dicehall.games.whitedie.challenges import (
    BLOCKS,
    CHALLENGES,
    CLAIMED,
    LINES,
    POKER_CHARTS,
    POKER_HANDS,
    SQUARES,
    Grid,
    best_matches,
    best_pip_square,
    challenge_score,
    claim,
    matching_score,
    pip_scores,
    pip_square,
    poker_hand,
    sixes_sets,
    tictactoe_lines,
    tictactoe_score,
)
from dicehall.games.whitedie.render import matching_explanation, score_explanation
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
    ChallengeResult,
    ChooseOpponent,
    Claim,
    Place,
    Reroll,
    Roll,
    Stand,
    WhiteDieState,
    remove,
)
from dicehall.server.views import FunctionsView

Dice = tuple[int, ...]

#: What each challenge asks, in one line, for the board's caption.
RULES = {
    2: "Poker: stand, or reroll any dice up to two times; scored by the poker chart.",
    3: "Tic-tac-toe: place dice next to fitting dice (opponent first); lines and 2x2 blocks "
    "of the player's squares score.",
    4: "Matching: the player rerolls two, the opponent rerolls two, the player may reroll one; "
    "equal totals match (+1 if all four of the player's dice match).",
    5: "Pips: stand or reroll up to two times; then arrange the 2x2 square (the best is offered "
    "first): it scores its empty rows and columns of pip positions.",
    6: "Sixes: stand or reroll up to two times; every set of dice adding up to 6 scores one.",
}


def _wd(state: State) -> WhiteDieState:
    assert isinstance(state, WhiteDieState)
    return state


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


# -- explanations as messages -------------------------------------------------------------
# Every explanation also comes as a message: a catalogue msgid (``web/locale``) and its
# parameters, which may be messages themselves, so the browser (``t()`` of ``js/i18n.js``) and
# the server (``i18n.message_text``) translate it whole, with no English left. Its English
# text is the ``text`` beside it, word for word (tests/web/test_whitedie_messages.py).
Message = dict[str, Any]


def N_(msgid: str) -> str:  # gettext's name for "mark, do not translate yet"
    """Mark ``msgid`` for extraction (``scripts/i18n_update.py``); translated where shown."""
    return msgid


def message(msgid: str, **params: Any) -> Message:
    """A message: ``{"id": msgid, "params": {...}}`` (``{name}`` placeholders in msgid)."""
    return {"id": msgid, "params": params}


def _count(n: int, one: str, many: str) -> Message:
    """``1 point`` or ``{n} points``: a count with its word, singular or plural."""
    return message(one) if n == 1 else message(many, n=n)


def points_message(n: int) -> Message:
    return _count(n, N_("1 point"), N_("{n} points"))


#: the poker hands as messages (``challenges.POKER_HANDS``)
HAND_MESSAGES = {
    "four of a kind": N_("four of a kind"),
    "straight": N_("straight"),
    "three of a kind": N_("three of a kind"),
    "two pairs": N_("two pairs"),
    "one pair": N_("one pair"),
    "nothing": N_("nothing"),
}


def _scored(what: Message, points: int) -> Message:
    return message(N_("{what} → {points}"), what=what, points=points_message(points))


def score_message(white: int, dice: Dice, chart: str, points: int | None = None) -> Message:
    """Why four dice score what they do in Poker, Pips or Sixes (``render.score_explanation``;
    in Pips: the best square, or the square the player arranged to score ``points``).

    >>> score_message(6, (2, 4, 4, 1), "standard")["params"]["what"]
    {'id': 'sixes: {sets}', 'params': {'sets': '2+4, 2+4'}}
    """
    best = challenge_score(white, dice, chart)
    if white != 5 or points is None:
        points = best
    if white == 2:
        return _scored(message(HAND_MESSAGES[poker_hand(dice)]), points)
    if white == 6:
        found = ", ".join("+".join(map(str, x)) for x in sixes_sets(dice))
        sets = found or message(N_("no set adds up to 6"))
        return _scored(message(N_("sixes: {sets}"), sets=sets), points)
    square = pip_square(dice, points)
    return pips_message(len(square.empty_rows()), len(square.empty_columns()), points, best)


def pips_message(rows: int, columns: int, points: int, best: int) -> Message:
    """A Pips square with ``rows`` empty rows and ``columns`` empty columns scoring ``points``:
    the best square, or one the player arranged (``points`` below the ``best``)."""
    what = message(
        N_("best square: {rows} and {columns}")
        if points == best
        else N_("arranged square: {rows} and {columns}"),
        rows=_count(rows, N_("1 empty row"), N_("{n} empty rows")),
        columns=_count(columns, N_("1 empty column"), N_("{n} empty columns")),
    )
    scored = _scored(what, points)
    if points == best:
        return scored
    note = message(N_("(the best square scores {n})"), n=best)
    return message(N_("{scored} {note}"), scored=scored, note=note)


def unclaimed_message(scored: Message) -> Message:
    """A tic-tac-toe score whose player left the empty squares unclaimed."""
    return message(
        N_("{scored}; {note}"),
        scored=scored,
        note=message(N_("the empty squares were left unclaimed")),
    )


def matching_message(mine: Dice, theirs: Dice) -> Message:
    """The matches found and the score (``render.matching_explanation``)."""
    matches = best_matches(mine, theirs)
    found = ", ".join(map(str, matches)) or message(N_("no match"))
    if sum(len(m.mine) for m in matches) == 4:
        what = message(N_("matches {found} + all-four bonus"), found=found)
    else:
        what = message(N_("matches {found}"), found=found)
    return _scored(what, matching_score(mine, theirs))


def grid_message(lines: int, blocks: int, points: int) -> Message:
    """The lines of three and 2x2 blocks of a tic-tac-toe grid, and the score."""
    what = message(
        N_("{lines} of three and {blocks}"),
        lines=_count(lines, N_("1 line"), N_("{n} lines")),
        blocks=_count(blocks, N_("1 2x2 block"), N_("{n} 2x2 blocks")),
    )
    return _scored(what, points)


def pips_view(dice: Dice, points: int | None = None) -> dict[str, Any]:
    """The best pips square of four dice (or one scoring ``points``): faces and turns
    (top-left, top-right, bottom-left, bottom-right), the six rows of pip positions (``o`` a
    pip) and the empty rows/columns.

    >>> p = pips_view((6, 6, 1, 1))
    >>> p["faces"], p["turns"], p["empty_rows"], p["empty_columns"], p["score"]
    ([1, 1, 6, 6], [0, 0, 1, 1], [0, 2, 4], [], 3)
    >>> pips_view((6, 6, 1, 1), 0)["score"]
    0
    """
    square = best_pip_square(dice) if points is None else pip_square(dice, points)
    return {
        "faces": list(square.faces),
        "turns": list(square.turns),
        "rows": square.rows(),
        "empty_rows": square.empty_rows(),
        "empty_columns": square.empty_columns(),
        "score": square.score(),
    }


def grid_view(grid: Grid, player: int, opponent: int | None) -> list[dict[str, Any]]:
    """Nine squares: ``seat`` (the owner, or null), ``value`` (a die, null for a claimed or empty
    square), ``claimed`` and ``white`` (the player's white 3 in the centre)."""
    out: list[dict[str, Any]] = []
    for i, cell in enumerate(grid):
        if cell == 0:
            out.append({"seat": None, "value": None, "claimed": False, "white": False})
            continue
        seat = player if cell > 0 else opponent
        claimed = abs(cell) == CLAIMED
        out.append(
            {
                "seat": seat,
                "value": None if claimed else abs(cell),
                "claimed": claimed,
                "white": i == 4 and cell == 3,
            }
        )
    return out


def lines_view(grid: Grid) -> dict[str, Any]:
    """The scoring lines of three and 2x2 blocks of a finished grid."""
    found = tictactoe_lines(grid)
    lines = [list(x) for x in found if x in LINES]
    blocks = [list(x) for x in found if x in BLOCKS]
    return {"lines": lines, "blocks": blocks, "points": tictactoe_score(grid)}


def explain(white: int, dice: Dice, chart: str, points: int | None = None) -> dict[str, Any]:
    """How four dice score in Poker, Pips or Sixes, with the details the board draws (in
    Pips: the best square, or the square the player arranged to score ``points``)."""
    if white != 5 or points is None:
        points = challenge_score(white, dice, chart)
    out: dict[str, Any] = {
        "points": points,
        "text": score_explanation(white, dice, chart, points),
        "message": score_message(white, dice, chart, points),
    }
    if white == 2:
        out["hand"] = poker_hand(dice)
    elif white == 5:
        out["pips"] = pips_view(dice, points)
    elif white == 6:
        out["sets"] = [list(s) for s in sixes_sets(dice)]
    return out


def explain_matching(mine: Dice, theirs: Dice) -> dict[str, Any]:
    """The best matches of the player's dice against the opponent's, and the points."""
    matches = best_matches(mine, theirs)
    return {
        "points": matching_score(mine, theirs),
        "text": matching_explanation(mine, theirs),
        "message": matching_message(mine, theirs),
        "matches": [{"mine": list(m.mine), "theirs": list(m.theirs)} for m in matches],
        "bonus": sum(len(m.mine) for m in matches) == 4,
    }


def explain_grid(grid: Grid) -> dict[str, Any]:
    lv = lines_view(grid)
    n, b = len(lv["lines"]), len(lv["blocks"])
    points = lv["points"]
    text = (
        f"{_plural(n, 'line')} of three and {_plural(b, '2x2 block')} → {_plural(points, 'point')}"
    )
    return {**lv, "text": text, "message": grid_message(n, b, points)}


def result_view(result: ChallengeResult, chart: str) -> dict[str, Any]:
    """The last challenge played: who, which, how many points, and why."""
    out: dict[str, Any] = {
        "seat": result.seat,
        "white": result.white,
        "challenge": CHALLENGES.get(result.white),
        "points": result.points,
        "dice": list(result.dice),
        "opponent": result.opponent,
        "opponent_dice": list(result.opponent_dice),
    }
    if result.white in (2, 5, 6) and len(result.dice) == 4:
        out["explain"] = explain(result.white, result.dice, chart, result.points)
    elif result.white == 4 and len(result.dice) == 4 and len(result.opponent_dice) == 4:
        out["explain"] = explain_matching(result.dice, result.opponent_dice)
    elif result.white == 3 and result.grid:
        out["grid"] = grid_view(result.grid, result.seat, result.opponent)
        out["explain"] = explain_grid(result.grid)
        if result.claim_declined:
            out["explain"]["text"] += "; the empty squares were left unclaimed"
            out["explain"]["message"] = unclaimed_message(out["explain"]["message"])
            out["explain"]["declined"] = True
    else:
        out["explain"] = {
            "points": result.points,
            "text": _plural(result.points, "point"),
            "message": points_message(result.points),
        }
    return out


def status_line(s: WhiteDieState) -> str:
    """What is happening, in words (seats 1-based)."""
    who = f"seat {s.turn + 1}"
    opp = f"seat {s.opponent + 1}" if s.opponent is not None else "the opponent"
    if s.phase == START:
        return "Who starts: " + ", ".join(f"seat {c + 1}" for c in s.contenders) + " roll all five"
    if s.phase == ROLL:
        return f"{who} rolls all five dice"
    if s.phase == OVER:
        return f"Game over: seat {(s.winner or 0) + 1} wins"
    name = CHALLENGES[s.white]
    if s.phase == REROLL:
        return f"{name}: {who} may stand or reroll ({_plural(s.rerolls_left, 'reroll')} left)"
    if s.phase == CHOOSE:
        return f"{name}: {who} chooses an opponent"
    if s.phase == OPPONENT_ROLL:
        return f"{name}: {opp} rolls his four dice"
    if s.phase == TICTACTOE:
        side = who if s.side == PLAYER_SIDE else opp
        return f"Tic-tac-toe: {who} against {opp}; {side} places a die"
    if s.phase == ARRANGE:
        return f"Pips: {who} arranges his square"
    if s.phase == CLAIM:
        return f"Tic-tac-toe: nobody can place; {who} may claim the empty squares"
    return {
        MATCH_PLAYER: f"Matching: {who} must reroll two dice",
        MATCH_OPPONENT: f"Matching: {opp} must reroll two dice",
        MATCH_LAST: f"Matching: {who} may reroll one die or stand",
    }.get(s.phase, s.phase)


def state_view(state: State) -> dict[str, Any]:
    """Everything the board draws (see the module docstring for the conventions)."""
    s = _wd(state)
    chart = s.game.poker_chart
    in_challenge = s.challenge is not None
    view: dict[str, Any] = {
        "phase": str(s.phase),
        "players": len(s.scores),
        "target": s.game.target,
        "poker_chart": chart,
        "chart": [[hand, POKER_CHARTS[chart][hand]] for hand in POKER_HANDS],
        "scores": list(s.scores),
        "turn": None if s.phase == START else s.turn,
        "winner": s.winner,
        "white": s.white if in_challenge else None,
        "challenge": s.challenge,
        "rules": RULES.get(s.white) if in_challenge else None,
        "dice": list(s.dice) if in_challenge else None,
        "rerolls_left": s.rerolls_left if s.phase == REROLL else None,
        "opponent": s.opponent if in_challenge else None,
        "opponent_dice": list(s.opponent_dice) if in_challenge and s.opponent_dice else None,
        "grid": grid_view(s.grid, s.turn, s.opponent) if s.phase in (TICTACTOE, CLAIM) else None,
        "placing": s.current_player() if s.phase == TICTACTOE and s.grid else None,
        "rolling": s.rolling,
        "kept": list(s.kept),
        "start": None,
        "now": None,
        "last": result_view(s.last, chart) if s.last is not None else None,
        "status_line": status_line(s),
    }
    if s.phase == START:
        view["start"] = {
            "contenders": list(s.contenders),
            "rolls": [
                [seat, white, total]
                for seat, (white, total) in zip(s.contenders, s.start_rolls, strict=False)
            ],
        }
    if not s.rolling and len(s.dice) == 4:
        if s.phase in (REROLL, ARRANGE):
            view["now"] = explain(s.white, s.dice, chart)
        elif s.phase in (MATCH_PLAYER, MATCH_OPPONENT, MATCH_LAST) and len(s.opponent_dice) == 4:
            view["now"] = explain_matching(s.dice, s.opponent_dice)
    return view


def legal_view(state: State) -> dict[str, Any]:
    """The decision of the seat to move, shaped for clicks.

    ``kind`` is ``choose`` (``opponents``: seat and text), ``reroll`` (the mover's ``dice``,
    ``stand``: the text or null, ``sizes``: how many dice may be rerolled, ``rerolls``: the
    sorted values joined by spaces, e.g. ``"2 5"``, mapped to the action text) or ``place``
    (the placing side's ``dice`` and every ``placements`` entry: value, square, name, text),
    ``arrange`` (Pips with free choices: the ``dice`` and each reachable square, best first:
    ``points``, ``text`` and the ``pips`` square) or ``claim`` (``claim`` and ``decline``: the
    text and the points each gives).
    """
    s = _wd(state)
    mover = s.current_player()
    legal = s.legal_actions()
    if s.phase == ARRANGE:
        return {
            "kind": "arrange",
            "seat": mover,
            "dice": list(s.dice),
            "arrangements": [
                {"points": p, "text": str(Arrange(p)), "pips": pips_view(s.dice, p)}
                for p in pip_scores(s.dice)
            ],
        }
    if s.phase == CLAIM:
        return {
            "kind": "claim",
            "seat": mover,
            "claim": {"text": "claim", "points": tictactoe_score(claim(s.grid, 0))},
            "decline": {"text": "decline", "points": tictactoe_score(s.grid)},
        }
    if s.phase == CHOOSE:
        return {
            "kind": "choose",
            "seat": mover,
            "opponents": [
                {"seat": a.seat, "text": str(a)} for a in legal if isinstance(a, ChooseOpponent)
            ],
        }
    if s.phase == TICTACTOE:
        side = "player" if s.side == PLAYER_SIDE else "opponent"
        dice = s.dice if s.side == PLAYER_SIDE else s.opponent_dice
        return {
            "kind": "place",
            "seat": mover,
            "side": side,
            "dice": list(dice),
            "placements": [
                {"value": a.value, "square": a.square, "name": SQUARES[a.square], "text": str(a)}
                for a in legal
                if isinstance(a, Place)
            ],
        }
    mine = s.opponent_dice if s.phase == MATCH_OPPONENT else s.dice
    rerolls = {" ".join(map(str, a.values)): str(a) for a in legal if isinstance(a, Reroll)}
    return {
        "kind": "reroll",
        "seat": mover,
        "side": "opponent" if s.phase == MATCH_OPPONENT else "player",
        "dice": list(mine),
        "stand": "stand" if any(isinstance(a, Stand) for a in legal) else None,
        "sizes": sorted({len(a.values) for a in legal if isinstance(a, Reroll)}),
        "rerolls": rerolls,
        "rerolls_left": s.rerolls_left if s.phase == REROLL else None,
    }


def move_view(before: State, text: str, after: State) -> dict[str, Any] | None:
    """One action: ``roll`` (a chance outcome: the ``seat`` whose dice, ``white``, ``dice``),
    ``choose`` (``opponent``), ``place`` (``value``, ``square``, ``side``), ``reroll``
    (``values`` rerolled, ``kept``) or ``stand``; ``scored`` is the challenge result when the
    action ended a challenge."""
    b, a = _wd(before), _wd(after)
    action = b.parse_action(text)
    scored = (
        result_view(a.last, a.game.poker_chart)
        if a.last is not None and a.last is not b.last
        else None
    )
    if isinstance(action, Roll):
        return {
            "kind": "roll",
            "seat": b.roller,
            "white": action.white,
            "dice": list(action.dice),
            "scored": scored,
        }
    mover = b.current_player()
    if isinstance(action, ChooseOpponent):
        return {"kind": "choose", "seat": mover, "opponent": action.seat}
    if isinstance(action, Place):
        side = "player" if b.side == PLAYER_SIDE else "opponent"
        return {
            "kind": "place",
            "seat": mover,
            "side": side,
            "value": action.value,
            "square": action.square,
            "name": SQUARES[action.square],
            "scored": scored,
        }
    if isinstance(action, Reroll):
        mine = b.opponent_dice if b.phase == MATCH_OPPONENT else b.dice
        kept = remove(mine, action.values) or ()
        side = "opponent" if b.phase == MATCH_OPPONENT else "player"
        return {
            "kind": "reroll",
            "seat": mover,
            "side": side,
            "values": list(action.values),
            "kept": list(kept),
        }
    if isinstance(action, Arrange):
        return {"kind": "arrange", "seat": mover, "points": action.points, "scored": scored}
    if isinstance(action, Claim):
        return {"kind": "claim", "seat": mover, "take": action.take, "scored": scored}
    assert isinstance(action, Stand)
    return {"kind": "stand", "seat": mover, "scored": scored}


def summary(state: State) -> str:
    """Who won, with the final scores."""
    s = _wd(state)
    if s.winner is None:
        return "The game is not over."
    scores = " – ".join(str(x) for x in s.scores)
    return f"Seat {s.winner + 1} wins with {s.scores[s.winner]} points ({scores})."


#: The web view the game declares (``GameEntry.web_view``).
VIEW = FunctionsView(
    state_view=state_view, legal_view=legal_view, move_view=move_view, summary=summary
)
