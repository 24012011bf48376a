"""End-to-end: match and money play in the terminal, .mat export and import commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dicehall import Record

DICEHALL = [sys.executable, "-m", "dicehall.cli"]
DATA = Path(__file__).parent / "data"


def run(args: list[str], stdin: str = "", timeout: int = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*DICEHALL, *args], input=stdin, capture_output=True, text=True, timeout=timeout
    )


def test_play_a_match_with_double_take_and_resign(tmp_path: Path) -> None:
    """The bot (seat 2, seed 4) opens; seat 1 doubles before his first roll, the bot
    takes (its default: never double, always take), and seat 1 resigns a gammon at
    cube 2: 4 points end the 3-point match."""
    save = tmp_path / "match.json"
    out = run(
        [
            "play",
            "backgammon",
            "--match",
            "3",
            "--vs",
            "bot:easy",
            "--seed",
            "4",
            "--save",
            str(save),
        ],
        "double\nresign gammon\n",
    )
    assert out.returncode == 0, out.stderr
    assert "seat 2 starts" in out.stdout
    assert "match to 3, game 1: X 0 - O 0   cube 1 (centred)" in out.stdout
    assert "seat 2 (bot:easy) plays take" in out.stdout
    assert "cube 2 (O owns it)" in out.stdout
    assert "Seat 2 wins the match to 3, 0-4." in out.stdout
    record = Record.load(save)
    assert record.options["match_length"] == 3 and record.options["cube"] is True
    final = record.final_state()
    assert final.is_terminal() and final.match_score == (0, 4)  # type: ignore[attr-defined]
    assert record.actions[2:4] == ["double", "take"]
    assert record.actions[-2:] == ["resign gammon", "accept"]


def test_money_flag_sets_cube_and_jacoby(tmp_path: Path) -> None:
    save = tmp_path / "money.json"
    out = run(
        [
            "play",
            "backgammon",
            "--money",
            "--vs",
            "bot:easy",
            "--seed",
            "2",
            "--seat",
            "2",
            "--save",
            str(save),
        ],
        "resign\n",
    )
    assert out.returncode == 0, out.stderr
    options = Record.load(save).options
    assert options["jacoby"] is True and options["cube"] is True and options["match_length"] == 0
    bad = run(["play", "backgammon", "--money", "--match", "3"], "")
    assert bad.returncode != 0 and "not both" in bad.stderr + bad.stdout


def test_export_and_import_commands(tmp_path: Path) -> None:
    mat = tmp_path / "five.mat"
    mat.write_text((DATA / "gnubg_match5.mat").read_text())
    out = run(["import", str(mat)])
    assert out.returncode == 0, out.stderr
    assert "5-point match, 6 games finished, score 2-10 (finished)" in out.stdout
    record_path = tmp_path / "five.json"
    data = json.loads(record_path.read_text())
    assert data["options"]["match_length"] == 5
    again = tmp_path / "again.mat"
    out = run(["export", str(record_path), "--format", "mat", "--output", str(again)])
    assert out.returncode == 0, out.stderr
    assert Record.load(record_path).actions == (
        __import__("dicehall.games.backgammon.mat", fromlist=["import_mat"])
        .import_mat(again.read_text())
        .actions
    )
    broken = tmp_path / "broken.mat"
    broken.write_text("this is not a match\n")
    out = run(["import", str(broken)])
    assert out.returncode == 2 and "starts with 'N point match'" in out.stderr
    out = run(["export", str(record_path), "--format", "sgf"])
    assert out.returncode == 2 and "expected one of mat, json" in out.stderr
