"""``dicehall verify RECORD``: check every roll of a finished server game against its seeds."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dicehall.cli.common import console, err_console, friendly_errors


def register(app: typer.Typer) -> None:
    """Add ``verify`` to the command line."""

    @app.command()
    def verify(
        record: Annotated[Path, typer.Argument(help="a record downloaded from dicehall serve")],
        verbose: Annotated[bool, typer.Option("--verbose", "-v", help="list every roll")] = False,
    ) -> None:
        """Recompute every roll from the revealed server seed and the players' seeds."""
        from dicehall.core.fairness import commitment, fairness_meta, verify_record
        from dicehall.core.record import Record

        with friendly_errors():
            rec = Record.load(record)
            info = fairness_meta(rec.meta)
            checks = verify_record(rec)
            console.print(f"commitment  {info['commitment']}")
            console.print(f"server seed {info['server_seed']}")
            console.print(f"sha-256     {commitment(info['server_seed'])}  [green]matches[/]")
            seeds = ", ".join(repr(s) for s in info.get("player_seeds", []))
            console.print(f"player seeds {seeds or '(none)'}")
            bad = [c for c in checks if not c.ok]
            for c in checks:
                if verbose or not c.ok:
                    faces = "-".join(map(str, c.faces)) if c.faces else ""
                    mark = "[green]ok[/]" if c.ok else "[bold red]MISMATCH[/]"
                    console.print(
                        f"  action {c.index + 1:4}: recorded {c.recorded:>8}  "
                        f"seeds give {c.expected:>8} {faces:>8}  {mark}"
                    )
            if bad:
                err_console.print(
                    f"[bold red]{len(bad)} of {len(checks)} rolls do not match the seeds[/]"
                )
                raise typer.Exit(1)
            console.print(f"[bold green]all {len(checks)} rolls match the seeds[/]")
