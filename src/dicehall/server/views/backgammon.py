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

import itertools
from typing import Any

import numpy as np
import orjson

from dicehall.core.game import State
from dicehall.games.backgammon.board import Step
from dicehall.games.backgammon.rules import (
    BAR,
    CUBE_DECISION,
    OFF,
    RACCOON_DECISION,
    RESIGN_DECISION,
    RESIGN_LEVELS,
    TAKE_DECISION,
    BackgammonState,
    Play,
    move_step,
)
from dicehall.server.views import FunctionsView, view_json


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


#: play texts by their ``clickgraph.text_keys`` (the steps, and which of them hit): the text
#: depends on nothing else, and the same plays come back in position after position; when it
#: is full, the oldest quarter goes (``_make_room``)
_TEXTS: dict[bytes, str] = {}
_TEXTS_MAX = 200_000


def _make_room(cache: dict[bytes, str], wanted: int) -> None:
    """Drop the oldest entries of ``cache`` (a quarter of ``_TEXTS_MAX``, or more if
    ``wanted`` new ones need it) when ``wanted`` more would pass ``_TEXTS_MAX``: the common
    plays stay (they come back at once), where clearing it whole formatted every play of the
    next positions again. Oldest by insertion (a dict's order): a text found again is not
    moved, so this is a FIFO, which costs nothing per hit."""
    over = len(cache) + wanted - _TEXTS_MAX
    if over <= 0:
        return
    for key in list(itertools.islice(cache, max(over, _TEXTS_MAX // 4))):
        del cache[key]


#: the key, in a state's ``_cache``, of each legal play's place in the listing by its canonical
#: text (put there by ``legal_texts_and_view``, read by ``move_view``)
_INDEX_KEY = "web_view_index"


def legal_texts_and_view(state: State) -> tuple[list[str], dict[str, Any]]:
    """``(state.legal_texts(), legal_view(state))`` computed together from the kernel's plays
    (``fast.LegalPlays.rows``): the click graph is walked by a compiled kernel
    (``clickgraph.click_graph``), and each play's text is taken from a cache keyed by its steps
    and hits (``clickgraph.text_keys``), formatted only the first time (by
    ``clickgraph.play_texts``, ``format_play`` compiled)."""
    s = _bg(state)
    if not s.is_checker_play():
        # a cube or resignation question: the buttons to show are the legal answers
        answers = s.legal_texts()
        return answers, {"seat": s.current_player(), "nodes": [], "choices": answers}
    texts, resign, dice, (boards, pips, rests, finals, edges) = _texts_and_graph(s)
    left = [[d for i, d in enumerate(dice) if mask >> i & 1] for mask in range(1 << len(dice))]
    nodes: list[dict[str, Any]] = [
        {
            "edges": [],
            "text": texts[f] if f >= 0 else None,
            "dice": left[mask][:],
            "sides": [row[:26], row[26:]],
            "pips": pip,
        }
        for row, pip, mask, f in zip(
            boards.tolist(), pips.tolist(), rests.tolist(), finals.tolist(), strict=True
        )
    ]
    for node, src, dst, die, hit, child in edges.tolist():
        # numbered as in the answer: the root (finished last) comes first
        nodes[node]["edges"].append([src, dst, die, hit == 1, child + 1])
    # every node is finished after its children, so the root is the last one
    assert nodes, "a decision has a legal play"
    out = [nodes[-1], *nodes[:-1]]
    return [*texts, *resign], {"seat": s.turn, "nodes": out, "choices": resign}


def legal_texts_and_json(state: State) -> tuple[list[str], str]:
    """``legal_texts_and_view`` with the view as the JSON text the server sends, the same
    bytes as ``view_json`` of that view: the nodes are written by a compiled kernel
    (``clickgraph.graph_json``) straight from the walk's arrays. Building the view's
    dictionaries and serialising them was most of the cost of the mover's view (a double's
    graph has about 100 nodes and 200 edges), and freeing them again a part of the next."""
    s = _bg(state)
    if not s.is_checker_play():
        texts, moves = legal_texts_and_view(s)
        return texts, view_json(moves)
    texts, resign, dice, graph = _texts_and_graph(s)
    assert len(graph[0]), "a decision has a legal play"
    buf, marks = _graph_json()(*graph, np.array(dice, dtype=np.int64))
    parts = buf.tobytes().split(b"\x00")  # a TEXT_MARK where each final's text goes
    pieces = [b'{"seat":', str(s.turn).encode(), b',"nodes":', parts[0]]
    for f, part in zip(marks.tolist(), parts[1:], strict=True):
        pieces.append(orjson.dumps(texts[f]))
        pieces.append(part)
    pieces += (b',"choices":', orjson.dumps(resign), b"}")
    return [*texts, *resign], b"".join(pieces).decode()


def _texts_and_graph(s: BackgammonState) -> tuple[list[str], list[str], tuple[int, ...], Any]:
    """The play texts of a checker play (in the listing's order), the resignation offers
    after them, the dice as the graph takes them (highest first, four of a double) and
    ``clickgraph.click_graph``'s arrays."""
    assert s.dice is not None
    d1, d2 = s.dice
    dice = (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
    board0 = s.board
    legal = s._legal
    rows = legal.rows()
    click_graph, text_keys = _kernels()
    start = np.frombuffer(bytes(board0[0] + board0[1]), dtype=np.int8).reshape(2, 26)
    keys = np.ascontiguousarray(text_keys(start, rows))
    # each row as one bytes object (numpy's bytes type would drop trailing zeros; void keeps
    # them), looked up all at once; only the texts not seen yet are formatted
    raw: list[Any] = keys.view(np.dtype((np.void, keys.shape[1]))).ravel().tolist()
    cache = _TEXTS
    found: list[str | None] = list(map(cache.get, raw))
    if None in found:
        # the texts not seen yet, written by a kernel from their keys (the text of a play
        # depends on its key alone: ``clickgraph.play_texts`` is ``format_play`` compiled)
        missing = [i for i, f in enumerate(found) if f is None]
        _make_room(cache, len(missing))
        data, ends = _play_texts()(keys[np.array(missing, dtype=np.int64)])
        written = data.tobytes().decode("ascii")
        offset = 0
        for i, end in zip(missing, ends.tolist(), strict=True):
            text = written[offset:end]
            offset = end
            found[i] = cache[raw[i]] = text
    texts: list[str] = found  # type: ignore[assignment]  # every one is found now
    # move_view of the play chosen finds its steps by its place instead of parsing its text
    s._cache[_INDEX_KEY] = dict(zip(texts, range(len(texts)), strict=True))
    # legal_actions() is the plays in the kernel's order, then the resignation offers
    resign = [str(a) for a in s.legal_actions()[len(texts) :]]
    # the finals are the kernel's rows of the plays, so final ``f`` is the ``f``-th text
    graph = click_graph(start, np.array(dice, dtype=np.int64), rows)
    return texts, resign, dice, graph


def listed_action(state: State, index: int, text: str) -> Any:
    """The play at ``index`` of the listing if its text is ``text`` (``views.listed_action``):
    the text of one play is found by its key (``clickgraph.text_keys`` of its row) in the
    cache of texts, which a process fills as it lists plays; a text not seen yet here, or a
    different one, gives None (the caller parses ``text``). Any other decision (the cube's,
    a resignation) is found by its place and its formatted text."""
    s = _bg(state)
    if not s.is_checker_play():
        actions = s.legal_actions()
        if not 0 <= index < len(actions):
            return None
        return actions[index] if s.action_to_text(actions[index]) == text else None
    legal = s._legal
    if not 0 <= index < len(legal):
        return None
    board0 = s.board
    start = np.frombuffer(bytes(board0[0] + board0[1]), dtype=np.int8).reshape(2, 26)
    key = _kernels()[1](start, legal.rows()[index : index + 1]).tobytes()
    if _TEXTS.get(key) != text:
        return None
    return legal[index]


def _play_texts() -> Any:
    """The compiled ``format_play`` of text keys (imported on first use, as ``_kernels``)."""
    from dicehall.games.backgammon.clickgraph import play_texts

    return play_texts


def _graph_json() -> Any:
    """The compiled writer of the graph's JSON (imported on first use, as ``_kernels``)."""
    from dicehall.games.backgammon.clickgraph import graph_json

    return graph_json


def _kernels() -> Any:
    """The compiled walk and text keys (imported on first use: numba loads its kernels then)."""
    from dicehall.games.backgammon.clickgraph import click_graph, text_keys

    return click_graph, text_keys


def move_view(before: State, text: str, after: State) -> dict[str, Any] | None:
    """A roll: its dice; a play: the mover and his steps ``[from, to, hit]`` (his numbering)."""
    b = _bg(before)
    if b.is_chance_node():
        a, c = (int(x) for x in text.split("-"))
        out: dict[str, Any] = {"roll": [a, c], "opening": b.opening}
        if b.opening:  # who starts (None: a tie, both roll again): the browser needs no rule
            out["starts"] = None if _bg(after).opening else _bg(after).turn
        return out
    known: dict[str, int] | None = b._cache.get(_INDEX_KEY)
    index = known.get(text) if known is not None else None
    if index is None:
        # a play parsed and applied (another process's, heard): ``apply`` found it among the
        # listed plays by its exact steps and left its row in ``after``
        src = after.__dict__.get("_src")
        legal = b._cache.get("legal")
        if src is not None and legal is not None and src[0] is legal.rows():
            index = src[1]
    played: tuple[Step, ...] | None = b._legal.steps(index) if index is not None else None
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
    legal_texts_and_json=legal_texts_and_json,
    listed_action=listed_action,
)
