"""Hints and analysis in the browser: the Hint button of the seat to move (never in rated
games), and the analysis on the replay of a finished backgammon game: each decision's equity
lost, its errors and blunders marked (in the table and the move list), the equity graph; the
quick analysis at once with a progress bar, replaced by the deep one when it is ready.

The server of this module computes the deep analysis at 1-ply (``DICEHALL_ANALYSIS_LEVEL``)
instead of the default expert (2-ply, as ``dicehall analyze``; ~10 times slower): the page and
the worker are the same; ``test_analysis_worker.py`` checks the expert level itself. Run with
``DICEHALL_ANALYSIS_LEVEL=expert`` to check the default level end to end (a minute or more)."""

from __future__ import annotations

import json
import os
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Server
from dicehall_webtools import open_game, open_json, snapshot, wait_my_turn_or_end
from test_accessibility import _violations

pytestmark = pytest.mark.browser

#: the deep level of this module's server, and how the page names it
LEVEL = os.environ.get("DICEHALL_ANALYSIS_LEVEL", "hard")
LEVEL_NAMES = {"hard": "1-ply", "expert": "expert, 2-ply"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The module's server, its deep analysis at 1-ply (hard) unless told otherwise."""
    srv = Server(
        tmp_path_factory.mktemp("serve") / "dicehall.sqlite3",
        env={"DICEHALL_ANALYSIS_LEVEL": LEVEL},
    )
    srv.start()
    yield srv
    srv.stop()


def _get(server: Any, path: str, tokens: list[str] | None = None) -> Any:
    headers = {"X-Seat-Token": ",".join(tokens)} if tokens else {}
    return open_json(urllib.request.Request(server.url + path, headers=headers), timeout=120)


def _finished_backgammon(server: Any, seed: int = 7) -> dict[str, Any]:
    """A backgammon game played to the end over HTTP: seat 0 plays random legal moves (so
    it makes errors), the random bot the other seat.

    Only seat 0's own moves are counted against the bound (a random game makes a few hundred):
    while the bot decides, the loop waits without counting, as long as the bot keeps moving
    (a loaded CI machine can make it slow, never stop)."""
    game = server.api("/api/games", {"game": "backgammon", "opponent": "random", "name": "rita"})
    tokens = list(game["tokens"].values())
    server.api(f"/api/games/{game['id']}/seed", {"seed": "analysis", "tokens": tokens})
    rng = random.Random(seed)
    moves = 0
    last_seq, idle = -1, 0
    while moves < 3000:
        snap = _get(server, f"/api/games/{game['id']}", tokens)
        if snap["status"] == "finished":
            return game
        if snap["seq"] != last_seq:
            last_seq, idle = snap["seq"], 0
        if snap["to_move"] == 0 and snap["legal"]:
            text = rng.choice(snap["legal"])
            moves += 1
            try:
                server.api(
                    f"/api/games/{game['id']}/act",
                    {"tokens": tokens, "text": text, "seq": snap["seq"]},
                )
            except urllib.error.HTTPError as exc:  # the bot moved in between: look again
                assert exc.code == 409, exc.read()
            continue
        idle += 1  # the bot's turn: wait for its move, as long as it is not stuck
        assert idle < 6000, f"the bot made no move for 6000 looks at seq {last_seq}"
        time.sleep(0.02)
    raise AssertionError(f"the game did not end after {moves} moves of seat 0")


def test_analysis_of_a_finished_backgammon_game(server: Any, context: Any) -> None:
    game = _finished_backgammon(server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/g/{game['id']}/replay")
    # the quick analysis (0-ply) at once, with the deep one's progress above it
    page.wait_for_function("document.body.dataset.analysis === 'ready'", timeout=120_000)
    assert page.evaluate("document.body.dataset.analysisLevel") == "medium"
    progress = page.locator('[data-testid="analysis-progress"]')
    assert progress.get_attribute("data-state") in ("queued", "running")
    assert LEVEL_NAMES[LEVEL] in progress.inner_text() and "0-ply" in progress.inner_text()
    assert _violations(page) == []  # the progress bar and the quick analysis pass axe-core
    # then the deep one replaces it, and the progress bar goes
    page.wait_for_function("document.body.dataset.analysis === 'final'", timeout=900_000)
    assert page.evaluate("document.body.dataset.analysisLevel") == LEVEL
    assert progress.count() == 0
    assert LEVEL_NAMES[LEVEL] in page.inner_text("#analysis-body")

    report = _get(server, f"/api/games/{game['id']}/analysis")
    assert report["game"] == "backgammon" and report["unit"] == "equity"
    assert report["level"] == LEVEL and "deeper" not in report
    decisions = report["decisions"]
    assert decisions and all(d["loss"] >= 0 for d in decisions)
    for d in decisions:  # marks follow the thresholds of dicehall analyze
        if d["kind"] == "play":
            want = "blunder" if d["loss"] >= 0.08 else "error" if d["loss"] >= 0.04 else ""
            assert d["mark"] == want, d
            assert d["loss"] == 0 or d["played"] != d["best"]
    marked = [d for d in decisions if d["mark"] and d["seat"] == 0]
    assert marked, "random moves make errors"
    totals = {t["seat"]: t for t in report["totals"]}
    assert totals[0]["errors"] + totals[0]["blunders"] == len(marked)
    # what the page shows is the deep report: its marks, in the table and the move list
    assert page.locator("#log [data-mark]").count() == sum(1 for d in decisions if d["mark"])
    table = page.locator('[data-testid="analysis-decisions"]')
    for d in marked[:5]:
        row = table.locator(f'tr[data-n="{d["n"]}"]')
        assert row.locator(f'[data-mark="{d["mark"]}"]').count() == 1
        assert d["played"] in row.inner_text() and d["best"] in row.inner_text()
        # the move list marks it too: ? an error, ?? a blunder
        mark = page.locator(f'#log li[data-index="{d["n"]}"] [data-mark]').inner_text()
        assert mark == ("??" if d["mark"] == "blunder" else "?")
    assert "rita" in page.inner_text('[data-testid="analysis-totals"]')
    graph = page.locator('[data-testid="equity-graph"]')
    assert graph.locator("polyline").count() == 1
    assert graph.locator("circle").count() == sum(
        1 for d in decisions if d["mark"] and d["equity"] is not None
    )
    # a decision's button shows its position
    first = marked[0]
    table.locator(f'tr[data-n="{first["n"]}"] button').click()
    assert page.evaluate("window.dicehall.index") == first["n"] - 1
    # the fairness table compares like with like: recorded and recomputed dice, both in the
    # order drawn (the outcome text beside them may list them sorted)
    page.goto(f"{server.url}/g/{game['id']}/fairness")
    page.wait_for_function("document.body.dataset.verdict === 'ok'")
    recorded = page.locator('#rolls td[data-col="recorded"]').all_inner_texts()
    computed = page.locator('#rolls td[data-col="computed"]').all_inner_texts()
    assert recorded and recorded == computed
    assert errors == []


def test_hint_button_shows_the_best_plays(server: Any, context: Any, new_game: Any) -> None:
    game = new_game("backgammon", "random", name="hinted")
    page = context.new_page()
    open_game(page, server.url, game)
    snap = wait_my_turn_or_end(page, -1, timeout=60_000)
    while len(snap["legal"]) < 2:  # a forced play or a pass: nothing to advise
        page.evaluate("(t) => window.dicehall.act(t)", snap["legal"][0])
        snap = wait_my_turn_or_end(page, snap["seq"], timeout=60_000)
    page.click('[data-button="hint"]')
    page.wait_for_selector('[data-testid="hint-table"]')
    rows = page.locator('[data-testid="hint-table"] tbody tr')
    assert 1 <= rows.count() <= 5
    texts = [rows.nth(i).get_attribute("data-hint") for i in range(rows.count())]
    assert all(text in snap["legal"] for text in texts)
    values = [float(rows.nth(i).locator("td").nth(1).inner_text()) for i in range(rows.count())]
    assert values == sorted(values, reverse=True)
    # the hint is gone once the play is made
    page.evaluate("(t) => window.dicehall.act(t)", texts[0])
    page.wait_for_function(f"window.dicehall.snapshot.seq > {snap['seq']}")
    page.wait_for_selector("#hint", state="hidden")
    assert snapshot(page)["log"][snap["seq"]]["text"] == texts[0]


def test_no_hint_for_a_spectator_or_out_of_turn(server: Any) -> None:
    game = server.api("/api/games", {"game": "whitedie", "opponent": "bot", "name": "w"})
    with pytest.raises(urllib.error.HTTPError) as info:
        _get(server, f"/api/games/{game['id']}/hint")
    assert info.value.code == 403
    assert "seat to move" in json.loads(info.value.read())["error"]["message"]
