"""The pages work under their own Content-Security-Policy (the other browser tests bypass it,
because Playwright's wait_for_function evaluates strings)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_lobby_and_game_page_run_under_the_csp(
    browser: Any, server: Any, new_game: Callable[..., dict[str, Any]]
) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    try:
        response = page.goto(server.url + "/")
        assert response is not None
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        game = new_game("backgammon", "random")
        page.evaluate(
            "([id, tokens]) => localStorage.setItem('dicehall.tokens.v1', "
            "JSON.stringify({[id]: tokens}))",
            [game["id"], game["tokens"]],
        )
        page.goto(f"{server.url}/g/{game['id']}")
        deadline = time.monotonic() + 30
        snap = None
        while time.monotonic() < deadline:  # poll from here: evaluate is not subject to CSP
            snap = page.evaluate("() => window.dicehall && window.dicehall.snapshot")
            if snap and snap["status"] == "playing":
                break
            time.sleep(0.2)
        # the page connected, sent its seed after the commitment, and the game started
        assert snap is not None and snap["status"] == "playing", snap
        assert snap["fairness"]["player_seeds"][0] != ""
        assert page.locator("#board svg, #board .board").count() > 0
        assert violations == []
    finally:
        context.close()
