"""The seams refactor changes no behaviour: bot decisions and seeded records stay pinned."""

from __future__ import annotations

import json

import pytest
from behaviour_pins import CASES, PINS, current  # type: ignore[import-not-found]


@pytest.fixture(scope="module")
def now() -> dict[str, object]:
    return current()


@pytest.mark.parametrize("game", [case[0] for case in CASES])
def test_same_decisions_and_records(game: str, now: dict[str, dict[str, object]]) -> None:
    pinned = json.loads(PINS.read_text())[game]
    assert now[game]["decisions"] == pinned["decisions"]
    assert now[game]["records"] == pinned["records"]
