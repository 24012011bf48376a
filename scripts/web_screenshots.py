"""Take the README screenshots of the web app: the lobby and the backgammon board.

Starts ``dicehall serve`` on a free port with a temporary database, plays a few moves through
the browser (Debian's Chromium driven by Playwright; no browser is downloaded) and writes
``docs/screenshots/lobby.png``, ``backgammon.png`` and ``backgammon-phone.png``.

    python scripts/web_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def api(url: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def play_turn(page: Page, pick: int) -> None:
    """One backgammon turn by clicks, following the snapshot's click graph."""
    snap = page.evaluate("window.dicehall.snapshot")
    nodes = snap["moves"]["nodes"]
    node = 0
    while nodes[node]["text"] is None:
        edges = nodes[node]["edges"]
        src, dst, _die, _hit, child = edges[pick % len(edges)]
        page.click(f'#board [data-point="{src}"]')
        page.click(f'#board [data-point="{dst}"]')
        node = child
        page.wait_for_function(f"document.getElementById('board').dataset.node === '{node}'")
    page.click('#board [data-button="confirm"]')


def wait_turn(page: Page, after: int) -> dict[str, Any]:
    page.wait_for_function(
        "(a) => { const s = window.dicehall.snapshot; return s && (s.status === 'finished' ||"
        " (s.seq > a && s.moves && s.you.includes(s.to_move))); }",
        arg=after,
    )
    return page.evaluate("window.dicehall.snapshot")  # type: ignore[no-any-return]


def open_with_tokens(page: Page, url: str, game: dict[str, Any]) -> None:
    page.goto(url + "/")
    page.evaluate(
        "([id, t]) => localStorage.setItem('dicehall.tokens.v1', JSON.stringify({[id]: t}))",
        [game["id"], game["tokens"]],
    )
    page.goto(f"{url}/g/{game['id']}")
    page.wait_for_function("window.dicehall && window.dicehall.snapshot")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="dicehall-shots-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from dicehall.cli.main import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp / 'shots.sqlite3'}",
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
        ],
    )
    try:
        for _ in range(300):
            try:
                api(url, "/api/protocol")
                break
            except OSError:
                time.sleep(0.1)
        # something to show in the lobby: a finished game, a live one and an open one
        api(url, "/api/games", {"game": "backgammon", "opponent": "friend", "name": "Ann"})
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            for name, width, height, turns in (
                ("backgammon.png", 1100, 760, 7),
                ("backgammon-phone.png", 390, 844, 5),
            ):
                game = api(
                    url,
                    "/api/games",
                    {
                        "game": "backgammon",
                        "opponent": "random",
                        "name": "You",
                        "seed": "screenshot",
                    },
                )
                ctx = browser.new_context(
                    viewport={"width": width, "height": height},
                    device_scale_factor=2 if width < 500 else 1,
                )
                page = ctx.new_page()
                open_with_tokens(page, url, game)
                seq = -1
                for turn in range(turns):
                    snap = wait_turn(page, seq)
                    seq = snap["seq"]
                    play_turn(page, turn)
                snap = wait_turn(page, seq)
                # select a checker so its destinations light up
                first = snap["moves"]["nodes"][0]["edges"][0]
                page.click(f'#board [data-point="{first[0]}"]')
                page.wait_for_timeout(400)
                page.screenshot(path=str(args.out / name), full_page=width < 500)
                print("wrote", args.out / name)
                ctx.close()
            ctx = browser.new_context(viewport={"width": 1100, "height": 700})
            page = ctx.new_page()
            page.goto(url + "/")
            page.wait_for_selector("#live li[data-game]")
            page.wait_for_timeout(300)
            page.screenshot(path=str(args.out / "lobby.png"))
            print("wrote", args.out / "lobby.png")
            browser.close()
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
