"""The arena: many games between agents, with the figures that say who is stronger.

>>> report = run_arena("coinrows", "random", "random", games=4, seed=1)
>>> report.summary.wins + report.summary.draws + report.summary.losses
4
>>> report.results[0].seats
('random', 'random')

Every game's dice and agent seeds derive from ``seed`` and its index, so a run
is reproducible and gives the same results with any number of ``workers``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dicehall.arena.runner import (
    ArenaError,
    GameResult,
    GameTask,
    arena_tasks,
    derive_seed,
    play_task,
    run_tasks,
    simulation_tasks,
)
from dicehall.arena.stats import GameStatistics, statistics_for
from dicehall.arena.summary import (
    ArenaSummary,
    Estimate,
    SimulationSummary,
    elo_difference,
    pairwise_score,
    summarise_arena,
    summarise_simulation,
)

FORMAT = "dicehall-arena"
VERSION = 1

Progress = Callable[[GameResult], None]


@dataclass
class ArenaReport:
    """A finished arena run: its settings, its summary and every game."""

    kind: str  # "arena" or "simulate"
    game: str
    options: dict[str, Any]
    seed: int
    workers: int
    common_dice: bool
    lineup: list[str]
    summary: ArenaSummary | SimulationSummary
    results: list[GameResult] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "kind": self.kind,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "workers": self.workers,
            "common_dice": self.common_dice,
            "lineup": self.lineup,
            "summary": self.summary.to_dict(),
            "results": [r.to_dict() for r in self.results],
        }

    def save(self, path: str | Path) -> None:
        """Write the report as JSON (every game's result and, if kept, its record)."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    def scores(self) -> list[float]:
        """Per game: bot A's score (arena) or the first player's score (simulation)."""
        out = []
        for r in self.results:
            n = len(r.returns)
            if self.kind == "arena":
                out.append(pairwise_score(r.returns, r.index % n))
            elif r.first_player is not None:
                out.append(pairwise_score(r.returns, r.first_player))
        return out

    def plot(self, path: str | Path) -> Path:
        """Save the running score and the game lengths as a PNG."""
        from dicehall.arena.plot import plot_results

        if self.kind == "arena":
            a, b = self.lineup
            title = f"{self.game}: {a} vs {b} ({len(self.results)} games)"
            label = f"{a}'s score"
        else:
            title = f"{self.game}: {', '.join(self.lineup)} ({len(self.results)} games)"
            label = "first player's score"
        return plot_results(
            path,
            self.scores(),
            [r.decisions for r in self.results],
            title=title,
            score_label=label,
        )


def run_arena(
    game: str,
    bot_a: str,
    bot_b: str,
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    common_dice: bool = False,
    keep_records: bool = True,
    max_actions: int | None = None,
    progress: Progress | None = None,
    ray_address: str | None = None,
) -> ArenaReport:
    """Play ``games`` games of ``bot_a`` against ``bot_b`` (seats rotated) and summarise.

    ``ray_address`` plays them on a Ray cluster (an address, or ``"local"``) instead of
    ``workers`` processes, with the same results."""
    if games < 1:
        raise ValueError("the arena needs at least one game")
    tasks = arena_tasks(
        game,
        bot_a,
        bot_b,
        games,
        seed=seed,
        options=options,
        common_dice=common_dice,
        keep_records=keep_records,
        max_actions=max_actions,
    )
    start = time.perf_counter()
    results = run_tasks(tasks, workers, progress, ray_address)
    seconds = time.perf_counter() - start
    summary = summarise_arena(game, bot_a, results, bot_b, seconds=seconds, common_dice=common_dice)
    return ArenaReport(
        "arena",
        game,
        dict(options or {}),
        seed,
        workers,
        common_dice,
        [bot_a, bot_b],
        summary,
        results,
    )


def run_simulation(
    game: str,
    games: int,
    lineup: Sequence[str] = ("random",),
    *,
    seed: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    keep_records: bool = False,
    max_actions: int | None = None,
    progress: Progress | None = None,
    ray_address: str | None = None,
) -> ArenaReport:
    """Play ``games`` games with a fixed lineup and report what they say about the game
    (on a Ray cluster with ``ray_address``, as :func:`run_arena`)."""
    if games < 1:
        raise ValueError("a simulation needs at least one game")
    tasks = simulation_tasks(
        game,
        lineup,
        games,
        seed=seed,
        options=options,
        keep_records=keep_records,
        max_actions=max_actions,
    )
    start = time.perf_counter()
    results = run_tasks(tasks, workers, progress, ray_address)
    seconds = time.perf_counter() - start
    seats = list(tasks[0].seats)
    summary = summarise_simulation(game, seats, results, seconds=seconds)
    return ArenaReport(
        "simulate", game, dict(options or {}), seed, workers, False, seats, summary, results
    )


__all__ = [
    "ArenaError",
    "ArenaReport",
    "ArenaSummary",
    "Estimate",
    "GameResult",
    "GameStatistics",
    "GameTask",
    "SimulationSummary",
    "arena_tasks",
    "derive_seed",
    "elo_difference",
    "play_task",
    "run_arena",
    "run_simulation",
    "run_tasks",
    "simulation_tasks",
    "statistics_for",
]
