"""Refresh the README's screenshots of the lobby and the backgammon board, in English and in
Portuguese, of a replay's analysis and of the board on a phone (DICEHALL_SCREENSHOTS=1 pytest
tests/web -k screenshot; the dark-mode one comes from test_dark_mode_browser.py, Coin Rows and
White Die from their own e2e files)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from dicehall_webtools import (
    finish_over_http,
    open_game,
    play_backgammon_turn,
    wait_my_turn_or_end,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.environ.get("DICEHALL_SCREENSHOTS"), reason="DICEHALL_SCREENSHOTS=1"),
]

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _context(browser: Any, locale: str) -> Any:
    ctx = browser.new_context(
        viewport={"width": 1100, "height": 760},
        bypass_csp=True,
        locale=locale,
        color_scheme="light",
    )
    ctx.set_default_timeout(60_000)
    return ctx


def test_screenshot_lobby(browser: Any, server: Any, new_game: Any) -> None:
    new_game("backgammon", "friend", name="ana")  # an open game to join
    ctx = _context(browser, "en-GB")
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#options [data-option]")
        page.select_option("#game", "backgammon")
        page.check("#opt-cube")  # the cube and match fields appear
        page.fill("#opt-match_length", "7")
        page.dispatch_event("#opt-match_length", "change")
        page.screenshot(path=str(OUT / "lobby.png"), full_page=True)
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("locale", "name"), [("en-GB", "backgammon.png"), ("pt-PT", "backgammon-pt.png")]
)
def test_screenshot_backgammon(
    browser: Any, server: Any, new_game: Any, locale: str, name: str
) -> None:
    ctx = _context(browser, locale)
    try:
        page = ctx.new_page()
        game = new_game("backgammon", "random", name="ana")
        open_game(page, server.url, game)
        seq = -1
        for turn in range(6):  # a few turns in, so the log and the board have something
            snap = wait_my_turn_or_end(page, seq, timeout=60_000)
            seq = snap["seq"]
            play_backgammon_turn(page, pick=turn)
        snap = wait_my_turn_or_end(page, seq, timeout=60_000)
        edges = snap["moves"]["nodes"][0]["edges"]
        if edges:  # a checker chosen: its destinations lit, the choices bar below
            page.click(f'#board [data-point="{edges[0][0]}"]')
        page.click('[data-button="hint"]')
        page.wait_for_selector('[data-testid="hint-table"]')
        page.screenshot(path=str(OUT / name), full_page=True)
    finally:
        ctx.close()


def test_screenshot_replay_analysis(browser: Any, server: Any) -> None:
    """The replay of a finished backgammon game with its expert analysis (as ``dicehall
    analyze``): errors and blunders marked, the equity graph."""
    game = finish_over_http(server, "backgammon", seed=11)
    ctx = _context(browser, "en-GB")
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/g/{game['id']}/replay")
        page.wait_for_function("document.body.dataset.analysis === 'final'", timeout=900_000)
        assert page.evaluate("document.body.dataset.analysisLevel") == "expert"
        marked = page.locator('[data-testid="analysis-decisions"] tr[data-n]').first
        marked.locator("button").click()  # the position of the first costly decision
        page.set_viewport_size({"width": 1100, "height": 1250})  # the board, totals and graph
        page.screenshot(path=str(OUT / "replay-analysis.png"))
    finally:
        ctx.close()


def test_screenshot_phone(browser: Any, server: Any, new_game: Any) -> None:
    """The backgammon board on a 390 px phone: point numbers in the frame's bands, the 44 px
    choices bar below."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        bypass_csp=True,
        is_mobile=True,
        has_touch=True,
        color_scheme="light",
    )
    ctx.set_default_timeout(60_000)
    try:
        page = ctx.new_page()
        game = new_game("backgammon", "random", name="ana")
        open_game(page, server.url, game)
        snap = wait_my_turn_or_end(page, -1, timeout=60_000)
        edges = snap["moves"]["nodes"][0]["edges"] if snap["moves"] else []
        if edges:
            page.click(f'#board [data-point="{edges[0][0]}"]')
        page.screenshot(path=str(OUT / "backgammon-phone.png"))
    finally:
        ctx.close()
