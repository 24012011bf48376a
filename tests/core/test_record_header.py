"""The record's header (date, players, result, version) and its safe saving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dicehall import Match, Record, RecordError, load_game
from dicehall.bots import RandomBot
from dicehall.core.record import dicehall_version

OLD_RECORD = {  # as written before records had a header
    "format": "dicehall-record",
    "version": 1,
    "game": "backgammon",
    "options": {"scoring": "single"},
    "players": ["you", "random"],
    "actions": ["3-1", "8/5 6/5"],
    "meta": {"seed": 4},
}


def finished_match() -> Match:
    match = Match(load_game("coinrows"), [RandomBot(seed=1), RandomBot(seed=2)], seed=5)
    match.play()
    return match


def test_the_header_names_date_players_result_and_version() -> None:
    match = finished_match()
    match.record.stamp()
    data = json.loads(match.record.to_json())
    header = data["header"]
    assert list(data)[:3] == ["format", "version", "header"]
    assert header["players"] == ["random", "random"]
    assert header["result"] == match.state.returns()
    assert header["dicehall"] == dicehall_version() != "unknown"
    assert header["date"] is not None and header["date"].endswith("Z")
    again = Record.from_json(match.record.to_json())
    assert again.date == match.record.date
    assert again == match.record


def test_a_game_in_progress_has_no_result_yet() -> None:
    record = Record.new(load_game("backgammon"), ["a", "b"])
    assert record.header()["result"] is None
    assert record.header()["date"] is None  # only a front end that starts a game dates it


def test_an_old_record_without_a_header_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(OLD_RECORD), encoding="utf-8")
    record = Record.load(path)
    assert record.actions == ["3-1", "8/5 6/5"]
    assert record.date is None
    assert not record.final_state().is_terminal()


def test_saving_to_a_folder_or_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    record = finished_match().record
    with pytest.raises(RecordError, match="it is a folder"):
        record.save(tmp_path)
    with pytest.raises(RecordError, match="No such file or directory"):
        record.save(tmp_path / "missing" / "g.json")
    assert list(tmp_path.iterdir()) == []
    record.save(tmp_path / "g.json")
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
