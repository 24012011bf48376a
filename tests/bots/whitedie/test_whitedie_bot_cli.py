"""The perfect bot and hints in ``dicehall play``; ``dicehall solve`` for White Die."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from dicehall import Match, Record, SeededDice, load_game
from dicehall.bots import RandomBot
from dicehall.bots.registry import make_agent
from dicehall.core.match import Agent

CLI = [sys.executable, "-c", "from dicehall.cli.main import main; main()"]


def run(args: list[str], stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        CLI + args,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "120", "TERM": "dumb", **env},
    )


def test_play_against_the_perfect_bot_with_hints(tmp_path: Path) -> None:
    seed = 21
    game = load_game("whitedie", players=3)
    agents: list[Agent | None] = [None] + [
        make_agent("whitedie", "bot:perfect", seed=seed + 1 + i) for i in (1, 2)
    ]
    match = Match(game, agents, SeededDice(seed))
    me = RandomBot(seed=5)
    lines: list[str] = []
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance_node():
            match.roll()
        elif state.current_player() == 0:
            text = state.action_to_text(me.act(state))
            lines += ["hint", text]
            match.apply_text(text)
        else:
            match.step()
    save = tmp_path / "g.json"
    args = ["play", "whitedie", "--players", "3", "--vs", "bot:perfect", "--seed", str(seed)]
    result = run([*args, "--save", str(save)], "\n".join(lines) + "\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Exact values for seat 1" in result.stdout and "best" in result.stdout
    assert "bot:perfect" in result.stdout
    assert Record.load(save).actions == match.record.actions


def test_solve_command(tmp_path: Path) -> None:
    result = run(["solve", "whitedie", "--target", "3"], DICEHALL_CACHE=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "first player wins" in result.stdout and "free choices true" in result.stdout
    assert list(tmp_path.glob("whitedie-winprob_3_standard_free.npy"))  # the default game
    fixed = run(
        ["solve", "whitedie", "--target", "3", "--no-free-choices"], DICEHALL_CACHE=str(tmp_path)
    )
    assert fixed.returncode == 0 and "free choices false" in fixed.stdout
    assert list(tmp_path.glob("whitedie-winprob_3_standard.npy"))
    bad = run(["solve", "backgammon"])
    assert bad.returncode != 0
