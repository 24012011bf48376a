"""The server's errors in the reader's language with their details translated too (which
move, whose turn, which moves are legal), over HTTP and the WebSocket; English unchanged."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from dicehall.server import error_messages, i18n

PT = {"Accept-Language": "pt-PT,pt;q=0.9"}
#: English words that no Portuguese error may keep ("legal" is Portuguese too)
ENGLISH = re.compile(r"\b(illegal|turn|seat|move|moved|action|you|the|is|not|to)\b", re.I)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    db = tmp_path_factory.mktemp("errors") / "db.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0)) as c:
        yield c


@pytest.fixture
def game(client: Any) -> dict[str, Any]:
    """A backgammon game between two people (both seats' tokens), past the opening roll."""
    made = client.post("/api/games", json={"game": "backgammon", "opponent": "friend"}).json()
    t0 = made["tokens"]["0"]
    client.post(f"/api/games/{made['id']}/seed", json={"seed": "e"}, headers={"X-Seat-Token": t0})
    t1 = client.post(f"/api/games/{made['id']}/join", json={"seed": "f"}).json()["token"]
    snap = client.get(f"/api/games/{made['id']}", headers={"X-Seat-Token": f"{t0},{t1}"}).json()
    assert snap["status"] == "playing" and snap["to_move"] in (0, 1)
    mover = snap["to_move"]
    return {
        "id": made["id"],
        "mover": (t0, t1)[mover],
        "waiter": (t1, t0)[mover],
        "seat": mover,
        "seq": snap["seq"],
        "legal": snap["legal"],
    }


def _act(client: Any, game: dict[str, Any], token: str, text: str, seq: int, **headers: str) -> Any:
    res = client.post(
        f"/api/games/{game['id']}/act",
        json={"tokens": [token], "text": text, "seq": seq},
        headers=headers,
    )
    assert res.status_code >= 400
    return res.json()["error"]


def _portuguese(message: str) -> str:
    assert not ENGLISH.search(message), message
    assert "{" not in message, message
    return message


def test_an_illegal_move_says_which_moves_are_legal_in_portuguese(client: Any, game: Any) -> None:
    en = _act(client, game, game["mover"], "24/1", game["seq"])
    assert en["code"] == "illegal_action" and en["message"].startswith("illegal action '24/1'")
    pt = _act(client, game, game["mover"], "24/1", game["seq"], **PT)
    assert pt["code"] == "illegal_action" and pt["legal"] == game["legal"]
    assert pt["detail"]["params"]["legal"] == ", ".join(game["legal"][: error_messages.SHOWN])
    message = _portuguese(pt["message"])
    assert message.startswith("Essa jogada não é legal. «24/1»")
    assert message.endswith(f"Ações legais: {', '.join(game['legal'][:20])}.")


def test_whose_turn_and_a_stale_position_in_portuguese(client: Any, game: Any) -> None:
    pt = _act(client, game, game["waiter"], game["legal"][0], game["seq"], **PT)
    assert pt["code"] == "out_of_turn"
    assert _portuguese(pt["message"]) == f"Não é a sua vez. Joga o lugar {game['seat'] + 1}."
    pt = _act(client, game, game["mover"], game["legal"][0], game["seq"] - 1, **PT)
    assert pt["code"] == "stale"
    assert _portuguese(pt["message"]) == (
        "A posição mudou: atualize e jogue outra vez. "
        f"O jogo vai na ação {game['seq']}; viu a ação {game['seq'] - 1}."
    )


def test_over_the_websocket_too(client: Any, game: Any) -> None:
    with client.websocket_connect("/ws", headers=PT) as ws:
        ws.send_json({"type": "join", "v": 1, "game": game["id"], "tokens": [game["mover"]]})
        while ws.receive_json()["type"] != "snapshot":
            pass
        ws.send_json({"type": "act", "v": 1, "ref": 1, "text": "24/1", "seq": game["seq"]})
        while (msg := ws.receive_json())["type"] != "error":
            pass
    assert msg["code"] == "illegal_action" and msg["detail"]["id"] == "{what} Legal: {legal}."
    assert _portuguese(msg["message"]).startswith("Essa jogada não é legal. «24/1»")


def test_every_fixed_message_and_reason_is_translated() -> None:
    catalogue = i18n.messages("pt")
    missing = [m for m in (*error_messages.FIXED, *error_messages.REASONS) if m not in catalogue]
    assert missing == []
    # a long list is cut in the message (the error's ``legal`` has them all)
    detail = error_messages.illegal_detail(
        "x", "some reason of the rules", [str(i) for i in range(25)]
    )
    text = i18n.message_text("pt", detail)
    assert text.startswith("«x» não se pode jogar aqui. Ações legais: 0, 1,")
    assert text.endswith("19 e mais 5.")


def test_errors_with_values_are_translated_whole(client: Any) -> None:
    """An error whose words carry a value (which game, which seat, which bot) comes in
    Portuguese whole, with no English in brackets after the sentence."""
    en = client.get("/api/games/nosuchgame").json()["error"]
    assert en == {
        "code": "unknown_game",
        "message": "there is no game 'nosuchgame'",
        "detail": {"id": "there is no game {id}", "params": {"id": "'nosuchgame'"}, "whole": True},
    }
    pt = client.get("/api/games/nosuchgame", headers=PT).json()["error"]
    assert pt["message"] == "não há nenhum jogo 'nosuchgame'"
    made = client.post(
        "/api/games", json={"game": "backgammon", "opponent": "bot:nosuch"}, headers=PT
    ).json()["error"]
    assert made["code"] == "bad_request"
    assert made["message"].startswith(
        "o adversário 'bot:nosuch' não é oferecido em backgammon; escolha um de: bot, "
    ), made
    assert made["message"].endswith(", random, friend, local")
    seat = client.post(
        "/api/games", json={"game": "backgammon", "opponent": "friend", "seat": 5}, headers=PT
    ).json()["error"]
    assert _portuguese(seat["message"]) == "o lugar tem de ser 0..1 em backgammon", seat


def test_every_refusal_of_the_server_can_be_translated() -> None:
    """Every ``ServiceError`` the server raises is translatable: a fixed message is in the
    catalogue (translated whole), a message made with values comes with a structured
    ``detail`` (``ServiceError.said`` or ``detail=``). A new f-string refusal fails here."""
    import ast
    from pathlib import Path

    import dicehall.server

    catalogue = i18n.messages("pt")
    untranslatable = []
    root = Path(dicehall.server.__file__).parent
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "ServiceError"
                and len(node.args) >= 2
            ):
                continue
            where = f"{path.name}:{node.lineno}"
            message = node.args[1]
            if isinstance(message, ast.Constant):
                if message.value not in catalogue:
                    untranslatable.append(f"{where} {message.value!r} is not in the catalogue")
            elif "exc" in {n.id for n in ast.walk(message) if isinstance(n, ast.Name)}:
                # a lower layer's refusal passed on (an option, a seed, a bot spec, the
                # rules): the code's sentence, then its English words (translate_error)
                continue
            elif len(node.args) < 4 and not any(k.arg == "detail" for k in node.keywords):
                untranslatable.append(f"{where}: a message made with values needs a detail")
    assert untranslatable == []
