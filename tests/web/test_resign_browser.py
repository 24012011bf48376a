"""Resign in a real headless Chromium: the button asks once more, then the game ends at once
with the result line naming the player who resigned, for the player and a spectator."""

from __future__ import annotations

from typing import Any

import pytest
from dicehall_webtools import open_game, snapshot

pytestmark = pytest.mark.browser


def test_resign_button_ends_the_game(browser: Any, server: Any, new_game: Any) -> None:
    game = new_game("backgammon", "random", seat=0, name="ann")
    context = browser.new_context(bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server.url, game)
    page.wait_for_function("window.dicehall.snapshot.status === 'playing'")
    other = browser.new_context(bypass_csp=True)  # its own storage: no tokens
    other.set_default_timeout(15_000)
    watcher = other.new_page()
    watcher.goto(f"{server.url}/g/{game['id']}")
    watcher.wait_for_function("window.dicehall && window.dicehall.snapshot")
    assert watcher.locator("[data-button='resign']").count() == 0  # spectators cannot
    button = page.locator("[data-button='resign']")
    button.click()
    assert button.inner_text() == "Really resign? You lose the game. Click again"
    assert snapshot(page)["status"] == "playing"  # one click does not resign
    button.click()
    page.wait_for_function("window.dicehall.snapshot.status === 'finished'")
    assert page.locator("[data-testid='summary']").inner_text() == "ann resigned"
    assert snapshot(page)["returns"] == [-1.0, 1.0]
    watcher.wait_for_function("window.dicehall.snapshot.status === 'finished'")
    assert watcher.locator("[data-testid='summary']").inner_text() == "ann resigned"
    assert page.locator("[data-button='resign']").count() == 0
    assert errors == []
    context.close()
    other.close()
