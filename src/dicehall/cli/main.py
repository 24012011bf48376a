"""Entry point of the ``dicehall`` command: each sub-command lives in its own module."""

from __future__ import annotations

import importlib
import sys
from typing import Annotated

import typer

app = typer.Typer(
    name="dicehall",
    help="Backgammon, Coin Rows and White Die: play, replay, analyse and pit bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from dicehall.core.record import dicehall_version

        typer.echo(f"dicehall {dicehall_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="print the version and exit"
        ),
    ] = False,
) -> None:
    """Backgammon, Coin Rows and White Die: play, replay, analyse and pit bots."""


# Modules that add commands to ``app``; a module missing from an install is skipped.
COMMAND_MODULES = [
    "dicehall.cli.play",
    "dicehall.cli.replay",
    "dicehall.cli.analyze",
    "dicehall.cli.hint",
    "dicehall.cli.train",
    "dicehall.cli.arena",
    "dicehall.cli.serve",
    "dicehall.cli.verify",
    "dicehall.cli.solve",
    "dicehall.cli.rollout",
    "dicehall.cli.matfiles",
]


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(app)


def main() -> None:
    """Run the command line."""
    _load_commands()
    if sys.stdin.isatty() and sys.stdout.isatty():  # a person, not a script or a test
        from dicehall.cli.engine import precompile_in_background

        precompile_in_background()
    app()
