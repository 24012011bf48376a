"""Backgammon for the browser: the board as JSON and the legal plays as a click graph.

Points are given per seat in that seat's own numbering (``0`` = borne off, ``1..24`` the points,
``25`` the bar); seat 0's point ``i`` is seat 1's point ``25 - i``.

>>> from dicehall import load_game
>>> s = load_game("backgammon").new_initial_state().apply_text("3-1")
>>> v = state_view(s)
>>> v["phase"], v["turn"], v["dice"], v["pips"]
('move', 0, [3, 1], [167, 167])
>>> g = legal_view(s)
>>> sorted({e[0] for e in g["nodes"][0]["edges"]})   # checkers that can move first
[6, 8, 13, 24]
"""

from __future__ import annotations

from typing import Any

from dicehall.core.game import State
from dicehall.games.backgammon.board import Step
from dicehall.games.backgammon.notation import format_play
from dicehall.games.backgammon.rules import (
    BAR,
    CUBE_DECISION,
    OFF,
    RACCOON_DECISION,
    RESIGN_DECISION,
    RESIGN_LEVELS,
    TAKE_DECISION,
    BackgammonState,
    Board,
    Play,
    move_step,
    pip_count,
    single_steps,
)
from dicehall.server.views import FunctionsView


def _bg(state: State) -> BackgammonState:
    assert isinstance(state, BackgammonState)
    return state


#: ``state_view(s)["phase"]`` for each pending question (see rules.BackgammonState.pending)
PENDING_PHASES = {
    CUBE_DECISION: "cube",
    TAKE_DECISION: "take",
    RACCOON_DECISION: "raccoon",
    RESIGN_DECISION: "resign",
}


def cube_view(s: BackgammonState) -> dict[str, Any]:
    """The cube and the match: what the board draws beside the checkers.

    >>> from dicehall import load_game
    >>> cube_view(load_game("backgammon", cube=True, match_length=3).new_initial_state())["match"]
    {'length': 3, 'score': [0, 0], 'game': 1, 'crawford': False, 'post_crawford': False}
    """
    return {
        "cube": {
            "enabled": bool(s.game.options["cube"]),
            "value": s.cube_value,
            "owner": s.cube_owner,
            "offered": s.pending == TAKE_DECISION,
        },
        "match": {
            "length": s.match_length,
            "score": list(s.match_score),
            "game": s.game_number,
            "crawford": s.crawford,
            "post_crawford": s.post_crawford,
        },
        "resign": {
            "level": s.resign_level if s.pending == RESIGN_DECISION else 0,
            "name": RESIGN_LEVELS.get(s.resign_level, "") if s.pending == RESIGN_DECISION else "",
        },
        "history": [list(h) for h in s.history],
        "extended": s.game.extended,
        "match_id": s.match_id() if s.game.extended else None,
    }


def state_view(state: State) -> dict[str, Any]:
    """Checkers of both seats, dice, pips, borne-off counts, the phase, the cube and match."""
    s = _bg(state)
    sides = [list(s.side(0)), list(s.side(1))]
    if s.winner is not None:
        phase = "over"
    elif s.pending:
        phase = PENDING_PHASES[s.pending]
    elif s.opening:
        phase = "opening"
    elif s.dice is None:
        phase = "roll"
    else:
        phase = "move"
    return {
        "phase": phase,
        "turn": s.turn,
        "sides": sides,
        "dice": list(s.dice) if s.dice else None,
        "pips": list(s.pip_counts()),
        "off": [sides[0][OFF], sides[1][OFF]],
        "bar": [sides[0][BAR], sides[1][BAR]],
        "winner": s.winner,
        "points": s.points,
        "scoring": s.game.options["scoring"],
        "position_id": s.position_id(),
        **cube_view(s),
    }


def legal_view(state: State) -> dict[str, Any]:
    """The legal plays as a graph for click-to-move, in the mover's numbering.

    ``nodes[0]`` is the position before moving; each node has ``edges``
    ``[from, to, die, hit, child]`` (one checker moved by one die), ``sides`` and ``pips``, the
    board there and its pip counts (the mover's first, each side in its own numbering: the
    browser draws them and knows no rules), and ``text``, the canonical play to send when the
    player confirms there (null while dice must still be played). Only steps that can still
    end in a legal play are included, so the rules about using both dice and the larger die
    are respected click by click.
    """
    return legal_texts_and_view(state)[1]


#: play texts by (steps, which steps hit): the text depends on nothing else, and the same
#: plays come back in position after position (``_play_text``); cleared when it grows large
_TEXTS: dict[tuple[tuple[Step, ...], int], str] = {}
_TEXTS_MAX = 200_000

#: the key, in a state's ``_cache``, of the steps of each legal play by its canonical text (put
#: there by ``legal_texts_and_view``, read by ``move_view``)
_STEPS_KEY = "web_view_steps"


def _play_text(board: Board, steps: tuple[Step, ...]) -> str:
    """``format_play(board, steps)``, from ``_TEXTS`` when the same steps hit the same way
    (a step hits where the opponent has a single checker that no earlier step hit)."""
    theirs = board[1]
    mask = hit_points = 0
    for k, (_src, dst) in enumerate(steps):
        if dst != OFF and theirs[25 - dst] == 1 and not hit_points >> dst & 1:
            mask |= 1 << k
            hit_points |= 1 << dst
    if len(steps) <= 2:
        return _short_play_text(steps, mask)
    key = (steps, mask)
    text = _TEXTS.get(key)
    if text is None:
        text = format_play(board, steps)
        if len(_TEXTS) >= _TEXTS_MAX:
            _TEXTS.clear()
        _TEXTS[key] = text
    return text


def _point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _short_play_text(steps: tuple[Step, ...], mask: int) -> str:
    """``format_play`` of a play of at most two steps (every roll but doubles), bit ``k`` of
    ``mask`` set where step ``k`` hits: one checker's two steps are one path (``13/7*/5``),
    two checkers' two paths are written highest first, one route taken twice is counted.

    >>> _short_play_text(((13, 7), (7, 5)), 0b01), _short_play_text(((8, 5), (6, 5)), 0b01)
    ('13/7*/5', '8/5* 6/5')
    >>> _short_play_text(((6, 5), (6, 5)), 0b01), _short_play_text(((25, 22), (6, 0)), 0)
    ('6/5*(2)', 'bar/22 6/off')
    """
    if not steps:
        return "pass"
    a, b = steps[0]
    first = _point(a) + "/" + _point(b) + ("*" if mask & 1 else "")
    if len(steps) == 1:
        return first
    c, d = steps[1]
    end = _point(d) + ("*" if mask & 2 else "")
    if b != OFF and c == b:  # one checker: a/b/d, b shown only where it hit
        return _point(a) + ("/" + _point(b) + "*" if mask & 1 else "") + "/" + end
    if d != OFF and a == d:  # one checker, the second step first: c/d/b
        return _point(c) + ("/" + end if mask & 2 else "") + "/" + _point(b) + "*" * (mask & 1)
    second = _point(c) + "/" + end
    if (a, b) == (c, d):
        return (first if mask & 1 else second) + "(2)"
    return f"{first} {second}" if (a, b) > (c, d) else f"{second} {first}"


def legal_texts_and_view(state: State) -> tuple[list[str], dict[str, Any]]:
    """``(state.legal_texts(), legal_view(state))`` computed together: every play's text is
    formatted once (the server sends both to the player to move after every action, and the
    formatting was a fifth of its work), from a cache of play texts (``_play_text``); the
    graph walk keeps boards as tuples and copies the opponent's side only on a hit."""
    s = _bg(state)
    if not s.is_checker_play():
        # a cube or resignation question: the buttons to show are the legal answers
        answers = s.legal_texts()
        return answers, {"seat": s.current_player(), "nodes": [], "choices": answers}
    assert s.dice is not None
    d1, d2 = s.dice
    dice = (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
    board0 = s.board
    texts: dict[Board, str] = {}
    steps_of: dict[str, tuple[Step, ...]] = {}
    for play, board in s.play_results():
        texts[board] = text = _play_text(board0, play.steps)
        steps_of[text] = play.steps
    # move_view of the play chosen reads its steps here instead of parsing its text again
    s._cache[_STEPS_KEY] = steps_of
    # legal_actions() is the plays in play_results() order, then the resignation offers
    resign = [str(a) for a in s.legal_actions()[len(texts) :]]
    nodes: list[dict[str, Any]] = []
    # the walk keeps each side as bytes (26 counts): copied, compared and hashed (the hash
    # is kept) in C, where tuples of ints were hashed again at every look-up
    finals = {(bytes(board[0]), bytes(board[1])): (board, text) for board, text in texts.items()}
    memo: dict[tuple[bytes, bytes, tuple[int, ...]], int | None] = {}
    # the dice left after playing each distinct die of ``rest`` (highest die first)
    after: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]] = {}

    def visit(
        mine: bytes, theirs: bytes, rest: tuple[int, ...], pip0: int, pip1: int
    ) -> int | None:
        key = (mine, theirs, rest)
        if key in memo:
            return memo[key]
        memo[key] = None  # no cycles are possible (pips only go down), but be safe
        final = finals.get((mine, theirs))
        if final is not None:
            index = len(nodes)
            nodes.append(
                {
                    "edges": [],
                    "text": final[1],
                    "dice": list(rest),
                    "sides": final[0],
                    "pips": [pip0, pip1],
                }
            )
            memo[key] = index
            return index
        edges: list[list[Any]] = []
        choices = after.get(rest)
        if choices is None:
            choices = after[rest] = [
                (die, rest[: rest.index(die)] + rest[rest.index(die) + 1 :])
                for die in sorted(set(rest), reverse=True)
            ]
        for die, left in choices:
            for src, dst in single_steps(mine, theirs, die):
                m = bytearray(mine)
                m[src] -= 1
                m[dst] += 1
                # a step moves the checker src - dst pips (off is 0, the bar 25); a hit
                # checker goes from the opponent's point 25 - dst to his bar, 25
                if dst != OFF and theirs[25 - dst] == 1:
                    t = bytearray(theirs)
                    t[25 - dst] = 0
                    t[BAR] += 1
                    child = visit(bytes(m), bytes(t), left, pip0 - (src - dst), pip1 + dst)
                    hit = True
                else:
                    child = visit(bytes(m), theirs, left, pip0 - (src - dst), pip1)
                    hit = False
                if child is not None:
                    # numbered as in the answer: the root (appended last) comes first
                    edges.append([src, dst, die, hit, child + 1])
        if not edges:
            return None
        index = len(nodes)
        sides: Board = (tuple(mine), tuple(theirs))
        nodes.append(
            {"edges": edges, "text": None, "dice": list(rest), "sides": sides, "pips": [pip0, pip1]}
        )
        memo[key] = index
        return index

    root = visit(
        bytes(board0[0]), bytes(board0[1]), dice, pip_count(board0[0]), pip_count(board0[1])
    )
    # every node is appended after its children, so the root is the last one appended
    assert root is not None and root == len(nodes) - 1, "a decision has a legal play"
    out = [nodes[root], *nodes[:root]]
    return [*texts.values(), *resign], {"seat": s.turn, "nodes": out, "choices": resign}


def move_view(before: State, text: str, after: State) -> dict[str, Any] | None:
    """A roll: its dice; a play: the mover and his steps ``[from, to, hit]`` (his numbering)."""
    b = _bg(before)
    if b.is_chance_node():
        a, c = (int(x) for x in text.split("-"))
        out: dict[str, Any] = {"roll": [a, c], "opening": b.opening}
        if b.opening:  # who starts (None: a tie, both roll again): the browser needs no rule
            out["starts"] = None if _bg(after).opening else _bg(after).turn
        return out
    known: dict[str, tuple[Step, ...]] | None = b._cache.get(_STEPS_KEY)
    played = known.get(text) if known is not None else None
    if played is None:
        action = b.parse_action(text)
        if not isinstance(action, Play):
            return {"seat": b.current_player(), "decision": text}
        played = action.steps
    mine, theirs = list(b.board[0]), list(b.board[1])
    steps = []
    for src, dst in played:
        steps.append([src, dst, move_step(mine, theirs, src, dst)])
    return {"seat": b.turn, "steps": steps}


def summary(state: State) -> str:
    """Who won and how much."""
    s = _bg(state)
    if s.winner is None:
        return "The game is not over."
    if s.match_length:
        a, b = s.match_score
        return f"Seat {s.winner + 1} wins the match to {s.match_length}, {a}-{b}."
    if len(s.history) > 1:
        net = s.match_score[0] - s.match_score[1]
        return f"Money session of {len(s.history)} games: seat 1 {net:+d}, seat 2 {-net:+d}."
    if s.game.options["cube"]:
        return f"Seat {s.winner + 1} wins {s.points} point{'s' * (s.points != 1)}."
    kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}.get(s.points, "")
    return f"Seat {s.winner + 1} wins {kind} ({s.points} point{'s' * (s.points != 1)})."


#: The web view the game declares (``GameEntry.web_view``).
VIEW = FunctionsView(
    state_view=state_view,
    legal_view=legal_view,
    move_view=move_view,
    summary=summary,
    legal_texts_and_view=legal_texts_and_view,
)
