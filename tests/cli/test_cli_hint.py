"""``dicehall hint``: the bot's view of a position typed on the command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dicehall import load_game
from dicehall.cli.hint import SetupError, parse_setup, position
from dicehall.games.backgammon.notation import decode_position_id


def hint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dicehall.cli", "hint", *args, "--no-board"],
        capture_output=True,
        text=True,
        timeout=300,
    )


def best_row(out: str) -> str:
    """The text of the first ranked line of a hint table."""
    for line in out.splitlines():
        cells = line.replace("│", " ").split()
        if cells and cells[0] == "1":
            return line
    raise AssertionError(out)


def test_a_hint_for_a_position_id() -> None:
    # the opening 3-1 is best played 8/5 6/5, by every bot and every book
    proc = hint("backgammon", "--position-id", "4HPwATDgc/ABMA", "--dice", "3-1")
    assert proc.returncode == 0, proc.stderr
    assert "hint: 3-1" in proc.stdout
    assert "8/5 6/5" in best_row(proc.stdout)


def test_a_hint_for_a_position_id_after_some_moves() -> None:
    from dicehall.bots.backgammon import Bot

    game = load_game("backgammon")
    state = game.new_initial_state().apply_text("3-1").apply_text("8/5 6/5").apply_text("6-4")
    pid = state.position_id()
    assert decode_position_id(pid) == state.board
    expected = Bot("expert").rank(state)[0].text
    proc = hint("backgammon", "-p", pid, "-d", "6-4")
    assert proc.returncode == 0, proc.stderr
    assert expected in best_row(proc.stdout)
    typed = position(game, None, pid, "4-6")  # a Position ID does not say which seat
    assert (typed.board, typed.dice) == (state.board, state.dice)


def test_a_hint_for_a_coinrows_setup() -> None:
    from dicehall.bots.coinrows import hint as ranked

    setup = "board 7O 4X 4O 4X 1X 1X 1X; purses 15 18; seat 1"
    game = load_game("coinrows")
    state = position(game, setup, None, None)
    assert state == game.setup(
        {"a7": 1, "b4": 0, "c4": 1, "d4": 0, "e1": 0, "f1": 0, "g1": 0}, purses=(15, 18)
    )
    proc = hint("coinrows", "--setup", setup)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()[1:] if line.strip()]
    best = ranked(state)[0][0]  # e.g. "capture 4"
    assert " ".join(rows[0][: len(best.split())]) == best
    assert {"roll", "leave"} <= {row[0] for row in rows}


def test_a_hint_for_a_whitedie_setup() -> None:
    from dicehall.bots.whitedie import hint_lines

    setup = "scores 3 5; seat 1; white 6; dice 2 4 4 1"
    game = load_game("whitedie")
    state = position(game, setup, None, None)
    assert state == game.setup([3, 5], 0, white=6, dice=[2, 4, 4, 1])
    best = hint_lines(state)[0][0]
    proc = hint("whitedie", "-s", setup)
    assert proc.returncode == 0, proc.stderr
    assert "← best" in proc.stdout
    row = next(line for line in proc.stdout.splitlines() if "← best" in line)
    assert row.split("│")[0].strip() == best


@pytest.mark.parametrize(
    ("game", "setup", "pid", "dice", "message"),
    [
        ("backgammon", None, "zzz", "3-1", "is not a Position ID"),
        ("backgammon", None, "4HPwATDgc/ABMA", None, "give the dice to play"),
        ("backgammon", None, None, "3-7", "faces are 1..6"),
        ("backgammon", "dice 3-1", None, "3-1", "given both"),
        ("coinrows", None, "4HPwATDgc/ABMA", None, "are for backgammon"),
        ("coinrows", "", None, None, "describe the position"),
        ("coinrows", "board 7O 7O; purses 15 18", None, None, "one entry per column"),
        ("coinrows", "board 7O 7O 1X 1X 1X 1X 1X; purses 15 19", None, None, "conserved"),
        ("whitedie", "scores 3", None, None, "expected 2 numbers"),
        ("whitedie", "scores 3 5; colour red", None, None, "unknown setup key 'colour'"),
    ],
)
def test_bad_setups_say_what_is_wrong(
    game: str, setup: str | None, pid: str | None, dice: str | None, message: str
) -> None:
    with pytest.raises(SetupError, match=message):
        position(load_game(game), setup, pid, dice)


def test_setup_parsing() -> None:
    assert parse_setup(" a 1 2 ;; b x ", {"a", "b"}) == {"a": "1 2", "b": "x"}
    with pytest.raises(SetupError, match="twice"):
        parse_setup("a 1; a 2", {"a"})


def test_a_bad_setup_is_a_short_error_at_the_command_line() -> None:
    proc = hint("whitedie", "--setup", "scores 3 5; seat 9")
    assert proc.returncode == 2
    assert "seat: must be 1..2" in proc.stderr and "Traceback" not in proc.stderr
