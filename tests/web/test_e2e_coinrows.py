"""Coin Rows in a real headless Chromium: a whole game played by clicks against a bot.

Runs a real ``dicehall serve`` on a free port with a temporary SQLite file and drives Debian's
Chromium through Playwright (never downloads a browser).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cr_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``dicehall serve`` subprocess; yields its base URL."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    pytest.importorskip("playwright.sync_api")
    db = tmp_path_factory.mktemp("cr-e2e") / "dicehall.db"
    port = _free_port()
    exe = shutil.which("dicehall")
    cmd = [exe] if exe else [sys.executable, "-m", "dicehall.cli"]
    proc = subprocess.Popen(
        [
            *cmd,
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{db}",
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "/api/protocol", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    pytest.fail(f"dicehall serve did not start: {err[-2000:]}")
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def cr_browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def open_game(
    browser: Any, url: str, options: dict[str, Any], *, seat: int = 0, width: int = 390
) -> tuple[Any, Any, dict[str, Any]]:
    """Create a game against ``random`` and open it in a phone-sized page holding ``seat``."""
    res = httpx.post(
        url + "/api/games",
        json={"game": "coinrows", "options": options, "opponent": "random", "seat": seat},
    )
    res.raise_for_status()
    game = res.json()
    context = browser.new_context(viewport={"width": width, "height": 800})
    tokens = json.dumps({game["id"]: game["tokens"]})
    context.add_init_script(f"localStorage.setItem('dicehall.tokens.v1', {json.dumps(tokens)})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + game["url"])
    page.wait_for_function("window.dicehall && window.dicehall.snapshot")
    page.wait_for_selector("svg.coinrows-board")
    game["errors"] = errors
    return context, page, game


def snapshot(page: Any) -> dict[str, Any]:
    return page.evaluate("window.dicehall.snapshot")  # type: ignore[no-any-return]


def wait_change(page: Any, seq: int) -> None:
    page.wait_for_function(
        f"window.dicehall.snapshot.seq !== {seq} || window.dicehall.snapshot.status === 'finished'"
    )


def wait_my_turn(page: Any, seat: int = 0, timeout: float = 20_000) -> dict[str, Any]:
    """Wait until ``seat`` is to move (with its legal moves) or the game is over."""
    page.wait_for_function(
        "(seat) => { const s = window.dicehall.snapshot;"
        " return s.status === 'finished' || (s.to_move === seat && s.moves !== null); }",
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


def test_whole_game_by_clicks(cr_server: str, cr_browser: Any) -> None:
    """Capture when possible, else roll; move by clicking; until the result panel shows."""
    context, page, game = open_game(
        cr_browser, cr_server, {"purse": 6, "turn_limit": 40, "leaving": False}
    )
    rng = random.Random(3)
    two_coin_plays = captures = 0
    try:
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
        assert summary == snap["summary"]
        assert "totals" in summary
        assert snap["view"]["phase"] == "over"
        assert captures + two_coin_plays > 0
        # the board fits a phone's width without scrolling sideways
        box = page.locator("svg.coinrows-board").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
        assert not game["errors"], game["errors"]
    finally:
        context.close()


def test_leave_needs_confirmation(cr_server: str, cr_browser: Any) -> None:
    """Leave asks first: undo keeps playing, confirm ends the game with the result panel."""
    context, page, game = open_game(cr_browser, cr_server, {})
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
        assert not game["errors"], game["errors"]
    finally:
        context.close()


def test_seat_two_sees_the_board_turned(cr_server: str, cr_browser: Any) -> None:
    """Seat 2 has his home row (7) at the bottom and column g on the left."""
    context, page, _ = open_game(cr_browser, cr_server, {"leaving": False}, seat=1, width=1000)
    try:
        page.wait_for_function("window.dicehall.snapshot.to_move === 1")
        assert page.locator("svg.coinrows-board").get_attribute("data-viewer") == "1"
        a7 = page.locator("[data-coin='a7']").bounding_box()
        b7 = page.locator("[data-coin='b7']").bounding_box()
        panel = page.locator("[data-panel='1']").bounding_box()
        assert a7 and b7 and panel
        assert b7["x"] < a7["x"]  # columns run g..a from his left
        assert panel["y"] > a7["y"]  # his own purse at the bottom
    finally:
        context.close()


@pytest.mark.skipif(not os.environ.get("DICEHALL_SCREENSHOTS"), reason="DICEHALL_SCREENSHOTS=1")
def test_screenshot(cr_server: str, cr_browser: Any) -> None:
    """Refresh docs/screenshots/coinrows.png: a game in progress on a phone-sized page."""
    context, page, _ = open_game(cr_browser, cr_server, {"leaving": False}, width=430)
    rng = random.Random(11)
    try:
        for _ in range(12):
            snap = wait_my_turn(page)
            if snap["status"] == "finished":
                break
            if snap["view"]["phase"] == "A":
                if snap["view"]["captures"] and snap["view"]["turn_number"] > 6:
                    break
                seq = snap["seq"]
                page.locator("[data-button='roll']").click()
                wait_change(page, seq)
            else:
                play_phase_b(page, rng, snap["seq"])
        page.wait_for_timeout(600)
        out = ROOT / "docs" / "screenshots" / "coinrows.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        page.locator("body").screenshot(path=str(out))
    finally:
        context.close()
