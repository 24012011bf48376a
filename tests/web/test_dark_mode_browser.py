"""Dark mode: it follows prefers-color-scheme, the header switch overrides it (remembered),
and each board is drawn in it (screenshots; DICEHALL_SCREENSHOTS=1 writes the README's)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from dicehall_webtools import open_game

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LUMINANCE = """(selector) => {
  const c = getComputedStyle(document.querySelector(selector)).backgroundColor;
  const [r, g, b] = c.match(/\\d+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""


def _dark_context(browser: Any, scheme: str = "dark") -> Any:
    ctx = browser.new_context(
        viewport={"width": 1100, "height": 800}, bypass_csp=True, color_scheme=scheme
    )
    ctx.set_default_timeout(30_000)
    return ctx


def test_follows_the_system_and_the_switch_overrides_it(browser: Any, server: Any) -> None:
    ctx = _dark_context(browser)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        assert page.evaluate("window.dicehallTheme.effective()") == "dark"
        assert page.evaluate(LUMINANCE, "html") < 0.15
        switch = page.locator("#theme-switch")
        assert switch.inner_text() == "Theme: as the system"
        switch.click()  # as the system -> light
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert page.evaluate(LUMINANCE, "html") > 0.85
        page.reload()  # remembered
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert page.locator("#theme-switch").inner_text() == "Theme: light"
        page.click("#theme-switch")  # light -> dark, even where the system is light
        assert page.evaluate(LUMINANCE, "html") < 0.15
        page.click("#theme-switch")  # dark -> as the system
        assert page.evaluate("document.documentElement.dataset.theme") is None
    finally:
        ctx.close()
    light = _dark_context(browser, "light")
    try:
        page = light.new_page()
        page.goto(server.url + "/")
        assert page.evaluate(LUMINANCE, "html") > 0.85
    finally:
        light.close()


@pytest.mark.parametrize(
    ("game", "options", "ready"),
    [
        ("backgammon", {}, "window.dicehall.snapshot.moves"),
        ("coinrows", {"leaving": False}, "window.dicehall.snapshot.moves"),
        ("whitedie", {}, "window.dicehall.snapshot.view.white !== null"),
    ],
)
def test_dark_screenshot_of_each_board(
    browser: Any,
    server: Any,
    new_game: Any,
    tmp_path: Path,
    game: str,
    options: dict[str, Any],
    ready: str,
) -> None:
    ctx = _dark_context(browser)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        created = new_game(
            game, "bot" if game != "backgammon" else "random", name="ann", options=options
        )
        open_game(page, server.url, created)
        page.wait_for_function(
            f"window.dicehall.snapshot.status === 'playing' && {ready}", timeout=60_000
        )
        page.wait_for_selector("#board svg")
        assert page.evaluate(LUMINANCE, "html") < 0.15
        assert page.evaluate(LUMINANCE, ".side-col .log") < 0.2  # the cards too
        ink = page.evaluate("getComputedStyle(document.body).color")
        assert ink != "rgb(34, 34, 34)"  # the light theme's ink would be unreadable here
        out = tmp_path / f"{game}-dark.png"
        if os.environ.get("DICEHALL_SCREENSHOTS") and game == "backgammon":
            out = ROOT / "docs" / "screenshots" / "backgammon-dark.png"
        page.screenshot(path=str(out), full_page=True)
        assert out.stat().st_size > 10_000
        assert errors == []
    finally:
        ctx.close()
