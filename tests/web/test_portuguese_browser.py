"""The site in Portuguese in headless Chromium: chosen by the browser's language, switched and
remembered, and the backgammon board in the seed's own words (botões, pontos, barra, retirar,
tabuleiro interno)."""

from __future__ import annotations

from typing import Any

import pytest
from dicehall_webtools import finish_over_http, open_game, wait_my_turn_or_end

from dicehall.server import i18n

pytestmark = pytest.mark.browser


def _context(browser: Any, locale: str) -> Any:
    ctx = browser.new_context(
        viewport={"width": 1100, "height": 800}, bypass_csp=True, locale=locale
    )
    ctx.set_default_timeout(60_000)
    return ctx


def test_lobby_follows_the_browser_and_the_switch(browser: Any, server: Any) -> None:
    ctx = _context(browser, "pt-PT")
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#options [data-option]")
        assert page.evaluate("document.documentElement.lang") == "pt"
        assert page.inner_text("#new-game-title") == "Novo jogo"
        page.select_option("#game", "backgammon")
        assert page.locator("#game option:checked").inner_text() == "Gamão"
        # the options in words, their explanations visible (no tooltips), the cube fieldset
        assert page.inner_text("label[for='opt-cube']") == "Cubo de dobrar"
        assert page.is_visible("#opt-cube-help")
        assert page.is_hidden("[data-option-row='match_length']")  # only with the cube
        page.check("#opt-cube")
        assert page.is_visible("[data-option-row='match_length']")
        assert "Cubo e partida" in page.inner_text("fieldset[data-group='cube'] legend")
        assert page.inner_text("#seat-hint") == "O lançamento inicial decide quem começa."
        page.select_option("#game", "coinrows")
        assert not page.is_checked("#opt-leaving")  # the bot would leave as soon as it leads
        assert "sai logo que vai à frente" in page.inner_text("#opt-leaving-help")
        # the switch: English, remembered over the browser's language
        page.click(".lang-switch a[data-lang='en']")
        page.wait_for_selector("#options [data-option]")
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.inner_text("#new-game-title") == "New game"
        page.reload()
        assert page.evaluate("document.documentElement.lang") == "en"
        page.click(".lang-switch a[data-lang='pt']")
        page.wait_for_selector("#options [data-option]")
        assert page.inner_text("#new-game-title") == "Novo jogo"
    finally:
        ctx.close()


def test_backgammon_board_in_the_seeds_words(browser: Any, server: Any, new_game: Any) -> None:
    ctx = _context(browser, "pt-PT")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        game = new_game("backgammon", "random", name="ana")
        open_game(page, server.url, game)
        snap = wait_my_turn_or_end(page, -1, timeout=60_000)
        assert page.inner_text("#title").startswith("Gamão")
        assert page.inner_text("#status") == "É a sua vez"
        said = page.inner_text('[data-testid="position-text"]')
        for word in ("botões", "ponto", "barra", "retira", "tabuleiro interno", "pintas"):
            assert word in said, (word, said)
        dice = snap["view"]["dice"]
        assert f"Dados: {dice[0]} e {dice[1]}, lançados por ana." in said
        if snap["moves"]["nodes"][0]["edges"]:
            assert "Para jogar" in page.inner_text('[data-testid="play-info"]')
            assert "Botão em:" in page.inner_text("#board .bg-choices")
        assert page.inner_text('#board [data-button="confirm"]') in ("Confirmar", "Recusar")
        assert page.inner_text('#board [data-button="undo"]') == "Anular"
        pips = page.locator("#board .pips text").first.text_content() or ""
        assert "pintas" in pips and "retirados" in pips
        assert "lança" in page.inner_text("#log") or "lançamento inicial" in page.inner_text("#log")
        assert page.inner_text("#links [data-button='replay']") == "Rever"
        assert errors == []
    finally:
        ctx.close()


def test_other_boards_and_pages_in_portuguese(browser: Any, server: Any, new_game: Any) -> None:
    ctx = _context(browser, "pt-PT")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        game = new_game("coinrows", "bot", name="ana", options={"leaving": False})
        open_game(page, server.url, game)
        page.wait_for_selector('[data-button="roll"]')
        assert page.inner_text('[data-button="roll"]') == "Lançar os dados"
        assert "Fase A" in page.inner_text('[data-testid="board-status"]')
        assert "bolsa" in page.inner_text('[data-testid="position-text"]')
        game = new_game("whitedie", "bot", name="ana", options={"players": 3})
        open_game(page, server.url, game)
        page.wait_for_function("window.dicehall.snapshot.view.scores")
        assert "Pontuações (meta 21)" in page.inner_text('[data-testid="position-text"]')
        # three bots share a name: numbered, never "bot · bot · bot"
        names = page.locator("#players .name").all_inner_texts()
        assert len(set(names)) == 3, names
        page.goto(f"{server.url}/fairness")
        assert page.inner_text("h2") == "Como são feitos os dados"
        assert errors == []
    finally:
        ctx.close()


def test_white_die_scores_explained_in_portuguese(browser: Any, server: Any) -> None:
    """The explanation of each challenge comes from the server as a message and is translated
    whole in the browser: what the server's own Babel says, with no English left."""
    game = finish_over_http(server, "whitedie", {"target": 8}, seed=3)
    ctx = _context(browser, "pt-PT")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/g/{game['id']}/replay")
        page.wait_for_function("window.dicehall && window.dicehall.frames.length > 1")
        frames = page.evaluate("window.dicehall.frames")
        shown = 0
        before = None
        for i, frame in enumerate(frames):
            last = frame["view"].get("last")
            if not last or last == before:
                continue  # no challenge played yet, or the same one still shown
            before = last
            page.evaluate("(i) => window.dicehall.show(i)", i)
            text = page.inner_text("[data-testid='last-challenge'] .wd-last-text")
            assert text == i18n.message_text("pt", last["explain"]["message"]), text
            assert "point" not in text and "ponto" in text, text
            shown += 1
        assert shown >= 3
        assert errors == []
    finally:
        ctx.close()
