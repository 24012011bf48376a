"""White Die's statistics for ``dicehall simulate``: points per challenge and margins."""

from __future__ import annotations

from collections.abc import Sequence

from dicehall.core.declaration import Observation
from dicehall.core.game import State
from dicehall.core.record import Record
from dicehall.games.whitedie.challenges import CHALLENGES
from dicehall.games.whitedie.rules import WhiteDieState


def game_statistics(states: Sequence[State], record: Record) -> dict[str, Observation]:
    """Points scored in each challenge (by its white die) and in turns lost to a white 1."""

    points: dict[int, list[int]] = {white: [] for white in CHALLENGES}
    previous = None
    for state in states:
        assert isinstance(state, WhiteDieState)
        if state.last is not None and state.last is not previous:
            points.setdefault(state.last.white, []).append(state.last.points)
        previous = state.last
    out: dict[str, Observation] = {
        f"points per {white} ({CHALLENGES[white]})": values
        for white, values in sorted(points.items())
        if white in CHALLENGES
    }
    out["challenges per game"] = sum(len(v) for v in points.values())
    final = states[-1]
    assert isinstance(final, WhiteDieState)
    if final.winner is not None:
        others = [s for i, s in enumerate(final.scores) if i != final.winner]
        out["winning margin"] = final.scores[final.winner] - max(others)
    return out
