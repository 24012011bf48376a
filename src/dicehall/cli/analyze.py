"""``dicehall analyze``: mark every decision of a saved backgammon game against the bot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dicehall.cli.common import console, err_console, friendly_errors
from dicehall.core.record import Record

#: equity losses (single-game or cubeless money equity) from which a play is marked
ERROR = 0.04
BLUNDER = 0.08


def _judge(
    bot: Any, before: Any, text: str, totals: dict[int, dict[str, Any]]
) -> tuple[int, str, str, float, str]:
    """Rank the play ``text`` made in ``before`` against the bot's best: (seat, play,
    best play, equity lost, mark), with the seat's totals updated."""
    actions = [a for a, _ in before.play_results()]
    seat = before.current_player()
    played = actions.index(before.parse_action(text))
    ranked = bot.rank(before)
    best = ranked[0]
    mine = next(pv for pv in ranked if pv.index == played)
    equity = mine.equity
    if mine.depth < best.depth:
        _, equity = bot.value_of(before, played, best.depth)
    loss = max(0.0, best.equity - equity) if played != best.index else 0.0
    mark = "blunder" if loss >= BLUNDER else "error" if loss >= ERROR else ""
    t = totals[seat]
    t["moves"] += 1
    t["loss"] += loss
    t["errors"] += mark == "error"
    t["blunders"] += mark == "blunder"
    return seat, mine.text, best.text, loss, mark


def register(app: typer.Typer) -> None:
    """Add ``analyze`` to the command line."""

    @app.command()
    def analyze(
        file: Annotated[Path, typer.Argument(help="a JSON record saved by play --save")],
        level: Annotated[
            str, typer.Option(help="bot level whose search judges the plays")
        ] = "expert",
        all_moves: Annotated[
            bool, typer.Option("--all", help="list every decision, not only the marked ones")
        ] = False,
    ) -> None:
        """Equity lost by each play against the bot's choice; errors and blunders marked."""
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )
        from rich.table import Table

        from dicehall.bots.backgammon import Bot
        from dicehall.games.backgammon.rules import BackgammonState, Play

        with friendly_errors():
            record = Record.load(file)
            if record.game != "backgammon":
                err_console.print(
                    f"[bold red]error:[/] analyze knows backgammon only, not {record.game}"
                )
                raise typer.Exit(2)
            try:
                bot = Bot(level)
            except ValueError as exc:
                err_console.print(f"[bold red]error:[/] --level: {exc}")
                raise typer.Exit(2) from None
            from dicehall.cli.engine import ready

            ready("backgammon")
            states = list(record.states())
            decisions = [
                n
                for n, (text, before) in enumerate(zip(record.actions, states, strict=False), 1)
                # checker play only (not dice, cube or resignations), and not forced plays
                if isinstance(before, BackgammonState)
                and before.is_checker_play()
                and isinstance(before.parse_action(text), Play)
                and len(list(before.play_results())) > 1
            ]
            table = Table(box=None, title=f"{file.name}: equity lost per play ({level})")
            for name in ("#", "player", "dice", "played", "best", "loss", ""):
                table.add_column(name, justify="right" if name in ("#", "loss") else "left")
            totals = {
                seat: {"moves": 0, "loss": 0.0, "errors": 0, "blunders": 0} for seat in (0, 1)
            }
            progress = Progress(
                TextColumn("[bold]analysing"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("plays"),
                TimeRemainingColumn(),
                console=err_console,
                transient=True,
            )
            with progress:
                task = progress.add_task("analyse", total=len(decisions))
                for n in decisions:
                    text, before = record.actions[n - 1], states[n - 1]
                    assert isinstance(before, BackgammonState)
                    seat, mine, best, loss, mark = _judge(bot, before, text, totals)
                    progress.advance(task)
                    if not (mark or all_moves):
                        continue
                    style = "bold red" if mark == "blunder" else "yellow" if mark else ""
                    table.add_row(
                        str(n),
                        record.players[seat] if seat < len(record.players) else f"seat {seat}",
                        f"{before.dice[0]}-{before.dice[1]}" if before.dice else "",
                        mine,
                        best,
                        f"{loss:.3f}",
                        mark,
                        style=style,
                    )
            console.print(table)
            summary = Table(box=None, title="totals per player")
            for name in ("player", "plays", "equity lost", "per play", "errors", "blunders"):
                summary.add_column(name, justify="left" if name == "player" else "right")
            for seat, t in totals.items():
                per = t["loss"] / t["moves"] if t["moves"] else 0.0
                summary.add_row(
                    f"seat {seat + 1} ({record.players[seat]})",
                    str(t["moves"]),
                    f"{t['loss']:.3f}",
                    f"{per:.4f}",
                    str(t["errors"]),
                    str(t["blunders"]),
                )
            console.print(summary)
            console.print(
                f"[dim]error: loss >= {ERROR}, blunder: loss >= {BLUNDER} "
                "(equity: 2 x win chance - 1 for single games; cubeless money otherwise)[/]"
            )
