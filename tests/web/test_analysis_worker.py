"""The replay's analyses (``dicehall.server.analysis_worker``): the quick one at once, the deep
one (backgammon: expert, as ``dicehall analyze``) in a worker with its progress, kept once
computed; a full queue says busy, a failure is said and tried again."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from dicehall import Match, load_game
from dicehall.bots import make_agent
from dicehall.core.record import Record
from dicehall.server import analysis
from dicehall.server.analysis_worker import ENV_LEVEL, Analyses


@pytest.fixture(scope="module")
def opening() -> Record:
    """The first 16 actions of a seeded backgammon game (some six decisions each side)."""
    game = load_game("backgammon")
    agents = [make_agent("backgammon", s, seed=i) for i, s in enumerate(["bot:beginner", "random"])]
    record = Match(game, agents, seed=5).play()
    return dataclasses.replace(record, actions=record.actions[:16])


def _until_deep(analyses: Analyses, key: str, record: Record, seen: list[Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        report = analyses.report(key, lambda: record)
        seen.append(report.get("deeper"))
        if "deeper" not in report or report["deeper"]["state"] == "failed":
            return report
        time.sleep(0.05)
    raise AssertionError(f"no deep analysis in 300 s: {seen[-1]}")


def test_the_deep_level_is_the_terminals() -> None:
    import typer
    import typer.main

    from dicehall.cli.analyze import register

    app = typer.Typer()
    register(app)
    analyze = typer.main.get_command(app)  # the one command: ``dicehall analyze``
    level = next(p for p in analyze.params if p.name == "level")
    assert analysis.DEEP_LEVELS == {"backgammon": level.default} == {"backgammon": "expert"}


def test_expert_analysis_judges_as_dicehall_analyze(opening: Record) -> None:
    from dicehall.bots.backgammon import Bot
    from dicehall.bots.backgammon.cube import judge_play

    report = analysis.analyse(opening, "expert")
    assert report["level"] == "expert"
    plays = [d for d in report["decisions"] if d["kind"] == "play"]
    assert plays
    states = list(opening.states())
    bot = Bot("expert")
    for d in plays:
        before = states[d["n"] - 1]
        actions = [a for a, _ in before.play_results()]
        verdict = judge_play(
            bot, before, actions.index(before.parse_action(opening.actions[d["n"] - 1]))
        )
        assert d["loss"] == round(verdict.loss, 4) and d["best"] == verdict.best.text


def test_unknown_level_is_refused(opening: Record) -> None:
    with pytest.raises(analysis.AnalysisError, match="unknown level 'deepest'"):
        analysis.analyse(opening, "deepest")
    white = Match(
        load_game("whitedie"), [make_agent("whitedie", "random", seed=1)] * 2, seed=1
    ).play()
    with pytest.raises(analysis.AnalysisError, match="whitedie is analysed at perfect only"):
        analysis.analyse(white, "expert")


@pytest.mark.parametrize("processes", [0, 1])
def test_quick_at_once_then_deep_with_progress(opening: Record, processes: int) -> None:
    analyses = Analyses(processes=processes, deep_levels={"backgammon": "hard"})
    try:
        loads: list[int] = []

        def load() -> Record:
            loads.append(1)
            return opening

        first = analyses.report("g", load)
        assert first["level"] == "medium"
        assert first["deeper"]["level"] == "hard" and first["deeper"]["state"] == "queued"
        assert first["decisions"] == analysis.analyse(opening)["decisions"]
        seen: list[Any] = []
        deep = _until_deep(analyses, "g", opening, seen)
        assert deep["level"] == "hard" and "deeper" not in deep
        assert deep["decisions"] == analysis.analyse(opening, "hard")["decisions"]
        # progress counted up to every decision, never past it
        running = [s for s in seen if s and s["state"] == "running" and s["total"]]
        assert all(0 <= s["done"] <= s["total"] for s in running)
        # kept: asked again, the same report without reading the record
        before = len(loads)
        assert analyses.report("g", load) is analyses.report("g", load)
        assert len(loads) == before
    finally:
        analyses.close()


def test_a_full_queue_says_busy(opening: Record) -> None:
    analyses = Analyses(processes=0, deep_levels={"backgammon": "hard"}, queue=0)
    try:
        report = analyses.report("g", lambda: opening)
        assert report["level"] == "medium" and report["deeper"]["state"] == "busy"
    finally:
        analyses.close()


def test_a_failure_is_said_once_then_tried_again(opening: Record) -> None:
    analyses = Analyses(processes=0, deep_levels={"backgammon": "deepest"})
    try:
        report = _until_deep(analyses, "g", opening, [])
        assert report["level"] == "medium"
        assert report["deeper"]["state"] == "failed"
        assert "unknown level 'deepest'" in report["deeper"]["error"]
        assert analyses.report("g", lambda: opening)["deeper"]["state"] == "queued"
    finally:
        analyses.close()


def test_the_environment_sets_the_backgammon_level(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_LEVEL, "hard")
    assert Analyses(processes=0).deep_levels == {"backgammon": "hard"}
    monkeypatch.delenv(ENV_LEVEL)
    assert Analyses(processes=0).deep_levels == {"backgammon": "expert"}
    with pytest.raises(ValueError, match="0 \\(a thread\\) or 1, not 2"):
        Analyses(processes=2)


@pytest.mark.parametrize("processes", [0, 1])
def test_close_stops_a_running_analysis(opening: Record, processes: int) -> None:
    analyses = Analyses(processes=processes, deep_levels={"backgammon": "expert"})
    analyses.report("g", lambda: opening)
    deadline = time.monotonic() + 120
    while analyses.report("g", lambda: opening)["deeper"]["state"] != "running":
        assert time.monotonic() < deadline, "the analysis never started"
        time.sleep(0.01)
    analyses.close()  # a thread stops at its next decision, a process is ended
    assert analyses._worker is not None and not analyses._worker.is_alive()
    assert analyses._child is None


@pytest.mark.parametrize(
    ("loss", "shown", "mark"),
    [
        (0.0, 0.0, ""),
        (0.03994, 0.0399, ""),
        (0.039996, 0.04, "error"),  # CI once showed 0.04 unmarked: the mark used the raw loss
        (0.04, 0.04, "error"),
        (0.079951, 0.08, "blunder"),
        (0.07994, 0.0799, "error"),
        (0.5, 0.5, "blunder"),
    ],
)
def test_a_play_is_marked_by_the_loss_the_report_shows(
    loss: float, shown: float, mark: str
) -> None:
    assert analysis.loss_and_mark(loss) == (shown, mark)
