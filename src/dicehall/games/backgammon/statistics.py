"""Backgammon's statistics for ``dicehall simulate``: how games are won and by how much."""

from __future__ import annotations

from collections.abc import Sequence

from dicehall.core.declaration import Observation
from dicehall.core.game import State
from dicehall.core.record import Record
from dicehall.games.backgammon.rules import BAR, OFF, BackgammonState, pip_count


def game_statistics(states: Sequence[State], record: Record) -> dict[str, Observation]:
    """How each game was won (single, gammon, backgammon, whatever the scoring) and the
    pip count left to the loser."""

    final = states[-1]
    assert isinstance(final, BackgammonState)
    if final.winner is None:
        return {}
    loser = final.side(1 - final.winner)
    gammon = loser[OFF] == 0
    backgammon = gammon and (loser[BAR] > 0 or any(loser[i] for i in range(19, 25)))
    return {
        "single rate": float(not gammon),
        "gammon rate (incl. backgammons)": float(gammon),
        "backgammon rate": float(backgammon),
        "loser's pips left": pip_count(loser),
    }
