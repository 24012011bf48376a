"""End-to-end through a pipe: saving never ends a game, errors stay short, statuses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer

from dicehall import Match, Record, SeededDice, load_game
from dicehall.bots import RandomBot
from dicehall.cli.play import run_game
from dicehall.cli.views import DefaultView
from dicehall.core.game import State

DICEHALL = [sys.executable, "-m", "dicehall.cli"]
SEED = 11


def run(
    args: list[str], stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*DICEHALL, *args], input=stdin, capture_output=True, text=True, timeout=300, cwd=cwd
    )


def first_moves(n: int) -> list[str]:
    """Seat 1's first ``n`` moves (a seeded random 'person') against ``--vs random``."""
    person = RandomBot(seed=99)
    match = Match(load_game("backgammon"), [None, RandomBot(seed=SEED + 2)], SeededDice(SEED))
    typed: list[str] = []
    while len(typed) < n:
        if match.state.is_chance_node():
            match.roll()
        elif match.state.current_player() == 0:
            action = person.act(match.state)
            typed.append(match.state.action_to_text(action))
            match.apply(action)
        else:
            match.step()
    return typed


def play(args: list[str], lines: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    base = ["play", "backgammon", "--vs", "random", "--seed", str(SEED)]
    return run([*base, *args], "\n".join(lines) + "\n", cwd=cwd)


def test_version() -> None:
    proc = run(["--version"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("dicehall ")
    version = proc.stdout.split()[1]
    assert version[0].isdigit() and "." in version


def test_a_failed_save_keeps_the_game_running(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    moves = first_moves(3)
    lines = [
        "save no-such-dir/x.json",
        "save folder",
        moves[0],
        "save CamelCase.json",
        "saveX",
        moves[1],
        "save",
        moves[2],
        "quit",
    ]
    proc = play([], lines, tmp_path)
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr
    assert "not saved:" in out and "no-such-dir/x.json: No such file or directory" in out
    assert "folder: it is a folder" in out
    assert "Traceback" not in out + proc.stderr
    assert not list(tmp_path.glob("**/*.tmp")) and not list(tmp_path.glob("**/.*tmp"))
    assert list(folder.iterdir()) == []
    # the name is kept as typed, and that file is then kept up to date
    assert (tmp_path / "CamelCase.json").exists()
    assert not (tmp_path / "camelcase.json").exists()
    assert "illegal action 'saveX'" in out
    record = Record.load(tmp_path / "CamelCase.json")
    assert moves[2] in record.actions  # written after the move that followed the save
    assert "--resume CamelCase.json" in out


def test_an_unwritable_save_file_warns_once_and_the_game_goes_on(tmp_path: Path) -> None:
    moves = first_moves(2)
    proc = play(["--save", "missing/g.json"], [moves[0], moves[1], "quit"], tmp_path)
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr
    assert out.count("not saved:") == 1
    assert f"plays {moves[1]}" in out
    assert "could NOT be saved to missing/g.json" in out


def test_quit_exits_0_and_says_how_to_resume(tmp_path: Path) -> None:
    proc = play(["--save", "g.json"], ["quit"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "dicehall play backgammon --resume g.json" in proc.stdout
    assert Record.load(tmp_path / "g.json").date is not None


def test_errors_are_short(tmp_path: Path) -> None:
    moves = first_moves(1)
    long_line = "x" * 15_000
    proc = play([], ["", "24/23/22/21/20/19 1/2", long_line, moves[0], "quit"], tmp_path)
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr
    assert "x" * 100 not in out  # neither echoed nor quoted whole
    assert "15,000 characters long" in out
    assert "type your action, moves for the legal ones, or help" in out
    # an error: the reason, then at most a few legal choices and their count
    for line in out.splitlines():
        if " legal: " in line:
            shown = line.split(" legal: ", 1)[1]
            assert shown.count(",") <= 8, line
            assert len(line) < 200
    assert f"plays {moves[0]}" in out


class Crashing:
    """A bot that fails on its second decision."""

    name = "crashing"

    def __init__(self) -> None:
        self.calls = 0
        self.inner = RandomBot(seed=1)

    def act(self, state: State) -> object:
        self.calls += 1
        if self.calls == 2:
            raise RuntimeError("out of cheese")
        return self.inner.act(state)


class Interrupted(Crashing):
    """A bot interrupted by Ctrl-C while it thinks."""

    def act(self, state: State) -> object:
        self.calls += 1
        if self.calls == 2:
            raise KeyboardInterrupt
        return self.inner.act(state)


@pytest.mark.parametrize(("bot", "status"), [(Crashing, 1), (Interrupted, 130)])
def test_a_failing_or_interrupted_bot_leaves_the_game_saved(
    tmp_path: Path, bot: type[Crashing], status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "g.json"
    failing = bot()
    match = Match(load_game("backgammon"), [RandomBot(seed=2), failing], SeededDice(3))
    with pytest.raises(typer.Exit) as info:
        run_game(match, confirm=False, save=save, view=DefaultView())
    assert info.value.exit_code == status
    assert failing.calls == 2
    record = Record.load(save)
    assert record.actions == match.record.actions
    assert not record.final_state().is_terminal()
    assert "--resume" in capsys.readouterr().out


def test_confirm_through_a_pipe_is_strict_too(tmp_path: Path) -> None:
    moves = first_moves(2)
    lines = [moves[0], "[red]oops", "undo", moves[0], "y", moves[1], "quit"]
    proc = play(["--confirm", "--save", "g.json"], lines, tmp_path)
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr
    assert "'[red]oops' is not an answer" in out  # shown as typed, not read as markup
    assert "taken back" in out
    record = Record.load(tmp_path / "g.json")
    mine = [
        a
        for a, s in zip(record.actions, record.states(), strict=False)
        if not s.is_chance_node() and s.current_player() == 0
    ]
    assert mine == [moves[0]]  # moves[1] was typed but never confirmed: the input ended
