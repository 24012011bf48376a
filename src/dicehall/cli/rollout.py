"""``dicehall rollout``: roll out the best candidate plays of a backgammon position.

    dicehall rollout 4HPwATDgc/ABMA 3-1 --trials 1296 --truncate 0 --seed 1

The position is a GNU Backgammon Position ID (the player on roll first) or
``start``; the expert ranks the plays, the best ``--candidates`` are rolled out
with common, seeded dice (``dicehall.bots.backgammon.rollout``), and a table shows
each one's equity with its standard error, win and gammon rates. ``--workers``
processes share the trials; ``--ray ADDRESS`` (or ``local``) runs them on a Ray
cluster instead (``pip install 'dicehall[cluster]'``), with the same numbers.
``--prune N`` lets the pruning net (``bots/backgammon/prune.py``) choose the N plays of
each roll that the players value, about twice as fast.
The same table is what ``hint --rollout`` shows while playing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated

import typer

from dicehall.cli.common import console, err_console, friendly_errors

if TYPE_CHECKING:
    from rich.table import Table

    from dicehall.games.backgammon.rules import BackgammonState

START = "4HPwATDgc/ABMA"


def parse_dice(text: str) -> tuple[int, int]:
    """``"3-1"`` (or ``31``, ``3 1``) as ``(3, 1)``, high die first; raises
    ``typer.BadParameter`` otherwise."""
    m = re.fullmatch(r"\s*([1-6])\s*[-, ]?\s*([1-6])\s*", text)
    if not m:
        raise typer.BadParameter(f"{text!r} is not a roll: write two dice 1-6, e.g. 3-1")
    a, b = int(m.group(1)), int(m.group(2))
    return max(a, b), min(a, b)


def rollout_table(
    state: BackgammonState,
    *,
    candidates: int = 5,
    trials: int = 1296,
    truncate: int = 0,
    seed: int = 1,
    workers: int = 1,
    ray_address: str | None = None,
    vr: bool = True,
    progress: bool = True,
    prune: int = 0,
) -> Table:
    """Roll out the expert's best ``candidates`` plays of ``state``: a rich table."""
    from rich.progress import Progress
    from rich.table import Table

    from dicehall.bots.backgammon import Bot, is_single
    from dicehall.bots.backgammon.rollout import rollout_many
    from dicehall.games.backgammon.fast import plays, to_array

    assert state.dice is not None
    ranked = Bot("expert").rank(state)[: max(1, candidates)]
    _, _, boards, _ = plays(to_array(state.board), *state.dice)
    starts = [boards[pv.index].copy() for pv in ranked]
    single = is_single(state)
    kwargs = dict(
        trials=trials,
        seed=seed,
        truncate=truncate,
        vr=vr,
        single=single,
        workers=workers,
        ray_address=ray_address,
        prune=prune,
    )
    if progress:
        with Progress(console=err_console, transient=True) as bar:
            task = bar.add_task(f"rolling out {len(starts)} plays", total=1.0)
            results = rollout_many(
                starts,
                progress=lambda done, total: bar.update(task, completed=done / total),
                **kwargs,  # type: ignore[arg-type]
            )
    else:
        results = rollout_many(starts, **kwargs)  # type: ignore[arg-type]
    order = sorted(range(len(results)), key=lambda k: -results[k].equity)
    how = f"{trials} trials" + (f", truncated at {truncate} plies" if truncate else "")
    how += ", variance reduction" if vr else ""
    how += f", pruned to {prune}" if prune else ""
    table = Table(
        title=f"rollout: {state.dice[0]}-{state.dice[1]} ({how}, seed {seed}; "
        f"{'single game' if single else 'money, cubeless'} equity)",
        title_justify="left",
        box=None,
    )
    for name in ("#", "play", "equity", "± s.e.", "diff", "win", "gammon", "lose gammon", "0-ply"):
        table.add_column(name, justify="left" if name == "play" else "right")
    best = results[order[0]].equity
    for rank, k in enumerate(order, 1):
        r, pv = results[k], ranked[k]
        table.add_row(
            str(rank),
            pv.text,
            f"{r.equity:+.3f}",
            f"{r.stderr:.3f}",
            "" if rank == 1 else f"{r.equity - best:+.3f}",
            f"{100 * r.probs[0]:.1f}%",
            f"{100 * r.probs[1]:.1f}%",
            f"{100 * r.probs[3]:.1f}%",
            f"{pv.equity:+.3f}",
            style="bold green" if rank == 1 else "",
        )
    return table


def register(app: typer.Typer) -> None:
    """Add ``rollout`` to the command line."""

    @app.command()
    def rollout(
        position: Annotated[
            str, typer.Argument(help="a GNU Backgammon Position ID (on roll first) or 'start'")
        ],
        dice: Annotated[str, typer.Argument(help="the roll to play, e.g. 3-1")],
        trials: Annotated[int, typer.Option(help="games per candidate play")] = 1296,
        truncate: Annotated[
            int, typer.Option(help="stop each game after this many plies (0: play it out)")
        ] = 0,
        seed: Annotated[int, typer.Option(help="seed of the dice streams")] = 1,
        candidates: Annotated[int, typer.Option(help="best plays (by the expert) rolled out")] = 5,
        workers: Annotated[
            int, typer.Option(help="processes sharing the trials (0: one per core)")
        ] = 0,
        ray: Annotated[
            str | None,
            typer.Option(help="run on Ray: a cluster address, or 'local' (dicehall[cluster])"),
        ] = None,
        scoring: Annotated[str, typer.Option(help="single or standard (cubeless money)")] = (
            "single"
        ),
        vr: Annotated[bool, typer.Option(help="variance reduction (luck adjustment)")] = True,
        prune: Annotated[
            int,
            typer.Option(
                help="value only the N plays of each roll the pruning net ranks best "
                "(about twice as fast; 0: every play)"
            ),
        ] = 0,
    ) -> None:
        """Roll out the best plays of a position: equity with standard errors."""
        import dataclasses

        from dicehall import load_game
        from dicehall.bots.backgammon.rollout import default_workers
        from dicehall.games.backgammon.notation import decode_position_id
        from dicehall.games.backgammon.rules import BackgammonState

        with friendly_errors():
            try:
                board = decode_position_id(START if position == "start" else position)
            except ValueError as exc:
                raise typer.BadParameter(str(exc), param_hint="POSITION") from None
            roll = parse_dice(dice)
            if scoring not in ("single", "standard"):
                raise typer.BadParameter(f"{scoring!r}: choose single or standard")
            if candidates < 1:
                raise typer.BadParameter(f"--candidates must be at least 1, not {candidates}")
            initial = load_game("backgammon", scoring=scoring).new_initial_state()
            assert isinstance(initial, BackgammonState)
            state = dataclasses.replace(initial, board=board, turn=0, dice=roll, opening=False)
            if state.is_terminal() or not state.legal_actions():
                raise typer.BadParameter("the game is over in that position")
            try:
                table = rollout_table(
                    state,
                    candidates=candidates,
                    trials=trials,
                    truncate=truncate,
                    seed=seed,
                    workers=workers or default_workers(),
                    ray_address=ray,
                    vr=vr,
                    prune=prune,
                )
            except (ValueError, RuntimeError) as exc:
                err_console.print(f"[bold red]error:[/] {exc}")
                raise typer.Exit(2) from None
            console.print(table)
