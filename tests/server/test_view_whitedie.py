"""The White Die view model: JSON-ready, faithful to the state, and legal_view texts are legal."""

from __future__ import annotations

import json
import random
from typing import Any

from dicehall import load_game
from dicehall.games.whitedie import WhiteDie, WhiteDieState
from dicehall.server.views import get_view
from dicehall.server.views import whitedie as view


def roundtrip(data: object) -> object:
    return json.loads(json.dumps(data))


def game(**options: Any) -> WhiteDie:
    g = load_game("whitedie", **options)
    assert isinstance(g, WhiteDie)
    return g


def legal_texts_of(legal: dict[str, Any]) -> set[str]:
    """Every action text the legal view offers."""
    if legal["kind"] == "choose":
        return {o["text"] for o in legal["opponents"]}
    if legal["kind"] == "place":
        return {p["text"] for p in legal["placements"]}
    if legal["kind"] == "arrange":
        assert all(a["pips"]["score"] == a["points"] for a in legal["arrangements"])
        return {a["text"] for a in legal["arrangements"]}
    if legal["kind"] == "claim":
        assert legal["claim"]["points"] > legal["decline"]["points"]
        return {legal["claim"]["text"], legal["decline"]["text"]}
    out = set(legal["rerolls"].values())
    if legal["stand"]:
        out.add(legal["stand"])
    return out


def random_states(seed: int, games: int, **options: Any) -> list[WhiteDieState]:
    rng = random.Random(seed)
    out: list[WhiteDieState] = []
    for _ in range(games):
        state = game(**options).new_initial_state()
        while True:
            out.append(state)
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
    return out


def test_registered_with_the_server() -> None:
    assert get_view("whitedie") is view.VIEW


def test_start_of_the_game() -> None:
    s = game(players=3).new_initial_state()
    v = view.state_view(s)
    assert roundtrip(v) == v
    assert v["phase"] == "start" and v["scores"] == [0, 0, 0] and v["turn"] is None
    assert v["start"] == {"contenders": [0, 1, 2], "rolls": []}
    s2 = s.apply_text("white 5: 1 2 3 4")
    assert view.state_view(s2)["start"]["rolls"] == [[0, 5, 10]]


def test_sixes_reroll_and_stand() -> None:
    s = game().setup([3, 5], 0, white=6, dice=[2, 4, 4, 1])
    v = view.state_view(s)
    assert v["white"] == 6 and v["challenge"] == "Sixes" and v["rerolls_left"] == 2
    assert v["now"]["points"] == 2 and v["now"]["sets"] == [[2, 4], [2, 4]]
    legal = view.legal_view(s)
    assert legal["kind"] == "reroll" and legal["side"] == "player"
    assert legal["dice"] == [1, 2, 4, 4] and legal["sizes"] == [1, 2, 3, 4]
    assert legal_texts_of(legal) == set(s.legal_texts())
    after = s.apply_text("stand")
    detail = view.move_view(s, "stand", after)
    assert detail is not None
    assert detail["kind"] == "stand" and detail["scored"]["points"] == 2
    last = view.state_view(after)["last"]
    assert last["seat"] == 0 and last["points"] == 2 and last["challenge"] == "Sixes"
    assert last["explain"]["text"] == "sixes: 2+4, 2+4 → 2 points"


def test_pips_square_is_drawn_as_the_rules_say() -> None:
    s = game().setup([0, 0], 1, white=5, dice=[6, 6, 1, 1])
    pips = view.state_view(s)["now"]["pips"]
    assert pips["faces"] == [1, 1, 6, 6] and pips["turns"] == [0, 0, 1, 1]
    assert pips["rows"][3] == "oooooo" and pips["rows"][0] == "......"
    assert pips["empty_rows"] == [0, 2, 4] and pips["empty_columns"] == []
    assert pips["score"] == 3


def test_poker_hand_and_chart() -> None:
    s = game(poker_chart="flat").setup([0, 0], 0, white=2, dice=[3, 4, 5, 6])
    v = view.state_view(s)
    assert v["now"]["hand"] == "straight" and v["now"]["points"] == 3
    assert ["straight", 3] in v["chart"]


def test_tictactoe_grid_and_placements() -> None:
    g = game()
    s = g.setup([3, 5], 0, white=3, dice=[3, 4, 4, 2], opponent=1, opponent_dice=[2, 5, 6, 1])
    v = view.state_view(s)
    assert v["grid"][4] == {"seat": 0, "value": 3, "claimed": False, "white": True}
    assert v["placing"] == 1 and v["opponent"] == 1
    legal = view.legal_view(s)
    assert legal["kind"] == "place" and legal["side"] == "opponent" and legal["seat"] == 1
    assert legal["dice"] == [1, 2, 5, 6]
    assert {p["name"] for p in legal["placements"]} == {"b1", "a2", "c2", "b3"}
    assert legal_texts_of(legal) == set(s.legal_texts())
    after = s.apply_text("place 2 b1")
    detail = view.move_view(s, "place 2 b1", after)
    assert detail == {
        "kind": "place",
        "seat": 1,
        "side": "opponent",
        "value": 2,
        "square": 1,
        "name": "b1",
        "scored": None,
    }
    assert view.state_view(after)["grid"][1] == {
        "seat": 1,
        "value": 2,
        "claimed": False,
        "white": False,
    }


def test_tictactoe_result_shows_lines_and_blocks() -> None:
    # the rules' example: 3 3 3 3 against 1 1 1 1, the player owns the whole grid
    s = game().setup([0, 0], 0, white=3, dice=[3, 3, 3, 3], opponent=1, opponent_dice=[1] * 4)
    while not s.is_chance_node():
        s = s.apply(s.legal_actions()[0])
    last = view.state_view(s)["last"]
    assert last["points"] == 12
    assert len(last["explain"]["lines"]) == 8 and len(last["explain"]["blocks"]) == 4
    assert all(cell["seat"] == 0 for cell in last["grid"])
    assert sum(cell["claimed"] for cell in last["grid"]) == 4


def test_matching_explained() -> None:
    s = game().setup([0, 0], 0, white=4, dice=[4, 5, 2, 2], opponent=1, opponent_dice=[3, 6, 4, 6])
    v = view.state_view(s)
    assert v["phase"] == "match-player"
    assert v["now"]["points"] == 3 and v["now"]["bonus"] is True
    assert {"mine": [2, 2], "theirs": [4]} in v["now"]["matches"]
    legal = view.legal_view(s)
    assert legal["sizes"] == [2] and legal["stand"] is None
    assert legal_texts_of(legal) == set(s.legal_texts())


def test_choose_opponent_with_three_players() -> None:
    base = game(players=3).setup([1, 2, 3], 1)
    s = base.apply(base.parse_action("white 4: 1 2 3 4"))
    legal = view.legal_view(s)
    assert legal["kind"] == "choose"
    assert legal["opponents"] == [
        {"seat": 0, "text": "opponent 1"},
        {"seat": 2, "text": "opponent 3"},
    ]
    after = s.apply_text("opponent 3")
    assert view.move_view(s, "opponent 3", after) == {"kind": "choose", "seat": 1, "opponent": 2}


def test_random_games_round_trip_and_legal_texts_are_legal() -> None:
    states = random_states(1, 3, target=10) + random_states(2, 2, players=3, target=8)
    assert any(s.is_terminal() for s in states)
    for before in states:
        v = view.state_view(before)
        assert roundtrip(v) == v
        if before.is_terminal():
            assert v["winner"] is not None
            assert view.summary(before).startswith(f"Seat {v['winner'] + 1} wins")
            continue
        if not before.is_chance_node():
            legal = view.legal_view(before)
            assert roundtrip(legal) == legal
            assert legal_texts_of(legal) == set(before.legal_texts())
        for text in before.legal_texts()[:2]:
            detail = view.move_view(before, text, before.apply_text(text))
            assert detail is not None and roundtrip(detail) == detail


def test_the_free_choices_in_the_views() -> None:
    game = load_game("whitedie")
    pips = game.setup([3, 5], 0, white=5, dice=[1, 1, 6, 6], rerolls_left=1).apply_text("stand")
    legal = view.legal_view(pips)
    assert legal["kind"] == "arrange" and [a["points"] for a in legal["arrangements"]] == [3, 2, 0]
    assert view.state_view(pips)["now"]["points"] == 3  # the best square is shown
    after = pips.apply_text("arrange 2")
    move = view.move_view(pips, "arrange 2", after)
    assert move is not None and move["kind"] == "arrange" and move["points"] == 2
    assert move["scored"]["explain"]["pips"]["score"] == 2
    assert "the best square scores 3" in move["scored"]["explain"]["text"]
    s = game.setup([0, 0], 0, white=3, dice=[3, 3, 3, 3], opponent=1, opponent_dice=[1, 1, 1, 1])
    for text in ("place 3 b1", "place 3 a2", "place 3 c2", "place 3 b3"):
        s = s.apply_text(text)
    v = view.state_view(s)
    assert v["phase"] == "claim" and v["grid"] is not None and "claim" in v["status_line"]
    legal = view.legal_view(s)
    assert legal["claim"] == {"text": "claim", "points": 12}
    assert legal["decline"] == {"text": "decline", "points": 2}
    after = s.apply_text("decline")
    move = view.move_view(s, "decline", after)
    assert move is not None and move["kind"] == "claim" and move["take"] is False
    assert move["scored"]["points"] == 2 and move["scored"]["explain"]["declined"]
