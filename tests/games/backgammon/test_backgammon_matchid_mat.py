"""gnubg Match IDs and .mat files: round trips here, and GNU Backgammon itself as the
judge where it is installed (those tests skip without it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from dicehall import Match, Record, load_game
from dicehall.bots import RandomBot
from dicehall.core.errors import RecordError
from dicehall.games.backgammon import START_SIDE
from dicehall.games.backgammon.mat import export_mat, import_mat
from dicehall.games.backgammon.matchid import (
    MatchKey,
    decode_match_id,
    state_from_ids,
)
from dicehall.games.backgammon.rules import BackgammonState, Play

DATA = Path(__file__).parent / "data"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")

OPTION_SETS = [
    {"match_length": 3},
    {"match_length": 5},
    {"match_length": 7},
    {"match_length": 11},
    {},
    {"jacoby": True},
]


def random_records(per_set: int = 2) -> list[Record]:
    records = []
    for i, options in enumerate(OPTION_SETS):
        game = load_game("backgammon", cube=True, scoring="standard", **options)
        for k in range(per_set):
            seed = 100 * i + k
            match = Match(game, [RandomBot(seed=seed), RandomBot(seed=seed + 1)], seed=seed + 2)
            records.append(match.play(max_actions=30_000))
    return records


def playing_states(records: list[Record]) -> list[BackgammonState]:
    out = []
    for record in records:
        for state in record.states():
            assert isinstance(state, BackgammonState)
            if not state.is_terminal() and not state.opening:
                out.append(state)
    return out


def run_gnubg(tmp_path: Path, script: str) -> None:
    path = tmp_path / "script.py"
    path.write_text(script)
    assert GNUBG is not None
    subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(path)], check=True, timeout=300, capture_output=True
    )


# -- Match ID ---------------------------------------------------------------------


def test_match_id_known_values_and_fields() -> None:
    game = load_game("backgammon", cube=True, match_length=5)
    state = game.setup((START_SIDE, START_SIDE), turn=0, dice=(3, 2))
    assert state.match_id() == "MIGpAAAAAAAE"  # what gnubg 1.07 prints after "new match 5"
    key = decode_match_id("cAkPAAAAAAAA")  # gnubg: money, Jacoby on, player 1 rolled 6-3
    assert key == MatchKey(on_roll=1, turn=1, game_state=1, dice=(6, 3), jacoby=True)
    with pytest.raises(ValueError, match="expected 12 base64 characters"):
        decode_match_id("cAkPAAAA")
    with pytest.raises(ValueError, match="cube owner 2"):
        decode_match_id(MatchKey(cube_owner=2).encode())


def test_match_ids_round_trip_through_state_from_ids() -> None:
    states = playing_states(random_records(1))
    assert len(states) > 100
    for state in states:
        again = state_from_ids(state.position_id(), state.match_id(), state.game)
        assert again.match_id() == state.match_id()
        assert again.board == state.board and again.turn == state.turn
        assert (again.cube_value, again.cube_owner) == (state.cube_value, state.cube_owner)
        assert again.match_score == state.match_score and again.crawford == state.crawford
        assert again.post_crawford == state.post_crawford
        if state.is_chance_node():  # a Match ID stops before the roll: at the decision
            assert again.is_cube_decision() and again.current_player() == state.turn
            continue
        assert again.current_player() == state.current_player()
        assert again.legal_texts() == state.legal_texts() or state.resign_refused


GNUBG_MATCHID = """
import gnubg, json
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("new match 5")
out = []
for pid, base, pending, level in json.load(open({ids!r})):
    gnubg.command("set matchid " + base)
    gnubg.command("set board " + pid)
    if pending == "take":
        gnubg.command("double")
    if pending == "resign":
        gnubg.command("resign " + ["", "normal", "gammon", "backgammon"][level])
    out.append([gnubg.matchid(), gnubg.positionid(), gnubg.posinfo(), gnubg.cubeinfo()])
json.dump(out, open({result!r}, "w"))
"""


@needs_gnubg
def test_match_ids_are_gnubgs(tmp_path: Path) -> None:
    """gnubg reads our IDs to the same fields and, making the same offers itself
    (``double``, ``resign``), writes the same IDs."""
    states = playing_states(random_records(2))
    rows = []
    for s in states:
        key = decode_match_id(s.match_id())
        base = replace(key, turn=key.on_roll, doubled=False, resigned=0).encode()
        rows.append([s.position_id(), base, s.pending, s.resign_level])
    (tmp_path / "ids.json").write_text(json.dumps(rows))
    result = tmp_path / "out.json"
    run_gnubg(tmp_path, GNUBG_MATCHID.format(ids=str(tmp_path / "ids.json"), result=str(result)))
    answers = json.loads(result.read_text())
    assert len(answers) == len(states) > 200
    assert sum(1 for s in states if s.pending in ("take", "resign")) > 20
    for s, (mid, pid, pos, cube) in zip(states, answers, strict=True):
        assert (mid, pid) == (s.match_id(), s.position_id()), repr(s)
        assert cube["cube"] == s.cube_value and cube["matchto"] == s.match_length
        assert cube["cubeowner"] == (-1 if s.cube_owner is None else s.cube_owner)
        assert tuple(cube["score"]) == s.match_score and bool(cube["crawford"]) == s.crawford
        assert cube["move"] == s.turn
        assert tuple(pos["dice"]) == (s.dice or (0, 0))
        assert pos["turn"] == (s.turn if s.is_chance_node() else s.current_player())
        assert bool(pos["doubled"]) == (s.pending == "take")
        assert pos["resigned"] == (s.resign_level if s.pending == "resign" else 0)


# -- .mat -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "length", "score"),
    [("gnubg_match5", 5, (2, 10)), ("gnubg_match7", 7, (4, 8)), ("gnubg_money3", 0, (6, 0))],
)
def test_gnubg_written_files_import_and_round_trip(
    name: str, length: int, score: tuple[int, int]
) -> None:
    """Files gnubg 1.07 wrote (its bots playing with the cube) replay here."""
    record = import_mat((DATA / f"{name}.mat").read_text())
    final = record.final_state()
    assert isinstance(final, BackgammonState)
    assert final.is_terminal() and final.match_length == length and final.match_score == score
    assert record.players == ["gnubg", "root"]
    again = import_mat(export_mat(record))
    assert again.actions == record.actions and again.options == record.options


def test_random_matches_round_trip_through_mat() -> None:
    for record in random_records(2):
        text = export_mat(record)
        back = import_mat(text, **{k: v for k, v in record.options.items() if k == "jacoby"})
        a, b = record.final_state(), back.final_state()
        assert isinstance(a, BackgammonState) and isinstance(b, BackgammonState)
        assert a.history == b.history and a.match_score == b.match_score
        assert a.board == b.board or a.history[-1] == b.history[-1]
        assert export_mat(back) == text


def test_bad_mat_files_say_what_is_wrong() -> None:
    with pytest.raises(RecordError, match="starts with 'N point match'"):
        import_mat("hello\n")
    text = (DATA / "gnubg_match5.mat").read_text()
    with pytest.raises(RecordError, match="does not replay"):
        import_mat(text.replace("52: 13/8 24/22", "52: 13/8 24/20", 1))
    with pytest.raises(RecordError, match="score 0-9 is not the replayed 0-1"):
        import_mat(text.replace(" root : 1", " root : 9", 1))
    with pytest.raises(RecordError, match="hold backgammon, not coinrows"):
        export_mat(Record("coinrows"))


GNUBG_IMPORT = """
import gnubg, json
gnubg.command("import mat {path}")
json.dump(gnubg.match(analysis=0, boards=1), open({result!r}, "w"), default=str)
"""


def gnubg_view(tmp_path: Path, mat: Path) -> list[dict]:
    result = tmp_path / (mat.stem + ".json")
    run_gnubg(tmp_path, GNUBG_IMPORT.format(path=str(mat), result=str(result)))
    return json.loads(result.read_text())["games"]  # type: ignore[no-any-return]


def our_view(record: Record) -> list[dict]:
    """Per game: winner, points, and each checker play as (player, board before, dice)."""
    games: list[dict] = [{"plays": []}]
    states = list(record.states())
    for text, before, after in zip(record.actions, states, states[1:], strict=False):
        assert isinstance(before, BackgammonState) and isinstance(after, BackgammonState)
        if isinstance(before.parse_action(text), Play):
            assert before.dice is not None
            games[-1]["plays"].append(
                (before.turn, before.position_id(), sorted(before.dice), after.board)
            )
        if len(after.history) > len(before.history):
            games[-1]["result"] = after.history[-1]
            if not after.is_terminal():
                games.append({"plays": []})
    return games


def check_same(ours: list[dict], theirs: list[dict]) -> None:
    assert len(ours) == len(theirs)
    for mine, their in zip(ours, theirs, strict=True):
        info = their["info"]
        winner = {"X": 0, "O": 1}[info["winner"]]
        assert (winner, info["points-won"]) == mine["result"]
        moves = [a for a in their["game"] if a["action"] == "move"]
        assert len(moves) == len(mine["plays"])
        for (seat, pid, dice, _), move in zip(mine["plays"], moves, strict=True):
            assert {"X": 0, "O": 1}[move["player"]] == seat
            assert move["board"] == pid and sorted(move["dice"]) == dice


@needs_gnubg
def test_our_mat_export_imports_into_gnubg_with_the_same_moves_and_results(
    tmp_path: Path,
) -> None:
    for i, record in enumerate(random_records(1)):
        mat = tmp_path / f"ours{i}.mat"
        mat.write_text(export_mat(record))
        if record.options.get("jacoby"):
            continue  # gnubg reads Jacoby from its own settings, not the file
        check_same(our_view(record), gnubg_view(tmp_path, mat))


@needs_gnubg
def test_gnubg_written_mat_replays_here_to_the_same_positions(tmp_path: Path) -> None:
    for name in ("gnubg_match5", "gnubg_match7", "gnubg_money3"):
        path = DATA / f"{name}.mat"
        check_same(our_view(import_mat(path.read_text())), gnubg_view(tmp_path, path))


def test_beavers_and_raccoons_round_trip_and_switch_their_options_on() -> None:
    game = load_game("backgammon", cube=True, scoring="standard", beavers=True, raccoons=True)
    state = game.new_initial_state()
    record = Record.new(game, ["ann", "bob"])
    for text in ["3-1", "8/5 6/5", "double", "beaver", "raccoon", "6-5", "24/13"]:
        record.actions.append(text)
        state = state.apply_text(text)
    assert (state.cube_value, state.cube_owner) == (8, 1)
    record.actions += ["resign single", "accept"]  # seat 0 on turn resigns at cube 8
    text = export_mat(record)
    assert " Doubles => 2" in text and " Beavers => 4" in text and " Raccoons => 8" in text
    back = import_mat(text)
    assert back.options["beavers"] is True and back.options["raccoons"] is True
    assert back.actions == record.actions
    assert back.final_state().returns() == [-8.0, 8.0]


def test_an_event_in_the_wrong_column_is_refused() -> None:
    text = (DATA / "gnubg_match5.mat").read_text()
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("  2) 52: 13/8 24/22"))
    lines[i] = "  2)                             52: 13/8 24/22"
    with pytest.raises(RecordError, match="player 2's column when player 1 is to act"):
        import_mat("\n".join(lines))
