"""benchmarks/speed_*.py: the positions shared with OpenSpiel are the same positions,
and the scripts run end to end and print their figures."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pyspiel

from dicehall import load_game
from dicehall.games.backgammon.rules import BackgammonState

ROOT = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def openspiel_boards_after(state) -> set:
    """The positions OpenSpiel reaches by each legal action of a non-double turn."""
    speed = load("speed_backgammon")
    out = set()
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            continue
        (seat0, seat1), _, _ = speed.openspiel_position_any(child)
        mover = state.current_player()
        out.add((seat0, seat1) if mover == 0 else (seat1, seat0))
    return out


def test_openspiel_positions_are_dicehall_positions_with_the_same_plays() -> None:
    speed = load("speed_backgammon")
    states, positions = speed.openspiel_positions(300, seed=4)
    game = load_game("backgammon")
    compared = 0
    for spiel, (array, d1, d2) in zip(states, positions, strict=True):
        board = (tuple(array[0].tolist()), tuple(array[1].tolist()))
        assert sum(board[0]) == sum(board[1]) == 15
        if d1 == d2:
            continue  # OpenSpiel plays a double in two actions of two checkers each
        ours = BackgammonState(game, board, spiel.current_player(), (d1, d2))
        reached = {b for _, b in ours.play_results()}
        if any(b[0][0] == 15 for b in reached):
            continue  # a win: OpenSpiel's terminal state has no next turn to compare
        assert reached == openspiel_boards_after(spiel)
        compared += 1
    assert compared > 150


def test_speed_scripts_print_their_figures() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "speed_backgammon.py"), "--positions", "300", "--games", "8"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "positions, protocol" in out.stdout and "random games, protocol" in out.stdout
    assert "a pruning-net evaluation costs 1/" in out.stdout
    assert pyspiel is not None
