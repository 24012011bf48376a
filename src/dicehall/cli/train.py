"""``dicehall train``: train a game's evaluator by self-play (backgammon: TD(λ))."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dicehall.cli.common import console, err_console


def register(app: typer.Typer) -> None:
    """Add ``train`` to the command line."""

    @app.command()
    def train(
        game: Annotated[str, typer.Argument(help="the game to train for (backgammon)")],
        games: Annotated[int, typer.Option(help="total self-play games of the run")] = 500_000,
        out: Annotated[
            Path, typer.Option(help="run directory: checkpoint.npz, log.jsonl, snapshots")
        ] = Path("runs/backgammon"),
        resume: Annotated[
            bool, typer.Option(help="continue from OUT/checkpoint.npz if it exists")
        ] = False,
        seed: Annotated[int, typer.Option(help="seed of the weights and the dice")] = 1,
        hidden: Annotated[int, typer.Option(help="hidden units")] = 128,
        alpha: Annotated[float, typer.Option(help="initial learning rate")] = 0.1,
        alpha_final: Annotated[float, typer.Option(help="learning rate after annealing")] = 0.02,
        anneal_games: Annotated[
            int, typer.Option(help="games over which the rate falls linearly")
        ] = 500_000,
        lam: Annotated[
            float, typer.Option("--lambda", help="TD(λ) trace decay; 0 is TD(0), fastest")
        ] = 0.0,
        chunk: Annotated[int, typer.Option(help="games between progress updates")] = 500,
        checkpoint_every: Annotated[int, typer.Option(help="games between checkpoints")] = 10_000,
        eval_every: Annotated[
            int, typer.Option(help="games between 0-ply tests against pubeval (0: never)")
        ] = 20_000,
        eval_pairs: Annotated[int, typer.Option(help="pairs of games per test")] = 500,
        export: Annotated[
            Path | None, typer.Option(help="also write compact float32 weights here at the end")
        ] = None,
    ) -> None:
        """Train by self-play; reproducible from --seed, resumable with --resume."""
        if game != "backgammon":
            err_console.print(f"[bold red]error:[/] no trainer for {game!r}; try backgammon")
            raise typer.Exit(2)
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        from dicehall.bots.backgammon.training import Progress as Step
        from dicehall.bots.backgammon.training import TrainConfig
        from dicehall.bots.backgammon.training import train as run

        config = TrainConfig(
            games=games,
            hidden=hidden,
            seed=seed,
            alpha=alpha,
            alpha_final=alpha_final,
            anneal_games=anneal_games,
            lam=lam,
            chunk=chunk,
            checkpoint_every=checkpoint_every,
            eval_every=eval_every,
            eval_pairs=eval_pairs,
        )
        columns = (
            TextColumn("[bold]TD self-play[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[info]}"),
        )
        from dicehall.cli.engine import ready

        ready("backgammon")  # the move generator and the search the evaluations use
        with Progress(*columns, console=console, transient=False) as bar:
            task = bar.add_task(
                "train",
                total=games,
                info="compiling the training kernels: once, up to a minute on a first run...",
            )

            def show(p: Step) -> None:
                ev = "" if p.last_eval is None else f" vs pubeval {100 * p.last_eval:.1f}%"
                info = f"α={p.alpha:.3f} plies/game={p.plies_per_game:.0f}{ev}"
                bar.update(task, completed=p.games_done, info=info)

            net = run(config, out, resume=resume, on_progress=show)
        console.print(f"checkpoint: {out / 'checkpoint.npz'} ({net!r})")
        if export is not None:
            net.save(export, compact=True)
            console.print(f"weights written to {export}")
