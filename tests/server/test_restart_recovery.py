"""Restarting the server (even after a crash) resumes every game from its action log; bots
play in worker threads without blocking other games."""

from __future__ import annotations

import threading
import time
from typing import Any

from dicehall_server_fixtures import create_game, sqlite_url_fixture  # noqa: F401
from fastapi.testclient import TestClient

from dicehall.bots import registry
from dicehall.core.fairness import FairDice, chance_text
from dicehall.server.app import create_app
from dicehall.server.service import GameService
from dicehall.server.storage import Store


def play_some(client: Any, game_id: str, tokens: list[str], moves: int) -> None:
    service = client.app.state.service
    live = service.get(game_id)
    for _ in range(moves):
        with live.lock:
            state, seq = live.state, live.seq
        seat = state.current_player()
        res = client.post(
            f"/api/games/{game_id}/act",
            json={"tokens": [tokens[seat]], "text": state.legal_texts()[0], "seq": seq},
        )
        assert res.status_code == 200, res.text


def test_a_new_server_on_the_same_database_resumes_games(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        created = create_game(c, game="backgammon", opponent="local")
        game_id = created["id"]
        tokens = [created["tokens"]["0"], created["tokens"]["1"]]
        play_some(c, game_id, tokens, 6)
        before = c.get(f"/api/games/{game_id}").json()
    # no clean shutdown matters: the log was committed before every answer
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        after = c.get(f"/api/games/{game_id}").json()
        assert after["seq"] == before["seq"] and after["view"] == before["view"]
        assert after["log"] == before["log"] and after["last"] == before["last"]
        play_some(c, game_id, tokens, 2)
        assert c.get(f"/api/games/{game_id}").json()["seq"] == before["seq"] + 4


def test_pending_dice_are_rolled_at_start_up_exactly_as_the_seed_says(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    service = GameService(store, bot_delay=0)
    game_id, tokens = service.create("backgammon", opponent="local")
    live = service.get(game_id)
    seat, text = live.state.current_player(), live.state.legal_texts()[0]
    # a crash right after a move was written but before its dice: write the move alone
    store.append_actions(game_id, live.seq + 1, [(seat, text)])
    expected_dice = FairDice(live.row.server_seed, ["", ""])
    state = live.game.new_initial_state()
    for e in live.log:
        if state.is_chance_node():
            chance_text(state, expected_dice)
        state = state.apply_text(e.text)
    state = state.apply_text(text)
    roll, _ = chance_text(state, expected_dice)
    service.close()
    restarted = GameService(Store(sqlite_url), bot_delay=0)
    assert restarted.resume_all() == 1
    again = restarted.get(game_id)
    assert again.log[-2].text == text and again.log[-1].actor == -1
    assert again.log[-1].text == roll
    restarted.close()
    assert tokens


def test_a_slow_bot_blocks_no_other_game(sqlite_url: str, monkeypatch: Any) -> None:
    release = threading.Event()
    thinking = threading.Event()

    class SlowBot:
        name = "slow"

        def act(self, state: Any) -> Any:
            thinking.set()
            release.wait(10)
            return state.legal_actions()[0]

    monkeypatch.setitem(registry.GENERIC_AGENTS, "slow", lambda g, a, s: SlowBot())
    service = GameService(Store(sqlite_url), bot_delay=0, bot_specs=lambda game: ("slow", "random"))
    slow_id, slow_tokens = service.create("backgammon", opponent="slow", seat=0)
    slow = service.get(slow_id)
    while not thinking.is_set():  # play our moves until the slow bot is to move
        with slow.lock:
            state, seq = slow.state, slow.seq
        if state.current_player() == 0:
            service.act(slow_id, [0], state.legal_texts()[0], seq)
        thinking.wait(0.01)
    # while it thinks, another game goes on and the slow game's snapshot is served
    other_id, _ = service.create("backgammon", opponent="local")
    other = service.get(other_id)
    for _ in range(4):
        service.act(other_id, [0, 1], other.state.legal_texts()[0], other.seq)
    assert service.snapshot(slow, [0])["to_move"] == 1
    release.set()
    deadline = time.monotonic() + 10
    while service.get(slow_id).state.current_player() == 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert service.get(slow_id).state.current_player() != 1
    service.close()
    assert slow_tokens
