"""Helpers for the browser tests (imported by tests/web/conftest.py and the tests)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any


def open_game(page: Any, url: str, game: dict[str, Any], *, autopass: bool = False) -> None:
    """Open a game page with its tokens already in localStorage (as the lobby leaves them).
    ``autopass``: leave the page's auto-pass of forced turns on (off here, so a test that
    confirms a pass itself never races the page)."""
    page.goto(url + "/")
    page.evaluate(
        "(on) => localStorage.setItem('dicehall.autopass.v1', on ? 'on' : 'off')", autopass
    )
    page.evaluate(
        "([id, tokens]) => localStorage.setItem('dicehall.tokens.v1', "
        "JSON.stringify({...JSON.parse(localStorage.getItem('dicehall.tokens.v1') || '{}'),"
        " [id]: tokens}))",
        [game["id"], game.get("tokens", {})],
    )
    page.goto(f"{url}/g/{game['id']}")
    page.wait_for_function("window.dicehall && window.dicehall.snapshot")


def take_seat(page: Any, url: str, game_id: str, name: str = "Bob") -> None:
    """Open the game's page at ``url`` and take its second seat as ``name``, by the form a
    friend who got the link fills in."""
    page.goto(f"{url}/g/{game_id}")
    page.wait_for_selector('[data-button="join-1"]')
    page.fill("#join-name", name)
    page.click('[data-button="join-1"]')


def snapshot(page: Any) -> dict[str, Any]:
    return page.evaluate("window.dicehall.snapshot")  # type: ignore[no-any-return]


def wait_next_turn(page: Any, after_seq: int, timeout: float = 60_000) -> dict[str, Any]:
    """The snapshot of ``page`` once it shows a position newer than ``after_seq`` with a seat
    to move, or the end of the game.

    Tests that play a game between two pages ask one page whose turn it is. That page
    receives the other's moves over its own WebSocket, a little later than the page that
    moved: read at once, it can still name the player who has just moved, and a test then
    waits for that player's turn while the real mover waits for the test. So the
    question is asked only of a position newer than the last one played (``after_seq``).
    """
    page.wait_for_function(
        """(after) => { const s = window.dicehall?.snapshot;
             return s && (s.status === 'finished' || (s.seq > after && s.to_move !== null)); }""",
        arg=after_seq,
        timeout=timeout,
    )
    return snapshot(page)


def wait_my_turn_or_end(page: Any, after_seq: int, timeout: float = 60_000) -> dict[str, Any]:
    """Wait until this page may act (with a snapshot newer than ``after_seq``) or the game ends."""
    page.wait_for_function(
        """(after) => { const s = window.dicehall?.snapshot;
             return s && (s.status === 'finished' ||
               (s.seq > after && s.moves && s.you.includes(s.to_move))); }""",
        arg=after_seq,
        timeout=timeout,
    )
    return snapshot(page)


def play_backgammon_turn(page: Any, pick: int = 0) -> str:
    """Play one whole backgammon turn by clicks: checker, destination, ..., confirm.

    Follows the click graph of the snapshot (``pick``: which legal step to take at each
    point, modulo their number); returns the play text that was confirmed. A turn without a
    legal move is passed by the page itself (its auto-pass setting, on by default).
    """
    snap = snapshot(page)
    nodes = snap["moves"]["nodes"]
    node = 0
    if snap["legal"] == ["pass"] and page.evaluate("window.dicehall.autoPass"):
        # no legal move: the page passes by itself after a short pause (autopass.js)
        page.wait_for_function(f"window.dicehall.snapshot.seq > {snap['seq']}")
        return "pass"
    while nodes[node]["text"] is None:
        edges = nodes[node]["edges"]
        src, dst, _die, _hit, _child = edges[pick % len(edges)]
        page.click(f'#board [data-point="{src}"]')
        page.wait_for_function(f"document.getElementById('board').dataset.selected === '{src}'")
        page.click(f'#board [data-point="{dst}"]')
        page.wait_for_function(
            f"document.getElementById('board').dataset.selected === '' && "
            f"document.getElementById('board').dataset.node !== '{node}'"
        )
        node = int(page.evaluate("document.getElementById('board').dataset.node"))
    text = nodes[node]["text"]
    page.click('#board [data-button="confirm"]')
    return str(text)


def _focused_point(page: Any) -> str | None:
    return page.evaluate("document.activeElement?.dataset?.point ?? null")  # type: ignore[no-any-return]


def _focus_point(page: Any, point: int, limit: int = 40) -> None:
    """Move the keyboard focus with the arrow keys to the lit target of ``point``."""
    for _ in range(limit):
        if _focused_point(page) == str(point):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrow keys never reached point {point}")


def play_backgammon_turn_by_keyboard(page: Any, pick: int = 0) -> str:
    """Play one whole backgammon turn with the keyboard only: arrows to a lit checker, Enter,
    arrows to its destination, Enter, ..., Enter on Confirm (where the focus goes by itself).

    Follows the click graph of the snapshot like :func:`play_backgammon_turn`; returns the
    play text that was confirmed.
    """
    snap = snapshot(page)
    nodes = snap["moves"]["nodes"]
    node = 0
    # the board puts the focus on its first choice when a turn starts
    page.wait_for_function("document.getElementById('board').contains(document.activeElement)")
    while nodes[node]["text"] is None:
        edges = nodes[node]["edges"]
        src, dst, _die, _hit, _child = edges[pick % len(edges)]
        _focus_point(page, src)
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.getElementById('board').dataset.selected === '{src}'")
        _focus_point(page, dst)
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.getElementById('board').dataset.selected === '' && "
            f"document.getElementById('board').dataset.node !== '{node}'"
        )
        node = int(page.evaluate("document.getElementById('board').dataset.node"))
    text = nodes[node]["text"]
    assert page.evaluate("document.activeElement?.dataset?.button") == "confirm", text
    page.keyboard.press("Enter")
    return str(text)


def open_json(req: urllib.request.Request, timeout: float) -> Any:
    """The JSON answer to ``req``; a 429 (the server's per-address rate limit, which a
    quick test can reach on a quiet machine) is retried after its ``Retry-After``, as a
    well-behaved client does."""
    for _ in range(60):
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                return json.loads(res.read())
        except urllib.error.HTTPError as exc:
            if exc.code != 429:
                raise
            time.sleep(float(exc.headers.get("Retry-After") or 1))
    raise AssertionError(f"{req.full_url}: still rate limited after a minute")


def finish_over_http(
    server: Any, game: str, options: dict[str, Any] | None = None, seed: int = 7
) -> dict[str, Any]:
    """A game against the random bot played to the end over HTTP, seat 0 choosing random legal
    actions (seeded); returns the created game (its id and tokens)."""
    import random

    made = server.api(
        "/api/games",
        {"game": game, "opponent": "random", "name": "rita", "options": options or {}},
    )
    tokens = list(made["tokens"].values())
    server.api(f"/api/games/{made['id']}/seed", {"seed": "finish", "tokens": tokens})
    rng = random.Random(seed)
    headers = {"X-Seat-Token": ",".join(tokens)}
    for _ in range(5000):
        req = urllib.request.Request(f"{server.url}/api/games/{made['id']}", headers=headers)
        snap = open_json(req, timeout=60)
        if snap["status"] == "finished":
            return made  # type: ignore[no-any-return]
        if snap["to_move"] == 0 and snap["legal"]:
            body = {"tokens": tokens, "text": rng.choice(snap["legal"]), "seq": snap["seq"]}
            try:
                server.api(f"/api/games/{made['id']}/act", body)
            except urllib.error.HTTPError as exc:  # the bot moved in between: look again
                assert exc.code == 409, exc.read()
    raise AssertionError(f"the {game} game did not end")
