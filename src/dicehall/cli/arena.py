"""``dicehall arena`` and ``dicehall simulate``: many games between bots, and what they show."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from dicehall.arena.summary import ArenaSummary, SimulationSummary
from dicehall.cli.common import build_game, console, exit_on_signals, friendly_errors
from dicehall.cli.engine import ready

GamesOption = Annotated[int, typer.Option("--games", "-n", help="number of games", min=1)]
WorkersOption = Annotated[
    int,
    typer.Option("--workers", "-w", help="worker processes (results do not depend on it)", min=1),
]
SeedOption = Annotated[
    int, typer.Option(help="master seed: every game's dice and bots derive from it")
]
OptionsOption = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="game option name=value (repeatable)")
]
OutOption = Annotated[
    Path | None, typer.Option("--out", help="save every game and the summary as JSON")
]
PlotOption = Annotated[
    Path | None, typer.Option("--plot", help="save a PNG of the running score and game lengths")
]
PlayersOption = Annotated[int | None, typer.Option(help="number of players (whitedie)")]


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[score]}"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def _elo(value: float) -> str:
    return f"{value:+.0f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def _finish(report: Any, out: Path | None, plot: Path | None) -> None:
    if out is not None:
        report.save(out)
        console.print(f"[dim]results saved to {out}[/]")
    if plot is not None:
        report.plot(plot)
        console.print(f"[dim]plot saved to {plot}[/]")


def _options(
    game: str, option: list[str] | None, players: int | None
) -> tuple[str, dict[str, Any]]:
    g = build_game(game, option, players=players)
    return g.name, dict(g.options)


def draw_note(game: str, options: dict[str, Any], draws: int, games: int) -> str | None:
    """Why so many games were drawn, when at least a third were; None otherwise."""
    if games == 0 or 3 * draws < games:
        return None
    share = f"{draws} of {games} games were drawn"
    if game == "coinrows" and options.get("leaving", False):
        return (
            f"{share}. In Coin Rows a tied player may leave for a draw, and before any "
            "coin is won both players are tied, so even a random player ends many games "
            "drawn; the bot's strength shows with -o leaving=false (see docs/bots/coinrows.md)."
        )
    return f"{share}: the score counts a draw as half a win."


RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        help="play on a Ray cluster: its address, or 'local' (pip install 'dicehall[cluster]')",
    ),
]


def register(app: typer.Typer) -> None:
    """Add ``arena`` and ``simulate`` to the command line."""

    @app.command()
    def arena(
        game: Annotated[str, typer.Argument(help="backgammon, coinrows or whitedie")],
        bot_a: Annotated[str, typer.Argument(help="agent spec, e.g. bot:expert, mcts:500")],
        bot_b: Annotated[str, typer.Argument(help="agent spec of the opponent(s)")],
        games: GamesOption = 100,
        workers: WorkersOption = 1,
        seed: SeedOption = 0,
        option: OptionsOption = None,
        players: PlayersOption = None,
        common_dice: Annotated[
            bool,
            typer.Option(help="each rotation of seats replays the same dice (duplicate play)"),
        ] = False,
        records: Annotated[bool, typer.Option(help="keep every game's record in --out")] = True,
        out: OutOption = None,
        plot: PlotOption = None,
        ray: RayOption = None,
    ) -> None:
        """Play BOT_A against BOT_B (which fills every other seat), seats rotated."""
        from dicehall.arena import run_arena
        from dicehall.arena.summary import pairwise_score
        from dicehall.bots.registry import make_agent

        with friendly_errors():
            name, options = _options(game, option, players)
            ready(name)  # compiled once here, not once in every worker
            for spec in (bot_a, bot_b):
                if make_agent(name, spec, seed=0) is None:
                    raise typer.BadParameter(f"{spec!r}: the arena plays bots, not people")
            total = 0.0
            done = 0
            with exit_on_signals(), _progress() as bar:
                task = bar.add_task(f"{bot_a} vs {bot_b}", total=games, score="")

                def tick(result: Any) -> None:
                    nonlocal total, done
                    total += pairwise_score(result.returns, result.index % len(result.returns))
                    done += 1
                    bar.update(task, advance=1, score=f"score {total / done:.3f}")

                report = run_arena(
                    name,
                    bot_a,
                    bot_b,
                    games,
                    seed=seed,
                    workers=workers,
                    options=options,
                    common_dice=common_dice,
                    keep_records=records,
                    progress=tick,
                    ray_address=ray,
                )
            s = report.summary
            assert isinstance(s, ArenaSummary)
            table = Table(title=f"{name}: {bot_a} vs {bot_b}, {games} games (seed {seed})")
            table.add_column("figure")
            table.add_column(f"{bot_a}", justify="right")
            table.add_row("wins / draws / losses", f"{s.wins} / {s.draws} / {s.losses}")
            ws = s.win_share
            table.add_row("wins, 95% interval", f"{ws.mean:.1%} ({ws.low:.1%} .. {ws.high:.1%})")
            table.add_row("score (win 1, draw 1/2)", f"{s.score.mean:.3f}")
            table.add_row("95% interval (Wilson)", f"{s.score.low:.3f} .. {s.score.high:.3f}")
            mr = s.mean_return
            table.add_row(
                "mean return",
                f"{mr.mean:+.3f} ({mr.low:+.3f} .. {mr.high:+.3f})",
            )
            table.add_row(
                "Elo difference", f"{_elo(s.elo)} ({_elo(s.elo_low)} .. {_elo(s.elo_high)})"
            )
            table.add_row(
                "decisions per game",
                f"{s.lengths.get('mean', 0):.1f} (median {s.lengths.get('median', 0):g})",
            )
            table.add_row("decisions per second", f"{s.decisions_per_second:,.0f}")
            table.add_row("time", f"{s.seconds:.1f} s with {workers} worker(s)")
            if s.unfinished:
                table.add_row("unfinished games", str(s.unfinished))
            console.print(table)
            note = draw_note(name, options, s.draws, s.games)
            if note:
                console.print(f"[yellow]note:[/] {note}")
            _finish(report, out, plot)

    @app.command()
    def simulate(
        game: Annotated[str, typer.Argument(help="backgammon, coinrows or whitedie")],
        games: GamesOption = 1000,
        bot: Annotated[
            list[str] | None,
            typer.Option(
                "--bot", "-b", help="agent spec per seat (repeat; the last fills the rest)"
            ),
        ] = None,
        workers: WorkersOption = 1,
        seed: SeedOption = 0,
        option: OptionsOption = None,
        players: PlayersOption = None,
        out: OutOption = None,
        plot: PlotOption = None,
        ray: RayOption = None,
    ) -> None:
        """Answer design questions: first-player advantage, game lengths, the game's statistics."""
        from dicehall.arena import run_simulation

        with friendly_errors():
            name, options = _options(game, option, players)
            ready(name)
            from dicehall.core.registry import load_game

            n = load_game(name, **options).num_players
            specs = list(bot or ["random"])
            lineup = [specs[min(i, len(specs) - 1)] for i in range(n)]
            with exit_on_signals(), _progress() as bar:
                task = bar.add_task(f"{name}: {', '.join(lineup)}", total=games, score="")
                report = run_simulation(
                    name,
                    games,
                    lineup,
                    seed=seed,
                    workers=workers,
                    options=options,
                    progress=lambda _r: bar.update(task, advance=1),
                    ray_address=ray,
                )
            s = report.summary
            assert isinstance(s, SimulationSummary)
            table = Table(title=f"{name}: {', '.join(lineup)}, {games} games (seed {seed})")
            table.add_column("figure")
            table.add_column("value", justify="right")
            fp = s.first_player_score
            table.add_row(
                "first player's score (0.5 = fair)",
                f"{fp.mean:.3f} ({fp.low:.3f} .. {fp.high:.3f})",
            )
            fr = s.first_player_return
            table.add_row(
                "first player's mean return", f"{fr.mean:+.3f} ({fr.low:+.3f} .. {fr.high:+.3f})"
            )
            for seat, wins in enumerate(s.seat_wins):
                table.add_row(f"seat {seat + 1} wins", f"{wins} ({wins / max(1, s.games):.1%})")
            table.add_row("draws", f"{s.draws} ({s.draws / max(1, s.games):.1%})")
            lengths = s.lengths
            table.add_row(
                "decisions per game",
                f"mean {lengths.get('mean', 0):.1f}, median {lengths.get('median', 0):g}, "
                f"10-90% {lengths.get('p10', 0):g}-{lengths.get('p90', 0):g}, "
                f"max {lengths.get('max', 0):g}",
            )
            for stat, est in s.statistics.items():
                if est["n"]:
                    table.add_row(stat, f"{est['mean']:.3f}  (n={est['n']})")
            table.add_row("decisions per second", f"{s.decisions_per_second:,.0f}")
            if s.unfinished:
                table.add_row("unfinished games", str(s.unfinished))
            console.print(table)
            _finish(report, out, plot)
