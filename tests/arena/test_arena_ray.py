"""The arena on a local Ray cluster plays exactly the games that processes play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.arena import run_arena
from dicehall.arena.runner import ArenaError, ray_init


def _games(report: object) -> list[tuple[object, ...]]:
    return [
        (r.index, r.seats, r.returns, r.decisions, r.first_player, r.record)
        for r in report.results  # type: ignore[attr-defined]
    ]


def test_the_ray_path_equals_the_process_path(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    from dicehall.cli.main import _load_commands, app

    kw = {"seed": 9, "options": {"leaving": False, "turn_limit": 12}, "common_dice": True}
    processes = run_arena("coinrows", "expectimax:1", "mcts:4", 6, workers=2, **kw)  # type: ignore[arg-type]
    seen: list[int] = []
    try:
        on_ray = run_arena(
            "coinrows",
            "expectimax:1",
            "mcts:4",
            6,
            workers=2,
            ray_address="local",
            progress=lambda r: seen.append(r.index),
            **kw,  # type: ignore[arg-type]
        )
        assert ray.is_initialized()  # it did run on Ray
        _load_commands()
        out = tmp_path / "r.json"
        args = ["arena", "coinrows", "expectimax:1", "mcts:4", "--games", "6", "--seed", "9"]
        args += ["-o", "leaving=false", "-o", "turn_limit=12", "--common-dice", "-w", "2"]
        cli = CliRunner().invoke(app, [*args, "--ray", "local", "--out", str(out)])
    finally:
        ray.shutdown()
    assert _games(on_ray) == _games(processes)
    assert sorted(seen) == list(range(6))  # every game reported once, as it finished
    assert on_ray.summary.wins == processes.summary.wins  # type: ignore[union-attr]
    # the games differ from game to game (the test would pass on a constant otherwise)
    assert len({str(g[5]) for g in _games(on_ray)}) > 1
    assert cli.exit_code == 0, cli.output
    saved = json.loads(out.read_text())
    assert [g["returns"] for g in saved["results"]] == [r.returns for r in processes.results]


def test_without_ray_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(ArenaError, match=r"dicehall\[cluster\]"):
        ray_init("local")
