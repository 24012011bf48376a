"""``dicehall analyze``: mark every decision of a saved backgammon game against the bot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dicehall.cli.common import console, err_console, friendly_errors
from dicehall.core.record import Record

#: equity losses (single-game or cubeless money equity) from which a play is marked
ERROR = 0.04
BLUNDER = 0.08


def _name(record: Record, seat: int) -> str:
    return record.players[seat] if seat < len(record.players) else f"seat {seat}"


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
        """Equity lost by each play and cube action against the bot's choice; errors
        and blunders marked; per player the error rates of checker and cube play."""
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )
        from rich.table import Table

        from dicehall.bots.backgammon import Bot
        from dicehall.bots.backgammon.cube import judge_cube, judge_play
        from dicehall.games.backgammon.rules import BackgammonState

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
            # every decision (checker plays and cube actions), not the dice
            decisions = [
                n
                for n, before in enumerate(states[: len(record.actions)], 1)
                if isinstance(before, BackgammonState) and not before.is_chance_node()
            ]
            table = Table(box=None, title=f"{file.name}: equity lost per play ({level})")
            for name in ("#", "player", "dice", "played", "best", "loss", ""):
                table.add_column(name, justify="right" if name in ("#", "loss") else "left")
            totals = {
                seat: {"moves": 0, "loss": 0.0, "errors": 0, "blunders": 0} for seat in (0, 1)
            }
            cube = {seat: {"decisions": 0, "loss": 0.0, "errors": 0} for seat in (0, 1)}
            progress = Progress(
                TextColumn("[bold]analysing"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("decisions"),
                TimeRemainingColumn(),
                console=err_console,
                transient=True,
            )
            with progress:
                task = progress.add_task("analyse", total=len(decisions))
                for n in decisions:
                    text, before = record.actions[n - 1], states[n - 1]
                    assert isinstance(before, BackgammonState)
                    progress.advance(task)
                    if not before.is_checker_play():
                        judged = judge_cube(bot, before, before.parse_action(text))
                        if judged is None:
                            continue
                        c = cube[judged.seat]
                        c["decisions"] += 1
                        c["loss"] += judged.error
                        c["errors"] += bool(judged.mark)
                        if judged.mark or all_moves:
                            table.add_row(
                                str(n),
                                _name(record, judged.seat),
                                "cube",
                                judged.played,
                                judged.best,
                                f"{judged.error:.3f}",
                                judged.mark,
                                style="yellow" if judged.mark else "",
                            )
                        continue
                    actions = [a for a, _ in before.play_results()]
                    action = before.parse_action(text)
                    if len(actions) < 2 or action not in actions:
                        continue
                    seat = before.current_player()
                    played = actions.index(action)
                    verdict = judge_play(bot, before, played)  # by the score with a cube
                    mine, best, loss = verdict.mine, verdict.best, verdict.loss
                    shown = round(loss, 4)  # marked on the loss as shown, as the web replay
                    mark = "blunder" if shown >= BLUNDER else "error" if shown >= ERROR else ""
                    t = totals[seat]
                    t["moves"] += 1
                    t["loss"] += loss
                    t["errors"] += mark == "error"
                    t["blunders"] += mark == "blunder"
                    if mark or all_moves:
                        style = "bold red" if mark == "blunder" else "yellow" if mark else ""
                        table.add_row(
                            str(n),
                            record.players[seat] if seat < len(record.players) else f"seat {seat}",
                            f"{before.dice[0]}-{before.dice[1]}" if before.dice else "",
                            mine.text,
                            best.text,
                            f"{loss:.4f}",
                            mark,
                            style=style,
                        )
            console.print(table)
            summary = Table(box=None, title="totals per player")
            columns = ("player", "plays", "equity lost", "per play", "mp/play", "errors")
            for name in (*columns, "blunders"):
                summary.add_column(name, justify="left" if name == "player" else "right")
            for seat, t in totals.items():
                per = t["loss"] / t["moves"] if t["moves"] else 0.0
                summary.add_row(
                    f"seat {seat + 1} ({record.players[seat]})",
                    str(t["moves"]),
                    f"{t['loss']:.3f}",
                    f"{per:.4f}",
                    f"{1000 * per:.1f}",
                    str(t["errors"]),
                    str(t["blunders"]),
                )
            console.print(summary)
            if any(c["decisions"] for c in cube.values()):
                cubes = Table(box=None, title="cube play per player")
                for name in ("player", "decisions", "equity lost", "mp/decision", "errors"):
                    cubes.add_column(name, justify="left" if name == "player" else "right")
                for seat, c in cube.items():
                    rate = 1000 * c["loss"] / c["decisions"] if c["decisions"] else 0.0
                    cubes.add_row(
                        f"seat {seat + 1} ({record.players[seat]})",
                        str(c["decisions"]),
                        f"{c['loss']:.3f}",
                        f"{rate:.1f}",
                        str(c["errors"]),
                    )
                console.print(cubes)
            console.print(
                f"[dim]error: loss >= {ERROR}, blunder: loss >= {BLUNDER} "
                "(equity: 2 x win chance - 1 for single games; cubeless money otherwise, per "
                "cube; in a match, match winning chances normalised to the cube as gnubg "
                "does); cube errors in cubeful equity; mp = millipoints[/]"
            )
