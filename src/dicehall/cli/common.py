"""Helpers shared by the sub-commands: options, errors, the console."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from dicehall.core.errors import DicehallError
from dicehall.core.game import Game
from dicehall.core.options import parse_option_pairs
from dicehall.core.registry import load_game

console = Console(highlight=False, soft_wrap=True)  # texts carry their own line breaks
err_console = Console(stderr=True, highlight=False)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn our own errors into a red one-line message and exit status 2."""
    try:
        yield
    except DicehallError as exc:
        err_console.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    except FileNotFoundError as exc:
        err_console.print(f"[bold red]error:[/] {escape(str(exc.filename))}: no such file")
        raise typer.Exit(2) from None


@contextmanager
def exit_on_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into ``SystemExit`` (status 128 + signal) inside the block,
    so that ``finally`` clauses run, e.g. the arena stopping its worker processes, when
    the command is killed politely or its terminal closes."""
    signals = [signal.SIGTERM, signal.SIGHUP]

    def leave(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = {sig: signal.signal(sig, leave) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def build_game(name: str, pairs: list[str] | None, **shortcuts: Any) -> Game:
    """Load ``name`` with ``--option k=v`` pairs plus shortcut flags that are set."""
    options: dict[str, Any] = dict(parse_option_pairs(pairs or []))
    options.update({k: v for k, v in shortcuts.items() if v is not None})
    return load_game(name, **options)


def interactive() -> bool:
    """True when a person types at a terminal (not a pipe)."""
    return sys.stdin.isatty()
