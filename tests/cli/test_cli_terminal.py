"""End-to-end at a pseudo-terminal: Ctrl-C and Ctrl-D at every prompt keep the game.

The person at seat 1 plays the moves a seeded random bot would choose, against
``--vs random --seed SEED``; the same match is played in-process to know what to
type and what the record must hold.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from terminal_spawn import shell_like

from dicehall import Match, Record, SeededDice, load_game
from dicehall.bots import RandomBot

SEED = 11
MOVE_PROMPT = r"seat 1 \(you\)> "
CONFIRM_PROMPT = "Enter or y to confirm, undo or n to take it back: "
CTRL_D = "\x04"


def expected_game(record: Record | None = None) -> tuple[list[str], Match]:
    """What seat 1 types in the whole game (or in its rest after ``record``) and the
    match that results (the CLI seeds seat 2's bot with seed + 2)."""
    person = RandomBot(seed=99)
    dice = SeededDice(SEED)
    if record is not None:
        dice.skip(list(record.states())[:-1])
    match = Match(load_game("backgammon"), [None, RandomBot(seed=SEED + 2)], dice, record=record)
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


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", COLUMNS="120")
    return pexpect.spawn(
        sys.executable,
        ["-m", "dicehall.cli", *args],
        env=env,
        encoding="utf-8",
        timeout=180,
        dimensions=(50, 120),
        preexec_fn=shell_like,  # Ctrl-C reaches the command, as from a shell
    )


def actions_before_move(n: int) -> list[str]:
    """The record's actions just before seat 1's ``n``-th decision (counted from 0)."""
    _, match = expected_game()
    replayed = Record.new(load_game("backgammon"))
    seen = 0
    for state, text in zip(match.record.states(), match.record.actions, strict=False):
        if not state.is_chance_node() and state.current_player() == 0:
            if seen == n:
                return replayed.actions
            seen += 1
        replayed.actions.append(text)
    raise AssertionError(f"seat 1 makes fewer than {n + 1} decisions")


@pytest.mark.parametrize("key", ["ctrl-c", "ctrl-d"])
@pytest.mark.parametrize("prompt", ["move", "confirm"])
def test_a_key_at_a_prompt_leaves_a_record_that_resume_continues(
    tmp_path: Path, key: str, prompt: str
) -> None:
    typed, full = expected_game()
    save = tmp_path / "g.json"
    child = spawn("play", "backgammon", "--vs", "random", "--seed", str(SEED), "--save", str(save))
    moves = 3
    for text in typed[:moves]:
        child.expect(MOVE_PROMPT)
        child.sendline(text)
        child.expect_exact(CONFIRM_PROMPT)
        child.sendline("")
    child.expect(MOVE_PROMPT)
    if prompt == "confirm":
        child.sendline(typed[moves])  # typed but not confirmed: must not count
        child.expect_exact(CONFIRM_PROMPT)
    if key == "ctrl-c":
        child.sendintr()
    else:
        child.send(CTRL_D)
    child.expect(pexpect.EOF)
    child.close()
    out = child.before
    assert child.exitstatus == (130 if key == "ctrl-c" else 0), out
    assert f"dicehall play backgammon --resume {save}" in out.replace("\r\n", "\n")
    record = Record.load(save)
    assert record.actions == actions_before_move(moves)
    assert record.date is not None

    # --resume alone (no --save) continues the very game and keeps it in the same file;
    # the dice go on as they would have (the bots' own choices restart from their seeds)
    rest, resumed = expected_game(Record.load(save))
    proc = subprocess.run(
        [sys.executable, "-m", "dicehall.cli", "play", "backgammon", "--resume", str(save)],
        input="\n".join(rest) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert "Game over" in proc.stdout
    final = Record.load(save)
    assert final.actions[: len(record.actions)] == record.actions
    assert final.actions == resumed.record.actions
    assert final.final_state().is_terminal()
    assert final.header()["result"] == resumed.state.returns()
    dice = [a for a, s in zip(final.actions, final.states(), strict=False) if s.is_chance_node()]
    full_dice = [
        a
        for a, s in zip(full.record.actions, full.record.states(), strict=False)
        if s.is_chance_node()
    ]
    assert dice[: len(full_dice)] == full_dice[: len(dice)]


def test_garbage_at_the_confirm_prompt_does_not_commit(tmp_path: Path) -> None:
    typed, _ = expected_game()
    save = tmp_path / "g.json"
    child = spawn("play", "backgammon", "--vs", "random", "--seed", str(SEED), "--save", str(save))
    child.expect(MOVE_PROMPT)
    before = Record.load(save).actions
    child.sendline(typed[0])
    for garbage in ("blah", "clear", "24/18 13/11", "x" * 300):
        child.expect_exact(CONFIRM_PROMPT)
        child.sendline(garbage)
        child.expect("is not an answer")
        assert Record.load(save).actions == before
    child.expect_exact(CONFIRM_PROMPT)
    child.sendline("undo")
    child.expect("taken back")
    child.expect(MOVE_PROMPT)
    assert Record.load(save).actions == before
    child.sendline(typed[0])
    child.expect_exact(CONFIRM_PROMPT)
    child.sendline("y")
    child.expect(MOVE_PROMPT)
    assert Record.load(save).actions[len(before)] == typed[0]
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
