"""The backgammon view model: JSON-ready, and its click graph gives exactly the legal plays."""

from __future__ import annotations

import json
import random

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
