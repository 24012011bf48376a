"""End to end: ``dicehall play whitedie`` driven through a pipe, then ``dicehall replay``.

The moves to type are computed by playing the same seeded match in-process: the
dice come from ``SeededDice(seed)`` and the other seats from ``make_agent`` with the
seeds ``play`` gives them, so the piped game follows exactly the same course.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dicehall import Match, Record, SeededDice, load_game
from dicehall.bots import RandomBot
from dicehall.bots.registry import make_agent
from dicehall.core.match import Agent

CLI = [sys.executable, "-c", "from dicehall.cli.main import main; main()"]


def simulate(seed: int, players: int, vs: str) -> tuple[list[str], Record]:
    """The lines seat 1 types and the record the game must produce."""
    game = load_game("whitedie", players=players)
    dice = SeededDice(seed)
    agents: list[Agent | None] = [None] + [
        make_agent("whitedie", vs, seed=seed + 1 + i) for i in range(1, players)
    ]
    match = Match(game, agents, dice)
    me = RandomBot(seed=seed * 7 + 1)
    typed: list[str] = []
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance_node():
            match.roll()
        elif state.current_player() == 0:
            text = state.action_to_text(me.act(state))
            typed.append(text)
            match.apply_text(text)
        else:
            match.step()
    return typed, match.record


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        CLI + args,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "120", "TERM": "dumb"},
    )


@pytest.mark.parametrize(("seed", "players"), [(11, 2), (5, 3)])
def test_piped_play_and_replay(tmp_path: Path, seed: int, players: int) -> None:
    typed, expected = simulate(seed, players, "random")
    save = tmp_path / "game.json"
    stdin = "help\nmoves\nbogus move\n" + "\n".join(typed) + "\n"
    result = run(
        [
            "play",
            "whitedie",
            "--players",
            str(players),
            "--vs",
            "random",
            "--seed",
            str(seed),
            "--save",
            str(save),
        ],
        stdin,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "White Die" in out and "illegal action 'bogus move'" in out
    assert "scores" in out and "Game over" in out
    record = Record.load(save)
    assert record.actions == expected.actions
    assert record.final_state() == expected.final_state()

    replay = run(["replay", str(save), "--no-boards"])
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "wins with" in replay.stdout
    assert replay.stdout.count("\n") > len(record.actions)


def test_play_stops_cleanly_when_input_ends(tmp_path: Path) -> None:
    typed, _ = simulate(3, 2, "random")
    save = tmp_path / "part.json"
    result = run(["play", "whitedie", "--seed", "3", "--save", str(save)], typed[0] + "\n")
    assert result.returncode == 0
    assert "game stopped" in result.stdout
    assert Record.load(save).actions[: len(typed[:1])]
