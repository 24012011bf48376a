"""Keep the translations in step with the code: extract, update, check (GNU gettext, by Babel).

    python scripts/i18n_update.py            # extract every message, merge it into each .po
    python scripts/i18n_update.py --check    # exit 1 when a message lacks a translation or a
                                             # .po is not up to date (the test runs this too)
    python scripts/i18n_update.py --pot messages.pot   # also write the template

Messages come from three kinds of source, all with the English text as msgid:

- the page templates ``src/dicehall/web/templates/*.html`` (``{% trans %}``, ``_()``);
- the browser modules ``src/dicehall/web/static/js/**/*.js`` (``t("...")`` from ``i18n.js``);
- the server's Python modules listed in :data:`PYTHON_SOURCES` (``_("...")`` / ``N_("...")``).

New messages enter each ``web/locale/<lang>/LC_MESSAGES/messages.po`` untranslated (or fuzzy
when Babel finds a similar old one), messages no longer in the code become obsolete (``#~``),
and the translator fills in the ``msgstr``s in any PO editor.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "src" / "dicehall" / "web"
LOCALE = WEB / "locale"
LANGUAGES = ("pt",)
#: server modules whose user-facing messages are translated (marked with _() or N_())
PYTHON_SOURCES = (
    "src/dicehall/server/error_messages.py",
    "src/dicehall/server/accounts.py",
    "src/dicehall/server/app.py",
    "src/dicehall/server/presence.py",
    "src/dicehall/server/chat.py",
    "src/dicehall/server/clocks.py",
    "src/dicehall/server/ratings.py",
    "src/dicehall/server/seeks.py",
    "src/dicehall/server/service.py",
    "src/dicehall/server/views/whitedie.py",
)

JS_KEYWORDS = {"t": None, "t_": None}
PY_KEYWORDS = {"_": None, "N_": None, "gettext": None}
#: a call t("literal", ...) or t_("literal", ...) in a browser module
JS_CALL = re.compile(r'(?<![\w.$])t_?\(\s*"((?:[^"\\\n]|\\.)*)"')


def sources() -> Iterable[tuple[str, Path, dict[str, None], dict[str, object]]]:
    """(method, file, keywords, options) of every file messages are extracted from."""
    for path in sorted((WEB / "templates").glob("*.html")):
        yield (
            "jinja2.ext:babel_extract",
            path,
            PY_KEYWORDS,
            {
                "extensions": "jinja2.ext.i18n",
                "trimmed": "true",
                "silent": "false",
            },
        )
    for path in sorted((WEB / "static" / "js").rglob("*.js")):
        if path.name != "i18n.js":  # its examples are not messages
            yield "javascript", path, JS_KEYWORDS, {"parse_template_string": True}
    for name in PYTHON_SOURCES:
        path = ROOT / name
        if path.exists():
            yield "python", path, PY_KEYWORDS, {}


def extract() -> Catalog:
    """Every message of the code, as a template catalogue (sorted, with source locations)."""
    template = Catalog(project="dicehall", fuzzy=False)
    for method, path, keywords, options in sources():
        for lineno, message, comments, context in extract_from_file(
            method, str(path), keywords=keywords, options=options, comment_tags=("i18n:",)
        ):
            if not message:
                continue
            relative = path.relative_to(ROOT).as_posix()
            template.add(
                message,
                locations=[(relative, lineno)],
                auto_comments=comments,
                context=context,
            )
        if method == "javascript":
            # Babel's JavaScript lexer skips a t("...") nested in another call's arguments
            # (t("{a} wins", {a: t("seat {n}")})): find every literal first argument too
            relative = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            for match in JS_CALL.finditer(text):
                message = json.loads(f'"{match[1]}"')
                if message not in template:
                    lineno = text.count("\n", 0, match.start()) + 1
                    template.add(message, locations=[(relative, lineno)])
    return template


def render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, omit_header=False, include_lineno=False)
    return out.getvalue()


def updated(lang: str, template: Catalog) -> tuple[Catalog, bytes, bytes]:
    """The catalogue of ``lang`` merged with ``template``: (catalogue, new text, old text)."""
    path = LOCALE / lang / "LC_MESSAGES" / "messages.po"
    old = path.read_bytes() if path.exists() else b""
    if old:
        catalog = read_po(io.BytesIO(old), locale=lang)
    else:
        catalog = Catalog(locale=lang, project="dicehall", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
    catalog.obsolete.clear()  # the history is in git; stale messages only confuse translators
    catalog.revision_date = catalog.creation_date = _fixed_date(old)
    return catalog, render(catalog), old


def _fixed_date(old: bytes) -> object:
    """Keep the header dates as they were, so an unchanged catalogue is byte-identical."""
    import datetime

    if old:
        try:
            previous = read_po(io.BytesIO(old))
            return previous.creation_date
        except Exception:  # a damaged header: start again
            pass
    return datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def problems(catalog: Catalog) -> list[str]:
    """Messages of ``catalog`` without a usable translation, or whose placeholders differ."""
    import re

    found = []
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        raw = message.string
        string = raw if isinstance(raw, str) else (raw[0] if raw else "")
        if message.fuzzy:
            found.append(f"fuzzy (check and clear the flag): {msgid!r}")
        elif not string:
            found.append(f"untranslated: {msgid!r}")
        else:
            want = sorted(re.findall(r"\{(\w+)\}", msgid))
            have = sorted(re.findall(r"\{(\w+)\}", string))
            if want != have:
                found.append(f"placeholders {have} instead of {want}: {msgid!r}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 on problems")
    parser.add_argument("--pot", type=Path, help="also write the template catalogue here")
    args = parser.parse_args(argv)
    template = extract()
    if args.pot:
        args.pot.write_bytes(render(template))
    status = 0
    for lang in LANGUAGES:
        catalog, new, old = updated(lang, template)
        path = LOCALE / lang / "LC_MESSAGES" / "messages.po"
        issues = problems(catalog)
        if args.check:
            if new != old:
                print(f"{path.relative_to(ROOT)} is not up to date: run scripts/i18n_update.py")
                status = 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            if new != old:
                path.write_bytes(new)
                print(f"updated {path.relative_to(ROOT)}")
        for issue in issues:
            print(f"{lang}: {issue}")
        if issues:
            status = 1
        print(f"{lang}: {len(template)} messages, {len(issues)} to translate or check")
    return status


if __name__ == "__main__":
    sys.exit(main())
