"""The server-drawn board image (``/api/games/{id}/board.svg``): the pure ``dicehall.svg``
drawing of the position after any ply, its bad parameters refused with the allowed range."""

from __future__ import annotations

from typing import Any

from dicehall_server_fixtures import (  # noqa: F401
    client_fixture,
    create_game,
    sqlite_url_fixture,
)

from dicehall.core.registry import load_game
from dicehall.svg import board_svg


def _local_coinrows_game(client: Any) -> tuple[str, list[str]]:
    created = create_game(client, game="coinrows", opponent="local")
    game_id = created["id"]
    tokens = list(created["tokens"].values())
    for _ in range(3):
        snap = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": tokens[0]}).json()
        legal = snap.get("legal") or []
        if not legal:
            break
        res = client.post(f"/api/games/{game_id}/act", json={"tokens": tokens, "text": legal[0]})
        assert res.status_code == 200, res.text
    return game_id, [e["text"] for e in client.get(f"/api/games/{game_id}").json()["log"]]


def test_board_image_is_the_svg_drawing_of_each_ply(client: Any) -> None:
    game_id, texts = _local_coinrows_game(client)
    assert texts, "the game has moved"
    res = client.get(f"/api/games/{game_id}/board.svg")
    assert res.status_code == 200 and res.headers["content-type"].startswith("image/svg+xml")
    state = load_game("coinrows").new_initial_state()
    assert client.get(f"/api/games/{game_id}/board.svg?ply=0").text == board_svg(state)
    for ply, text in enumerate(texts, start=1):
        state = state.apply(state.parse_action(text))
        got = client.get(f"/api/games/{game_id}/board.svg?ply={ply}&size=200").text
        assert got == board_svg(state, last_move=text, size=200)
    assert res.text == board_svg(state, last_move=texts[-1])


def test_board_image_refuses_bad_parameters_with_the_range(client: Any) -> None:
    game_id, texts = _local_coinrows_game(client)
    res = client.get(f"/api/games/{game_id}/board.svg?ply={len(texts) + 1}")
    assert res.status_code == 400 and f"0..{len(texts)}" in res.json()["error"]["message"]
    res = client.get(f"/api/games/{game_id}/board.svg?size=5")
    assert res.status_code == 400 and "16..2000" in res.json()["error"]["message"]
    res = client.get(f"/api/games/{game_id}/board.svg?orientation=7")
    assert res.status_code == 400 and "seat 0..1" in res.json()["error"]["message"]
    assert client.get("/api/games/nope/board.svg").status_code == 404
