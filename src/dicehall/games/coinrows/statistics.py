"""Coin Rows' statistics for ``dicehall simulate``: how games end, captures and turns."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from dicehall.core.declaration import Observation
from dicehall.core.game import State
from dicehall.core.record import Record
from dicehall.games.coinrows.rules import CoinRowsState, Ending


def game_statistics(states: Sequence[State], record: Record) -> dict[str, Observation]:
    """How the game ended (broke, left, turn limit), the coins the winner won, turns
    played and the coins taken by each capture."""

    final = states[-1]
    assert isinstance(final, CoinRowsState)
    out: dict[str, Observation] = {
        f"end: {ending.value}": float(final.ending is ending) for ending in Ending
    }
    purse = final.game.purse
    winner = final.winner()
    out["draw rate"] = float(final.is_terminal() and winner is None)
    out["coins won by the winner"] = None if winner is None else final.totals()[winner] - purse
    out["turns"] = final.turn_number
    captured: list[int] = []
    for before, after in itertools.pairwise(states):
        if (
            isinstance(before, CoinRowsState)
            and isinstance(after, CoinRowsState)
            and not before.is_chance_node()
            and after.purses[before.turn] > before.purses[before.turn]
        ):
            captured.append(after.purses[before.turn] - before.purses[before.turn])
    out["coins per capture"] = captured
    out["captures per game"] = len(captured)
    return out
