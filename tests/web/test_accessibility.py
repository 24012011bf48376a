"""axe-core (vendored from the npm registry: tests/web/vendor/axe-core) in headless Chromium on
every page of the site, light and dark, English and Portuguese: no serious or critical
violation (WCAG 2 A/AA rules, colour contrast included)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from dicehall_webtools import open_game

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
RUN = """async () => {
  const result = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    resultTypes: ["violations"],
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + ": " + n.failureSummary),
    }));
}"""


def _violations(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def pages(server: Any) -> dict[str, Any]:
    """A live game of each board, and a finished backgammon game (resigned at once) for the
    result panel, the replay and the fairness page."""

    def make(game: str, **body: Any) -> dict[str, Any]:
        return server.api("/api/games", {"game": game, **body})  # type: ignore[no-any-return]

    done = make("backgammon", opponent="random", name="ann")
    tokens = list(done["tokens"].values())
    server.api(f"/api/games/{done['id']}/seed", {"seed": "axe", "tokens": tokens})
    server.api(f"/api/games/{done['id']}/resign", {"tokens": tokens})
    return {
        "backgammon": make("backgammon", opponent="random", name="ann"),
        "coinrows": make("coinrows", opponent="bot", name="ann", options={"leaving": False}),
        "whitedie": make("whitedie", opponent="bot", name="ann", options={"players": 3}),
        "finished": done["id"],
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-GB", "pt-PT"])
@pytest.mark.parametrize(
    "where", ["lobby", "backgammon", "coinrows", "whitedie", "result", "replay", "fairness"]
)
def test_no_serious_violation(
    browser: Any, server: Any, pages: dict[str, Any], where: str, scheme: str, locale: str
) -> None:
    ctx = browser.new_context(
        viewport={"width": 1100, "height": 800},
        bypass_csp=True,  # axe is injected as a script
        color_scheme=scheme,
        locale=locale,
    )
    ctx.set_default_timeout(60_000)
    try:
        page = ctx.new_page()
        if where == "lobby":
            page.goto(server.url + "/")
            page.wait_for_selector("#options [data-option]")
            page.wait_for_selector("#finished li")
        elif where in ("backgammon", "coinrows", "whitedie"):
            open_game(page, server.url, pages[where])
            # checked on our turn, with the board's buttons to choose from
            page.wait_for_function("window.dicehall.snapshot.moves")
            page.wait_for_selector("#board svg")
            page.wait_for_selector("#board [tabindex='0'], #board button:not([disabled])")
        elif where == "result":
            page.goto(f"{server.url}/g/{pages['finished']}")
            page.wait_for_selector("#result:not([hidden]) [data-testid='summary']")
        elif where == "replay":
            page.goto(f"{server.url}/g/{pages['finished']}/replay")
            page.wait_for_selector("#board svg")
        else:
            page.goto(f"{server.url}/g/{pages['finished']}/fairness")
            page.wait_for_function("document.body.dataset.verdict")
        assert page.evaluate("document.documentElement.lang") == locale[:2]
        found = _violations(page)
        assert found == [], json.dumps(found, indent=1, ensure_ascii=False)
    finally:
        ctx.close()


def test_tap_targets_are_at_least_44_px_on_a_phone(
    browser: Any, server: Any, pages: dict[str, Any]
) -> None:
    """WCAG 2.5.5: every button, link and field of the lobby and a board on a phone."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, bypass_csp=True, is_mobile=True, has_touch=True
    )
    ctx.set_default_timeout(60_000)
    try:
        page = ctx.new_page()
        # HTML controls; the board's SVG points each have a button in the choices bar
        small_js = """() => [...document.querySelectorAll(
              'button, a.btn, .lang-switch a, input, select')]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e, e.getBoundingClientRect()])
            .filter(([e, r]) => r.width > 0 && (r.width < 43.5 || r.height < 43.5))
            .filter(([e]) => e.type !== 'checkbox' && e.type !== 'range')
            .map(([e, r]) => `${e.tagName} ${e.dataset.button || e.id || e.textContent}: `
                             + `${Math.round(r.width)}x${Math.round(r.height)}`)"""
        page.goto(server.url + "/")
        page.wait_for_selector("#options [data-option]")
        assert page.evaluate(small_js) == []
        open_game(page, server.url, pages["backgammon"])
        page.wait_for_function("window.dicehall.snapshot.moves")  # a turn to play
        page.wait_for_selector("#board svg")
        assert page.evaluate(small_js) == []
        assert page.locator("#board .bg-choices button").count() > 0  # the points, as buttons
        # the point numbers are legible there: 12 px or more as drawn (they were ~8 px)
        sizes = page.evaluate(
            """() => [...document.querySelectorAll('#board svg .point-label')].map((e) => {
                const r = e.getBoundingClientRect();
                return [e.textContent, e.getScreenCTM().a * Number(e.getAttribute('font-size')),
                        r.left, r.right, r.height, Math.round(r.top)];
            })"""
        )
        assert sorted(int(text) for text, *_ in sizes) == list(range(1, 25))
        small = [(text, round(px, 1)) for text, px, *_ in sizes if px < 12]
        assert small == [], f"point numbers drawn under 12 px: {small}"
        assert all(s[2] >= 0 and s[3] <= 390 and s[4] >= 12 for s in sizes)
        # two rows of twelve, and neighbouring numbers in a row do not run into each other
        rows: dict[int, list[tuple[float, float]]] = {}
        for _text, _px, left, right, _height, top in sizes:
            rows.setdefault(top, []).append((left, right))
        assert sorted(len(r) for r in rows.values()) == [12, 12]
        for row in rows.values():
            row.sort()
            assert all(b[0] >= a[1] for a, b in itertools.pairwise(row)), row
    finally:
        ctx.close()


def test_the_check_finds_violations(browser: Any) -> None:
    """The check above can fail: low contrast and a button without a name are reported."""
    ctx = browser.new_context(bypass_csp=True)
    try:
        page = ctx.new_page()
        page.set_content(
            '<html lang="en"><head><title>t</title></head><body><main>'
            '<p style="color:#999;background:#aaa">faint text</p>'
            "<button></button></main></body></html>"
        )
        found = {v["id"] for v in _violations(page)}
        assert {"color-contrast", "button-name"} <= found
    finally:
        ctx.close()
