"""Per-game statistics for ``dicehall simulate``: the questions each game's designers ask.

A game answers through a ``GameStatistics`` function: given every state of one
finished game (initial state first) and its record, it returns named
observations. A number is one observation of that game, a list holds several
(e.g. the points of each Poker challenge played) and None means "not observed in
this game". The simulation pools the observations of all games and reports their
mean, so an indicator (1 or 0) becomes a rate.

A game package may provide its own ``game_statistics`` function; otherwise the
built-in one below for its name is used.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from dicehall.core.game import State
from dicehall.core.record import Record

Observation = float | int | list[float] | list[int] | None


class GameStatistics(Protocol):
    """Statistics of one finished game from its states and record."""

    def __call__(self, states: Sequence[State], record: Record) -> Mapping[str, Observation]:
        """Named observations of this game."""
        ...


def backgammon_statistics(states: Sequence[State], record: Record) -> dict[str, Observation]:
    """How each game was won (single, gammon, backgammon, whatever the scoring) and the
    pip count left to the loser."""
    from dicehall.games.backgammon import BAR, OFF, BackgammonState, pip_count

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


def coinrows_statistics(states: Sequence[State], record: Record) -> dict[str, Observation]:
    """How the game ended (broke, left, turn limit), the coins the winner won, turns
    played and the coins taken by each capture."""
    from dicehall.games.coinrows import CoinRowsState, Ending

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


def whitedie_statistics(states: Sequence[State], record: Record) -> dict[str, Observation]:
    """Points scored in each challenge (by its white die) and in turns lost to a white 1."""
    from dicehall.games.whitedie import CHALLENGES, WhiteDieState

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


BUILTIN: dict[str, GameStatistics] = {
    "backgammon": backgammon_statistics,
    "coinrows": coinrows_statistics,
    "whitedie": whitedie_statistics,
}


def statistics_for(game: str) -> GameStatistics | None:
    """The statistics function of ``game``: its package's ``game_statistics`` if it has one,
    else the built-in one, else None."""
    try:
        module = importlib.import_module(f"dicehall.games.{game}")
    except ModuleNotFoundError:
        module = None
    hook = getattr(module, "game_statistics", None)
    if hook is not None:
        return hook  # type: ignore[no-any-return]
    return BUILTIN.get(game)


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


def describe_statistics(observations: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Mean with 95% interval and count of each named statistic over all games."""
    from dicehall.arena.summary import mean_interval

    out: dict[str, dict[str, Any]] = {}
    for name, values in pool(observations).items():
        out[name] = mean_interval(values).to_dict()
    return out
