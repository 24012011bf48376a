"""The hint and analysis endpoints over HTTP: who may ask, never in rated games, and what the
answers hold (the browser tests show them on the page)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def client(tmp_path: Path) -> Any:
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_delay=0)) as c:
        yield c


def _start(client: Any, game: str, **body: Any) -> tuple[str, dict[str, str]]:
    res = client.post("/api/games", json={"game": game, "opponent": "bot", **body})
    assert res.status_code == 201, res.text
    created = res.json()
    headers = {"X-Seat-Token": ",".join(created["tokens"].values())}
    res = client.post(f"/api/games/{created['id']}/seed", json={"seed": "hint"}, headers=headers)
    assert res.status_code == 200, res.text
    return created["id"], headers


def _my_turn(client: Any, game_id: str, headers: dict[str, str]) -> dict[str, Any]:
    """The snapshot once it is our turn (the bot thinks in a thread: on a loaded machine it
    may take a while, so the wait is bounded by time, not by a count of polls)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        snap = client.get(f"/api/games/{game_id}", headers=headers).json()
        if snap["legal"] or snap["status"] == "finished":
            return snap  # type: ignore[no-any-return]
        time.sleep(0.02)
    raise AssertionError("never my turn in 120 s")


def test_white_die_hint_has_the_exact_values_best_first(client: Any) -> None:
    game_id, headers = _start(client, "whitedie", name="w")
    snap = _my_turn(client, game_id, headers)
    res = client.get(f"/api/games/{game_id}/hint", headers=headers)
    assert res.status_code == 200, res.text
    hint = res.json()
    assert hint["unit"] == "points" and hint["seat"] == 0
    options = hint["options"]
    assert options and all(o["text"] in snap["legal"] for o in options)
    sign = -1 if hint["minimising"] else 1
    values = [sign * o["value"] for o in options]
    assert values == sorted(values, reverse=True)
    assert options[0]["loss"] == 0 and all(o["loss"] >= 0 for o in options)


def test_no_hints_in_rated_games(client: Any) -> None:
    res = client.post("/api/accounts", json={"username": "rated1", "password": "a good password"})
    assert res.status_code == 201, res.text
    game_id, headers = _start(client, "whitedie", rated=True)
    _my_turn(client, game_id, headers)
    res = client.get(f"/api/games/{game_id}/hint", headers=headers)
    assert res.status_code == 403
    assert res.json()["error"] == {"code": "no_hints", "message": "no hints in rated games"}


def test_no_hint_without_the_seat_and_no_analysis_before_the_end(client: Any) -> None:
    game_id, headers = _start(client, "whitedie", name="w")
    _my_turn(client, game_id, headers)
    assert client.get(f"/api/games/{game_id}/hint").status_code == 403  # a spectator
    res = client.get(f"/api/games/{game_id}/analysis")
    assert res.status_code == 409
    assert "when the game is over" in res.json()["error"]["message"]


def test_analysis_of_a_resigned_white_die_game(client: Any) -> None:
    game_id, headers = _start(client, "whitedie", name="w")
    snap = _my_turn(client, game_id, headers)
    stand = "stand" if "stand" in snap["legal"] else snap["legal"][0]
    res = client.post(f"/api/games/{game_id}/act", json={"text": stand}, headers=headers)
    assert res.status_code == 200, res.text
    assert client.post(f"/api/games/{game_id}/resign", json={}, headers=headers).status_code == 200
    report = client.get(f"/api/games/{game_id}/analysis").json()
    assert report["game"] == "whitedie" and report["unit"] == "points"
    mine = [d for d in report["decisions"] if d["n"] == snap["seq"] + 1]
    assert mine and mine[0]["played"] == stand and mine[0]["loss"] >= 0
    # computed once: the same answer again
    assert client.get(f"/api/games/{game_id}/analysis").json() == report


def test_server_errors_in_the_readers_language(client: Any) -> None:
    """Codes and English for programs; the page's language for people."""
    game_id, headers = _start(client, "whitedie", name="w")
    _my_turn(client, game_id, headers)
    pt = {**headers, "Accept-Language": "pt-PT"}
    res = client.get(f"/api/games/{game_id}/analysis", headers=pt)
    assert res.json()["error"] == {
        "code": "not_finished",
        "message": "a análise vem quando o jogo acabar",
    }
    res = client.post(f"/api/games/{game_id}/act", json={"text": "fly away"}, headers=pt)
    error = res.json()["error"]
    assert error["code"] == "illegal_action"
    # and the detail translated too: the reason and the legal actions
    assert error["message"].startswith("Essa jogada não é legal. «fly away»")
    assert error["message"].endswith(f"Ações legais: {', '.join(error['legal'][:20])}.")
    res = client.post(f"/api/games/{game_id}/act", json={"text": "fly away"}, headers=headers)
    assert not res.json()["error"]["message"].startswith("Essa")  # no language: English


def test_coin_rows_hint_and_analysis_use_the_bots_evaluation(client: Any) -> None:
    game_id, headers = _start(client, "coinrows", name="c", options={"leaving": False})
    for _ in range(6):
        snap = _my_turn(client, game_id, headers)
        hint = client.get(f"/api/games/{game_id}/hint", headers=headers).json()
        assert hint["unit"] == "result"
        values = [o["value"] for o in hint["options"]]
        assert values == sorted(values, reverse=True) and all(-1 <= v <= 1 for v in values)
        assert all(o["text"] in snap["legal"] for o in hint["options"])
        worst = snap["legal"][-1]  # not always the best: something to lose
        res = client.post(f"/api/games/{game_id}/act", json={"text": worst}, headers=headers)
        assert res.status_code == 200, res.text
    assert client.post(f"/api/games/{game_id}/resign", json={}, headers=headers).status_code == 200
    report = client.get(f"/api/games/{game_id}/analysis").json()
    assert report["unit"] == "result" and report["level"] == "intermediate"
    mine = [d for d in report["decisions"] if d["seat"] == 0]
    assert mine and all(d["loss"] >= 0 and d["equity"] is not None for d in mine)
    assert all(d["loss"] == 0 or d["played"] != d["best"] for d in mine)


def test_backgammon_cube_hint(client: Any) -> None:
    """At a cube decision the hint judges the cube actions (as gnubg's cube hint)."""
    res = client.post(
        "/api/games",
        json={
            "game": "backgammon",
            "opponent": "random",
            "name": "cube",
            "options": {"cube": True, "scoring": "standard"},
        },
    )
    created = res.json()
    game_id = created["id"]
    headers = {"X-Seat-Token": ",".join(created["tokens"].values())}
    client.post(f"/api/games/{game_id}/seed", json={"seed": "cube"}, headers=headers)
    for _ in range(40):
        snap = _my_turn(client, game_id, headers)
        if snap["view"]["phase"] == "cube" and "double" in snap["legal"]:
            break
        assert snap["status"] != "finished", snap["log"][-6:]
        # take the random bot's doubles and reject its resignations: a pass or an accept
        # would end the game before our own cube decision
        legal = snap["legal"]
        text = next((a for a in ("take", "reject") if a in legal), legal[0])
        client.post(f"/api/games/{game_id}/act", json={"text": text}, headers=headers)
    else:
        raise AssertionError("never a cube decision")
    hint = client.get(f"/api/games/{game_id}/hint", headers=headers).json()
    assert hint["unit"] == "cube"
    assert {o["text"] for o in hint["options"]} == {"roll", "double"}
    assert hint["options"][0]["loss"] == 0 and hint["options"][1]["loss"] >= 0
    assert hint["options"][0]["text"] == hint["options"][0]["best"]
