"""The compiled backgammon engine: a notice while it compiles, and compiling ahead.

numba compiles the backgammon kernels on their first call, once per install or
changed source (see ``dicehall.bots.backgammon.warm``). Without a word that
looks like a hang: the first bot move takes 20 s or more. So:

- ``ready(game)`` runs the warm-up before a command needs the engine, saying
  "compiling the backgammon engine, once ..." when it takes more than a moment,
  and leaves a stamp so later runs skip it;
- ``precompile_in_background()`` starts that warm-up in a detached, low-priority
  process the first time ``dicehall`` runs at a terminal, so the engine is
  usually compiled before the newcomer's first game. ``DICEHALL_NO_PRECOMPILE=1``
  turns it off; ``python -m dicehall.cli.engine`` runs it in the foreground.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from dicehall.cli.common import err_console

#: games whose engine is compiled, and the warm-up of each ("module:function")
COMPILED = {"backgammon": "dicehall.bots.backgammon.warm:warm_up"}

NOTICE = (
    "compiling the backgammon engine, once (20 s to a minute on a first run; "
    "later runs start at once) ..."
)
#: seconds a warm-up may take before the notice is shown (loading the cache is faster)
NOTICE_AFTER = 2.0
#: a precompile lock older than this (seconds) is taken to be left by a dead process
STALE_LOCK = 600.0


def _state_dir() -> Path:
    """Where stamps and the lock live: ``DICEHALL_CACHE_DIR`` if set, else beside numba's
    own cache where we may write there."""
    from dicehall.bots.backgammon import warm

    for candidate in (
        Path(os.environ["DICEHALL_CACHE_DIR"]) if os.environ.get("DICEHALL_CACHE_DIR") else None,
        Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else None,
        Path(warm.__file__).resolve().parent / "__pycache__",
        Path.home() / ".cache" / "dicehall",
    ):
        if candidate is None:
            continue
        with contextlib.suppress(OSError):
            candidate.mkdir(parents=True, exist_ok=True)
            if os.access(candidate, os.W_OK):
                return candidate
    return Path.cwd()


def stamp_path() -> Path:
    """The file that says the engine of these sources has been compiled."""
    from dicehall.bots.backgammon.warm import sources_key

    return _state_dir() / f"dicehall-engine-{sources_key()}.stamp"


def lock_path() -> Path:
    """Held (created exclusively) by a running background precompile."""
    return _state_dir() / "dicehall-engine.lock"


def is_warm() -> bool:
    """Whether a warm-up of the current sources has finished before."""
    return stamp_path().exists()


def _warm_up_function(game: str) -> Callable[[], None]:
    import importlib

    module, _, name = COMPILED[game].partition(":")
    function: Callable[[], None] = getattr(importlib.import_module(module), name)
    return function


@contextlib.contextmanager
def notice_if_slow(text: str, after: float | None = None) -> Iterator[None]:
    """Print ``text`` (on stderr) if the block runs longer than ``after`` seconds
    (default ``NOTICE_AFTER``), and how long it took once it is done."""
    wait = NOTICE_AFTER if after is None else after
    shown = threading.Event()
    done = threading.Event()
    start = time.monotonic()

    def watch() -> None:
        if not done.wait(wait):
            err_console.print(f"[yellow]{text}[/]")
            shown.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        if shown.is_set():
            err_console.print(f"[dim]engine ready ({time.monotonic() - start:.0f} s)[/]")


def _wait_for_background(limit: float) -> None:
    """Wait (up to ``limit`` seconds) while a background precompile holds the lock."""
    lock = lock_path()
    end = time.monotonic() + limit
    while lock.exists() and time.monotonic() < end:
        try:
            if time.time() - lock.stat().st_mtime > STALE_LOCK:
                return
        except OSError:
            return
        time.sleep(0.2)


def ready(game: str) -> None:
    """Make sure ``game``'s compiled engine is ready before it is needed, with a notice
    when that takes a while (a first run). Cheap for every other game and later runs."""
    if game not in COMPILED or is_warm():
        return
    with notice_if_slow(NOTICE):
        _wait_for_background(STALE_LOCK)
        if not is_warm():
            _warm_up_function(game)()
            _write_stamp()


def _write_stamp() -> None:
    with contextlib.suppress(OSError):
        stamp_path().write_text(f"{time.time():.0f}\n", encoding="utf-8")


def precompile_in_background() -> bool:
    """Start the warm-up in a detached, low-priority process when the engine is not
    compiled yet and nothing else is compiling it; True when one was started."""
    if os.environ.get("DICEHALL_NO_PRECOMPILE") or is_warm():
        return False
    lock = lock_path()
    with contextlib.suppress(OSError):
        if time.time() - lock.stat().st_mtime > STALE_LOCK:
            lock.unlink()
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except OSError:
        return False  # another process holds it
    os.close(fd)
    try:
        subprocess.Popen(
            [sys.executable, "-m", "dicehall.cli.engine", "--holding-lock"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError:
        lock.unlink(missing_ok=True)
        return False
    return True


def main(argv: list[str] | None = None) -> None:
    """``python -m dicehall.cli.engine``: compile now (``--holding-lock``: as the
    background process, which releases the lock when done)."""
    args = sys.argv[1:] if argv is None else argv
    holding = "--holding-lock" in args
    try:
        if holding:
            with contextlib.suppress(OSError):
                os.nice(10)
            _warm_up_function("backgammon")()
            _write_stamp()
        else:
            ready("backgammon")
            err_console.print("[dim]the backgammon engine is compiled[/]")
    finally:
        if holding:
            lock_path().unlink(missing_ok=True)


if __name__ == "__main__":
    main()
