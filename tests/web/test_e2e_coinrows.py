"""Coin Rows in a real headless Chromium: a whole game played by clicks against a bot.

Uses the fixtures of tests/web/conftest.py (a real ``dicehall serve`` subprocess with a temporary
SQLite file, Debian's Chromium driven by Playwright) and the helpers of dicehall_webtools.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from dicehall_webtools import open_game, snapshot

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def open_board(
    browser: Any,
    server: Any,
    new_game: Any,
    options: dict[str, Any],
    *,
    seat: int = 0,
    width: int = 390,
) -> tuple[Any, Any, list[str]]:
    """Create a game against ``random`` and open it holding ``seat`` in a page ``width`` wide;
    returns the browser context, the page and the list collecting page errors."""
    game = new_game("coinrows", "random", options=options, seat=seat)
    context = browser.new_context(viewport={"width": width, "height": 800}, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server.url, game)
    page.wait_for_selector("svg.coinrows-board")
    return context, page, errors


def wait_change(page: Any, seq: int) -> None:
    page.wait_for_function(
        f"(window.dicehall?.snapshot?.seq ?? {seq}) !== {seq}"
        " || window.dicehall?.snapshot?.status === 'finished'"
    )


def wait_my_turn(page: Any, seat: int = 0, timeout: float = 20_000) -> dict[str, Any]:
    """Wait until ``seat`` is to move (with its legal moves) or the game is over."""
    page.wait_for_function(
        "(seat) => { const s = window.dicehall?.snapshot;"
        " return !!s && (s.status === 'finished' || (s.to_move === seat && s.moves !== null)); }",
        arg=seat,
        timeout=timeout,
    )
    return snapshot(page)


def play_phase_b(page: Any, rng: random.Random, seq: int) -> list[str]:
    """Click coins and squares until the play is sent; returns the squares clicked."""
    clicked: list[str] = []
    for _ in range(10):
        targets = page.locator("[data-square].legal")
        if targets.count():
            target = targets.nth(rng.randrange(targets.count()))
            clicked.append(target.get_attribute("data-square"))
            target.click()
        else:
            coins = page.locator("[data-coin].legal")
            assert coins.count(), "Phase B without a movable coin"
            coin = coins.nth(rng.randrange(coins.count()))
            clicked.append(coin.get_attribute("data-coin"))
            coin.click()
            assert page.locator("[data-square].legal").count(), "a selected coin shows targets"
        if snapshot(page)["seq"] != seq or page.locator("[data-coin].legal").count() == 0:
            break
    wait_change(page, seq)
    return clicked


def walk_replay(page: Any, errors: list[str]) -> int:
    """Open the replay viewer of the finished game and draw every frame with this board."""
    page.locator("[data-button='replay']").first.click()
    page.wait_for_function("window.dicehall && window.dicehall?.frames.length > 1")
    page.wait_for_selector("svg.coinrows-board")
    frames = int(page.evaluate("window.dicehall.frames.length"))
    for i in range(frames):
        page.evaluate("(i) => window.dicehall.show(i)", i)
        assert page.locator("svg.coinrows-board").count() == 1, f"frame {i}"
    assert not errors, errors
    return frames


def play_whole_game(page: Any, rng: random.Random) -> tuple[int, int]:
    """Capture when possible (7 times in 10), else roll; move by clicking; until the result
    panel shows, checking it. Returns (captures, plays that moved two coins)."""
    two_coin_plays = captures = 0
    for _ in range(400):
        snap = wait_my_turn(page)
        if snap["status"] == "finished":
            break
        seq = snap["seq"]
        view = snap["view"]
        assert page.locator("svg.coinrows-board").get_attribute("data-phase") == view["phase"]
        if view["phase"] == "A":
            capture = page.locator("button[data-button='capture']")
            if capture.count() and rng.random() < 0.7:
                captures += 1
                capture.first.click()
            else:
                page.locator("[data-button='roll']").click()
            wait_change(page, seq)
        else:
            assert view["phase"] == "B" and view["dice"]
            clicked = play_phase_b(page, rng, seq)
            two_coin_plays += len(clicked) > 2
    page.wait_for_selector("#result:not([hidden]) [data-testid='summary']")
    snap = snapshot(page)
    assert snap["status"] == "finished"
    summary = page.locator("[data-testid='summary']").inner_text()
    # the server's line with the players' names instead of seat numbers
    named = snap["summary"]
    for p in snap["players"]:
        named = named.replace(f"Seat {p['seat'] + 1} ", f"{p['name']} ")
        named = named.replace(f"seat {p['seat'] + 1} ", f"{p['name']} ")
    assert "totals" in summary and "eat " not in summary
    assert summary.split(";")[1] in named.replace(" (X)", "").replace(" (O)", "")
    assert snap["view"]["phase"] == "over"
    return captures, two_coin_plays


def test_whole_game_by_clicks(server: Any, browser: Any, new_game: Any) -> None:
    """Whole games by clicks until one has used the capture button or moved two coins.

    The server's dice come from its secret seed, so a game can end before either was
    possible (seen once in CI): up to three games are played, and the clicking paths
    must have been exercised by then."""
    options = {"purse": 6, "turn_limit": 30, "leaving": False}
    rng = random.Random(3)
    for _ in range(3):
        context, page, errors = open_board(browser, server, new_game, options)
        try:
            captures, two_coin_plays = play_whole_game(page, rng)
            assert not errors, errors
            if captures + two_coin_plays == 0:
                continue
            # the board fits a phone's width without scrolling sideways
            box = page.locator("svg.coinrows-board").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
            seq = snapshot(page)["seq"]
            assert walk_replay(page, errors) == seq + 1
            return
        finally:
            context.close()
    pytest.fail("three whole games without a capture or a two-coin play")


def test_leave_needs_confirmation(server: Any, browser: Any, new_game: Any) -> None:
    """Leave asks first: undo keeps playing, confirm ends the game with the result panel."""
    context, page, errors = open_board(browser, server, new_game, {})
    try:
        page.locator("[data-button='leave']").click()
        page.locator("[data-button='undo']").click()
        assert page.locator("[data-button='roll']").count() == 1
        page.locator("[data-button='leave']").click()
        page.locator("[data-button='confirm']").click()
        page.wait_for_selector("#result:not([hidden]) [data-testid='summary']")
        snap = snapshot(page)
        assert snap["view"]["ending"] == "left"
        assert "left" in page.locator("[data-testid='summary']").inner_text()
        assert not errors, errors
    finally:
        context.close()


def test_seat_two_sees_the_board_turned(server: Any, browser: Any, new_game: Any) -> None:
    """Seat 2 has his home row (7) at the bottom and column g on the left."""
    context, page, _ = open_board(browser, server, new_game, {"leaving": False}, seat=1, width=1000)
    try:
        page.wait_for_function("window.dicehall?.snapshot?.to_move === 1")
        assert page.locator("svg.coinrows-board").get_attribute("data-viewer") == "1"
        a7 = page.locator("[data-coin='a7']").bounding_box()
        b7 = page.locator("[data-coin='b7']").bounding_box()
        panel = page.locator("[data-panel='1']").bounding_box()
        assert a7 and b7 and panel
        assert b7["x"] < a7["x"]  # columns run g..a from his left
        assert panel["y"] > a7["y"]  # his own purse at the bottom
    finally:
        context.close()


def test_two_coin_move_with_undo(server: Any, browser: Any, new_game: Any) -> None:
    """The first coin of a two-coin play moves tentatively; undo takes it back; the second
    coin completes the play, which is sent as one action."""
    context, page, errors = open_board(browser, server, new_game, {"leaving": False})
    try:
        for _ in range(60):
            snap = wait_my_turn(page)
            assert snap["status"] != "finished"
            seq = snap["seq"]
            if snap["view"]["phase"] == "A":
                page.locator("[data-button='roll']").click()
                wait_change(page, seq)
                continue
            two = [m for m in snap["moves"]["moves"] if len(m["steps"]) == 2]
            if not two:
                play_phase_b(page, random.Random(1), seq)
                continue
            play = two[0]
            (c1, f1, t1), (c2, f2, t2) = play["steps"]
            name = "abcdefg"
            first, second = f"{name[c1]}{f1 + 1}", f"{name[c2]}{f2 + 1}"
            page.locator(f"[data-coin='{first}']").click()
            page.locator(f"[data-square='{name[c1]}{t1 + 1}']").click()
            assert page.locator(f"[data-coin='{name[c1]}{t1 + 1}'].tentative").count() == 1
            page.locator("[data-button='undo']").click()
            assert page.locator(f"[data-coin='{first}']").count() == 1
            assert page.locator("[data-button='undo']").count() == 0
            page.locator(f"[data-coin='{first}']").click()
            page.locator(f"[data-square='{name[c1]}{t1 + 1}']").click()
            page.locator(f"[data-coin='{second}']").click()
            page.locator(f"[data-square='{name[c2]}{t2 + 1}']").click()
            wait_change(page, seq)
            after = snapshot(page)
            mine = [e for e in after["log"] if e["seq"] == seq + 1]
            assert mine and mine[0]["text"] == play["text"]
            assert not errors, errors
            return
        pytest.fail("no two-coin play came up")
    finally:
        context.close()


@pytest.mark.skipif(not os.environ.get("DICEHALL_SCREENSHOTS"), reason="DICEHALL_SCREENSHOTS=1")
def test_screenshot(server: Any, browser: Any, new_game: Any) -> None:
    """Refresh docs/screenshots/coinrows.png: a game in progress, a coin selected to move."""
    context, page, _ = open_board(browser, server, new_game, {"leaving": False}, width=1100)
    rng = random.Random(11)
    try:
        for _ in range(40):
            snap = wait_my_turn(page)
            if snap["status"] == "finished":
                break
            view = snap["view"]
            last = (snap["last"] or {}).get("detail") or {}
            if view["phase"] == "A":
                if (
                    view["turn_number"] >= 5
                    and last.get("kind") == "move"
                    and min(view["on_board"]) >= 2
                ):
                    break  # the last move highlighted, with the roll and capture buttons
                seq = snap["seq"]
                page.locator("[data-button='roll']").click()
                wait_change(page, seq)
            else:
                play_phase_b(page, rng, snap["seq"])
        page.wait_for_timeout(600)
        out = ROOT / "docs" / "screenshots" / "coinrows.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out), full_page=True)
    finally:
        context.close()
