"""A game from another distribution plugs in by being installed.

``tests/plugins/pig`` is a separate package (its own ``pyproject.toml``) that declares one
``GameEntry`` in the ``dicehall.games`` entry-point group. pip installs it into a temporary
folder; then its bots, the arena (in worker processes), terminal play and the server all
work with it, knowing it only through its declaration.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.registry import refresh_games

PIG = Path(__file__).with_name("pig")
DICEHALL = [sys.executable, "-m", "dicehall.cli"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder pip installed the plug-in into, on ``sys.path`` for this module's tests."""
    work = tmp_path_factory.mktemp("pig")
    source = shutil.copytree(PIG, work / "src")  # pip's build leaves files next to the source
    target = work / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    sys.path.insert(0, str(target))
    refresh_games()
    try:
        yield target
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m.startswith("dicehall_pig")]:
            del sys.modules[name]
        refresh_games()


def run(site: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path[1:]])}
    return subprocess.run(
        [*DICEHALL, *args], input=stdin, capture_output=True, text=True, env=env, timeout=300
    )


def test_installing_registers_the_game(site: Path) -> None:
    from dicehall import load_game, registered_games

    dist = next(site.glob("dicehall_pig-*.dist-info"))
    assert "pig = dicehall_pig:ENTRY" in (dist / "entry_points.txt").read_text()
    assert "pig" in registered_games()
    game = load_game("pig", target=10)
    assert game.title == "Pig" and game.options["target"] == 10
    assert game.utility_bounds() == (-1.0, 1.0)


def test_its_bots_and_the_generic_ones_play_it(site: Path) -> None:
    from dicehall import load_game
    from dicehall.bots.registry import agent_names, make_agent
    from dicehall.core.match import Match

    assert agent_names("pig") == [
        "human",
        "random",
        "expectimax",
        "mcts",
        "bot",
        "bot:steady",
        "bot:bold",
    ]
    for spec in ("bot", "bot:steady", "expectimax:2", "mcts:20"):
        agents = [make_agent("pig", spec, seed=1), make_agent("pig", "random", seed=2)]
        record = Match(load_game("pig"), agents, seed=5).play()
        assert record.final_state().is_terminal()
        assert sorted(record.final_state().returns()) == [-1.0, 1.0]


def test_the_arena_plays_it_in_worker_processes(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    done = run(
        site,
        "arena",
        "pig",
        "bot:bold",
        "random",
        "-n",
        "6",
        "-w",
        "2",
        "--seed",
        "3",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    assert len(report["results"]) == 6
    assert all(max(r["returns"]) == 1.0 for r in report["results"])


def test_simulation_reports_its_declared_statistics(site: Path) -> None:
    from dicehall.arena import run_simulation

    report = run_simulation("pig", 8, ["bot:steady", "bot:bold"], seed=4)
    stats = report.summary.statistics  # type: ignore[union-attr]
    assert stats["holds"]["n"] == 8 and stats["holds"]["mean"] > 1


def test_terminal_play_uses_its_view(site: Path) -> None:
    done = run(
        site,
        "play",
        "pig",
        "--vs",
        "bot:bold",
        "--seed",
        "2",
        "--no-confirm",
        "-o",
        "target=10",
        stdin="help\n" + "roll\n" * 400,
    )
    assert done.returncode == 0, done.stderr
    assert "write roll or hold" in done.stdout  # the declared help
    assert "a 1: the turn's points are lost" in done.stdout  # the declared describe
    assert "wins" in done.stdout


def test_the_server_serves_it(site: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'pig.sqlite3'}", bot_delay=0)) as client:
        catalog = {g["name"]: g for g in client.get("/api/catalog").json()}
        assert "bot:steady" in catalog["pig"]["opponents"]
        created = client.post(
            "/api/games", json={"game": "pig", "opponent": "bot:steady", "seed": "pig1"}
        ).json()
        game_id, token = created["id"], created["tokens"]["0"]
        snap: dict[str, Any] = {}
        for _ in range(2000):
            snap = client.get(f"/api/games/{game_id}", params={"token": token}).json()
            if snap["status"] == "finished":
                break
            assert "at_stake" in snap["view"]  # the declared web view
            if not snap["legal"]:  # the bot or the dice are acting
                time.sleep(0.005)
                continue
            text = "hold" if snap["view"]["at_stake"] >= 5 else "roll"
            res = client.post(f"/api/games/{game_id}/act", json={"tokens": [token], "text": text})
            assert res.status_code == 200, res.json()
        assert snap["status"] == "finished"
        bad = client.post(f"/api/games/{game_id}/act", json={"tokens": [token], "text": "roll"})
        assert bad.status_code == 409
