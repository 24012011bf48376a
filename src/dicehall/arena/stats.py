"""Per-game statistics for ``dicehall simulate``: the questions each game's designers ask.

A game answers through a ``GameStatistics`` function: given every state of one
finished game (initial state first) and its record, it returns named
observations. A number is one observation of that game, a list holds several
(e.g. the points of each Poker challenge played) and None means "not observed in
this game". The simulation pools the observations of all games and reports their
mean, so an indicator (1 or 0) becomes a rate.

Each game declares its function in its entry (``GameEntry.statistics``, for example
``dicehall.games.coinrows.statistics:game_statistics``); the arena only pools them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dicehall.core.declaration import GameStatistics, Observation
from dicehall.core.errors import GameDeclarationError
from dicehall.core.registry import game_entry

__all__ = ["GameStatistics", "Observation", "pool", "statistics_for"]


def statistics_for(game: str) -> GameStatistics | None:
    """The statistics function ``game`` declares (its entry's ``statistics``), or None.

    :raises UnknownGameError: if no game has that name.
    :raises GameDeclarationError: if the declared function cannot be found.
    """
    hook = game_entry(game).load("statistics")
    if hook is not None and not callable(hook):
        raise GameDeclarationError(
            f"game {game!r} declares statistics that are not a function: {hook!r}"
        )
    return hook  # type: ignore[no-any-return]


def pool(observations: Sequence[Mapping[str, Observation]]) -> dict[str, list[float]]:
    """Every observation of every game, by name (lists flattened, None dropped)."""
    pooled: dict[str, list[float]] = {}
    for stats in observations:
        for name, value in stats.items():
            bucket = pooled.setdefault(name, [])
            if value is None:
                continue
            if isinstance(value, list):
                bucket.extend(float(v) for v in value)
            else:
                bucket.append(float(value))
    return pooled
