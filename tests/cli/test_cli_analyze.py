"""``dicehall analyze``: a bad level is a short error; a progress bar at a terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect

from dicehall import Match, SeededDice, load_game
from dicehall.bots import RandomBot


def saved_game(tmp_path: Path, actions: int = 30) -> Path:
    match = Match(load_game("backgammon"), [RandomBot(seed=1), RandomBot(seed=2)], SeededDice(4))
    match.play(max_actions=actions)
    path = tmp_path / "game.json"
    match.record.save(path)
    return path


def test_an_unknown_level_is_a_short_error(tmp_path: Path) -> None:
    game = str(saved_game(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-m", "dicehall.cli", "analyze", game, "--level", "godlike"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "unknown level 'godlike'" in proc.stderr
    assert "expert" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 2


def test_a_progress_bar_at_a_terminal(tmp_path: Path) -> None:
    env = dict(os.environ, COLUMNS="120")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicehall.cli", "analyze", str(saved_game(tmp_path)), "--level", "beginner"],
        env=env,
        encoding="utf-8",
        timeout=300,
        dimensions=(40, 120),
    )
    child.expect("analysing")
    child.expect(r"\d+/\d+(\x1b\[0m)? decisions")
    child.expect("totals per player")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
