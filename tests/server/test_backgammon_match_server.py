"""The server with the cube and match play: actions validated like any other, a match
that survives a restart, records as .mat."""

from __future__ import annotations

from typing import Any

from dicehall_server_fixtures import create_game, sqlite_url_fixture  # noqa: F401
from fastapi.testclient import TestClient

from dicehall.games.backgammon.mat import import_mat
from dicehall.server.app import create_app

MATCH = {"cube": True, "scoring": "standard", "match_length": 3}


def act(c: Any, game_id: str, tokens: list[str], text: str) -> Any:
    snap = c.get(f"/api/games/{game_id}").json()
    seat = snap["to_move"]
    return c.post(
        f"/api/games/{game_id}/act",
        json={"tokens": [tokens[seat]], "text": text, "seq": snap["seq"]},
    )


def test_a_match_is_validated_survives_a_restart_and_downloads_as_mat(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        created = create_game(c, game="backgammon", opponent="local", options=MATCH)
        game_id = created["id"]
        tokens = [created["tokens"]["0"], created["tokens"]["1"]]
        snap = c.get(f"/api/games/{game_id}").json()
        assert snap["view"]["phase"] == "move" and snap["view"]["match"]["length"] == 3
        # doubling after the roll is refused with the reason and the legal choices
        res = act(c, game_id, tokens, "double")
        assert res.status_code == 422
        err = res.json()["error"]
        assert "before the roll, not after it" in err["message"] and "resign single" in err["legal"]
        seat = c.get(f"/api/games/{game_id}").json()["to_move"]
        legal = [t for t in _legal(c, game_id, tokens[seat]) if not t.startswith("resign")]
        assert act(c, game_id, tokens, legal[0]).status_code == 200
        snap = c.get(f"/api/games/{game_id}").json()
        assert snap["view"]["phase"] == "cube"
        assert act(c, game_id, tokens, "double").status_code == 200
        snap = c.get(f"/api/games/{game_id}").json()
        assert snap["view"]["phase"] == "take" and snap["view"]["cube"]["offered"]
        assert act(c, game_id, tokens, "beaver").status_code == 422  # no beavers in a match
        assert act(c, game_id, tokens, "take").status_code == 200
        before = c.get(f"/api/games/{game_id}").json()
        assert before["view"]["cube"]["value"] == 2
    # a new server on the same database: the match goes on where it was
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        after = c.get(f"/api/games/{game_id}").json()
        assert after["seq"] == before["seq"] and after["view"] == before["view"]
        # the doubler resigns a gammon at cube 2: 4 points end the match to 3
        seat = after["to_move"]
        assert act(c, game_id, tokens, "resign gammon").status_code == 200
        assert act(c, game_id, tokens, "accept").status_code == 200
        final = c.get(f"/api/games/{game_id}").json()
        assert final["status"] == "finished"
        assert final["view"]["match"]["score"][1 - seat] == 4
        assert "wins the match to 3" in final["summary"]
        mat = c.get(f"/api/games/{game_id}/record?format=mat&download=1")
        assert mat.status_code == 200 and mat.text.startswith(" 3 point match")
        assert 'filename="dicehall-' in mat.headers["content-disposition"]
        assert mat.headers["content-disposition"].endswith('.mat"')
        record = import_mat(mat.text)
        assert record.final_state().match_score == tuple(final["view"]["match"]["score"])
        bad = c.get(f"/api/games/{game_id}/record?format=sgf")
        assert bad.status_code == 400 and "expected json or mat" in bad.text


def _legal(c: Any, game_id: str, token: str) -> list[str]:
    snap = c.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
    return list(snap["legal"] or [])
