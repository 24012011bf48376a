"""Languages of the web front end: gettext catalogues, negotiation and page templates.

One source per language, ``web/locale/<lang>/LC_MESSAGES/messages.po`` (GNU gettext, edited
with any PO editor and kept up to date by ``scripts/i18n_update.py`` with Babel). Its msgids
are the English texts themselves, as in gettext, so English needs no catalogue. The same
catalogue serves both sides:

- the server renders the pages (Jinja2 templates with ``{% trans %}`` and ``_()``) and
  translates its own messages with :func:`gettext`;
- the browser gets the catalogue as JSON ({msgid: translation}, :func:`messages`), inlined in
  every page and served at ``/api/i18n/<lang>.json``, and ``js/i18n.js``'s ``t()`` looks
  messages up in it.

The language of a request is the one the reader chose with the switch (a cookie), else the
best match of the browser's ``Accept-Language``, else English (:func:`negotiate`).

>>> negotiate("pt-BR,pt;q=0.9,en;q=0.8")
'pt'
>>> negotiate("de, en;q=0.5")
'en'
>>> negotiate("en", cookie="pt")
'pt'
>>> gettext("pt", "Your turn")
'É a sua vez'
>>> gettext("pt", "{name} wins", name="Ana")
'Ana vence'
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Mapping
from gettext import GNUTranslations, NullTranslations
from pathlib import Path
from typing import Any

#: the languages the site is written in, by code, with their own names (for the switch)
LANGUAGES: dict[str, str] = {"en": "English", "pt": "Português"}
DEFAULT = "en"
#: the cookie that remembers the reader's choice
COOKIE = "dicehall_lang"
#: a year: the choice is remembered until changed
COOKIE_AGE = 365 * 24 * 3600

WEB = Path(__file__).resolve().parent.parent / "web"
LOCALE_DIR = WEB / "locale"
TEMPLATES_DIR = WEB / "templates"
DOMAIN = "messages"

#: an Accept-Language header longer than this is cut (a browser sends a few dozen bytes)
MAX_HEADER = 500
_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$|^\*$")


def po_path(lang: str) -> Path:
    """The catalogue file of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def _catalog(lang: str) -> Any:
    """The parsed catalogue (a ``babel.messages.Catalog``) of ``lang``, or None for English."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return None
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@functools.cache
def messages(lang: str) -> dict[str, str]:
    """{msgid: translation} of ``lang``: the translated, not fuzzy messages (the browser's
    catalogue; English is empty: its msgids are the texts)."""
    catalog = _catalog(lang)
    if catalog is None:
        return {}
    out: dict[str, str] = {}
    for message in catalog:
        if not message.id or message.fuzzy or isinstance(message.id, tuple):
            continue  # the header, unfinished and plural entries
        if isinstance(message.string, str) and message.string:
            out[str(message.id)] = message.string
    return out


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The catalogue of ``lang`` as :mod:`gettext` translations (compiled in memory, so no
    ``.mo`` file has to be kept in step with the ``.po``)."""
    catalog = _catalog(lang)
    if catalog is None:
        return NullTranslations()
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return GNUTranslations(buffer)


def gettext(lang: str, msgid: str, /, **params: Any) -> str:
    """``msgid`` in ``lang`` with its ``{name}`` placeholders filled from ``params`` (the same
    convention as ``t()`` in the browser)."""
    text = translations(lang).gettext(msgid)
    return _fill(text, params) if params else text


def message_text(lang: str, message: Mapping[str, Any]) -> str:
    """A structured message (``{"id": msgid, "params": {...}}``, a parameter may be a message
    itself) in ``lang``: the server's side of ``tm()`` in ``js/i18n.js``.

    >>> msg = {"id": "{what} → {points}", "params": {
    ...     "what": {"id": "straight", "params": {}},
    ...     "points": {"id": "{n} points", "params": {"n": 4}}}}
    >>> message_text("en", msg), message_text("pt", msg)
    ('straight → 4 points', 'sequência → 4 pontos')
    """
    params = {
        key: message_text(lang, value) if isinstance(value, Mapping) else value
        for key, value in (message.get("params") or {}).items()
    }
    return gettext(lang, str(message["id"]), **params)


def _fill(text: str, params: Mapping[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m[1]]) if m[1] in params else m[0], text)


def parse_accept_language(header: str | None) -> list[tuple[str, float]]:
    """The language ranges of an ``Accept-Language`` header, best first (RFC 9110 12.5.4).

    >>> parse_accept_language("pt-BR, en;q=0.7, *;q=0.1")
    [('pt-br', 1.0), ('en', 0.7), ('*', 0.1)]

    Malformed ranges and weights are skipped, never an error: a header is a hint.
    """
    if not header:
        return []
    ranges: list[tuple[str, float, int]] = []
    for index, part in enumerate(header[:MAX_HEADER].split(",")):
        tag, _, rest = part.strip().partition(";")
        tag = tag.strip()
        if not _TAG.match(tag):
            continue
        q = 1.0
        rest = rest.strip()
        if rest:
            key, _, value = rest.partition("=")
            if key.strip().lower() != "q":
                continue
            try:
                q = float(value)
            except ValueError:
                continue
            if not 0.0 <= q <= 1.0:
                continue
        if q > 0:
            ranges.append((tag.lower(), q, index))
    ranges.sort(key=lambda r: (-r[1], r[2]))
    return [(tag, q) for tag, q, _ in ranges]


def negotiate(accept_language: str | None, cookie: str | None = None) -> str:
    """The language of a page: the remembered choice, else the first range of the browser's
    ``Accept-Language`` that one of :data:`LANGUAGES` matches (``pt-BR`` matches ``pt``),
    else English."""
    if cookie in LANGUAGES:
        return str(cookie)
    for tag, _q in parse_accept_language(accept_language):
        if tag == "*":
            return DEFAULT
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return DEFAULT


def request_language(headers: Mapping[str, str], cookies: Mapping[str, str]) -> str:
    """The language of a request (HTTP or WebSocket) from its headers and cookies."""
    return negotiate(headers.get("accept-language"), cookies.get(COOKIE))


@functools.cache
def _environment(lang: str) -> Any:
    """The Jinja2 environment of one language (its gettext installed once, never swapped)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


def render(template: str, lang: str, **context: Any) -> str:
    """The page ``template`` in ``lang``: its texts through the catalogue, and the browser's
    catalogue inlined (``messages_json``) so ``t()`` works before any script runs."""
    import json

    if lang not in LANGUAGES:
        lang = DEFAULT
    catalogue = json.dumps(messages(lang), ensure_ascii=False, sort_keys=True)
    page = _environment(lang).get_template(template)
    return str(
        page.render(
            lang=lang,
            languages=LANGUAGES,
            # no "<" at all inside the <script> element that holds the JSON ("</script>" or
            # "<!--" would change how the page is parsed); \u003c is the same JSON string
            messages_json=catalogue.replace("<", "\\u003c"),
            **context,
        )
    )
