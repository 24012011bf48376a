"""Position IDs checked against GNU Backgammon itself (skipped when gnubg is absent)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from dicehall import Match, load_game
from dicehall.bots import RandomBot
from dicehall.games.backgammon import BackgammonState

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
pytestmark = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")

SCRIPT = """
import gnubg, json
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("new game")
out = []
for pid in json.load(open({ids!r})):
    gnubg.command("set board " + pid)
    out.append([gnubg.positionid(), [list(side) for side in gnubg.board()]])
json.dump(out, open({result!r}, "w"))
"""


def sample_states(n_games: int) -> list[BackgammonState]:
    states: list[BackgammonState] = []
    for seed in range(n_games):
        game = load_game("backgammon")
        match = Match(game, [RandomBot(seed=seed), RandomBot(seed=seed + 50)], seed=seed)
        match.play()
        states += [s for s in match.record.states() if isinstance(s, BackgammonState)][::7]
    return states


def test_position_ids_open_unchanged_in_gnubg(tmp_path: Path) -> None:
    states = sample_states(6)
    ids = [s.position_id() for s in states]
    (tmp_path / "ids.json").write_text(json.dumps(ids))
    script = tmp_path / "check.py"
    result = tmp_path / "result.json"
    script.write_text(SCRIPT.format(ids=str(tmp_path / "ids.json"), result=str(result)))
    assert GNUBG is not None
    subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(script)], check=True, timeout=300, capture_output=True
    )
    answers = json.loads(result.read_text())
    assert len(answers) == len(states)
    for state, (their_id, (opponent, on_roll)) in zip(states, answers, strict=True):
        assert their_id == state.position_id()
        # gnubg: index 0..23 = points 1..24 of that side, 24 = bar; side 1 is on roll
        assert on_roll == list(state.board[0][1:26])
        assert opponent == list(state.board[1][1:26])
