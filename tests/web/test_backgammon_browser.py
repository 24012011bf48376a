"""End-to-end: backgammon played through clicks in headless Chromium against real servers."""

from __future__ import annotations

from typing import Any

import pytest
from dicehall_webtools import open_game, play_backgammon_turn, snapshot, wait_my_turn_or_end

pytestmark = pytest.mark.browser


def test_complete_game_against_random_bot(server: Any, context: Any, new_game: Any) -> None:
    game = new_game("backgammon", "random", name="clicker", seed="e2e")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server.url, game)
    seq = -1
    turns = 0
    while True:
        snap = wait_my_turn_or_end(page, seq)
        if snap["status"] == "finished":
            break
        seq = snap["seq"]
        play_backgammon_turn(page, pick=turns)
        turns += 1
        assert turns < 400
    page.wait_for_selector('[data-testid="summary"]')
    assert "wins" in page.inner_text('[data-testid="summary"]')
    assert page.is_visible('[data-button="rematch"]')
    record = server.api(f"/api/games/{game['id']}/record")
    assert record["meta"]["fairness"]["server_seed"]
    assert snapshot(page)["returns"] is not None
    assert not errors
