"""End-to-end: backgammon played through clicks in headless Chromium against real servers."""

from __future__ import annotations

from typing import Any

import pytest
from dicehall_webtools import (
    open_game,
    play_backgammon_turn,
    snapshot,
    take_seat,
    wait_my_turn_or_end,
    wait_next_turn,
)

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
    # the replay viewer steps through every action
    page.click('[data-button="replay"]')
    page.wait_for_function("window.dicehall?.frames && window.dicehall?.frames.length > 1")
    frames = page.evaluate("window.dicehall.frames.length")
    assert frames == len(record["actions"]) + 1
    page.click('[data-button="next"]')
    page.click('[data-button="next"]')
    assert page.evaluate("window.dicehall.index") == 2
    page.click('[data-button="last"]')
    assert page.evaluate("window.dicehall.index") == frames - 1
    page.wait_for_selector("svg.bg-board")
    # the fairness page recomputes every roll in the browser
    page.goto(f"{server.url}/g/{game['id']}/fairness")
    page.wait_for_function("document.body.dataset.verdict")
    assert page.evaluate("document.body.dataset.verdict") == "ok"
    # rematch: a new game with the same settings, this browser in the same seat
    page.goto(f"{server.url}/g/{game['id']}")
    page.click('[data-button="rematch"]')
    page.wait_for_url(lambda url: game["id"] not in url)
    # the page sends its player seed once the new game's commitment is shown; the game
    # starts then, so wait for that rather than read the first snapshot
    page.wait_for_function(
        "window.dicehall?.snapshot?.rematch_of && window.dicehall.snapshot.status !== 'waiting'"
    )
    again = snapshot(page)
    assert again["id"] != game["id"] and again["rematch_of"] == game["id"]
    assert again["you"] == [0] and again["status"] == "playing"
    assert not errors


def test_online_game_between_two_browsers_with_a_spectator(server: Any, browser: Any) -> None:
    contexts = [
        browser.new_context(viewport={"width": w, "height": 800}, bypass_csp=True)
        for w in (1000, 390, 800)
    ]
    try:
        ann, bob, watcher = (c.new_page() for c in contexts)
        errors: list[str] = []
        for p in (ann, bob, watcher):
            p.set_default_timeout(30_000)
            p.on("pageerror", lambda e: errors.append(str(e)))
        # Ann creates the game in the lobby, against a friend
        ann.goto(server.url + "/")
        ann.wait_for_selector("#opponent option", state="attached")
        ann.select_option("#game", "backgammon")
        ann.select_option("#opponent", "friend")
        ann.fill("#name", "Ann")
        ann.click('[data-button="create"]')
        ann.wait_for_function("window.dicehall && window.dicehall.snapshot")
        assert snapshot(ann)["status"] == "waiting"
        link = ann.url
        # Bob finds it in the lobby's open games and takes the seat
        bob.goto(server.url + "/")
        bob.wait_for_selector(f'#open [data-game="{link.rsplit("/", 1)[1]}"] a')
        take_seat(bob, server.url, link.rsplit("/", 1)[1])
        bob.wait_for_function("window.dicehall?.snapshot?.you.includes(1)")
        watcher.goto(link)
        watcher.wait_for_function("window.dicehall && window.dicehall.snapshot")
        ann.wait_for_function("window.dicehall?.snapshot?.status === 'playing'")
        assert [p["name"] for p in snapshot(ann)["players"]] == ["Ann", "Bob"]
        pages = {0: ann, 1: bob}
        played = -1  # the seq of the last position a move was made from
        for turn in range(8):
            mover = pages[wait_next_turn(ann, played)["to_move"]]
            snap = wait_my_turn_or_end(mover, played)
            played = snap["seq"]
            text = play_backgammon_turn(mover, pick=turn)
            mover.wait_for_function(f"window.dicehall?.snapshot?.seq > {snap['seq']}")
            watcher.wait_for_function(f"window.dicehall?.snapshot?.seq > {snap['seq']}")
            seen = snapshot(watcher)
            assert seen["last"]["text"] == text and seen["legal"] is None
            # the last move is highlighted once its animation has been drawn (a pass, when
            # the dice allow no move, moves nothing)
            if text != "pass":
                watcher.wait_for_selector("#board .last-to", state="attached")
            assert watcher.locator("#log li.last").inner_text().endswith(text)
        # the phone-sized page needs no horizontal scrolling
        assert bob.evaluate("document.documentElement.scrollWidth") <= 390
        # the spectator can not play: no click targets, no controls
        assert watcher.locator("#board [data-point]").count() == 0
        final = snapshot(watcher)
        for p in (ann, bob):
            p.wait_for_function(f"window.dicehall?.snapshot?.seq === {final['seq']}")
        assert not errors
    finally:
        for c in contexts:
            c.close()


def test_reload_in_the_middle_of_a_game(server: Any, context: Any, new_game: Any) -> None:
    game = new_game("backgammon", "random")
    page = context.new_page()
    open_game(page, server.url, game)
    seq = -1
    for turn in range(2):
        snap = wait_my_turn_or_end(page, seq)
        seq = snap["seq"]
        play_backgammon_turn(page, pick=turn)
    snap = wait_my_turn_or_end(page, seq)
    while not snap["moves"]["nodes"][0]["edges"]:  # the dice allow no move: confirm the pass
        play_backgammon_turn(page)
        snap = wait_my_turn_or_end(page, snap["seq"])
    # half a turn clicked, then reload: the board comes back as the server has it
    first = snap["moves"]["nodes"][0]["edges"][0]
    page.click(f'#board [data-point="{first[0]}"]')
    page.reload()
    page.wait_for_function("window.dicehall && window.dicehall.snapshot")
    again = snapshot(page)
    assert again["seq"] == snap["seq"] and again["view"] == snap["view"]
    assert again["you"] == [0] and again["legal"] == snap["legal"]
    play_backgammon_turn(page)
    page.wait_for_function(f"window.dicehall?.snapshot?.seq > {snap['seq']}")


def test_server_killed_and_restarted_in_the_middle_of_a_game(own_server: Any, context: Any) -> None:
    game = own_server.api("/api/games", {"game": "backgammon", "opponent": "random"})
    page = context.new_page()
    open_game(page, own_server.url, game)
    seq = -1
    for turn in range(2):
        snap = wait_my_turn_or_end(page, seq)
        seq = snap["seq"]
        play_backgammon_turn(page, pick=turn)
    snap = wait_my_turn_or_end(page, seq)
    own_server.kill()  # SIGKILL: no shutdown code runs
    page.wait_for_function("!window.dicehall?.connected")
    assert "offline" in page.inner_text("#conn")
    own_server.start()  # same port, same database
    page.wait_for_function("window.dicehall?.connected", timeout=20_000)
    page.wait_for_function(f"window.dicehall?.snapshot?.seq === {snap['seq']}")
    again = snapshot(page)
    assert again["view"] == snap["view"] and again["log"] == snap["log"]
    play_backgammon_turn(page)
    page.wait_for_function(f"window.dicehall?.snapshot?.seq > {snap['seq']}")


def test_two_people_on_one_device(server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#opponent option", state="attached")
    page.select_option("#game", "backgammon")
    page.select_option("#opponent", "local")
    page.click('[data-button="create"]')
    page.wait_for_function("window.dicehall && window.dicehall.snapshot")
    assert snapshot(page)["you"] == [0, 1]
    seq = -1
    movers = []
    for turn in range(4):
        snap = wait_my_turn_or_end(page, seq)
        seq = snap["seq"]
        # the board turns so that the player to move sits at the bottom
        bottom = page.get_attribute("#board svg", "data-bottom-seat")
        assert bottom == str(snap["to_move"])
        movers.append(snap["to_move"])
        play_backgammon_turn(page, pick=turn)
    assert set(movers) == {0, 1}
