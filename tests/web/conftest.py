"""Fixtures for browser tests: a real ``dicehall serve`` subprocess and headless Chromium.

See docs/web-games.md ("Browser tests"). Debian's Chromium at /usr/bin/chromium is driven by
Playwright's Python API; no browser is ever downloaded.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from dicehall_webtools import open_json

#: seconds ``dicehall serve`` may take to answer (its start-up compiles the kernels once)
START_TIMEOUT = 180

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``dicehall serve`` subprocess on a free port with its own SQLite file."""

    def __init__(
        self,
        db: Path,
        bot_delay: float = 0.0,
        extra: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.db = db
        self.extra = extra  # more ``dicehall serve`` options
        self.env = env  # more environment variables of the server process
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-c",
            "from dicehall.cli.main import main; main()",
            "serve",
            "--port",
            str(self.port),
            "--db",
            f"sqlite:///{self.db}",
            "--bot-delay",
            str(self.bot_delay),
            "--log-level",
            "warning",
            # the pages of one test come from one address right after the test's own HTTP
            # helpers played whole games (finish_over_http polls): at the server's default
            # of 20 a second the page's own requests were refused (429) and it never loaded;
            # the limits are tested in tests/server (an extra --address-rate overrides this)
            "--address-rate",
            "1000",
            *self.extra,
        ]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                cmd,
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, **self.env} if self.env else None,
            )
        # start-up warms every game up (app.tune_gc): on a fresh clone that compiles the
        # engines' kernels, a minute or more on a loaded 2-core machine
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dicehall serve exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/protocol", timeout=1):
                    return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"dicehall serve did not start in {START_TIMEOUT} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers run, as in a crash."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def api(self, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, headers={"Content-Type": "application/json"}
        )
        return open_json(req, timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server shared by the tests of one module."""
    srv = Server(tmp_path_factory.mktemp("serve") / "dicehall.sqlite3")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server for one test (to kill and restart it)."""
    srv = Server(tmp_path / "dicehall.sqlite3")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    # Playwright's wait_for_function evaluates strings, which the pages' CSP forbids
    # (tests/server/test_hardening.py checks the header; test_csp_page.py a page under it)
    ctx = browser.new_context(viewport={"width": 1100, "height": 800}, bypass_csp=True)
    ctx.set_default_timeout(30_000)
    yield ctx
    ctx.close()


@pytest.fixture
def new_game(server: Server) -> Callable[..., dict[str, Any]]:
    """Create a game over HTTP: new_game("backgammon", "random", options={...})."""

    def make(game: str, opponent: str = "random", **body: Any) -> dict[str, Any]:
        body.pop("seed", None)  # the game page sends the seed, after the commitment is public
        return server.api("/api/games", {"game": game, "opponent": opponent, **body})  # type: ignore[no-any-return]

    return make
