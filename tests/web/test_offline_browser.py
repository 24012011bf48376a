"""Connection state in the browser: while the server is down a banner that cannot be missed,
nothing can be played, and once the game is back the error is gone and play goes on."""

from __future__ import annotations

from typing import Any

import pytest
from dicehall_webtools import open_game, play_backgammon_turn, snapshot, wait_my_turn_or_end

pytestmark = pytest.mark.browser


def test_offline_banner_blocks_moves_and_clears_after_reconnect(
    own_server: Any, context: Any
) -> None:
    game = own_server.api("/api/games", {"game": "backgammon", "opponent": "random"})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, own_server.url, game)
    snap = wait_my_turn_or_end(page, -1, timeout=60_000)
    while not snap["moves"]["nodes"][0]["edges"]:  # a roll with no move: pass it
        play_backgammon_turn(page)
        snap = wait_my_turn_or_end(page, snap["seq"], timeout=60_000)
    assert page.is_hidden("#offline")
    assert page.locator("#board [data-point][tabindex]").count() > 0  # choices to make

    own_server.kill()
    page.wait_for_function("!window.dicehall.connected")
    # the banner: visible, at the top, saying why nothing can be played
    page.wait_for_selector("#offline", state="visible")
    banner = page.inner_text("#offline")
    assert "offline" in banner and "Nothing can be played" in banner
    assert page.evaluate("document.getElementById('offline').getBoundingClientRect().top") < 100
    assert "Offline" in page.inner_text("#status") and "Your turn" not in page.inner_text("#status")
    # the board offers nothing: no lit checker, no confirm
    assert page.locator("#board [data-point][tabindex]").count() == 0
    assert page.locator('#board [data-button="confirm"]').count() == 0
    # and an action sent anyway (a script, a stale button) is refused at once, saying why
    refused = page.evaluate(
        "(text) => window.dicehall.act(text).then(() => null, (e) => e.code)",
        "pass",
    )
    assert refused == "disconnected"
    assert "offline" in page.inner_text("#message")

    own_server.start()  # same port, same database
    page.wait_for_function("window.dicehall.connected", timeout=30_000)
    page.wait_for_selector("#offline", state="hidden")
    page.wait_for_function("document.getElementById('message').textContent === ''")
    page.wait_for_function(f"window.dicehall.snapshot.seq === {snap['seq']}")
    assert page.locator("#board [data-point][tabindex]").count() > 0
    assert "Your turn" in page.inner_text("#status")
    played = play_backgammon_turn(page)
    page.wait_for_function(f"window.dicehall.snapshot.seq > {snap['seq']}", timeout=30_000)
    assert any(e["text"] == played for e in snapshot(page)["log"])
    assert page.inner_text("#message") == ""  # no stale error after the move went through
    assert errors == []
