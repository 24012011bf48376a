"""The languages of the site: negotiation, the switch, the pages and the completeness of the
Portuguese catalogue (the test that fails when a message lacks a translation)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.server import i18n

ROOT = Path(__file__).resolve().parents[2]


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("i18n_update", ROOT / "scripts/i18n_update.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> Any:
    return _script()


# -- negotiation -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("header", "cookie", "expected"),
    [
        ("pt-PT,pt;q=0.9,en;q=0.8", None, "pt"),
        ("pt-BR", None, "pt"),
        ("en-GB,en;q=0.9,pt;q=0.8", None, "en"),
        ("de-DE, fr;q=0.8, pt;q=0.5", None, "pt"),  # the best language we have
        ("de, fr", None, "en"),  # none of ours: English
        ("en;q=0.2, pt;q=0.9", None, "pt"),  # weights, not order
        ("pt;q=0, en", None, "en"),  # q=0: "not this one"
        ("*", None, "en"),
        ("", None, "en"),
        (None, None, "en"),
        ("en", "pt", "pt"),  # the switch wins over the browser
        ("pt", "en", "en"),
        ("pt", "xx", "pt"),  # an unknown cookie is ignored
    ],
)
def test_negotiate(header: str | None, cookie: str | None, expected: str) -> None:
    assert i18n.negotiate(header, cookie) == expected


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=2000), st.one_of(st.none(), st.text(max_size=20)))
def test_negotiate_never_fails_on_any_header(header: str, cookie: str | None) -> None:
    assert i18n.negotiate(header, cookie) in i18n.LANGUAGES


def test_malformed_ranges_are_skipped() -> None:
    assert i18n.parse_accept_language("pt;q=abc, en;q=2, ;q=1, fr;x=1, de;q=0.5") == [("de", 0.5)]


# -- the catalogue -----------------------------------------------------------------
def test_every_message_is_translated_and_the_catalogue_is_up_to_date(script: Any) -> None:
    """The code's messages (templates, browser modules) are all in messages.po, translated,
    not fuzzy, with the same placeholders; run scripts/i18n_update.py after adding one."""
    template = script.extract()
    assert len(template) > 300  # every page and browser module was read
    for lang in script.LANGUAGES:
        catalog, new, old = script.updated(lang, template)
        assert script.problems(catalog) == []
        assert new == old, "messages.po is not up to date: run python scripts/i18n_update.py"


def test_the_check_finds_an_untranslated_or_broken_message(script: Any) -> None:
    """The check above can fail: a new message, a fuzzy one and a lost placeholder."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="pt")
    catalog.add("A new message")
    catalog.add("Checked {n}", "Verificado", flags=["fuzzy"])
    catalog.add("{name} wins", "vence")
    catalog.add("Your turn", "É a sua vez")
    found = script.problems(catalog)
    assert len(found) == 3
    assert any("untranslated" in f and "A new message" in f for f in found)
    assert any("fuzzy" in f for f in found)
    assert any("placeholders" in f and "{name} wins" in f for f in found)


def test_every_t_call_in_the_browser_is_extracted(script: Any) -> None:
    """Babel's JavaScript lexer misses t() nested in another call; the script finds them."""
    template = script.extract()
    call = re.compile(r'(?<![\w.$])t_?\(\s*"((?:[^"\\\n]|\\.)*)"')
    for path in (ROOT / "src/dicehall/web/static/js").rglob("*.js"):
        if path.name == "i18n.js":
            continue
        for match in call.finditer(path.read_text(encoding="utf-8")):
            assert json.loads(f'"{match[1]}"') in template, (path.name, match[1])


def test_backgammon_words_follow_the_portuguese_seed() -> None:
    """The seed's own terms: botões (checkers), pontos, barra, retirar, tabuleiro interno."""
    pt = i18n.messages("pt")
    assert "botão" in pt["1 checker"] and "botões" in pt["{n} checkers"]
    assert pt["point {n}"] == "ponto {n}"
    assert pt["the bar"] == "a barra"
    assert "retirados" in pt["{count} borne off"]
    assert (
        "tabuleiro interno"
        in pt[
            "Points numbered from {name}'s side: {name} moves from 24 down to 1 and bears off "
            "from the home board, points 1 to 6."
        ]
    )


def test_gettext_fills_placeholders_in_both_languages() -> None:
    assert i18n.gettext("en", "{name} wins", name="Ann") == "Ann wins"
    assert i18n.gettext("pt", "{name} wins", name="Ann") == "Ann vence"
    assert i18n.gettext("pt", "not a message of ours") == "not a message of ours"


# -- the pages over HTTP -----------------------------------------------------------
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    db = tmp_path_factory.mktemp("i18n") / "db.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0)) as c:
        yield c


def _inline_catalogue(page: str) -> dict[str, str]:
    found = re.search(r'<script type="application/json" id="i18n-messages">(.*?)</script>', page)
    assert found
    return json.loads(found[1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", ["/", "/g/x", "/g/x/replay", "/fairness", "/g/x/fairness"])
def test_pages_follow_accept_language(client: Any, path: str) -> None:
    pt = client.get(path, headers={"Accept-Language": "pt-PT,pt;q=0.9"})
    assert pt.status_code == 200
    assert '<html lang="pt">' in pt.text
    assert "Saltar para o conteúdo" in pt.text
    assert _inline_catalogue(pt.text)["Your turn"] == "É a sua vez"
    assert "Accept-Language" in pt.headers["vary"]
    en = client.get(path, headers={"Accept-Language": "en-US"})
    assert '<html lang="en">' in en.text and "Skip to the content" in en.text
    assert _inline_catalogue(en.text) == {}


def test_lobby_in_portuguese(client: Any) -> None:
    page = client.get("/", headers={"Accept-Language": "pt"}).text
    page = re.sub(r"<script.*?</script>", "", page, flags=re.S)  # the catalogue has both
    for words in ("Novo jogo", "Jogos abertos", "O seu lugar", "Dados justos", "Começar"):
        assert words in page
    assert "New game" not in page


def test_the_switch_remembers_the_choice(client: Any) -> None:
    res = client.get("/lang/pt?next=/g/abc/replay", follow_redirects=False)
    assert res.status_code == 303
    assert res.headers["location"] == "/g/abc/replay"
    assert "dicehall_lang=pt" in res.headers["set-cookie"]
    client.cookies.set(i18n.COOKIE, "pt")
    try:
        page = client.get("/", headers={"Accept-Language": "en"}).text
        assert '<html lang="pt">' in page  # the choice beats the browser's language
    finally:
        client.cookies.clear()


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil"])
def test_the_switch_is_no_open_redirect(client: Any, target: str) -> None:
    res = client.get("/lang/en", params={"next": target}, follow_redirects=False)
    assert res.status_code == 303 and res.headers["location"] == "/"


def test_unknown_language_is_refused_with_the_choices(client: Any) -> None:
    res = client.get("/lang/xx", follow_redirects=False)
    assert res.status_code == 400
    assert "expected one of en, pt" in res.json()["error"]["message"]
    res = client.get("/api/i18n/xx.json")
    assert res.status_code == 400


def test_catalogue_endpoint_is_the_po_file(client: Any) -> None:
    body = client.get("/api/i18n/pt.json").json()
    assert body["lang"] == "pt" and set(body["languages"]) == {"en", "pt"}
    assert body["messages"] == i18n.messages("pt")
    assert client.get("/api/i18n/en.json").json()["messages"] == {}
