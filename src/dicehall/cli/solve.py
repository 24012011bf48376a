"""``dicehall solve``: compute (or check) a game's precomputed solver tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dicehall.cli.common import console, friendly_errors

SOLVABLE = ("whitedie",)


def register(app: typer.Typer) -> None:
    """Add ``solve`` to the command line."""

    @app.command()
    def solve(
        game: Annotated[str, typer.Argument(help="the game whose tables to build: whitedie")],
        out: Annotated[
            Path | None,
            typer.Option(help="write the tables here (default: the file shipped in the package)"),
        ] = None,
        check: Annotated[
            bool,
            typer.Option(help="recompute into a temporary file and compare with the shipped one"),
        ] = False,
        target: Annotated[
            int | None,
            typer.Option(help="also compute and cache the win table for this target"),
        ] = None,
        chart: Annotated[str, typer.Option(help="poker chart for --target")] = "standard",
        free_choices: Annotated[
            bool,
            typer.Option(help="for --target: the game with free choices (its default) or not"),
        ] = True,
    ) -> None:
        """Build the exact solver tables of GAME (White Die: half an hour or so)."""
        with friendly_errors():
            if game != "whitedie":
                raise typer.BadParameter(f"nothing to solve for {game!r}; try: whitedie")
            import tempfile

            import numpy as np

            from dicehall.bots.whitedie import solved, tables

            if target is not None:
                table = solved.winprob_table(target, chart, free_choices)
                console.print(
                    f"two-player win table for target {target}, chart {chart}, "
                    f"free choices {str(free_choices).lower()}: "
                    f"first player wins {table[0, 0]:.4f} at 0-0 "
                    f"(cached in {tables.cache_dir()})"
                )
                return
            if check:
                with tempfile.TemporaryDirectory() as tmp:
                    fresh = solved.generate(Path(tmp) / "tables.npz", log=console.print)
                    with np.load(fresh) as new, np.load(tables.PACKAGE_TABLES) as old:
                        same = set(new.files) == set(old.files) and all(
                            np.allclose(new[k], old[k], atol=1e-12) for k in new.files
                        )
                if not same:
                    console.print("[bold red]the shipped tables differ from the rules[/]")
                    raise typer.Exit(1)
                console.print("[green]the shipped tables match the rules[/]")
                return
            path = solved.generate(out or tables.PACKAGE_TABLES, log=console.print)
            console.print(f"[green]wrote {path}[/] ({path.stat().st_size // 1024} kB)")
