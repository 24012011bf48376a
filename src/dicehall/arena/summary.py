"""Turning game results into figures: scores, confidence intervals, Elo, lengths.

>>> s = score_summary([1.0, 1.0, 0.0, 0.5])
>>> s.mean, s.n
(0.625, 4)
>>> round(elo_difference(0.75), 1)
190.8
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from dicehall.arena.runner import GameResult
from dicehall.arena.stats import pool

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence interval (Wilson's for shares and scores, the
    normal approximation for other means)."""

    mean: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"


def mean_interval(
    values: Sequence[float],
    groups: Sequence[int] | None = None,
    clamp: tuple[float, float] | None = None,
) -> Estimate:
    """The mean of ``values`` with a 95% interval.

    With ``groups`` (one label per value) the standard error is computed over the
    group means, for games that are not independent (duplicate dice).
    """
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    units: list[float] = list(values)
    if groups is not None:
        by: dict[int, list[float]] = {}
        for g, v in zip(groups, values, strict=True):
            by.setdefault(g, []).append(v)
        units = [math.fsum(v) / len(v) for v in by.values()]
    se = statistics.stdev(units) / math.sqrt(len(units)) if len(units) > 1 else math.inf
    low, high = mean - Z95 * se, mean + Z95 * se
    if clamp is not None:
        low, high = max(clamp[0], low), min(clamp[1], high)
    return Estimate(mean, low, high, n)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    Unlike the normal approximation it keeps a sound width at 0% and 100% (120 wins
    in 120 games: 96.9% to 100%, not a point). ``successes`` and ``n`` may be
    fractional (a mean score, an effective sample size).

    >>> [round(x, 3) for x in wilson(120, 120)]
    [0.969, 1.0]
    >>> wilson(0, 0)
    (nan, nan)
    """
    if n <= 0:
        return (math.nan, math.nan)
    p = min(1.0, max(0.0, successes / n))
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if p == 0.0 else max(0.0, centre - half)  # exact ends, not rounding noise
    high = 1.0 if p == 1.0 else min(1.0, centre + half)
    return (low, high)


def share_summary(hits: int, n: int) -> Estimate:
    """A share (e.g. of games won) with its Wilson 95% interval."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    low, high = wilson(hits, n)
    return Estimate(hits / n, low, high, n)


def score_summary(scores: Sequence[float], groups: Sequence[int] | None = None) -> Estimate:
    """Mean score (1 win, 1/2 draw, 0 loss) with its Wilson 95% interval.

    The interval is Wilson's over the effective number of games ``p(1 - p) / se**2``,
    with ``se`` the standard error of the mean as ``mean_interval`` computes it (over
    the group means with ``groups``, for games that share their dice). For wins and
    losses only that is the number of games (less one); draws, and duplicate dice,
    make the score less variable than a share and the interval narrower. Where ``se``
    is zero or undefined (all wins, all draws ...) the number of games is used, so the
    interval never closes to a point.

    >>> s = score_summary([1.0] * 120)
    >>> round(s.low, 3), s.high
    (0.969, 1.0)
    """
    n = len(scores)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(scores) / n
    effective = float(n)
    normal = mean_interval(scores, groups)
    se = (normal.high - normal.low) / (2 * Z95)
    if 0.0 < mean < 1.0 and 0.0 < se < math.inf:
        effective = mean * (1 - mean) / (se * se)
    low, high = wilson(mean * effective, effective)
    return Estimate(mean, low, high, n)


def elo_difference(score: float, n: int | None = None) -> float:
    """The Elo rating difference that predicts ``score``; with ``n`` games a perfect
    score is counted as half a game short of perfect, to stay finite."""
    if n:
        score = min(max(score, 0.5 / n), 1 - 0.5 / n)
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # no "-0"


def outcome(returns: Sequence[float], seat: int) -> str:
    """``win`` (the unique best return), ``draw`` (tied for best) or ``loss`` for ``seat``."""
    best = max(returns)
    if returns[seat] < best:
        return "loss"
    return "win" if sum(1 for r in returns if r == best) == 1 else "draw"


def pairwise_score(returns: Sequence[float], seat: int) -> float:
    """The share of the other seats ``seat`` beat (ties count half): the Elo score of
    one game with any number of players (for two players: 1, 1/2 or 0)."""
    others = [r for s, r in enumerate(returns) if s != seat]
    mine = returns[seat]
    return sum(1.0 if mine > r else 0.5 if mine == r else 0.0 for r in others) / len(others)


def length_summary(lengths: Sequence[int]) -> dict[str, float]:
    """Mean, spread and quantiles of game lengths."""
    if not lengths:
        return {}
    ordered = sorted(lengths)

    def q(p: float) -> float:
        return float(ordered[min(len(ordered) - 1, int(p * len(ordered)))])

    return {
        "mean": statistics.fmean(ordered),
        "stdev": statistics.stdev(ordered) if len(ordered) > 1 else 0.0,
        "min": float(ordered[0]),
        "p10": q(0.10),
        "median": float(statistics.median(ordered)),
        "p90": q(0.90),
        "max": float(ordered[-1]),
    }


@dataclass
class ArenaSummary:
    """The figures of a match between ``bot_a`` and ``bot_b`` from ``bot_a``'s side."""

    game: str
    bot_a: str
    bot_b: str
    games: int
    wins: int
    draws: int
    losses: int
    unfinished: int
    score: Estimate
    mean_return: Estimate
    elo: float
    elo_low: float
    elo_high: float
    decisions_per_second: float
    seconds: float
    lengths: dict[str, float]
    win_share: Estimate

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["score"] = self.score.to_dict()
        out["mean_return"] = self.mean_return.to_dict()
        out["win_share"] = self.win_share.to_dict()
        return out


def summarise_arena(
    game: str,
    bot_a: str,
    results: Sequence[GameResult],
    bot_b: str,
    *,
    seconds: float,
    common_dice: bool = False,
) -> ArenaSummary:
    """Wins, draws, losses, score and Elo of ``bot_a`` over ``results``.

    ``bot_a``'s seat in each game is the first seat holding its spec (the arena
    puts it at seat ``index % players``).
    """
    wins = draws = losses = 0
    scores: list[float] = []
    returns: list[float] = []
    groups: list[int] = []
    for r in results:
        n = len(r.returns)
        seat = r.index % n
        kind = outcome(r.returns, seat)
        wins += kind == "win"
        draws += kind == "draw"
        losses += kind == "loss"
        scores.append(pairwise_score(r.returns, seat))
        returns.append(r.returns[seat])
        groups.append(r.index // n if common_dice else r.index)
    score = score_summary(scores, groups)
    total_decisions = sum(r.decisions for r in results)
    return ArenaSummary(
        game=game,
        bot_a=bot_a,
        bot_b=bot_b,
        games=len(results),
        wins=wins,
        draws=draws,
        losses=losses,
        unfinished=sum(1 for r in results if not r.finished),
        score=score,
        mean_return=mean_interval(returns, groups),
        elo=elo_difference(score.mean, len(results)),
        elo_low=elo_difference(score.low, len(results)),
        elo_high=elo_difference(score.high, len(results)),
        decisions_per_second=total_decisions / seconds if seconds > 0 else math.inf,
        seconds=seconds,
        lengths=length_summary([r.decisions for r in results]),
        win_share=share_summary(wins, len(results)),
    )


def running_score(scores: Sequence[float]) -> tuple[list[float], list[float], list[float]]:
    """Running mean of ``scores`` with its Wilson 95% band after each game (for plots)."""
    means, lows, highs = [], [], []
    total = 0.0
    for i, s in enumerate(scores, 1):
        total += s
        mean = total / i
        low, high = wilson(total, i)
        means.append(mean)
        lows.append(low)
        highs.append(high)
    return means, lows, highs


@dataclass
class SimulationSummary:
    """What a simulation says about the game itself."""

    game: str
    lineup: list[str]
    games: int
    unfinished: int
    draws: int
    seat_wins: list[int]
    first_player_score: Estimate
    first_player_return: Estimate
    fair_score: float
    lengths: dict[str, float]
    actions: dict[str, float]
    decisions_per_second: float
    seconds: float
    statistics: dict[str, dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["first_player_score"] = self.first_player_score.to_dict()
        out["first_player_return"] = self.first_player_return.to_dict()
        return out


def summarise_simulation(
    game: str, lineup: Sequence[str], results: Sequence[GameResult], *, seconds: float
) -> SimulationSummary:
    """First-player advantage, seat results, lengths and the game's own statistics.

    The first player is the seat that made the first decision (backgammon: the
    winner of the opening roll). Its score counts every other seat it beat (ties
    half), so 0.5 means no advantage with two players.
    """
    n = len(results[0].returns) if results else 0
    seat_wins = [0] * n
    draws = 0
    first_scores: list[float] = []
    first_returns: list[float] = []
    for r in results:
        best = max(r.returns)
        top = [s for s, v in enumerate(r.returns) if v == best]
        if len(top) == 1:
            seat_wins[top[0]] += 1
        else:
            draws += 1
        if r.first_player is not None:
            first_scores.append(pairwise_score(r.returns, r.first_player))
            first_returns.append(r.returns[r.first_player])
    decisions = sum(r.decisions for r in results)
    return SimulationSummary(
        game=game,
        lineup=list(lineup),
        games=len(results),
        unfinished=sum(1 for r in results if not r.finished),
        draws=draws,
        seat_wins=seat_wins,
        first_player_score=score_summary(first_scores),
        first_player_return=mean_interval(first_returns),
        fair_score=0.5,
        lengths=length_summary([r.decisions for r in results]),
        actions=length_summary([r.actions for r in results]),
        decisions_per_second=decisions / seconds if seconds > 0 else math.inf,
        seconds=seconds,
        statistics=describe_statistics([r.stats for r in results]),
    )


def describe_statistics(observations: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Mean with 95% interval and count of each named statistic over all games."""
    out: dict[str, dict[str, Any]] = {}
    for name, values in pool(observations).items():
        out[name] = mean_interval(values).to_dict()
    return out
