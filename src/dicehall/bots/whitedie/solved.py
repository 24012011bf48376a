"""The tables that take solving: two-player win probabilities for any options (cached on
disk) and the regeneration of every shipped table (``dicehall solve whitedie``).

Kept apart from ``tables`` (which only reads), because solving needs the solvers, and
the solvers read the tables.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dicehall.bots.whitedie.tables import (
    PACKAGE_TABLES,
    Tables,
    cache_dir,
    compute_matching,
    compute_tictactoe,
    load_tables,
    order_key_name,
    winprob_key,
)
from dicehall.bots.whitedie.winprob import solve_two_player


def winprob_table(target: int, chart: str, free: bool = False) -> npt.NDArray[np.float64]:
    """Two-player winning chances (shipped, cached on disk, or computed now); ``free``:
    for the game with free choices (the player arranges Pips and decides the claim).

    The shipped default tables (with and without free choices) are exact (tic-tac-toe
    by the order of the worth of its scores where that is not the score order). A table
    computed on first use values tic-tac-toe by its score minimax at those few pairs
    (``exact=False``: a minute, not the half hour the order tables take); the bot's own
    tic-tac-toe play is exact either way."""
    key = winprob_key(target, chart, free)
    shipped = load_tables().winprob.get(key)
    if shipped is not None:
        return shipped
    path = cache_dir() / f"whitedie-{key}.npy"
    if path.exists():
        table: npt.NDArray[np.float64] = np.load(path)
        if table.shape == (target, target):
            return table
    table = solve_two_player(target, chart, exact=False, free=free).win
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp.npy")
        np.save(tmp, table)
        tmp.replace(path)
    except OSError:
        pass  # a read-only cache only costs time
    return table


def generate(
    path: Path = PACKAGE_TABLES,
    *,
    log: Callable[[str], None] = print,
) -> Path:
    """Recompute every shipped table and write them to ``path``."""
    start = time.time()
    matching = compute_matching()
    log(f"matching scores: done in {time.time() - start:.0f} s")
    tic = compute_tictactoe(lambda i: log(f"tic-tac-toe: {i + 1}/126") if i % 25 == 24 else None)
    log(f"tic-tac-toe minimax: done in {time.time() - start:.0f} s")
    from dicehall.core.registry import load_game

    game = load_game("whitedie")
    target, chart = int(game.options["target"]), str(game.options["poker_chart"])
    base = Tables(matching, tic, {})
    guess = solve_two_player(target, chart, base, exact=False).win  # spares transient orders
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "matching": matching.astype(np.int8),
        "tictactoe": tic.astype(np.int8),
    }
    for free in (True, False):  # the default game (free choices), and free_choices=false
        sol = solve_two_player(target, chart, base, start=guess, free=free)
        arrays[winprob_key(target, chart, free)] = sol.win
        arrays.update({order_key_name(k): v.astype(np.int8) for k, v in sol.orders.items()})
        log(
            f"win probabilities ({target}, {chart}, free choices {free}, {len(sol.orders)} "
            f"tic-tac-toe order tables): done in {time.time() - start:.0f} s"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    tmp.replace(path)
    load_tables.cache_clear()
    return path
