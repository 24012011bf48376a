"""The backgammon view model: JSON-ready, and its click graph gives exactly the legal plays."""

from __future__ import annotations

import json
import random
from typing import Any

from dicehall.core.registry import load_game
from dicehall.games.backgammon.rules import Play
from dicehall.server.views import get_view
from dicehall.server.views.backgammon import legal_view, move_view, state_view


def walk_texts(graph: dict) -> set[str]:
    texts: set[str] = set()
    stack = [0]
    seen = set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        node = graph["nodes"][n]
        if node["text"] is not None:
            texts.add(node["text"])
        stack.extend(e[4] for e in node["edges"])
    return texts


def test_views_along_random_games_are_json_and_complete() -> None:
    rng = random.Random(4)
    game = load_game("backgammon")
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            json.dumps(state_view(state))
            if state.is_chance_node():
                action = rng.choice(state.legal_actions())
            else:
                graph = legal_view(state)
                json.dumps(graph)
                assert walk_texts(graph) == set(state.legal_texts())
                action = rng.choice(state.legal_actions())
            text = state.action_to_text(action)
            after = state.apply(action)
            detail = move_view(state, text, after)
            json.dumps(detail)
            if isinstance(action, Play):
                assert detail is not None and len(detail["steps"]) == len(action.steps)
            state = after
        assert state_view(state)["phase"] == "over"
        assert "wins" in get_view("backgammon").summary(state)


def test_a_game_without_a_web_view_gets_the_generic_one() -> None:
    from dicehall.core.declaration import GameEntry
    from dicehall.core.registry import refresh_games, register_game

    register_game(GameEntry("plainbackgammon", rules=type(load_game("backgammon"))))
    try:
        view = get_view("plainbackgammon")
    finally:
        refresh_games()
    state = load_game("backgammon").new_initial_state()
    assert view.state_view(state) == {"text": state.render(None)}
    assert view.legal_view(state) is None


def test_the_browser_gets_the_rules_results_not_the_rules() -> None:
    """Each click-graph node carries its board, and the opening roll says who starts, so
    backgammon.js applies no move and decides no opening itself."""
    from dicehall.games.backgammon.rules import move_step, pip_count

    game = load_game("backgammon")
    tie = move_view(game.new_initial_state(), "4-4", game.new_initial_state().apply_text("4-4"))
    assert tie == {"roll": [4, 4], "opening": True, "starts": None}
    start = game.new_initial_state()
    assert move_view(start, "2-5", start.apply_text("2-5"))["starts"] == 1
    state = start.apply_text("3-1")
    nodes = legal_view(state)["nodes"]
    assert tuple(map(tuple, nodes[0]["sides"])) == state.board
    assert nodes[0]["pips"] == [167, 167] and all(
        node["pips"] == [pip_count(node["sides"][0]), pip_count(node["sides"][1])] for node in nodes
    )
    for node in nodes:
        for src, dst, _die, hit, child in node["edges"]:
            mine, theirs = list(node["sides"][0]), list(node["sides"][1])
            assert move_step(mine, theirs, src, dst) == hit
            assert (tuple(mine), tuple(theirs)) == tuple(map(tuple, nodes[child]["sides"]))
    json.dumps(nodes)


def _positions(seed: int, count: int) -> list:
    """Checker plays met along random games (doubles among them), in a fixed order."""
    rng = random.Random(seed)
    game = load_game("backgammon")
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if state.is_checker_play():
                out.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return out


def _reference_graph(state) -> dict:
    """The click graph by its definition, written plainly: every board reachable by single
    steps (the dice left beside it) from which a legal play can still be reached, with its
    edges to the boards one step on; keyed by (sides, dice left) instead of node numbers."""
    from dicehall.games.backgammon.board import move_step
    from dicehall.games.backgammon.rules import single_steps

    finals = {board for _play, board in state.play_results()}
    d1, d2 = state.dice
    dice = (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
    graph: dict = {}

    def visit(board, rest) -> bool:
        key = (board, rest)
        if key in graph:
            return graph[key] is not None
        if board in finals:
            graph[key] = []
            return True
        edges = []
        for die in sorted(set(rest), reverse=True):
            left = list(rest)
            left.remove(die)
            for src, dst in single_steps(board[0], board[1], die):
                mine, theirs = list(board[0]), list(board[1])
                hit = move_step(mine, theirs, src, dst)
                child = ((tuple(mine), tuple(theirs)), tuple(left))
                if visit(*child):
                    edges.append((src, dst, die, hit, child))
        graph[key] = edges or None
        return bool(edges)

    visit(state.board, dice)
    return {k: sorted(v) for k, v in graph.items() if v is not None}


def test_the_click_graph_is_its_definition_and_texts_are_format_play() -> None:
    # the fast walk (sides as bytes) and the short play texts against the plain definitions
    # over 300 positions, doubles included (a double's walk has ~65 nodes and 150 edges)
    from dicehall.games.backgammon.notation import format_play

    doubles = 0
    for state in _positions(11, 300):
        doubles += state.dice[0] == state.dice[1]
        graph = legal_view(state)
        nodes = graph["nodes"]
        key = [(tuple(map(tuple, n["sides"])), tuple(n["dice"])) for n in nodes]
        got = {
            key[i]: sorted((a, b, die, hit, key[c]) for a, b, die, hit, c in n["edges"])
            for i, n in enumerate(nodes)
        }
        assert got == _reference_graph(state)
        assert key[0] == (state.board, tuple(nodes[0]["dice"]))
        texts = {board: format_play(state.board, p.steps) for p, board in state.play_results()}
        for i, n in enumerate(nodes):
            if n["edges"]:
                assert n["text"] is None
            else:
                assert n["text"] == texts[key[i][0]]
            assert n["pips"] == [sum(k * c for k, c in enumerate(s)) for s in key[i][0]]
        assert state.legal_texts() == get_view("backgammon").legal_texts_and_view(state)[0]
    assert doubles > 30


def test_move_view_of_a_listed_play_is_that_of_its_parsed_text() -> None:
    # move_view reads the steps of a play whose texts were listed (no parse); any other
    # spelling of the same play is parsed and gives the same steps
    view = get_view("backgammon")
    rng = random.Random(5)
    for state in _positions(12, 120):
        texts, _graph = view.legal_texts_and_view(state)
        action = rng.choice(state.legal_actions())
        text = state.action_to_text(action)
        after = state.apply(action)
        listed = move_view(state, text, after)
        assert text in texts
        parsed = move_view(state, " " + text.upper() + " ", after)  # not a listed text
        assert listed == parsed
        assert listed is not None and listed["seat"] == state.turn


def test_move_view_of_a_play_applied_from_its_text_is_that_of_its_parse() -> None:
    # a play heard from another process is parsed and applied, its texts never listed by the
    # view here: move_view reads its steps from the row ``apply`` found, not a second parse
    from dicehall.games.backgammon.board import move_step

    rng = random.Random(7)
    for state in _positions(13, 150):
        text = rng.choice(state.legal_texts())
        after = state.apply_text(text)
        got = move_view(state, text, after)
        mine, theirs = list(state.board[0]), list(state.board[1])
        steps = [[a, b, move_step(mine, theirs, a, b)] for a, b in state.parse_action(text).steps]
        assert got == {"seat": state.turn, "steps": steps}


def test_the_graph_json_written_by_the_kernel_is_the_views_json_byte_for_byte() -> None:
    """``legal_texts_and_json`` (the nodes written by ``clickgraph.graph_json``) gives the same
    texts and the same bytes as the view built as objects and serialised, on positions of
    random games (doubles, hits, entering from the bar and bearing off among them) and on
    the cube's questions (a money game with the cube)."""
    from dicehall.server.views import view_json
    from dicehall.server.views.backgammon import legal_texts_and_json, legal_texts_and_view

    states = _positions(11, 1500)
    rng = random.Random(12)
    cube = load_game("backgammon", cube=True)
    for _ in range(4):
        state = cube.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                states.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    doubles = questions = 0
    for state in states:
        texts, moves = legal_texts_and_view(state)
        assert legal_texts_and_json(state) == (texts, view_json(moves))
        if state.is_checker_play():
            doubles += state.dice[0] == state.dice[1]
        else:
            questions += 1
    assert doubles >= 150 and questions >= 20


def test_a_full_cache_of_play_texts_drops_its_oldest_quarter_not_everything(
    monkeypatch: Any,
) -> None:
    from dicehall.server.views import backgammon as bg_view

    cache: dict[bytes, str] = {}
    monkeypatch.setattr(bg_view, "_TEXTS", cache)
    monkeypatch.setattr(bg_view, "_TEXTS_MAX", 400)
    full = 0
    for state in _positions(3, 200):  # the texts are the plain definition, however cached
        texts = bg_view.legal_texts_and_view(state)[0]
        assert texts == state.legal_texts()
        # at most the cap, unless one position's plays alone pass it (426 here: all kept)
        assert len(cache) <= max(400, len(texts))
        if full:
            assert len(cache) > 300  # once full, never emptied: a quarter goes at a time
        full += len(cache) > 300
    assert full > 100
    # when full, the oldest quarter goes (first in, first out); the newest stay
    cache.update({b"%d" % i: str(i) for i in range(400 - len(cache))})
    first = list(cache)
    bg_view._make_room(cache, 1)
    assert list(cache) == first[100:]
    bg_view._make_room(cache, 1)  # room enough: nothing goes
    assert list(cache) == first[100:]
