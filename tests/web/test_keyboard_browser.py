"""The boards without a mouse: a whole backgammon game played from the keyboard only, and the
position, dice and legal choices of every board readable as text by screen readers."""

from __future__ import annotations

import re
from typing import Any

import pytest
from dicehall_webtools import (
    open_game,
    play_backgammon_turn_by_keyboard,
    snapshot,
    wait_my_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_whole_backgammon_game_from_the_keyboard(server: Any, context: Any, new_game: Any) -> None:
    game = new_game("backgammon", "random", name="keys")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server.url, game)
    seq, turns = -1, 0
    while True:
        snap = wait_my_turn_or_end(page, seq, timeout=60_000)
        if snap["status"] == "finished":
            break
        seq = snap["seq"]
        # the screen-reader text names the dice and what may be chosen now
        said = page.inner_text('[data-testid="position-text"]')
        dice = snap["view"]["dice"]
        assert f"Dice: {dice[0]} and {dice[1]}, rolled by keys." in said
        assert "Checkers that can move" in said or "No legal move" in said
        played = play_backgammon_turn_by_keyboard(page, pick=turns)
        page.wait_for_function(
            "(seq) => window.dicehall.snapshot.seq > seq", arg=seq, timeout=60_000
        )
        log = snapshot(page)["log"]
        assert any(e["actor"] == snap["to_move"] and e["text"] == played for e in log)
        turns += 1
        assert turns < 400
    page.wait_for_selector('[data-testid="summary"]')
    summary = page.inner_text('[data-testid="summary"]')
    assert "wins" in summary and ("keys" in summary or "random" in summary)
    assert "Seat" not in summary  # names, not seat numbers
    assert errors == []


def test_position_text_lists_every_checker(server: Any, context: Any, new_game: Any) -> None:
    game = new_game("backgammon", "random", name="reader")
    page = context.new_page()
    open_game(page, server.url, game)
    # the reader's first turn (the bot may have won the opening roll and moved first)
    wait_my_turn_or_end(page, -1)
    said = page.inner_text('[data-testid="position-text"]')
    # the opening position from the reader's side ...
    assert "2 checkers on point 24, 5 checkers on point 13, 3 checkers on point 8, " in said
    assert "5 checkers on point 6; none on the bar; 167 pips." in said
    # ... and every checker of both sides on a point (one opening move hits nothing)
    counts = re.findall(r"(\d+) checkers? on point (\d+)", said)
    assert sum(int(n) for n, _ in counts) == 30, said
    snap = snapshot(page)
    bot = 1 - snap["you"][0]
    if all(e["actor"] != bot for e in snap["log"]):  # the bot has not moved: its opening too
        assert "5 checkers on point 19, 3 checkers on point 17, 5 checkers on point 12, " in said
    board = page.locator("svg.bg-board")
    assert board.get_attribute("aria-describedby") == "bg-position"


def test_coinrows_and_whitedie_speak_their_position(
    server: Any, context: Any, new_game: Any
) -> None:
    page = context.new_page()
    game = new_game("coinrows", "bot", name="ann", options={"leaving": False})
    open_game(page, server.url, game)
    page.wait_for_function("window.dicehall.snapshot.status === 'playing'")
    said = page.inner_text('[data-testid="position-text"]')
    assert "ann (X, home row 1): coins on " in said and "purse" in said
    assert page.locator("svg.coinrows-board").get_attribute("aria-describedby") == "cr-position"
    # the first choice of Coin Rows is a button reachable with Tab
    page.wait_for_selector('[data-button="roll"]')
    for _ in range(60):
        if page.evaluate("document.activeElement?.dataset?.button") == "roll":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.dataset?.button") == "roll"
    page.keyboard.press("Enter")
    page.wait_for_function("window.dicehall.snapshot.log.length > 1")

    game = new_game("whitedie", "bot", name="bea")
    open_game(page, server.url, game)
    page.wait_for_function(
        "window.dicehall.snapshot.status === 'playing' && window.dicehall.snapshot.view.scores"
    )
    said = page.inner_text('[data-testid="position-text"]')
    assert "Scores (target 21): bea 0, " in said


def test_white_die_reroll_from_the_keyboard(server: Any, context: Any, new_game: Any) -> None:
    """Tab to a die, Enter picks it (and says so), Tab to Reroll, Enter rerolls it."""
    game = new_game("whitedie", "bot", name="kim")
    page = context.new_page()
    open_game(page, server.url, game)
    seq = -1
    for _ in range(60):
        snap = wait_my_turn_or_end(page, seq, timeout=60_000)
        assert snap["status"] != "finished", "no reroll came up"
        seq = snap["seq"]
        if snap["moves"].get("kind") == "reroll" and snap["moves"]["sizes"] != [2]:
            break
        page.evaluate("(t) => window.dicehall.act(t)", snap["legal"][0])
    for _ in range(80):
        if page.evaluate("document.activeElement?.dataset?.pick") == "0":
            break
        page.keyboard.press("Tab")
    die = page.locator('[data-pick="0"]')
    assert page.evaluate("document.activeElement?.dataset?.pick") == "0"
    page.keyboard.press("Enter")
    assert "picked" in (die.get_attribute("aria-label") or "")
    assert "Picked to reroll" in page.inner_text('[data-testid="position-text"]')
    for _ in range(20):
        if page.evaluate("document.activeElement?.dataset?.button") == "reroll":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.dataset?.button") == "reroll"
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.dicehall.snapshot.seq > {seq}", timeout=60_000)
    rerolled = [e["text"] for e in snapshot(page)["log"][seq:] if e["actor"] == 0]
    assert rerolled and rerolled[0].startswith("reroll")
