"""``dicehall replay``: step through a saved game record, back and forth.

At a terminal the replay waits after every action for a command (Enter: next,
``b``: back, a number: that action, ``s``/``e``: start/end, ``q``: quit); from
a pipe it prints the whole game, or, with ``--step``, reads those commands from
the input. Boards are drawn from one seat's side throughout (``--seat``), so X
and O never swap.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from dicehall.cli.common import console, friendly_errors, interactive
from dicehall.cli.views import TerminalView
from dicehall.core.game import State
from dicehall.core.record import Record

STEP_HELP = (
    "Enter or n: next action, b: back one, a number: go to that action, s: start, e: end, q: quit"
)
STEP_PROMPT = "replay (Enter next, b back, NUMBER, s, e, q)> "


def view_title(game: str) -> str:
    """The game's title, or its name when the record names an unknown game."""
    from dicehall.core.registry import game_class

    try:
        return game_class(game).title
    except KeyError:
        return game


class Replayer:
    """Shows one record's positions: ``at`` actions played, from ``seat``'s side."""

    def __init__(self, record: Record, view: TerminalView, seat: int, boards: bool) -> None:
        self.record = record
        self.view = view
        self.seat = seat
        self.boards = boards
        self.states: list[State] = list(record.states())

    @property
    def last(self) -> int:
        """The number of actions in the record."""
        return len(self.record.actions)

    def line(self, n: int) -> None:
        """Print action ``n`` (1-based): who did what, and the game's note on it."""
        before, after = self.states[n - 1], self.states[n]
        text = self.record.actions[n - 1]
        who = before.current_player()
        actor = "dice" if before.is_chance_node() else f"seat {who + 1}"
        console.print(f"[dim]{n:4}[/] {actor}: [green]{text}[/]")
        note = self.view.describe(before, text, after)
        if note:
            console.print(f"      [italic]{note}[/]")

    def board(self, n: int) -> None:
        """Draw the position after ``n`` actions."""
        console.print(self.view.render(self.states[n], self.seat))

    def ending(self) -> None:
        """Say how the game ended, or that the record stops before the end."""
        final = self.states[-1]
        if final.is_terminal():
            console.print(f"[bold]{self.view.summary(final)}[/]")
        else:
            console.print("[yellow]the record ends before the game is over[/]")

    def print_all(self) -> None:
        """The whole game at once (boards after each decision unless ``boards`` is off)."""
        for n in range(1, self.last + 1):
            self.line(n)
            if self.boards and not self.states[n - 1].is_chance_node():
                self.board(n)
        self.ending()

    def show(self, n: int) -> None:
        """Position ``n`` in step mode: the action that led there, then the board."""
        if n == 0:
            console.print(f"[dim]   0[/] start ({self.last} actions in the record)")
        else:
            self.line(n)
        if self.boards:
            self.board(n)
        if n == self.last:
            self.ending()

    def step(self, read: Callable[[str], str]) -> None:
        """Step through the game with commands from ``read(prompt)`` until ``q`` or the
        input ends."""
        at = 0
        self.show(at)
        while True:
            try:
                command = read(STEP_PROMPT).strip().lower()
            except EOFError:
                return
            target = self.target(command, at)
            if target is None:
                return
            if target == at:
                if command in ("", "n", "next"):
                    console.print("[dim]the end of the record; b goes back, q quits[/]")
                elif command in ("b", "back", "p"):
                    console.print("[dim]the start of the record; Enter goes on, q quits[/]")
                continue
            at = target
            self.show(at)

    def target(self, command: str, at: int) -> int | None:
        """Where ``command`` goes from position ``at``; None to stop."""
        if command in ("q", "quit", "exit"):
            return None
        if command in ("", "n", "next", "f", "forward"):
            return min(at + 1, self.last)
        if command in ("b", "back", "p", "prev"):
            return max(at - 1, 0)
        if command in ("s", "start", "0"):
            return 0
        if command in ("e", "end"):
            return self.last
        if command.isdigit() and len(command) < 10:
            wanted = int(command)
            if wanted <= self.last:
                return wanted
            console.print(f"[yellow]the record has {self.last} actions: choose 0 to {self.last}[/]")
            return at
        shown = command if len(command) <= 20 else command[:19] + "…"
        console.print(f"[yellow]{shown!r}: {STEP_HELP}[/]", markup=True)
        return at


def _read(prompt: str) -> str:
    if interactive():
        return console.input(f"[dim]{prompt}[/]")
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the command line."""

    @app.command()
    def replay(
        file: Annotated[Path, typer.Argument(help="a JSON record saved by play --save")],
        step: Annotated[
            bool | None,
            typer.Option(
                help="step through it: Enter next, b back, a number jumps, q quits "
                "(default at a terminal; from a pipe the commands are read from the input)"
            ),
        ] = None,
        boards: Annotated[bool, typer.Option(help="draw the board after every decision")] = True,
        seat: Annotated[
            int, typer.Option(help="draw every board from this seat's side (1 = seat 1)", min=1)
        ] = 1,
    ) -> None:
        """Replay a saved game, action by action, verifying every move."""
        from dicehall.cli.views import get_view

        with friendly_errors():
            record = Record.load(file)
            view = get_view(record.game)
            players = record.players
            if seat > max(1, len(players)):
                raise typer.BadParameter(f"--seat must be 1..{len(players)} for this record")
            replayer = Replayer(record, view, seat - 1, boards)
            options = ", ".join(f"{k}={v}" for k, v in record.options.items())
            header = record.header()
            when = f"  {header['date']}" if header["date"] else ""
            console.print(
                f"[bold]{view_title(record.game)}[/] ({options})  players: {', '.join(players)}"
                f"{when}"
            )
            stepping = interactive() if step is None else step
            if stepping:
                console.print(f"[dim]{STEP_HELP}[/]")
                try:
                    replayer.step(_read)
                except KeyboardInterrupt:
                    console.print()
            else:
                replayer.print_all()
