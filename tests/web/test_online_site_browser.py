"""The online site in headless Chromium: accounts, a seek posted in one browser and accepted in
another, a rated timed backgammon game played to the end with both profiles showing the new
ratings, a player who closes the tab losing on time (or, untimed, by abandonment) while the
other sees why, and the chat (text only, muting, ignoring)."""

from __future__ import annotations

from typing import Any

import pytest
from dicehall_webtools import open_game, snapshot, take_seat, wait_my_turn_or_end, wait_next_turn

pytestmark = pytest.mark.browser


def new_page(browser: Any, errors: list[str]) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, bypass_csp=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page


def register(page: Any, url: str, username: str) -> None:
    """Register through the account page; it returns to the lobby logged in."""
    page.goto(url + "/login?next=/")
    form = page.locator("[data-form='register']")
    form.locator("input[name='username']").fill(username)
    form.locator("input[name='password']").fill("secret " + username)
    form.locator("[data-button='register']").click()
    page.wait_for_url(url + "/")
    page.wait_for_selector(f"[data-testid='me']:has-text('{username}')")


def test_seek_accepted_rated_timed_game_to_the_end_and_profiles(server: Any, browser: Any) -> None:
    errors: list[str] = []
    ctx_a, ann = new_page(browser, errors)
    ctx_b, bob = new_page(browser, errors)
    try:
        register(ann, server.url, "ann_e2e")
        register(bob, server.url, "bob_e2e")
        # Ann posts a rated seek with a clock in her browser ...
        ann.wait_for_selector("#seek-form")
        ann.select_option("[data-testid='seek-game']", "backgammon")
        ann.select_option("[data-testid='seek-clock']", "5+12d")
        ann.check("[data-testid='seek-rated']")
        ann.click("[data-button='post-seek']")
        ann.wait_for_selector("[data-button='cancel-seek']")
        # ... Bob sees it in his lobby and accepts it
        bob.goto(server.url + "/")
        row = bob.locator("[data-testid='seek-list'] li", has_text="ann_e2e")
        row.locator("[data-button='accept-seek']").click()
        bob.wait_for_url("**/g/*")
        game_id = bob.url.rsplit("/", 1)[1]
        # Ann's lobby sees the seek taken and opens the game (her seat comes from her account)
        ann.wait_for_url(f"**/g/{game_id}")
        for page in (ann, bob):
            page.wait_for_function("window.dicehall?.snapshot?.status === 'playing'")
            page.wait_for_function("window.dicehall.snapshot.you.length === 1")
        snap = snapshot(ann)
        assert snap["rated"] and snap["clock"]["control"]["text"] == "5+12d"
        assert {p["name"] for p in snap["players"]} == {"ann_e2e", "bob_e2e"}
        assert ann.locator("[data-testid='clock-0'] .clock-time").inner_text() == "5:00"
        pages = {snapshot(p)["you"][0]: p for p in (ann, bob)}
        # play to the end, each move sent by the page's own client over its WebSocket
        played = -1  # the seq of the last position a move was made from
        for _ in range(600):
            snap = wait_next_turn(ann, played)
            if snap["status"] == "finished":
                break
            mover = pages[snap["to_move"]]
            mine = wait_my_turn_or_end(mover, played)
            if mine["status"] == "finished":
                break
            if mine["legal"] != ["pass"]:  # a forced pass the page sends by itself
                mover.evaluate("window.dicehall.act(window.dicehall.snapshot.legal[0])")
            mover.wait_for_function(f"window.dicehall.snapshot.seq > {mine['seq']}")
            played = mine["seq"]
        for page in (ann, bob):
            page.wait_for_function("window.dicehall.snapshot.status === 'finished'")
            page.wait_for_selector("[data-testid='rating-change-0']")
            page.wait_for_selector("[data-testid='rating-change-1']")
        final = snapshot(ann)
        winner = final["players"][final["returns"].index(max(final["returns"]))]["name"]
        assert ann.locator("[data-testid='summary']").inner_text().startswith(f"{winner} wins")
        change = ann.locator("[data-testid='rating-changes']").inner_text()
        assert "1500 →" in change and "+" in change
        # both profiles show the new rating and the game with its change
        for page, name in ((ann, "ann_e2e"), (bob, "bob_e2e")):
            page.goto(f"{server.url}/players/{name}")
            rating = page.locator("[data-testid='rating-backgammon']").inner_text()
            number = int(rating.rstrip("?"))
            assert (number > 1500) == (name == winner) and number != 1500
            history = page.locator(f"[data-testid='history'] tr[data-game='{game_id}']")
            assert (
                history.locator("[data-testid='change']")
                .inner_text()
                .startswith("+" if name == winner else "-")
            )
            assert history.locator("a", has_text="Replay").count() == 1
        # and the leaderboard lists them
        ann.goto(server.url + "/leaderboard")
        board = ann.locator("[data-testid='leaderboard']").inner_text()
        assert "ann_e2e" in board and "bob_e2e" in board
        assert errors == []
    finally:
        ctx_a.close()
        ctx_b.close()


def test_closing_the_tab_loses_on_time_and_the_other_sees_why(server: Any, browser: Any) -> None:
    errors: list[str] = []
    game = server.api(
        "/api/games",
        {"game": "backgammon", "opponent": "friend", "name": "Ann", "clock": {"initial": 10}},
    )
    ctx_a, ann = new_page(browser, errors)
    ctx_b, bob = new_page(browser, errors)
    try:
        open_game(ann, server.url, game)
        take_seat(bob, server.url, game["id"])
        for page in (ann, bob):
            page.wait_for_function("window.dicehall?.snapshot?.status === 'playing'")
        # (the opening roll may still be on its way when the game is marked playing)
        if wait_next_turn(ann, -1)["to_move"] == 0:  # Ann first: she plays, then it is Bob's turn
            seq = wait_my_turn_or_end(ann, -1)["seq"]
            ann.evaluate("window.dicehall.act(window.dicehall.snapshot.legal[0])")
            ann.wait_for_function(f"window.dicehall.snapshot.seq > {seq}")
        ann.wait_for_function("window.dicehall.snapshot.to_move === 1")
        bob.close()  # Bob closes the tab on his turn
        gone = ann.locator("[data-testid='opponent-gone']")
        gone.wait_for()
        assert gone.inner_text() == "Bob has left the game"
        ann.wait_for_function("window.dicehall.snapshot.status === 'finished'")
        assert ann.locator("[data-testid='summary']").inner_text() == "Bob lost on time"
        assert snapshot(ann)["returns"] == [1.0, -1.0]
        assert ann.locator("[data-testid='clock-1'] .clock-time").inner_text() == "0:00.0"
        assert errors == []
    finally:
        ctx_a.close()
        ctx_b.close()


def test_chat_is_text_only_and_can_be_muted(server: Any, browser: Any) -> None:
    errors: list[str] = []
    game = server.api("/api/games", {"game": "coinrows", "opponent": "friend", "name": "Ann"})
    ctx_a, ann = new_page(browser, errors)
    ctx_b, bob = new_page(browser, errors)
    try:
        open_game(ann, server.url, game)
        take_seat(bob, server.url, game["id"])
        for page in (ann, bob):
            page.wait_for_function("window.dicehall?.snapshot?.status === 'playing'")
            page.wait_for_selector("#chat [data-testid='chat-input']")
        attack = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
        ann.fill("#chat [data-testid='chat-input']", attack)
        ann.click("#chat [data-button='send-chat']")
        line = bob.locator("#chat .chat-message").last
        line.wait_for()
        assert line.locator(".chat-text").inner_text() == attack
        assert line.locator(".chat-author").inner_text() == "Ann"
        assert bob.locator("#chat img, #chat script").count() == 0
        assert bob.evaluate("window.pwned") is None and ann.evaluate("window.pwned") is None
        # Bob mutes the chat: Ann's next message does not show
        bob.check("#chat [data-button='mute-chat']")
        ann.fill("#chat [data-testid='chat-input']", "are you there?")
        ann.click("#chat [data-button='send-chat']")
        ann.wait_for_selector("#chat .chat-text:has-text('are you there?')")
        assert not bob.locator("#chat [data-testid='chat-list']").is_visible()
        # the mute holds after a reload, and lifting it shows the room again
        bob.reload()
        bob.wait_for_selector("#chat [data-testid='chat-input']")
        assert bob.locator("#chat [data-button='mute-chat']").is_checked()
        assert not bob.locator("#chat [data-testid='chat-list']").is_visible()
        bob.uncheck("#chat [data-button='mute-chat']")
        assert bob.locator("#chat .chat-text").last.inner_text() == "are you there?"
        # ignoring an author hides his messages (in every room) until "show everybody"
        bob.locator("#chat .chat-message[data-author='Ann'] [data-button='ignore']").last.click()
        assert bob.locator("#chat .chat-message:visible").count() == 0
        assert "Ignoring Ann (2 hidden)" in bob.inner_text("[data-testid='chat-ignored']")
        bob.click("#chat [data-button='unignore']")
        assert bob.locator("#chat .chat-message:visible").count() == 2
        # too long a message is refused with the reason
        ann.evaluate(
            "document.querySelector('#chat [data-testid=chat-input]').removeAttribute('maxlength')"
        )
        ann.fill("#chat [data-testid='chat-input']", "x" * 301)
        ann.click("#chat [data-button='send-chat']")
        ann.wait_for_selector("#chat .message.error:has-text('at most 300 characters')")
        assert errors == []
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_player_who_leaves_an_untimed_game_loses_by_abandonment(
    browser: Any, tmp_path: Any
) -> None:
    """Bob closes his tab: Ann sees it at once; after the grace period (one second on this
    server) she claims the win, and both the result line and the log say why."""
    from conftest import Server

    srv = Server(tmp_path / "grace.sqlite3", extra=("--grace", "1"))
    srv.start()
    errors: list[str] = []
    ctx_a, ann = new_page(browser, errors)
    ctx_b, bob = new_page(browser, errors)
    try:
        game = srv.api("/api/games", {"game": "whitedie", "opponent": "friend", "name": "Ann"})
        open_game(ann, srv.url, game)
        take_seat(bob, srv.url, game["id"])
        for page in (ann, bob):
            page.wait_for_function("window.dicehall?.snapshot?.status === 'playing'")
        assert ann.locator("[data-testid='opponent-gone']").count() == 0
        assert ann.locator("#clocks").is_hidden()  # an untimed game shows no clocks
        bob.close()
        ann.locator("[data-testid='opponent-gone']").wait_for()
        ann.click("[data-button='claim-win']")
        ann.wait_for_function("window.dicehall.snapshot.status === 'finished'")
        summary = ann.locator("[data-testid='summary']").inner_text()
        assert summary == "Bob left the game and lost by abandonment"
        assert snapshot(ann)["returns"] == [1.0, -1.0]
        assert errors == []
    finally:
        ctx_a.close()
        ctx_b.close()
        srv.stop()


#: a WebSocket whose incoming frames arrive 300 ms late (in order), and that counts the joins
#: it sends (a join after the first is a resync: the page saw a gap in the updates)
SLOW_LINK = """(() => {
  const Native = window.WebSocket;
  window.__joins = 0;
  window.WebSocket = class extends Native {
    set onmessage(fn) { super.onmessage = (ev) => setTimeout(() => fn(ev), 300); }
    send(data) {
      if (JSON.parse(data).type === "join") window.__joins += 1;
      super.send(data);
    }
  };
})();"""


def test_a_player_on_a_slow_link_plays_on_in_step(server: Any, browser: Any) -> None:
    """Ann's page hears every frame 300 ms late. Each player's act is answered (the promise the
    page's ``act`` returns settles), both pages end on the same position with the same log,
    and Ann's page never needed a resync. A test that asked the lagging page whose turn it
    was, without waiting for the last move to reach it, waited here for the wrong player."""
    errors: list[str] = []
    game = server.api("/api/games", {"game": "backgammon", "opponent": "friend", "name": "Ann"})
    ctx_a, ann = new_page(browser, errors)
    ctx_a.add_init_script(SLOW_LINK)
    ctx_b, bob = new_page(browser, errors)
    try:
        open_game(ann, server.url, game, autopass=True)
        take_seat(bob, server.url, game["id"])
        for page in (ann, bob):
            page.wait_for_function("window.dicehall?.snapshot?.status === 'playing'")
        pages = {0: ann, 1: bob}
        played, turns = -1, 0
        while turns < 12:
            mover = pages[wait_next_turn(ann, played)["to_move"]]
            mine = wait_my_turn_or_end(mover, played)
            if mine["legal"] != ["pass"]:  # a forced pass the page sends by itself
                answer = mover.evaluate("window.dicehall.act(window.dicehall.snapshot.legal[0])")
                assert answer["seq"] > mine["seq"]
            mover.wait_for_function(f"window.dicehall.snapshot.seq > {mine['seq']}")
            played, turns = mine["seq"], turns + 1
        last = snapshot(bob)["seq"]
        ann.wait_for_function(f"window.dicehall.snapshot.seq === {last}")
        assert snapshot(ann)["log"] == snapshot(bob)["log"]
        assert len(snapshot(ann)["log"]) >= 24  # twelve moves and their rolls at least
        assert ann.evaluate("window.__joins") == 1
        assert errors == []
    finally:
        ctx_a.close()
        ctx_b.close()
