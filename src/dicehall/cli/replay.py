"""``dicehall replay``: step through a saved game record."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dicehall.cli.common import console, friendly_errors, interactive
from dicehall.cli.views import get_view
from dicehall.core.record import Record


def view_title(game: str) -> str:
    """The game's title, or its name when the record names an unknown game."""
    from dicehall.core.registry import game_class

    try:
        return game_class(game).title
    except KeyError:
        return game


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the command line."""

    @app.command()
    def replay(
        file: Annotated[Path, typer.Argument(help="a JSON record saved by play --save")],
        step: Annotated[
            bool, typer.Option(help="wait for Enter after each action (at a terminal)")
        ] = False,
        boards: Annotated[bool, typer.Option(help="draw the board after every decision")] = True,
    ) -> None:
        """Replay a saved game, action by action, verifying every move."""
        with friendly_errors():
            record = Record.load(file)
            view = get_view(record.game)
            states = list(record.states())
            options = ", ".join(f"{k}={v}" for k, v in record.options.items())
            console.print(
                f"[bold]{view_title(record.game)}[/] ({options})  "
                f"players: {', '.join(record.players)}"
            )
            for n, (text, before, after) in enumerate(
                zip(record.actions, states, states[1:], strict=False), 1
            ):
                who = before.current_player()
                actor = "dice" if before.is_chance_node() else f"seat {who + 1}"
                console.print(f"[dim]{n:4}[/] {actor}: [green]{text}[/]")
                note = view.describe(before, text, after)
                if note:
                    console.print(f"      [italic]{note}[/]")
                if boards and not before.is_chance_node():
                    console.print(view.render(after, None))
                if step and interactive():
                    console.input("[dim]Enter for the next action[/]")
            final = states[-1]
            if final.is_terminal():
                console.print(f"[bold]{view.summary(final)}[/]")
            else:
                console.print("[yellow]the record ends before the game is over[/]")
