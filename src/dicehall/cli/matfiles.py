"""``dicehall export`` and ``dicehall import``: backgammon records as ``.mat`` files.

``.mat`` is the match text format of Jellyfish and GNU Backgammon; see
``dicehall.games.backgammon.mat`` for what it holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dicehall.cli.common import console, friendly_errors
from dicehall.core.errors import RecordError
from dicehall.core.options import parse_option_pairs
from dicehall.core.record import Record

FORMATS = ("mat", "json")


def _describe(record: Record) -> str:
    from dicehall.games.backgammon.rules import BackgammonState

    final = record.final_state()
    if not isinstance(final, BackgammonState):
        return ""
    length = final.match_length
    what = f"{length}-point match" if length else "money play"
    games = len(final.history)
    score = f"{final.match_score[0]}-{final.match_score[1]}"
    done = "finished" if final.is_terminal() else "unfinished"
    return f"{what}, {games} game{'s' * (games != 1)} finished, score {score} ({done})"


def register(app: typer.Typer) -> None:
    """Add ``export`` and ``import`` to the command line."""

    @app.command("export")
    def export(
        file: Annotated[Path, typer.Argument(help="a JSON record (play --save, the web app)")],
        format: Annotated[str, typer.Option("--format", "-f", help="mat or json")] = "mat",
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="where to write (default: FILE.mat)")
        ] = None,
    ) -> None:
        """Write a saved backgammon game, match or money session as a .mat file."""
        from dicehall.games.backgammon.mat import export_mat

        with friendly_errors():
            if format not in FORMATS:
                raise RecordError(f"--format {format!r}: expected one of {', '.join(FORMATS)}")
            record = Record.load(file)
            target = output or file.with_suffix("." + format)
            text = export_mat(record) if format == "mat" else record.to_json() + "\n"
            target.write_text(text, encoding="utf-8")
            console.print(f"wrote {target}: {_describe(record)}")

    @app.command("import")
    def import_(
        file: Annotated[Path, typer.Argument(help="a .mat file (GNU Backgammon, Jellyfish)")],
        output: Annotated[
            Path | None,
            typer.Option("--output", "-o", help="the JSON record to write (default: FILE.json)"),
        ] = None,
        option: Annotated[
            list[str] | None,
            typer.Option("--option", help="game option name=value, e.g. jacoby=true"),
        ] = None,
    ) -> None:
        """Read a .mat file, replay every game to check it, and save it as a JSON record."""
        from dicehall.games.backgammon.mat import import_mat

        with friendly_errors():
            try:
                text = file.read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                raise RecordError(f"cannot read {file}: {exc.strerror}") from exc
            record = import_mat(text, **parse_option_pairs(option or []))
            record.meta["source"] = file.name
            target = output or file.with_suffix(".json")
            record.save(target)
            console.print(f"wrote {target}: {_describe(record)}")
