"""``dicehall replay``: one orientation throughout, and stepping back, forth, to a move."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from terminal_spawn import shell_like

from dicehall import Match, SeededDice, load_game
from dicehall.bots import RandomBot


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dicehall.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = Match(load_game("backgammon"), [RandomBot(seed=1), RandomBot(seed=2)], SeededDice(3))
    match.play()
    path = tmp_path_factory.mktemp("replay") / "game.json"
    match.record.save(path)
    return path


@pytest.mark.parametrize(("seat", "opponent"), [(1, "seat 2 (O)"), (2, "seat 1 (O)")])
def test_every_board_is_drawn_from_one_side(saved: Path, seat: int, opponent: str) -> None:
    proc = run(["replay", str(saved), "--no-step", "--seat", str(seat)])
    assert proc.returncode == 0, proc.stderr
    tops = [line.strip() for line in proc.stdout.splitlines() if "(O)  pips" in line]
    assert len(tops) > 50
    assert all(line.startswith(opponent) for line in tops), {t[:10] for t in tops}


def shown(out: str) -> list[int]:
    """The action numbers shown in step mode, in order."""
    return [int(m.group(1)) for m in re.finditer(r"^\s*(\d+) (?:start|dice|seat)", out, re.M)]


def test_stepping_forward_back_jump_and_quit(saved: Path) -> None:
    proc = run(["replay", str(saved), "--step", "--no-boards"], "\n\nb\n7\nn\nzzz\n99999\nq\n")
    assert proc.returncode == 0, proc.stderr
    assert shown(proc.stdout) == [0, 1, 2, 1, 7, 8]
    assert "'zzz': Enter or n: next action" in proc.stdout
    assert "choose 0 to" in proc.stdout
    assert "wins" not in proc.stdout  # quit before the end


def test_stepping_to_the_end_says_who_won(saved: Path) -> None:
    proc = run(["replay", str(saved), "--step", "--no-boards"], "e\n\n")
    assert proc.returncode == 0, proc.stderr
    assert "wins a single game" in proc.stdout
    assert "the end of the record" in proc.stdout


def test_at_a_terminal_replay_steps_by_default(saved: Path) -> None:
    import os

    import pexpect

    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicehall.cli", "replay", str(saved), "--no-boards"],
        env=dict(os.environ, TERM="dumb", NO_COLOR="1"),
        encoding="utf-8",
        timeout=120,
        preexec_fn=shell_like,  # Ctrl-C reaches the command, as from a shell
    )
    prompt = r"replay \(Enter next, b back, NUMBER, s, e, q\)> "
    child.expect(prompt)
    child.sendline("")
    child.expect(r"1 dice: ")
    child.expect(prompt)
    child.sendintr()  # Ctrl-C leaves quietly
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")
    assert "wins" not in (child.before or "")


def test_play_help_no_longer_claims_seat_1_moves_first() -> None:
    proc = run(["play", "--help"])
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "1 = moves first" not in text
    assert "opening roll" in text
