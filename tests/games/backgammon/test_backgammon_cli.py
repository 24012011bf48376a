"""End-to-end: the commands a user types, run as real processes through a pipe."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dicehall import Match, Record, SeededDice, load_game
from dicehall.bots import RandomBot

DICEHALL = [sys.executable, "-m", "dicehall.cli"]


def run(args: list[str], stdin: str = "", timeout: int = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*DICEHALL, *args], input=stdin, capture_output=True, text=True, timeout=timeout
    )


def scripted_moves(seed: int, record: Record | None = None) -> tuple[list[str], Match]:
    """The moves a 'person' at seat 1 makes against `--vs random --seed seed`, computed by
    playing the very same seeded match in-process (the CLI seeds seat 2's bot with seed+2);
    with ``record``, the continuation of that saved game as `--resume` plays it."""
    person = RandomBot(seed=99)
    dice = SeededDice(seed)
    if record is not None:
        dice.skip(list(record.states())[:-1])
    match = Match(load_game("backgammon"), [None, RandomBot(seed=seed + 2)], dice, record=record)
    typed: list[str] = []
    while not match.state.is_terminal():
        if match.state.is_chance_node():
            match.roll()
        elif match.state.current_player() == 0:
            action = person.act(match.state)
            typed.append(match.state.action_to_text(action))
            match.apply(action)
        else:
            match.step()
    return typed, match


def test_play_backgammon_through_a_pipe_to_the_end(tmp_path: Path) -> None:
    seed = 11
    typed, expected = scripted_moves(seed)
    # a garbled line and a request for the move list along the way
    stdin = "moves\n13/x\n" + "\n".join(typed) + "\n"
    save = tmp_path / "game.json"
    proc = run(
        ["play", "backgammon", "--vs", "random", "--seed", str(seed), "--save", str(save)], stdin
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout[-2000:]
    assert "Game over" in proc.stdout
    assert "cannot read '13/x'" in proc.stdout
    assert "legal:" in proc.stdout
    record = Record.load(save)
    assert record.actions == expected.record.actions
    assert record.final_state() == expected.state
    assert json.loads(save.read_text())["meta"]["seed"] == seed

    shown = run(["replay", str(save), "--no-boards"])
    assert shown.returncode == 0, shown.stderr
    assert "wins" in shown.stdout
    assert typed[0] in shown.stdout


def test_play_stops_cleanly_when_input_ends(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    proc = run(["play", "backgammon", "--vs", "random", "--seed", "3", "--save", str(save)], "")
    assert proc.returncode == 0  # end of input is a quit: saved, status 0
    assert "game stopped" in proc.stdout
    record = Record.load(save)
    assert not record.final_state().is_terminal()
    assert record.actions[0].count("-") == 1  # the opening roll
    # the game resumes from its record with the dice it would have had
    typed, expected = scripted_moves(3, Record.load(save))
    proc = run(
        ["play", "backgammon", "--resume", str(save), "--save", str(save)], "\n".join(typed) + "\n"
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert Record.load(save).final_state() == expected.state


def test_bad_input_gets_clear_errors(tmp_path: Path) -> None:
    proc = run(["play", "chess"])
    assert proc.returncode == 2 and "unknown game 'chess'" in proc.stderr
    proc = run(["play", "backgammon", "-o", "scoring=triple"])
    assert proc.returncode == 2 and "single, standard" in proc.stderr
    proc = run(["play", "backgammon", "--vs", "martian"])
    assert proc.returncode == 2 and "unknown opponent" in proc.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    proc = run(["replay", str(bad)])
    assert proc.returncode == 2 and "not valid JSON" in proc.stderr
    proc = run(["replay", str(tmp_path / "missing.json")])
    assert proc.returncode == 2 and "cannot read record" in proc.stderr


def test_human_vs_human_both_seats_from_the_pipe() -> None:
    seed = 5
    a, b = RandomBot(seed=1), RandomBot(seed=2)
    match = Match(load_game("backgammon"), [None, None], SeededDice(seed))
    typed = []
    for _ in range(12):
        if match.state.is_chance_node():
            match.roll()
            continue
        bot = a if match.state.current_player() == 0 else b
        action = bot.act(match.state)
        typed.append(match.state.action_to_text(action))
        match.apply(action)
    proc = run(["play", "backgammon", "--vs", "human", "--seed", str(seed)], "\n".join(typed))
    assert proc.returncode == 0  # input ends before the game does: a quit
    for text in typed:
        assert f"plays {text}" in proc.stdout
