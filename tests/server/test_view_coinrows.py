"""The Coin Rows view model: JSON-ready, faithful to the state, and legal_view texts are legal."""

from __future__ import annotations

import itertools
import json
import random

from dicehall import load_game
from dicehall.core.game import State
from dicehall.games.coinrows import CoinRows
from dicehall.server.views import coinrows as view
from dicehall.server.views import get_view


def roundtrip(data: object) -> object:
    return json.loads(json.dumps(data))


def random_states(seed: int, games: int = 6, **options: object) -> list[State]:
    """Every state of a few random games (dice included)."""
    rng = random.Random(seed)
    game = load_game("coinrows", **options)
    out: list[State] = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < 4000:
            out.append(state)
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                # roll more often than leaving, so games last
                action = legal[0] if rng.random() < 0.6 else rng.choice(legal)
            state = state.apply(action)
        out.append(state)
    return out


def test_registered_with_the_server() -> None:
    assert get_view("coinrows") is view.VIEW


def test_initial_position() -> None:
    s = load_game("coinrows").new_initial_state()
    v = view.state_view(s)
    assert roundtrip(v) == v
    assert v["board"] == [[6, 1], [6, 1], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]]
    assert v["purses"] == [15, 18] and v["on_board"] == [5, 2] and v["scores"] == [20, 20]
    assert v["phase"] == "A" and v["turn"] == 0 and v["dice"] is None and v["last_roll"] is None
    assert v["winner"] is None and v["result"] is None
    legal = view.legal_view(s)
    assert [b["text"] for b in legal["buttons"]] == ["roll", "leave"]
    assert legal["captures"] == []


def test_phase_b_moves_and_dice() -> None:
    s = load_game("coinrows").new_initial_state().apply_text("roll").apply_text("3-2")
    v = view.state_view(s)
    assert v["phase"] == "B" and v["dice"] == [2, 3] and v["last_roll"] == [2, 3]
    legal = view.legal_view(s)
    assert legal["roll"] == [2, 3]
    texts = {m["text"] for m in legal["moves"]}
    assert texts == set(s.legal_texts())
    assert "c1-c6" in texts and "c1-c3 d1-d4" in texts
    single = next(m for m in legal["moves"] if m["text"] == "c1-c6")
    assert single["steps"] == [[2, 0, 5]]
    # no legal play's steps are part of another's, so a click that completes one can send it
    steps = [{tuple(x) for x in m["steps"]} for m in legal["moves"]]
    assert not any(a < b for a in steps for b in steps)


def test_captures_and_refill() -> None:
    g = load_game("coinrows")
    assert isinstance(g, CoinRows)
    s = g.setup({"a7": 1, "b4": 0, "c4": 1, "d4": 0, "e1": 0, "f1": 0, "g1": 0}, purses=(15, 18))
    v = view.state_view(s)
    assert v["captures"] == [{"row": 3, "columns": [1, 2, 3], "text": "capture 4"}]
    legal = view.legal_view(s)
    assert legal["captures"] == v["captures"]
    after = s.apply_text("capture 4")
    detail = view.move_view(s, "capture 4", after)
    assert detail == {
        "kind": "capture",
        "seat": 0,
        "row": 3,
        "columns": [1, 2, 3],
        "refilled": [1, 2, 3],
    }
    w = view.state_view(after)
    assert w["turn"] == 1 and w["refilled"] == [1, 2, 3]
    assert w["board"][1:4] == [[6, 1], [6, 1], [6, 1]]
    assert w["purses"] == [18, 15]


def test_adjacent_captures_name_their_run() -> None:
    g = load_game("coinrows", capture="adjacent")
    assert isinstance(g, CoinRows)
    s = g.setup({"a4": 1, "b4": 0, "c1": 0, "d4": 0, "e4": 1, "f4": 0, "g1": 0}, purses=(15, 18))
    texts = [c["text"] for c in view.legal_view(s)["captures"]]
    assert texts == ["capture 4 a-b", "capture 4 d-f"]
    assert set(texts) <= set(s.legal_texts())


def test_move_view_of_each_kind() -> None:
    s0 = load_game("coinrows").new_initial_state()
    s1 = s0.apply_text("roll")
    assert view.move_view(s0, "roll", s1) == {"kind": "roll", "seat": 0}
    s2 = s1.apply_text("3-4")
    assert view.move_view(s1, "3-4", s2) == {
        "kind": "roll",
        "seat": 0,
        "dice": [3, 4],
        "ends_turn": True,
    }
    s2 = s1.apply_text("1-2")
    s3 = s2.apply_text("c1-c2 d1-d3")
    assert view.move_view(s2, "c1-c2 d1-d3", s3) == {
        "kind": "move",
        "seat": 0,
        "steps": [[2, 0, 1], [3, 0, 2]],
        "roll": [1, 2],
        "full": True,
    }
    s4 = s0.apply_text("leave")
    assert view.move_view(s0, "leave", s4) == {"kind": "leave", "seat": 0}
    assert view.summary(s4) == "Seat 1 (X) left; totals 20 to 20, drawn."


def test_random_games_round_trip_and_legal_texts_are_legal() -> None:
    states = random_states(7) + random_states(8, games=3, capture="adjacent", purse=8)
    assert any(s.is_terminal() for s in states)
    for before, after in itertools.pairwise(states):
        v = view.state_view(before)
        assert roundtrip(v) == v
        assert sum(v["scores"]) == 2 * v["purse"]
        coins = [c for c in v["board"] if c is not None]
        assert len(coins) == sum(v["on_board"])
        if before.is_terminal():
            assert v["phase"] == "over" and v["result"]
            assert view.summary(before).endswith(".")
            continue
        if not before.is_chance_node():
            legal = view.legal_view(before)
            assert roundtrip(legal) == legal
            texts = set(before.legal_texts())
            if legal["phase"] == "A":
                offered = [b["text"] for b in legal["buttons"]] + [
                    c["text"] for c in legal["captures"]
                ]
                assert set(offered) == texts
            else:
                assert {m["text"] for m in legal["moves"]} == texts
        text = next(t for t in before.legal_texts() if before.apply_text(t) == after)
        detail = view.move_view(before, text, after)
        assert detail is not None and roundtrip(detail) == detail


def test_the_view_says_whether_the_roll_ended_the_turn() -> None:
    """The browser shows "7: turn over" from this flag, not from a copy of the rule."""
    s = load_game("coinrows").new_initial_state().apply_text("roll")
    assert view.state_view(s.apply_text("3-4"))["roll_ends_turn"] is True
    assert view.state_view(s.apply_text("2-3"))["roll_ends_turn"] is False
    assert view.state_view(load_game("coinrows").new_initial_state())["roll_ends_turn"] is False
