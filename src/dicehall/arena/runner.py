"""Playing many games between agents, in parallel and reproducibly.

Every game is described by a ``GameTask``: the game, the agent spec of each seat
and the seeds of its dice and agents, all derived from one master seed and the
game's index. Workers therefore only ever see self-contained tasks, and the
results, sorted by index, are the same with one worker or with eight.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicehall.core.errors import DicehallError
from dicehall.core.game import State
from dicehall.core.match import Agent, Match
from dicehall.core.registry import load_game


class ArenaError(DicehallError, RuntimeError):
    """A game of the arena could not be played (e.g. a bot chose an illegal action)."""


def derive_seed(master: int, *parts: object) -> int:
    """A 63-bit seed for one purpose, derived from the master seed (stable across runs).

    >>> derive_seed(1, "dice", 0) == derive_seed(1, "dice", 0) != derive_seed(1, "dice", 1)
    True
    """
    text = ":".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game."""

    index: int
    game: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]
    dice_seed: int
    agent_seeds: tuple[int, ...]
    keep_record: bool = True
    statistics: bool = False
    max_actions: int | None = None


@dataclass
class GameResult:
    """The outcome of one game."""

    index: int
    seats: tuple[str, ...]
    returns: list[float]
    actions: int
    decisions: int
    first_player: int | None
    seconds: float
    finished: bool = True
    record: dict[str, Any] | None = None
    stats: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "seats": list(self.seats),
            "returns": self.returns,
            "actions": self.actions,
            "decisions": self.decisions,
            "first_player": self.first_player,
            "seconds": round(self.seconds, 6),
            "finished": self.finished,
        }
        if self.stats:
            out["stats"] = self.stats
        if self.record is not None:
            out["record"] = self.record
        return out


def play_task(task: GameTask) -> GameResult:
    """Play the game of ``task`` to the end (in whichever process runs it)."""
    from dicehall.arena.stats import statistics_for
    from dicehall.bots.registry import make_agent

    game = load_game(task.game, **dict(task.options))
    agents: list[Agent | None] = []
    for seat, (spec, seed) in enumerate(zip(task.seats, task.agent_seeds, strict=True)):
        agent = make_agent(task.game, spec, seed=seed)
        if agent is None:
            raise ArenaError(f"seat {seat + 1}: the arena needs bots, not {spec!r}")
        agents.append(agent)
    match = Match(game, agents, seed=task.dice_seed, players=list(task.seats))
    states: list[State] = [match.state]
    decisions = 0
    first_player: int | None = None
    start = time.perf_counter()
    while not match.state.is_terminal():
        if task.max_actions is not None and len(match.record.actions) >= task.max_actions:
            break
        state = match.state
        if not state.is_chance_node():
            decisions += 1
            if first_player is None:
                first_player = state.current_player()
        try:
            match.step()
        except DicehallError as exc:
            seat = state.current_player()
            raise ArenaError(
                f"game {task.index} (dice seed {task.dice_seed}): "
                f"{task.seats[seat] if seat >= 0 else 'dice'} at seat {seat + 1}: {exc}"
            ) from exc
        if task.statistics:
            states.append(match.state)
    seconds = time.perf_counter() - start
    final = match.state
    stats: dict[str, Any] = {}
    if task.statistics:
        hook = statistics_for(task.game)
        if hook is not None:
            stats = dict(hook(states, match.record))
    return GameResult(
        index=task.index,
        seats=task.seats,
        returns=[float(r) for r in final.returns()],
        actions=len(match.record.actions),
        decisions=decisions,
        first_player=first_player,
        seconds=seconds,
        finished=final.is_terminal(),
        record=match.record.to_dict() if task.keep_record else None,
        stats=stats,
    )


def run_tasks(
    tasks: Sequence[GameTask],
    workers: int = 1,
    progress: Callable[[GameResult], None] | None = None,
    ray_address: str | None = None,
) -> list[GameResult]:
    """Play ``tasks`` with ``workers`` processes; results in task order.

    One worker plays in this process. Several use fresh ("spawn") processes, so no
    state of the caller leaks into them and results cannot depend on the number of
    workers. The workers never outlive the run: on any exit from here (the last
    result, an error, Ctrl-C, a ``SystemExit`` from a signal handler) they are
    terminated, and each worker also stops by itself within a second once the
    process that started it is gone (even when that one was killed outright).

    ``ray_address`` plays the games as tasks on a Ray cluster instead (the optional
    extra ``dicehall[cluster]``): a cluster's address, or ``"local"`` for a cluster of
    ``workers`` CPUs started here. Each task is self-contained and seeded, so the
    results are the same as in processes.
    """
    if ray_address is not None:
        return _run_on_ray(tasks, workers, progress, ray_address)
    results: list[GameResult] = []
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            result = play_task(task)
            results.append(result)
            if progress is not None:
                progress(result)
        return results
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(
        processes=min(workers, len(tasks)),
        initializer=_worker_start,
        initargs=(os.getpid(),),
    )
    try:
        for result in pool.imap_unordered(play_task, tasks):
            results.append(result)
            if progress is not None:
                progress(result)
        pool.close()
        pool.join()
    finally:
        pool.terminate()  # no-op after a clean close; kills the workers otherwise
    results.sort(key=lambda r: r.index)
    return results


def ray_init(address: str, workers: int = 1) -> Any:
    """The ``ray`` module, connected to the cluster at ``address`` (``"local"``: one of
    ``workers`` CPUs started in this process). Raises ``ArenaError`` without Ray."""
    from dicehall.core.cluster import connect_ray

    try:
        return connect_ray(address, workers)
    except ImportError as exc:
        raise ArenaError(f"{exc} to play on a cluster") from None


def _run_on_ray(
    tasks: Sequence[GameTask],
    workers: int,
    progress: Callable[[GameResult], None] | None,
    address: str,
) -> list[GameResult]:
    ray = ray_init(address, workers)
    remote = ray.remote(play_task)
    pending = [remote.remote(task) for task in tasks]
    results: list[GameResult] = []
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                result = ray.get(ref)
                results.append(result)
                if progress is not None:
                    progress(result)
    finally:
        for ref in pending:  # an error or Ctrl-C: the games not yet played are dropped
            ray.cancel(ref, force=True)
    results.sort(key=lambda r: r.index)
    return results


#: how often (seconds) a worker checks that the process that started it still lives
PARENT_POLL = 0.5


def _worker_start(parent: int) -> None:
    """Run in each worker as it starts: leave Ctrl-C to the parent (which stops the
    workers itself) and exit as soon as the parent is gone, however it went."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="dicehall-parent-watch", daemon=True).start()


def _options(options: dict[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((options or {}).items()))


def arena_tasks(
    game: str,
    bot_a: str,
    bot_b: str,
    games: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    common_dice: bool = False,
    keep_records: bool = True,
    statistics: bool = False,
    max_actions: int | None = None,
) -> list[GameTask]:
    """The games of ``bot_a`` against ``bot_b``.

    With n seats, ``bot_a`` sits at seat ``i % n`` in game ``i`` and ``bot_b`` fills
    the other seats, so every seat is played equally often (two players: seats
    alternate). With ``common_dice`` the n games of each rotation share one dice
    seed, so each side gets the rolls the other had (duplicate play, which removes
    much of the luck; most useful for backgammon).
    """
    n = load_game(game, **(options or {})).num_players
    tasks = []
    for i in range(games):
        group, rotation = divmod(i, n)
        seats = tuple(bot_a if s == rotation else bot_b for s in range(n))
        dice_seed = derive_seed(seed, "dice", group if common_dice else i)
        tasks.append(
            GameTask(
                index=i,
                game=game,
                options=_options(options),
                seats=seats,
                dice_seed=dice_seed,
                agent_seeds=tuple(derive_seed(seed, "agent", i, s) for s in range(n)),
                keep_record=keep_records,
                statistics=statistics,
                max_actions=max_actions,
            )
        )
    return tasks


def simulation_tasks(
    game: str,
    lineup: Iterable[str],
    games: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    keep_records: bool = False,
    max_actions: int | None = None,
) -> list[GameTask]:
    """Games with a fixed ``lineup`` of agent specs (repeated to fill every seat)."""
    n = load_game(game, **(options or {})).num_players
    specs = list(lineup) or ["random"]
    seats = tuple(specs[s % len(specs)] for s in range(n))
    return [
        GameTask(
            index=i,
            game=game,
            options=_options(options),
            seats=seats,
            dice_seed=derive_seed(seed, "dice", i),
            agent_seeds=tuple(derive_seed(seed, "agent", i, s) for s in range(n)),
            keep_record=keep_records,
            statistics=True,
            max_actions=max_actions,
        )
        for i in range(games)
    ]
